"""The first Nomopoly's own mechanics (its rules that no other game shares): donuts, fountains, the Hot
Potato, bankruptcy below $1 and resetting one's own user. Its shared rules come from the library."""

from typing import Any

from admin.engine.module import Mechanic
from admin.games.nomopoly1.mechanics.bank import BankModule
from admin.games.nomopoly1.mechanics.blob import BlobModule
from admin.games.nomopoly1.mechanics.blocks import BlocksModule
from admin.games.nomopoly1.mechanics.bus import BusModule
from admin.games.nomopoly1.mechanics.cash import CashStacksModule
from admin.games.nomopoly1.mechanics.chili import ChiliModule
from admin.games.nomopoly1.mechanics.coownership import CoOwnershipModule
from admin.games.nomopoly1.mechanics.dirty_bubble import DirtyBubbleModule
from admin.games.nomopoly1.mechanics.donuts import DonutsModule
from admin.games.nomopoly1.mechanics.fountains import FountainsModule
from admin.games.nomopoly1.mechanics.grease import GreaseModule
from admin.games.nomopoly1.mechanics.hot_potato import HotPotatoModule
from admin.games.nomopoly1.mechanics.latex import LatexModule
from admin.games.nomopoly1.mechanics.lottery import LotteryModule
from admin.games.nomopoly1.mechanics.paint import PaintModule
from admin.games.nomopoly1.mechanics.paint_guns import PaintGunsModule
from admin.games.nomopoly1.mechanics.parallel import ParallelModule
from admin.games.nomopoly1.mechanics.quijibos import QuijiboModule
from admin.games.nomopoly1.mechanics.standing import BankruptcyModule, SelfResetModule
from admin.games.nomopoly1.mechanics.store import StoreModule
from admin.library.trading import TradingModule
from admin.games.nomopoly1.mechanics.vehicles import VehiclesModule
from admin.games.nomopoly1.mechanics.wages import WagesModule
from admin.games.nomopoly1.mechanics.weapons import WeaponsModule
from admin.games.nomopoly1.mechanics.winning import WinningModule

MODULES: list[type[Mechanic[Any, Any]]] = [BankModule, BankruptcyModule, BlobModule, BlocksModule, BusModule, CashStacksModule, ChiliModule, CoOwnershipModule, DirtyBubbleModule, DonutsModule,
           FountainsModule, GreaseModule, HotPotatoModule, LatexModule, LotteryModule, PaintModule, PaintGunsModule,
           ParallelModule, QuijiboModule, SelfResetModule, StoreModule, TradingModule, VehiclesModule, WagesModule,
           WeaponsModule, WinningModule]
