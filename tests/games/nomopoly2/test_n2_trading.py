"""Nomopoly II XX, Trading: the first Nomopoly's trading module with Nomopoly II's parameters:
squares, cards, money and items (no proposals, XX.1); a square traded away may not be changed in
the update of the trade (XX.2); a terrorist trades only with terrorists (XXIII.2)."""

from fixtures.games import mail, new_state, play, texts

from admin.engine.events import Ruling
from admin.engine import hooks
from admin.library.cards import hand, set_hand
from admin.games.nomopoly2.mechanics.conditions import grant_weeks
from admin.games.nomopoly2.mechanics.casinos.mechanic import CasinosModule
from admin.games.nomopoly2.mechanics.house_of_cards.mechanic import HouseOfCardsModule
from admin.games.registry import REGISTRY
from admin.library.ownership import owner_of, set_owner

PLAYERS = ("alice", "bob", "carol")


def _game(*more):
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": m}, "test")
                                              for m in ("trading", *more)]).state
    state.paused = True
    return state


def test_proposals_are_not_tradable_in_nomopoly_ii_and_cards_one_does_not_hold_cannot_be_offered():
    state = _game()
    set_hand(state, "alice", ["7H"])
    result = play(state, [mail("alice", "TRADE WITH bob: GIVE $10 FOR proposal 1\nTRADE WITH bob: GIVE 8H FOR $10")])
    assert texts(result.events, "action") == [
        'alice: "TRADE WITH bob: GIVE $10 FOR proposal 1" was not done: proposals may not be traded in this game '
        "(XX.1: squares, cards, money, items)",
        'alice: "TRADE WITH bob: GIVE 8H FOR $10" was not done: alice does not hold 8H']


def test_a_terrorist_trades_only_with_terrorists():
    state = _game("conditions", "terrorism")  # a terrorist only while XXIII is in force
    set_owner(state, 14, "alice")
    grant_weeks(state, "carol", "terrorist", 5)
    result = play(state, [mail("alice", "TRADE WITH carol: GIVE square 14 FOR $100"),
                          mail("carol", "TRADE WITH alice: GIVE $100 FOR square 14")])
    assert sorted(texts(result.events, "action")) == [
        'alice: "TRADE WITH carol: GIVE square 14 FOR $100" was not done: carol is a terrorist and alice is not; '
        "a terrorist trades only with terrorists (XXIII.2)",
        'carol: "TRADE WITH alice: GIVE $100 FOR square 14" was not done: carol is a terrorist and alice is not; '
        "a terrorist trades only with terrorists (XXIII.2)"]
    grant_weeks(state, "alice", "terrorist", 5)
    offered = play(state, [mail("alice", "TRADE WITH carol: GIVE square 14 FOR $100")])
    done = play(offered.state, [mail("carol", "ACCEPT 1")])
    assert owner_of(done.state, 14) == "carol" and done.state.players["alice"].money == 10100


def test_a_trade_falls_through_if_a_party_became_a_terrorist_before_it_was_carried_out():
    state = _game("conditions", "terrorism")
    set_hand(state, "bob", ["KS"])
    offered = play(state, [mail("alice", "TRADE WITH bob: GIVE $50 FOR KS")])
    grant_weeks(offered.state, "bob", "terrorist", 5)
    done = play(offered.state, [mail("bob", "ACCEPT 1")])
    assert hand(done.state, "bob") == ["KS"] and done.state.players["alice"].money == 10000
    assert "#1 (offer) closed: the trade fell through: bob is a terrorist and alice is not; a terrorist trades " \
           "only with terrorists (XXIII.2)" in texts(done.events)


def test_items_are_found_in_the_inventory_of_the_section_that_keeps_them():
    state = _game("conditions", "house-of-cards", "jokers", "casinos")
    HouseOfCardsModule.of(state).items.give("alice", "jetpack")
    CasinosModule.of(state).items.give("bob", "flower", 2)
    answers = hooks.call(state, REGISTRY)  # the trade_inventory hook: the first section holding it
    assert answers.trade_inventory(state, "alice", "jetpack") is HouseOfCardsModule.of(state).items
    assert answers.trade_inventory(state, "bob", "flower") is CasinosModule.of(state).items
    assert answers.trade_inventory(state, "bob", "jetpack") is None
    offered = play(state, [mail("alice", "TRADE WITH bob: GIVE jetpack FOR 2 flowers, $40")])
    done = play(offered.state, [mail("bob", "ACCEPT 1")])
    assert HouseOfCardsModule.of(done.state).items.count("bob", "jetpack") == 1
    assert HouseOfCardsModule.of(done.state).items.count("alice", "jetpack") == 0
    assert CasinosModule.of(done.state).items.count("alice", "flower") == 2
    assert done.state.players["alice"].money == 10040 and done.state.players["bob"].money == 9960


def test_a_square_left_alone_in_the_update_of_its_trade_changes_hands():
    state = _game()
    set_owner(state, 14, "alice")
    set_owner(state, 15, "alice")
    set_hand(state, "alice", ["7H"])
    offered = play(state, [mail("alice", "TRADE WITH bob: GIVE square 14 FOR $100")])
    done = play(offered.state, [mail("alice", "PLACE 7H ON 15"), mail("bob", "ACCEPT 1")])  # 15 is not traded
    assert owner_of(done.state, 14) == "bob" and done.state.players["alice"].money == 10100


def test_the_first_nomopoly_keeps_its_own_trades_proposals_and_no_frozen_squares():
    from admin.games.catalog import spec

    (trading,) = [m for m in spec("nomopoly1").modules if m.name == "trading"]
    assert trading.params == {"tradable": "squares, money, items, proposals", "square_freeze": False}


def test_a_bare_number_in_a_trade_is_refused_saying_how_to_write_a_square_or_money():
    from admin.mail.inbound.grammar import library_grammar, parse_text

    [verdict] = parse_text("TRADE WITH bob: GIVE 12 FOR $450", library_grammar())
    assert verdict.error == ('"TRADE WITH bob: GIVE 12 FOR $450": "12" alone is not clear: write SQUARE 12 for '
                             "a square, $12 for money, or the item's name after the number (2 jetpack)")
