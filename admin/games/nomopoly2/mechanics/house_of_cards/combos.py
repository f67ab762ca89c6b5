"""Nomopoly II XXIV.2: which combinations of playing cards buy which item at the House of Cards.

Pure functions of the cards a player names (``7S``, ``10H``, ``AS``): the House of Cards module
checks the player holds them and is on the square. A card drawn for doubles comes from a full deck
each time (XIV.1: a card is not unique), so a hand may hold the same card twice: that is the
"same rank and suit" of a Pokeball (and a declared Joker may make one too). Where one set of cards
fits several items (a straight flush is also a straight and a flush; identical cards are also a
pair and two of a suit), the player says which item they want."""

from __future__ import annotations

from collections import Counter

from admin.engine.playingcards import RANKS

#: item -> (what it costs, in words; the rule's bullet)
ITEMS: dict[str, str] = {
    "jetpack": "any one spade",
    "card remover": "two cards of the same suit",
    "medicine": "a pair (two cards of the same rank)",
    "bingo card": "a pair (two cards of the same rank)",
    "pokeball": "two cards of the same rank and suit",
    "time bomb": "two pairs (two cards of one rank and two of another)",
    "warp bubble": "three of a kind (three cards of the same rank)",
    "hammer": "a straight (five cards with ranks in sequence, ace low or high)",
    "glue": "a flush (five cards of the same suit)",
    "anthrax": "a full house (three of one rank and two of another)",
    "mask": "a straight flush (five cards in sequence, all of one suit)",
    "shovel": "$50",
}

#: what a player may write for an item -> the item
ALIASES: dict[str, str] = {**{k: k for k in ITEMS}, "jet pack": "jetpack", "card-remover": "card remover",
                           "remover": "card remover", "bingo": "bingo card", "bingocard": "bingo card",
                           "poke ball": "pokeball", "timebomb": "time bomb", "bomb": "time bomb",
                           "warp": "warp bubble", "warp-bubble": "warp bubble", "warpbubble": "warp bubble",
                           "medicines": "medicine"}


def _rank(card: str) -> str:
    return card[:-1]


def _suit(card: str) -> str:
    return card[-1]


def is_straight(cards: list[str]) -> bool:
    """Five cards of five ranks in sequence; an ace is low (A-2-3-4-5) or high (10-J-Q-K-A), never
    both at once (no Q-K-A-2-3)."""
    if len(cards) != 5:
        return False
    ranks = {_rank(c) for c in cards}
    if len(ranks) != 5:
        return False
    order = sorted(RANKS.index(r) for r in ranks)  # ace 0 (low)
    if order == list(range(order[0], order[0] + 5)):
        return True
    high = sorted(13 if i == 0 else i for i in order)  # ace 13 (high)
    return high == list(range(high[0], high[0] + 5))


def fits(item: str, cards: list[str]) -> bool:
    """Whether exactly these cards are the combination ``item`` costs (XXIV.2)."""
    ranks = sorted(Counter(_rank(c) for c in cards).values())
    suits = {_suit(c) for c in cards}
    n = len(cards)
    if item == "jetpack":
        return n == 1 and _suit(cards[0]) == "S"
    if item == "card remover":
        return n == 2 and len(suits) == 1
    if item in ("medicine", "bingo card"):
        return n == 2 and ranks == [2]
    if item == "pokeball":
        return n == 2 and cards[0] == cards[1]
    if item == "time bomb":
        return n == 4 and ranks == [2, 2]
    if item == "warp bubble":
        return n == 3 and ranks == [3]
    if item == "hammer":
        return is_straight(cards)
    if item == "glue":
        return n == 5 and len(suits) == 1
    if item == "anthrax":
        return n == 5 and ranks == [2, 3]
    if item == "mask":
        return n == 5 and len(suits) == 1 and is_straight(cards)
    if item == "shovel":
        return n == 0
    raise KeyError(item)


def buys(cards: list[str]) -> list[str]:
    """Every item these exact cards would buy, in the rule's order."""
    return [item for item in ITEMS if item != "shovel" and fits(item, cards)]
