"""XI: the end of the game: one player left who is not bankrupt, or one net worth above all others'."""

from __future__ import annotations

from admin.engine.rules.base import RuleModule
from admin.model import GameState, Player


def net_worth(state: GameState, player: Player, price_per_number: int = 25) -> int:
    """Money plus the net worth of owned squares (VI.16: a square's purchase price, 25 × n)."""
    squares = sum(s.number * price_per_number for s in state.squares if s.owner == player.name)
    return player.money + squares


class EndgameModule(RuleModule):
    name = "endgame"
    rules = ("XI.2", "XI.3", "XI.4")
    defaults: dict = {}
    summary = "The last player not bankrupt wins; so does a net worth above everyone else's combined."

    def on_update_end(self, ctx) -> None:
        state = ctx.state
        players = sorted(state.active_players(), key=lambda p: p.name)
        if state.ended or len(players) < 2:
            return
        solvent = [p for p in players if p.money >= 0]
        if len(solvent) == 1:
            declare(ctx, solvent[0].name, "the only player who is not bankrupt (XI.3)")
            return
        price = int(ctx.params("ownership").get("price_per_number", 25))
        worth = {p.name: net_worth(state, p, price) for p in players}
        total = sum(worth.values())
        for name, w in worth.items():
            if w > total - w:
                declare(ctx, name, f"a net worth of ${w}, more than all other players' ${total - w} (XI.4)")
                return


def declare(ctx, winner: str, reason: str) -> None:
    ctx.state.winner = winner
    ctx.state.ended = True
    ctx.state.end_reason = reason
    ctx.emit("winner", f"{winner} wins the game: {reason}.", player=winner, rule="XI.2")
