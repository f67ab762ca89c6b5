"""The first Nomopoly's XV: each week a player may give $10 to one of three fountains; at the end of
the week a die is rolled for each player at each fountain, rewarding donors and punishing the rest.

The Fountain of Spacetime warps a lucky donor into the Parallel Universe (XXVII), to come back
where they were."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health, health_of
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.parallel import Traveller, warp_in
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

FOUNTAINS = ("health", "wealth", "spacetime")


def _parse(rest: str, _line: object) -> Donate:
    word = rest.strip().lower().removeprefix("to ").removeprefix("the ").removeprefix("fountain of ").strip()
    if word not in FOUNTAINS:
        raise CommandError("name the fountain: DONATE HEALTH, DONATE WEALTH or DONATE SPACETIME "
                           "(to give to none, send nothing)")
    return Donate(word)


@command("DONATE <fountain:HEALTH|WEALTH|SPACETIME>", parse=_parse, listing=130, rules=("XV.1",),
         summary="give $10 to a fountain this week (at most one); at the week's end a die decides what each "
                 "fountain does to you",
         example="DONATE WEALTH")
class Donate:
    """``DONATE HEALTH|WEALTH|SPACETIME`` (XV.1)."""

    fountain: str


@dataclass
class FountainsState:
    #: this week's donations: player -> fountain (paid when made, used at the week's end)
    donations: dict[str, str] = field(default_factory=dict)


class FountainsModule(Mechanic[FountainsState, None]):
    name = "fountains"
    rules = ("XV.1", "XV.2")
    stated = {"XV.1": {"donation": ("may donate ${} to one fountain",)},
              "XV.2": {"health_step": ("who rolls 4-6 gains {} health",),
                       "health_max": ("health (up to {});",),
                       "wealth_gain": ("who rolls 4-6 receives ${}",),
                       "wealth_loss": ("who rolls 1-3 loses ${}",)}}
    defaults = {"donation": 10, "health_step": 10, "health_max": 100, "wealth_gain": 30, "wealth_loss": 50}
    summary = "Give $10 a week to the Fountain of Health, Wealth or Spacetime; a die decides its effect."
    State = FountainsState
    requires = ("health",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Donate, donate))

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end, before the next week's moves: a d6 for each player at each fountain."""
        if not ctx.slot.week_end:
            return
        fs = self.of(ctx.state)
        p = ctx.params(self.name)
        for player in sorted(ctx.state.active_players(), key=lambda pl: pl.name):
            gave = fs.donations.get(player.name)
            for fountain in FOUNTAINS:  # XV.2: a die for each fountain, the Spacetime's too (it
                # does nothing to those who did not give to it, but it is rolled for them)
                face = ctx.dice.roll(f"fountain/{player.name}/{fountain}", 6)
                _effect(ctx, player, fountain, gave == fountain, face, p)
                if not player.active:
                    break
        fs.donations.clear()

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).donations.pop(player.name, None)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("fountain", self.of(state).donations.get(player.name, "none"), label="Fountain this week",
                     kind="text")]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        gave = self.of(state).donations.get(player.name)
        return [(65, f"  Fountain this week: {gave or 'none (DONATE HEALTH, WEALTH or SPACETIME)'}")]


def _effect(ctx: UpdateContext, player: Player, fountain: str, donor: bool, face: int, p: dict[str, Any]) -> None:
    high = face >= 4
    said = f"the Fountain of {fountain.capitalize()} rolled {face}"
    if fountain == "health":
        if donor and high:
            gain = max(0, min(int(p["health_step"]), int(p["health_max"]) - health_of(ctx.state, player.name)))
            if gain:
                change_health(ctx, player, gain, rule="XV.2", reason=said)
        elif not donor and not high:
            change_health(ctx, player, -int(p["health_step"]), rule="XV.2", reason=said)
    elif fountain == "wealth":
        if donor and high:
            ctx.transfer(BANK, player.name, int(p["wealth_gain"]), rule="XV.2", reason=said, kind="bonus")
            ctx.emit("fountain", f"{player.name} received {ctx.state.money(int(p['wealth_gain']))}: {said}.",
                     player=player.name, rule="XV.2")
        elif not donor and not high:
            ctx.transfer(player.name, BANK, int(p["wealth_loss"]), rule="XV.2", reason=said)
            ctx.emit("fountain", f"{player.name} lost {ctx.state.money(int(p['wealth_loss']))}: {said}.",
                     player=player.name, rule="XV.2")
    elif not donor:  # spacetime does nothing to those who did not give to it (XV.2)
        return
    elif high and api.PARALLEL.on(ctx.state):  # spacetime, a donor: back where they were
        warp_in(ctx, player, Traveller("square", player.square), said)
    elif high:
        ctx.emit("admin", f"{player.name} is warped into the Parallel Universe ({said}, XV.2), but this "
                          "game has no Parallel Universe: the Admin decides.", rule="XV.2")


def donate(ctx: UpdateContext, player: Player, cmd: Donate) -> str:
    fs = FountainsModule.of(ctx.state)
    if player.name in fs.donations:
        raise IllegalAction(f"you gave to the Fountain of {fs.donations[player.name].capitalize()} this "
                            "week already; one fountain a week (XV.1)")
    amount = int(ctx.params("fountains")["donation"])
    ctx.transfer(player.name, BANK, amount, rule="XV.1", reason=f"the Fountain of {cmd.fountain.capitalize()}",
                 voluntary=True)
    fs.donations[player.name] = cmd.fountain
    return f"{player.name} gave {ctx.state.money(amount)} to the Fountain of {cmd.fountain.capitalize()}."
