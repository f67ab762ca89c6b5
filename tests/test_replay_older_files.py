"""A game saved before a field was added still passes ``replay --check``: the file lacks the field
and reads with its default, which is the same data (issue 28: a game saved before a change passes
replay --check). A change of the data itself is still named."""

from __future__ import annotations

import re
from datetime import datetime

from fixtures.games import deliver

from admin.jobs import update as jobs

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")


def _as_saved_before(game) -> int:
    """Strip what the tool began writing after 2026-11-27 (a proposal's empty ``preview``, the
    written rules' empty ``lost_turns``), as a game saved then holds them; how many were stripped."""
    n = 0
    for path in [game.state_dir / "proposals.yaml", *game.archive_files(),
                 game.state_dir / "modules" / "written-rules.yaml"]:
        text = path.read_text()
        text, k = re.subn(r'(?m)^\s*preview: \[\]\n|^lost_turns: \{\}\n|,\s*"preview": \[\]', "", text)
        path.write_text(text)
        n += k
    return n


def _game_with_proposals(game_dir):
    inbox = game_dir.root / "mail" / "inbox"
    deliver(inbox, "alice@example.org", "PROPOSE Quieter\nAMEND I.1 to: Be nice.\nEND", "2026-11-03T10:00:00")
    jobs.run_update_job(game_dir, at=WED)
    deliver(inbox, "bob@example.org", "VOTE 1 YES", "2026-11-06T10:00:00")
    jobs.run_update_job(game_dir, at=SAT)
    return game_dir


def test_files_saved_before_a_field_was_added_replay(game_dir):
    game = _game_with_proposals(game_dir)
    assert jobs.replay_check(game) == []
    assert _as_saved_before(game) >= 2
    assert jobs.replay_check(game) == []


def test_a_changed_proposal_in_an_older_file_is_still_named(game_dir):
    game = _game_with_proposals(game_dir)
    _as_saved_before(game)
    path = game.state_dir / "proposals.yaml"
    path.write_text(path.read_text().replace("Quieter", "Louder", 1))
    assert any(p.startswith("state/proposals.yaml differs") for p in jobs.replay_check(game))
