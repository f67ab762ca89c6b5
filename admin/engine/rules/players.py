"""III: joining between weeks (III.4) and removal after 3 weeks with no voluntary action (III.5)."""

from __future__ import annotations

from admin.engine.context import BANK
from admin.engine.rules.base import RuleModule


class PlayersModule(RuleModule):
    name = "players"
    rules = ("III.1", "III.2", "III.4", "III.5")
    defaults = {"inactive_weeks": 3}
    summary = "Players join with the Admin's approval; 3 weeks with no voluntary action and they are removed."

    def on_update_end(self, ctx) -> None:
        if not ctx.slot.week_end:
            return
        weeks = int(ctx.params("players")["inactive_weeks"])
        for player in sorted(ctx.state.active_players(), key=lambda p: p.name):
            if ctx.state.week - player.last_action_week >= weeks:
                remove_player(ctx, player, f"no voluntary action for {weeks} weeks (III.5)")


def remove_player(ctx, player, reason: str) -> None:
    ctx.transfer(player.name, BANK, player.money, rule="III.5", reason="removal from the game")
    ctx.release_holdings(player)
    player.status = "removed"
    ctx.emit("removed", f"{player.name} was removed from the game: {reason}.", player=player.name,
             rule="III.5")
