"""The first Nomopoly's XXVI: a lottery drawn at every week's end. Tickets cost $100, three a week
at most, and stay secret until the draw; the ticket money joins the Admin Bank Account only after
it. The winner takes half the account, capped at the players times three tickets times $100 -
twice that, uncapped, when the Admin is rich; none is drawn in a week after one that ended with
the Admin in debt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.cash import in_debt, is_rich
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState


def _parse(rest: str, _line: object) -> BuyTickets:
    word = rest.strip().lower().lstrip("x") or "1"
    if not word.isdecimal() or not 1 <= int(word) <= 3:
        raise CommandError("write BUY TICKET, or BUY TICKET 2 (three a week at most)")
    return BuyTickets(int(word))


@command("BUY TICKET [n]", keyword="BUY TICKET", parse=_parse, listing=250, private=True,
         rules=("XXVI.2",), summary="lottery tickets for this week's draw, $100 each, three a week at most "
                                    "(only you are told)",
         example="BUY TICKET 2")
class BuyTickets:
    """``BUY TICKET [n]`` (XXVI.2)."""

    count: int = 1


@dataclass
class LotteryState:
    #: whether this week has a draw (XXVI.6: none after a week that ended with the Admin in debt)
    open: bool = True
    #: the draws so far: week, winner, prize (public once drawn)
    draws: list[list[Any]] = field(default_factory=list)


@dataclass
class LotteryPrivate:
    #: this week's tickets: player -> how many (secret until the draw)
    tickets: dict[str, int] = field(default_factory=dict)


class LotteryModule(Mechanic[LotteryState, LotteryPrivate]):
    name = "ticket-lottery"
    rules = ("XXVI.1", "XXVI.2", "XXVI.3", "XXVI.4", "XXVI.5", "XXVI.6")
    stated = {"XXVI.2": {"price": ("Tickets cost ${};",), "per_week": ("may buy up to {} a week",)}}
    defaults = {"price": 100, "per_week": 3, "share_percent": 50, "rounding": "nearest"}
    choices = {"rounding": ("nearest", "down", "up")}
    summary = "A weekly lottery: $100 tickets (three a week), drawn at the week's end."
    State = LotteryState
    Private = LotteryPrivate

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuyTickets, buy_tickets))

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end: the draw (XXVI.1, XXVI.4, XXVI.5), then whether next week has one (XXVI.6)."""
        if not ctx.slot.week_end:
            return
        priv = self.private_of(ctx.state)
        tickets = sorted((n, c) for n, c in priv.tickets.items() if c > 0 and n in ctx.state.players)
        priv.tickets = {}
        if tickets:
            self._draw(ctx, tickets)

    def on_update_end(self, ctx: UpdateContext) -> None:
        """XXVI.6: as the week ends, after all its payments: a debt means no draw next week."""
        if not ctx.slot.week_end:
            return
        ls = self.of(ctx.state)
        ls.open = not in_debt(ctx.state)
        if not ls.open:
            ctx.emit("lottery", "The Admin is in debt: there is no lottery next week (XXVI.6).", rule="XXVI.6")

    def _draw(self, ctx: UpdateContext, tickets: list[tuple[str, int]]) -> None:
        p = ctx.params(self.name)
        pot = sum(c for _, c in tickets) * int(p["price"])
        drum = [name for name, count in tickets for _ in range(count)]
        winner = drum[ctx.dice.roll("lottery/draw", len(drum)) - 1]
        rounding = str(p["rounding"])
        prize = percent_of(max(ctx.state.admin_bank, 0), int(p["share_percent"]), rounding)
        players = len(ctx.state.active_players())
        prize = min(prize, players * int(p["per_week"]) * int(p["price"]))
        blob = api.BLOB.get(ctx.state)
        if blob is not None and blob.lottery_boost:  # a purple square (XXXI.7)
            prize = percent_of(prize, 150, rounding)
            blob.lottery_boost = False
        if is_rich(ctx.state):
            prize *= 2  # XXVI.5: beyond any maximum
        ctx.transfer(BANK, winner, prize, rule="XXVI.4", reason="the lottery", kind="prize")
        ctx.state.admin_bank += pot  # XXVI.3: the tickets' money joins the account after the draw
        self.of(ctx.state).draws.append([ctx.state.week, winner, prize])
        ctx.emit("lottery", f"The lottery of week {ctx.state.week}: {len(drum)} ticket(s); {winner} won "
                            f"{ctx.state.money(prize)}.", player=winner, rule="XXVI.4",
                 data={"winner": winner, "prize": prize, "tickets": len(drum)})

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.private_of(state).tickets.pop(player.name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "tickets":
            return False
        self.private_of(state).tickets[player.name] = int(value)
        return True

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("tickets", self.private_of(state).tickets.get(player.name, 0))]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        mine = self.private_of(state).tickets.get(player.name, 0)
        return [(71, f"  Lottery tickets this week: {mine}" + ("" if self.of(state).open else " (no draw this week)"))]

    def panels(self, state: GameState) -> list[Panel]:
        ls = self.of(state)
        rows = tuple((w, who, state.money(prize)) for w, who, prize in reversed(ls.draws[-20:]))
        intro = ("Tickets cost $100, three a week at most, and stay secret until the draw at the week's end. "
                 + ("This week has a draw." if ls.open else "There is no draw this week: the Admin is in debt."))
        return [Panel("lottery", "The Lottery", intro, (Table("The draws", ("Week", "Winner", "Prize"), rows),),
                      order=26)]


def buy_tickets(ctx: UpdateContext, player: Player, cmd: BuyTickets) -> str:
    ls, priv = LotteryModule.of(ctx.state), LotteryModule.private_of(ctx.state)
    p = ctx.params(LotteryModule.name)
    if not ls.open:
        raise IllegalAction("there is no lottery this week: last week ended with the Admin in debt (XXVI.6)")
    have = priv.tickets.get(player.name, 0)
    if have + cmd.count > int(p["per_week"]):
        raise IllegalAction(f"you have {have} ticket(s) this week; three at most (XXVI.2)")
    price = int(p["price"]) * cmd.count
    if player.money - price < 0:
        raise IllegalAction(f"{cmd.count} ticket(s) cost {ctx.state.money(price)} and you have "
                            f"{ctx.state.money(player.money)}")
    player.money -= price  # held aside until the draw (XXVI.3), then into the account
    priv.tickets[player.name] = have + cmd.count
    return f"{player.name} bought {cmd.count} lottery ticket(s) for {ctx.state.money(price)}."
