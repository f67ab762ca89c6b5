"""See before you vote (issue 33): every open proposal that changes what runs shows what it would
have done in the last update, on the same mail and dice: on its page, in the status export, and to
the Admin with ``nomopoly proposal preview N``. Exact numbers: the scenarios
tests/games/nomopoly2/scenarios/viii1-preview-*.yaml."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime

from fixtures.games import deliver

from admin.jobs import update as jobs
from admin.jobs.preview import MAX_PREVIEWS, SAME
from admin.site.build import build

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")


def _nomopoly(game, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "admin", "--game", str(game.root), *args],
                          capture_output=True, text=True)


def test_an_open_proposal_shows_its_preview_on_its_page_and_to_the_admin(game_dir):
    inbox = game_dir.root / "mail" / "inbox"
    deliver(inbox, "alice@example.org", "PROPOSE Rich start\nSET turns pass_bonus 5000\nEND\n",
            "2026-11-03T10:00:00+00:00")
    deliver(inbox, "bob@example.org", "PROPOSE Tidy words\nADD RULE I: Be kind to one another.\nEND\n",
            "2026-11-03T10:01:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    state = game_dir.load_public()
    rich, tidy = state.proposal(1), state.proposal(2)
    assert rich is not None and tidy is not None
    assert rich.preview and all(line == SAME or " instead of " in line for line in rich.preview)
    assert tidy.preview == []  # only the rules' words change: nothing to preview
    build(game_dir, game_dir.root / "site")
    page = (game_dir.root / "site" / "proposals.html").read_text(encoding="utf-8")
    assert "Had it been in force in the last update" in page
    assert all(line in page for line in rich.preview)
    said = _nomopoly(game_dir, "proposal", "preview", "1")
    assert said.returncode == 0 and "Proposal 1: Rich start (voting)" in said.stdout
    assert all(line in said.stdout for line in rich.preview)
    words = _nomopoly(game_dir, "proposal", "preview", "2")
    assert "It changes only the rules' words, or nothing the engine runs: no preview." in words.stdout
    missing = _nomopoly(game_dir, "proposal", "preview", "9")
    assert missing.returncode == 2 and "there is no live proposal 9 (live proposals: 1, 2)" in missing.stderr


def test_at_most_a_few_proposals_are_tried_an_update(game_dir):
    inbox = game_dir.root / "mail" / "inbox"
    for i, who in enumerate(["alice", "bob", "carol"] * 2):
        deliver(inbox, f"{who}@example.org", f"PROPOSE Bonus {i}\nSET turns pass_bonus {1000 + i}\nEND\n",
                f"2026-11-03T10:{i:02d}:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    tried = [p for p in game_dir.load_public().proposals if p.preview]
    assert 0 < len(tried) <= MAX_PREVIEWS
