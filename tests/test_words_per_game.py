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


def _site_texts(game: GameDir) -> dict[str, str]:
    site = game.root / "site"
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in site.rglob("*.html")}


def _mail_texts(game: GameDir) -> list[str]:
    return [m.get_content() for folder in game.state_dir.rglob("sent") if folder.is_dir()
            for m in iter_messages(folder)]


def _status(game: GameDir) -> str:
    from click.testing import CliRunner

    from admin.cli import main as cli

    out = CliRunner().invoke(cli.cli, ["status", "--game", str(game.root)])
    assert out.exit_code == 0, out.output
    return out.output


@pytest.mark.parametrize("name", _demos())
def test_a_board_page_and_a_proposals_page_only_where_the_game_has_them(demos: dict[str, GameDir], name: str) -> None:
    """Technopoly's unlinked board.html said "Owned squares take their owner's colour; tokens show
    where each player stands" of a game with no squares; it is not built, nor proposals.html in a
    game without proposals, and no page links to either."""
    game = demos[name]
    state = game.load()
    pages = _site_texts(game)
    assert ("board.html" in pages) == (state.layout != "none")
    # the Teams variant's proposals are judged by the Admin (teams-proposals), kept by week
    assert ("proposals.html" in pages) == (name not in ("technopoly", "timopoly"))
    for page in ("board.html", "proposals.html"):
        if page not in pages:
            assert [rel for rel, html in pages.items() if f'href="{page}' in html or f'/{page}' in html] == []


@pytest.mark.parametrize("name", _demos())
def test_the_admin_bank_account_is_named_only_in_a_game_that_has_one(demos: dict[str, GameDir], name: str) -> None:
    from admin.site.export import parts

    game = demos[name]
    has = parts(game.load())["has_admin_bank"]
    assert has == (name not in ("nomoteams", "technopoly"))
    status = _status(game)
    assert ("Admin Bank Account" in status) == has
    if not has:
        assert [rel for rel, html in _site_texts(game).items() if "Admin Bank Account" in html] == []
        assert not any("Admin Bank Account" in text for text in _mail_texts(game))


@pytest.mark.parametrize("name", _demos())
def test_status_names_the_next_updates_date_and_no_empty_fact(demos: dict[str, GameDir], name: str) -> None:
    import re

    game = demos[name]
    state = game.load()
    head, *rows = _status(game).splitlines()[-len(state.players) - 1:]
    # "next: Sunday update, mail closes Sat 14 Nov 2026, 23:59 UTC", not "next: Sunday"
    assert re.search(r"next: \w+ update, mail closes \w{3} \d{1,2} \w{3} 20\d\d, 23:59 UTC\.", head), head
    assert len(rows) == len(state.players)
    for row in rows:
        assert not re.search(r"(squares owned|homesteads|deeds)\s{2}", row), row  # a label, then nothing
        assert not row.rstrip().endswith(("owned", "homesteads"))
        assert (" square " in f" {row} ") == (state.layout != "none"), row
    if name == "technopoly":
        assert not any("points" in row.split("robots")[0] for row in rows)  # no money column
