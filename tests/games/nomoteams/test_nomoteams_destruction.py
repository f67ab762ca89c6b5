"""The Teams variant's sections XVIII (destruction), XXI (Easy Movement) and XXII (actions): what
their scenario files (tests/games/nomoteams/scenarios/xviii*, xxi*) do not reach: the renumbering in the
core (on_square_renumbered), squares the rules name, XVIII.3's payment and repainting, the
insurance lapsing, Taxis and delivery trucks around Blockbusters and through Jumpgates, failed
actions undone (XXII.4), discussion (XXII.3), posted results (XXII.6), no take-backs (XXII.7),
acting from an involuntary square (XXII.8), and the sections' coverage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from fixtures.browser import write_state

from admin.jobs import update as jobs
from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.schedule import Slot
from admin.engine.errors import IllegalAction
from admin.games.registry import REGISTRY
from admin.games.nomoteams.mechanics.board import colour_of, set_colour
from admin.games.nomoteams.mechanics.destruction import _compensate, closest_public_property, destroy, named_squares
from admin.games.nomoteams.mechanics.ownership.mechanic import GOVERNMENT_COLOURS, set_owner
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, owner_of, squares_of
from admin.jobs.scenario import play_update, run, setup
from admin.site.build import build_site

GAME = "nomoteams"
RED = {"colour": "Red"}


def _ctx(state) -> UpdateContext:
    return UpdateContext(state=state, dice=Dice(seed=b"x", digest="t", update=1), slot=Slot("Sunday", 0),
                         registry=REGISTRY)


def _state(players: dict | None = None, **extra):
    data = {"game": GAME, "players": players or {"alice": {"team": "North"}, "bob": {"team": "South"}}, **extra}
    return setup(data, "t")


def _said(events, player: str | None = None) -> list[str]:
    return [e.private or e.text or "" for e in events if player is None or e.player == player]


# -- XVIII -------------------------------------------------------------------------------------
def test_xviii2_the_highest_square_takes_the_number_and_the_last_is_removed():
    """XVIII.2: destroying 7 of 20: square 20 (Public Property, The Government's) becomes 7 with its
    owner, and the board has 19 squares, none destroyed; destroying the highest just removes it."""
    state = _state(board=20)
    ctx = _ctx(state)
    assert destroy(ctx, 7, reason="t", rule="XVIII.2") is True
    assert len(state.squares) == 19 and not any(s.destroyed for s in state.squares)
    assert owner_of(state, 7) == GOVERNMENT and 20 not in state.mods["teams-ownership"].owners
    set_owner(state, 19, "alice")
    state.players["alice"].square = 19
    assert destroy(ctx, 19, reason="t", rule="XVIII.2") is True  # the highest: nothing renumbered
    assert len(state.squares) == 18 and squares_of(state, "alice") == [2]
    assert state.players["alice"].square == 10  # 19 -> 10 is 9 squares one way, 10 the other: 10 (lower)


def test_xviii2_the_closest_public_property_either_way_round():
    """XVIII.2's closest Public Property counts squares along the board either way, round the end."""
    state = _state(board=30)
    assert closest_public_property(state, 14) == 10 and closest_public_property(state, 16) == 20
    assert closest_public_property(state, 15) == 10  # a tie: the lower
    assert closest_public_property(state, 2) == 30   # 2-1-30: two back; 10 is eight ahead
    state.squares[13].destroyed = True                # square 14, while it is being destroyed
    assert closest_public_property(state, 14) == 10


def test_the_cores_renumber_square_moves_a_square_onto_a_destroyed_ones_number_only():
    """The core's renumber_square (XVIII.2's hook): the target must be destroyed, the source live;
    the last square is taken off the board, another is left destroyed."""
    from admin.engine.board import destroy_square, renumber_square

    state = _state(board=20)
    with pytest.raises(ValueError, match="only a destroyed square's number"):
        renumber_square(state, 20, 5)
    state.squares[4].name = "Five"
    destroy_square(state, 5)
    state.squares[18].name = "Nineteen"
    renumber_square(state, 19, 5)  # not the last: 19 stays, destroyed
    assert state.square(5).name == "Nineteen" and state.square(19).destroyed and len(state.squares) == 20


def test_xviii1_squares_the_rules_name_are_never_destroyed():
    """XVIII.1: square 1, Public Property, National Parks, the Zoo and the Lodges (28, 53 on a board
    that has them) may not be destroyed; the Admin's ruling says why."""
    state = _state(board=55)
    assert {1, 10, 25, 28, 45, 53} <= named_squares(state) and 27 not in named_squares(state)
    with pytest.raises(IllegalAction, match=r"square 28 is named in the rules and may not be destroyed \(XVIII.1\)"):
        destroy(_ctx(state), 28, reason="t", rule="XVIII.2")
    out = run({"game": GAME, "players": ["alice"],
               "updates": [{"rulings": [{"kind": "destroy", "args": {"square": 10}, "note": "boom"}]}]}, "t")
    assert owner_of(out.state, 10) == GOVERNMENT and len(out.state.squares) == 20


def test_viii10_a_fifth_rename_of_a_named_square_fails_and_is_undone():
    """VIII.10 meets XVIII.1: the fifth rename of Public Property the player owns fails; nothing
    happens (XXII.4)."""
    state = _state({"alice": {"team": "North"}}, squares={10: {"owner": "alice", "name": "Hub", "colour": "Red"}})
    state.mods["teams-ownership"].renamed[10] = 4
    state, events = play_update(state, {"mail": {"alice": "RENAME SQUARE 10 Spoke"}}, "t", 1)
    assert any("may not be destroyed (XVIII.1)" in t for t in _said(events, "alice"))
    assert owner_of(state, 10) == "alice" and state.square(10).name == "Hub"


def test_xviii3_a_players_square_made_the_governments_is_paid_for_and_repainted():
    """XVIII.3: a square alice owned that the destruction left The Government's: alice is paid its
    market value ($10 x 12), and its Corporate Red becomes a Government Colour drawn with the dice."""
    state = _state(board=20)
    ctx = _ctx(state)
    set_owner(state, 12, GOVERNMENT)
    set_colour(state, 12, "Red")
    _compensate(ctx, {12: "alice", 3: "bob"}, {})
    assert state.players["alice"].money == 1120 and state.players["bob"].money == 1000
    assert colour_of(state, 12) in GOVERNMENT_COLOURS
    assert any(r.label.endswith("destruction/paint/12") for r in ctx.dice.rolls)
    said = _said(ctx.events)
    assert any(t.startswith("Square 12 became The Government's: alice was paid its market value, $120; "
                            "The Government painted it ") for t in said), said


def test_xviii4_an_insured_player_who_cannot_pay_loses_the_insurance_but_the_square_stands():
    state = _state({"alice": {"team": "North", "money": 20}, "bob": {"team": "South"}})
    state.mods["teams-destruction"].insured = ["alice"]
    ctx = _ctx(state)
    assert destroy(ctx, 2, reason="t", rule="XVIII.2") is False
    assert owner_of(state, 2) == "alice" and state.mods["teams-destruction"].insured == []
    assert "she cannot pay $50, so she has lost it (XVIII.4)" in _said(ctx.events)[-1]
    assert destroy(ctx, 2, reason="t", rule="XVIII.2") is True  # uninsured now
    assert squares_of(state, "alice") == []


def test_xviii5_destroying_ones_own_or_a_strangers_square_makes_no_freemason():
    state = _state({"alice": {"team": "North"}, "bob": {"team": "South"}, "carol": {"team": "East"}},
                   state={"teams": {"best_friends": {"alice": "bob", "bob": "alice"}}})
    ctx = _ctx(state)
    destroy(ctx, 4, reason="t", rule="XVIII.2", by="alice")   # carol's: no friend of alice
    assert "alice" not in state.mods["teams"].freemasons
    destroy(ctx, 3, reason="t", rule="XVIII.2", by="alice")   # bob's: her Best Friend
    assert state.mods["teams"].freemasons == ["alice"]


def test_xviii2_what_the_foundation_keeps_follows_the_renumbered_square():
    """XVIII.2 through on_square_renumbered: a piece on it, a sale of The Corporation, a player's
    right to buy all follow the highest square to its new number; the destroyed square's right to
    buy and Homestead are void; an auction of either square lapses."""
    state = _state(board=23)
    from admin.games.nomoteams.mechanics.ownership.mechanic import BuyRight
    from admin.games.nomoteams.mechanics.pseudo import add_piece

    set_owner(state, 23, CORPORATION)
    state.mods["teams-leaving"].for_sale[23] = 276
    state.mods["teams-ownership"].buy_rights += [BuyRight(23, "bob", 1), BuyRight(6, "alice", 1)]
    state.mods["teams-ownership"].homesteads["alice"] = [6]
    from admin.games.nomoteams.mechanics.government import Lot
    state.mods["teams-government"].lots += [Lot(23, auction=1), Lot(6, auction=2)]
    add_piece(state, "Elephant", "elephant", 23)
    state.players["bob"].square = 23
    destroy(_ctx(state), 6, reason="t", rule="XVIII.2")
    assert owner_of(state, 6) == CORPORATION and state.mods["teams-leaving"].for_sale == {6: 276}
    assert [(r.square, r.player) for r in state.mods["teams-ownership"].buy_rights] == [(6, "bob")]
    assert state.mods["teams-ownership"].homesteads == {"alice": []} and state.mods["teams-government"].lots == []
    assert state.mods["teams-pseudo"].pieces["Elephant"].square == 6 and state.players["bob"].square == 6


# -- XXI ----------------------------------------------------------------------------------------
def _with_products(state, blockbusters=(), jumpgates=(), stores=None) -> None:
    """Blockbusters placed in secret by carol (XIX.4) and Jumpgates (XIX.5), in the products
    section's own state; no section of the rulebook makes Stores, which a stand-in keeps."""
    from admin.games.nomoteams.api import PRODUCTS, PRODUCTS_PRIVATE
    from admin.games.nomoteams.mechanics.products.state import Blockbuster

    PRODUCTS_PRIVATE.of(state).blockbusters = [Blockbuster(i, n, "carol", 0) for i, n in enumerate(blockbusters, 1)]
    PRODUCTS.of(state).jumpgates = [list(pair) for pair in jumpgates]
    if stores:
        state.mods["products-under-test"] = SimpleNamespace(stores=stores)


def test_xxi4_a_taxi_goes_round_blockbusters_through_jumpgates_or_through_for_500():
    """XXI.4: from 1 to 4 with a Blockbuster on 3 and a Jumpgate 1-6: around it, 1-6-5-4 ($30);
    THROUGH BLOCKBUSTERS the shortest way, forward first on a tie: 1-2-3-4, $30 + $500."""
    state = _state({"alice": {"team": "North", "square": 1}, "bob": {"team": "South", "square": 1}},
                   squares={2: RED, 3: RED})
    _with_products(state, blockbusters=[3], jumpgates=[(1, 6)])
    state, events = play_update(state, {"mail": {"alice": "TAXI! 4", "bob": "TAXI 4 THROUGH BLOCKBUSTERS"}}, "t", 1)
    said = _said(events)
    assert "alice made an Easy Move from square 1 to square 4: a Taxi drove 3 moves (1-6-5-4), paying $30 (XXI.4)." in said
    assert "bob made an Easy Move from square 1 to square 4: a Taxi drove 3 moves (1-2-3-4), paying $530 (XXI.4)." in said
    assert state.players["bob"].money == 470


def test_xxi5_a_delivery_truck_to_ones_store_around_blockbusters_or_for_500():
    """XXI.5: bob's Store on 5 (alice owns none); a Blockbuster on 3 and another on 19 block both
    ways from 1: refused, unless THROUGH BLOCKBUSTERS ($500)."""
    state = _state({"alice": {"team": "North", "square": 1}, "bob": {"team": "South", "square": 1}},
                   squares={2: RED, 3: RED, 5: {"owner": "bob", "colour": "Red"}})
    _with_products(state, blockbusters=[3, 19], stores={5: "bob"})
    mail = {"alice": "DELIVERY TRUCK", "bob": "DELIVERY TRUCK\nDELIVERY TRUCK TO 5 THROUGH BLOCKBUSTERS"}
    state, events = play_update(state, {"mail": mail}, "t", 1)
    said = _said(events)
    assert any("only the owner of a Store may ride a delivery truck to it (XXI.5); you own none" in t for t in said)
    refused = [t for t in said if "the delivery truck cannot reach square 5 without passing a Blockbuster" in t]
    assert refused and all("(where they are is secret)" in t and "19" not in t for t in refused)  # carol's secret
    assert state.players["bob"].square == 5 and state.players["bob"].money == 500


def test_xxi_commands_parse_and_refuse_with_the_valid_form():
    out = run({"game": GAME, "players": {"alice": {"team": "North"}},
               "updates": [{"mail": {"alice": "WALK SIDEWAYS\nTAXI!\nGOVERNMENT TRANSPORT TO nowhere"}}]}, "t")
    said = " ".join(_said(out.events, "alice"))
    assert "say WALK FORWARD (to the next square) or WALK BACK" in said
    assert "say where to: TAXI! <square> [THROUGH BLOCKBUSTERS]" in said
    assert "Say GOVERNMENT TRANSPORT TO <square>" in said


# -- XXII ---------------------------------------------------------------------------------------
def test_xxii4_a_failed_action_is_undone_whatever_it_did_before_failing():
    """XXII.4 in the core (``undo_failed_actions``): an action that paid and moved before it
    failed leaves the game as it was. The variant's own handlers check before they change
    anything, so the Taxi's handler is swapped, for this test only, for one that pays its fare,
    moves, and then fails."""
    from dataclasses import replace

    from admin.engine.update import LineCommand, Submission, _do
    from admin.games.nomoteams.mechanics.easy_movement import EasyMove

    state = _state({"alice": {"team": "North", "square": 1}})
    ctx = _ctx(state)

    def half_done(ctx, player, cmd):
        ctx.transfer(player.name, GOVERNMENT, 40, rule="XXI.4", reason="a fare", voluntary=True)
        player.square = 5
        raise IllegalAction("the Taxi broke down")

    table = ctx.registry.command_table(state)
    module, spec = table["teams-easy-move"]
    table["teams-easy-move"] = (module, replace(spec, handler=half_done))
    try:
        _do(ctx, "alice", Submission("k", "alice", "a@x", "2026-01-01T00:00:00+00:00"),
            LineCommand(1, "TAXI! 5", EasyMove("taxi", 5)))
    finally:
        table["teams-easy-move"] = (module, spec)
    assert state.players["alice"].money == 1000 and state.players["alice"].square == 1
    assert state.mods["teams-pseudo"].money[GOVERNMENT] == 0
    assert _said(ctx.events) == ['alice: "TAXI! 5" was not done: the Taxi broke down']


def test_xxii3_discussion_is_no_action_and_xxii1_xxii2_each_command_line_is_a_voluntary_action():
    """XXII.3: chatter in an email changes nothing; XXII.1, XXII.2: each command line is one
    voluntary action with its own verdict."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "square": 1}},
               "squares": {2: RED},
               "updates": [{"mail": {"alice": "Hi all, I think I'll walk today.\nWALK FORWARD\nCheers"}}]}, "t")
    verdicts = [e for e in out.events if e.kind == "action" and e.player == "alice"]
    assert len(verdicts) == 1 and verdicts[0].ok and verdicts[0].data["cmd"] == "teams-easy-move"
    assert out.state.players["alice"].square == 2 and out.state.players["alice"].money == 1000


def test_xxii6_failed_actions_are_posted_with_the_weeks_judged_proposals():
    """XXII.6: the update that judges the week's proposals posts every action's result, failed too:
    a public event of that update, on the results."""
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "PROPOSE Walks\nMore walks.\nEND", "bob": "WALK FORWARD\nTAXI! 99"}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 1, "verdict": "reject"}, "note": "no"}],
                            "mail": {"bob": "CANCEL EXPLOSIVE INSURANCE"}, "dice": [1, 2]}]}, "t")
    public = [e.text for e in out.events if e.text]
    assert any(t.startswith('bob: "TAXI! 99" was not done: there is no square 99') for t in public), public
    assert 'bob: "CANCEL EXPLOSIVE INSURANCE" was not done: you have no Explosive Insurance to cancel ' \
           "(BUY EXPLOSIVE INSURANCE buys it)" in public
    assert any("bob made an Easy Move" in t for t in public)


def test_xxii7_an_action_sent_is_never_taken_back():
    """XXII.7: alice's second email of the week (a Walk back) does not withdraw her first (a Walk
    forward): both are carried out, two Easy Moves spent, so the third fails."""
    from admin.engine.update import LineCommand, Submission, run_update
    from admin.mail.inbound.grammar import grammar_for, parse_text

    state = _state({"alice": {"team": "North", "square": 1}}, squares={2: RED})

    def email(key: str, when: str, text: str) -> Submission:
        lines = [LineCommand(v.first_line, v.text, v.command) for v in parse_text(text, grammar_for(state))]
        return Submission(key, "alice", "alice@x", when, lines)

    subs = [email("a", "2026-01-01T10:00:00+00:00", "WALK FORWARD"),
            email("b", "2026-01-01T11:00:00+00:00", "WALK BACK\nWALK FORWARD")]
    out = run_update(state, subs, [], Dice(seed=b"x", digest="t", update=1), REGISTRY)
    said = _said(out.events)
    assert out.state.players["alice"].square == 1 and out.state.mods["teams-easy-movement"].used == {"alice": 2}
    assert 'alice: "WALK FORWARD" was not done: you have made your 2 Easy Moves this week (XXI.1)' in said


def test_xxii8_a_player_put_on_a_square_acts_from_it_next_update():
    """XXII.8: the destruction moved bob (involuntarily) to Public Property 10; in the next update
    his Walk starts there, and STATUS says so."""
    out = run({"game": GAME, "board": 21, "players": {"alice": {"team": "North"}, "bob": {"team": "South", "square": 13}},
               "squares": {2: RED, 3: RED},
               "updates": [{"rulings": [{"kind": "destroy", "args": {"square": 13}, "note": "boom"}]}]}, "t")
    assert out.state.mods["teams-actions"].placed == {"bob": 10}
    state, events = play_update(out.state, {"mail": {"bob": "STATUS\nWALK FORWARD"}}, "t", 2)
    said = _said(events, "bob")
    assert any("(put there by the rules: you act from square 10, XXII.8)" in t for t in said), said
    assert "bob made an Easy Move from square 10 to square 11: a Walk forward (XXI.6)." in said


# -- coverage and the site ------------------------------------------------------------------------
def test_every_rule_of_xviii_xxi_xxii_is_automated_and_tested():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", GAME, "--json"],
                         capture_output=True, text=True)
    rules = {r["rule"]: r for r in json.loads(out.stdout)["rules"]}
    mine = [r for r in rules.values() if r["rule"].split(".")[0] in ("XVIII", "XXI", "XXII")]
    assert len(mine) == 5 + 6 + 8
    assert [r["rule"] for r in mine if r["status"] != "automated" or not r["tests"]] == []


def test_the_destruction_panel_and_the_players_facts_are_on_the_site(tmp_path: Path):
    out = run({"game": GAME, "players": {"alice": {"team": "North"}},
               "updates": [{"mail": {"alice": "BUY EXPLOSIVE INSURANCE\nWALK FORWARD"}}]}, "site")
    game = jobs.init_game(tmp_path / "g", GAME, "Teams")
    write_state(game.root, out.state)
    site = build_site(game)
    page = (site / "destruction.html").read_text(encoding="utf-8")
    assert "Explosive Insurance" in page and "alice" in page and "closest Public" in page
    text = " ".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    assert "Easy Moves this week" in text and "named in the rules: may not be destroyed" in text


def test_xviii2_a_refuge_that_is_the_highest_square_takes_its_new_number_with_its_guests():
    """XVIII.2 on 20 squares: bob on 17 goes to Public Property 20 (3 away; 10 is 7), and then 20
    takes number 17, bob with it: he stands on the same square, now numbered 17 (XXII.8 too)."""
    state = _state({"alice": {"team": "North"}, "bob": {"team": "South", "square": 17}})
    destroy(_ctx(state), 17, reason="t", rule="XVIII.2")
    assert state.players["bob"].square == 17 and owner_of(state, 17) == GOVERNMENT and len(state.squares) == 19
    assert state.mods["teams-actions"].placed == {"bob": 17}


def test_xviii2_a_favourite_square_vote_goes_with_the_square_renumbered():
    """XXXVI.6 and XVIII.2: alice votes for square 24; destroying 7 makes 24 the new 7, and her vote
    follows it (it used to stay on 24, gone from the board, and the Impending Doom page failed)."""
    from admin.games.nomoteams.mechanics.doom import DoomModule, votes

    state = _state(board=24)
    DoomModule.of(state).favourites["alice"] = 24
    DoomModule.of(state).favourites["bob"] = 3
    assert destroy(_ctx(state), 7, reason="t", rule="XVIII.2") is True
    assert votes(state) == {7: 1, 3: 1}
    (panel,) = DoomModule().panels(state)
    assert [row[0] for table in panel.tables for row in table.rows] == [3, 7]
