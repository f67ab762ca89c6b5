"""The first Nomopoly's XIII and XIV.2-3: a bankrupt player (less than $1) may not propose, vote or
choose; any player may reset their own user, at most once a week."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.syntax import no_args
from admin.engine.errors import IllegalAction
from admin.library.health import reset_player
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState


def _parse_reset(rest: str, _line: object) -> ResetMe:
    no_args("RESET ME", rest)
    return ResetMe()


@command("RESET ME", keyword="RESET ME", parse=_parse_reset, listing=140, rules=("XIV.2",),
         summary="start again as a new player: your squares and items go, you get the starting money and "
                 "health back on square 1 (once a week)",
         example="RESET ME")
class ResetMe:
    """``RESET ME``: reset one's own user (XIV.2)."""


class BankruptcyModule(Mechanic[None, None]):
    name = "bankruptcy"
    rules = ("XIII.1",)
    # below this much money a player is bankrupt (the first Nomopoly: less than $1)
    defaults = {"below": 1}
    summary = "A player with less than $1 is bankrupt and may not propose, vote or make choices."

    def on_update_start(self, ctx: UpdateContext) -> None:
        """Judged once, as the update begins (a standing ruling): the commands of a player who is
        bankrupt then are refused, whatever the order of the actions."""
        below = int(ctx.params(self.name)["below"])
        ctx.barred |= {p.name for p in ctx.state.active_players() if p.money < below}

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        below = int(state.params(self.name).get("below", self.defaults["below"]))
        return [Fact("bankrupt", player.money < below, label="Bankrupt", kind="text")]


@dataclass
class SelfResetState:
    #: the week in which each player last reset their own user (XIV.3)
    last_week: dict[str, int] = field(default_factory=dict)


class SelfResetModule(Mechanic[SelfResetState, None]):
    name = "self-reset"
    rules = ("XIV.2", "XIV.3")
    defaults = {}
    summary = "A player may reset their own user, once a week at most."
    State = SelfResetState
    requires = ("health",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((ResetMe, reset_me))

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).last_week.pop(player.name, None)


def reset_me(ctx: UpdateContext, player: Player, cmd: ResetMe) -> str:
    last = SelfResetModule.of(ctx.state).last_week
    if last.get(player.name) == ctx.state.week:
        raise IllegalAction("you reset your user this week already; once a week at most (XIV.3)")
    last[player.name] = ctx.state.week
    reset_player(ctx, player, reason="at their own request, XIV.2")
    return f"{player.name} reset their own user."
