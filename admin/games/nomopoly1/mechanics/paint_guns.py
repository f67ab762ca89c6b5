"""The first Nomopoly's XXIX: a paint gun fires a can of paint at a player up to 15 squares away
(SHOOT bob WITH RED PAINT): one shot in twelve splashes back on the shooter; otherwise it hits one
time in two, four or eight as the target is nearer or farther, costing them 15 health and giving
them the colour. A player trapped in the Dirty Bubble may shoot the Bubble to get out (XXX.4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.board import live_numbers
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.movement import land
from admin.engine.errors import IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.blob import BlobModule, hurt
from admin.games.nomopoly1.mechanics.dirty_bubble import DirtyBubbleModule
from admin.games.nomopoly1.mechanics.latex import break_suit
from admin.games.nomopoly1.mechanics.paint import PaintModule
from admin.games.nomopoly1.mechanics.store import COLOURS, items_of, paint_item, take_item
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


@command(f"SHOOT <target> WITH <colour:{'|'.join(c.upper() for c in COLOURS)}> [PAINT]",
         usage="SHOOT <player>|BUBBLE WITH <colour> PAINT",
         hint=f"write SHOOT <player> WITH <colour> PAINT ({', '.join(COLOURS)})", listing=175, rules=("XXIX.1",),
         summary="fire a can of paint from your paint gun at a player within 15 squares (once a week each), "
                 "or at the Dirty Bubble from inside it",
         example="SHOOT bob WITH RED PAINT")
class Shoot:
    """``SHOOT <player>|BUBBLE WITH <colour> PAINT`` (XXIX.1, XXX.4)."""

    target: str
    colour: str


@dataclass
class PaintGunsState:
    #: "shooter/target" -> the week of the last shot (XXIX.5)
    shots: dict[str, int] = field(default_factory=dict)


class PaintGunsModule(Mechanic[PaintGunsState, None]):
    name = "paint-guns"
    rules = ("XXIX.1", "XXIX.2", "XXIX.3", "XXIX.4", "XXIX.5")
    stated = {"XXIX.3": {"splash_in": ("colouring them, one time in {}.",)}}
    # hit_in: (up to this many squares away, one chance in N)
    defaults = {"reach": 15, "splash_in": 12, "hit_in": [[5, 2], [10, 4], [15, 8]], "damage": 15}
    summary = "Fire paint at players with a paint gun; the nearer they are, the likelier the hit."
    State = PaintGunsState
    requires = ("paint",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Shoot, shoot))


def distance_along(state: GameState, a: int, b: int) -> int:
    """Squares between ``a`` and ``b`` counting forwards or backwards, whichever is fewer (XXIX.2)."""
    numbers = live_numbers(state)
    if a not in numbers or b not in numbers:
        return 10**6
    d = abs(numbers.index(a) - numbers.index(b))
    return min(d, len(numbers) - d)


def shoot(ctx: UpdateContext, player: Player, cmd: Shoot) -> str:
    what = paint_item(cmd.colour)
    inv = items_of(ctx.state)
    if not inv.count(player.name, "paint gun"):
        raise IllegalAction("you have no paint gun; buy one at a General Store (BUY PAINT GUN)")
    if not inv.count(player.name, what):
        raise IllegalAction(f"you have no {what}; buy it at a General Store (BUY PAINT {cmd.colour.upper()})")
    if cmd.target.lower() == "bubble":
        return _shoot_bubble(ctx, player, cmd, what)
    blob = api.BLOB.get(ctx.state)
    if cmd.target.lower() == "blob" and blob is not None:  # XXXI.4: as at a player
        target = None
        name, square = "blob", blob.square
    else:
        target = ctx.state.players.get(cmd.target)
        if target is None or not target.active or target.name == player.name:
            raise IllegalAction(f"there is no other player {cmd.target!r} to shoot at")
        name, square = target.name, target.square
    p = ctx.params("paint-guns")
    gap = distance_along(ctx.state, player.square, square)
    if gap > int(p["reach"]):
        raise IllegalAction(f"{name} is {gap} squares away; a paint gun reaches {p['reach']} (XXIX.2)")
    shots = PaintGunsModule.of(ctx.state).shots
    key = f"{player.name}/{name}"
    if shots.get(key) == ctx.state.week:
        raise IllegalAction(f"you shot at {name} this week already; once a week (XXIX.5)")
    shots[key] = ctx.state.week
    take_item(ctx, player, what, "")
    colours = PaintModule.of(ctx.state).players
    label = f"paint-gun/{player.name}/{name}"
    if ctx.dice.roll(f"{label}/splash", int(p["splash_in"])) == 1:
        colours[player.name] = cmd.colour
        return f"{player.name}'s {cmd.colour} paint splashed back: {player.name} is {cmd.colour} (XXIX.3)."
    odds = next(int(n) for limit, n in p["hit_in"] if gap <= int(limit))
    if ctx.dice.roll(f"{label}/hit", odds) != 1:
        return f"{player.name} fired {cmd.colour} paint at {name}, {gap} squares away, and missed."
    if target is None:
        BlobModule.of(ctx.state).colour = cmd.colour
        hurt(ctx, int(p["damage"]), f"{player.name}'s paint gun")
        return f"{player.name} hit the Blob with {cmd.colour} paint from {gap} squares away."
    break_suit(ctx, target, "paint hit it")
    colours[target.name] = cmd.colour
    change_health(ctx, target, -int(p["damage"]), rule="XXIX.4", reason=f"{player.name}'s paint gun")
    return f"{player.name} hit {target.name} with {cmd.colour} paint from {gap} squares away."


def _shoot_bubble(ctx: UpdateContext, player: Player, cmd: Shoot, what: str) -> str:
    bubble = api.DIRTY_BUBBLE.get(ctx.state)
    if bubble is None or bubble.prisoner != player.name:
        raise IllegalAction("you may fire at the Dirty Bubble only from inside it (XXX.4)")
    take_item(ctx, player, what, "")
    db = DirtyBubbleModule.of(ctx.state)
    db.colour, db.prisoner = cmd.colour, None
    squares = live_numbers(ctx.state)
    player.square = squares[ctx.dice.roll(f"paint-gun/{player.name}/bubble", len(squares)) - 1]
    ctx.emit("bubble", f"{player.name} fired {cmd.colour} paint at the Dirty Bubble from inside it: the "
                       f"Bubble is {cmd.colour}, and {player.name} fell out onto square {player.square}.",
             player=player.name, rule="XXX.4")
    land(ctx, player)
    return f"{player.name} shot their way out of the Dirty Bubble."
