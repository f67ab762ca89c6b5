"""Typed links to the library's mechanics (:mod:`admin.engine.links`): what the other mechanics,
the site and the jobs may ask of them, and the notes the library keeps for one update."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from admin.engine.links import Link, Note

if TYPE_CHECKING:
    from admin.library.board import BoardState
    from admin.library.cards import CardsPrivate, CardsState
    from admin.library.free_parking import FreeParkingState
    from admin.library.health import HealthState
    from admin.engine.interactions import InteractionsState, SealedAnswers
    from admin.library.ownership import OwnershipState
    from admin.library.players import PlayersState
    from admin.library.talk import TalkPrivate, TalkState
    from admin.library.trading import TradingState
    from admin.library.turns import TurnsState

BOARD: Link[BoardState] = Link("board")
CARDS: Link[CardsState] = Link("cards")
CARDS_PRIVATE: Link[CardsPrivate] = Link("cards", private=True)
FREE_PARKING: Link[FreeParkingState] = Link("free-parking")
HEALTH: Link[HealthState] = Link("health")
INTERACTIONS: Link[InteractionsState] = Link("interactions")
SEALED_ANSWERS: Link[SealedAnswers] = Link("interactions", private=True)
MONEY: Link[None] = Link("money")
OWNERSHIP: Link[OwnershipState] = Link("ownership")
PLAYERS: Link[PlayersState] = Link("players")
SCHEDULE: Link[None] = Link("schedule")
TALK: Link[TalkState] = Link("talk")
TALK_PRIVATE: Link[TalkPrivate] = Link("talk", private=True)
TRADING: Link[TradingState] = Link("trading")
TURNS: Link[TurnsState] = Link("turns")

#: the players who had the pass bonus in this update (VI.11 with pass_bonus_once)
PASS_BONUS: Note[set[str]] = Note("pass-bonus", set)
#: how many turns each player has taken in this update (a second move numbers its dice on)
TURNS_TAKEN: Note[dict[str, int]] = Note("turns-taken", dict)
#: (player, square) pairs changed in this update (XX.2: a square traded away may not change)
TRADED_CHANGED: Note[set[tuple[str, int]]] = Note("trading/changed", set)
#: the squares each party to a trade closing in this update gives away, as they stood (XX.2)
TRADED_SQUARES: Note[dict[tuple[str, int], Any]] = Note("trading/squares", dict)
