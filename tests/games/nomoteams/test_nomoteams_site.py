"""The Teams variant's site as its players meet it, from its demo (four weeks): nothing private
reaches it (a secret Blockbuster, sealed bids before the close, addresses), the pseudoplayers
stand in the standings marked as such, and no Admin Bank line is shown (this game has none)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from admin.store.gamedir import GameDir
from admin.site.build import build_site

GAME = "nomoteams"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    from admin.jobs.demo import run_demo

    out = tmp_path_factory.mktemp("nomoteams-site") / "demo"
    run_demo(out, echo=lambda _: None, game_name=GAME)
    return GameDir(out)


def _site(game: GameDir) -> dict[str, str]:
    site = game.root / "site"
    return {str(p.relative_to(site)): p.read_text(encoding="utf-8", errors="replace").lower()
            for p in site.rglob("*") if p.is_file()}


def _private(game: GameDir, module: str) -> dict:
    return yaml.safe_load((game.state_dir / "private" / f"{module}.yaml").read_text(encoding="utf-8"))


def test_the_demos_secrets_are_really_there_when_it_ends(demo: GameDir) -> None:
    """The demo ends with secrets to keep: alice's Blockbuster on square 9 (placed in week 4, it goes
    off a week later, XIX.4) and her sealed $35 for square 4 (Going Once until update 5, X.5)."""
    blockbusters = _private(demo, "teams-products")["blockbusters"]
    assert [(b["placer"], b["product"], b["square"]) for b in blockbusters] == [("alice", "Blockbuster", 9)]
    assert _private(demo, "interactions")["answers"] == {"2": {"alice": 35}}


def test_no_secret_blockbuster_sealed_bid_address_or_seed_of_the_demo_reaches_its_site(demo: GameDir) -> None:
    files = _site(demo)
    state = demo.load()
    secrets = yaml.safe_load((demo.state_dir / "secrets.yaml").read_text(encoding="utf-8"))
    words = [*state.private.emails.values(), secrets["next_seed"], secrets["next_hidden_seed"]]
    for b in _private(demo, "teams-products")["blockbusters"]:  # XIX.4: placed in secret
        n, what = b["square"], b["product"].lower()
        words += [f"{what} on {n}", f"{what} on square {n}", f"placed a {what}", f"place {what} on {n}"]
    for auction, bids in _private(demo, "interactions")["answers"].items():  # X.5: sealed until the close
        for who, amount in bids.items():
            words += [f"{who} ${amount}", f"{who}: ${amount}", f"bid of ${amount}", f"bid {amount} on",
                      f"${amount} on"]
    for job, bids in (_private(demo, "teams-labor").get("bids") or {}).items():  # XXXII.1: sealed too
        for who, amount in (bids or {}).items():
            words += [f"{who} ${amount}", f"bid job {job.lower()} {amount}"]
    for path, text in files.items():
        for word in words:
            assert word.lower() not in text, f"{word!r} leaked into {path}"
    # the closed auction of square 5 is published in the same form the check above looks for (X.5);
    # the open one of square 4 shows its highest bid to date, alice's $35, without her name (X.5)
    assert "bids: carol $60, bob $45, alice $40" in files["updates/0003.html"]
    assert ('<th scope="row">square 4</th><td>going once</td><td>$35</td><td>-</td>'
            in files["government.html"])


def test_the_pseudoplayers_stand_in_the_standings_marked_as_such(demo: GameDir) -> None:
    """XXXIII.1: The Government is shown like a player, marked: its money plus its squares' market
    value ($10 x the number, a standing ruling): Public Property 10 and 20, square 4 carol gave it in
    week 3 (Going Once when the demo ends) and square 5, sold to carol in week 3 but passing to her
    only at the start of the week after next (X.5) -> $40 + $50 + $100 + $200 = $390 above its money."""
    from admin.games.nomoteams.mechanics.shared import squares_of

    state = demo.load_public()
    assert squares_of(state, "The Government") == [4, 5, 10, 20]
    money = state.mods["teams-pseudo"].money["The Government"]
    files = _site(demo)
    for page in ("players.html", "index.html"):
        row = re.search(r'<tr class="other">\s*<td><a href="pseudoplayers.html">the government</a> '
                        r'<span class="badge[^"]*">pseudoplayer</span></td>(.*?)</tr>', files[page], re.S)
        assert row, page
        cells = re.findall(r'<td class="num">(?:<strong>)?([^<]*)', row.group(1))
        assert cells[0] == f"${money:,}" and cells[-1] == f"${money + 390:,}", (page, cells)
    # the players' Squares owned column is filled for it too (links to the board)
    assert re.search(r'<td><a href="board.html#square-4">4</a>, <a href="board.html#square-5">5</a>, '
                     r'<a href="board.html#square-10">10</a>, <a href="board.html#square-20">20</a></td>',
                     files["players.html"])
    assert 'href="players/the' not in files["players.html"]  # not a player: no player page


def test_no_admin_bank_line_in_a_game_without_one(demo: GameDir, tmp_path: Path) -> None:
    """This game's money comes from nowhere (IV.3): the home page shows money but no Admin Bank;
    Nomopoly II, which has one, still shows it."""
    from fixtures.browser import make_game

    assert "admin bank" not in _site(demo)["index.html"]
    assert "<th scope=\"col\" class=\"num\">money</th>" in _site(demo)["players.html"]
    other = make_game(tmp_path / "n2", updates=0)
    build_site(other)
    assert "<dt>Admin Bank</dt>" in (other.root / "site" / "index.html").read_text(encoding="utf-8")
