"""The first Nomopoly's XXX: the Dirty Bubble drifts across the grid twice a week after the
players move (a d6 east, a d6 north, wrapping round), traps a player where it lands and carries
them along; a trapped player is freed when it catches someone else, or by feeding it a Donut with
Sprinkles (FEED BUBBLE). Firing paint at it (XXX.4) needs the paint guns of XXIX."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import grid_move
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import no_args
from admin.engine.errors import IllegalAction
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.donuts import DONUTS
from admin.games.nomopoly1.mechanics.latex import break_suit, wearing
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square


def _parse_feed(rest: str, _line: object) -> FeedBubble:
    no_args("FEED BUBBLE", rest)
    return FeedBubble()


@command("FEED BUBBLE", keyword="FEED BUBBLE", parse=_parse_feed, listing=150, rules=("XXX.4",),
         summary="while trapped in the Dirty Bubble, feed it a Donut with Sprinkles to be set free on its square",
         example="FEED BUBBLE")
class FeedBubble:
    """``FEED BUBBLE``: a Donut with Sprinkles sets its prisoner free (XXX.4)."""


@dataclass
class DirtyBubbleState:
    square: int = 1
    #: its colour, once paint has been fired at it (XXX.4)
    colour: str | None = None
    #: the player inside it (one at most, XXX.3)
    prisoner: str | None = None


class DirtyBubbleModule(Mechanic[DirtyBubbleState, None]):
    name = "dirty-bubble"
    rules = ("XXX.1", "XXX.2", "XXX.3", "XXX.4")
    stated = {"XXX.1": {"moves_per_week": ("makes {} moves a week",)}}
    defaults = {"moves_per_week": 2, "dice": 6}
    maximums = {'moves_per_week': 10}
    summary = "The Dirty Bubble drifts over the grid twice a week and traps a player where it lands."
    State = DirtyBubbleState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((FeedBubble, feed_bubble))

    def misses_turn(self, ctx: UpdateContext, player: Player) -> str | None:
        if self.of(ctx.state).prisoner == player.name:
            return "trapped in the Dirty Bubble, they travel with it (XXX.2)"
        return None

    def on_update_end(self, ctx: UpdateContext) -> None:
        """After the players' moves of the week: the Bubble's moves (XXX.1)."""
        if not ctx.slot.moves or not ctx.state.live_squares():
            return
        db = self.of(ctx.state)
        p = ctx.params(self.name)
        columns = int(ctx.params("board").get("columns", 10))
        for k in range(int(p["moves_per_week"])):
            right = ctx.dice.roll(f"bubble/{k}/east", int(p["dice"]))
            up = ctx.dice.roll(f"bubble/{k}/north", int(p["dice"]))
            start, db.square = db.square, grid_move(ctx.state, db.square, right, up, columns)
            ctx.emit("bubble", f"The Dirty Bubble drifted {right} east and {up} north, from square "
                               f"{start} to square {db.square}.", rule="XXX.1",
                     data={"from": start, "to": db.square, "east": right, "north": up})
            self._catch(ctx, k)

    def _catch(self, ctx: UpdateContext, k: int) -> None:
        db = self.of(ctx.state)
        prisoner = ctx.state.players.get(db.prisoner or "")
        if prisoner is not None:
            prisoner.square = db.square  # carried along: not a landing
        here = []
        for p in sorted(ctx.state.active_players(), key=lambda p: p.name):
            if p.square != db.square or p.name == db.prisoner:
                continue
            if wearing(ctx.state, p.name):  # XXXV.6: not trapped, and the suit is used up (XXXV.3)
                break_suit(ctx, p, "it kept the Dirty Bubble off")
                continue
            here.append(p.name)
        if not here:
            return
        caught = here[0] if len(here) == 1 else here[ctx.dice.roll(f"bubble/{k}/catch", len(here)) - 1]
        if prisoner is not None:  # XXX.3: the old prisoner is put out first, on this square
            ctx.emit("bubble", f"The Dirty Bubble let {prisoner.name} out on square {db.square}.",
                     player=prisoner.name, rule="XXX.3")
        db.prisoner = caught
        paint = api.PAINT.get(ctx.state)
        if db.colour and paint is not None:
            paint.players[caught] = db.colour
        ctx.emit("bubble", f"The Dirty Bubble trapped {caught} on square {db.square}"
                           + (f" and coloured them {db.colour}" if db.colour else "") + ".",
                 player=caught, rule="XXX.2")

    def on_player_removed(self, state: GameState, player: Player) -> None:
        db = self.of(state)
        if db.prisoner == player.name:
            db.prisoner = None

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        db = self.of(ctx.state)
        if db.prisoner == player.name:  # a reset player starts again outside it
            db.prisoner = None

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "in_bubble":
            return False
        db = self.of(state)
        if value:
            db.prisoner, player.square = player.name, db.square
        elif db.prisoner == player.name:
            db.prisoner = None
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("in_bubble", self.of(state).prisoner == player.name, label="In the Dirty Bubble",
                     kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        db = self.of(state)
        if square.number != db.square:
            return None
        inside = f", holding {db.prisoner}" if db.prisoner else ""
        return SquareLook(notes=((70, f"the Dirty Bubble{inside}"),), flags=((70, "DB", "Dirty Bubble"),))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        if self.of(state).prisoner != player.name:
            return []
        return [(67, "  You are trapped in the Dirty Bubble: FEED BUBBLE (a Donut with Sprinkles) frees you")]


def feed_bubble(ctx: UpdateContext, player: Player, cmd: FeedBubble) -> str:
    db = DirtyBubbleModule.of(ctx.state)
    if db.prisoner != player.name:
        raise IllegalAction("you are not in the Dirty Bubble")
    donuts = api.DONUTS.get(ctx.state)
    if donuts is None:
        raise IllegalAction("there are no donuts in this game")
    held = donuts.held
    if not held.count(player.name, DONUTS[2]):
        raise IllegalAction("you hold no Donut with Sprinkles; the Bubble takes nothing else")
    held.take(player.name, DONUTS[2])
    db.prisoner = None
    player.square = db.square
    return f"{player.name} fed the Dirty Bubble a Donut with Sprinkles and was set free on square {db.square}."
