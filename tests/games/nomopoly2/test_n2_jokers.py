"""Nomopoly II's Joker (XIX.3, XXXIII.5): given by other sections with give_joker, secret to its
holder, declared once as any card, which it then is for everything that reads a hand."""

from fixtures.games import mail, new_state, play, refusals

from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.events import Ruling
from admin.engine.schedule import Slot
from admin.games.registry import REGISTRY
from admin.library.cards import hand, set_hand
from admin.games.nomopoly2.mechanics.jokers import JokersModule, give_joker, jokers_of

PLAYERS = ("alice", "bob", "carol")


def _game():
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "jokers"}, "test")]).state
    state.paused = True
    return state


def test_give_joker_tells_only_its_receiver_which_card_it_is():
    state = _game()
    ctx = UpdateContext(state=state, dice=Dice(seed=b"s", digest="d", update=2), slot=Slot("Thursday", 0),
                        registry=REGISTRY)
    give_joker(ctx, "bob", "XIX.3")
    give_joker(ctx, "bob", "XXXIII.5")
    assert jokers_of(state, "bob") == 2 and jokers_of(state, "alice") == 0
    assert [(e.text, e.rule) for e in ctx.events] == [("bob received a Joker.", "XIX.3"),
                                                     ("bob received a Joker.", "XXXIII.5")]
    assert REGISTRY.get("jokers").results_lines(state, state.players["bob"]) == [
        (51, "  Undeclared Jokers (only you see them): 2; DECLARE JOKER AS <card> to use one")]


def test_a_declared_joker_joins_the_hand_as_that_card_for_good():
    state = _game()
    JokersModule.private_of(state).held["alice"] = 1
    set_hand(state, "alice", ["2C"])
    result = play(state, [mail("alice", "DECLARE JOKER AS QH\nDECLARE JOKER AS KS")])
    assert hand(result.state, "alice") == ["2C", "QH"] and jokers_of(result.state, "alice") == 0
    assert result.state.mods["cards"].held["alice"] == 2
    assert JokersModule.private_of(result.state).declared == [["alice", "QH", 2]]
    assert refusals(result.events) == [
        'alice: "DECLARE JOKER AS KS" was not done: you hold no undeclared Joker; a Joker comes from the Skunk '
        "on the House of Cards (XIX.3) or a Casino (XXXIII.5)"]
    # the success is told to alice alone
    assert [e.private for e in result.events if e.kind == "action" and e.ok] == [
        "You declared a Joker to be the queen of hearts (QH); it is that card now, for good (XIX.3)."]
