"""Each bundled demo's home page and results mail speak only of what the game has: no proposals
or votes where the game has no proposals, no money where players keep none, no square where
there is no board (issue 32)."""

from __future__ import annotations

import pytest

from admin.mail.outbound.outbox import iter_messages
from admin.store.gamedir import GameDir


def _demos() -> list[str]:
    from admin.games.catalog import available, spec

    return [g for g in available() if spec(g).demo]


@pytest.fixture(scope="module")
def demos(demo_site) -> dict[str, GameDir]:
    return {g: GameDir(demo_site(g).parent) for g in _demos()}


def _results(game: GameDir) -> list[str]:
    mails = [m for folder in game.state_dir.rglob("sent") if folder.is_dir() for m in iter_messages(folder)]
    return [m.get_content() for m in mails if m["X-Nomopoly-Kind"] == "results"]


@pytest.mark.parametrize("name", _demos())
def test_the_home_page_and_results_mail_name_only_parts_the_game_has(demos: dict[str, GameDir], name: str) -> None:
    game = demos[name]
    state = game.load()
    home = (game.root / "site" / "index.html").read_text(encoding="utf-8")
    results = _results(game)
    assert results, name
    if state.enabled("proposals"):
        assert "by proposal and vote" in home
        assert all("Proposals open for your vote" in r for r in results)
    else:
        assert "by proposal and vote" not in home
        assert not any("Proposals open for your vote" in r for r in results)
    if state.layout == "none":
        assert not any("\n  Square: " in r for r in results)
    else:
        assert all("\n  Square: " in r for r in results)


def test_technopolys_results_show_neither_money_nor_a_square(demos: dict[str, GameDir]) -> None:
    results = _results(demos["technopoly"])
    assert results
    assert not any("Money: " in r or "Square: " in r for r in results)


@pytest.mark.parametrize("name", _demos())
def test_the_deadline_calendar_asks_for_proposals_and_votes_only_where_the_game_has_them(
        demos: dict[str, GameDir], name: str) -> None:
    game = demos[name]
    ics = (game.root / "site" / "deadlines.ics").read_bytes().decode("utf-8").replace("\r\n ", "")
    assert "must arrive by the end" in ics
    assert ("proposals and votes" in ics) == game.load().enabled("proposals")
