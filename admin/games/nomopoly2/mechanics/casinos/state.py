"""The Casinos' state and what their games and items share (XXXIII): the casinos' takings, the
players' plays and items, and the money that goes in and out. A leaf: the module
(:mod:`casinos`), its games (:mod:`casino_games`) and its items (:mod:`casino_items`) read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.context import BANK
from admin.engine.inventory import Inventory
from admin.engine.errors import IllegalAction
from admin.games.nomopoly2.api import CASINO_PLAYS
from admin.games.nomopoly2.mechanics.shared import block_of, has_building, squares_with
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

#: the module's name, and its state in a game
NAME = "casinos"


ITEM_PRICES = {"flower": 10, "weighted-die": 100, "salad": 200, "auto-shuffler": 250, "grease": 500,
               "joker": 1250}


@dataclass
class CasinosState:
    #: square -> this week's takings of its casino: "in" (bets and sales), "out" (winnings paid)
    takings: dict[int, dict[str, int]] = field(default_factory=dict)
    #: the last week settled (XXXIII.6), one row a casino: square, owner, in, out, net, percent, share
    last_week: list[dict[str, Any]] = field(default_factory=list)
    #: the number of the week ``last_week`` describes
    last_week_number: int = 0
    #: the casino items each player holds (XXXIII.5): flower, weighted-die, salad, auto-shuffler, grease
    items: Inventory = field(default_factory=Inventory)
    #: greased squares (XXXIII.5)
    greased: list[int] = field(default_factory=list)
    #: player -> the face their next turn's first die shows (a Weighted Die used, XXXIII.5)
    weighted: dict[str, int] = field(default_factory=dict)
    #: player -> the update they last ate a salad in (one an update, XXXIII.5)
    salad: dict[str, int] = field(default_factory=dict)


@dataclass
class CasinosPrivate:
    #: open Blackjack hand (its question's number) -> the dealer's hole card, secret until the end
    hole: dict[int, str] = field(default_factory=dict)


def of(state: GameState) -> CasinosState:
    cs: CasinosState = state.mods[NAME]
    return cs


def private_of(state: GameState) -> CasinosPrivate:
    secret: CasinosPrivate = state.private.mods[NAME]
    return secret


def casino_here(state: GameState, player: Player, what: str) -> int:
    """The square of the casino ``player`` stands on, or a refusal quoting where they are."""
    if not has_building(state, player.square, "casino"):
        raise IllegalAction(f"you are on square {player.square}, which has no Casino; you may {what} only "
                            "while on a square with a Casino (XXXIII.2, XXXIII.5)")
    return player.square


def check_play(ctx: UpdateContext, player: Player) -> None:
    """Refuse a fourth play in one update (XXXIII.2)."""
    limit = int(ctx.params(NAME)["plays_per_update"])
    done = (CASINO_PLAYS.peek(ctx) or {}).get(player.name, 0)
    if done >= limit:
        raise IllegalAction(f"you have played {done} times in this update; a player may not play more than "
                            f"{limit} times in a single update (XXXIII.2)")


def note_play(ctx: UpdateContext, player: Player) -> int:
    """Count a play (after it was made); returns its number in this update (0 first)."""
    plays = CASINO_PLAYS.of(ctx)
    n = plays.get(player.name, 0)
    plays[player.name] = n + 1
    return n


def take_in(state: GameState, square: int, amount: int) -> None:
    """A bet or a sale at the casino on ``square`` (its net profit, XXXIII.6)."""
    t = of(state).takings.setdefault(square, {"in": 0, "out": 0})
    t["in"] = int(t.get("in", 0)) + amount


def pay_out(ctx: UpdateContext, square: int, player: str, amount: int, *, rule: str, reason: str) -> None:
    """Winnings the casino on ``square`` pays (from the Admin Bank Account)."""
    if amount <= 0:
        return
    ctx.transfer(BANK, player, amount, rule=rule, reason=reason, kind="prize")
    t = of(ctx.state).takings.setdefault(square, {"in": 0, "out": 0})
    t["out"] = int(t.get("out", 0)) + amount


def owner_percent(state: GameState, number: int, params: dict[str, Any]) -> tuple[str, int]:
    """The kind of block square ``number`` is in ("none" if none) and its owner's percentage of the
    casino's net profit (XXXIII.6)."""
    block = block_of(state, number)
    if block is None:
        return "none", int(params["no_block_percent"])
    return block.kind, int(dict(params["owner_percent"]).get(block.kind, 0))


def weekly(ctx: UpdateContext) -> None:
    """The week's end: $50 to the owner of each casino's square (XXXIII.1), then each casino's net
    profit shared with (or its loss charged to) its square's owner (XXXIII.6)."""
    state, cs = ctx.state, of(ctx.state)
    p = ctx.params(NAME)
    income = int(p["weekly_income"])
    for n in squares_with(state, "casino"):
        owner = owner_of(state, n)
        if owner is None or not state.players[owner].active or income <= 0:
            continue
        ctx.transfer(BANK, owner, income, rule="XXXIII.1", reason=f"the Casino on square {n}", kind="income")
        ctx.emit("casino", f"{owner} received {state.money(income)} from the Casino on square {n}.",
                 player=owner, rule="XXXIII.1", data={"square": n, "amount": income})
    rows = []
    for n in sorted(cs.takings):
        t = cs.takings[n]
        taken, paid = int(t.get("in", 0)), int(t.get("out", 0))
        net = taken - paid
        owner = owner_of(state, n)
        if owner is not None and not state.players[owner].active:
            owner = None
        _, percent = owner_percent(state, n, p)
        share = (1 if net >= 0 else -1) * (abs(net) * percent // 100)
        if share < 0 and not p["owner_bears_losses"]:
            share = 0
        if owner is None:
            share = 0
        elif share > 0:
            ctx.transfer(BANK, owner, share, rule="XXXIII.6", reason=f"{percent}% of the net profit of the Casino on square {n}")
            ctx.emit("casino", f"{owner} received {state.money(share)}, {percent}% of the Casino on square {n}'s "
                               f"net profit of {state.money(net)} this week.", player=owner, rule="XXXIII.6",
                     data={"square": n, "net": net, "share": share})
        elif share < 0:
            ctx.transfer(owner, BANK, -share, rule="XXXIII.6", reason=f"{percent}% of the loss of the Casino on square {n}")
            ctx.emit("casino", f"{owner} paid {state.money(-share)}, {percent}% of the Casino on square {n}'s "
                               f"loss of {state.money(-net)} this week.", player=owner, rule="XXXIII.6",
                     data={"square": n, "net": net, "share": share})
        rows.append({"square": n, "owner": owner, "in": taken, "out": paid, "net": net, "percent": percent,
                     "share": share})
    cs.last_week, cs.last_week_number = rows, state.week
    cs.takings = {}


def items_held(state: GameState, player: str) -> dict[str, int]:
    """The casino items ``player`` holds (XXXIII.5), item -> how many (for a trade, XX.1)."""
    return of(state).items.items(player)


def transfer_item(state: GameState, giver: str, receiver: str, item: str, n: int = 1) -> None:
    """Casino items change hands (a trade, XX.1); IllegalAction if ``giver`` holds too few."""
    of(state).items.transfer(giver, receiver, item, n)
