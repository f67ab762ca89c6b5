"""VI: the board's shape, and new squares appearing when players pass its end (VI.17, VI.18)."""

from __future__ import annotations

from admin.engine.board import add_square, live_numbers
from admin.engine.rules.base import RuleModule


class BoardModule(RuleModule):
    name = "board"
    rules = ("VI.1", "VI.2", "VI.3", "VI.4", "VI.5", "VI.6", "VI.7", "VI.8", "VI.10", "VI.12",
             "VI.13", "VI.15", "VI.17", "VI.18")
    defaults = {"initial_squares": 20, "columns": 10, "new_square_percent_times_n": 2000}
    summary = "The snaking board, moves and jumps, and the chance of a new square at the end."

    def on_pass_end(self, ctx, player) -> None:
        n = len(live_numbers(ctx.state))
        # a (k/n)% chance is k in 100*n: exact with one die of 100*n sides
        k = int(ctx.params("board")["new_square_percent_times_n"])
        label = f"newsquare/{player.name}/{len(ctx.dice.rolls)}"
        if ctx.dice.chance(k, 100 * n, label):
            number = add_square(ctx.state)
            ctx.emit("new-square", f"{player.name} passed the end of the board and square {number} "
                                   f"was added (a {k / n:.4g}% chance).", player=player.name,
                     rule="VI.17", data={"square": number})
