"""Nomopoly II XXI, blocks: made by the agreement of every owner (a consent asked by mail, silence
is no), each owner paying the block's cost for each of their squares; the shapes; what each kind
does to rent, pollution and income; the Government's weekly building; destroying a block.

On the 10-wide snake, squares 1-10 run left to right on the bottom row and 11-20 right to left
above them: 2 and 3 sit under 19 and 18 (a 2x2 square), 17-18 under 24-23, and 10, 11, 30 make a
column."""

import pytest
from fixtures.games import mail, new_state, play, texts

from admin.engine import hooks
from admin.engine.events import Ruling
from admin.library.board import BoardModule
from admin.library.ownership import set_owner
from admin.games.nomopoly2.mechanics.blocks.mechanic import BlocksModule, possible_groups, shape_ok
from admin.games.nomopoly2.mechanics.shared import Block, block_of, buildings_on
from admin.jobs.scenario import run

PLAYERS = ("alice", "bob", "carol")


def _blocks(owners: dict[int, str], money: int = 10000):
    """Blocks and buildings on, squares owned as given, no turns taken (paused); the next update
    is the first week's Sunday (week end)."""
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "buildings"}, "test")]).state
    for number, name in owners.items():
        set_owner(state, number, name)
    state.paused = True
    for p in state.players.values():
        p.money = money
    return state


def _scenario(data: dict):
    out = run({"players": list(PLAYERS), "enable": ["buildings"], **data}, "test")
    assert out.differences == []
    return out


def test_enabling_buildings_switches_on_blocks_and_interactions_before_it():
    state = _blocks({})
    assert [m.name for m in state.modules][-3:] == ["interactions", "blocks", "buildings"]


def test_one_owner_makes_a_residential_block_at_once_paying_500_for_each_square():
    result = play(_blocks({5: "alice", 6: "alice"}), [mail("alice", "CREATE RESIDENTIAL BLOCK 5 6")])
    assert BlocksModule.of(result.state).blocks == [Block(id=1, kind="residential", squares=[5, 6])]
    assert result.state.players["alice"].money == 9000
    assert "Squares 5, 6 became residential block 1 (alice paid $1000)." in texts(result.events, "action")


def test_a_block_with_another_owner_is_made_when_they_accept_and_each_pays_for_their_square():
    state = _blocks({5: "alice", 6: "bob"})
    asked = play(state, [mail("alice", "CREATE RESIDENTIAL BLOCK 5 6")])
    assert block_of(asked.state, 5) is None and asked.state.players["alice"].money == 10000
    assert texts(asked.events, "action") == [
        "alice proposed making squares 5, 6 a residential block (#1); it is made if bob ACCEPT 1 by update "
        "3, and then alice pays $500; bob pays $500 (XXI.1, XXI.2)."]
    done = play(asked.state, [mail("bob", "ACCEPT 1")])
    assert block_of(done.state, 6) == Block(id=1, kind="residential", squares=[5, 6])
    assert (done.state.players["alice"].money, done.state.players["bob"].money) == (9500, 9500)
    assert "#1 (consent) closed: Squares 5, 6 became residential block 1 (alice paid $500; bob paid $500)." \
        in texts(done.events)


def test_silence_is_no_and_nobody_pays():
    asked = play(_blocks({5: "alice", 6: "bob"}), [mail("alice", "CREATE RESIDENTIAL BLOCK 5 6")])
    done = play(asked.state, [])
    assert BlocksModule.of(done.state).blocks == []
    assert done.state.players["alice"].money == 10000 and done.state.players["bob"].money == 10000
    assert ("#1 (consent) closed: the residential block of squares 5, 6 needs every owner's consent and bob "
            "did not give it (XXI.1, XXI.8)") in texts(done.events)


def test_an_owner_who_cannot_pay_stops_the_block_for_everyone():
    state = _blocks({5: "alice", 6: "bob"})
    state.players["bob"].money = 400
    asked = play(state, [mail("alice", "CREATE RESIDENTIAL BLOCK 5 6")])
    done = play(asked.state, [mail("bob", "ACCEPT 1")])
    assert BlocksModule.of(done.state).blocks == []
    assert (done.state.players["alice"].money, done.state.players["bob"].money) == (10000, 400)
    assert ("#1 (consent) closed: not done: bob would pay $500 for the block and has $400; no voluntary "
            "action may make a player bankrupt (IV.3)") in texts(done.events)


@pytest.mark.parametrize("kind, squares, ok", [
    ("residential", [5, 6], True), ("residential", [5, 7], False), ("residential", [5], False),
    ("industrial", [2, 3, 4], True), ("industrial", [2, 3, 5], False), ("industrial", [10, 11, 30], True),
    ("industrial", [10, 11, 12], False),
    ("commercial", [2, 3, 18, 19], True), ("commercial", [2, 3, 17, 18], False),
    ("commercial", [17, 18, 23, 24], True),
    ("government", [7], True), ("government", [7, 8], False),
])
def test_each_kind_of_block_has_its_shape_on_the_board(kind, squares, ok):
    state = _blocks({})
    while len(state.squares) < 30:
        from admin.engine.board import add_square
        add_square(state)
    assert shape_ok(state, kind, squares) is ok


def test_squares_of_the_wrong_shape_or_already_in_a_block_are_refused():
    state = _blocks({2: "alice", 3: "alice", 5: "alice", 6: "alice", 7: "alice", 9: "alice"})
    result = play(state, [mail("alice", "CREATE RESIDENTIAL BLOCK 5 6\nCREATE GOVERNMENT BLOCK 6\n"
                                        "CREATE INDUSTRIAL BLOCK 2 3 9\nCREATE RESIDENTIAL BLOCK 7 8")])
    assert texts(result.events, "action")[1:] == [
        'alice: "CREATE GOVERNMENT BLOCK 6" was not done: square 6 is in residential block 1 already; a '
        "square is in one block at most (XXI.7)",
        'alice: "CREATE INDUSTRIAL BLOCK 2 3 9" was not done: squares 2, 3, 9 cannot form an industrial block, '
        "which needs three squares in a row or a column of the board (XXI.4)",
        'alice: "CREATE RESIDENTIAL BLOCK 7 8" was not done: square 8 is owned by nobody; only owned squares '
        "make a block (XXI.1)"]


def test_a_lander_in_a_residential_block_pays_the_rent_of_both_squares_each_to_its_owner():
    out = _scenario({"squares": {5: {"owner": "alice", "block": "residential 5 6"}, 6: {"owner": "bob"}},
                     "updates": [{"order": ["carol", "alice", "bob"],
                                  "dice": [1, 3,     # carol: 1 + 4 = 5: $15 to alice and $18 to bob
                                           1, 3,     # alice: 5, her own: $18 to bob for 6
                                           1, 2]}],  # bob: 4
                     "expect": {"players": {"carol": {"money": 9967}, "alice": {"money": 9997},
                                            "bob": {"money": 10036}}}})
    assert "carol paid $18 rent to bob for square 6." in texts(out.events)


def test_industrial_squares_are_polluted_and_pay_their_owner_their_number_each_week():
    state = _blocks({2: "alice", 3: "alice", 4: "bob"})
    made = play(state, [mail("alice", "CREATE INDUSTRIAL BLOCK 2 3 4")])  # asked of bob: Sunday, week 1
    assert BoardModule.of(made.state).polluted == []
    assert "alice proposed making squares 2, 3, 4 an industrial block (#1); it is made if bob ACCEPT 1 by " \
           "update 3, and then alice pays $1000; bob pays $500 (XXI.1, XXI.2)." in texts(made.events)
    week2 = play(made.state, [mail("bob", "ACCEPT 1")])  # Thursday, week 2: made
    assert BoardModule.of(week2.state).polluted == [2, 3, 4]
    sunday = play(week2.state)  # the week's end: $2 + $3 to alice, $4 to bob
    assert sunday.state.players["alice"].money == 10000 - 1000 + 5
    assert sunday.state.players["bob"].money == 10000 - 500 + 4
    assert "bob received $4 weekly income for industrial square 4." in texts(sunday.events)


def test_the_tax_on_a_commercial_rent_goes_from_the_owner_to_the_admin_bank():
    out = _scenario({"squares": {18: {"owner": "bob", "block": "commercial 17 18 23 24", "buildings": ["store"]}},
                     "admin_bank": 0,
                     "players": {"alice": {"square": 14}, "bob": {"square": 1}, "carol": {"square": 1}},
                     "updates": [{"order": ["alice", "bob", "carol"],
                                  "dice": [1, 3,     # alice: 14 + 4 = 18: $254 to bob, who pays $7 tax
                                           1, 2,     # bob: 4
                                           1, 2]}],  # carol: 4
                     "expect": {"players": {"alice": {"money": 9746}, "bob": {"money": 10247}},
                                "admin_bank": 7},
                     "expect_events": ["alice paid $254 rent to bob for square 18.",
                                       "bob paid $7 tax to the Admin Bank Account on the $254 rent collected on "
                                       "square 18 (commercial block 1)."]})
    assert out.ok


def test_the_government_builds_a_random_allowable_building_on_a_government_square_each_week():
    out = _scenario({"squares": {7: {"owner": "bob", "block": "government 7"}},
                     "paused": True,
                     "updates": [{}, {"rolls": {"blocks/government": [3]}}],  # of 8 buildings, the third
                     "expect": {"squares": {7: {"buildings": ["hospital"]}}},
                     "expect_events": ["The Government built a Hospital on square 7, free of charge to its owner."]})
    assert buildings_on(out.state, 7) == ["hospital"]


def test_the_government_never_builds_twice_the_same_building_and_stops_when_all_are_built():
    from admin.games.nomopoly2.mechanics.buildings.works import government_buildings

    every = government_buildings(new_state(PLAYERS))
    assert every == ["springboard", "house", "hospital", "anti-missile-battery", "legislative-building",
                     "gas-station", "atm", "casino"]
    out = _scenario({"squares": {7: {"owner": "bob", "block": "government 7", "buildings": every[1:]}},
                     "paused": True, "updates": [{}, {}]})  # one pair left: no roll needed
    assert buildings_on(out.state, 7) == every[1:] + ["springboard"]
    full = _scenario({"squares": {7: {"owner": "bob", "block": "government 7", "buildings": every}},
                      "paused": True, "updates": [{}, {}]})
    assert buildings_on(full.state, 7) == every


def test_one_owner_destroys_a_residential_block_but_nobody_destroys_a_government_block():
    state = _blocks({5: "alice", 6: "bob", 7: "carol"})
    bs = BlocksModule.of(state)
    bs.blocks = [Block(1, "residential", [5, 6]), Block(2, "government", [7])]
    bs.next_id = 3
    result = play(state, [mail("bob", "DESTROY BLOCK 1"), mail("carol", "DESTROY BLOCK 2"),
                          mail("alice", "DESTROY BLOCK 2")])
    assert [b.id for b in BlocksModule.of(result.state).blocks] == [2]
    assert "Residential block 1 (squares 5, 6) was destroyed by bob." in texts(result.events, "action")
    assert ('carol: "DESTROY BLOCK 2" was not done: block 2 is a government block, which can never be '
            "destroyed (XXI.8)") in texts(result.events, "action")
    assert ('alice: "DESTROY BLOCK 2" was not done: you own no square of block 2 (square 7); only its '
            "owners may destroy it (XXI.8)") in texts(result.events, "action")


def test_an_industrial_block_is_destroyed_only_when_every_owner_agrees_and_its_pollution_goes():
    state = _blocks({2: "alice", 3: "alice", 4: "bob"})
    BlocksModule.of(state).blocks = [Block(1, "industrial", [2, 3, 4])]
    BlocksModule.of(state).next_id = 2
    BoardModule.of(state).polluted = [2, 3, 4]
    asked = play(state, [mail("alice", "DESTROY BLOCK 1")])
    assert block_of(asked.state, 2) is not None
    done = play(asked.state, [mail("bob", "ACCEPT 1")])
    assert BlocksModule.of(done.state).blocks == []
    assert BoardModule.of(done.state).polluted == []
    assert "#1 (consent) closed: Industrial block 1 (squares 2, 3, 4) was destroyed by alice and bob." \
        in texts(done.events)


def test_a_free_block_ruling_makes_a_random_possible_block_at_no_cost():
    state = _blocks({5: "alice", 6: "bob", 9: "carol"})
    assert possible_groups(state, "residential") == [[5, 6]]
    assert possible_groups(state, "government") == [[5], [6], [9]]
    assert possible_groups(state, "industrial") == []
    out = _scenario({"squares": {5: {"owner": "alice"}, 6: {"owner": "bob"}}, "paused": True,
                     "updates": [{"rulings": [{"kind": "free-block", "args": {}, "note": "the Skunk on a Mall"}],
                                  "rolls": {"blocks/free-kind": [1]}}],  # residential: one group
                     "expect": {"players": {"alice": {"money": 10000}, "bob": {"money": 10000}},
                                "squares": {5: {"block_kind": "residential"}, 6: {"block": 1}}}})
    assert "Squares 5, 6 became residential block 1 (free of charge)." in texts(out.events)


def test_net_worth_counts_the_block_price_of_each_square_in_a_block():
    from admin.games.registry import REGISTRY

    state = _blocks({5: "alice", 6: "alice", 18: "bob"})
    BlocksModule.of(state).blocks = [Block(1, "residential", [5, 6]), Block(2, "commercial", [17, 18, 23, 24])]
    alice, bob = state.players["alice"], state.players["bob"]
    assert BlocksModule().worth(state, alice) == 1000 and BlocksModule().worth(state, bob) == 1000
    assert REGISTRY.net_worth(state, alice) == 10000 + 25 * 11 + 1000


def test_a_destroyed_square_leaves_its_block():
    from admin.engine.board import destroy_square
    from admin.games.registry import REGISTRY

    state = _blocks({5: "alice", 6: "alice", 7: "bob"})
    BlocksModule.of(state).blocks = [Block(1, "residential", [5, 6]), Block(2, "government", [7])]
    destroy_square(state, 6, hooks.call(state, REGISTRY))
    destroy_square(state, 7, hooks.call(state, REGISTRY))
    assert BlocksModule.of(state).blocks == [Block(1, "residential", [5])]


def test_every_module_hears_of_rent_paid_through_on_rent_paid():
    """The core hook this section added: ownership's rent, and a Residential block's second rent,
    each tell every enabled module who paid whom how much for which square. The buildings section
    hears them: a Corporate Headquarters gains a point of power for each rent paid on its square
    (XXII.4). The scenario stands one on each square of the Residential block, where no player
    could build one (XXII.3), because only the blocks and buildings sections listen to the hook."""
    hq = ["corporate-headquarters"]
    out = _scenario({"squares": {5: {"owner": "alice", "block": "residential 5 6", "buildings": hq},
                                 6: {"owner": "bob", "buildings": hq}},
                     "updates": [{"order": ["carol", "alice", "bob"], "dice": [1, 3, 1, 2, 1, 2]}]})
    assert [line for line in texts(out.events) if "rent" in line or "corporate power" in line] == [
        "carol paid $15 rent to alice for square 5.",
        "Square 5's Corporate Headquarters gained a point of corporate power (now 1).",
        "carol landed in residential block 1 and owes the rent of square 6 too.",
        "carol paid $18 rent to bob for square 6.",
        "Square 6's Corporate Headquarters gained a point of corporate power (now 1)."]
    assert out.state.mods["buildings"].power == {5: 1, 6: 1}


@pytest.mark.parametrize("cost_per, alice, bob", [("square", 2000, 1000), ("owner", 500, 500), ("split", 667, 333)])
def test_the_cost_is_paid_per_square_by_default_or_once_per_owner_or_split(cost_per, alice, bob):
    state = _blocks({2: "alice", 3: "alice", 4: "bob"})
    state.modules[[m.name for m in state.modules].index("blocks")].params["cost_per"] = cost_per
    state.modules[[m.name for m in state.modules].index("blocks")].params["cost_industrial"] = 1000 if cost_per != "owner" else 500
    asked = play(state, [mail("alice", "CREATE INDUSTRIAL BLOCK 2 3 4")])
    done = play(asked.state, [mail("bob", "ACCEPT 1")])
    assert (10000 - done.state.players["alice"].money, 10000 - done.state.players["bob"].money) == (alice, bob)
    assert BlocksModule().worth(done.state, done.state.players["alice"]) == alice


def test_an_owner_asked_to_consent_reads_what_the_question_is_in_their_results():
    asked = play(_blocks({5: "alice", 6: "bob"}), [mail("alice", "CREATE RESIDENTIAL BLOCK 5 6")]).state
    assert BlocksModule().results_lines(asked, asked.players["bob"]) == [
        (89, "  #1: alice asks you to make squares 5, 6 a residential block (you would pay $500); write ACCEPT 1 "
             "or DECLINE 1 by "
             "update 3 (no answer is no)")]
    assert BlocksModule().results_lines(asked, asked.players["carol"]) == []
