"""Technopoly's mechanics (admin/games/technopoly): no board and no money; objects with attributes,
robots, inventions with a response window, fuel, rights, trading, rounds and the end roll."""

from admin.games.technopoly.mechanics.trading import TechnoTradingModule
from admin.games.technopoly.mechanics.world import TechnoModule

MODULES = [TechnoModule, TechnoTradingModule]
