"""The ``nomopoly2-full`` demo (``nomopoly demo --game nomopoly2-full``): four weeks of mail that
play Nomopoly II's later sections for real (scripts/demo_mail/nomopoly2_full.py), replayed and
verified, and its site showing them. The privacy of the sections' hidden values is checked in
tests/test_site_privacy.py, the browser and axe checks in tests/test_site_browser.py."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup

from admin.jobs import update as jobs
from admin.store.gamedir import GameDir


@pytest.fixture(scope="module")
def full_demo(tmp_path_factory) -> GameDir:
    from admin.jobs.demo import run_demo

    out = tmp_path_factory.mktemp("full") / "demo"
    run_demo(out, echo=lambda _: None, game_name="nomopoly2-full")
    return GameDir(out)


def _said(game: GameDir) -> list[str]:
    """Every public event text of the demo's updates, in order."""
    return [e["text"] for path in sorted(game.log_dir.glob("*-update-*.json"))
            for e in json.loads(path.read_text(encoding="utf-8"))["events"] if e.get("text")]


def _page(game: GameDir, name: str) -> str:
    soup = BeautifulSoup((game.root / "site" / name).read_text(encoding="utf-8"), "html.parser")
    return " ".join(soup.find("main").get_text(" ", strip=True).split())


def test_the_full_demo_runs_eight_updates_and_replays_and_verifies(full_demo):
    state = full_demo.load()
    assert (state.update, state.week) == (8, 4)
    assert jobs.replay_check(full_demo) == []
    assert jobs.verify(full_demo) == []


def test_every_email_of_the_demo_is_acted_on_without_a_refusal(full_demo):
    """The players' lines make sense where the dice put them: nothing is refused or misread."""
    said = _said(full_demo)
    assert [t for t in said if "was not done" in t or "not understood" in t] == []
    # the Admin's rulings before update 1 bring the Zoo, the Bank and the House of Cards onto the board
    assert said[1:4] == [
        "The Admin set zoo.zoo_square = 8: The Zoo opens on square 8 for the demo, where the first weeks' "
        "moves reach it",
        "The Admin set bank.square = 15: The Bank of Nomopoly opens on square 15 for the demo",
        "The Admin set house-of-cards.square = 6: The House of Cards opens on square 6 for the demo"]


def test_squares_are_bought_named_traded_and_joined_in_blocks_with_buildings(full_demo):
    from admin.games.nomopoly2.mechanics.shared import blocks, buildings_on
    from admin.library.ownership import owner_of

    state = full_demo.load()
    assert (state.square(14).name, state.square(5).name) == ("Blackjack", "Baker Street")
    assert owner_of(state, 12) == "dave"  # carol's, traded to dave for $450
    assert [(b.id, b.kind, b.squares) for b in blocks(state)] == [
        (1, "residential", [4, 5]), (2, "government", [21]), (3, "industrial", [16, 17, 18])]
    assert {n: buildings_on(state, n) for n in (4, 5, 17)} == {
        4: ["house", "casino"], 5: ["hospital", "atm"], 17: ["missile-silo"]}
    assert buildings_on(state, 21)[0] == "atm"  # the Government's first, in week 2
    said = _said(full_demo)
    assert "#2 (offer) closed: carol and dave traded: carol gave square 12; dave gave $450" in said
    assert "#1 (consent) closed: Squares 4, 5 became residential block 1 (bob paid $500; erin paid $500)." in said
    assert "#5 (consent) closed: Squares 16, 17, 18 became industrial block 3 (carol paid $500; dave paid " \
           "$1000)." in said


def test_the_bank_the_credit_card_transport_and_the_zoo(full_demo):
    from admin.games.nomopoly2.mechanics.bank import BankModule
    from admin.games.nomopoly2.mechanics.credit import CreditModule
    from admin.games.nomopoly2.mechanics.transport.mechanic import TransportModule
    from admin.games.nomopoly2.mechanics.zoo.mechanic import ZooModule

    state = full_demo.load()
    assert BankModule.of(state).mortgages == {}
    said = _said(full_demo)
    assert "dave mortgaged square 18 for $225 (50% of its net worth, $450); it takes no rent until it is " \
           "un-mortgaged." in said  # half of 18 x $25
    assert "dave un-mortgaged square 18 for $248 ($225 received plus 10%)." in said  # $247.50, rounded
    # 2% an update (3% for the Governor from week 4), to the nearest dollar: alice's $1500 of update 6
    # is 1530, 1561, 1592; bob's $500 of update 8 is 510; dave's $2000 of update 3 is 2040,
    # 2081, 2123, 2165, then as Governor 2230, 2297
    assert BankModule.private_of(state).balances == {"alice": 1592, "bob": 510, "dave": 2297}
    card = CreditModule.private_of(state).accounts["dave"]
    # the $50 shovel, 10% interest when week 3 began ($55), paid in full: a tenth of $55 on the limit
    assert (card.balance, card.limit) == (0, 1006)
    assert "dave bought a shovel at the House of Cards for $50 on credit." in _said(full_demo)
    ts = TransportModule.of(state)
    assert ts.methods == {"erin": "car"} and ts.fuel == {"erin": 281} and ts.abandoned == {3: [14]}
    assert "erin bought a helicopter for $250 and uses it now." in _said(full_demo)
    assert [(c.kind, c.square) for c in ZooModule.of(state).creatures] == [("bison", 22)]
    assert "dave spawned the MTS Bison on the Zoo (square 8)." in _said(full_demo)
    assert "dave rode the MTS Bison from square 4 to square 6." in _said(full_demo)
    assert "dave rode the MTS Bison from square 11 to square 15." in _said(full_demo)


def test_blackjack_the_lottery_the_house_of_cards_the_casino_the_governor_and_a_missile(full_demo):
    from admin.games.nomopoly2.mechanics.governor import GovernorModule
    from admin.games.nomopoly2.mechanics.lottery import LotteryModule
    from admin.games.nomopoly2.mechanics.missiles import MissilesModule

    state = full_demo.load()
    said = _said(full_demo)
    assert "dave cashed in Blackjack (ace of hearts, king of clubs: 21) for a 30% bonus of $2453." in said
    assert [d.week for d in LotteryModule.of(state).draws] == [1, 2, 3, 4]
    assert "erin traded 2 cards at the House of Cards for bingo card 1." in said
    assert "Blackjack at the Casino on square 4: dave has QS 7C (17), the dealer 9D KC (19): dave lost the bet " \
           "of $100." in said
    gs = GovernorModule.of(state)
    assert (gs.governor, gs.term_from, gs.term_to) == ("dave", 4, 6)
    assert "The votes for Governor: alice 2, dave 3." in said
    assert MissilesModule.of(state).held == {17: ["cruise"]}


def test_a_proposal_is_made_voted_on_and_carried_out(full_demo):
    from admin.games.nomopoly2.mechanics.casinos.mechanic import CasinosModule

    state = full_demo.load()
    said = _said(full_demo)
    assert "Proposal 1 (Richer casinos) is accepted: 4 Yes, 1 No, 0 Abstain." in said
    assert "The casinos module was changed (weekly_income = 75) by proposal 1." in said
    assert state.params(CasinosModule.name)["weekly_income"] == 75
    # the week's end after the change: the Casino pays its owner the new $75
    assert "erin received $75 from the Casino on square 4." in said[-3:]


def test_the_site_has_the_sections_pages_and_the_board_shows_them(full_demo):
    for name in ("zoo", "bank", "casinos", "lottery", "blocks", "buildings", "transport", "governor"):
        assert (full_demo.root / "site" / f"{name}.html").is_file(), name
    assert "MTS Bison 22 100" in _page(full_demo, "zoo.html")
    assert "Mortgaged squares (they take no rent) Square Name Owner Received To un-mortgage None yet." \
        in _page(full_demo, "bank.html")
    assert "Governor dave weeks 4-6" in _page(full_demo, "governor.html")
    assert "3 industrial 16, 17, 18 16: dave, 17: carol, 18: dave 17: Missile Silo" in _page(full_demo, "blocks.html")
    assert "4 erin House, Casino" in _page(full_demo, "buildings.html")
    assert "erin Car 281" in _page(full_demo, "transport.html")
    assert "Applications awaiting the Admin No. Kind Name Applicant 1 game Dice Duel carol" \
        in _page(full_demo, "patents.html")
    assert "1 8 bob Riding the Bison to the Bank" in _page(full_demo, "exploit-blocks.html")
    board = (full_demo.root / "site" / "board.html").read_text(encoding="utf-8")
    for described in (
            "Square 4; owned by erin; in residential block 1 (squares 4, 5); buildings: House, Casino",
            "Square 17; owned by carol; polluted; in industrial block 3 (squares 16, 17, 18); missiles: Cruise "
            "Missile; buildings: Missile Silo",
            "Square 22; owned by carol; the MTS Bison (100 health)",
            "Square 21; owned by alice; in government block 2 (square 21); buildings: ATM, Legislative Building, "
            "House; here: dave",
            "Square 3; owned by bob; abandoned car (14 fuel)",
            "Square 6; unowned; the House of Cards",
            "Square 8; unowned; the Zoo"):
        assert described in board, described


def test_a_modules_page_joins_the_site_and_its_navigation(full_demo):
    site = full_demo.root / "site"
    soup = BeautifulSoup((site / "railroads.html").read_text(encoding="utf-8"), "html.parser")
    rows = [[c.get_text() for c in tr.find_all(["th", "td"])] for tr in soup.select("table.panel tbody tr")]
    assert rows == [["24", "", "carol", "none"]]  # carol's station, built in week 3
    nav = [a.get_text() for a in BeautifulSoup((site / "index.html").read_text(encoding="utf-8"),
                                               "html.parser").select("nav a")]
    # the sections' own pages sit between Rules and Updates, in their order (Railroads, XVII, first)
    pages = nav[nav.index("Rules") + 1:nav.index("Updates")]
    assert pages[0] == "Railroads" and pages.index("Blocks") < pages.index("Buildings")
    assert all(p in pages for p in ("Transport", "The Bank", "The Zoo", "Casinos", "Patents", "The Lottery",
                                    "Governor"))


def test_the_shipped_mail_is_what_the_demo_script_writes(tmp_path):
    """The Maildir in the game package is the script's output (edit the script, not the mail)."""
    from admin.games.catalog import spec
    from fixtures.games import demo_mail_script, maildir_files

    assert demo_mail_script("nomopoly2-full", "nomopoly2_full").write(tmp_path / "maildir") == 36
    assert maildir_files(tmp_path / "maildir") == maildir_files(spec("nomopoly2-full").demo_maildir)
