"""Technopoly's mechanics (admin/games/technopoly): no board and no money; objects with attributes,
robots, inventions with a response window, fuel, rights, trading, rounds and the end roll."""

from admin.mechanics.technopoly.trading import TechnoTradingModule
from admin.mechanics.technopoly.world import TechnoModule

MODULES = [TechnoModule, TechnoTradingModule]
