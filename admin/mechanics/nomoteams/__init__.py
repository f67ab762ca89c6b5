"""The Teams and Government variant's own mechanics (seed 002, ``nomoteams``): the four Teams and
the Freemasons, the pseudoplayers (The Government, The Corporation), the square-root board,
ownership at market value, proposals judged by the Admin, The Government's sealed-bid auctions.
What they share (names, rounding, values, owners) is in ``shared``."""

from admin.mechanics.nomoteams.actions import ActionsModule
from admin.mechanics.nomoteams.board import TeamsBoardModule
from admin.mechanics.nomoteams.coatings import CoatingsModule
from admin.mechanics.nomoteams.colours import ColoursModule
from admin.mechanics.nomoteams.destruction import DestructionModule
from admin.mechanics.nomoteams.easy_movement import EasyMovementModule
from admin.mechanics.nomoteams.disputes import DisputesModule
from admin.mechanics.nomoteams.doom import DoomModule
from admin.mechanics.nomoteams.government import GovernmentModule
from admin.mechanics.nomoteams.health import TeamsHealthModule
from admin.mechanics.nomoteams.labor import LaborModule
from admin.mechanics.nomoteams.leaving import LeavingModule
from admin.mechanics.nomoteams.money import TeamsMoneyModule
from admin.mechanics.nomoteams.ownership import TeamsOwnershipModule
from admin.mechanics.nomoteams.ownership_commands import COMMANDS as _OWNERSHIP_COMMANDS  # registers their types
from admin.mechanics.nomoteams.product_uses import COMMANDS as _PRODUCT_COMMANDS  # registers their types
from admin.mechanics.nomoteams.products import ProductsModule
from admin.mechanics.nomoteams.proposals import TeamsProposalsModule
from admin.mechanics.nomoteams.pseudo import PseudoModule
from admin.mechanics.nomoteams.teams import TeamsModule
from admin.mechanics.nomoteams.turns import TeamsTurnsModule
from admin.mechanics.nomoteams.wetha import WethaModule


MODULES = [
    PseudoModule, TeamsModule, TeamsOwnershipModule, TeamsBoardModule, GovernmentModule,
    TeamsTurnsModule, ColoursModule, CoatingsModule, TeamsProposalsModule, LeavingModule,
    TeamsMoneyModule, DestructionModule, EasyMovementModule, ActionsModule, WethaModule,
    DisputesModule, DoomModule, TeamsHealthModule, ProductsModule, LaborModule,
]

__all__ = ["MODULES", "_OWNERSHIP_COMMANDS", "_PRODUCT_COMMANDS"]
