"""Timopoly's mechanics (admin/games/timopoly): the board and turns, deeds and rants, building and
mortgages, and the two decks."""

from typing import Any

from admin.engine.module import Mechanic
from admin.games.timopoly.mechanics.board import TimoBoardModule
from admin.games.timopoly.mechanics.building import TimoBuildingModule
from admin.games.timopoly.mechanics.cards import TimoCardsModule
from admin.games.timopoly.mechanics.deeds import TimoDeedsModule

MODULES: list[type[Mechanic[Any, Any]]] = [TimoBoardModule, TimoDeedsModule, TimoBuildingModule, TimoCardsModule]
