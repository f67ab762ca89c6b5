"""The first Nomopoly's store items that change squares (XVII.3): grease (a player landing on a
greased square loses 5 health and slides on to the next, at most 20 health a move; clogs are
immune), the de-greaser, and the air freshener (three weeks of +3 health to whoever lands there,
and shelter from the Big Fart)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import successor
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1 import api
from admin.library.health import change_health
from admin.games.nomopoly1.mechanics.store import items_of, take_item
from admin.library.ownership import owner_of
from admin.library.turns import transport_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square


def _parse_grease(rest: str, _line: object) -> Grease:
    words = rest.split()
    if not words or words[0].lower() != "square":
        raise CommandError("write GREASE SQUARE (the one you are on) or GREASE SQUARE 14 (one you own)")
    return Grease(parse_square(" ".join(words[1:])) if len(words) > 1 else None)


@command("GREASE SQUARE [n]", parse=_parse_grease, listing=172, rules=("XVII.3",),
         summary="grease your square (or one you own, for $100): whoever lands there loses 5 health and slides on",
         example="GREASE SQUARE")
class Grease:
    """``GREASE SQUARE [n]`` (XVII.3: used like paint)."""

    square: int | None = None


def _parse_degrease(rest: str, _line: object) -> Degrease:
    return Degrease(parse_square(rest))


@command("DEGREASE <n>", parse=_parse_degrease, listing=173, rules=("XVII.3",),
         summary="take the grease off any square that is not another player's, wherever you are",
         example="DEGREASE 14")
class Degrease:
    """``DEGREASE <n>`` (XVII.3)."""

    square: int


@command("USE AIR FRESHENER", keyword="USE AIR", listing=174, rules=("XVII.3",),
         summary="freshen your square for three weeks: +3 health to whoever lands there, shelter from the Big Fart",
         example="USE AIR FRESHENER")
class Freshen:
    """``USE AIR FRESHENER`` on the square one is on (XVII.3)."""


@dataclass
class GreaseState:
    greased: list[int] = field(default_factory=list)
    #: square -> the week its air freshener wears off (fresh until that week begins)
    fresh_until: dict[int, int] = field(default_factory=dict)


class GreaseModule(Mechanic[GreaseState, None]):
    name = "grease"
    rules = ("XVII.3",)
    stated = {"XVII.3": {"slide_health": ("greased square loses {} health and slides",),
                         "max_health_per_move": ("grease takes at most {} health in one move",),
                         "fresh_weeks": ("freshens the user's square for {} turns",),
                         "fresh_health": ("landing there gains {} health",)}}
    defaults = {"slide_health": 5, "max_health_per_move": 20, "fresh_weeks": 3, "fresh_health": 3,
                "remote_fee": 100, "immune_transport": ["clogs"], "never_greased": [22]}
    summary = "Greased squares make players slide on; air fresheners heal whoever lands on them."
    State = GreaseState
    requires = ("store",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Grease, grease), (Degrease, degrease), (Freshen, freshen))

    def redirect_landing(self, ctx: UpdateContext, player: Player, square: Square) -> int | None:
        if square.number not in self.of(ctx.state).greased:
            return None
        p = ctx.params(self.name)
        if transport_of(ctx.state, player.name) in p["immune_transport"]:
            return None
        return slide(ctx, player, square.number, loss=int(p["slide_health"]),
                     cap=int(p["max_health_per_move"]), rule="XVII.3")

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        end_of_move(ctx, player)
        if fresh(ctx.state, square.number):
            change_health(ctx, player, int(ctx.params(self.name)["fresh_health"]), rule="XVII.3",
                          reason=f"the air freshener on square {square.number}")

    def on_update_start(self, ctx: UpdateContext) -> None:
        gs = self.of(ctx.state)
        gs.fresh_until = {n: w for n, w in gs.fresh_until.items() if w > ctx.state.week}

    def on_square_added(self, state: GameState, square: Square) -> None:
        gs = self.of(state)
        gs.greased = [n for n in gs.greased if n != square.number]
        gs.fresh_until.pop(square.number, None)

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        gs = self.of(state)
        if key == "greased":
            gs.greased = sorted((set(gs.greased) | {square.number}) if value else (set(gs.greased) - {square.number}))
        elif key == "fresh_until":
            gs.fresh_until[square.number] = int(value)
        else:
            return False
        return True

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("greased", square.number in self.of(state).greased),
                Fact("freshened", fresh(state, square.number))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        flags, notes = [], []
        if square.number in self.of(state).greased:
            flags.append((80, "GR", "greased"))
            notes.append((80, "greased"))
        if fresh(state, square.number):
            flags.append((81, "AF", "air freshened"))
            notes.append((81, "air freshened"))
        return SquareLook(notes=tuple(notes), flags=tuple(flags)) if flags else None


def slide(ctx: UpdateContext, player: Player, number: int, *, loss: int, cap: int, rule: str) -> int | None:
    """A player landing on greased square ``number`` loses ``loss`` health (but no more than
    ``cap`` in one move, counting every greased square of the move) and slides on to the next
    square, where they land instead (or slide again). Shared by both games' grease (the first
    Nomopoly's XVII.3: 5 and 20; Nomopoly II's XXXIII.5: 3 and 12). Returns the next square, or
    None when the player is out of the game."""
    lost = api.GREASE_LOST.of(ctx)
    loss = min(loss, cap - lost.get(player.name, 0))
    nxt = successor(ctx.state, number)
    if loss > 0:
        lost[player.name] = lost.get(player.name, 0) + loss
        change_health(ctx, player, -loss, rule=rule, reason=f"grease on square {number}")
    if not player.active:
        return None
    ctx.emit("grease", f"{player.name} slid on the grease of square {number} to square {nxt}.",
             player=player.name, rule=rule, data={"from": number, "to": nxt})
    return nxt


def end_of_move(ctx: UpdateContext, player: Player) -> None:
    """The move is over (the player landed): the next move may hurt again (see :func:`slide`)."""
    lost = api.GREASE_LOST.peek(ctx)
    if lost is not None:
        lost.pop(player.name, None)


def fresh(state: GameState, number: int) -> bool:
    return GreaseModule.of(state).fresh_until.get(number, 0) > state.week


def grease(ctx: UpdateContext, player: Player, cmd: Grease) -> str:
    gs = GreaseModule.of(ctx.state)
    p = ctx.params("grease")
    number = cmd.square if cmd.square is not None else player.square
    square = ctx.state.square(number)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {number} on the board")
    if number in [int(n) for n in p["never_greased"]]:
        raise IllegalAction(f"square {number} may not be greased")
    owner = owner_of(ctx.state, number)
    if owner is not None and owner != player.name:
        raise IllegalAction(f"square {number} is {owner}'s; only its owner may grease it (XVII.3, XVIII.6)")
    fee = 0
    if number != player.square:
        if owner != player.name:
            raise IllegalAction(f"you are on square {player.square}; you may grease another square only if "
                                "you own it, for $100 (XVIII.5)")
        fee = int(p["remote_fee"])
    if number in gs.greased:
        raise IllegalAction(f"square {number} is greased already")
    if not items_of(ctx.state).count(player.name, "grease"):
        raise IllegalAction("you have no grease; buy it at a General Store (BUY GREASE)")
    if fee:
        ctx.transfer(player.name, BANK, fee, rule="XVIII.5", reason=f"greasing square {number} from afar",
                     voluntary=True, kind="fee")
    take_item(ctx, player, "grease", "")
    gs.greased = sorted(gs.greased + [number])
    return f"{player.name} greased square {number}" + (f" (a {ctx.state.money(fee)} fee)" if fee else "") + "."


def degrease(ctx: UpdateContext, player: Player, cmd: Degrease) -> str:
    gs = GreaseModule.of(ctx.state)
    owner = owner_of(ctx.state, cmd.square)
    if owner is not None and owner != player.name:
        raise IllegalAction(f"square {cmd.square} is {owner}'s; you may not de-grease another player's square")
    if cmd.square not in gs.greased:
        raise IllegalAction(f"square {cmd.square} is not greased")
    take_item(ctx, player, "de-greaser", "buy one at a General Store (BUY DEGREASER)")
    gs.greased = [n for n in gs.greased if n != cmd.square]
    return f"{player.name} took the grease off square {cmd.square}."


def freshen(ctx: UpdateContext, player: Player, cmd: Freshen) -> str:
    take_item(ctx, player, "air freshener", "buy one at a General Store (BUY AIR FRESHENER)")
    until = ctx.state.week + int(ctx.params("grease")["fresh_weeks"])
    GreaseModule.of(ctx.state).fresh_until[player.square] = until
    return f"{player.name} air-freshened square {player.square} until week {until}."
