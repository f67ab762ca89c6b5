"""The first Nomopoly's XIX: the one Hot Potato. Whoever holds it loses a health point each time
they move and hands it to the nearest player ahead; at each week's end it burns its holder and
everyone on their square."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from admin.engine.board import nearest_ahead as board_nearest
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.library.health import change_health
from admin.library.trading import RefusesTrade
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.blob import BLOB, blob_square, hurt
from admin.engine.model import GameState

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Player


@dataclass
class HotPotatoState:
    #: who holds it (None: nobody yet, or its holder left the game: a new one is made, XIX.4)
    holder: str | None = None


def nearest_ahead(state: GameState, name: str) -> list[str]:
    """Who is nearest ``name`` (a player, or the Blob) going forward from their square (XIX.2),
    the Blob among them (XXXI.5); those on the same square are nearest of all (a standing ruling)."""
    where = {p.name: p.square for p in state.active_players()}
    if blob_square(state) is not None:
        where[BLOB] = blob_square(state)  # type: ignore[assignment]
    start = where.pop(name, 0)
    return board_nearest(state, start, where)


class HotPotatoModule(Mechanic[HotPotatoState, None], RefusesTrade):
    name = "hot-potato"
    rules = ("XIX.1", "XIX.2", "XIX.3", "XIX.4", "XIX.5")
    stated = {"XIX.2": {"move_loss": ("they lose {} health and the potato passes",)}}
    defaults = {"move_loss": 1, "week_loss": 5}
    summary = "One Hot Potato: it costs its holder health and passes to the nearest player ahead."
    State = HotPotatoState
    requires = ("health",)

    def on_update_start(self, ctx: UpdateContext) -> None:
        """A new potato for a random player when there is none (at the start; after its holder left)."""
        hp = self.of(ctx.state)
        names = sorted(p.name for p in ctx.state.active_players())
        if hp.holder in names or (hp.holder == BLOB and blob_square(ctx.state) is not None) or not names:
            return
        hp.holder = names[ctx.dice.roll("hot-potato/new", len(names)) - 1]
        ctx.emit("hot-potato", f"A new Hot Potato was made and given to {hp.holder}.", player=hp.holder,
                 rule="XIX.4")

    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        hp = self.of(ctx.state)
        if hp.holder != player.name or not player.active:
            return
        change_health(ctx, player, -int(ctx.params(self.name)["move_loss"]), rule="XIX.2",
                      reason="holding the Hot Potato as they moved")
        self._pass(ctx, player.name, f"hot-potato/{player.name}/{turn}")

    def on_update_end(self, ctx: UpdateContext) -> None:
        """The Blob holding it moved this update (XXXI.5): it pays and passes it as a player would."""
        hp = self.of(ctx.state)
        if hp.holder == BLOB and api.BLOB_MOVED.peek(ctx):
            hurt(ctx, int(ctx.params(self.name)["move_loss"]), "holding the Hot Potato as it moved")
            self._pass(ctx, BLOB, "hot-potato/blob")

    def _pass(self, ctx: UpdateContext, holder: str, label: str) -> None:
        nearest = nearest_ahead(ctx.state, holder)
        if not nearest:
            return
        pick = nearest[0] if len(nearest) == 1 else nearest[ctx.dice.roll(label, len(nearest)) - 1]
        self.of(ctx.state).holder = pick
        ctx.emit("hot-potato", f"{'The Blob' if holder == BLOB else holder} passed the Hot Potato to "
                               f"{'the Blob' if pick == BLOB else pick}.",
                 player=None if holder == BLOB else holder, rule="XIX.2", data={"to": pick})

    def on_turns(self, ctx: UpdateContext) -> None:
        """At the week's end, before the next week's moves: it burns (XIX.3)."""
        hp = self.of(ctx.state)
        if not ctx.slot.week_end:
            return
        loss = int(ctx.params(self.name)["week_loss"])
        if hp.holder == BLOB:
            square = blob_square(ctx.state)
            hurt(ctx, loss, "holding the Hot Potato")
        else:
            holder = ctx.state.players.get(hp.holder or "")
            if holder is None or not holder.active:
                return
            square = holder.square
        for p in sorted(ctx.state.active_players(), key=lambda p: (p.name != hp.holder, p.name)):
            if p.square == square and p.active:
                change_health(ctx, p, -loss, rule="XIX.3",
                              reason="holding the Hot Potato" if p.name == hp.holder
                              else f"sharing square {square} with the Hot Potato")

    # XIX.5: a reset holder keeps it (nothing to do); a holder who leaves takes it out of the game
    def on_player_removed(self, state: GameState, player: Player) -> None:
        hp = self.of(state)
        if hp.holder == player.name:
            hp.holder = None

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "hot_potato":
            return False
        hp = self.of(state)
        if value:
            hp.holder = player.name
        elif hp.holder == player.name:
            hp.holder = None
        return True

    def refuses_trade(self, state: GameState, kind: str, value: Any) -> str | None:
        """XIX.1: the Hot Potato cannot be traded (admin.library.trading's RefusesTrade)."""
        if kind == "item" and str(value).lower().replace("-", " ").strip() in ("hot potato", "hot potatoes"):
            return "the Hot Potato cannot be used, given away or traded (XIX.1)"
        return None

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        held = self.of(state).holder == player.name
        return [Fact("hot_potato", held, label="Holds the Hot Potato", column="Hot Potato", order=75,
                     kind="text")]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        if self.of(state).holder != player.name:
            return []
        return [(66, "  You hold the Hot Potato: it costs you 1 health each move and 5 at the week's end")]
