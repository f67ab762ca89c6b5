"""VII and IX.1: each player's turn (dice of their transport, doubles give another turn) and the
$1000 for passing the end of the board (VI.11), in a random order each update."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.capabilities import DeniesBenefits
from admin.engine import hooks
from admin.engine.context import BANK
from admin.engine.params import check_dice_map
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.movement import move
from admin.engine.errors import RuleError
from admin.library.api import PASS_BONUS, TURNS_TAKEN

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player

_DICE = re.compile(r"^(\d*)d(\d*)$")


def parse_dice(spec: str) -> tuple[int, int]:
    """``"2d6"`` -> (2, 6); ``"d10"`` -> (1, 10); ``"2d"`` -> (2, 6) (VII.4)."""
    m = _DICE.match(spec.strip().lower())
    if not m:
        raise RuleError(f"dice {spec!r} are not of the form NdS, e.g. 2d6")
    return int(m.group(1) or 1), int(m.group(2) or 6)


@dataclass
class TurnsState:
    #: each player's method of transport, which decides their dice (VII.4)
    transport: dict[str, str] = field(default_factory=dict)


class TurnsModule(Mechanic[TurnsState, None]):
    name = "turns"
    rules = ("VII.1", "VII.2", "VII.3", "VII.4", "IX.1", "VI.11")
    stated = {"VI.11": {"pass_bonus": ("receives ${}",)}}
    defaults = {"dice": {"foot": "2d6"}, "pass_bonus": 1000, "max_turns_in_a_row": 50,
                # moves each player makes in an update whose schedule slot has moves (the first
                # Nomopoly: two a week, VIII.2); a slot with `moves: false` has none
                "moves_per_update": 1,
                # the pass bonus at most once per update (the first Nomopoly's V.7) or every pass
                "pass_bonus_once": False}
    maximums = {"moves_per_update": 10, "max_turns_in_a_row": 100}
    validators = {"dice": check_dice_map}
    summary = "One turn per player per update in random order; doubles roll again; $1000 for passing the end."
    State = TurnsState

    def on_player_added(self, state: GameState, player: Player) -> None:
        self.of(state).transport[player.name] = "foot"

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.of(ctx.state).transport[player.name] = "foot"

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "transport":
            return False
        self.of(state).transport[player.name] = str(value)
        return True

    def on_turns(self, ctx: UpdateContext) -> None:
        take_turns(ctx)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("transport", transport_of(state, player.name), label="Travels by", order=60,
                     kind="text")]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        return [(30, f"  Transport: {transport_of(state, player.name)}")]

    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        if wrapped:
            params = ctx.params("turns")
            if params["pass_bonus_once"]:
                had = PASS_BONUS.of(ctx)
                if player.name in had:
                    return
                had.add(player.name)
            bonus = int(params["pass_bonus"])
            denier = ctx.registry.provider(ctx.state, DeniesBenefits)
            why = denier.denies(ctx, player, "pass-bonus") if denier is not None else None
            if why:
                ctx.emit("pass-bonus", f"{player.name} passed the end of the board and receives no ${bonus}: "
                                       f"{why}.", player=player.name, rule="VI.11", data={"amount": 0})
                return
            ctx.transfer(BANK, player.name, bonus, rule="VI.11", reason="passing the end of the board", kind="bonus")
            ctx.emit("pass-bonus", f"{player.name} received ${bonus} for passing the end of the board.",
                     player=player.name, rule="VI.11", data={"amount": bonus})


def take_turns(ctx: UpdateContext) -> None:
    """Every active player takes one turn (plus any doubles), in a random order (IX.1)."""
    names = sorted(p.name for p in ctx.state.active_players())
    order = ctx.dice.shuffle(names, "order")
    if order:
        ctx.emit("order", "Turn order: " + ", ".join(order) + ".", rule="IX.1", data={"order": order})
    moves = int(ctx.params("turns")["moves_per_update"]) if ctx.slot.moves else 0
    h = hooks.call(ctx)
    for _ in range(moves):  # each move of the update in the same order (VIII.2)
        for name in order:
            player = ctx.state.players[name]
            if not player.active:
                continue
            why = h.misses_turn(ctx, player)  # trapped in the Dirty Bubble, a turn lost by a rule ...
            if why:
                ctx.emit("no-move", f"{player.name} makes no move: {why}.", player=player.name)
                continue
            take_turn(ctx, player)


def take_turn(ctx: UpdateContext, player: Player) -> None:
    params = ctx.params("turns")
    limit = int(params["max_turns_in_a_row"])
    h = hooks.call(ctx)
    taken = TURNS_TAKEN.of(ctx)
    first = taken.get(player.name, 0)  # a second move of the update numbers its dice on
    for turn in range(first, first + limit):
        taken[player.name] = turn + 1
        h.on_turn_start(ctx, player, turn)
        spec = h.dice_for(ctx.state, player)
        faces = roll_turn_dice(ctx, player, turn, spec or params["dice"].get(transport_of(ctx.state, player.name), "2d6"))
        faces = h.check_roll(ctx, player, turn, faces)  # a fall, a stall, a sled blowing up
        doubles = any(faces.count(f) == 2 for f in set(faces))  # exactly two dice the same (VII.2)
        ctx.emit("roll", f"{player.name} rolled {' and '.join(map(str, faces))}"
                         + (" (doubles)" if doubles else "") + ".",
                 player=player.name, rule="VII.1", data={"faces": faces, "turn": turn})
        backwards = h.moves_backwards(ctx, player)
        wrapped = move(ctx, player, sum(faces), backwards=backwards)
        if not player.active:
            return
        h.on_turn_end(ctx, player, turn, wrapped)
        if not doubles or not player.active:
            return
        h.on_doubles(ctx, player, turn)  # a card (VII.2), a rule a proposal wrote ...
    ctx.emit("loop-guard", f"{player.name} rolled doubles {limit} times in a row; the turn stops "
                           "here and the Admin should rule on it (X.1).", player=player.name, rule="X.1")


def roll_turn_dice(ctx: UpdateContext, player: Player, turn: int, spec: str, tag: str = "d") -> list[int]:
    """The dice ``spec`` (``"2d6"``) rolled for ``player``'s ``turn``, labelled
    ``turn/<player>/<turn>/<tag><i>``; a move made again on other dice (a rocket sled that blew up,
    a car out of fuel: on foot) uses its own ``tag``."""
    count, sides = parse_dice(spec)
    return [ctx.dice.roll(f"turn/{player.name}/{turn}/{tag}{i}", sides) for i in range(count)]


def transport_of(state: GameState, name: str) -> str:
    return TurnsModule.of(state).transport.get(name, "foot")
