"""Typed links to Timopoly's mechanics (:mod:`admin.engine.links`): the deeds, the board's own
state and the face-down decks, for the other sections to ask without importing them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.links import Link

if TYPE_CHECKING:
    from admin.games.timopoly.mechanics.cards import TimoCardsPrivate
    from admin.games.timopoly.mechanics.holdings import TimoBoardState, TimoDeedsState

#: who holds each deed, its Noms, rockets and mortgage
TIMO_DEEDS: Link[TimoDeedsState] = Link("timo-deeds")
#: who is in Social Media Jail, last throws, standing orders for jail
TIMO_BOARD: Link[TimoBoardState] = Link("timo-board")
#: the decks' face-down piles (private)
TIMO_CARDS_PRIVATE: Link[TimoCardsPrivate] = Link("timo-cards", private=True)
