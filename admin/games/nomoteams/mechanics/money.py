"""IV.2-IV.6: fines go to The Government, Bankruptcy with the Team's help, and the Bad Credit
Rating. (IV.1's $1000 is the library money module's ``start_money``; IV.4's rounding is
``shared.dollars``.)

A forced payment may leave a player below $0: she is Bankrupt (IV.5), and this module settles it
after each turn and at the end of each update: her Teammates pay her debt in equal shares if
together they can; if not, her squares go to The Government for their market value; if that is
not enough, what she still owes is written off and she gets a Bad Credit Rating.

How the shares are rounded, whether a Teammate with $0 pays one, and whether the Team helps a
Teammate its help made Bankrupt are a standing ruling (the ``shares``, ``broke_teammates_pay``
and ``team_helps_payer`` parameters; docs/games/nomoteams.md). Whatever they are, a settlement
ends, in work bounded by the players."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.interactions import all_consent, accept_or_decline
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import GOVERNMENT, market_value, squares_of, team_of
from admin.library.api import INTERACTIONS

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.engine.interactions import Interaction
    from admin.engine.module import CommandSpec


def _parse_clear(rest: str, line: object) -> ClearCredit:
    if rest.strip().upper() != "RATING":
        raise CommandError(f"say CLEAR CREDIT RATING, with nothing after it; found CLEAR CREDIT {rest.strip()!r}.")
    return ClearCredit()


@command("CLEAR CREDIT RATING", keyword="CLEAR CREDIT", parse=_parse_clear, cmd="teams-clear-credit", listing=130,
         summary="pay $200 to The Government to remove your Bad Credit Rating", example="CLEAR CREDIT RATING",
         rules=("IV.6",))
class ClearCredit:
    """``CLEAR CREDIT RATING`` (IV.6)."""


@dataclass
class TeamsMoneyState:
    #: players with a Bad Credit Rating (IV.5, IV.6)
    bad_credit: list[str] = field(default_factory=list)


class TeamsMoneyModule(Mechanic[TeamsMoneyState, None]):
    name = "teams-money"
    rules = ("IV.2", "IV.3", "IV.4", "IV.5", "IV.6")
    stated = {"IV.6": {"clear_credit_cost": ("may remove it by paying ${}",)}}
    #: IV.5's open cases, a standing ruling (docs/games/nomoteams.md): the shares add up to the
    #: debt (``rounded_up``: each pays the least equal share that pays it); a Teammate with $0 or
    #: less pays no share; a Teammate made Bankrupt by her share is settled without the Team's
    #: help (her squares, then a written-off debt). The literal reading, ``rounded_up``, ``true``,
    #: ``true``, still ends: a Team helps each player at most once a settlement.
    defaults = {"clear_credit_cost": 200, "shares": "exact", "broke_teammates_pay": False,
                "team_helps_payer": False}
    minimums = {"clear_credit_cost": 0}
    choices = {"shares": ("exact", "rounded_up")}
    summary = "Fines to The Government, Bankruptcy with the Team's help, the Bad Credit Rating."
    State = TeamsMoneyState
    requires = ("interactions",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((ClearCredit, clear_credit))

    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        settle_bankrupts(ctx)

    def on_update_end(self, ctx: UpdateContext) -> None:
        settle_bankrupts(ctx)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ts = self.of(state)
        ts.bad_credit = [n for n in ts.bad_credit if n != player.name]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "bad_credit":
            return False
        ts = self.of(state)
        ts.bad_credit = sorted((set(ts.bad_credit) | {player.name}) if value else (set(ts.bad_credit) - {player.name}))
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("bad_credit", player.name in self.of(state).bad_credit, label="Bad Credit Rating",
                     order=40, kind="text")]

    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> str:
        return accept_or_decline(interaction, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        """IV.5: the Teammates who paid a Bankrupt player's debt agree (all of them) to make her a
        Freemason."""
        from admin.games.nomoteams.mechanics.teams import make_freemason

        name = interaction.payload["player"]
        player = ctx.state.players.get(name)
        if player is None or not player.active or team_of(ctx.state, name) != interaction.payload["team"]:
            return f"{name} is no longer in the {interaction.payload['team']} Team; nothing changes"
        if not all_consent(answers):
            return f"not every Teammate agreed: {name} stays in the {interaction.payload['team']} Team"
        make_freemason(ctx.state, name)
        ctx.emit("team", f"{name}'s Teammates all agreed: {name} left the {interaction.payload['team']} Team "
                         "and is a Freemason (IV.5).", player=name, rule="IV.5")
        return f"every Teammate agreed: {name} is now a Freemason"


def settle_bankrupts(ctx: UpdateContext) -> None:
    """IV.5 for every player below $0, first by name, until none is (a Teammate's share may make
    her Bankrupt in turn).

    It always ends, in work bounded by the players: a player's Team helps her at most once a
    settlement, and a player settled without the Team's help ends at $0 or more (her squares, then
    a written-off debt); under the default ruling a Teammate made Bankrupt by her share is settled
    without the Team's help, so no chain comes back."""
    players = ctx.state.players
    waiting = [p.name for p in ctx.state.active_players() if p.money < 0]
    if not waiting:
        return
    heapq.heapify(waiting)
    queued = set(waiting)
    helped: set[str] = set()      # helped by her Team in this settlement: not again
    made_broke: set[str] = set()  # made Bankrupt by paying a share
    params = ctx.params(TeamsMoneyModule.name)
    help_payers = bool(params["team_helps_payer"])
    while waiting:
        name = heapq.heappop(waiting)
        queued.discard(name)
        player = players.get(name)
        if player is None or not player.active or player.money >= 0:
            continue
        team_may_help = name not in helped and (help_payers or name not in made_broke)
        payers = settle(ctx, player, team_may_help, params)
        if payers is None:
            continue
        helped.add(name)
        for m in payers:
            if players[m].money < 0:
                made_broke.add(m)
                if m not in queued:
                    queued.add(m)
                    heapq.heappush(waiting, m)


def shares_of(debt: int, payers: list[str], money: dict[str, int], rounding: str) -> dict[str, int]:
    """Each payer's share of a Bankrupt Teammate's debt (IV.5). ``exact``: the shares add up to the
    debt, as even as whole dollars allow, the extra dollars paid by the Teammates with the most
    money (then by name); ``rounded_up``: each pays the debt divided by the payers, rounded up (the
    least equal share that pays it: together they pay up to a dollar each more than the debt)."""
    if rounding == "rounded_up":
        share = math.ceil(debt / len(payers))
        return {m: share for m in payers}
    base, extra = divmod(debt, len(payers))
    richest = sorted(payers, key=lambda m: (-money[m], m))[:extra]
    return {m: base + (m in richest) for m in payers}


def _consent_open(state: GameState, name: str, team: str | None) -> bool:
    """Whether IV.5's question to her Teammates about ``name`` is already open."""
    return any(i.module == TeamsMoneyModule.name and i.payload.get("player") == name
               and i.payload.get("team") == team for i in INTERACTIONS.of(state).open)


def _shares_text(state: GameState, paid: list[str], shares: dict[str, int]) -> str:
    """"$20 each from bob, carol", or "$20 from bob, $19 from carol" (most first, then by name)."""
    if len(paid) > 1 and len(set(shares[m] for m in paid)) == 1:
        return f"{state.money(shares[paid[0]])} each from {', '.join(paid)}"
    return ", ".join(f"{state.money(shares[m])} from {m}" for m in sorted(paid, key=lambda m: (-shares[m], m)))


def settle(ctx: UpdateContext, player: Player, team_may_help: bool = True,
           params: dict[str, Any] | None = None) -> list[str] | None:
    """Settle one Bankrupt player (IV.5); the Teammates who paid a share, or None if her Team did
    not help."""
    from admin.library.interactions import ask
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner

    state, debt = ctx.state, -player.money
    params = params or ctx.params(TeamsMoneyModule.name)
    mates = [m for m in api.TEAMS.of(state).teams.mates(player.name)
             if m in state.players and state.players[m].active]
    payers = mates if params["broke_teammates_pay"] else [m for m in mates if state.players[m].money > 0]
    pool = sum(max(0, state.players[m].money) for m in payers)
    if team_may_help and payers and pool >= debt:
        money = {m: state.players[m].money for m in payers}
        shares = shares_of(debt, payers, money, params["shares"])
        paid = [m for m in payers if shares[m] > 0]
        for m in paid:
            ctx.transfer(m, player.name, shares[m], rule="IV.5", reason=f"a Teammate's share of {player.name}'s debt")
        each = _shares_text(state, paid, shares)
        ctx.emit("bankrupt", f"{player.name} was Bankrupt by {state.money(debt)}: the {team_of(state, player.name)} "
                             f"Team paid it, {each} (IV.5).",
                 player=player.name, rule="IV.5",
                 data={"debt": debt, "shares": {m: shares[m] for m in paid}, "mates": mates})
        team = team_of(state, player.name)
        if not _consent_open(state, player.name, team):  # one question about her at a time
            ask(ctx, kind="consent", module=TeamsMoneyModule.name, parties=mates, silence="decline",
                payload={"player": player.name, "team": team,
                         "question": f"make {player.name} a Freemason, out of your Team (IV.5)?"})
        return paid
    owned = squares_of(state, player.name)
    if owned:
        value = sum(market_value(state, n) for n in owned)
        for n in owned:
            set_owner(state, n, GOVERNMENT)
        ctx.transfer(GOVERNMENT, player.name, value, rule="IV.5",
                     reason=f"the market value of squares {', '.join(map(str, owned))}")
        listed = ("square " if len(owned) == 1 else "squares ") + ", ".join(map(str, owned))
        ctx.emit("bankrupt", f"{player.name} was Bankrupt by {state.money(debt)}: {listed} became The "
                             f"Government's, for {state.money(value)} (IV.5).", player=player.name, rule="IV.5", data={"debt": debt, "squares": owned})
        if player.money >= 0:
            return None
        debt = -player.money
    ctx.transfer(BANK, player.name, debt, rule="IV.5", reason="a bad debt written off")
    mc = TeamsMoneyModule.of(state)
    if player.name not in mc.bad_credit:
        mc.bad_credit.append(player.name)
    ctx.emit("bankrupt", f"{player.name} could not pay {state.money(debt)}: it was written off as bad debt, "
                         f"and {player.name} has a Bad Credit Rating (IV.5).",
             player=player.name, rule="IV.5", data={"debt": debt, "written_off": True})
    return None


def clear_credit(ctx: UpdateContext, player: Player, cmd: ClearCredit) -> str:
    mc = TeamsMoneyModule.of(ctx.state)
    if player.name not in mc.bad_credit:
        raise IllegalAction("you have no Bad Credit Rating to clear (IV.6)")
    cost = int(ctx.params(TeamsMoneyModule.name)["clear_credit_cost"])
    ctx.transfer(player.name, GOVERNMENT, cost, rule="IV.6", reason="clearing a Bad Credit Rating", voluntary=True)
    mc.bad_credit.remove(player.name)
    return f"{player.name} paid {ctx.state.money(cost)} and no longer has a Bad Credit Rating (IV.6)."
