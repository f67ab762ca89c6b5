"""VI: the board's shape, polluted and contaminated squares, and new squares appearing when
players pass its end (VI.17, VI.18)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.capabilities import DeniesBenefits
from admin.engine import hooks
from admin.engine.board import add_square, live_numbers
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, SquareLook

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square


@dataclass
class BoardState:
    #: squares whose landers lose health (VI.14); set by later mechanics and the Admin
    polluted: list[int] = field(default_factory=list)
    #: squares nobody may buy (XIII.5)
    contaminated: list[int] = field(default_factory=list)


class BoardModule(Mechanic[BoardState, None]):
    name = "board"
    rules = ("VI.1", "VI.2", "VI.3", "VI.4", "VI.5", "VI.6", "VI.7", "VI.8", "VI.10", "VI.12",
             "VI.13", "VI.15", "VI.17", "VI.18")
    defaults = {"initial_squares": 20, "columns": 10, "new_square_percent_times_n": 2000,
                # the first Nomopoly: this many squares are added each time someone passes the
                # end (V.8), instead of the chance above; 0 keeps the chance
                "squares_per_pass": 0,
                # no squares are added beyond this many on the board (V.9); 0: no limit
                "max_squares": 0,
                # a new square takes the place of the lowest destroyed one (VI.18); the first
                # Nomopoly adds them at the end and never renumbers (V.8, XXXII.2)
                "refill_destroyed": True}
    minimums = {"initial_squares": 1, "columns": 1, "squares_per_pass": 0, "max_squares": 0}
    maximums = {"initial_squares": 1000, "columns": 100, "squares_per_pass": 100, "max_squares": 10_000}
    summary = "The snaking board, moves and jumps, and new squares at the end when players pass it."
    State = BoardState

    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None:
        params = ctx.params("board")
        denier = ctx.registry.provider(ctx.state, DeniesBenefits)
        why = denier.denies(ctx, player, "new-square") if denier is not None else None
        if why:  # VI.17: only a non-terrorist's pass may add a square
            ctx.emit("new-square", f"{player.name} passed the end of the board, with no chance of a new "
                                   f"square: {why}.", player=player.name, rule="VI.17")
            return
        n = len(live_numbers(ctx.state))
        room = int(params["max_squares"]) - n if int(params["max_squares"]) else None
        if room is not None and room <= 0:
            return
        per_pass = int(params["squares_per_pass"])
        if per_pass:
            refill = bool(params["refill_destroyed"])
            added = [add_square(ctx.state, hooks.call(ctx), refill)
                     for _ in range(per_pass if room is None else min(per_pass, room))]
            ctx.emit("new-square", f"{player.name} passed the end of the board and "
                                   + (f"squares {added[0]}-{added[-1]} were" if len(added) > 1
                                      else f"square {added[0]} was") + " added.",
                     player=player.name, rule="VI.17", data={"squares": added})
            return
        # a (k/n)% chance is k in 100*n: exact with one die of 100*n sides
        k = int(params["new_square_percent_times_n"])
        label = f"newsquare/{player.name}/{len(ctx.dice.rolls)}"
        if ctx.dice.chance(k, 100 * n, label):
            number = add_square(ctx.state, hooks.call(ctx), bool(params["refill_destroyed"]))
            ctx.emit("new-square", f"{player.name} passed the end of the board and square {number} "
                                   f"was added (a {k / n:.4g}% chance).", player=player.name,
                     rule="VI.17", data={"square": number})

    def on_square_added(self, state: GameState, square: Square) -> None:
        bs = self.of(state)
        bs.polluted = [n for n in bs.polluted if n != square.number]
        bs.contaminated = [n for n in bs.contaminated if n != square.number]

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key == "polluted":
            set_polluted(state, square.number, bool(value))
        elif key == "contaminated":
            set_contaminated(state, square.number, bool(value))
        else:
            return False
        return True

    def can_own(self, state: GameState, square: Square) -> bool:
        return square.number not in self.of(state).contaminated

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        bs = self.of(state)
        return [Fact("polluted", square.number in bs.polluted),
                Fact("contaminated", square.number in bs.contaminated)]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        bs = self.of(state)
        flags = []
        if square.number in bs.polluted:
            flags.append((30, "POL", "polluted"))
        if square.number in bs.contaminated:
            flags.append((40, "CON", "contaminated"))
        if not flags:
            return None
        return SquareLook(notes=tuple((o, long) for o, _, long in flags), flags=tuple(flags))


def set_polluted(state: GameState, number: int, polluted: bool = True) -> None:
    bs = BoardModule.of(state)
    bs.polluted = sorted((set(bs.polluted) | {number}) if polluted else (set(bs.polluted) - {number}))


def set_contaminated(state: GameState, number: int, contaminated: bool = True) -> None:
    bs = BoardModule.of(state)
    bs.contaminated = sorted((set(bs.contaminated) | {number}) if contaminated
                             else (set(bs.contaminated) - {number}))
