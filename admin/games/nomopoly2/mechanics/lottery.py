"""Nomopoly II XVIII: the Lottery. A player trades in a card of value 2 to 10 for a ticket of that
many lines (``LOTTERY TICKET 7H``), and may add a face card or an ace for a bonus number
(``LOTTERY TICKET 7H BONUS KS``): each line is 6 random numbers from 1 to 20, 7 with the bonus
(XVIII.2-3). Tickets are their holder's secret. At the week's end the Admin's 7 numbers are drawn
(XVIII.1) and each line compared, order ignored (XVIII.4): 7 right wins the whole Admin Bank
Account, rent immunity and two votes for the next week, and the right to eliminate or take over a
player; 6 wins two votes and that right; 5 a choice of the right or two votes; 4 rent immunity for
the next roll. The right is asked of the winner as a question (prizes.py): ELIMINATE <player>,
TAKE OVER <player> or (for 5) ANSWER <n> TWO VOTES.

Standing rulings (docs/rulings.md): numbers are distinct within a line
and within the draw (``distinct``); a ticket is in the first draw after it is obtained and no
other; a ticket wins once, by its best line (``prize_per``: ticket), and a player's tickets each
win; when several tickets match 7 the first (in the order they were obtained) takes the whole
account and the next ones what is left; "the following week" is the week after the draw, "his
next roll" the next update; two votes and rent immunity do not add up."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from admin.engine.playingcards import card_name, card_rank
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.syntax import parse_card_arg
from admin.engine.errors import CommandError, IllegalAction
from admin.library.cards import hand, take
from admin.games.nomopoly2.mechanics.prizes import award, carry_out_choice, check_choice, prize_commands
from admin.games.nomopoly2.mechanics.shared import is_terrorist
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction
    from admin.engine.model import GameState


_TICKET = re.compile(r"^(\S+)(?:\s+(?:with\s+)?bonus\s+(\S+))?$", re.IGNORECASE)


def _parse(rest: str, _line: object) -> LotteryTicket:
    m = _TICKET.match(" ".join(rest.split()))
    if not m:
        raise CommandError("write LOTTERY TICKET <card 2-10> [BONUS <face card or ace>], like "
                           "LOTTERY TICKET 7H BONUS KS.")
    return LotteryTicket(parse_card_arg(m.group(1)), parse_card_arg(m.group(2)) if m.group(2) else None)


@command("LOTTERY TICKET <card:card 2-10> [BONUS <bonus:face card or ace>]", keyword="LOTTERY TICKET",
         parse=_parse, private=True, listing=115, rules=("XVIII.2", "XVIII.3"),
         summary="trade in a card of 2 to 10 for a lottery ticket of that many lines, "
                 "and a face card or ace for a bonus number (only you are told)",
         example="LOTTERY TICKET 7H BONUS KS")
class LotteryTicket:
    """``LOTTERY TICKET <card 2-10> [BONUS <face card or ace>]`` (XVIII.2)."""

    card: str
    bonus: str | None = None


@dataclass
class Ticket:
    id: int
    player: str
    #: the update it was obtained in
    update: int
    lines: list[list[int]] = field(default_factory=list)
    bonus: bool = False


@dataclass
class Winner:
    player: str
    ticket: int
    #: the most numbers one of its lines matched
    matched: int
    #: the prize, in words
    prize: str


@dataclass
class Draw:
    week: int
    update: int
    numbers: list[int] = field(default_factory=list)
    tickets: int = 0
    winners: list[Winner] = field(default_factory=list)


#: how many draws the state keeps and the Lottery page shows (a draw a week)
KEEP_DRAWS = 30


@dataclass
class LotteryState:
    #: the last KEEP_DRAWS draws, public once drawn (the Lottery page shows them; older ones are in
    #: the update logs)
    draws: list[Draw] = field(default_factory=list)


@dataclass
class LotteryPrivate:
    #: the tickets waiting for the next draw (each its holder's secret)
    tickets: list[Ticket] = field(default_factory=list)
    next_id: int = 1


class LotteryModule(Mechanic[LotteryState, LotteryPrivate]):
    name = "lottery"
    rules = ("XVIII.1", "XVIII.2", "XVIII.3", "XVIII.4", "XVIII.5")
    stated = {"XVIII.1": {"numbers": ("the Admin draws {} random numbers",)},
              "XVIII.2": {"lowest_card": ("a card worth {} to",), "highest_card": ("to {}; the card's value",)},
              "XVIII.3": {"line_numbers": ("holds {} random numbers",),
                          "bonus_line_numbers": ("or {} if the ticket has a bonus",)}}
    defaults = {"numbers": 7, "highest": 20, "line_numbers": 6, "bonus_line_numbers": 7,
                "lowest_card": 2, "highest_card": 10, "distinct": True, "prize_per": "ticket",
                # a 5-number winner who does not answer gets this (or "nothing")
                "silent_five": "two votes"}
    choices = {"prize_per": ("ticket", "line"), "silent_five": ("two votes", "nothing")}
    #: numbers drawn a line and a week, each a roll, and the die they are rolled on (issue 30)
    maximums = {"numbers": 100, "line_numbers": 100, "bonus_line_numbers": 100, "highest": 1000}
    minimums = {"highest": 1}
    summary = "Trade in a card for a lottery ticket; 7 numbers drawn at each week's end; prizes for 4 to 7."
    State = LotteryState
    Private = LotteryPrivate
    requires = ("cards", "ownership", "proposals", "interactions", "conditions")

    def commands(self) -> Sequence[CommandSpec]:
        return (*handled((LotteryTicket, buy_ticket)), *prize_commands())

    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> str:
        return check_choice(ctx, interaction, player, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        return carry_out_choice(ctx, interaction, answers)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        priv = self.private_of(state)
        priv.tickets = [t for t in priv.tickets if t.player != player.name]

    def on_update_end(self, ctx: UpdateContext) -> None:
        if ctx.slot.week_end:
            draw(ctx)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        """``lottery_tickets``: the player's tickets, each a list of lines (a scenario's set-up)."""
        if key != "lottery_tickets":
            return False
        priv = self.private_of(state)
        priv.tickets = [t for t in priv.tickets if t.player != player.name]
        for lines in value or []:
            lines = [sorted(int(n) for n in line) for line in lines]
            priv.tickets.append(Ticket(priv.next_id, player.name, state.update, lines,
                                       bonus=any(len(line) > 6 for line in lines)))
            priv.next_id += 1
        return True

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        mine = [t for t in self.private_of(state).tickets if t.player == player.name]
        return [Fact("lottery_tickets", [t.lines for t in mine])]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        mine = [t for t in self.private_of(state).tickets if t.player == player.name]
        out = []
        for t in mine:
            lines = "; ".join(" ".join(str(n) for n in line) for line in t.lines)
            out.append((72, f"  Your lottery ticket #{t.id} (only you see it{', bonus number' if t.bonus else ''}): {lines}"))
        return out

    def panels(self, state: GameState) -> list[Panel]:
        p = {**self.defaults, **state.params(self.name)}
        draws = self.of(state).draws
        rows = tuple((d.week, " ".join(str(n) for n in d.numbers), d.tickets,
                      "; ".join(f"{w.player} ({w.matched} right: {w.prize})" for w in d.winners) or "none")
                     for d in reversed(draws[-KEEP_DRAWS:]))
        intro = (f"A card of value {p['lowest_card']} to {p['highest_card']} buys a ticket of that many lines "
                 f"(XVIII.2): {p['line_numbers']} numbers from 1 to {p['highest']} a line, "
                 f"{p['bonus_line_numbers']} with a bonus number (a face card or an ace, XVIII.3). At each "
                 f"week's end {p['numbers']} numbers are drawn (XVIII.1). 7 right: the whole Admin Bank "
                 "Account, rent immunity and two votes next week, and eliminating or taking over a player; "
                 "6 right: two votes and eliminating or taking over a player; 5 right: one of those; 4 right: "
                 "no rent on the next roll (XVIII.4). Tickets stay secret: only the draws are shown here.")
        return [Panel("lottery", "The Lottery", intro,
                      (Table("The draws", ("Week", "Numbers drawn", "Tickets", "Winners"), rows),), order=18)]


def _numbers(roll: Callable[[str, int], int], label: str, count: int, highest: int, distinct: bool) -> list[int]:
    """``count`` numbers from 1 to ``highest`` (distinct: a repeat is rolled again), sorted;
    distinct ones are never more than ``highest`` (asking more would roll for ever)."""
    if distinct:
        count = min(count, highest)
    out: list[int] = []
    tries = 0
    while len(out) < count:
        n = roll(f"{label}/{len(out) + 1}" + (f"/again{tries}" if tries else ""), highest)
        if distinct and n in out:
            tries += 1
            continue
        out.append(n)
        tries = 0
    return sorted(out)


def buy_ticket(ctx: UpdateContext, player: Player, cmd: LotteryTicket) -> str:
    p = ctx.params(LotteryModule.name)
    if is_terrorist(ctx.state, player.name):
        raise IllegalAction("a terrorist may not buy lottery tickets (XXIII.2)")
    rank = card_rank(cmd.card)
    low, high = int(p["lowest_card"]), int(p["highest_card"])
    if not rank.isdecimal() or not low <= int(rank) <= high:
        raise IllegalAction(f"a ticket is bought with a card of value {low} to {high} (XVIII.2), not the "
                            f"{card_name(cmd.card)}; a face card or an ace may only be added as BONUS")
    if cmd.bonus is not None and card_rank(cmd.bonus) not in ("J", "Q", "K", "A"):
        raise IllegalAction(f"a bonus number is bought with a face card or an ace (XVIII.2), not the "
                            f"{card_name(cmd.bonus)}")
    held = hand(ctx.state, player.name)
    for card in (cmd.card, cmd.bonus):
        if card is not None and card not in held:
            raise IllegalAction(f"you do not hold the {card_name(card)} ({card}); STATUS lists your cards "
                                "(only to you)")
    take(ctx.state, player.name, cmd.card)
    if cmd.bonus is not None:
        take(ctx.state, player.name, cmd.bonus)
    priv = LotteryModule.private_of(ctx.state)
    tid = priv.next_id
    priv.next_id += 1
    per = int(p["bonus_line_numbers"] if cmd.bonus else p["line_numbers"])
    roll = lambda label, sides: ctx.dice.roll_hidden(label, sides, player.name)  # noqa: E731
    lines = [_numbers(roll, f"lottery/ticket/{tid}/line{i + 1}", per, int(p["highest"]), bool(p["distinct"]))
             for i in range(int(rank))]
    priv.tickets.append(Ticket(tid, player.name, ctx.state.update, lines, bonus=cmd.bonus is not None))
    traded = card_name(cmd.card) + (f" and the {card_name(cmd.bonus)}" if cmd.bonus else "")
    shown = "; ".join(f"line {i + 1}: {' '.join(map(str, line))}" for i, line in enumerate(lines))
    return (f"You traded in the {traded} for lottery ticket #{tid}: {len(lines)} lines of {per} numbers "
            f"(XVIII.2-3), in this week's draw. {shown}.")


def best_match(lines: list[list[int]], numbers: list[int]) -> int:
    """The most numbers of one line that are among those drawn, order ignored (XVIII.4)."""
    drawn = set(numbers)
    return max((len(set(line) & drawn) for line in lines), default=0)


def draw(ctx: UpdateContext) -> None:
    """The week's draw (XVIII.1) and its prizes (XVIII.4)."""
    p = ctx.params(LotteryModule.name)
    state = ctx.state
    numbers = _numbers(ctx.dice.roll, f"lottery/draw/week{state.week}", int(p["numbers"]),
                       int(p["highest"]), bool(p["distinct"]))
    priv = LotteryModule.private_of(state)
    tickets = [t for t in priv.tickets if t.player in state.players and state.players[t.player].active]
    priv.tickets = []
    result = Draw(week=state.week, update=state.update, numbers=numbers, tickets=len(tickets))
    kept = LotteryModule.of(state).draws
    kept.append(result)  # the winners are added below, to this same Draw
    del kept[:-KEEP_DRAWS]
    ctx.emit("lottery", f"The lottery of week {state.week}: the numbers drawn are "
                        f"{' '.join(map(str, numbers))} ({len(tickets)} ticket(s), XVIII.1).", rule="XVIII.1",
             data={"numbers": numbers, "tickets": len(tickets)})
    for t in tickets:
        if p["prize_per"] == "line":
            matches = [best_match([line], numbers) for line in t.lines]
        else:
            matches = [best_match(t.lines, numbers)]
        for matched in matches:
            prize = award(ctx, t.player, matched, t.id)
            if prize:
                result.winners.append(Winner(t.player, t.id, matched, prize))
