"""Every rule module the tool knows; a game enables some of them, in its own order."""

from admin.engine.rules.base import Registry
from admin.engine.rules.board import BoardModule
from admin.engine.rules.cards import CardsModule
from admin.engine.rules.endgame import EndgameModule
from admin.engine.rules.health import HealthModule
from admin.engine.rules.money import MoneyModule
from admin.engine.rules.ownership import OwnershipModule
from admin.engine.rules.players import PlayersModule
from admin.engine.rules.schedule import ScheduleModule
from admin.engine.rules.turns import TurnsModule
from admin.nomic.proposals import ProposalsModule

REGISTRY = Registry([
    ScheduleModule, BoardModule, MoneyModule, TurnsModule, OwnershipModule, CardsModule,
    HealthModule, ProposalsModule, PlayersModule, EndgameModule,
])
