"""XI: the end of the game: one player left who is not bankrupt, or one net worth above all others'."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from admin.engine.module import Mechanic

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


class EndgameModule(Mechanic[None, None]):
    name = "endgame"
    rules = ("XI.2", "XI.3", "XI.4")
    defaults: ClassVar[dict[str, Any]] = {}
    summary = "The last player not bankrupt wins; so does a net worth above everyone else's combined."

    def on_update_end(self, ctx: UpdateContext) -> None:
        state = ctx.state
        players = sorted(state.active_players(), key=lambda p: p.name)
        if state.ended or len(players) < 2:
            return
        solvent = [p for p in players if p.money >= 0]
        if len(solvent) == 1:
            declare(ctx, solvent[0].name, "the only player who is not bankrupt (XI.3)")
            return
        worth = {p.name: ctx.registry.net_worth(state, p) for p in players}
        total = sum(worth.values())
        for name, w in worth.items():
            if w > total - w:
                declare(ctx, name, f"a net worth of ${w}, more than all other players' ${total - w} (XI.4)")
                return


def declare(ctx: UpdateContext, winner: str, reason: str) -> None:
    ctx.state.winner = winner
    ctx.state.ended = True
    ctx.state.end_reason = reason
    ctx.emit("winner", f"{winner} wins the game: {reason}.", player=winner, rule="XI.2")
