"""Nomopoly II's later sections (XVI-XXXV): the mechanics its accepted proposals switched on, one
module each (a big section may be a small folder). ``shared.py`` holds what they read of each
other (blocks, buildings, conditions, transport), so no module imports another's internals."""

from admin.mechanics.nomopoly2.conditions import ConditionsModule
from admin.mechanics.nomopoly2.governor import GovernorModule
from admin.mechanics.nomopoly2.missiles import MissilesModule
from admin.mechanics.nomopoly2.terrorism import TerrorismModule

MODULES = [ConditionsModule, TerrorismModule, MissilesModule, GovernorModule]
