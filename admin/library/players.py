"""III: joining between weeks (III.4) and removal after 3 weeks with no voluntary action (III.5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine import hooks
from admin.engine.context import BANK
from admin.engine.module import Mechanic

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player


@dataclass
class PlayersState:
    #: the last week in which each player took a voluntary action (III.5)
    last_action: dict[str, int] = field(default_factory=dict)


class PlayersModule(Mechanic[PlayersState, None]):
    name = "players"
    rules = ("III.1", "III.2", "III.4", "III.5")
    defaults = {"inactive_weeks": 3}
    stated = {"III.5": {"inactive_weeks": ("for {} weeks in a row",)}}
    summary = "Players join with the Admin's approval; 3 weeks with no voluntary action and they are removed."
    State = PlayersState

    def setup(self, state: GameState) -> None:
        super().setup(state)
        if state.update:  # enabled mid-game: everyone's three weeks start now
            last = self.of(state).last_action
            for name in last:
                last[name] = max(last[name], state.week)

    def on_player_added(self, state: GameState, player: Player) -> None:
        # a player who joins has until three weeks from their first week (III.4, III.5)
        self.of(state).last_action[player.name] = player.joined_week - 1

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "last_action_week":
            return False
        self.of(state).last_action[player.name] = int(value)
        return True

    def on_action(self, ctx: UpdateContext, player: Player, command: Any) -> None:
        self.of(ctx.state).last_action[player.name] = ctx.state.week

    def on_update_end(self, ctx: UpdateContext) -> None:
        if not ctx.slot.week_end:
            return
        weeks = int(ctx.params("players")["inactive_weeks"])
        for player in sorted(ctx.state.active_players(), key=lambda p: p.name):
            if ctx.state.week - self.of(ctx.state).last_action.get(player.name, 0) >= weeks:
                remove_player(ctx, player, f"no voluntary action for {weeks} weeks (III.5)")


def remove_player(ctx: UpdateContext, player: Player, reason: str) -> None:
    ctx.transfer(player.name, BANK, player.money, rule="III.5", reason="removal from the game")
    hooks.call(ctx).on_player_removed(ctx.state, player)
    player.status = "removed"
    ctx.emit("removed", f"{player.name} was removed from the game: {reason}.", player=player.name,
             rule="III.5")
