"""Methods of transportation's state and what its parts share (XXIX): each player's method, a
car's fuel, abandoned cars, and the parameters. A leaf: the module (:mod:`transport`), its
commands (:mod:`transport_commands`) and its moves (:mod:`transport_moves`) read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from admin.games.nomopoly2.mechanics import shared
from admin.library.api import TURNS
from admin.library.turns import parse_dice
from admin.engine.model import GameState

#: the module's name, and its state in a game
NAME = "transport"

#: how each method reads in a sentence
LABELS = {"foot": "on foot", "clogs": "clogs", "pogo-stick": "a pogo stick", "krazy-carpet": "a Krazy Carpet",
          "helicopter": "a helicopter", "car": "a car", "springy-shoes": "springy shoes"}

#: each method's name on the transport page
TITLES = {"foot": "On Foot", "clogs": "Clogs", "pogo-stick": "Pogo Stick", "krazy-carpet": "Krazy Carpet",
          "helicopter": "Helicopter", "car": "Car", "springy-shoes": "Springy Shoes"}

#: what each method does besides its dice (the transport page)
NOTES = {"foot": "everyone's method until they buy another",
         "clogs": "immune to glue",
         "pogo-stick": "caught by glue: falls and passes out",
         "krazy-carpet": "immune to time bombs",
         "helicopter": "flies up the columns, back to square 1 after the rightmost one; immune to anthrax",
         "car": "burns the product of its dice in fuel (500 at most); DRIVE TO a square once an update",
         "springy-shoes": "each turn a jump to a random square; marks no bingo numbers"}



@dataclass
class TransportState:
    #: player -> their method of transportation (XXIX.2), one of shared.METHODS; absent: on foot
    methods: dict[str, str] = field(default_factory=dict)
    #: player -> the fuel in the car they use (XXIX.3)
    fuel: dict[str, int] = field(default_factory=dict)
    #: square -> the fuel of each abandoned car on it, in the order they were left (XXIX.4)
    abandoned: dict[int, list[int]] = field(default_factory=dict)
    #: player -> the squares with a Gas Station they landed on or passed over in their last move
    #: (XXII.4: fuel may be bought there in the next update's actions)
    reached: dict[str, list[int]] = field(default_factory=dict)


#: the module's parameters and their defaults
DEFAULTS: dict[str, Any] = {
    "prices": {"foot": 0, "clogs": 50, "pogo-stick": 150, "krazy-carpet": 200, "helicopter": 250,
               "car": 500, "springy-shoes": 150},
    # each method's dice (On Foot's are the turns module's); springy shoes have none (a jump)
    "dice": {"clogs": "2d3", "pogo-stick": "2d2", "krazy-carpet": "2d8", "helicopter": "2d6",
             "car": "2d10"},
    # a die whose sides show other numbers: side k shows the k-th (the pogo stick's 1 and 6)
    "faces": {"pogo-stick": [1, 6]},
    "fuel_max": 500,
    "drive_fuel_per_distance_squared": 5,
    "drives_per_update": 1,
    # a drive lands on its square (rent, the right to buy, its effects); False: it owes no rent
    "drive_lands": True,
    # "up": every column flown bottom to top; "snake": up the first, down the next ...
    "helicopter_columns": "up",
    # where the money for fuel at a Government Gas Station goes (XXII.4 says "the owner"; the
    # standing ruling sends it to the Admin Bank Account); the prices are the buildings section's
    "government_fuel_to": "bank",
    # fuel over the 500 a car holds: paid for and spilt (True) or not sold (False)
    "pay_for_spill": False,
    # a car replaced by another method bought: "gone", or left "abandoned" on its square
    "replaced_car": "gone",
}


def of(state: GameState) -> TransportState:
    ts: TransportState = state.mods[NAME]
    return ts


def params(state: GameState) -> dict[str, Any]:
    """The module's parameters; a table (prices, dice, faces) set by a ruling changes only the
    methods it names: ``ruling set transport prices '{"car": 600}'`` leaves the others' prices."""
    out = {**DEFAULTS, **state.params(NAME)}
    for key, value in DEFAULTS.items():
        if isinstance(value, dict) and isinstance(out[key], dict):
            out[key] = {**value, **out[key]}
    return out


def method_of(state: GameState, name: str) -> str:
    return shared.transport_of(state, name)


def set_method(state: GameState, name: str, method: str) -> None:
    """``name`` uses ``method`` from now on (XXIX.2: it replaces the one they had; a car's fuel
    goes with it)."""
    ts = of(state)
    if method == "foot":
        ts.methods.pop(name, None)
    else:
        ts.methods[name] = method
    if method != "car":
        ts.fuel.pop(name, None)
    turns = TURNS.get(state)
    if turns is not None:
        turns.transport[name] = method


def abandon(state: GameState, name: str, square: int) -> int:
    """``name``'s car is left on ``square`` with its fuel, nobody's now (XXIX.4); they go on foot.
    Returns the fuel left in it."""
    ts = of(state)
    fuel = int(ts.fuel.get(name, 0))
    ts.abandoned.setdefault(square, []).append(fuel)
    set_method(state, name, "foot")
    return fuel


def dice_text(state: GameState, method: str) -> str:
    if method == "springy-shoes":
        return "none"
    if method == "foot":
        return str(state.params("turns").get("dice", {}).get("foot", "2d6"))
    spec = str(params(state)["dice"].get(method) or "2d6")
    shown = params(state)["faces"].get(method)
    if shown:
        count, _ = parse_dice(spec)
        return f"{count} dice showing only {' or '.join(map(str, shown))}"
    return spec


def die_faces(state: GameState, player: str) -> list[int]:
    """The numbers one die of ``player``'s method can show (a Weighted Die, XXXIII.5): 1-6 On
    Foot, 1-3 on clogs, 1 and 6 on a pogo stick ...; none on springy shoes, which roll no dice."""
    method = shared.transport_of(state, player)
    if method == "springy-shoes":
        return []
    shown = params(state)["faces"].get(method)
    if shown:
        return sorted({int(f) for f in shown})
    spec = (str(state.params("turns").get("dice", {}).get("foot", "2d6")) if method == "foot"
            else str(params(state)["dice"].get(method) or "2d6"))
    _, sides = parse_dice(spec)
    return list(range(1, sides + 1))
