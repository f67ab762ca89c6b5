"""XII and VI.14: health, resets at 0 or less, and polluted squares."""

from admin.engine.rules.base import RuleModule


class HealthModule(RuleModule):
    name = "health"
    rules = ("XII.1", "XII.2", "VI.14")
    defaults = {"start_health": 100, "polluted_health_loss": 5}
    summary = "Health starts at 100; at 0 or less the player is reset; polluted squares hurt."

    def on_land(self, ctx, player, square) -> None:
        if square.polluted:
            loss = int(ctx.params("health")["polluted_health_loss"])
            ctx.change_health(player, -loss, rule="VI.14", reason=f"landing on polluted square {square.number}")
