"""Nomopoly II's later sections (XVI-XXXV): the mechanics its accepted proposals switched on, one
module each (a big section may be a small folder). ``shared.py`` holds what they read of each
other (blocks, buildings, conditions, transport), so no module imports another's internals."""

from admin.mechanics.nomopoly2 import zoo_skunk  # noqa: F401  (the Skunk's moves, offered to the Zoo: shared.use)
from admin.mechanics.nomopoly2.bank import BankModule
from admin.mechanics.nomopoly2.bingo import BingoModule
from admin.mechanics.nomopoly2.blackjack import BlackjackModule
from admin.mechanics.nomopoly2.blocks import BlocksModule
from admin.mechanics.nomopoly2.buildings import BuildingsModule
from admin.mechanics.nomopoly2.casinos import CasinosModule
from admin.mechanics.nomopoly2.conditions import ConditionsModule
from admin.mechanics.nomopoly2.credit import CreditModule
from admin.mechanics.nomopoly2.exploit_blocks import ExploitBlocksModule
from admin.mechanics.nomopoly2.governor import GovernorModule
from admin.mechanics.nomopoly2.house_of_cards import HouseOfCardsModule
from admin.mechanics.nomopoly2.jokers import JokersModule
from admin.mechanics.nomopoly2.lottery import LotteryModule
from admin.mechanics.nomopoly2.missiles import MissilesModule
from admin.mechanics.nomopoly2.networth import NetWorthModule
from admin.mechanics.nomopoly2.nonsense import NonsenseModule
from admin.mechanics.nomopoly2.patents import PatentsModule
from admin.mechanics.nomopoly2.terrorism import TerrorismModule
from admin.mechanics.nomopoly2.transport import TransportModule
from admin.mechanics.nomopoly2.zoo import ZooModule

MODULES = [ConditionsModule, TransportModule, BankModule, CreditModule, NetWorthModule, HouseOfCardsModule, BingoModule, JokersModule, BlackjackModule, LotteryModule, ExploitBlocksModule, NonsenseModule, BlocksModule, BuildingsModule, ZooModule, CasinosModule, PatentsModule,
           TerrorismModule, MissilesModule, GovernorModule]
