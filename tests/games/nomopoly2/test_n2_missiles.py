"""Nomopoly II XXVI, missiles: a Missile Silo makes one missile an update for its owner to buy
(three held at most), fires one a turn with the consent of its block's other owners, at a square
within range (VI.13's distance), with a chance cut by Anti-Missile Batteries, and each type's
effect; a silo destroyed by a missile fires what it holds at random.

On the 10-wide snake, square 15 is directly north of 6 and east of 16; 15 to 3 is 4 moves
(south to 6, then west 5, 4, 3), 15 to 2 is 5, 15 to 7 is 2 (south to 6, east to 7)."""

from dataclasses import fields

import pytest
from fixtures.n2_missiles_gov import game, run, silo_block
from fixtures.games import texts

from admin.engine.board import distance
from admin.library.board import BoardModule
from admin.library.health import health_of
from admin.library.interactions import InteractionsModule
from admin.games.nomopoly2.mechanics.missiles import MissilesModule, fire_random_missile
from admin.games.nomopoly2.mechanics.shared import buildings_on, has_condition
from admin.library.ownership import owner_of, set_owner
from admin.games.registry import REGISTRY


@pytest.fixture
def state():
    """alice owns 14 and 15 (the silo) and bob 16: one Industrial block."""
    s = game(enable=("interactions", "blocks", "buildings", "terrorism", "missiles"))
    silo_block(s)
    for n, who in ((14, "alice"), (15, "alice"), (16, "bob")):
        set_owner(s, n, who)
    return s


def _held(s):
    return MissilesModule.of(s).held


def test_the_distances_the_tests_rely_on_are_vi13s():
    s = game(enable=())
    assert [distance(s, 15, n) for n in (6, 3, 2, 7, 16)] == [1, 4, 5, 2, 1]


def test_the_owner_buys_one_missile_an_update_and_nobody_else_may(state):
    r = run(state, {"alice": "BUY MISSILE CRUISE AT 15\nBUY MISSILE ICBM AT 15", "bob": "BUY MISSILE CHEMICAL AT 15"})
    assert _held(r.state) == {15: ["cruise"]}
    assert r.state.players["alice"].money == 10000 - 400
    assert r.state.players["bob"].money == 10000
    assert sorted(texts(r.events, "action")) == [
        "alice bought a Cruise Missile at the Missile Silo on square 15 for $400; it holds 1.",
        'alice: "BUY MISSILE ICBM AT 15" was not done: the Missile Silo on square 15 has made its missile this '
        "update already; it makes one an update (XXVI.1)",
        'bob: "BUY MISSILE CHEMICAL AT 15" was not done: the Missile Silo on square 15 is alice\'s; only the '
        "owner of its square may buy its missiles (XXVI.1)"]
    r.state.update += 1  # the next update a Thursday: no block's weekly income in alice's money (XXI.4)
    again = run(r.state, {"alice": "BUY MISSILE ICBM AT 15"})
    assert _held(again.state) == {15: ["cruise", "icbm"]}
    assert again.state.players["alice"].money == 10000 - 400 - 1000


def test_a_silo_holds_three_missiles_at_most(state):
    _held(state)[15] = ["cruise", "cruise", "chemical"]
    r = run(state, {"alice": "BUY MISSILE CRUISE AT 15"})
    assert _held(r.state)[15] == ["cruise", "cruise", "chemical"] and r.state.players["alice"].money == 10000
    assert "holds 3 missiles, as many as a silo may hold (XXVI.2)" in texts(r.events, "action")[0]


def test_a_missile_needs_a_silo(state):
    set_owner(state, 5, "alice")
    r = run(state, {"alice": "BUY MISSILE CRUISE AT 5"})
    assert texts(r.events, "action") == [
        'alice: "BUY MISSILE CRUISE AT 5" was not done: square 5 has no Missile Silo; you buy missiles at a '
        "Missile Silo (15)"]


def test_firing_waits_for_the_other_owners_consent_and_hits_on_a_low_roll(state):
    _held(state)[15] = ["chemical"]
    asked = run(state, {"alice": "FIRE CHEMICAL FROM 15 AT 7"})
    assert texts(asked.events, "action") == [
        "alice asks to fire a Chemical Missile from square 15 at square 7; bob must ACCEPT 1 by update 2 "
        "(XXVI.3; silence is no)."]
    assert _held(asked.state)[15] == ["chemical"]
    fired = run(asked.state, {"bob": "ACCEPT 1"}, rolls={"missile/": [65]})
    assert 7 in BoardModule.of(fired.state).polluted and 15 not in _held(fired.state)
    assert "A Chemical Missile fired from square 15 at square 7 hit (rolled 65 of 100 against a 65% chance)." \
        in texts(fired.events)


def test_silence_is_no_and_the_missile_stays(state):
    _held(state)[15] = ["chemical"]
    asked = run(state, {"alice": "FIRE CHEMICAL FROM 15 AT 7"})
    after = run(asked.state)
    assert _held(after.state)[15] == ["chemical"] and 7 not in BoardModule.of(after.state).polluted
    assert "The Chemical Missile on square 15 was not fired at square 7: bob did not consent (XXVI.3)." \
        in texts(after.events)


def test_out_of_range_is_refused_and_an_icbm_reaches_anywhere(state):
    set_owner(state, 16, "alice")  # the whole block is alice's: no consent needed
    _held(state)[15] = ["cruise", "icbm"]
    r = run(state, {"alice": "FIRE CRUISE FROM 15 AT 2"})
    assert texts(r.events, "action") == [
        'alice: "FIRE CRUISE FROM 15 AT 2" was not done: square 2 is 5 squares from the silo on square 15; a '
        "Cruise Missile reaches 4 (XXVI.4, distance as VI.13)"]
    miss = run(r.state, {"alice": "FIRE ICBM FROM 15 AT 1"}, rolls={"missile/": [61]})
    assert "An ICBM fired from square 15 at square 1 missed (rolled 61 of 100 against a 60% chance)." in texts(miss.events)
    assert _held(miss.state)[15] == ["cruise"] and not miss.state.squares[0].destroyed


def test_one_firing_a_turn_per_silo(state):
    set_owner(state, 16, "alice")
    _held(state)[15] = ["chemical", "chemical"]
    r = run(state, {"alice": "FIRE CHEMICAL FROM 15 AT 7\nFIRE CHEMICAL FROM 15 AT 6"}, rolls={"missile/": [99]})
    assert _held(r.state)[15] == ["chemical"]
    assert texts(r.events, "action")[-1] == (
        'alice: "FIRE CHEMICAL FROM 15 AT 6" was not done: the Missile Silo on square 15 has fired this turn '
        "already; a silo fires one missile a turn (XXVI.3)")


def test_each_anti_missile_battery_on_or_next_to_the_target_takes_ten_percent(state):
    set_owner(state, 16, "alice")
    _held(state)[15] = ["chemical"]
    state.mods["buildings"].on.update({7: ["anti-missile-battery"], 8: ["anti-missile-battery"],
                                       9: ["anti-missile-battery"]})  # 9 is not next to 7
    r = run(state, {"alice": "FIRE CHEMICAL FROM 15 AT 7"}, rolls={"missile/": [46]})
    assert 7 not in BoardModule.of(r.state).polluted
    assert ("A Chemical Missile fired from square 15 at square 7 missed (rolled 46 of 100 against a 45% chance, "
            "less 20% for 2 Anti-Missile Batteries).") in texts(r.events)


def test_a_cruise_missile_destroys_a_random_building(state):
    set_owner(state, 16, "alice")
    _held(state)[15] = ["cruise"]
    state.mods["buildings"].on[6] = ["house", "hospital"]
    r = run(state, {"alice": "FIRE CRUISE FROM 15 AT 6"}, rolls={"missile/": [10, 2]})
    assert buildings_on(r.state, 6) == ["house"]
    assert "The Cruise Missile destroyed the Hospital on square 6." in texts(r.events)


def test_a_biological_missile_takes_the_square_hurts_its_occupants_contaminates_and_is_a_minor_atrocity(state):
    _held(state)[15] = ["biological"]
    set_owner(state, 6, "carol")
    state.players["carol"].square = 6
    asked = run(state, {"alice": "FIRE BIOLOGICAL FROM 15 AT 6"})
    r = run(asked.state, {"bob": "ACCEPT 1"}, rolls={"missile/": [70]})
    s = r.state
    assert owner_of(s, 6) is None and 6 in BoardModule.of(s).contaminated
    assert health_of(s, "carol") == 100 - 20
    assert has_condition(s, "alice", "terrorist") and has_condition(s, "bob", "terrorist")
    assert not has_condition(s, "carol", "terrorist")
    assert MissilesModule.of(s).contaminated == {6: 1 + 3}
    assert "alice committed a minor atrocity (firing a Biological Missile at square 6) and is a terrorist until " \
           "the end of week 2." in texts(r.events)


def test_contamination_lapses_at_the_end_of_the_third_week_after(state):
    MissilesModule.of(state).contaminated[6] = 1
    BoardModule.of(state).contaminated = [6]
    state.update = 1  # the next update is week 1's second, its end
    r = run(state)
    assert BoardModule.of(r.state).contaminated == [] and MissilesModule.of(r.state).contaminated == {}


def test_an_icbm_destroys_the_target_and_maybe_neighbours_and_sends_occupants_to_square_1(state):
    set_owner(state, 16, "alice")
    _held(state)[15] = ["icbm"]
    state.players["carol"].square = 7
    state.players["bob"].square = 8
    # hit (60), then 7's neighbours in order 6, 8, 14 (north of 7 on the snake): 8 goes (25), 6 and 14 stand
    r = run(state, {"alice": "FIRE ICBM FROM 15 AT 7"}, rolls={"missile/": [60, 26, 25, 90]})
    s = r.state
    assert [n for n in (6, 7, 8, 14) if s.squares[n - 1].destroyed] == [7, 8]
    assert (s.players["carol"].square, s.players["bob"].square) == (1, 1)
    assert (health_of(s, "carol"), health_of(s, "bob")) == (75, 75)
    assert has_condition(s, "alice", "terrorist")
    assert "alice committed a major atrocity (firing an ICBM at square 7) and is a terrorist until the end of " \
           "week 7." in texts(r.events)


def test_the_governor_may_not_fire_an_atrocity(state):
    from admin.engine.config import enable_module

    enable_module(state, REGISTRY, "governor")
    gs = state.mods["governor"]
    gs.governor, gs.term_from, gs.term_to = "alice", 1, 3
    set_owner(state, 16, "alice")
    _held(state)[15] = ["biological"]
    r = run(state, {"alice": "FIRE BIOLOGICAL FROM 15 AT 6"})
    assert texts(r.events, "action") == [
        'alice: "FIRE BIOLOGICAL FROM 15 AT 6" was not done: firing a Biological Missile is an atrocity (XXVI.6) '
        "and the Governor may not commit any atrocities (XXXV.3)"]


def test_a_silo_whose_building_a_cruise_missile_destroys_fires_its_missiles_at_random(state):
    # a second silo on 5 (alice's, no block), hit from 15; it holds a chemical missile
    set_owner(state, 16, "alice")
    set_owner(state, 5, "bob")
    state.mods["buildings"].on[5] = ["missile-silo"]
    _held(state).update({15: ["cruise"], 5: ["chemical"]})
    # hit (1), the building (1 of 1), the chemical's target (1st of those within 2 of 5: 3), hit (1)
    r = run(state, {"alice": "FIRE CRUISE FROM 15 AT 5"}, rolls={"missile/": [1, 1, 1, 1]})
    assert 5 not in _held(r.state) and buildings_on(r.state, 5) == []
    # (the blocks section may pollute an Industrial block's own squares, 14 to 16)
    assert set(BoardModule.of(r.state).polluted) - {14, 15, 16} == {3}
    assert "The destroyed Missile Silo on square 5 goes haywire and fires its 1 missile." in texts(r.events)


def test_the_skunks_random_missile_from_a_silo(state):
    from admin.engine.context import UpdateContext
    from admin.engine.schedule import Slot
    from admin.jobs.scenario import ForcedDice
    from collections import deque

    dice = ForcedDice(seed=b"s", digest="t", update=1, others={"missile/": deque([2, 1, 1])})
    ctx = UpdateContext(state=state, dice=dice, slot=Slot("Thursday", 0), registry=REGISTRY)
    fire_random_missile(ctx, 15, "XIX.3")  # type 2: chemical; the first square within 2 of 15: 4? no: 5
    targets = sorted(n for n in range(1, 21) if n != 15 and distance(state, 15, n) <= 2)
    assert BoardModule.of(state).polluted == [targets[0]]
    assert "A Chemical Missile is made and fired from square 15." in texts(ctx.events)


def test_net_worth_counts_half_the_price_of_ones_missiles(state):
    _held(state)[15] = ["cruise", "icbm"]
    alice = state.players["alice"]
    assert MissilesModule().worth(state, alice) == (400 + 1000) // 2
    assert MissilesModule().worth(state, state.players["bob"]) == 0


def test_the_board_shows_the_missiles_in_a_silo_and_status_tells_its_owner(state):
    _held(state)[15] = ["cruise", "icbm"]
    look = MissilesModule().square_look(state, state.square(15))
    assert look.flags == ((55, "M2", "missiles: Cruise Missile, ICBM"),)
    r = run(state, {"alice": "STATUS"})
    [status] = [e.private for e in r.events if e.kind == "status"]
    assert status.startswith("alice: $10000, 100 health") and status.endswith("; 2 missiles in your silos.")


def test_the_consent_question_is_an_open_interaction_for_the_block(state):
    _held(state)[15] = ["cruise"]
    r = run(state, {"alice": "FIRE CRUISE FROM 15 AT 6"})
    [q] = InteractionsModule.of(r.state).open
    assert (q.kind, q.parties, q.silence, q.payload["target"]) == ("consent", ["bob"], "decline", 6)


@pytest.mark.parametrize("line, command", [
    ("BUY MISSILE ICBM AT SQUARE 15 ON CREDIT", ("buy-missile", "icbm", 15, True)),
    ("buy missile cruise at #15", ("buy-missile", "cruise", 15, False)),
    ("FIRE CRUISE MISSILE FROM 15 AT #6", ("fire-missile", "cruise", 15, 6)),
    ("Fire biological from square 15 at 7", ("fire-missile", "biological", 15, 7)),
])
def test_what_players_write_is_read(line, command):
    from admin.mail.inbound.grammar import grammar_for, parse_text

    [v] = parse_text(line, grammar_for(game(enable=("missiles",))))
    assert v.error is None and (v.command.cmd, *[getattr(v.command, f.name) for f in fields(v.command)]) == command


def test_an_unknown_missile_is_refused_with_the_four_kinds():
    from admin.mail.inbound.grammar import grammar_for, parse_text

    [v] = parse_text("FIRE NUCLEAR FROM 15 AT 6", grammar_for(game(enable=("missiles",))))
    assert v.error == ('"FIRE NUCLEAR FROM 15 AT 6": "NUCLEAR" is not a missile; the missiles are CRUISE, CHEMICAL, '
                       "BIOLOGICAL and ICBM (XXVI.6)")
