"""Nomopoly II XXIV.2: the House of Cards' state: who carries which items, glue, jetpacks, warp
bubbles and masks in force (public), and where the time bombs are (private)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine.inventory import Inventory

if TYPE_CHECKING:
    from admin.engine.model import GameState

NAME = "house-of-cards"


@dataclass
class HouseOfCardsState:
    #: every player's items from the House of Cards (public, like anything one carries)
    items: Inventory = field(default_factory=Inventory)
    #: squares with glue on them (public: it is on the board for all to see)
    glued: list[int] = field(default_factory=list)
    #: players whose next turn rolls an extra die (a jetpack used)
    jetpacks: list[str] = field(default_factory=list)
    #: player -> the last update they used a warp bubble in (one an update)
    warped: dict[str, int] = field(default_factory=dict)
    #: wearer -> the player they impersonate, for this update only (a mask)
    masks: dict[str, str] = field(default_factory=dict)


@dataclass
class HouseOfCardsPrivate:
    #: square -> who planted the time bomb on it (never on the site; the planter is told)
    bombs: dict[int, str] = field(default_factory=dict)


def hs(state: GameState) -> HouseOfCardsState:
    public: HouseOfCardsState = state.mods[NAME]
    return public


def hp(state: GameState) -> HouseOfCardsPrivate:
    secret: HouseOfCardsPrivate = state.private.mods[NAME]
    return secret
