"""Moving and jumping (VI.7, VI.8): leave, pass over, land; passing the end of the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.board import successor

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.model import Player


def move(ctx: UpdateContext, player: Player, steps: int) -> int:
    """Move ``steps`` squares ahead; return how many times the move went from the last square of
    the board to the first (each such pass triggers ``on_pass_end``)."""
    wraps = 0
    here = player.square
    path = []
    for _ in range(steps):
        nxt = successor(ctx.state, here)
        if nxt <= here:  # from the highest square on to the lowest
            wraps += 1
            for module in ctx.registry.enabled(ctx.state):
                module.on_pass_end(ctx, player)
            # a square added at the end by on_pass_end is behind the player: keep going to the first
        path.append(nxt)
        here = nxt
    start = player.square
    player.square = here
    ctx.emit("move", f"{player.name} moved {steps} from square {start} to square {here}"
                     + (", passing the end of the board" if wraps else "") + ".",
             player=player.name, rule="VI.7", data={"from": start, "to": here, "path": path})
    land(ctx, player)
    return wraps


def jump(ctx: UpdateContext, player: Player, destination: int, *, rule: str, reason: str) -> None:
    start = player.square
    player.square = destination
    ctx.emit("jump", f"{player.name} jumped from square {start} to square {destination} ({reason}).",
             player=player.name, rule=rule, data={"from": start, "to": destination})
    land(ctx, player)


def land(ctx: UpdateContext, player: Player) -> None:
    ctx.landing_order += 1
    square = ctx.state.square(player.square)
    assert square is not None and not square.destroyed
    for module in ctx.registry.enabled(ctx.state):
        if not player.active:
            break
        module.on_land(ctx, player, square)
