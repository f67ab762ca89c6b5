"""Nomopoly II XXIX, methods of transportation: buying one (XXIX.1-2), each method's dice and
moves (XXIX.3: clogs, pogo stick, Krazy Carpet, helicopter, car and fuel, springy shoes), driving,
abandoning and retrieving a car (XXIX.4-5), and fuel at Gas Stations (XXII.4).

The 20-square snake: row 0 is 1-10 west to east, row 1 is 20-11 west to east; so the columns,
bottom to top, are 1 20 | 2 19 | ... | 10 11."""

from collections import deque

import pytest
from fixtures.games import mail, new_state, play, texts

from admin.engine.events import Ruling
from admin.engine.update import LineCommand, Submission, run_update
from admin.mail.inbound.grammar import grammar_for, parse_text
from admin.games.registry import REGISTRY
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.transport.mechanic import TransportModule, die_faces, set_method
from admin.games.nomopoly2.mechanics.transport.moves import column_path
from admin.library.ownership import set_owner
from admin.library.turns import TurnsModule
from admin.jobs.scenario import ForcedDice, _card_index

PLAYERS = ("alice", "bob", "carol")


def _game(paused: bool = True, **params):
    """Three players, transport on, no new squares; paused: only the actions under test move."""
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "transport"}, "test")]).state
    for key, value in params.items():
        module, name = key.split("__")
        next(m for m in state.modules if m.name == module).params[name] = value
    state.paused = paused
    for player in state.players.values():  # back to square 1, nothing reached, as the tests start
        player.square = 1
    TransportModule.of(state).reached.clear()
    return state


def _send(state, player: str, text: str, n: int = 0) -> Submission:
    """An email parsed by this game's grammar (the library's gives BUY TRANSPORT to the first
    Nomopoly's vehicles)."""
    verdicts = parse_text(text, grammar_for(state))
    assert not [v.error for v in verdicts if v.error]
    return Submission(key=f"{player}-{n}", player=player, sender=f"{player}@example.org",
                      received=f"2026-11-04T10:00:{n:02d}+00:00",
                      commands=[LineCommand(v.first_line, v.text, v.command) for v in verdicts])


def _run(state, mails: dict[str, str] | None = None, dice=(), order=None, draws=()):
    subs = [_send(state, who, text, i) for i, (who, text) in enumerate((mails or {}).items())]
    fd = ForcedDice(seed=b"t", digest="t", update=state.update + 1, forced=deque(dice), order=order,
                    draws=deque(_card_index(c, "test") for c in draws))
    result = run_update(state, subs, [], fd, REGISTRY)
    assert not fd.leftover()
    return result


def _use(state, name: str, method: str, fuel: int | None = None, square: int | None = None):
    set_method(state, name, method)
    if fuel is not None:
        TransportModule.of(state).fuel[name] = fuel
    if square is not None:
        state.players[name].square = square


def test_a_proposal_enabling_transport_adds_section_xxix_and_its_commands():
    state = new_state(PLAYERS)
    made = play(state, [mail("alice", "PROPOSE Transport\nENABLE transport\nEND")])
    after = play(made.state, [mail(n, "VOTE 1 YES") for n in PLAYERS]).state
    assert after.enabled("transport")
    assert [r.id for r in after.rules.section("XXIX").rules] == ["XXIX.1", "XXIX.2", "XXIX.3", "XXIX.4", "XXIX.5"]
    assert grammar_for(after).parse_lines  # the game's grammar reads the section's commands:
    [verdict] = parse_text("BUY TRANSPORT POGO STICK ON CREDIT", grammar_for(after))
    assert (verdict.command.cmd, verdict.command.method, verdict.command.on_credit) == ("transport-buy", "pogo-stick", True)


def test_buying_a_method_costs_its_price_replaces_the_last_and_counts_its_price_in_net_worth():
    state = _game()
    result = _run(state, {"alice": "BUY TRANSPORT CLOGS\nBUY TRANSPORT krazy-carpet\nBUY TRANSPORT A KRAZY KARPET"})
    alice = result.state.players["alice"]
    assert alice.money == 10000 - 50 - 200
    assert shared.transport_of(result.state, "alice") == "krazy-carpet"
    assert TurnsModule.of(result.state).transport["alice"] == "krazy-carpet"  # "Travels by"
    assert REGISTRY.net_worth(result.state, alice) == 10000 - 250 + 200 + 0  # health etc. add nothing here
    assert texts(result.events, "action") == [
        "alice bought clogs for $50 and uses them now.",
        "alice bought a Krazy Carpet for $200 and uses it now; clogs are given up.",
        'alice: "BUY TRANSPORT A KRAZY KARPET" was not done: you are using a Krazy Carpet already (XXIX.2: '
        "one method at a time)"]


def test_going_back_on_foot_is_free_and_on_credit_needs_credit_cards():
    state = _game()
    _use(state, "alice", "helicopter")
    result = _run(state, {"alice": "BUY TRANSPORT ON FOOT\nBUY TRANSPORT CAR ON CREDIT"})
    assert result.state.players["alice"].money == 10000
    assert shared.transport_of(result.state, "alice") == "foot"
    assert texts(result.events, "action") == [
        "alice goes on foot from now on; a helicopter is given up.",
        'alice: "BUY TRANSPORT CAR ON CREDIT" was not done: there are no credit cards in this game (XXVIII '
        "is not in force); leave out ON CREDIT"]


def test_a_method_that_is_not_one_is_refused_with_the_list():
    [verdict] = parse_text("BUY TRANSPORT ROCKET SLED", grammar_for(_game()))
    assert verdict.error and "ON FOOT, CLOGS, POGO STICK, KRAZY CARPET, HELICOPTER, CAR or SPRINGY SHOES" in verdict.error


def test_each_methods_dice_and_the_faces_a_weighted_die_may_show():
    state = _game()
    module = TransportModule()
    expect = {"foot": (None, [1, 2, 3, 4, 5, 6]), "clogs": ("2d3", [1, 2, 3]), "pogo-stick": ("2d2", [1, 6]),
              "krazy-carpet": ("2d8", list(range(1, 9))), "helicopter": ("2d6", list(range(1, 7))),
              "car": ("2d10", list(range(1, 11))), "springy-shoes": ("1d20", [])}
    for method, (dice, faces) in expect.items():
        set_method(state, "alice", method)
        assert (module.dice_for(state, state.players["alice"]), die_faces(state, "alice")) == (dice, faces), method


def test_clogs_roll_two_d3_and_a_krazy_carpet_two_d8():
    state = _game(paused=False)
    _use(state, "alice", "clogs")
    _use(state, "bob", "krazy-carpet")
    result = _run(state, dice=[3, 2, 8, 7, 1, 2], order=["alice", "bob", "carol"])
    assert [result.state.players[n].square for n in PLAYERS] == [6, 16, 4]


def test_a_roll_that_burns_exactly_the_fuel_left_empties_the_car_without_abandoning_it():
    state = _game(paused=False)
    _use(state, "alice", "car", fuel=30)
    result = _run(state, dice=[5, 6, 1, 2, 1, 3], order=["alice", "bob", "carol"])
    assert (result.state.players["alice"].square, TransportModule.of(result.state).fuel["alice"]) == (12, 0)
    assert shared.transport_of(result.state, "alice") == "car"
    assert "alice's car burnt 30 fuel (5 x 6); 0 left." in texts(result.events)


def test_doubles_in_a_car_burn_fuel_for_each_roll():
    state = _game(paused=False, board__new_square_percent_times_n=0)
    _use(state, "alice", "car", fuel=100)
    result = _run(state, dice=[3, 3, 1, 2, 1, 2, 1, 3], order=["alice", "bob", "carol"], draws=["QH"])
    assert TransportModule.of(result.state).fuel["alice"] == 100 - 9 - 2
    assert result.state.players["alice"].square == 1 + 6 + 3


def test_an_empty_car_is_abandoned_with_the_fuel_it_had_and_the_turn_rolled_on_foot():
    state = _game(paused=False)
    _use(state, "alice", "car", fuel=11, square=4)
    result = _run(state, dice=[3, 4, 6, 5, 1, 2, 1, 3], order=["alice", "bob", "carol"])
    ts = TransportModule.of(result.state)
    assert ts.abandoned == {4: [11]} and "alice" not in ts.fuel
    assert result.state.players["alice"].square == 4 + 11
    assert shared.transport_of(result.state, "alice") == "foot"
    assert REGISTRY.net_worth(result.state, result.state.players["alice"]) == result.state.players["alice"].money


def test_a_helicopter_past_the_rightmost_column_passes_the_end_and_a_new_square_there_is_flown_over():
    """Also the core's hook: a module's move_instead that returns how many times it passed the end
    (here 1) has the turn's end pay the $1000 for it (Mechanic.move_instead)."""
    state = _game(paused=False, board__new_square_percent_times_n=2000)  # 100% with 20 squares
    _use(state, "alice", "helicopter", square=10)
    result = _run(state, dice=[1, 2, 1, 2, 1, 3], order=["alice", "bob", "carol"])
    # 10 -> 11 (the top of the last column) -> past the end: square 1, and 21 appears above 20
    # in the first column -> 20 ... so 10 + 3 = 11, 1, 20
    assert result.state.players["alice"].square == 20
    assert result.state.players["alice"].money == 11000
    assert "alice flew 3 along the columns from square 10 to square 20, past the rightmost column and on " \
           "from square 1." in texts(result.events)
    assert "alice passed the end of the board and square 21 was added (a 100% chance)." in texts(result.events)
    assert column_path(result.state)[:4] == [1, 20, 21, 2]


def test_a_snaking_helicopter_flies_down_every_other_column():
    state = _game(paused=False, transport__helicopter_columns="snake")
    assert column_path(state, "snake")[:6] == [1, 20, 19, 2, 3, 18]
    assert column_path(state, "snake")[-2:] == [11, 10]
    _use(state, "alice", "helicopter")
    result = _run(state, dice=[2, 3, 1, 2, 1, 3], order=["alice", "bob", "carol"])
    assert result.state.players["alice"].square == 18  # 1: 20, 19, 2, 3, 18


def test_springy_shoes_roll_one_die_so_never_doubles():
    state = _game(paused=False, board__new_square_percent_times_n=0)
    _use(state, "alice", "springy-shoes", square=7)
    result = _run(state, dice=[7, 1, 2, 1, 3], order=["alice", "bob", "carol"])
    assert result.state.players["alice"].square == 7  # the 7th square: itself
    assert "alice jumped from square 7 to square 7 (springy shoes, to a random square)." in texts(result.events)
    assert not shared.marks_bingo(result.state, "alice") and shared.marks_bingo(result.state, "bob")


def test_a_drive_needs_a_car_enough_fuel_and_a_reachable_square_and_changes_nothing_when_refused():
    state = _game()
    _use(state, "alice", "car", fuel=100, square=1)
    _use(state, "bob", "clogs")
    result = _run(state, {"alice": "DRIVE TO 20\nDRIVE TO 35\nDRIVE TO 5\nDRIVE 4", "bob": "DRIVE TO 2"})
    said = texts(result.events, "action")
    assert "alice drove from square 1 to square 20 (distance 1): 5 fuel burnt, 95 left." in said
    assert 'bob: "DRIVE TO 2" was not done: you are using clogs, not a car; only a car\'s user may DRIVE TO a ' \
           "square (XXIX.3)" in said
    state2 = _game()
    _use(state2, "alice", "car", fuel=79, square=1)
    refused = _run(state2, {"alice": "DRIVE TO 5\nDRIVE TO 35"})
    assert texts(refused.events, "action") == [
        'alice: "DRIVE TO 5" was not done: square 5 is 4 from square 1: 5 x 4 x 4 = 80 fuel, and your car has 79 '
        "(XXIX.3); BUY FUEL at a Gas Station, or drive nearer",
        'alice: "DRIVE TO 35" was not done: there is no square 35 on the board']
    assert refused.state.players["alice"].square == 1 and TransportModule.of(refused.state).fuel["alice"] == 79


def test_a_drive_that_does_not_land_owes_no_rent():
    state = _game(transport__drive_lands=False)
    set_owner(state, 2, "bob")
    _use(state, "alice", "car", fuel=500, square=1)
    result = _run(state, {"alice": "DRIVE TO 2"})
    assert result.state.players["alice"].money == 10000 and result.state.players["alice"].square == 2
    assert TransportModule.of(result.state).fuel["alice"] == 495


def test_a_car_replaced_may_be_left_abandoned_when_the_admin_so_rules():
    state = _game(transport__replaced_car="abandoned")
    _use(state, "alice", "car", fuel=321, square=9)
    result = _run(state, {"alice": "BUY TRANSPORT POGO STICK"})
    assert TransportModule.of(result.state).abandoned == {9: [321]}
    assert texts(result.events, "action") == [
        "alice bought a pogo stick for $150 and uses it now; their old car is left abandoned on square 9 with "
        "321 fuel"+"."]


def test_retrieving_takes_the_fullest_car_and_a_driver_must_abandon_theirs_first():
    state = _game()
    TransportModule.of(state).abandoned = {6: [40, 300, 10]}
    _use(state, "alice", "clogs", square=6)
    _use(state, "bob", "car", fuel=5, square=6)
    result = _run(state, {"alice": "RETRIEVE CAR", "bob": "RETRIEVE CAR"})
    ts = TransportModule.of(result.state)
    assert ts.fuel == {"alice": 300, "bob": 5} and ts.abandoned == {6: [40, 10]}
    said = texts(result.events, "action")
    assert "alice retrieved the abandoned car on square 6, with 300 fuel, giving up clogs." in said
    assert 'bob: "RETRIEVE CAR" was not done: you have a car already and may use one method at a time ' \
           "(XXIX.2); ABANDON CAR first" in said


def test_a_reset_puts_a_player_back_on_foot_without_their_car():
    from admin.library.health import set_health

    state = _game(paused=False)
    _use(state, "alice", "car", fuel=400)
    set_health(state, "alice", 1)
    state.players["alice"].square = 13
    from admin.library.board import set_polluted
    set_polluted(state, 18, True)
    result = _run(state, dice=[1, 4, 1, 2, 1, 3], order=["alice", "bob", "carol"])  # 13 + 5 = 18: polluted
    assert shared.transport_of(result.state, "alice") == "foot"
    assert "alice" not in TransportModule.of(result.state).fuel
    assert TransportModule.of(result.state).abandoned == {}


def test_immunities_other_sections_ask_for():
    state = _game()
    for method, glue, falls, bombs, anthrax in (("clogs", True, False, False, False),
                                                ("pogo-stick", False, True, False, False),
                                                ("krazy-carpet", False, False, True, False),
                                                ("helicopter", False, False, False, True),
                                                ("foot", False, False, False, False)):
        set_method(state, "alice", method)
        assert (shared.immune_to_glue(state, "alice"), shared.falls_in_glue(state, "alice"),
                shared.immune_to_time_bombs(state, "alice"), shared.immune_to_anthrax(state, "alice")) == \
               (glue, falls, bombs, anthrax), method


# -- fuel at Gas Stations (XXII.4), with the real blocks and buildings sections -----------------
@pytest.fixture
def stations():
    """Gas Stations on 4 (a Government block, bob's), 7 (commercial, carol's, $80 per 100) and
    12 (commercial, alice's own)."""
    from admin.engine.config import enable_module
    from admin.games.nomopoly2.mechanics.blocks.mechanic import BlocksModule
    from admin.games.nomopoly2.mechanics.buildings.mechanic import BuildingsModule

    state = _game()
    enable_module(state, REGISTRY, "buildings")  # and the blocks it needs
    BlocksModule.of(state).blocks = [shared.Block(1, "government", [4]), shared.Block(2, "commercial", [7, 8, 13, 14]),
                                     shared.Block(3, "commercial", [9, 10, 11, 12])]
    bs = BuildingsModule.of(state)
    bs.on = {4: ["gas-station"], 7: ["gas-station"], 12: ["gas-station"]}
    bs.fuel_price[7] = 80
    set_owner(state, 4, "bob")
    set_owner(state, 7, "carol")
    set_owner(state, 12, "alice")
    return state


def test_fuel_at_a_government_station_costs_50_per_100_to_the_admin_bank(stations):
    _use(stations, "alice", "car", fuel=100, square=4)
    bank = stations.admin_bank
    result = _run(stations, {"alice": "BUY FUEL 250"})
    assert result.state.players["alice"].money == 10000 - 125
    assert result.state.admin_bank == bank + 125 and result.state.players["bob"].money == 10000
    assert TransportModule.of(result.state).fuel["alice"] == 350
    assert texts(result.events, "action") == [
        "alice bought 250 fuel at the government Gas Station on square 4 ($125 at $50 per 100 to the Admin Bank "
        "Account); the car has 350."]


def test_fuel_over_500_is_not_sold_and_a_commercial_station_charges_its_owners_price(stations):
    _use(stations, "alice", "car", fuel=420, square=7)
    result = _run(stations, {"alice": "BUY FUEL 200"})
    assert (result.state.players["alice"].money, result.state.players["carol"].money) == (10000 - 64, 10064)
    assert TransportModule.of(result.state).fuel["alice"] == 500
    assert texts(result.events, "action") == [
        "alice bought 80 fuel at the commercial Gas Station on square 7 ($64 at $80 per 100 to carol); the car "
        "has 500; 120 more would not fit (a car holds 500, XXIX.3)."]


def test_fuel_at_ones_own_station_is_free_and_a_full_tank_takes_none(stations):
    _use(stations, "alice", "car", fuel=10, square=12)
    result = _run(stations, {"alice": "BUY FUEL FULL\nBUY FUEL 1"})
    assert result.state.players["alice"].money == 10000 and TransportModule.of(result.state).fuel["alice"] == 500
    assert texts(result.events, "action") == [
        "alice bought 490 fuel at the commercial Gas Station on square 12 (free, their own); the car has 500.",
        'alice: "BUY FUEL 1" was not done: your car is full (500 fuel; a car holds 500, XXIX.3)']


def test_fuel_may_be_bought_at_a_station_passed_in_the_last_move_but_not_elsewhere(stations):
    state = stations
    state.paused = False
    _use(state, "alice", "car", fuel=500, square=2)
    moved = _run(state, dice=[2, 3, 1, 2, 1, 3], order=["alice", "bob", "carol"])  # 2 x 3 = 6: 2 -> 7, over 4
    assert moved.state.players["alice"].square == 7 and TransportModule.of(moved.state).reached["alice"] == [4, 7]
    moved.state.paused = True
    moved.state.players["alice"].square = 9  # moved on (say, by a ruling): 4 is still reached
    result = _run(moved.state, {"alice": "BUY FUEL 6 AT 4\nBUY FUEL 10 AT 12"})
    assert TransportModule.of(result.state).fuel["alice"] == 500  # 494 + 6
    assert texts(result.events, "action") == [
        "alice bought 6 fuel at the government Gas Station on square 4 ($3 at $50 per 100 to the Admin Bank "
        "Account); the car has 500.",
        'alice: "BUY FUEL 10 AT 12" was not done: square 12 is not a Gas Station you are on or reached in your '
        "last move; you may buy fuel AT 4 or 7 (XXII.4)"]


def test_no_fuel_without_a_car_or_away_from_any_station(stations):
    _use(stations, "alice", "car", fuel=100, square=3)
    _use(stations, "bob", "helicopter", square=4)
    result = _run(stations, {"alice": "BUY FUEL 100", "bob": "BUY FUEL 100"})
    said = texts(result.events, "action")
    assert 'alice: "BUY FUEL 100" was not done: fuel is sold at a Gas Station you land on, pass or occupy ' \
           "(XXII.4); square 3, where you are, has none and your last move reached none" in said
    assert 'bob: "BUY FUEL 100" was not done: you are using a helicopter, not a car; only a car\'s user may buy ' \
           "fuel (XXII.4)" in said


def test_the_transport_page_lists_methods_users_and_abandoned_cars():
    state = _game()
    _use(state, "alice", "car", fuel=222)
    TransportModule.of(state).abandoned = {5: [17]}
    [panel] = TransportModule().panels(state)
    methods, users, cars = panel.tables
    assert methods.rows[2] == ("Pogo Stick", "$150", "2 dice showing only 1 or 6", "caught by glue: falls and passes out")
    assert methods.rows[6][2] == "none"
    assert users.rows == (("alice", "Car", 222),)
    assert cars.rows == ((5, "17"),)
    look = TransportModule().square_look(state, state.square(5))
    assert look.notes == ((88, "abandoned car (17 fuel)"),)


def test_the_state_round_trips_through_the_store():
    from admin.store.fileio import dump_yaml
    from admin.store.plain import from_data, to_data
    import yaml

    state = _game()
    _use(state, "alice", "car", fuel=222)
    TransportModule.of(state).abandoned = {5: [17, 3]}
    data = yaml.safe_load(dump_yaml(to_data(TransportModule.of(state))))
    again = from_data(TransportModule.State, data)
    assert (again.methods, again.fuel, again.abandoned) == ({"alice": "car"}, {"alice": 222}, {5: [17, 3]})


def test_a_ruling_on_one_methods_price_leaves_the_others():
    state = _game(transport__prices={"car": 600})
    result = _run(state, {"alice": "BUY TRANSPORT CAR", "bob": "BUY TRANSPORT CLOGS"})
    assert (result.state.players["alice"].money, result.state.players["bob"].money) == (9400, 9950)


def test_status_and_results_tell_a_driver_their_fuel():
    state = _game()
    _use(state, "alice", "car", fuel=123)
    result = _run(state, {"alice": "STATUS"})
    [status] = [e.private for e in result.events if e.kind == "status"]
    assert ", car fuel 123 of 500" in status
    module = TransportModule()
    assert module.results_lines(result.state, result.state.players["alice"]) == [(31, "  Car fuel: 123 of 500")]
    assert module.results_lines(result.state, result.state.players["bob"]) == []


def test_a_players_car_fuel_reads_no_car_when_they_have_none():
    state = _run(_game(), {"alice": "BUY TRANSPORT CAR"}).state
    fuel = {n: [(f.value, f.shown) for f in TransportModule().player_facts(state, p)]
            for n, p in state.players.items()}
    assert fuel == {"alice": [(500, None)], "bob": [(None, "no car")], "carol": [(None, "no car")]}
