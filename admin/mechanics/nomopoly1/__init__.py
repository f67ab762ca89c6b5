"""The first Nomopoly's own mechanics (its rules that no other game shares): donuts, fountains, the Hot
Potato, bankruptcy below $1 and resetting one's own user. Its shared rules come from the library."""

from admin.mechanics.nomopoly1.bank import BankModule
from admin.mechanics.nomopoly1.blob import BlobModule
from admin.mechanics.nomopoly1.blocks import BlocksModule
from admin.mechanics.nomopoly1.bus import BusModule
from admin.mechanics.nomopoly1.cash import CashStacksModule
from admin.mechanics.nomopoly1.chili import ChiliModule
from admin.mechanics.nomopoly1.coownership import CoOwnershipModule
from admin.mechanics.nomopoly1.dirty_bubble import DirtyBubbleModule
from admin.mechanics.nomopoly1.donuts import DonutsModule
from admin.mechanics.nomopoly1.fountains import FountainsModule
from admin.mechanics.nomopoly1.grease import GreaseModule
from admin.mechanics.nomopoly1.hot_potato import HotPotatoModule
from admin.mechanics.nomopoly1.latex import LatexModule
from admin.mechanics.nomopoly1.lottery import LotteryModule
from admin.mechanics.nomopoly1.paint import PaintModule
from admin.mechanics.nomopoly1.paint_guns import PaintGunsModule
from admin.mechanics.nomopoly1.parallel import ParallelModule
from admin.mechanics.nomopoly1.quijibos import QuijiboModule
from admin.mechanics.nomopoly1.standing import BankruptcyModule, SelfResetModule
from admin.mechanics.nomopoly1.store import StoreModule
from admin.mechanics.nomopoly1.trading import TradingModule
from admin.mechanics.nomopoly1.vehicles import VehiclesModule
from admin.mechanics.nomopoly1.wages import WagesModule
from admin.mechanics.nomopoly1.weapons import WeaponsModule
from admin.mechanics.nomopoly1.winning import WinningModule

MODULES = [BankModule, BankruptcyModule, BlobModule, BlocksModule, BusModule, CashStacksModule, ChiliModule, CoOwnershipModule, DirtyBubbleModule, DonutsModule,
           FountainsModule, GreaseModule, HotPotatoModule, LatexModule, LotteryModule, PaintModule, PaintGunsModule,
           ParallelModule, QuijiboModule, SelfResetModule, StoreModule, TradingModule, VehiclesModule, WagesModule,
           WeaponsModule, WinningModule]
