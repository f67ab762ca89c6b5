"""See before you vote, in a real browser (issue 33, item 3): the proposals page of a game run by
the real update job shows each open proposal's preview (headless chromium reads it), and the
preview comes true: the same game, with the proposal in force before the update, given the same
mail and the same committed dice, ends that update with exactly the money the page said."""

from __future__ import annotations

import re
import shutil
from datetime import datetime

import pytest
from fixtures.games import deliver

from admin.games.registry import REGISTRY
from admin.jobs import update as jobs
from admin.nomic.amendments import carry_out, parse_directives
from admin.site.build import build
from admin.store.fileio import Transaction
from admin.store.gamedir import GameDir

pytestmark = pytest.mark.browser

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
RULE = "ADD RULE VI: A player who lands on any square receives $7 from the Admin Bank Account."
#: the update's mail: alice proposes the rule, bob proposes a parameter, carol only asks
MAIL = [("alice@example.org", f"PROPOSE Landing money\n{RULE}\nEND\n", "2026-11-03T10:00:00+00:00"),
        ("bob@example.org", "PROPOSE Rich start\nSET turns pass_bonus 5000\nEND\n", "2026-11-03T10:01:00+00:00"),
        ("carol@example.org", "STATUS\n", "2026-11-03T10:02:00+00:00")]
_LINE = re.compile(r"^(?P<name>\w+): \$(?P<would>-?\d+) instead of \$(?P<was>-?\d+)")


def _deliver(game: GameDir) -> None:
    for sender, body, when in MAIL:
        deliver(game.root / "mail" / "inbox", sender, body, when)


def test_the_proposals_page_shows_each_preview_and_the_preview_comes_true(game_dir, tmp_path, chromium_browser):
    twin = GameDir(shutil.copytree(game_dir.root, tmp_path / "twin"))  # the same game, seeds and all
    _deliver(game_dir)
    jobs.run_update_job(game_dir, at=WED)
    state = game_dir.load_public()
    landing, rich = state.proposal(1), state.proposal(2)
    assert landing is not None and rich is not None
    # everyone lands somewhere in the update: the rule would have paid each of them
    assert [line.split(":")[0] for line in landing.preview] == ["alice", "bob", "carol"]

    site = game_dir.root / "site"
    build(game_dir, site)
    page = chromium_browser.new_page()
    try:
        page.goto((site / "proposals.html").as_uri())
        shown = {}
        for number in (1, 2):
            section = page.locator(f"#proposal-{number}")
            assert section.count() == 1
            preview = section.locator("section.preview")
            assert preview.is_visible()
            assert "Had it been in force in the last update" in preview.inner_text()
            shown[number] = [li.inner_text().strip() for li in preview.locator("li").all()]
    finally:
        page.close()
    assert shown[1] == landing.preview and shown[2] == rich.preview

    # the twin: proposal 1 in force before the update, as if accepted the week before
    before = twin.load()
    carry_out(before, 1, parse_directives(RULE), REGISTRY)
    with twin.lock():
        tx = Transaction(twin.state_dir)
        twin.stage_state(tx, before)
        tx.commit()
    _deliver(twin)
    jobs.run_update_job(twin, at=WED)
    after = twin.load_public()
    real = game_dir.load_public()
    said = {m["name"]: (int(m["would"]), int(m["was"])) for m in map(_LINE.match, shown[1]) if m}
    assert sorted(said) == ["alice", "bob", "carol"]
    for name, (would, was) in said.items():
        assert real.players[name].money == was
        assert after.players[name].money == would, name
        assert would > was  # $7 for each landing, doubles and all
    assert any("(rule VI.19)" in line for line in _events(twin))


def _events(game: GameDir) -> list[str]:
    from admin.store.fileio import load_json

    data = load_json(game.results_path(1))
    return [e["text"] for e in data["events"] if e.get("text")]
