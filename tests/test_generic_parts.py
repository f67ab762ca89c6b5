"""The generic parts games are built from: named decks, items and inventories, teams, and turn
structures (a fixed order passing left; rounds that end on a die)."""

import pytest

from admin.engine.playingcards import DECK
from admin.engine.decks import DeckSpec, DeckState, draw, give, shuffle, take
from admin.engine.dice import Dice
from admin.engine.inventory import Inventory, Teams
from admin.engine.turnorder import FixedOrder, random_order, round_ends
from admin.engine.errors import IllegalAction, RuleError

STUFF = DeckSpec("stuff-happens", ("go-back-3", "pay-50", "jail"), policy="pile",
                 data={"go-back-3": {"move": -3}, "pay-50": {"pay": 50}, "jail": {"goto": "jail"}})


def _dice(seed=b"deck"):
    return Dice(seed=seed, digest="d", update=1, hidden_seed=b"hidden")


def test_a_pile_is_drawn_from_the_top_and_made_again_from_the_discards_when_empty():
    state, dice = DeckState(), _dice()
    first = [draw(STUFF, dice, f"d{i}", state) for i in range(3)]
    assert sorted(first) == sorted(STUFF.cards) and state.pile == []  # each card once
    assert [r.label for r in dice.rolls] == ["u1/deck/stuff-happens/d0/shuffle/2", "u1/deck/stuff-happens/d0/shuffle/1"]
    for card in first:
        state.discard.append(card)
    again = draw(STUFF, dice, "d3", state)
    assert again in STUFF.cards and len(state.pile) == 2 and state.discard == []
    assert STUFF.card("pay-50") == {"pay": 50}


def test_a_pile_whose_cards_are_held_is_made_from_the_discards_only_never_the_whole_deck_again():
    state, dice = DeckState(), _dice()
    held = [draw(STUFF, dice, f"d{i}", state) for i in range(3)]  # every card now in someone's hand
    state.discard.append(held[1])  # one of them is played
    assert draw(STUFF, dice, "d3", state, whole_deck=False) == held[1]  # the only discard, not a duplicate
    assert dice.rolls[-1].label.startswith("u1/deck/stuff-happens/d0")  # a one-card shuffle rolls nothing
    with pytest.raises(IllegalAction, match="deck and its discard pile are empty: every card is held"):
        draw(STUFF, dice, "d4", state, whole_deck=False)
    assert state.pile == [] and state.discard == []


def test_a_hidden_deck_is_drawn_with_the_hidden_seed_and_a_random_deck_with_replacement():
    cards = DeckSpec("cards", DECK, policy="random", hidden=True)
    dice = _dice()
    drawn = [draw(cards, dice, f"c{i}") for i in range(5)]
    assert all(c in DECK for c in drawn) and dice.rolls == [] and len(dice.hidden_rolls) == 5


def test_a_pile_is_the_same_for_the_same_seed_and_a_deck_must_describe_only_its_cards():
    a, b = DeckState(), DeckState()
    shuffle(STUFF, a, _dice(b"s"), "x")
    shuffle(STUFF, b, _dice(b"s"), "x")
    assert a.pile == b.pile
    with pytest.raises(RuleError, match="describes cards it does not hold"):
        DeckSpec("bad", ("a",), data={"b": {}})


def test_hands_give_and_take_with_an_error_that_lists_the_hand():
    hands: dict[str, list[str]] = {}
    give(hands, "alice", "fuel")
    take(hands, "alice", "fuel", what="attribute card")
    with pytest.raises(IllegalAction, match="you do not hold the attribute card 'fuel'; you hold no attribute cards"):
        take(hands, "alice", "fuel", what="attribute card")


def test_inventories_count_items_and_refuse_what_is_not_held():
    inv = Inventory()
    inv.give("alice", "donut", 3)
    inv.transfer("alice", "bob", "donut", 2)
    assert (inv.count("alice", "donut"), inv.items("bob")) == (1, {"donut": 2})
    with pytest.raises(IllegalAction, match="alice has 1 donut\\(s\\), not 2; alice holds donut x1"):
        inv.take("alice", "donut", 2)
    inv.take("alice", "donut")
    assert inv.held == {"bob": {"donut": 2}}


def test_a_player_is_in_one_team_at_most():
    teams = Teams()
    teams.join("red", "alice")
    teams.join("red", "bob")
    with pytest.raises(IllegalAction, match="alice is in team red; leave it first"):
        teams.join("blue", "alice")
    assert teams.mates("alice") == ["bob"]
    assert teams.leave("bob") == "red" and teams.members == {"red": ["alice"]}


def test_a_fixed_order_passes_to_the_left_and_skips_players_who_are_gone():
    order = FixedOrder()
    for name in ("alice", "bob", "carol"):
        order.seat(name)
    assert order.take({"alice", "bob", "carol"}) == ["alice"]
    assert order.take({"alice", "carol"}, turns=2) == ["carol", "alice"]  # bob is gone
    assert order.rounds == 1 and order.take(set()) == []


def test_every_player_once_in_a_random_order_is_a_recorded_shuffle():
    dice = _dice()
    order = random_order(dice, ["carol", "alice", "bob"])
    assert sorted(order) == ["alice", "bob", "carol"] and len(dice.rolls) == 2


def test_rounds_end_on_a_d20_at_or_under_the_round_number_after_the_tenth():
    dice = _dice()
    assert round_ends(dice, 10) == (False, None) and dice.rolls == []
    ends, roll = round_ends(dice, 11)
    assert roll is not None and ends == (roll <= 11)
    assert round_ends(_dice(), 11, modifier=-10)[0] == (round_ends(_dice(), 11)[1] - 10 <= 11)
