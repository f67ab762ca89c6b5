"""Moving and jumping (VI.7, VI.8): leave, pass over, land; passing the end of the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine import hooks
from admin.engine.board import lowest, predecessor, successor
from admin.engine.capabilities import SlowsMoves, StopsMoves
from admin.engine.links import Note

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Player


def move(ctx: UpdateContext, player: Player, steps: int, *, backwards: bool = False) -> int:
    """Move ``steps`` squares ahead (or back); return how many times the move went from the last
    square of the board to the first (each such pass triggers ``on_pass_end``). Going back, it is
    how many times the move stepped onto the first square, to land there or go past it (the first
    Nomopoly pays for passing square 1 either way); going back never adds squares."""
    h = hooks.call(ctx)
    made = h.move_instead(ctx, player, steps)  # off the board (the Parallel Universe): its own track
    if made:  # True, or how many times its own path went past the end (a helicopter's columns)
        return 0 if made is True else int(made)
    glue = ctx.registry.provider(ctx.state, StopsMoves)  # a square that ends a move (glue)
    slow = ctx.registry.provider(ctx.state, SlowsMoves)  # one that costs more than a pip
    wraps = 0
    here = player.square
    path: list[int] = []
    left = steps
    while left > 0:
        left -= 1
        nxt = predecessor(ctx.state, here) if backwards else successor(ctx.state, here)
        if backwards and nxt == lowest(ctx.state):  # onto square 1, to land or go past it
            wraps += 1
        elif not backwards and nxt <= here:  # from the highest square on to the lowest
            wraps += 1
            h.on_pass_end(ctx, player)
            # a square added at the end by on_pass_end is behind the player: keep going to the first
        if path:  # the square just left was passed over
            h.on_pass_over(ctx, player, path[-1])
        path.append(nxt)
        here = nxt
        if left > 0 and glue is not None and glue.stops_on(ctx, player, nxt):
            break  # stopped on the way (glue): the move ends, and lands, here
        if left > 0 and slow is not None:  # passing through: a square may cost more than its pip
            left -= slow.pips_lost(ctx, player, nxt)
    start = player.square
    player.square = here
    verb = "moved back" if backwards else "moved"
    ctx.emit("move", f"{player.name} {verb} {len(path)} from square {start} to square {here}"
                     + (", passing the end of the board" if wraps and not backwards
                        else ", passing square 1" if wraps else "") + ".",
             player=player.name, rule="VI.7", data={"from": start, "to": here, "path": path})
    land(ctx, player)
    return wraps


def jump(ctx: UpdateContext, player: Player, destination: int, *, rule: str, reason: str) -> None:
    start = player.square
    player.square = destination
    ctx.emit("jump", f"{player.name} jumped from square {start} to square {destination} ({reason}).",
             player=player.name, rule=rule, data={"from": start, "to": destination})
    land(ctx, player)


#: the players landing by a drive in this update, who owe no rent (the first Nomopoly's VI.4)
RENT_FREE: Note[set[str]] = Note("rent-free", set)


def drive(ctx: UpdateContext, player: Player, destination: int, *, rule: str, reason: str) -> None:
    """Jump to ``destination`` and land there owing no rent (the first Nomopoly's VI.4)."""
    free = RENT_FREE.of(ctx)
    free.add(player.name)
    try:
        jump(ctx, player, destination, rule=rule, reason=reason)
    finally:
        free.discard(player.name)


def rent_free(ctx: UpdateContext, player: Player) -> bool:
    """Whether the player is landing by a drive, which owes no rent (VI.4)."""
    return player.name in (RENT_FREE.peek(ctx) or ())


def land(ctx: UpdateContext, player: Player) -> None:
    ctx.landing_order += 1
    square = ctx.state.square(player.square)
    assert square is not None and not square.destroyed
    h = hooks.call(ctx)
    for _ in range(len(ctx.state.squares) + 1):  # a slide on grease goes on to the next square
        nxt = h.redirect_landing(ctx, player, square)
        if nxt is None or nxt == square.number:
            break
        player.square = nxt
        square = ctx.state.square(nxt)
        assert square is not None and not square.destroyed
    h.on_land(ctx, player, square)  # each module while the player is in the game
