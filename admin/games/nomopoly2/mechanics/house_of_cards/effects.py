"""What the House of Cards' items do to moves, landings and weeks (XXIV.2): a time bomb goes off
under its lander, glue stops a move, a mask makes a move another player's, and the House of Cards
or a Hospital cures anthrax. The items and their uses are in items.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.games.nomopoly2.api import MASKED
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.house_of_cards.items import NAME, hp, hs, impersonated, move_as
from admin.library.health import change_health
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


def cure(ctx: UpdateContext, player: Player, why: str) -> None:
    from admin.games.nomopoly2.mechanics.conditions import clear

    if shared.has_condition(ctx.state, player.name, "infected"):
        clear(ctx.state, player.name, "infected")
        ctx.emit("cured", f"{player.name} is cured of anthrax ({why}).", player=player.name, rule="XXIV.2")


def cures_here(ctx: UpdateContext, player: Player, number: int) -> str | None:
    """Why landing on ``number`` cures ``player``'s infection, or None (XXIV.2)."""
    if number == int(ctx.params(NAME)["square"]):
        return "landing on the House of Cards"
    if shared.has_building(ctx.state, number, "hospital"):
        from admin.library.ownership import owner_of

        block = shared.block_of(ctx.state, number)
        if block is not None and any(owner_of(ctx.state, n) == player.name for n in block.squares):
            return f"landing on the Hospital of square {number}, in a block they own part of"
    return None


def bomb_on_landing(ctx: UpdateContext, player: Player, number: int) -> None:
    bombs = hp(ctx.state).bombs
    if number not in bombs:
        return
    if shared.immune_to_time_bombs(ctx.state, player.name):  # the bomb stays, as hidden as it was
        planter = bombs[number]
        if planter in ctx.state.players and planter != player.name:
            ctx.emit("time-bomb", None, player=planter, rule="XXIX.3",
                     private=f"Your time bomb on square {number} stayed hidden under {player.name}, who floated "
                             "over it on a Krazy Carpet (XXIX.3).")
        return
    planter = bombs.pop(number)
    ctx.emit("time-bomb", f"BOOM! A time bomb went off on square {number} under {player.name}.",
             player=player.name, rule="XXIV.2", data={"square": number})
    if planter in ctx.state.players and planter != player.name:
        ctx.emit("time-bomb", None, player=planter, rule="XXIV.2",
                 private=f"Your time bomb on square {number} went off under {player.name}.")
    change_health(ctx, player, -int(ctx.params(NAME)["time_bomb_health"]), rule="XXIV.2",
                  reason=f"a time bomb on square {number}")


def glue_stops(ctx: UpdateContext, player: Player, number: int) -> bool:
    state = hs(ctx.state)
    if number not in state.glued:
        return False
    if shared.immune_to_glue(ctx.state, player.name):
        return False  # clogs walk over glue (XXIX.3)
    state.glued = [n for n in state.glued if n != number]
    ctx.emit("glue", f"{player.name} was stopped by the glue on square {number}; the glue is used up.",
             player=player.name, rule="XXIV.2", data={"square": number})
    if shared.falls_in_glue(ctx.state, player.name):  # the face in the glue: passed out (XXIX.3, XIX.3)
        ctx.emit("glue", f"{player.name} fell off their pogo stick in the glue and passed out.",
                 player=player.name, rule="XXIX.3")
        shared.pass_out(ctx, player, rule="XXIX.3", reason="passing out in glue on a pogo stick")
    return True


def masked_move(ctx: UpdateContext, player: Player, steps: int) -> bool:
    """``move_instead``: a mask wearer's move is made by the one they impersonate (XXIV.2)."""
    target = impersonated(ctx, player)
    if target is player or player.name in (MASKED.peek(ctx) or ()):
        return False
    from admin.engine.movement import move
    from admin.library.turns import TurnsModule

    ctx.emit("mask", f"{player.name} moves wearing the mask of {target.name}: the move's effects happen "
                     f"to {target.name}.", player=player.name, rule="XXIV.2")
    wraps: list[int] = []
    move_as(ctx, player, target, lambda: wraps.append(move(ctx, target, steps)))
    if wraps and wraps[0]:  # passing the end of the board is an effect of the move too (VI.11)
        TurnsModule().on_turn_end(ctx, target, -1, wraps[0])
    return True
