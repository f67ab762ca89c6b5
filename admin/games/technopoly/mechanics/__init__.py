"""Technopoly's mechanics (admin/games/technopoly): no board and no money; objects with attributes,
robots, inventions with a response window, fuel, rights, trading, rounds and the end roll."""

from typing import Any

from admin.engine.module import Mechanic
from admin.games.technopoly.mechanics.trading import TechnoTradingModule
from admin.games.technopoly.mechanics.world import TechnoModule

MODULES: list[type[Mechanic[Any, Any]]] = [TechnoModule, TechnoTradingModule]
