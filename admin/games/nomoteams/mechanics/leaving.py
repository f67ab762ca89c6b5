"""II.8 and II.9: leaving the game, with one of five ways to dispose of one's assets, and the
Ex-Scammer.

``LEAVE`` (The Government, the default), ``LEAVE CORPORATION``, ``LEAVE RANDOM``, ``LEAVE TEAM``
or ``LEAVE TO <player>``. Objects are whatever the enabled modules keep (``shared.objects_of``; so far
the Zoo's Souvenir Hats)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Panel, Table
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import (CORPORATION, GOVERNMENT, live_player, market_value, move_object,
                                              objects_of, squares_of)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.events import Ruling
    from admin.engine.module import CommandSpec, RulingHandler

METHODS = ("GOVERNMENT", "CORPORATION", "RANDOM", "TEAM", "TO")


def _parse_leave(rest: str, line: object) -> Leave:
    words = rest.split()
    if not words:
        return Leave()
    method = words[0].upper()
    if method == "TO" and len(words) == 2:
        return Leave("TO", words[1])
    if method in METHODS[:4] and len(words) == 1:
        return Leave(method)
    raise CommandError(f"LEAVE takes GOVERNMENT, CORPORATION, RANDOM, TEAM or TO <player> (or nothing: The "
                       f"Government); found {rest.strip()!r}.")


def _parse_corporate(rest: str, line: object) -> BuyFromCorporation:
    from admin.engine.syntax import parse_square

    words = rest.split(None, 1)
    if len(words) != 2 or words[0].upper() != "CORPORATION":
        raise CommandError(f"BUY FROM CORPORATION needs a square, like BUY FROM CORPORATION 14; found {rest!r}.")
    return BuyFromCorporation(parse_square(words[1]))


@command("LEAVE [GOVERNMENT|CORPORATION|RANDOM|TEAM|TO <to:player>]", parse=_parse_leave, cmd="teams-leave",
         listing=150, summary="leave the game, saying who gets your money, squares and objects",
         example="LEAVE TO bob", rules=("II.8",))
class Leave:
    """``LEAVE [GOVERNMENT|CORPORATION|RANDOM|TEAM|TO <player>]`` (II.8)."""

    method: str = "GOVERNMENT"
    to: str | None = None


@command("BUY FROM CORPORATION <square>", keyword="BUY FROM", parse=_parse_corporate, cmd="teams-buy-corporate",
         listing=11, summary="buy a square The Corporation sells, at 120% of its market value",
         example="BUY FROM CORPORATION 14", rules=("II.8",))
class BuyFromCorporation:
    """``BUY FROM CORPORATION <square>`` (II.8: 120% of market value, first come first served)."""

    square: int


@dataclass
class LeavingState:
    #: square -> its price: what The Corporation sells from leavers (II.8)
    for_sale: dict[int, int] = field(default_factory=dict)
    #: who left, and in which week (II.9 looks a week ahead)
    left: dict[str, int] = field(default_factory=dict)
    #: Ex-Scammers the Admin named (II.9)
    ex_scammers: list[str] = field(default_factory=list)


class LeavingModule(Mechanic[LeavingState, None]):
    name = "teams-leaving"
    rules = ("II.8", "II.9")
    stated = {"II.8": {"corporate_markup_percent": ("for sale at {}% of their market value",)}}
    defaults = {"bundle": 200, "corporate_markup_percent": 120}
    minimums = {"bundle": 1}  # the money a thing holds: never 0 (the money is cut into bundles)
    summary = "Leaving the game: five ways to dispose of one's assets; the Ex-Scammer."
    State = LeavingState

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        sale = self.of(state).for_sale  # XVIII.2: still on sale, under its new number
        if old in sale:
            sale[new] = sale.pop(old)

    def on_square_added(self, state: GameState, square: Square) -> None:
        if square.destroyed:
            self.of(state).for_sale.pop(square.number, None)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Leave, leave), (BuyFromCorporation, buy_corporate))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"ex-scammer": _ex_scammer}

    def panels(self, state: GameState) -> list[Panel]:
        ls = self.of(state)
        if not ls.for_sale and not ls.ex_scammers:
            return []
        return [Panel("corporation", "The Corporation's sales",
                      "Squares The Corporation sells at 120% of their market value (II.8): BUY FROM CORPORATION <n>.",
                      (Table("For sale", ("Square", "Price"), tuple((n, state.money(p)) for n, p in
                                                                    sorted(ls.for_sale.items()))),
                       Table("Ex-Scammers (II.9)", ("Player",), tuple((n,) for n in ls.ex_scammers))), order=18)]


def _take_all(ctx: UpdateContext, player: Player) -> tuple[int, list[int], dict[str, int]]:
    return player.money, squares_of(ctx.state, player.name), objects_of(ctx.state, player.name)


def leave(ctx: UpdateContext, player: Player, cmd: Leave) -> str:
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner
    from admin.library.players import remove_player

    state, ls = ctx.state, LeavingModule.of(ctx.state)
    method = cmd.method
    to = live_player(ctx, cmd.to or "").name if method == "TO" else None
    if to == player.name:
        raise IllegalAction("LEAVE TO names a surviving player, not yourself (II.8)")
    others = sorted(p.name for p in state.active_players() if p.name != player.name)
    mates = [m for m in api.TEAMS.of(state).teams.mates(player.name) if m in others]
    if method == "TEAM" and not mates:
        method, note = "GOVERNMENT", " (no Teammate is left, so The Government takes them, a standing ruling)"
    else:
        note = ""
    money, squares, items = _take_all(ctx, player)
    if method in ("GOVERNMENT", "CORPORATION", "TO"):
        heir = {"GOVERNMENT": GOVERNMENT, "CORPORATION": CORPORATION}.get(method, to or "")
        ctx.transfer(player.name, heir, money, rule="II.8", reason=f"{player.name} left the game")
        for n in squares:
            set_owner(state, n, heir)
            if method == "CORPORATION":
                ls.for_sale[n] = market_value(state, n) * int(ctx.params(LeavingModule.name)["corporate_markup_percent"]) // 100
        _hand_items(ctx, player.name, heir, items)
        what = f"everything went to {heir}"
    else:
        pool = others if method == "RANDOM" else mates
        what = _scatter(ctx, player, pool, money, squares, items)
    remove_player(ctx, player, f"left the game (II.8): {what}{note}")
    ls.left[player.name] = state.week
    ctx.emit("admin", f"{player.name} left the game. If a surviving player wins within a week, {player.name} is the "
                      f"Ex-Scammer (II.9): nomopoly ruling decide ex-scammer player={player.name} --reason ...",
             rule="II.9", data={"player": player.name})
    return f"{player.name} left the game: {what}{note}."


def _hand_items(ctx: UpdateContext, giver: str, heir: str, items: dict[str, int]) -> None:
    """Objects go to a player, or to The Government's Grab Bag (II.8) / The Corporation's stock."""
    if not items:
        return
    for item, n in items.items():
        move_object(ctx.state, giver, heir, item, n)
    if heir == GOVERNMENT:  # one Grab Bag, auctioned like a square (II.8, X.5)
        from admin.games.nomoteams.mechanics.auctions import add_grab_bag

        lot = add_grab_bag(ctx.state, items)
        ctx.emit("grab-bag", f"{giver}'s objects went to The Government as {lot.label}, auctioned from next "
                             "week (II.8).", rule="II.8", data={"bag": lot.bag_number})
    elif heir == CORPORATION:  # objects have no market value: the Admin prices them
        ctx.emit("admin", f"{giver}'s objects ({', '.join(f'{k} x{v}' for k, v in items.items())}) went to The "
                          "Corporation, which sells them at 120% of their market value (II.8); objects have none "
                          "in these rules: price and sell them (nomopoly ruling adjust ...).", rule="II.8")


def _scatter(ctx: UpdateContext, player: Player, pool: list[str], money: int, squares: list[int],
             items: dict[str, int]) -> str:
    """II.8's "things": a square, an object and up to $200 make one; each goes to a random player
    of ``pool`` who has had none yet (all have: start again)."""
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner

    bundle = int(ctx.params(LeavingModule.name)["bundle"])
    objects = [item for item, n in sorted(items.items()) for _ in range(n)]
    count = max(len(squares), len(objects), math.ceil(money / bundle) if money > 0 else 0)
    given: list[str] = []
    got: dict[str, list[str]] = {}
    left = money
    for i in range(count):
        if all(p in given for p in pool):  # everyone has had a thing: as if nobody had
            given = []
        eligible = [p for p in pool if p not in given]
        who = eligible[0] if len(eligible) == 1 else eligible[ctx.dice.roll(f"leave/{player.name}/{i}", len(eligible)) - 1]
        given.append(who)
        parts = []
        if i < len(squares):
            set_owner(ctx.state, squares[i], who)
            parts.append(f"square {squares[i]}")
        if i < len(objects):
            _hand_items(ctx, player.name, who, {objects[i]: 1})
            parts.append(objects[i])
        cash = min(bundle, left) if left > 0 else 0
        if cash:
            ctx.transfer(player.name, who, cash, rule="II.8", reason=f"{player.name} left the game")
            left -= cash
            parts.append(ctx.state.money(cash))
        got.setdefault(who, []).append(" + ".join(parts))
    if player.money:  # a debt stays with nobody: a negative balance is not a thing to give
        from admin.engine.context import BANK

        ctx.transfer(player.name, BANK, player.money, rule="II.8", reason=f"{player.name} left the game")
    return "; ".join(f"{who}: {', '.join(things)}" for who, things in sorted(got.items())) or "nothing to give"


def buy_corporate(ctx: UpdateContext, player: Player, cmd: BuyFromCorporation) -> str:
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner
    from admin.games.nomoteams.mechanics.shared import owner_of

    ls = LeavingModule.of(ctx.state)
    price = ls.for_sale.get(cmd.square)
    if price is None or owner_of(ctx.state, cmd.square) != CORPORATION:
        raise IllegalAction(f"The Corporation does not sell square {cmd.square}; for sale: "
                            f"{', '.join(map(str, sorted(ls.for_sale))) or 'nothing'} (II.8)")
    ctx.transfer(player.name, CORPORATION, price, rule="II.8", reason=f"buying square {cmd.square}", voluntary=True)
    set_owner(ctx.state, cmd.square, player.name)
    del ls.for_sale[cmd.square]
    return f"{player.name} bought square {cmd.square} from The Corporation for {ctx.state.money(price)} (II.8)."


def _ex_scammer(ctx: UpdateContext, r: Ruling) -> str:
    ls = LeavingModule.of(ctx.state)
    name = str(r.args.get("player", ""))
    if name not in ls.left:
        raise RuleError(f"player={name!r} has not left the game; those who left: {', '.join(sorted(ls.left)) or 'none'}")
    if name not in ls.ex_scammers:
        ls.ex_scammers.append(name)
    return f"The Admin named {name} an Ex-Scammer, second place for outside accounting (II.9): {r.note}"

