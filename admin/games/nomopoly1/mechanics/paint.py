"""The first Nomopoly's XVIII (paint and colours) and X.4 (a square of the lander's own colour costs
20% less rent). Cans of paint and paint thinner come from the General Store's inventory."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1.mechanics.store import COLOURS, items_of, take_item
from admin.games.nomopoly1 import api
from admin.library.api import OWNERSHIP
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square

#: how each colour shows on the board (a band along the square's foot)
HEX = {"red": "#d32f2f", "blue": "#1f4fa8", "yellow": "#e6c619", "green": "#2e9e4f", "orange": "#f08a24",
       "purple": "#7b3fa0", "brown": "#8d5a2b", "pink": "#e07aa8", "grey": "#8a8a8a"}


def _parse(thinner: bool) -> Callable[[str, object], Paint]:
    keyword = "THIN" if thinner else "PAINT"
    example = f"{keyword} SQUARE{'' if thinner else ' RED'}, {keyword} SQUARE 14{'' if thinner else ' RED'}, " \
              f"{keyword} ME{'' if thinner else ' RED'} or {keyword} bob{'' if thinner else ' RED'}"

    def parse(rest: str, _line: object) -> Paint:
        words = rest.split()
        colour = None
        if not thinner:
            if not words or words[-1].lower() not in COLOURS:
                raise CommandError(f"name the colour last ({', '.join(COLOURS)}): {example}")
            colour = words.pop().lower()
        if not words:
            raise CommandError(f"say what to {keyword.lower()}: {example}")
        first = words[0].lower()
        if first == "square":
            number = parse_square(" ".join(words[1:])) if len(words) > 1 else None
            return Paint("square", colour, number)
        if len(words) == 1 and first in ("me", "self", "myself"):
            return Paint("me", colour)
        if len(words) == 1 and re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]{0,39}", words[0]):
            return Paint(words[0], colour)
        raise CommandError(f"write it like {example}")
    return parse


# "[n]|ME" cannot be written as a pattern: the usage line is given as it is
@command("PAINT SQUARE [n]|ME|<player> <colour>", usage="PAINT SQUARE [n]|ME|<player> <colour>", parse=_parse(False),
         listing=170, rules=("XVIII.1", "XVIII.5"),
         summary="pour a can of paint on your square (or one you own, for $100), on yourself or on a player on "
                 "your square",
         example="PAINT SQUARE RED")
@command("THIN SQUARE [n]|ME|<player>", usage="THIN SQUARE [n]|ME|<player>", parse=_parse(True), listing=171,
         rules=("XVIII.4",), summary="take the colour off with paint thinner, as paint goes on", example="THIN ME")
class Paint:
    """``PAINT SQUARE [n] <colour>``, ``PAINT ME <colour>``, ``PAINT <player> <colour>``, and
    ``THIN ...`` the same way without a colour (XVIII)."""

    target: str          # "square", "me" or a player's name
    colour: str | None   # None: paint thinner
    square: int | None = None


@dataclass
class PaintState:
    squares: dict[int, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)


class PaintModule(Mechanic[PaintState, None]):
    name = "paint"
    rules = ("XVIII.1", "XVIII.2", "XVIII.3", "XVIII.4", "XVIII.5", "XVIII.6", "X.4")
    stated = {"X.4": {"own_colour_discount_percent": ("the rent is {}% lower",)},
              "XVIII.5": {"remote_fee": ("for a fee of ${}",)}}
    # rounding: the first Nomopoly has no rounding rule; a standing ruling (docs/rulings.md):
    # "nearest" (half a dollar up), "down" or "up"
    defaults = {"remote_fee": 100, "own_colour_discount_percent": 20, "rounding": "nearest"}
    choices = {"rounding": ("nearest", "down", "up")}
    summary = "Paint squares and players; a square of your own colour costs you 20% less rent."
    State = PaintState
    requires = ("store",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Paint, paint))

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: Square, rent: int) -> int:
        """X.4: 20% off when the square is painted the lander's colour."""
        ps = self.of(ctx.state)
        colour = ps.squares.get(square.number)
        if colour is None or ps.players.get(payer.name) != colour:
            return rent
        p = ctx.params(self.name)
        return percent_of(rent, 100 - int(p["own_colour_discount_percent"]), str(p["rounding"]))

    def worth(self, state: GameState, player: Player) -> int:
        """III.5: paint on a square one owns is an improvement, worth a can's price."""
        ownership = OWNERSHIP.get(state)
        if ownership is None or not api.STORE.on(state):
            return 0
        price = int(state.params("store").get("paint_price", 400))
        owners = ownership.owners
        return sum(price for n in self.of(state).squares if owners.get(n) == player.name)

    def on_square_added(self, state: GameState, square: Square) -> None:
        self.of(state).squares.pop(square.number, None)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:  # XIV.1: status goes, colour with it
        self.of(ctx.state).players.pop(player.name, None)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).players.pop(player.name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "colour":
            return False
        _set(self.of(state).players, player.name, value)
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "colour":
            return False
        _set(self.of(state).squares, square.number, value)
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("colour", self.of(state).players.get(player.name), label="Colour", column="Colour",
                     order=65, kind="text")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("colour", self.of(state).squares.get(square.number), column="Colour", order=15, kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        colour = self.of(state).squares.get(square.number)
        if colour is None:
            return None
        return SquareLook(notes=((15, f"painted {colour}"),), band=HEX.get(colour))


K = TypeVar("K")


def _set(table: dict[K, str], key: K, value: object) -> None:
    if value:
        table[key] = str(value)
    else:
        table.pop(key, None)


def percent_of(amount: int, percent: int, rounding: str) -> int:
    """``percent``% of ``amount`` in whole dollars, rounded as the standing ruling says."""
    whole, rest = divmod(amount * percent, 100)
    if rounding == "down" or not rest:
        return whole
    if rounding == "up":
        return whole + 1
    return whole + (1 if rest * 2 >= 100 else 0)


def colour_of(state: GameState, square: int | None = None, player: str | None = None) -> str | None:
    ps = PaintModule.of(state)
    return ps.squares.get(square) if square is not None else ps.players.get(player or "")


def paint(ctx: UpdateContext, player: Player, cmd: Paint) -> str:
    ps = PaintModule.of(ctx.state)
    what = f"paint ({cmd.colour})" if cmd.colour else "paint thinner"
    how = f"buy it at a General Store (BUY PAINT {(cmd.colour or 'THINNER').upper()})"
    if not items_of(ctx.state).count(player.name, what):
        raise IllegalAction(f"you have no {what}; {how}")
    fee = 0
    if cmd.target == "square":
        number = cmd.square if cmd.square is not None else player.square
        square = ctx.state.square(number)
        if square is None or square.destroyed:
            raise IllegalAction(f"there is no square {number} on the board")
        owner = owner_of(ctx.state, number)
        if owner is not None and owner != player.name:
            raise IllegalAction(f"square {number} is {owner}'s; only its owner may paint it (XVIII.6)")
        if number != player.square:
            if owner != player.name:
                raise IllegalAction(f"you are on square {player.square}; you may paint another square only "
                                    "if you own it, for $100 (XVIII.5)")
            fee = int(ctx.params("paint")["remote_fee"])
        if fee:
            ctx.transfer(player.name, BANK, fee, rule="XVIII.5", reason=f"painting square {number} from afar",
                         voluntary=True, kind="fee")
        take_item(ctx, player, what, how)
        _set(ps.squares, number, cmd.colour)
        target = f"square {number}"
    else:
        victim = player if cmd.target == "me" else ctx.state.players.get(cmd.target)
        if victim is None or not victim.active:
            raise IllegalAction(f"there is no player {cmd.target!r} in the game")
        if victim.square != player.square:
            raise IllegalAction(f"{victim.name} is on square {victim.square} and you on {player.square}; "
                                "paint a player on your square (XVIII.1)")
        take_item(ctx, player, what, how)
        _set(ps.players, victim.name, cmd.colour)
        target = "themselves" if victim is player else victim.name
    done = f"painted {target} {cmd.colour}" if cmd.colour else f"took the colour off {target}"
    return f"{player.name} {done}" + (f" (a {ctx.state.money(fee)} fee)" if fee else "") + "."
