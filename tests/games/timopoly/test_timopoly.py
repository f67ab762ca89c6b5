"""Timopoly as a bundled game: its demo (replay, verify, nothing private on the site), its
coverage, and the by-email turn rules not covered by the scenarios (tests/games/timopoly/scenarios)."""

import json
import subprocess
import sys

import pytest

from admin.jobs import update as jobs
from admin.jobs.demo import run_demo
from admin.store.gamedir import GameDir
from admin.library.interactions import InteractionsModule
from admin.games.timopoly.mechanics.cards import TimoCardsModule
from admin.games.timopoly.mechanics.deeds import TimoDeedsModule
from admin.jobs.scenario import run


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> GameDir:
    root = tmp_path_factory.mktemp("timopoly") / "demo"
    run_demo(root, echo=lambda _: None, game_name="timopoly")
    return GameDir(root)


def test_the_demo_plays_two_weeks_of_mail_with_purchases_and_an_auction(demo):
    state = demo.load()
    assert (state.update, state.week, state.currency, state.layout) == (4, 2, "Fn {}", "loop")
    assert len(state.squares) == 40 and state.square(40).name == "Best Novel"
    owners = {d.owner for d in TimoDeedsModule.of(state).deeds.values()}
    assert owners == {"tim", "ursula", "vera", "walt"}
    closed = InteractionsModule.of(state).closed
    assert any(i.kind == "auction" for i in closed) and any(i.kind == "offer" for i in closed)


def test_replay_and_verify_pass_on_the_demo(demo):
    assert jobs.replay_check(demo) == []
    assert jobs.verify(demo) == []


def test_the_demo_site_and_export_hold_no_address_and_no_deck_order(demo):
    site = demo.root / "site"
    for path in site.rglob("*"):
        if path.is_file():
            text = path.read_text(errors="replace")
            assert "@example" not in text, path
            assert "piles" not in text, path
    status = json.loads((site / "state.json").read_text())
    assert {p["name"] for p in status["players"]} == {"tim", "ursula", "vera", "walt"}
    assert all("Fn" in (site / "players.html").read_text() for _ in [0])


def test_ii4_the_two_decks_are_each_shuffled_face_down_and_kept_by_the_game():
    """II.4: two decks, each shuffled and kept face down: the first draw from a deck shuffles all
    16 of its cards out of their printed order, each deck on its own; the card drawn goes back
    under its deck (IX.1); nothing of the order is public."""
    outcome = run({"game": "timopoly", "players": {"alice": {"square": 20}, "bob": {"square": 13}},
                   "state": {"timo-board": {"started": True}},
                   "updates": [{"dice": [2, 3,     # alice 20 -> 25, Stuff Happens
                                         2, 3]}]},  # bob 13 -> 18, Crowd Fund
                  "test")
    assert outcome.ok, outcome.differences
    piles = TimoCardsModule.private_of(outcome.state).piles
    printed = [str(i) for i in range(16)]
    drawn = {e.data["deck"]: str(e.data["card"]) for e in outcome.events if e.kind == "card"}
    assert set(drawn) == {"stuff", "crowd"}
    for deck in ("stuff", "crowd"):
        pile = piles[deck].pile
        assert sorted(pile, key=int) == printed and pile != printed, deck
        assert pile[-1] == drawn[deck], deck
    assert piles["stuff"].pile != piles["crowd"].pile
    assert "pile" not in json.dumps({k: getattr(v, "__dict__", v) for k, v in outcome.state.mods.items()},
                                    default=str)


def test_every_rule_of_timopoly_is_automated_or_routed():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", "timopoly", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads(out.stdout)
    assert data["counts"]["missing"] == 0 and len(data["rules"]) == 91
    assert {r["module"] for r in data["rules"] if r["status"] == "automated"} == {
        "money", "timo-board", "timo-deeds", "timo-building", "timo-cards"}
    # every automated rule has a test or scenario of Timopoly's own (issue 28)
    untested = [r["rule"] for r in data["rules"] if r["status"] == "automated" and not r["tests"]]
    assert untested == []


def test_games_lists_every_bundled_game():
    from admin.games.catalog import available

    out = subprocess.run([sys.executable, "-m", "admin", "games"], capture_output=True, text=True, check=True)
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == available() and {"nomopoly2", "nomopoly2-full", "timopoly"} <= set(names)


def test_the_demo_mail_script_writes_the_shipped_maildir(tmp_path) -> None:
    """scripts/demo_mail/timopoly.py plays the demo as it writes its mail (answers to what the game
    asked, a Nom and a mortgage on what the players hold by then): the shipped Maildir is its output."""
    from admin.games.catalog import spec
    from fixtures.games import demo_mail_script, maildir_files

    assert demo_mail_script("timopoly", "timopoly").write(tmp_path / "maildir") == 13
    assert maildir_files(tmp_path / "maildir") == maildir_files(spec("timopoly").demo_maildir)


_TWO_ON_AMATEUR_ARTIST = {"game": "timopoly", "players": ["alice", "bob"], "state": {"timo-board": {"started": True}},
                          "updates": [{"dice": [2, 4, 1, 5]}]}  # alice and bob: 1 + 6 = 7, Amateur Artist


def _two_landers(*later: dict):
    outcome = run({**_TWO_ON_AMATEUR_ARTIST, "updates": _TWO_ON_AMATEUR_ARTIST["updates"] + list(later)}, "test")
    assert outcome.ok, outcome.differences
    return outcome


def test_vii2_two_silent_landers_open_one_auction_of_the_deed_not_two():
    outcome = _two_landers({"dice": [1, 3, 1, 3]})
    auctions = [i for i in InteractionsModule.of(outcome.state).open if i.kind == "auction"]
    assert [i.payload["space"] for i in auctions] == [7]
    assert sum("Amateur Artist is up for auction" in (e.text or "") for e in outcome.events) == 1


def test_vii1_buy_by_email_is_reported_once_and_a_second_lander_cannot_buy_it_again():
    outcome = _two_landers({"mail": {"alice": "BUY", "bob": "BUY"}, "dice": [1, 3, 1, 3]})
    said = [e for e in outcome.events if (e.text or "").startswith("alice bought Amateur Artist")]
    assert [e.text for e in said] == ["alice bought Amateur Artist for Fn 10."]
    refusal = [e.text for e in outcome.events if e.player == "bob" and e.ok is False]
    # alice's purchase closed bob's offer (the Fandom no longer holds the deed): bob has nothing to buy
    assert refusal and "you have no deed to buy" in refusal[0], refusal
    assert outcome.state.players["bob"].money == 150 and TimoDeedsModule.of(outcome.state).deeds[7].owner == "alice"
    assert not [i for i in InteractionsModule.of(outcome.state).open if i.kind == "auction"]


def _sixty_offers(later: list[dict]):
    flood = "".join(f"SELL 10 TO bob FOR {amount}\n" for amount in range(60))
    outcome = run({"game": "timopoly", "players": ["alice", "bob"], "state": {"timo-board": {"started": True}},
                   "squares": {10: {"owner": "alice"}},  # Comic Book
                   "updates": [{"mail": {"alice": flood}, "dice": [4, 6, 4, 6]}, *later]}, "test")
    assert outcome.ok, outcome.differences
    return outcome


def test_xv1_sixty_offers_of_one_deed_to_one_player_leave_one_open_offer_the_last():
    """Issue 30: one email `SELL 10 TO bob FOR 0` ... `FOR 59` opened 60 offers of one deed to one
    player. The latest word counts, as a player expects: each offer replaces the one before (said
    in the receipt), and one stays open, for Fn 59."""
    outcome = _sixty_offers([])
    offers = [i for i in InteractionsModule.of(outcome.state).open if i.kind == "offer"]
    assert [(i.id, i.payload["space"], i.payload["buyer"], i.payload["amount"]) for i in offers] == [(60, 10, "bob", 59)]
    said = [e.text for e in outcome.events if (e.text or "").startswith("alice offered Comic Book")]
    assert len(said) == 60
    assert said[0] == "alice offered Comic Book to bob for Fn 0 (bob: ACCEPT 1 by the next update)."
    assert said[59] == ("alice offered Comic Book to bob for Fn 59 (bob: ACCEPT 60 by the next update); it "
                        "replaces your offer #59 (for Fn 58), withdrawn: one open offer of a thing to a player "
                        "at a time.")


def test_xv1_an_accept_of_a_replaced_offer_is_refused_and_the_last_one_sells():
    outcome = _sixty_offers([{"mail": {"bob": "ACCEPT 59\nACCEPT 60"}, "dice": [1, 2, 1, 2]}])
    refusal = [e.text for e in outcome.events if e.player == "bob" and e.ok is False]
    assert refusal == ['bob: "ACCEPT 59" was not done: #59 is closed (withdrawn: alice replaced it with #60); '
                       "it takes no more answers"], refusal
    assert TimoDeedsModule.of(outcome.state).deeds[10].owner == "bob"
    assert outcome.state.players["bob"].money == 150 - 59 and outcome.state.players["alice"].money == 150 + 59
