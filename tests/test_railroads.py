"""Nomopoly II XVII, railroads: switched on by a proposal (with its section of rules), built on
one's own squares, ridden along a chain of railroads for tolls, landing nowhere.

On the 10-wide snake, square 5 is east-adjacent to 6, and 15 lies directly north of 6 (VI.5), so
railroads on 5, 6 and 15 form one chain 5-6-15; square 9 is not joined to it."""

from fixtures.games import mail, new_state, play, texts

from admin.engine.events import Ruling
from admin.library.ownership import owner_of, set_owner
from admin.games.nomopoly2.mechanics.railroads import RailroadsModule

PLAYERS = ("alice", "bob", "carol")


def _railroads(owners: dict[int, str], rails=(5, 6, 15)):
    """A game with railroads on, squares owned as given, railroads built, and no turns taken
    (paused: money and squares change only by the actions under test)."""
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "railroads"}, "test")]).state
    for number, name in owners.items():
        set_owner(state, number, name)
    RailroadsModule.of(state).squares = sorted(rails)
    state.paused = True
    for p in state.players.values():
        p.money = 10000
    return state


def test_a_proposal_enabling_railroads_adds_section_xvii_and_its_commands():
    state = new_state(PLAYERS)
    made = play(state, [mail("alice", "PROPOSE Railroads\nENABLE railroads\nEND")])
    sunday = play(made.state, [mail(n, "VOTE 1 YES") for n in PLAYERS])
    after = sunday.state
    assert after.enabled("railroads")
    assert [r.id for r in after.rules.section("XVII").rules] == ["XVII.1", "XVII.2", "XVII.3", "XVII.4"]
    assert after.rule_history["XVII.1"][0].action == "created"
    assert after.rule_history["XVII.1"][0].proposal == 1
    assert "The railroads module was switched on by proposal 1." in texts(sunday.events)


def test_building_costs_25_on_a_square_one_owns_and_nowhere_else():
    state = _railroads({14: "alice"}, rails=())
    result = play(state, [mail("alice", "BUILD RAILROAD ON 14\nBUILD RAILROAD ON 15")])
    assert RailroadsModule.of(result.state).squares == [14]
    assert result.state.players["alice"].money == 10000 - 25
    assert texts(result.events, "action") == [
        "alice built a railroad on square 14 for $25.",
        'alice: "BUILD RAILROAD ON 15" was not done: you may build a railroad only on a square you '
        "own (XVII.1, XVII.4); square 15 is owned by nobody"]


def test_a_ride_pays_five_dollars_to_the_owner_of_each_square_after_the_start_and_lands_nowhere():
    state = _railroads({5: "alice", 6: "bob", 15: "carol"})
    state.players["alice"].square = 5
    result = play(state, [mail("alice", "RIDE RAILROAD TO 15")])
    alice = result.state.players["alice"]
    assert alice.square == 15
    assert (alice.money, result.state.players["bob"].money, result.state.players["carol"].money) == (9990, 10005, 10005)
    assert texts(result.events, "action") == [
        "alice rode the railroad from square 5 to square 15 via 6, paying $10 in tolls."]
    assert not [e for e in result.events if e.kind in ("rent", "land")]  # landing on none (XVII.2)


def test_a_ride_to_a_square_not_joined_by_railroads_is_refused_and_costs_nothing():
    state = _railroads({5: "alice", 6: "bob", 9: "carol"}, rails=(5, 6, 9))
    state.players["alice"].square = 5
    result = play(state, [mail("alice", "RIDE RAILROAD TO 9")])
    assert result.state.players["alice"].square == 5 and result.state.players["alice"].money == 10000
    assert texts(result.events, "action") == [
        'alice: "RIDE RAILROAD TO 9" was not done: square 9 is not joined to square 5 by railroads '
        "(north, south, east or west steps over railroad squares, XVII.2)"]


def test_an_owner_removes_their_railroad_and_the_square_keeps_its_owner():
    state = _railroads({6: "bob"})
    result = play(state, [mail("bob", "REMOVE RAILROAD FROM 6"), mail("carol", "REMOVE RAILROAD FROM 5")])
    assert RailroadsModule.of(result.state).squares == [5, 15]
    assert owner_of(result.state, 6) == "bob"
    assert 'carol: "REMOVE RAILROAD FROM 5" was not done: you may remove a railroad only on a square ' \
           "you own (XVII.1, XVII.4); square 5 is owned by nobody" in texts(result.events, "action")
