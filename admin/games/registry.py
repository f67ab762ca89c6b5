"""The library of mechanics: every module any bundled game draws from.

A game (``admin/games/<name>/``) lists the modules it enables, in order, with their parameters.
Adding a mechanic is adding its module here (and to ``LIBRARY``); nothing in the core changes."""

from __future__ import annotations

from typing import Any

from admin.engine.module import Mechanic
from admin.engine.registry import Registry
from admin.nomic.written import WrittenRulesModule
from admin.library.board import BoardModule
from admin.library.cards import CardsModule
from admin.games.nomopoly2.mechanics.endgame import EndgameModule
from admin.library.free_parking import FreeParkingModule
from admin.library.health import HealthModule
from admin.library.interactions import InteractionsModule
from admin.library.money import MoneyModule
from admin.games.nomopoly1.mechanics import MODULES as NOMOPOLY1
from admin.games.nomopoly2.mechanics import MODULES as NOMOPOLY2
from admin.games.nomoteams.mechanics import MODULES as NOMOTEAMS
from admin.library.ownership import OwnershipModule
from admin.library.players import PlayersModule
from admin.nomic.proposals import ProposalsModule
from admin.games.nomopoly2.mechanics.railroads import RailroadsModule
from admin.library.schedule import ScheduleModule
from admin.library.talk import TalkModule
from admin.games.technopoly.mechanics import MODULES as TECHNOPOLY
from admin.games.timopoly.mechanics import MODULES as TIMOPOLY
from admin.library.turns import TurnsModule

#: Library order is the order of the commands in a "Valid commands" list.
LIBRARY: list[type[Mechanic[Any, Any]]] = [
    OwnershipModule, CardsModule, ProposalsModule, ScheduleModule, BoardModule, MoneyModule,
    TurnsModule, HealthModule, PlayersModule, EndgameModule, RailroadsModule, InteractionsModule,
    FreeParkingModule, *TIMOPOLY, *NOMOPOLY1, *NOMOPOLY2, *NOMOTEAMS, *TECHNOPOLY, WrittenRulesModule,
    TalkModule,
]

REGISTRY = Registry(LIBRARY)
