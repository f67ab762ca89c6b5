"""The library of mechanics: every module any bundled game draws from.

A game (``admin/games/<name>/``) lists the modules it enables, in order, with their parameters.
Adding a mechanic is adding its module here (and to ``LIBRARY``); nothing in the core changes."""

from __future__ import annotations

from typing import Any

from admin.engine.module import Mechanic
from admin.engine.registry import Later, Registry
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
from admin.library.ownership import OwnershipModule
from admin.library.players import PlayersModule
from admin.nomic.proposals import ProposalsModule
from admin.games.nomopoly2.mechanics.railroads import RailroadsModule
from admin.library.schedule import ScheduleModule
from admin.library.talk import TalkModule
from admin.library.turns import TurnsModule

#: games whose mechanics no other game uses: imported when a game first asks for one of them
#: (each is 1 to 3 MB and a tenth of a second that a Nomopoly II job would pay for nothing)
TIMOPOLY = Later("admin.games.timopoly.mechanics", ("timo-board", "timo-deeds", "timo-building", "timo-cards"))
NOMOTEAMS = Later("admin.games.nomoteams.mechanics", (
    "teams-pseudo", "teams", "teams-ownership", "teams-board", "teams-government", "teams-turns", "teams-colours",
    "teams-coatings", "teams-proposals", "teams-leaving", "teams-money", "teams-destruction", "teams-easy-movement",
    "teams-actions", "teams-wetha", "teams-disputes", "teams-doom", "teams-health", "teams-products", "teams-labor"))
TECHNOPOLY = Later("admin.games.technopoly.mechanics", ("techno", "techno-trading"))

#: Library order is the order of the commands in a "Valid commands" list.
LIBRARY: list[type[Mechanic[Any, Any]] | Later] = [
    OwnershipModule, CardsModule, ProposalsModule, ScheduleModule, BoardModule, MoneyModule,
    TurnsModule, HealthModule, PlayersModule, EndgameModule, RailroadsModule, InteractionsModule,
    FreeParkingModule, TIMOPOLY, *NOMOPOLY1, *NOMOPOLY2, NOMOTEAMS, TECHNOPOLY, WrittenRulesModule,
    TalkModule,
]

REGISTRY = Registry(LIBRARY)
