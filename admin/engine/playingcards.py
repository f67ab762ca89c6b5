"""Playing cards: ``AS`` (ace of spades), ``10H``, ``KD``. A standard deck without jokers."""

from __future__ import annotations

import re

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
#: The 52 cards in a fixed order; a draw picks an index into this tuple.
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

_CARD = re.compile(r"^(A|K|Q|J|10|[2-9]|1)([SHDC])$", re.IGNORECASE)


def parse_card(text: str) -> str | None:
    """Return the canonical form of a card (``"10H"``), or None if ``text`` is not a card.

    Accepts ``as``, ``10h``, ``1S`` (ace), ``T`` is not accepted to keep the grammar small.
    """
    m = _CARD.match(text.strip())
    if not m:
        return None
    rank, suit = m.group(1).upper(), m.group(2).upper()
    if rank == "1":
        rank = "A"
    return rank + suit


def card_rank(card: str) -> str:
    return card[:-1]


def card_value(card: str, *, ace: int = 11, face: int = 10) -> int:
    """The value of a card for rent (Nomopoly II XIV.4): ace 11, face cards 10, else the number."""
    rank = card_rank(card)
    if rank == "A":
        return ace
    if rank in ("J", "Q", "K"):
        return face
    return int(rank)


def card_name(card: str) -> str:
    """``"QH"`` -> ``"queen of hearts"``."""
    rank = card_rank(card)
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[card[-1]]}"
