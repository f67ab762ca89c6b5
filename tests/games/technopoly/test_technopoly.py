"""Technopoly as a bundled game (issue 16): its demo (replay, verify, the objects page, no hand on
the site), its coverage, a boardless game's players, and the rules not covered by the scenarios
(tests/games/technopoly/scenarios)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from admin.jobs import update as jobs
from admin.jobs.demo import run_demo
from admin.store.gamedir import GameDir
from admin.games.catalog import initial_state
from admin.library.interactions import InteractionsModule
from admin.games.technopoly.mechanics.objects import CARDS, ROBOT, machine_kind, private, score, world
from admin.jobs.roster import add_player
from admin.jobs.scenario import run

ROBOT_TYPE = {"name": "Robot", "kind": "robot", "attributes": ["Automatic", "Manipulator", "Worthless"]}


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> GameDir:
    root = tmp_path_factory.mktemp("technopoly") / "demo"
    run_demo(root, echo=lambda _: None, game_name="technopoly")
    return GameDir(root)


def test_the_demo_plays_two_weeks_of_inventions_mining_a_trade_and_an_attack(demo):
    state = demo.load()
    assert (state.update, state.week, state.layout, state.squares) == (4, 2, "none", [])
    st = world(state)
    assert st.round == 4 and st.seats == ["aleric", "boris", "colin"]
    known = {o.name for o in st.objects.values() if o.status == "known"}
    assert {"Robot", "Titanium", "Electricity", "Sandstone", "Death Ray", "Earthworm"} <= known
    assert st.objects["Electricity"].rights == ["boris", "colin"]  # shared by the trade (VI.2)
    # boris answered the Death Ray with "Fuel: 2A"; aleric's own Titanium was refused (V.2)
    assert st.objects["Death Ray"].fuel_activate == ["Electricity", "Electricity"]
    closed = InteractionsModule.of(state).closed
    assert sum(i.kind == "response" for i in closed) == 5 and any(i.kind == "offer" for i in closed)


def test_replay_and_verify_pass_on_the_demo(demo):
    assert jobs.replay_check(demo) == []
    assert jobs.verify(demo) == []


def test_the_site_has_an_objects_page_with_rights_and_no_hand(demo):
    state = demo.load()
    site = demo.root / "site"
    objects = (site / "objects.html").read_text()
    for obj in world(state).objects.values():
        assert obj.name in objects
    assert "Mining Rights" in objects and "End rolls" in objects and "boris, colin" in objects
    index = (site / "index.html").read_text()  # no board: no Board page in the menu, no board section
    assert 'href="board.html"' not in index and "The board" not in index and 'href="objects.html"' in index
    assert "On square" not in (site / "players" / "aleric.html").read_text()
    hands = private(state).hands
    assert any(hands.values())
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".json", ".ics"):
            text = path.read_text(errors="replace")
            assert "@example" not in text, path
            assert "Your hand" not in text and "You drew" not in text and '"hands"' not in text, path
            for hand in hands.values():  # a hand as the results mail lists it
                assert len(hand) < 2 or ", ".join(hand) not in text, path
    status = json.loads((site / "state.json").read_text())
    for row in status["players"]:
        assert "hand" not in row and row["cards_held"] == len(hands[row["name"]])


def test_a_game_without_money_or_board_shows_neither_on_the_site(demo):
    """Technopoly scores objects: no Money column, no Admin Bank, no Square column."""
    from bs4 import BeautifulSoup

    site = demo.root / "site"
    heads = [th.get_text() for th in BeautifulSoup((site / "players.html").read_text(), "html.parser").select("th")]
    assert "Money" not in heads and "Square" not in heads and "Net worth" in heads
    index = (site / "index.html").read_text()
    assert "Admin Bank" not in index and ">Money<" not in index
    assert "<dt>Money</dt>" not in (site / "players" / "aleric.html").read_text()


def test_a_results_mail_shows_its_player_their_own_hand_only(demo):
    state = demo.load()
    hands = private(state).hands
    sent = demo.root / "state" / "outbox" / "sent"
    mails = [p.read_text(errors="replace") for p in sent.iterdir()]
    results = [m for m in mails if "Update 4 results for colin" in m]
    assert results and f"Your hand (private): {', '.join(hands['colin']) or 'no cards'}" in results[0]
    for m in mails:
        if "Update 4 results for aleric" in m:
            assert f"Your hand (private): {', '.join(hands['colin'])}" not in m or hands["colin"] == hands["aleric"]


def test_xii3_every_players_results_mail_tells_them_their_holdings_after_the_round(demo):
    """XII.3: by email the game settles the round and tells each player what they hold."""
    state = demo.load()
    st = world(state)
    sent = demo.root / "state" / "outbox" / "sent"
    mails = [p.read_text(errors="replace") for p in sent.iterdir()]
    for name in st.seats:
        results = [m for m in mails if f"Update 4 results for {name}" in m]
        held = ", ".join(f"{n} {k}" for k, n in sorted(st.holdings[name].items()))
        assert results and held and f"Your objects: {held}" in results[0], name
        assert f"Round 4 done; your Robots: {st.holdings[name].get(ROBOT, 0)}; score {score(st, name)}" in results[0]


def test_every_rule_of_technopoly_is_automated_or_routed():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", "technopoly", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads(out.stdout)
    assert data["counts"] == {"automated": 80, "core": 0, "admin": 1, "text": 7, "missing": 0}
    assert {r["module"] for r in data["rules"] if r["status"] == "automated"} == {"techno", "techno-trading"}
    untested = [r["rule"] for r in data["rules"] if r["status"] == "automated" and not r["tests"]]
    assert untested == []


def test_the_deck_has_one_card_of_each_attribute():
    """VII.1: 23 positive, 2 neutral, 28 negative."""
    kinds = [k for k, _ in CARDS.values()]
    assert (kinds.count("positive"), kinds.count("neutral"), kinds.count("negative")) == (23, 2, 28)


def test_a_boardless_game_seats_its_players_on_no_square_with_two_robots():
    """A small general hook in roster.add_player: with no square on the board, a player stands on 0.
    II.4, III.1: everyone starts with two Robots (Automatic, Manipulator, Worthless)."""
    state = initial_state("technopoly", "g")
    add_player(state, "ann", "ann@example.org")
    assert state.players["ann"].square == 0 and state.players["ann"].money == 0
    st = world(state)
    assert st.holdings["ann"] == {ROBOT: 2} and st.objects[ROBOT].attributes == ["Automatic", "Manipulator", "Worthless"]


def test_machines_and_fuel_and_what_a_unit_scores():
    """II.2: a unit is a unit; II.3: an Activate: attribute makes a Machine; II.4: Robots score 0."""
    assert machine_kind(["Fragile", "Destroyer"]) == "machine" and machine_kind(["Fragile", "Plentiful"]) == "fuel"
    state = initial_state("technopoly", "g")
    add_player(state, "ann", "ann@example.org")
    assert score(world(state), "ann") == 0


def _play(data: dict[str, Any]):
    outcome = run({"game": "technopoly", **data}, "test")
    return outcome


def _texts(outcome) -> list[str]:
    return [t for e in outcome.events for t in (e.text, e.private) if t]


def test_activating_a_machine_takes_a_robot_unless_it_is_automatic():
    """IV.6, VIII.12: an Attacker Machine attacks as a Robot would; without a Robot left it is refused."""
    outcome = _play({
        "players": {"alice": {"hand": [], "holdings": {"Robot": 1, "Ram": 1}}, "bob": {"hand": [], "holdings": {"Gold": 2}}},
        "state": {"techno": {"objects": {"Robot": ROBOT_TYPE,
                                         "Gold": {"name": "Gold", "kind": "fuel", "inventor": "bob", "rights": ["bob"]},
                                         "Ram": {"name": "Ram", "kind": "machine", "inventor": "alice",
                                                 "attributes": ["Attacker"], "rights": ["alice"]}}}},
        "updates": [{"mail": {"alice": "ACTIVATE Ram ATTACK bob's Gold\nMINE 1 Gold"}, "rolls": {"attack/": [4, 1]}},
                    {"mail": {"alice": "ATTACK bob's Gold\nACTIVATE Ram ATTACK bob's Gold"}, "rolls": {"attack/": [1, 1]}}]})
    texts = _texts(outcome)
    assert "1 of bob's Gold destroyed: alice's attack won (alice rolled 4 against 1)." in texts
    assert ('alice: "ACTIVATE Ram ATTACK bob\'s Gold" was not done: activating Ram needs 1 Robot(s); '
            "alice has 0 left") in texts
    assert world(outcome.state).holdings["bob"] == {"Gold": 1, "Robot": 1}  # a tie is the defender's; airdropped


def test_two_fuel_cards_take_copies_or_a_mix():
    """V.4, X.5, X.6: Fuel: 2C and Fuel: 3C take two and three Fuel, copies of one or a mix."""
    outcome = _play({
        "players": {"alice": {"hand": ["Copier", "Fixed"], "holdings": {"Robot": 2, "Oil": 3, "Tin": 2}},
                    "bob": {"hand": ["Fuel: 2C", "Fuel: 3A"]}},
        "state": {"techno": {"objects": {"Robot": ROBOT_TYPE,
                                         "Oil": {"name": "Oil", "kind": "fuel", "inventor": "bob", "rights": ["bob"]},
                                         "Tin": {"name": "Tin", "kind": "fuel", "inventor": "bob", "rights": ["bob"]}}}},
        "updates": [{"mail": {"alice": "INVENT Mill WITH Copier, Fixed"}},
                    {"mail": {"bob": "RESPOND 1 WITH Fuel: 2C, Fuel: 3A"}},
                    {"mail": {"alice": "FUEL Mill = Oil, Oil\nFUEL Mill = Oil, Oil, Tin, Tin, Oil\nCREATE 1 Mill"}}]})
    mill = world(outcome.state).objects["Mill"]
    assert (mill.fuel_create, mill.fuel_activate) == (["Oil", "Oil"], ["Tin", "Tin", "Oil"])
    assert world(outcome.state).holdings["alice"] == {"Robot": 2, "Oil": 1, "Tin": 2, "Mill": 1}
    assert any("Mill needs 5 Fuel nominated" in t for t in _texts(outcome))


def test_a_turn_draws_a_card_or_gives_tasks_not_both():
    """III.2 (a standing ruling): DRAW takes the turn."""
    outcome = _play({"players": {"alice": {"hand": [], "holdings": {"Robot": 2}}, "bob": {"hand": []}},
                     "updates": [{"mail": {"alice": "DRAW\nCREATE 1 Robot"}}]})
    assert world(outcome.state).hand_size["alice"] == 1
    assert ('alice: "CREATE 1 Robot" was not done: alice spent this turn on drawing a card') in _texts(outcome)


def test_a_scavenger_needs_an_opponents_loss_since_ones_last_turn():
    """VIII.21: nothing of bob's was destroyed since alice's last turn."""
    outcome = _play({
        "players": {"alice": {"hand": [], "holdings": {"Robot": 1, "Crow": 1}}, "bob": {"hand": [], "holdings": {"Gold": 1}}},
        "state": {"techno": {"objects": {"Robot": ROBOT_TYPE,
                                         "Gold": {"name": "Gold", "kind": "fuel", "inventor": "bob", "rights": ["bob"]},
                                         "Crow": {"name": "Crow", "kind": "machine", "attributes": ["Scavenger", "Automatic"]}}}},
        "updates": [{"mail": {"alice": "ACTIVATE Crow SCAVENGE bob's Gold"}}]})
    assert ('alice: "ACTIVATE Crow SCAVENGE bob\'s Gold" was not done: no Gold of bob\'s was destroyed or burnt '
            "since alice's last turn") in _texts(outcome)


def test_errors_quote_the_input_and_say_what_is_valid():
    from admin.engine.errors import CommandError
    from admin.games.technopoly.mechanics.objects import parse_card
    from admin.games.technopoly.mechanics.trading import terms

    with pytest.raises(CommandError, match=r"'Shiny' is not an Attribute card; the cards: Automatic, "):
        parse_card("Shiny")
    with pytest.raises(CommandError, match=r"Synthetic names the Fuel it is played with: write Synthetic OF <fuel>"):
        parse_card("Synthetic")
    with pytest.raises(CommandError, match=r"'a hug' is not something to trade"):
        terms("WITH bob: GIVE a hug FOR 2 Gold")
    assert terms("WITH bob: GIVE 2 Gold FOR TECHNOLOGY Death Ray SOLE").get[0].how == "SOLE"


def test_polluting_makes_waste_its_inventor_names_and_status_has_no_square():
    """X.22: "Polluting OF Smog" names the Waste (-1 each at the end); a STATUS reply in a game
    with no board says no square (a small general change to the core's STATUS text)."""
    outcome = _play({"players": {"alice": {"hand": ["Polluting", "Plentiful"], "holdings": {"Robot": 2}},
                                 "bob": {"hand": []}},
                     "updates": [{"mail": {"alice": "INVENT Tar WITH Polluting OF Smog, Plentiful"}}, {},
                                 {"mail": {"alice": "MINE 2 Tar\nSTATUS"}}]})
    st = world(outcome.state)
    assert st.holdings["alice"] == {"Robot": 2, "Tar": 4, "Smog": 2} and score(st, "alice") == 2
    # STATUS is read with the actions, before the round's turns
    assert "alice: 0 points; round 2; score 0; objects: 2 Robot; hand: no cards." in _texts(outcome)
