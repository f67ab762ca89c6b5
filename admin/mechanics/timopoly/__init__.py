"""Timopoly's mechanics (admin/games/timopoly): the board and turns, deeds and rants, building and
mortgages, and the two decks."""

from admin.mechanics.timopoly.board import TimoBoardModule
from admin.mechanics.timopoly.building import TimoBuildingModule
from admin.mechanics.timopoly.cards import TimoCardsModule
from admin.mechanics.timopoly.deeds import TimoDeedsModule

MODULES = [TimoBoardModule, TimoDeedsModule, TimoBuildingModule, TimoCardsModule]
