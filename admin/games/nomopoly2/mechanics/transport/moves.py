"""The moves of XXIX.3 that do not follow the board's rows: a helicopter flies up the columns
(back to square 1 after the rightmost one), springy shoes jump to a random square."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine import hooks
from admin.engine.board import layout_of, live_numbers
from admin.engine.movement import jump, land
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


def column_path(state: GameState, how: str = "up") -> list[int]:
    """Every live square in the order a helicopter flies over them (XXIX.3): column by column from
    the leftmost, each from the bottom row to the top (``how="up"``), or up the first column, down
    the next and so on (``"snake"``). Empty on a board with no columns."""
    columns = int(state.params("board").get("columns", 10))
    lay = layout_of(state, columns)
    if not lay.compass:
        return []
    count = len(state.squares)
    cells = {n: lay.cell(n, count) for n in live_numbers(state)}

    def key(n: int) -> tuple[int, int]:
        row, col = cells[n]
        return col, (-row if how == "snake" and col % 2 else row)

    return sorted(cells, key=key)


def fly(ctx: UpdateContext, player: Player, steps: int, how: str = "up") -> bool | int:
    """The helicopter's move of ``steps`` along the columns: each square left behind is passed
    over, the last one landed on; from the end of the rightmost column it goes on from square 1,
    which is passing the end of the board (VI.11, VI.17). Returns True, or how many times it
    passed the end (see ``Mechanic.move_instead``); False if the board has no columns."""
    order = column_path(ctx.state, how)
    if player.square not in order or steps <= 0:
        return False
    h = hooks.call(ctx)
    i, wraps = order.index(player.square), 0
    path: list[int] = []
    for _ in range(steps):
        if i + 1 >= len(order):  # past the rightmost column: back to square 1
            wraps += 1
            h.on_pass_end(ctx, player)
            order, i = column_path(ctx.state, how), 0  # a square added at the end is behind
        else:
            i += 1
        if path:
            h.on_pass_over(ctx, player, path[-1])
        path.append(order[i])
    start = player.square
    player.square = path[-1]
    ctx.emit("move", f"{player.name} flew {steps} along the columns from square {start} to square "
                     f"{player.square}" + (", past the rightmost column and on from square 1" if wraps else "") + ".",
             player=player.name, rule="XXIX.3", data={"from": start, "to": player.square, "path": path})
    land(ctx, player)
    return wraps or True


def spring(ctx: UpdateContext, player: Player, roll: int) -> bool:
    """Springy shoes: the turn's one die (as many sides as live squares) picks the square, the
    ``roll``-th live one counting from square 1 (itself possible), and the player jumps there."""
    numbers = live_numbers(ctx.state)
    destination = numbers[(roll - 1) % len(numbers)]
    jump(ctx, player, destination, rule="XXIX.3", reason="springy shoes, to a random square")
    return True
