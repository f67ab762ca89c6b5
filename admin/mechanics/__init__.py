"""The library of mechanics: every module any bundled game draws from.

A game (``admin/games/<name>/``) lists the modules it enables, in order, with their parameters.
Adding a mechanic is adding its module here (and to ``LIBRARY``); nothing in the core changes."""

from __future__ import annotations

from admin.engine.module import Mechanic, Registry
from admin.mechanics.board import BoardModule
from admin.mechanics.cards import CardsModule
from admin.mechanics.endgame import EndgameModule
from admin.mechanics.health import HealthModule
from admin.mechanics.interactions import InteractionsModule
from admin.mechanics.money import MoneyModule
from admin.mechanics.nomopoly1 import MODULES as NOMOPOLY1
from admin.mechanics.nomopoly2 import MODULES as NOMOPOLY2
from admin.mechanics.nomoteams import MODULES as NOMOTEAMS
from admin.mechanics.ownership import OwnershipModule
from admin.mechanics.players import PlayersModule
from admin.mechanics.proposals import ProposalsModule
from admin.mechanics.railroads import RailroadsModule
from admin.mechanics.schedule import ScheduleModule
from admin.mechanics.technopoly import MODULES as TECHNOPOLY
from admin.mechanics.timopoly import MODULES as TIMOPOLY
from admin.mechanics.turns import TurnsModule

#: Library order is the order of the commands in a "Valid commands" list.
LIBRARY: list[type[Mechanic]] = [
    OwnershipModule, CardsModule, ProposalsModule, ScheduleModule, BoardModule, MoneyModule,
    TurnsModule, HealthModule, PlayersModule, EndgameModule, RailroadsModule, InteractionsModule,
    *TIMOPOLY, *NOMOPOLY1, *NOMOPOLY2, *NOMOTEAMS, *TECHNOPOLY,
]

REGISTRY = Registry(LIBRARY)
