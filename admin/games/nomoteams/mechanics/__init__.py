"""The Teams and Government variant's own mechanics (seed 002, ``nomoteams``): the four Teams and
the Freemasons, the pseudoplayers (The Government, The Corporation), the square-root board,
ownership at market value, proposals judged by the Admin, The Government's sealed-bid auctions.
What they share (names, rounding, values, owners) is in ``shared``."""

from typing import Any

from admin.engine.module import Mechanic
from admin.games.nomoteams.mechanics.actions import ActionsModule
from admin.games.nomoteams.mechanics.board import TeamsBoardModule
from admin.games.nomoteams.mechanics.coatings import CoatingsModule
from admin.games.nomoteams.mechanics.colours.mechanic import ColoursModule
from admin.games.nomoteams.mechanics.destruction import DestructionModule
from admin.games.nomoteams.mechanics.easy_movement import EasyMovementModule
from admin.games.nomoteams.mechanics.disputes.mechanic import DisputesModule
from admin.games.nomoteams.mechanics.doom import DoomModule
from admin.games.nomoteams.mechanics.government import GovernmentModule
from admin.games.nomoteams.mechanics.health import TeamsHealthModule
from admin.games.nomoteams.mechanics.labor import LaborModule
from admin.games.nomoteams.mechanics.leaving import LeavingModule
from admin.games.nomoteams.mechanics.money import TeamsMoneyModule
from admin.games.nomoteams.mechanics.ownership.mechanic import TeamsOwnershipModule
from admin.games.nomoteams.mechanics.ownership.commands import COMMANDS as _OWNERSHIP_COMMANDS  # registers their types
from admin.games.nomoteams.mechanics.products.uses import COMMANDS as _PRODUCT_COMMANDS  # registers their types
from admin.games.nomoteams.mechanics.products.mechanic import ProductsModule
from admin.games.nomoteams.mechanics.proposals import TeamsProposalsModule
from admin.games.nomoteams.mechanics.pseudo import PseudoModule
from admin.games.nomoteams.mechanics.teams import TeamsModule
from admin.games.nomoteams.mechanics.turns import TeamsTurnsModule
from admin.games.nomoteams.mechanics.wetha import WethaModule


MODULES: list[type[Mechanic[Any, Any]]] = [
    PseudoModule, TeamsModule, TeamsOwnershipModule, TeamsBoardModule, GovernmentModule,
    TeamsTurnsModule, ColoursModule, CoatingsModule, TeamsProposalsModule, LeavingModule,
    TeamsMoneyModule, DestructionModule, EasyMovementModule, ActionsModule, WethaModule,
    DisputesModule, DoomModule, TeamsHealthModule, ProductsModule, LaborModule,
]

__all__ = ["MODULES", "_OWNERSHIP_COMMANDS", "_PRODUCT_COMMANDS"]
