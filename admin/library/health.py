"""XII and VI.14: health, resets at 0 or less, and polluted squares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.capabilities import EasesHealthLoss
from admin.engine import hooks
from admin.engine.board import lowest
from admin.engine.context import BANK
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.capabilities import AdjustsQuantities
from admin.library.board import BoardModule
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square


@dataclass
class HealthState:
    health: dict[str, int] = field(default_factory=dict)
    #: how many times each player's user was reset (XII.2)
    resets: dict[str, int] = field(default_factory=dict)


class HealthModule(Mechanic[HealthState, None], AdjustsQuantities):
    name = "health"
    rules = ("XII.1", "XII.2", "VI.14")
    # polluted_rent_divisor: VI.14's "one third of the usual rent" (the rent due after every other
    # module's, card rent included; rounded to the nearest dollar, IV.1)
    defaults = {"start_health": 100, "polluted_health_loss": 5, "polluted_rent_divisor": 3}
    stated = {"XII.1": {"start_health": ("starts with {} health",)},
              "VI.14": {"polluted_health_loss": ("loses {} health",)}}
    summary = ("Health starts at 100; at 0 or less the player is reset; polluted squares hurt and "
               "charge a third of the rent.")
    State = HealthState

    def on_player_added(self, state: GameState, player: Player) -> None:
        hs = self.of(state)
        hs.health[player.name] = int(state.params(self.name).get("start_health", self.defaults["start_health"]))
        hs.resets.setdefault(player.name, 0)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        hs = self.of(ctx.state)
        hs.health[player.name] = int(ctx.params(self.name)["start_health"])
        hs.resets[player.name] = hs.resets.get(player.name, 0) + 1

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if ctx.state.enabled(BoardModule.name) and square.number in BoardModule.of(ctx.state).polluted:
            loss = int(ctx.params("health")["polluted_health_loss"])
            change_health(ctx, player, -loss, rule="VI.14", reason=f"landing on polluted square {square.number}")

    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        """VI.14: on a polluted square the rent is a third of the usual rent (nearest dollar, IV.1)."""
        if not (ctx.state.enabled(BoardModule.name) and square.number in BoardModule.of(ctx.state).polluted):
            return rent
        divisor = max(1, int(ctx.params(self.name)["polluted_rent_divisor"]))
        return (2 * rent + divisor) // (2 * divisor)  # half a dollar rounds up

    def adjust(self, ctx: UpdateContext, player: Player, key: str, amount: int, reason: str) -> bool:
        if key != "health":
            return False
        change_health(ctx, player, amount, rule="II.3", reason=reason)
        return True

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key not in ("health", "resets"):
            return False
        getattr(self.of(state), key)[player.name] = int(value)
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        hs = self.of(state)
        return [Fact("health", hs.health.get(player.name, 0), label="Health", column="Health", order=10),
                Fact("resets", hs.resets.get(player.name, 0))]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        return [(10, f"  Health: {self.of(state).health.get(player.name, 0)}")]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        return [(10, f", {self.of(state).health.get(player.name, 0)} health")]


def health_of(state: GameState, name: str) -> int:
    return HealthModule.of(state).health.get(name, 0)


def change_health(ctx: UpdateContext, player: Player, delta: int, *, rule: str, reason: str) -> None:
    if delta == 0:
        return
    hs = HealthModule.of(ctx.state)
    if delta < 0:  # a career may soften a loss (the first Nomopoly's thieves and worriers)
        career = ctx.registry.provider(ctx.state, EasesHealthLoss)
        if career is not None:
            delta = -career.adjust_health_loss(ctx, player, -delta, reason)
        if delta == 0:
            return
    now = hs.health.get(player.name, 0) + delta
    hs.health[player.name] = now
    ctx.emit("health", f"{player.name} {'gained' if delta > 0 else 'lost'} {abs(delta)} health "
                       f"({reason}); now {now}.", player=player.name, rule=rule, data={"delta": delta})
    if now <= 0:
        reset_player(ctx, player, reason=f"health reached {now}")


def reset_player(ctx: UpdateContext, player: Player, *, reason: str) -> None:
    """XII.2: the player goes back to how they stood at the start of week 1: starting money, no
    squares or cards, full health, on the lowest square (each module resets what it owns)."""
    start_money = int(ctx.params("money").get("start_money", 10000))
    ctx.transfer(BANK, player.name, start_money - player.money, rule="XII.2",
                 reason="reset to the starting money")
    hooks.call(ctx).on_player_reset(ctx, player)
    player.square = lowest(ctx.state)
    ctx.emit("reset", f"{player.name}'s user was reset ({reason}): back to square "
                      f"{player.square} with ${player.money} and {health_of(ctx.state, player.name)} health.",
             player=player.name, rule="XII.1")


def resets_of(state: GameState, name: str) -> int:
    return HealthModule.of(state).resets.get(name, 0)


def set_health(state: GameState, name: str, value: int) -> None:
    HealthModule.of(state).health[name] = value
