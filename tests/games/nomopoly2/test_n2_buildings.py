"""Nomopoly II XXII, buildings: where each may stand and what it costs, one a square an update,
evenly within a block, one of each a square; their effects on rent (XXII.5's order), on landers
and on weekly income; the refund when a block is destroyed; net worth."""

import pytest
from fixtures.games import mail, new_state, play, texts

from admin.engine.events import Ruling
from admin.games.registry import REGISTRY
from admin.library.health import health_of
from admin.library.ownership import set_owner
from admin.games.nomopoly2.mechanics.blocks.mechanic import BlocksModule
from admin.games.nomopoly2.mechanics.buildings.mechanic import BuildingsModule
from admin.games.nomopoly2.mechanics.buildings.works import building_name, building_rent
from admin.games.nomopoly2.mechanics.shared import Block, buildings_on, destroy_building, fuel_price_at
from admin.jobs.scenario import run

PLAYERS = ("alice", "bob", "carol")
PARAMS = BuildingsModule.defaults


def _game(owners: dict[int, str], blocks=(), on=None, money: int = 10000):
    """Buildings on, squares owned and blocks made as given, no turns taken (paused); the next
    update is week 1's Sunday (the week's end)."""
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "buildings"}, "test")]).state
    for number, name in owners.items():
        set_owner(state, number, name)
    bs = BlocksModule.of(state)
    bs.blocks = [Block(i + 1, kind, list(squares)) for i, (kind, squares) in enumerate(blocks)]
    bs.next_id = len(bs.blocks) + 1
    BuildingsModule.of(state).on = {n: list(b) for n, b in (on or {}).items()}
    state.paused = True
    for p in state.players.values():
        p.money = money
    return state


def _scenario(data: dict):
    players = {name: {} for name in PLAYERS} | dict(data.pop("players", {}))
    out = run({"players": players, "enable": ["buildings"], **data}, "test")
    assert out.differences == []
    return out


def test_building_names_are_read_as_players_write_them():
    assert building_name("Corporate Headquarters") == "corporate-headquarters"
    assert building_name("HQ") == "corporate-headquarters"
    assert building_name("anti-missile battery") == "anti-missile-battery"
    assert building_name("houses") == "house"


def test_a_house_costs_300_on_ones_own_square_in_a_block():
    state = _game({5: "alice", 6: "alice", 9: "alice", 7: "bob"}, [("residential", [5, 6]), ("government", [7])])
    result = play(state, [mail("alice", "BUILD HOUSE ON 5\nBUILD HOUSE ON 9\nBUILD HOUSE ON 7"),
                          mail("bob", "BUILD HOSPITAL ON 7")])
    assert buildings_on(result.state, 5) == ["house"] and result.state.players["alice"].money == 9700
    said = texts(result.events, "action")
    assert "alice built a House on square 5 for $300." in said
    assert 'alice: "BUILD HOUSE ON 9" was not done: square 9 is in no block; buildings stand only in blocks ' \
           "(XXII.1)" in said
    assert 'alice: "BUILD HOUSE ON 7" was not done: you may build only on a square you own (XXII.1); square 7 ' \
           "is owned by bob" in said
    assert 'bob: "BUILD HOSPITAL ON 7" was not done: square 7 is a government block: the Government builds ' \
           "there, not its owner (XXI.6, XXII.1)" in said


def test_each_building_stands_only_in_the_block_types_xxii4_names():
    state = _game({5: "alice", 6: "alice", 2: "bob", 3: "bob", 4: "bob"},
                  [("residential", [5, 6]), ("industrial", [2, 3, 4])])
    result = play(state, [mail("alice", "BUILD STORE ON 5\nBUILD FACTORY ON 6"),
                          mail("bob", "BUILD MISSILE SILO ON 2\nBUILD MISSILE SILO ON 3\nBUILD HOUSE ON 4")])
    said = texts(result.events, "action")
    assert 'alice: "BUILD STORE ON 5" was not done: a Store may stand only in a commercial block (XXII.4); ' \
           "square 5 is in residential block 1" in said
    assert 'bob: "BUILD MISSILE SILO ON 2" was not done: a Missile Silo stands only on the centre square of ' \
           "an industrial block (XXII.4); square 2 is in industrial block 2" in said
    assert "bob built a Missile Silo on square 3 for $250." in said
    assert buildings_on(result.state, 3) == ["missile-silo"] and buildings_on(result.state, 4) == []


def test_one_building_a_square_an_update_evenly_across_the_block_and_never_two_alike():
    state = _game({5: "alice", 6: "alice"}, [("residential", [5, 6])])
    first = play(state, [mail("alice", "BUILD HOUSE ON 5\nBUILD SPRINGBOARD ON 5")])
    assert texts(first.events, "action")[1] == (
        'alice: "BUILD SPRINGBOARD ON 5" was not done: square 5 had a building built this update already; one '
        "a square an update (XXII.1)")
    second = play(first.state, [mail("alice", "BUILD SPRINGBOARD ON 5\nBUILD HOUSE ON 6")])
    assert texts(second.events, "action")[0] == (
        'alice: "BUILD SPRINGBOARD ON 5" was not done: square 5 has 1 building(s) and square(s) 6 of its block '
        "fewer; each square of a block gets its building number 1 before any gets number 2 (XXII.1)")
    third = play(second.state, [mail("alice", "BUILD HOUSE ON 5\nBUILD SPRINGBOARD ON 5")])
    assert texts(third.events, "action")[0] == (
        'alice: "BUILD HOUSE ON 5" was not done: square 5 has a House already; a square holds one of each '
        "building (XXII.3)")
    assert buildings_on(third.state, 5) == ["house", "springboard"] and buildings_on(third.state, 6) == ["house"]
    assert third.state.players["alice"].money == 10000 - 300 - 300 - 100


def test_xxii5_percentages_add_then_dollar_amounts_follow():
    state = _game({18: "bob"}, [("commercial", [17, 18, 23, 24])], {18: ["house", "store", "corporate-headquarters"]})
    BuildingsModule.of(state).power[18] = 3
    # $1000: a House's 30% ($300) beats $150 and a Store's 50% ($500) beats $200; 3 power points: 3%
    assert building_rent(state, PARAMS, 18, 1000) == 1000 + 830
    # $54 (3 x 18): $150 and $200 beat 30% and 50%; 3% of $54 is $1.62, so $2: 54 + 2 + 350
    assert building_rent(state, PARAMS, 18, 54) == 406
    # $600: the Store's 50% ($300) beats $200, the House's 30% ($180) beats $150: 83% is $498
    assert building_rent(state, PARAMS, 18, 600) == 1098


def test_a_house_raises_the_rent_a_lander_pays_by_150_dollars_when_that_is_more_than_30_percent():
    out = _scenario({"squares": {5: {"owner": "bob", "block": "residential 5 6", "buildings": ["house"]}},
                     "updates": [{"order": ["alice", "bob", "carol"],
                                  "dice": [1, 3,     # alice: 5: 3 x 5 = $15, a House: + $150 (30% is $4.50)
                                           1, 2,     # bob: 4
                                           1, 2]}],  # carol: 4
                     "expect": {"players": {"alice": {"money": 9835}, "bob": {"money": 10165}}},
                     "expect_events": ["alice paid $165 rent to bob for square 5."]})
    assert out.ok


def test_a_factory_takes_no_rent_and_costs_its_lander_5_health():
    out = _scenario({"squares": {3: {"owner": "bob", "block": "industrial 2 3 4", "buildings": ["factory"]}},
                     "players": {"alice": {"square": 20}, "bob": {"square": 10}, "carol": {"square": 10}},
                     "updates": [{"order": ["alice", "bob", "carol"],
                                  "dice": [1, 2,     # alice: 20 + 3 = 3, past the end (+$1000); no rent
                                           1, 2,     # bob: 13
                                           1, 2]}],  # carol: 13
                     # 5 health for the pollution of an industrial square (VI.14), 5 for the Factory
                     "expect": {"players": {"alice": {"money": 11000, "health": 90}, "bob": {"money": 10000}}}})
    assert "alice lost 5 health (the Factory on square 3); now 90." in texts(out.events)


def test_a_hospital_heals_a_lander_who_owns_part_of_its_block_and_anyone_in_a_government_block():
    out = _scenario({"squares": {5: {"owner": "alice", "block": "residential 5 6", "buildings": ["hospital"]},
                                 6: {"owner": "bob"},
                                 7: {"owner": "carol", "block": "government 7", "buildings": ["hospital"]}},
                     "players": {"alice": {"health": 50}, "bob": {"health": 50}, "carol": {"health": 50}},
                     "updates": [{"order": ["alice", "bob", "carol"],
                                  "dice": [1, 3,     # alice: 5, her own square: + 15, and $18 to bob for 6
                                           1, 3,     # bob: 5, he owns 6: + 15; $15 to alice, $18 ... his own
                                           2, 4]}],  # carol: 7, a Government block's Hospital: + 15
                     "expect": {"players": {"alice": {"health": 65}, "bob": {"health": 65},
                                            "carol": {"health": 65}}}})
    assert out.ok
    stranger = _scenario({"squares": {5: {"owner": "alice", "block": "residential 5 6", "buildings": ["hospital"]}},
                          "players": {"carol": {"health": 50}},
                          "updates": [{"order": ["carol", "alice", "bob"], "dice": [1, 3, 1, 2, 1, 2]}],
                          "expect": {"players": {"carol": {"health": 50}}}})
    assert stranger.ok


def test_a_springboard_sends_its_lander_7_squares_back_after_the_rent():
    out = _scenario({"squares": {12: {"owner": "bob", "block": "residential 12 13", "buildings": ["springboard"]}},
                     "updates": [{"order": ["alice", "bob", "carol"],
                                  "dice": [5, 6,     # alice: 12: $36 to bob, then back 7 to 5
                                           1, 2,     # bob: 4
                                           1, 2]}],  # carol: 4
                     "expect": {"players": {"alice": {"square": 5, "money": 9964}}},
                     "expect_events": ["alice paid $36 rent to bob for square 12.",
                                       "alice jumped from square 12 to square 5 (the Springboard on square 12)."]})
    assert out.ok


def test_a_legislative_building_gives_its_lander_an_extra_vote_in_the_next_voting_period():
    thursday = _scenario({"squares": {5: {"owner": "bob", "block": "residential 5 6",
                                          "buildings": ["legislative-building"]}},
                          "updates": [{"order": ["alice", "bob", "carol"], "dice": [1, 3, 1, 2, 1, 2]}]})
    assert [(g.player, g.extra, g.week) for g in thursday.state.vote_grants] == [("alice", 1, 1)]  # voted Sunday
    sunday = _scenario({"squares": {5: {"owner": "bob", "block": "residential 5 6",
                                        "buildings": ["legislative-building"]}},
                        "players": {"alice": {"square": 19}},
                        "updates": [{"order": ["alice", "bob", "carol"], "dice": [1, 2, 1, 2, 1, 2]},  # alice: 2
                                    {"order": ["alice", "bob", "carol"], "dice": [1, 2, 1, 2, 1, 2]}]},  # 5
                       )
    assert [(g.player, g.extra, g.week) for g in sunday.state.vote_grants] == [("alice", 1, 2)]  # next week's


def test_grease_sliding_back_onto_the_springboard_ends_the_chain_there():
    """A Springboard (XXII.4) whose jump lands on grease (XXXIII.5) that slides the player back onto
    it: the rules as written loop for ever. The chain stops when the player comes back to a
    Springboard they already jumped from in it: they stay there (one jump, one slide)."""
    greased = {n: {"greased": True} for n in range(5, 12)}  # 5..11: a slide from 5 ends on 12
    out = run({"players": {name: {} for name in PLAYERS}, "enable": ["buildings", "casinos"],
               "squares": {12: {"owner": "bob", "block": "residential 12 13", "buildings": ["springboard"]},
                           **greased},
               "updates": [{"order": ["alice", "bob", "carol"],
                            "dice": [5, 6,     # alice: 12: rent to bob, back 7 to 5, slides 5 -> 12
                                     1, 2,     # bob: 4
                                     1, 2]}]}, "test")
    assert out.differences == []
    events = texts(out.events)
    assert [t for t in events if "jumped" in t] == [
        "alice jumped from square 12 to square 5 (the Springboard on square 12)."]
    assert sum(1 for t in events if t.startswith("alice slid on the grease")) == 7
    assert out.state.players["alice"].square == 12
    assert health_of(out.state, "alice") == 100 - 12  # 7 slides of 3, at most 12 a move (XXXIII.5)


def test_extra_votes_of_a_past_week_are_dropped_from_the_state():
    """A Legislative Building's extra vote counts in its week only (VIII.4): once that week is over
    it is dropped, or the grants of every landing would pile up in the state all game long (10,000
    by update 100 of the benchmark's game, each scanned by every vote)."""
    land = {"order": ["alice", "bob", "carol"], "dice": [1, 3, 1, 2, 1, 2]}  # alice 1 -> 5; bob, carol 4
    walk = {"order": ["alice", "bob", "carol"], "dice": [1, 2, 1, 2, 1, 2]}  # 3 squares each: none on 5
    squares = {5: {"owner": "bob", "block": "residential 5 6", "buildings": ["legislative-building"]}}
    sunday = _scenario({"squares": squares, "updates": [land, walk]})  # week 1 still: the grant stays
    assert [(g.player, g.extra, g.week) for g in sunday.state.vote_grants] == [("alice", 1, 1)]
    thursday = _scenario({"squares": squares, "updates": [land, walk, walk]})  # week 2
    assert thursday.state.week == 2
    assert thursday.state.vote_grants == []


def test_corporate_headquarters_gain_power_on_rent_paid_and_pay_weekly_dues_and_a_mall_its_income():
    out = _scenario({"squares": {18: {"owner": "bob", "block": "commercial 17 18 23 24",
                                      "buildings": ["corporate-headquarters"]},
                                 17: {"owner": "bob", "buildings": ["mall"]}},
                     "players": {"alice": {"square": 14}, "bob": {"square": 1}, "carol": {"square": 1}},
                     "admin_bank": 0,
                     "updates": [{"order": ["alice", "bob", "carol"],
                                  "dice": [1, 3,     # alice: 18: $54 to bob ($1 tax), a point of power
                                           1, 2,     # bob: 4
                                           1, 2]},   # carol: 4
                                 {"order": ["alice", "bob", "carol"],
                                  "dice": [1, 2,     # alice: 18 + 3 = 1, past the end: $1000
                                           1, 2,     # bob: 7
                                           1, 2]}],  # carol: 7; the week's end: $100 dues, $200 Mall
                     "expect": {"squares": {18: {"corporate_power": 1}},
                                "players": {"bob": {"money": 10000 + 54 - 1 + 100 + 200}}},
                     "expect_events": ["Square 18's Corporate Headquarters gained a point of corporate power (now 1).",
                                       "bob received $100 in corporate dues from the Corporate Headquarters on "
                                       "square 18.",
                                       "bob received $200 from the Mall on square 17 (its rent is $51)."]})
    assert out.state.admin_bank == 1 - 300 - 1000


def test_a_destroyed_block_refunds_half_the_price_of_its_buildings_and_takes_the_power():
    state = _game({17: "alice", 18: "bob"}, [("commercial", [17, 18, 23, 24])],
                  {17: ["house", "springboard"], 18: ["corporate-headquarters"]})
    BuildingsModule.of(state).power[18] = 4
    result = play(state, [mail("alice", "DESTROY BLOCK 1")])
    assert BuildingsModule.of(result.state).on == {} and BuildingsModule.of(result.state).power == {}
    assert (result.state.players["alice"].money, result.state.players["bob"].money) == (10200, 10500)
    assert texts(result.events, "action") == [
        "Commercial block 1 (squares 17, 18, 23, 24) was destroyed by alice; alice was refunded $200 for the "
        "house, springboard on square 17; bob was refunded $500 for the corporate headquarters on square 18."]


def test_net_worth_counts_building_prices_and_ten_dollars_a_power_point():
    state = _game({17: "alice", 18: "bob"}, [("commercial", [17, 18, 23, 24])],
                  {17: ["house", "store"], 18: ["corporate-headquarters"]})
    BuildingsModule.of(state).power[18] = 4
    assert BuildingsModule().worth(state, state.players["alice"]) == 900
    assert BuildingsModule().worth(state, state.players["bob"]) == 1040
    assert REGISTRY.net_worth(state, state.players["bob"]) == 10000 + 25 * 18 + 1000 + 1040


def test_a_commercial_gas_stations_owner_sets_its_fuel_price_and_a_government_one_is_fixed():
    state = _game({17: "alice", 7: "bob"}, [("commercial", [17, 18, 23, 24]), ("government", [7])],
                  {17: ["gas-station"], 7: ["gas-station"]})
    result = play(state, [mail("alice", "FUEL PRICE 17 65"), mail("bob", "FUEL PRICE 7 10"),
                          mail("carol", "FUEL PRICE 17 1")])
    assert fuel_price_at(result.state, 17) == 65 and fuel_price_at(result.state, 7) == 50
    assert fuel_price_at(result.state, 18) is None
    said = texts(result.events, "action")
    assert "alice set the fuel price at the Gas Station on square 17 to $65 per 100 fuel." in said
    assert 'carol: "FUEL PRICE 17 1" was not done: only the owner of square 17 sets its fuel price (XXII.4); ' \
           "its owner is alice" in said


def test_a_building_destroyed_by_other_means_takes_its_power_with_it():
    state = _game({18: "bob"}, [("commercial", [17, 18, 23, 24])], {18: ["corporate-headquarters", "house"]})
    BuildingsModule.of(state).power[18] = 4
    assert destroy_building(state, 18, "corporate-headquarters")
    assert buildings_on(state, 18) == ["house"] and BuildingsModule.of(state).power == {}
    assert not destroy_building(state, 18, "mall")


def test_build_on_credit_needs_the_credit_cards_section():
    state = _game({5: "alice", 6: "alice"}, [("residential", [5, 6])])
    result = play(state, [mail("alice", "BUILD HOUSE ON 5 ON CREDIT")])
    assert texts(result.events, "action") == [
        'alice: "BUILD HOUSE ON 5 ON CREDIT" was not done: there are no credit cards in this game (XXVIII is '
        "not in force); leave out ON CREDIT"]


@pytest.mark.parametrize("line", ["BUILD RAILROAD ON 5"])
def test_build_railroad_is_still_the_railroads_command(line):
    state = _game({5: "alice"})
    result = play(state, [mail("alice", line)], rulings=[Ruling("enable", {"module": "railroads"}, "test")])
    assert texts(result.events, "action") == ["alice built a railroad on square 5 for $25."]


def test_the_board_shows_a_squares_block_and_buildings_and_the_owner_reads_them_in_their_results():
    from admin.games.nomopoly2.mechanics.blocks.mechanic import BlocksModule as Blocks

    state = _game({17: "alice", 18: "alice"}, [("commercial", [17, 18, 23, 24])],
                  {17: ["house"], 18: ["store", "corporate-headquarters"]})
    BuildingsModule.of(state).power[18] = 2
    sq17, sq18 = state.square(17), state.square(18)
    assert Blocks().square_look(state, sq17).flags == ((55, "COM", "commercial block"),)
    assert BuildingsModule().square_look(state, sq17).flags == ((56, "HSE", "House"),)
    look = BuildingsModule().square_look(state, sq18)
    assert look.flags == ((56, "2B", "2 buildings"),)
    assert look.notes == ((56, "buildings: Store, Corporate Headquarters (2 corporate power)"),)
    alice = state.players["alice"]
    assert Blocks().results_lines(state, alice) == [(45, "  Blocks you own part of: commercial block 1 "
                                                         "(squares 17, 18, 23, 24)")]
    assert BuildingsModule().results_lines(state, alice) == [
        (46, "  Your buildings: 17: House; 18: Store, Corporate Headquarters (2 corporate power)")]
    facts = {f.key: f.value for f in BuildingsModule().square_facts(state, sq18) + Blocks().square_facts(state, sq18)}
    assert facts == {"buildings": ["store", "corporate-headquarters"], "corporate_power": 2, "block": 1,
                     "block_kind": "commercial"}
    # the site writes the buildings as the rulebook names them (the export keeps the names above)
    assert [f.shown for f in BuildingsModule().square_facts(state, sq18)] == ["Store, Corporate Headquarters", None]
    blocks_page, = Blocks().panels(state)
    assert blocks_page.tables[0].rows == ((1, "commercial", "17, 18, 23, 24", "17: alice, 18: alice, 23: nobody, "
                                           "24: nobody", "17: House; 18: Store, Corporate Headquarters"),)
    buildings_page, = BuildingsModule().panels(state)
    assert buildings_page.tables[0].rows[-2:] == (("ATM", "$50", "residential, industrial, commercial, government"),
                                                  ("Casino", "$500", "residential, industrial, commercial, government"))
    assert [row[:3] for row in buildings_page.tables[1].rows] == [
        (17, "alice", "House"), (18, "alice", "Store, Corporate Headquarters")]
