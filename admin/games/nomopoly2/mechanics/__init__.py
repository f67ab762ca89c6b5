"""Nomopoly II's later sections (XVI-XXXV): the mechanics its accepted proposals switched on, one
module each (a big section may be a small folder). ``shared.py`` holds what they read of each
other (blocks, buildings, conditions, transport), so no module imports another's internals."""

from typing import Any

from admin.engine.module import Mechanic
from admin.games.nomopoly2.mechanics.bank import BankModule
from admin.games.nomopoly2.mechanics.bingo import BingoModule
from admin.games.nomopoly2.mechanics.blackjack import BlackjackModule
from admin.games.nomopoly2.mechanics.blocks.mechanic import BlocksModule
from admin.games.nomopoly2.mechanics.buildings.mechanic import BuildingsModule
from admin.games.nomopoly2.mechanics.casinos.mechanic import CasinosModule
from admin.games.nomopoly2.mechanics.conditions import ConditionsModule
from admin.games.nomopoly2.mechanics.credit import CreditModule
from admin.games.nomopoly2.mechanics.exploit_blocks import ExploitBlocksModule
from admin.games.nomopoly2.mechanics.governor import GovernorModule
from admin.games.nomopoly2.mechanics.house_of_cards.mechanic import HouseOfCardsModule
from admin.games.nomopoly2.mechanics.jokers import JokersModule
from admin.games.nomopoly2.mechanics.lottery import LotteryModule
from admin.games.nomopoly2.mechanics.missiles import MissilesModule
from admin.games.nomopoly2.mechanics.networth import NetWorthModule
from admin.games.nomopoly2.mechanics.nonsense import NonsenseModule
from admin.games.nomopoly2.mechanics.patents import PatentsModule
from admin.games.nomopoly2.mechanics.terrorism import TerrorismModule
from admin.games.nomopoly2.mechanics.transport.mechanic import TransportModule
from admin.games.nomopoly2.mechanics.zoo.mechanic import ZooModule

MODULES: list[type[Mechanic[Any, Any]]] = [ConditionsModule, TransportModule, BankModule, CreditModule, NetWorthModule, HouseOfCardsModule, BingoModule, JokersModule, BlackjackModule, LotteryModule, ExploitBlocksModule, NonsenseModule, BlocksModule, BuildingsModule, ZooModule, CasinosModule, PatentsModule,
           TerrorismModule, MissilesModule, GovernorModule]
