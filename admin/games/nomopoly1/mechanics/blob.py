"""The first Nomopoly's XXXI: the Blob, a creature that moves 2d6 once a week after the players,
slides on grease like them, has 100 health and a colour, can be stepped on (STEP ON BLOB), shot
with paint, given first aid (AID BLOB) and handed the Hot Potato; landing on a coloured square sets
off an event by the square's colour."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from admin.engine import hooks
from admin.engine.board import add_square, live_numbers, nearest_ahead, successor
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Panel, SquareLook, Table
from admin.engine.syntax import no_args
from admin.engine.errors import IllegalAction
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.chili import feed_pounds
from admin.games.nomopoly1.mechanics.grease import GreaseModule
from admin.games.nomopoly1.mechanics.paint import PaintModule
from admin.games.nomopoly1.mechanics.parallel import Traveller, warp_in
from admin.games.nomopoly1.mechanics.store import take_item
from admin.library.api import OWNERSHIP
from admin.library.ownership import BuyRight
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square

#: how the Blob is named where a player's name could stand (the Hot Potato's holder ...)
BLOB = "@blob"


def _bare(keyword: str, act: str) -> Callable[[str, object], BlobAct]:
    def parse(rest: str, _line: object) -> BlobAct:
        no_args(keyword, rest)
        return BlobAct(act)
    return parse


@command("STEP ON [THE] BLOB", usage="STEP ON BLOB", listing=210, rules=("XXXI.3",),
         summary="on the Blob's square, once a week: it loses 10 health", example="STEP ON BLOB",
         fixed={"act": "step"})
@command("AID BLOB", keyword="AID BLOB", parse=_bare("AID BLOB", "aid"), listing=211, rules=("XXXI.6",),
         summary="use a first aid kit on the Blob, from anywhere (+20, to 100)", example="AID BLOB")
class BlobAct:
    """``STEP ON BLOB`` (XXXI.3) or ``AID BLOB`` (a first aid kit, XXXI.6)."""

    act: str


@dataclass
class BlobState:
    square: int = 1
    health: int = 100
    colour: str | None = None
    #: player -> the week they last stepped on it (XXXI.3)
    stepped: dict[str, int] = field(default_factory=dict)
    #: this week's lottery prize is half as much again (a purple square, XXXI.7)
    lottery_boost: bool = False


class BlobModule(Mechanic[BlobState, None]):
    name = "blob"
    rules = ("XXXI.1", "XXXI.2", "XXXI.3", "XXXI.4", "XXXI.5", "XXXI.6", "XXXI.7")
    stated = {"XXXI.2": {"health_max": ("The Blob starts with {} health",)},
              "XXXI.3": {"step_damage": ("taking {} of its health",)},
              "XXXI.7": {"red_gift": ("every player receives ${} from",),
                         "green_squares": ("green, {} squares are added",),
                         "max_squares": ("added to the board (up to {})",)}}
    defaults = {"step_damage": 10, "first_aid": 20, "health_max": 100, "slide_health": 5,
                "max_slide_health": 20, "red_gift": 1000, "green_squares": 4, "max_squares": 100,
                "yellow_pounds": 16}
    #: squares a green landing adds, and the board's size it stops at: work in one update (issue 30)
    maximums = {"green_squares": 100, "max_squares": 10_000}
    summary = "The Blob moves after the players each week; the colour of the square it lands on sets off an event."
    State = BlobState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BlobAct, blob_act))

    def on_update_end(self, ctx: UpdateContext) -> None:
        """After the players' moves: the Blob's move (XXXI.1)."""
        if not ctx.slot.moves or not ctx.state.live_squares():
            return
        bs = self.of(ctx.state)
        a, b = ctx.dice.roll("blob/d0", 6), ctx.dice.roll("blob/d1", 6)
        here = bs.square if bs.square in live_numbers(ctx.state) else live_numbers(ctx.state)[0]
        for _ in range(a + b):
            here = successor(ctx.state, here)
        start, bs.square = bs.square, here
        ctx.emit("blob", f"The Blob rolled {a} and {b} and moved from square {start} to square {here}.",
                 rule="XXXI.1", data={"from": start, "to": here})
        api.BLOB_MOVED.put(ctx, True)
        self._slide(ctx)
        paint = api.PAINT.get(ctx.state)
        colour = paint.squares.get(bs.square) if paint is not None else None
        if colour:
            colour_event(ctx, colour)

    def _slide(self, ctx: UpdateContext) -> None:
        """Grease moves the Blob on as it does players (XXXI.1)."""
        if not api.GREASE.on(ctx.state):
            return
        bs = self.of(ctx.state)
        p = ctx.params(self.name)
        lost = 0
        greased = GreaseModule.of(ctx.state).greased
        for _ in range(len(ctx.state.squares)):
            if bs.square not in greased:
                return
            loss = min(int(p["slide_health"]), int(p["max_slide_health"]) - lost)
            lost += max(loss, 0)
            hurt(ctx, max(loss, 0), f"grease on square {bs.square}")
            bs.square = successor(ctx.state, bs.square)

    def on_square_added(self, state: GameState, square: Square) -> None:
        bs = self.of(state)
        if square.destroyed and bs.square == square.number:
            bs.square = live_numbers(state)[0]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        bs = self.of(state)
        if square.number != bs.square:
            return None
        colour = f", {bs.colour}" if bs.colour else ""
        return SquareLook(notes=((71, f"the Blob ({bs.health} health{colour})"),), flags=((71, "BL", "the Blob"),))

    def panels(self, state: GameState) -> list[Panel]:
        bs = self.of(state)
        rows = (("Square", bs.square), ("Health", bs.health), ("Colour", bs.colour or "none"))
        return [Panel("blob", "The Blob", "The Blob moves 2d6 after the players each week. When it lands on "
                      "a painted square, the square's colour sets off an event (XXXI.7).",
                      (Table("The Blob now", ("What", "Value"), rows),), order=31)]


def hurt(ctx: UpdateContext, loss: int, why: str) -> None:
    """The Blob loses health; at 0 the rules say nothing: the Admin is told (a standing ruling)."""
    if loss <= 0:
        return
    bs = BlobModule.of(ctx.state)
    bs.health = max(0, bs.health - loss)
    ctx.emit("blob", f"The Blob lost {loss} health ({why}); now {bs.health}.", rule="XXXI.2")
    if bs.health == 0:
        ctx.emit("admin", "The Blob's health is 0. The rules do not say what then: the Admin decides "
                          "(it stays on the board at 0 until then).", rule="XXXI.2")


def blob_square(state: GameState) -> int | None:
    bs = api.BLOB.get(state)
    return bs.square if bs is not None else None


def colour_event(ctx: UpdateContext, colour: str) -> None:
    """XXXI.7: what a square's colour does when the Blob lands on it."""
    state, bs = ctx.state, BlobModule.of(ctx.state)
    p = ctx.params(BlobModule.name)
    players = sorted(state.active_players(), key=lambda pl: pl.name)
    said = f"The Blob landed on {colour} square {bs.square}"
    if colour == "red":
        for pl in players:
            ctx.transfer(BANK, pl.name, int(p["red_gift"]), rule="XXXI.7", reason="the Blob on a red square", kind="bonus")
        ctx.emit("blob", f"{said}: every player receives {state.money(int(p['red_gift']))}.", rule="XXXI.7")
    elif colour == "blue":
        own = OWNERSHIP.of(state)
        fewest = min((len(own.owned_by(state, pl.name)) for pl in players), default=0)
        tied = [pl.name for pl in players if len(own.owned_by(state, pl.name)) == fewest]
        free = [s.number for s in state.live_squares() if own.owner(s.number) is None
                and hooks.call(ctx).can_own(state, s)]
        if tied and free:
            who = tied[0] if len(tied) == 1 else tied[ctx.dice.roll("blob/blue", len(tied)) - 1]
            own.buy_rights.append(BuyRight(square=free[0], player=who, order=ctx.landing_order,
                                           update=state.update))
            ctx.emit("blob", f"{said}: {who}, who owns the fewest squares, may BUY {free[0]}.", rule="XXXI.7")
    elif colour == "yellow":
        if api.CHILI.on(state):
            feed_pounds(state, int(p["yellow_pounds"]))
        ctx.emit("blob", f"{said}: the Big Fart is fed two extra large chilis.", rule="XXXI.7")
    elif colour == "green":
        room = int(p["max_squares"]) - len(live_numbers(state))
        refill = bool(ctx.params("board")["refill_destroyed"])
        added = [add_square(state, hooks.call(ctx), refill)
                 for _ in range(max(0, min(int(p["green_squares"]), room)))]
        ctx.emit("blob", f"{said}: {len(added)} squares are added to the board.", rule="XXXI.7")
    elif colour == "orange":
        if bs.colour:
            squares = live_numbers(state)
            n = squares[ctx.dice.roll("blob/orange", len(squares)) - 1]
            PaintModule.of(state).squares[n] = bs.colour
            ctx.emit("blob", f"{said}: square {n} turns {bs.colour}, the Blob's colour.", rule="XXXI.7")
    elif colour == "purple":
        bs.lottery_boost = True
        ctx.emit("blob", f"{said}: this week's lottery prize is half as much again.", rule="XXXI.7")
    elif colour == "brown":
        nearest = nearest_ahead(state, bs.square, {pl.name: pl.square for pl in players})
        if nearest and api.PARALLEL.on(state):
            who = nearest[0] if len(nearest) == 1 else nearest[ctx.dice.roll("blob/brown", len(nearest)) - 1]
            ctx.emit("blob", f"{said}: {who}, the nearest player, is warped into the Parallel Universe.",
                     rule="XXXI.7")
            warp_in(ctx, state.players[who], Traveller("blob", 0), "the Blob's brown square")
    elif colour == "pink":
        own = OWNERSHIP.of(state)
        for pl in players:
            tax = sum(s.number for s in own.owned_by(state, pl.name))
            if tax:
                ctx.transfer(pl.name, BANK, tax, rule="XXXI.7", reason="the Blob's pink tax", kind="tax")
        ctx.emit("blob", f"{said}: every player pays the sum of their squares' numbers in tax.", rule="XXXI.7")
    elif colour == "grey" and len(players) >= 2:
        names = [pl.name for pl in players]
        first = names.pop(ctx.dice.roll("blob/grey/0", len(names)) - 1)
        second = names[ctx.dice.roll("blob/grey/1", len(names)) - 1]
        a, b = state.players[first], state.players[second]
        a.square, b.square = b.square, a.square
        ctx.emit("blob", f"{said}: {first} and {second} swap places.", rule="XXXI.7")


def blob_act(ctx: UpdateContext, player: Player, cmd: BlobAct) -> str:
    bs = BlobModule.of(ctx.state)
    p = ctx.params(BlobModule.name)
    if cmd.act == "step":
        if player.square != bs.square:
            raise IllegalAction(f"the Blob is on square {bs.square} and you on {player.square}")
        if bs.stepped.get(player.name) == ctx.state.week:
            raise IllegalAction("you stepped on the Blob this week already (XXXI.3)")
        bs.stepped[player.name] = ctx.state.week
        hurt(ctx, int(p["step_damage"]), f"{player.name} stepped on it")
        return f"{player.name} stepped on the Blob."
    take_item(ctx, player, "first aid kit", "buy one at a General Store (BUY FIRST AID KIT)")
    gain = max(0, min(int(p["first_aid"]), int(p["health_max"]) - bs.health))
    bs.health += gain
    return f"{player.name} gave the Blob first aid (+{gain} health); it has {bs.health}."
