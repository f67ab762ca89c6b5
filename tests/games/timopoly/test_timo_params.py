"""Timopoly's board and decks as parameters (issue 30, what was left of it): a proposal or a game may
set another board or other cards, but only ones the game can be played with; anything else is
refused with the reason, before it can stop an update."""

from __future__ import annotations

from typing import Any

import pytest

from admin.engine.errors import RuleError
from admin.engine.params import check_param
from admin.games.registry import REGISTRY
from admin.games.catalog import initial_state
from admin.jobs.scenario import run

GO, FREE, JAIL = {"name": "HUGE-O", "kind": "go"}, {"kind": "free"}, {"name": "Jail", "kind": "jail"}
CARD = {"name": "Stuff Happens!", "kind": "card", "deck": "stuff"}
SMALL = [GO, FREE, FREE, CARD, JAIL, FREE, FREE, FREE]


def board(value: Any) -> Any:
    return check_param(REGISTRY.get("timo-board"), "timo-board", "spaces", value)


def decks(value: Any) -> Any:
    return check_param(REGISTRY.get("timo-cards"), "timo-cards", "decks", value)


@pytest.mark.parametrize("value, why", [
    ([], "a list of 4 to 400 spaces"),
    ([GO, FREE, JAIL], "a list of 4 to 400 spaces"),
    ([GO, FREE, JAIL, FREE, FREE], "a multiple of 4 spaces, not 5"),
    ([GO, FREE, JAIL, "free"], "space 4 is a mapping"),
    ([GO, FREE, JAIL, {"kind": "lava"}], "kind 'lava' is not one of"),
    ([GO, FREE, JAIL, {"kind": "free", "colour": "red"}], "space 4 has no 'colour'"),
    ([GO, FREE, JAIL, {"kind": "tax", "tax": "lots"}], "space 4's tax is a whole number"),
    ([GO, FREE, JAIL, {"kind": "tax", "tax": -5}], "space 4's tax is a whole number"),
    ([GO, FREE, JAIL, {"kind": "free", "name": ["x"]}], "space 4's name is text"),
    ([GO, FREE, JAIL, {"kind": "category", "price": 6, "rents": [1, 2, 3]}], "a category has 7 rants"),
    ([GO, FREE, JAIL, {"kind": "category", "price": 6, "rents": [1, 2, 3, 4, 5, 6, "x"]}], "each number is from 0"),
    ([GO, FREE, FREE, FREE], "one space of kind 'jail', not 0"),
    ([GO, GO, JAIL, FREE], "one space of kind 'go', not 2"),
    ({"spaces": 40}, "is a list"),
])
def test_a_board_the_game_cannot_be_played_on_is_refused(value, why):
    with pytest.raises(RuleError, match="timo-board.spaces") as refused:
        board(value)
    assert why in str(refused.value)


@pytest.mark.parametrize("value, why", [
    ([], "is a mapping"),
    ({"stuff": "cards"}, "the 'stuff' deck is a list of cards"),
    ({"stuff": [{"effect": {"collect": 5}}]}, "card 1 of the 'stuff' deck is a mapping with its text"),
    ({"stuff": [{"text": "Hi", "colour": "red"}]}, "has only a text and an effect, not 'colour'"),
    ({"stuff": [{"text": "Hi", "effect": "collect 5"}]}, "effect is a mapping"),
    ({"stuff": [{"text": "Hi", "effect": {"teleport": 5}}]}, "a card cannot 'teleport'"),
    ({"stuff": [{"text": "Hi", "effect": {"collect": "5"}}]}, "collect is a whole number from 0"),
    ({"stuff": [{"text": "Hi", "effect": {"pay": -5}}]}, "pay is a whole number from 0"),
    ({"stuff": [{"text": "Hi", "effect": {"goto": True}}]}, "goto is a whole number"),
    ({"stuff": [{"text": "Hi", "effect": {"jail": "yes"}}]}, "jail is true or false"),
    ({"stuff": [{"text": "Hi", "effect": {"nearest": "mars"}}]}, "nearest names a kind of space"),
])
def test_cards_the_game_cannot_carry_out_are_refused(value, why):
    with pytest.raises(RuleError, match="timo-cards.decks") as refused:
        decks(value)
    assert why in str(refused.value)


def test_a_move_back_may_be_below_zero_and_a_card_may_have_no_effect():
    value = {"stuff": [{"text": "Go back 3 spaces.", "effect": {"move": -3}}, {"text": "Nothing happens."}]}
    assert decks(value) == value


def test_a_ruling_may_not_change_how_many_spaces_the_board_has():
    """A shorter board left tokens and deeds on spaces that were gone, and the update stopped
    ("there is no space 23"). Such a ruling is now set aside with the reason; the update goes on."""
    outcome = run({
        "game": "timopoly", "players": {"alice": {"square": 20}, "bob": {}}, "state": {"timo-board": {"started": True}},
        "updates": [{"rulings": [{"kind": "set-param", "args": {"module": "timo-board", "key": "spaces", "value": SMALL}}],
                     "dice": [1, 2,     # alice: 20 + 3 = 23
                              2, 3]}],  # bob: 1 + 5 = 6
    }, "a shorter board")
    refused = [e.text or "" for e in outcome.events if e.kind == "ruling" and e.ok is False]
    assert any("the board keeps its 40 spaces" in t and "not how many (8)" in t for t in refused), refused
    assert outcome.state is not None and len(outcome.state.squares) == 40
    assert outcome.state.players["alice"].square == 23


def test_a_space_renamed_and_a_deck_changed_by_the_game_are_played_on():
    forty = initial_state("timopoly", "g").params("timo-board")["spaces"]
    renamed = [dict(s, name="Fan Blogger") if n == 2 else s for n, s in enumerate(forty, 1)]
    outcome = run({
        "game": "timopoly", "players": {"alice": {}, "bob": {}}, "state": {"timo-board": {"started": True}},
        "params": {"timo-board": {"spaces": renamed},
                   "timo-cards": {"decks": {"crowd": [{"text": "Collect Fn 5.", "effect": {"collect": 5}}]}}},
        "updates": [{"dice": [1, 1, 1, 2,   # alice: 1 + 2 = 3, Crowd Fund: Fn 5 (doubles: again), 3 + 3 = 6
                              2, 3]}],      # bob: 1 + 5 = 6
    }, "a renamed space")
    assert outcome.state is not None and outcome.state.square(2).name == "Fan Blogger"
    players = outcome.state.players
    assert (players["alice"].square, players["alice"].money) == (6, 155)
    assert (players["bob"].square, players["bob"].money) == (6, 150)
