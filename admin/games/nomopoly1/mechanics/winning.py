"""The first Nomopoly's III.2-III.5: after every update, a player who meets five of the seven
winning conditions and none of the seven bars wins (ties broken as III.4 says, and players still
tied all win); a game ended without a winner goes to the highest net worth (III.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.module import Mechanic
from admin.engine.errors import RuleError
from admin.library.api import OWNERSHIP
from admin.library.health import health_of
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.blocks import blocks
from admin.games.nomopoly1.mechanics.donuts import DONUTS
from admin.games.nomopoly1.mechanics.store import COLOURS
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import Square
    from admin.engine.module import RulingHandler

CONDITIONS = ("110% of everyone's money", "two blocks", "a block of three", "the most squares",
              "their colour is a block's", "a painted square of every colour", "every square this week")
BARS = ("holds the Hot Potato", "holds a poison donut", "bankrupt", "under 50 health",
        "shares their colour with two others", "in the Parallel Universe", "in the Dirty Bubble")


class WinningModule(Mechanic[None, None]):
    name = "winning"
    rules = ("III.2", "III.3", "III.4", "III.5")
    stated = {"III.2": {"money_percent": ("have at least {}% of the money",),
                        "min_health": ("having under {} health",)}}
    defaults = {"needed": 5, "money_percent": 110, "min_health": 50}
    summary = "Five of seven winning conditions, and none of seven bars, wins after any update."

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        self.on_pass_over(ctx, player, square.number)

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        """III.2's seventh condition: the squares each player passed or landed on this update."""
        api.VISITED.of(ctx).setdefault(player.name, set()).add(number)

    def on_update_start(self, ctx: UpdateContext) -> None:
        api.BOARD_AT_START.put(ctx, {s.number for s in ctx.state.live_squares()})

    def rulings(self) -> dict[str, RulingHandler]:
        return {"end-game": _end_game}

    def on_update_end(self, ctx: UpdateContext) -> None:
        state = ctx.state
        if state.ended:
            return
        visited = (api.VISITED.peek(ctx) or {}) if ctx.slot.moves else {}
        board = api.BOARD_AT_START.peek(ctx) or set()
        scores = {}
        for p in sorted(state.active_players(), key=lambda pl: pl.name):
            met = conditions(ctx, p, visited.get(p.name, set()), board)
            if sum(met) >= int(ctx.params(self.name)["needed"]) and not any(bars(ctx, p)):
                scores[p.name] = met
        if not scores:
            return
        winners = _break_tie(state, scores)
        state.winner = " and ".join(winners)
        state.ended = True
        state.end_reason = "III.2"
        met = scores[winners[0]]
        ctx.emit("winner", f"{state.winner} won the game (III.2): "
                           + ", ".join(c for c, ok in zip(CONDITIONS, met) if ok) + ".", rule="III.2")


def _owned(state: GameState, name: str) -> list[int]:
    return [s.number for s in OWNERSHIP.of(state).owned_by(state, name)]


def conditions(ctx: UpdateContext, player: Player, visited: set[int], board: set[int]) -> list[bool]:
    state = ctx.state
    p = ctx.params(WinningModule.name)
    others = [o for o in state.active_players() if o.name != player.name]
    mine = [(colour, sq) for owner, colour, sq in blocks(state) if owner == player.name]
    owned = _owned(state, player.name)
    paint = api.PAINT.get(state)
    my_colour = paint.players.get(player.name) if paint else None
    painted = {paint.squares[n] for n in owned if n in paint.squares} if paint else set()
    return [
        all(player.money * 100 >= int(p["money_percent"]) * o.money for o in others),
        len(mine) >= 2,
        any(len(sq) >= 3 for _, sq in mine),
        all(len(owned) > len(_owned(state, o.name)) for o in others),
        my_colour is not None and any(c == my_colour for c, _ in mine),
        set(COLOURS) <= painted,
        bool(board) and board <= visited,
    ]


def bars(ctx: UpdateContext, player: Player) -> list[bool]:
    state = ctx.state
    p = ctx.params(WinningModule.name)
    paint = api.PAINT.get(state)
    colour = paint.players.get(player.name) if paint else None
    same = sum(1 for n, c in (paint.players.items() if paint else ()) if c == colour and n != player.name)
    potato, donuts = api.HOT_POTATO.get(state), api.DONUTS.get(state)
    universe, bubble = api.PARALLEL.get(state), api.DIRTY_BUBBLE.get(state)
    return [
        potato is not None and potato.holder == player.name,
        donuts is not None and donuts.held.count(player.name, DONUTS[0]) > 0,
        player.money < 1,
        health_of(state, player.name) < int(p["min_health"]),
        colour is not None and same >= 2,
        universe is not None and player.name in universe.inside,
        bubble is not None and bubble.prisoner == player.name,
    ]


def _end_game(ctx: UpdateContext, r: Ruling) -> str:
    """``nomopoly ruling end-game``: with no winner named, the highest net worth wins (III.5)."""
    state = ctx.state
    if r.args.get("winner") and r.args["winner"] not in state.players:
        raise RuleError(f"the winner named, {r.args['winner']!r}, is not a player")
    state.ended = True
    state.end_reason = r.note or "ended by the Admin"
    state.winner = r.args.get("winner")
    if not state.winner:
        worth = {p.name: ctx.registry.net_worth(state, p) for p in state.active_players()}
        if worth:
            best = max(worth.values())
            state.winner = " and ".join(sorted(n for n, w in worth.items() if w == best))
            ctx.emit("winner", f"{state.winner} won on net worth ({state.money(best)}), as III.5 says "
                               "when the game ends with no winner.", rule="III.5")
    return f"The Admin ended the game: {state.end_reason}."


def _break_tie(state: GameState, scores: dict[str, list[bool]]) -> list[str]:
    """III.4: the most conditions met, then the most squares, the most money, the most blocks, the
    largest block; players still level all win."""
    def key(name: str) -> tuple[int, ...]:
        mine = [sq for owner, _, sq in blocks(state) if owner == name]
        return (sum(scores[name]), len(_owned(state, name)), state.players[name].money, len(mine),
                max((len(sq) for sq in mine), default=0))

    best = max(key(n) for n in scores)
    return sorted(n for n in scores if key(n) == best)
