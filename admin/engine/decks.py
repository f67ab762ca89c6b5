"""Named decks of any kind of card, drawn with dice anyone can verify.

A :class:`DeckSpec` is game data (the game's package): its cards (ids such as ``QH``, or named
text cards such as Timopoly's "Stuff Happens" with an effect as data, or Technopoly's attribute
cards) and how it is drawn:

- ``random``: each draw is any card of the deck, at random, with replacement (Nomopoly II's
  cards: "a random playing card");
- ``pile``: a shuffled pile drawn from the top; a used card goes to the discard pile (or is kept
  by its player), and an empty pile is made again by shuffling the discards.

The state of a pile (:class:`DeckState`) belongs to the mechanic that uses the deck, in its own
state. A hidden deck (the cards players hold face down) is shuffled and drawn with the update's
hidden seed, so the revealed seed does not give the cards away."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from admin.engine.dice import Dice
from admin.engine.errors import IllegalAction, RuleError

Policy = Literal["random", "pile"]


@dataclass(frozen=True)
class DeckSpec:
    name: str
    cards: tuple[str, ...]
    policy: Policy = "random"
    #: drawn with the hidden seed (the card is told only to its player)
    hidden: bool = False
    #: card id -> what the card says or does (text, an effect as data, attributes ...)
    data: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.cards:
            raise RuleError(f"the deck {self.name!r} has no cards")
        if self.policy not in ("random", "pile"):
            raise RuleError(f"the deck {self.name!r}: policy {self.policy!r} is not random or pile")
        unknown = set(self.data) - set(self.cards)
        if unknown:
            raise RuleError(f"the deck {self.name!r} describes cards it does not hold: {sorted(unknown)}")

    def card(self, card: str) -> dict[str, Any]:
        return self.data.get(card, {})


@dataclass
class DeckState:
    """A pile's order (the top card first) and its discards."""

    pile: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)


def _roll(dice: Dice, spec: DeckSpec, label: str, sides: int) -> int:
    return (dice.roll_hidden if spec.hidden else dice.roll)(label, sides)


def shuffle(spec: DeckSpec, state: DeckState, dice: Dice, label: str, *, whole_deck: bool = True) -> None:
    """A new pile: the discards if there are any, else every card of the deck (unless
    ``whole_deck`` is False: some of its cards are held, so the pile stays empty), in an order
    every swap of which is a recorded roll (Fisher–Yates)."""
    cards = list(state.discard) if state.discard else list(spec.cards) if whole_deck else []
    for i in range(len(cards) - 1, 0, -1):
        j = _roll(dice, spec, f"deck/{spec.name}/{label}/{i}", i + 1) - 1
        cards[i], cards[j] = cards[j], cards[i]
    state.pile, state.discard = cards, []
    if spec.hidden:
        dice.note_shuffle(spec.name)


def take_top(spec: DeckSpec, state: DeckState, dice: Dice, player: str | None = None, public: bool = False) -> str:
    """The top card of a pile, noted for the public record (a face-down pile's draws are checked
    against the order it committed to: docs/fairness.md)."""
    card = state.pile.pop(0)
    if spec.hidden:
        dice.note_draw(spec.name, card, player, public)
    return card


def draw(spec: DeckSpec, dice: Dice, label: str, state: DeckState | None = None,
         player: str | None = None, *, whole_deck: bool = True) -> str:
    """One card: at random (``random``), or the top of the pile. An empty pile is made again by
    shuffling the discards; from the whole deck only if ``whole_deck`` (no card of it is held or
    played yet: the first draw), so a card in someone's hand is never drawn a second time."""
    if spec.policy == "random":
        return spec.cards[_roll(dice, spec, f"deck/{spec.name}/{label}", len(spec.cards)) - 1]
    if state is None:
        raise RuleError(f"the deck {spec.name!r} is a pile: its state must be given")
    if not state.pile:
        shuffle(spec, state, dice, f"{label}/shuffle", whole_deck=whole_deck)
    if not state.pile:
        raise IllegalAction(f"the {spec.name} deck and its discard pile are empty: every card is held")
    return take_top(spec, state, dice, player)


def discard(state: DeckState, card: str) -> None:
    """A card used (played) goes on the discard pile, to be shuffled into the next pile."""
    state.discard.append(card)


def give(hands: dict[str, list[str]], holder: str, card: str) -> None:
    hands.setdefault(holder, []).append(card)


def take(hands: dict[str, list[str]], holder: str, card: str, *, what: str = "card") -> None:
    """Take ``card`` from ``holder``'s hand; an error quotes it and lists what they hold."""
    held = hands.get(holder, [])
    if card not in held:
        raise IllegalAction(f"you do not hold the {what} {card!r}; you hold "
                            f"{', '.join(held) or f'no {what}s'}")
    held.remove(card)
