"""The first Nomopoly's XXII.4-5: the Admin is *in debt* when the Admin Bank Account is below $0 and
*rich* when it holds more than every player; a rich Admin scatters five $100 stacks of cash on
random squares at the start of each week, for whoever lands there first."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.context import BANK
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.model import GameState

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Player, Square


def is_rich(state: GameState) -> bool:
    return all(state.admin_bank > p.money for p in state.active_players())


def in_debt(state: GameState) -> bool:
    return state.admin_bank < 0


@dataclass
class CashState:
    #: square -> how many $100 stacks lie on it
    stacks: dict[int, int] = field(default_factory=dict)


class CashStacksModule(Mechanic[CashState, None]):
    name = "cash-stacks"
    rules = ("XXII.4", "XXII.5")
    stated = {"XXII.5": {"stacks": ("the Admin is rich {} $",), "stack": ("${} stacks of cash",)}}
    defaults = {"stacks": 5, "stack": 100}
    maximums = {'stacks': 100}
    summary = "A rich Admin scatters five $100 stacks of cash on the board each week."
    State = CashState

    def on_turns(self, ctx: UpdateContext) -> None:
        """The start of a week, before anyone moves (XXII.5)."""
        if not ctx.slot.moves or not is_rich(ctx.state):
            return
        squares = [s.number for s in ctx.state.live_squares()]
        cs = self.of(ctx.state)
        placed = []
        for i in range(int(ctx.params(self.name)["stacks"])):
            number = squares[ctx.dice.roll(f"cash/{i}", len(squares)) - 1]
            cs.stacks[number] = cs.stacks.get(number, 0) + 1
            placed.append(number)
        ctx.emit("cash", f"The Admin is rich: stacks of cash were put on squares "
                         f"{', '.join(map(str, placed))}.", rule="XXII.5", data={"squares": placed})

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        cs = self.of(ctx.state)
        count = cs.stacks.pop(square.number, 0)
        if count:
            amount = count * int(ctx.params(self.name)["stack"])
            ctx.transfer(BANK, player.name, amount, rule="XXII.5", reason=f"cash on square {square.number}", kind="bonus")
            ctx.emit("cash", f"{player.name} picked up {ctx.state.money(amount)} in cash on square "
                             f"{square.number}.", player=player.name, rule="XXII.5")

    def on_square_added(self, state: GameState, square: Square) -> None:
        self.of(state).stacks.pop(square.number, None)

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "cash_stacks":
            return False
        if int(value):
            self.of(state).stacks[square.number] = int(value)
        else:
            self.of(state).stacks.pop(square.number, None)
        return True

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("cash_stacks", self.of(state).stacks.get(square.number, 0))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        n = self.of(state).stacks.get(square.number, 0)
        if not n:
            return None
        return SquareLook(notes=((85, f"{n} stack{'s' if n > 1 else ''} of cash"),), flags=((85, "$", "cash to pick up"),))
