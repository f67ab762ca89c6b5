"""The first Nomopoly's XXXV: latex body suits, bought at the General Store and worn (WEAR SUIT,
TAKE OFF SUIT). A suit keeps the Dirty Bubble off its wearer (and is used up doing it), breaks when
paint or a weapon hits its wearer, and wears out one week in eighty, costing 3 health."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly1.mechanics.store import items_of, take_item
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

SUIT = "latex body suit"


@command("WEAR [LATEX BODY] SUIT", usage="WEAR SUIT", fixed={"on": True}, hint="write WEAR SUIT or TAKE OFF SUIT",
         listing=200, rules=("XXXV.1",),
         summary="put on a latex body suit you hold (one at a time; not while you hold paint thinner)",
         example="WEAR SUIT")
@command("TAKE OFF [LATEX BODY] SUIT", usage="TAKE OFF SUIT", fixed={"on": False},
         hint="write WEAR SUIT or TAKE OFF SUIT", listing=201, rules=("XXXV.1",),
         summary="take your suit off (it goes back among your items)", example="TAKE OFF SUIT")
class Suit:
    """``WEAR SUIT`` / ``TAKE OFF SUIT`` (XXXV.1)."""

    on: bool


@dataclass
class LatexState:
    #: the players wearing a suit
    wearing: list[str] = field(default_factory=list)


class LatexModule(Mechanic[LatexState, None]):
    name = "latex-suits"
    rules = ("XXXV.1", "XXXV.2", "XXXV.3", "XXXV.4", "XXXV.5", "XXXV.6")
    stated = {"XXXV.4": {"wear_out_in": ("from wear one time in {},",),
                         "wear_out_health": ("its wearer loses {} health",)}}
    defaults = {"wear_out_in": 80, "wear_out_health": 3}
    summary = "Latex body suits keep the Dirty Bubble off; they break under paint and weapons."
    State = LatexState
    requires = ("store",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Suit, suit))

    def on_turns(self, ctx: UpdateContext) -> None:
        """Each week, before the moves: one chance in eighty that a worn suit wears out (XXXV.4)."""
        if not ctx.slot.week_end:
            return
        p = ctx.params(self.name)
        for name in sorted(self.of(ctx.state).wearing):
            player = ctx.state.players.get(name)
            if player is None or not player.active:
                continue
            if ctx.dice.roll(f"suit/{name}", int(p["wear_out_in"])) == 1:
                break_suit(ctx, player, "it wore out")
                change_health(ctx, player, -int(p["wear_out_health"]), rule="XXXV.4", reason="a suit that broke")

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self._off(ctx.state, player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self._off(state, player.name)

    def _off(self, state: GameState, name: str) -> None:
        ls = self.of(state)
        ls.wearing = [n for n in ls.wearing if n != name]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "suit":
            return False
        self._off(state, player.name)
        if value:
            self.of(state).wearing = sorted(self.of(state).wearing + [player.name])
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("suit", wearing(state, player.name), label="Wears a latex body suit", kind="text")]


def wearing(state: GameState, name: str) -> bool:
    return state.enabled(LatexModule.name) and name in LatexModule.of(state).wearing


def break_suit(ctx: UpdateContext, player: Player, why: str) -> None:
    """The player's suit is gone (XXXV.3, XXXV.5)."""
    ls = LatexModule.of(ctx.state)
    if player.name in ls.wearing:
        ls.wearing.remove(player.name)
        ctx.emit("suit", f"{player.name}'s latex body suit broke: {why}.", player=player.name, rule="XXXV.3")


def suit(ctx: UpdateContext, player: Player, cmd: Suit) -> str:
    ls = LatexModule.of(ctx.state)
    if cmd.on:
        if player.name in ls.wearing:
            raise IllegalAction("you wear a suit already; one at a time (XXXV.1)")
        if items_of(ctx.state).count(player.name, "paint thinner"):
            raise IllegalAction("you hold paint thinner: no latex body suit while you do (XXXV.2)")
        take_item(ctx, player, SUIT, "buy one at a General Store (BUY LATEX BODY SUIT)")
        ls.wearing = sorted(ls.wearing + [player.name])
        return f"{player.name} put on a latex body suit."
    if player.name not in ls.wearing:
        raise IllegalAction("you wear no suit")
    ls.wearing.remove(player.name)
    items_of(ctx.state).give(player.name, SUIT)
    return f"{player.name} took off their latex body suit."
