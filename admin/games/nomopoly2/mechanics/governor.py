"""Nomopoly II XXXV: the Governor and elections. Every third week (``period``) there is an
election: in the week's first update every non-terrorist may send a sealed ``BID GOVERNOR
<amount>``; the two highest bidders pay and stand (a tie is drawn; a lone bidder gets a random
opponent). In the week's second update everyone may ``VOTE GOVERNOR <candidate>`` (sealed until
the count); the most votes win, a tie goes to the higher bid, then to a draw. The winner governs
the three weeks after the election week.

The Governor makes two proposals a week (the proposals module's ``extra_proposals`` hook), may
``VETO`` one proposal a week, pays 5% less for a square (``adjust_price``), gains 5 health in each
week's first update, may ``GOVERN BUILD`` one building a week on a Government square and ``ADD
SQUARE`` three times a term, both paid from the Admin Bank Account and only when it can afford
them (XXXV.4). What other sections give or deny the Governor they read with
:func:`shared.governor` (the bank's 3% interest, the card limit of 30, no atrocities, no time
bombs or hammers); it lasts only while the term does (XXXV.5). The election itself is in
elections.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from admin.engine import hooks
from admin.engine.board import live_numbers
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.capabilities import PricesSquares
from admin.engine.schedule import next_slot
from admin.engine.syntax import parse_proposal, parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly2.api import Builds
from admin.games.nomopoly2.mechanics import shared
from admin.library.api import SEALED_ANSWERS
from admin.games.nomopoly2.mechanics.elections import (
    BidGovernor, Election, VoteGovernor, bid, check_bid, check_vote, close_bids, count_votes, is_election_week,
    open_question, vote,
)
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square
    from admin.engine.module import CommandSpec


@dataclass
class GovernorState:
    #: the Governor now (read by shared.governor), and the weeks of their term
    governor: str | None = None
    term_from: int = 0
    term_to: int = 0
    #: the winner of the last election until their term starts, and its weeks
    elect: str | None = None
    elect_from: int = 0
    elect_to: int = 0
    #: the election under way (None between elections) and its questions
    election: Election | None = None
    bid_question: int = 0
    vote_question: int = 0
    #: elections held, oldest first
    results: list[Election] = field(default_factory=list)
    #: the week the Governor last vetoed / built; squares added this term
    vetoed_week: int = 0
    vetoes: int = 0
    built_week: int = 0
    squares_added: int = 0


def _veto(rest: str, _line: object) -> Veto:
    return Veto(parse_proposal(rest))


@command("VETO <proposal>", parse=_veto, cmd="governor-veto", listing=352,
         summary="the Governor stops a proposal before its tally, once a week", example="VETO 7",
         rules=("XXXV.3",))
class Veto:
    """``VETO <proposal>`` (XXXV.3)."""

    proposal: int


def _building(rest: str, _line: object) -> GovernBuild:
    m = re.fullmatch(r"\s*(.+?)\s+on\s+(.+?)\s*", rest, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write GOVERN BUILD <building> ON <square>, like GOVERN BUILD HOSPITAL ON 12")
    name = "-".join(m.group(1).lower().split())
    if name not in shared.BUILDINGS:
        raise CommandError(f'"{m.group(1)}" is not a building; buildings: '
                           f"{', '.join(b.upper() for b in shared.BUILDINGS)} (XXII.4)")
    return GovernBuild(name, parse_square(m.group(2)))


@command("GOVERN BUILD <building> ON <square>", keyword="GOVERN BUILD", parse=_building, listing=353,
         summary="the Governor builds on a Government square once a week, paid by the Admin Bank Account",
         example="GOVERN BUILD HOSPITAL ON 12", rules=("XXXV.3", "XXXV.4"))
class GovernBuild:
    """``GOVERN BUILD <building> ON <square>`` (XXXV.3)."""

    building: str
    square: int


def _add_square(rest: str, _line: object) -> AddSquare:
    if not rest.strip():
        return AddSquare()
    m = re.fullmatch(r"\s*(?:in\s+place\s+of|at|on)\s+(.+?)\s*", rest, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write ADD SQUARE (the lowest destroyed square, or a new one at the end) or "
                           "ADD SQUARE IN PLACE OF <destroyed square>")
    return AddSquare(parse_square(m.group(1)))


@command("ADD SQUARE [IN PLACE OF <square:destroyed square>]", keyword="ADD SQUARE", parse=_add_square,
         listing=354, summary="the Governor adds a square to the board ($4000 from the Admin Bank Account), "
                              "three a term", example="ADD SQUARE", rules=("XXXV.3", "XXXV.4"))
class AddSquare:
    """``ADD SQUARE`` or ``ADD SQUARE IN PLACE OF <destroyed square>`` (XXXV.3)."""

    square: int | None = None


class GovernorModule(Mechanic[GovernorState, None], PricesSquares):
    name = "governor"
    rules = ("XXXV.1", "XXXV.2", "XXXV.3", "XXXV.4", "XXXV.5")
    stated = {"XXXV.1": {"term_weeks": ("is elected every {} weeks",)},
              "XXXV.2": {"term_weeks": ("is Governor for {} weeks",)},
              "XXXV.3": {"proposals_per_week": ("may make {} proposals a week",),
                         "vetoes_per_week": ("may veto {} proposal a week",),
                         "health_per_week": ("gains {} health each week",),
                         "builds_per_week": ("may have {} building a week",),
                         "squares_per_term": ("may add up to {} squares",),
                         "square_cost": ("at ${} a square",)}}
    defaults: ClassVar[dict[str, Any]] = {
        "period": 3,               # weeks from one election to the next (XXXV.1)
        "first_week": 3,           # the first election week
        "term_weeks": 3,           # weeks a Governor serves, from the week after the election (XXXV.2)
        "proposals_per_week": 2,   # the Governor's proposals a week (XXXV.3)
        "vetoes_per_week": 1,
        "discount_percent": 5,     # off the price of a square, rounded down to whole dollars
        "health_per_week": 5,      # in each week's first update
        "builds_per_week": 1,
        "squares_per_term": 3,     # ADD SQUARE
        "square_cost": 4000,       # from the Admin Bank Account
    }
    minimums = {"period": 1, "first_week": 1, "term_weeks": 1}
    summary = ("Every third week players bid to stand for Governor and vote; the Governor proposes "
               "twice a week, vetoes, builds on Government squares and adds squares at the Bank's cost.")
    State = GovernorState
    requires = ("board", "ownership", "health", "proposals", "conditions", "interactions")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BidGovernor, bid), (VoteGovernor, vote), (Veto, veto), (GovernBuild, govern_build),
                       (AddSquare, add_square))

    # -- the calendar ---------------------------------------------------------------------------
    def on_update_start(self, ctx: UpdateContext) -> None:
        gs, state = self.of(ctx.state), ctx.state
        if gs.governor and state.week > gs.term_to:
            ctx.emit("governor", f"{gs.governor}'s term as Governor is over.", rule="XXXV.5",
                     data={"governor": gs.governor})
            gs.governor, gs.term_from, gs.term_to = None, 0, 0
        if gs.elect and state.week >= gs.elect_from:
            if state.players.get(gs.elect) and state.players[gs.elect].active:
                gs.governor, gs.term_from, gs.term_to = gs.elect, gs.elect_from, gs.elect_to
                gs.squares_added = 0
                ctx.emit("governor", f"{gs.governor} is Governor from week {gs.term_from} to the end of week "
                                     f"{gs.term_to}.", rule="XXXV.2", data={"governor": gs.governor})
            gs.elect, gs.elect_from, gs.elect_to = None, 0, 0
        if gs.governor and ctx.slot.index == 0:
            who = state.players.get(gs.governor)
            if who is not None and who.active:
                change_health(ctx, who, int(ctx.params(self.name)["health_per_week"]), rule="XXXV.3",
                              reason="the Governor's weekly health")

    def on_update_end(self, ctx: UpdateContext) -> None:
        """Open the sealed bidding when the next update is the first of an election week."""
        gs, state, params = self.of(ctx.state), ctx.state, ctx.params(self.name)
        week, slot = next_slot(state.update, ctx.params("schedule")["slots"])
        if slot.index != 0 or not is_election_week(params, week):
            return
        if gs.bid_question and open_question(ctx, gs.bid_question)[0] is not None:
            return  # already open
        parties = [p.name for p in state.active_players()]
        if not parties:
            return
        from admin.library.interactions import ask

        inter = ask(ctx, kind="auction", module=self.name, parties=parties, silence="0", sealed=True,
                    payload={"election": week, "stage": "bids"})
        gs.election, gs.bid_question = Election(week=week), inter.id
        ctx.emit("governor", f"Week {week} elects a Governor: send BID GOVERNOR <amount> for the next update "
                             "(sealed; the two highest bidders pay and stand, XXXV.1).", rule="XXXV.1")

    def on_player_removed(self, state: GameState, player: Player) -> None:
        gs = self.of(state)
        if gs.governor == player.name:
            gs.governor, gs.term_from, gs.term_to = None, 0, 0
        if gs.elect == player.name:
            gs.elect = None

    # -- the Governor's benefits -------------------------------------------------------------
    def extra_proposals(self, state: GameState, player: str) -> int:
        if shared.governor(state) != player:
            return 0
        params = {**self.defaults, **state.params(self.name)}
        return max(0, int(params["proposals_per_week"]) - 1)

    def adjust_price(self, ctx: UpdateContext, player: Player, square: Square, price: int) -> int:
        if shared.governor(ctx.state) != player.name:
            return price
        return price - price * int(ctx.params(self.name)["discount_percent"]) // 100

    # -- the questions -----------------------------------------------------------------------
    def check_answer(self, ctx: UpdateContext, interaction: Any, player: Player, value: Any) -> Any:
        if interaction.payload.get("stage") == "bids":
            return check_bid(ctx, player, value)
        return check_vote(ctx, interaction, player, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Any, answers: dict[str, Any]) -> str:
        if interaction.payload.get("stage") == "bids":
            return close_bids(ctx, interaction, answers)
        return count_votes(ctx, interaction, answers)

    # -- how it shows -----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        gs = self.of(state)
        office = (f"Governor to week {gs.term_to}" if gs.governor == player.name else
                  f"Governor-elect from week {gs.elect_from}" if gs.elect == player.name else
                  "candidate for Governor" if gs.election and player.name in gs.election.candidates else None)
        return [Fact("office", office, label="Office" if office else None, kind="text", order=62)]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        gs = self.of(state)
        return [(62, f"; Governor to the end of week {gs.term_to}")] if gs.governor == player.name else []

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        gs, out = self.of(state), []
        if gs.governor == player.name:
            out.append((62, f"  You are Governor to the end of week {gs.term_to}: two proposals a week, VETO, "
                            f"GOVERN BUILD, ADD SQUARE ({gs.squares_added} of "
                            f"{state.params(self.name).get('squares_per_term', 3)} added)"))
        sealed = SEALED_ANSWERS.get(state)
        for number, what in ((gs.bid_question, "bid to stand for Governor: $"),
                             (gs.vote_question, "vote for Governor: ")):
            mine = getattr(sealed, "answers", {}).get(number, {}).get(player.name) if number else None
            if mine is not None:  # told to its player only, until the question closes
                out.append((63, f"  Your sealed {what}{mine} (#{number})"))
        return out

    def panels(self, state: GameState) -> list[Panel]:
        gs = self.of(state)
        if not (gs.governor or gs.elect or (gs.election and gs.election.candidates) or gs.results):
            return []  # the page appears with the first candidates
        params = {**self.defaults, **state.params(self.name)}
        now: tuple[tuple[str, str, str], ...] = (("Governor", gs.governor or "nobody",
                f"weeks {gs.term_from}-{gs.term_to}" if gs.governor else ""),)
        if gs.elect:
            now += (("Governor-elect", gs.elect, f"weeks {gs.elect_from}-{gs.elect_to}"),)
        tables = [Table("The Governor", ("Office", "Player", "Term"), now)]
        if gs.election is not None and gs.election.candidates:
            stage = "votes are being taken"
            tables.append(Table(f"The election of week {gs.election.week}: {stage}", ("Candidate", "Bid"),
                                tuple((c, gs.election.bids.get(c, 0)) for c in gs.election.candidates)))
        if gs.results:
            tables.append(Table("Elections", ("Week", "Candidates", "Bids", "Votes", "Winner"),
                                tuple((e.week, ", ".join(e.candidates) or "none",
                                       ", ".join(f"{p} ${b}" for p, b in sorted(e.bids.items())) or "none",
                                       ", ".join(f"{p} {v}" for p, v in sorted(e.votes.items())) or "none",
                                       e.winner or e.note or "nobody") for e in reversed(gs.results))))
        intro = (f"Every {params['period']} weeks (from week {params['first_week']}) the players elect a "
                 "Governor: sealed bids in the election week's first update, votes in its second (XXXV.1-2). "
                 f"The Governor serves the {params['term_weeks']} weeks after the election week; bids are shown once "
                 "bidding closes.")
        return [Panel("governor", "Governor", intro, tuple(tables), order=35)]


# -- the Governor's acts (XXXV.3-4) ------------------------------------------------------------
def _the_governor(ctx: UpdateContext, player: Player, what: str) -> None:
    if shared.governor(ctx.state) != player.name:
        raise IllegalAction(f"only the Governor may {what} (XXXV.3); the Governor is "
                            f"{shared.governor(ctx.state) or 'nobody'}")


def veto(ctx: UpdateContext, player: Player, cmd: Veto) -> str:
    _the_governor(ctx, player, "veto a proposal")
    gs = GovernorModule.of(ctx.state)
    allowed = int(ctx.params("governor")["vetoes_per_week"])
    used = gs.vetoes if gs.vetoed_week == ctx.state.week else 0
    if used >= allowed:
        raise IllegalAction(f"the Governor has vetoed {used} proposal{'s' if used != 1 else ''} this week already; "
                            f"{allowed} a week (XXXV.3)")
    proposal = ctx.state.proposal(cmd.proposal)
    if proposal is None or proposal.status not in ("open", "voting"):
        raise IllegalAction(f"proposal {cmd.proposal} is not open or being voted on; only those can be vetoed")
    proposal.close("vetoed", ctx.state.update, f"vetoed by the Governor, {player.name} (XXXV.3)")
    gs.vetoed_week, gs.vetoes = ctx.state.week, used + 1
    return f"The Governor, {player.name}, vetoed proposal {proposal.number}: {proposal.title} (XXXV.3)."


def _afford(ctx: UpdateContext, cost: int, what: str) -> None:
    if ctx.state.admin_bank < cost:
        raise IllegalAction(f"{what} costs ${cost} and the Admin Bank Account has ${ctx.state.admin_bank}; the "
                            "Governor may never make a purchase it cannot afford (XXXV.4)")


def _spend(ctx: UpdateContext, cost: int, reason: str) -> None:
    ctx.state.admin_bank -= cost
    ctx.emit("governor", f"The Admin Bank Account paid ${cost} for {reason}; it holds ${ctx.state.admin_bank}.",
             rule="XXXV.3", data={"amount": cost})


def govern_build(ctx: UpdateContext, player: Player, cmd: GovernBuild) -> str:
    _the_governor(ctx, player, "build on a Government square")
    gs = GovernorModule.of(ctx.state)
    if gs.built_week == ctx.state.week:
        raise IllegalAction("the Governor has built this week already; one building a week (XXXV.3)")
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    block = shared.block_of(ctx.state, cmd.square)
    if block is None or block.kind != "government":
        government = [str(n) for b in shared.blocks(ctx.state) if b.kind == "government" for n in b.squares]
        raise IllegalAction(f"square {cmd.square} is not a Government square; the Governor builds only on those "
                            f"(XXXV.3): {', '.join(government) or 'there are none'}")
    builds = ctx.registry.provider(ctx.state, Builds)
    if builds is None:
        raise IllegalAction("there are no buildings in this game (XXII is not in force)")

    cost = shared.building_price(ctx.state, cmd.building)  # XXII.4's price
    article = "an" if cmd.building[0] in "aeiou" else "a"
    label = f"{article} {shared.building_label(cmd.building)} on square {cmd.square}"
    _afford(ctx, cost, label)
    builds.build_free(ctx, cmd.square, cmd.building, "XXXV.3")
    _spend(ctx, cost, f"the Governor's {label}")
    gs.built_week = ctx.state.week
    return f"The Governor, {player.name}, built {label}, paid ${cost} by the Admin Bank Account (XXXV.3)."


def add_square(ctx: UpdateContext, player: Player, cmd: AddSquare) -> str:
    _the_governor(ctx, player, "add a square to the board")
    gs, p = GovernorModule.of(ctx.state), ctx.params("governor")
    if gs.squares_added >= int(p["squares_per_term"]):
        raise IllegalAction(f"the Governor has added {gs.squares_added} squares this term, as many as allowed "
                            "(XXXV.3)")
    cost = int(p["square_cost"])
    calls = hooks.call(ctx)
    if cmd.square is not None:
        square = ctx.state.square(cmd.square)
        if square is None or not square.destroyed:
            gone = [str(s.number) for s in ctx.state.squares if s.destroyed]
            raise IllegalAction(f"square {cmd.square} is not a destroyed square; a square is added in place of a "
                                f"destroyed one ({', '.join(gone) or 'there are none'}) or at the end (XXXV.3)")
        _afford(ctx, cost, "a square")
        square.destroyed, square.name = False, None
        calls.on_square_added(ctx.state, square)
        number = square.number
    else:
        _afford(ctx, cost, "a square")
        from admin.engine.board import add_square as board_add

        number = board_add(ctx.state, calls, bool(ctx.params("board").get("refill_destroyed", True)))
    _spend(ctx, cost, f"square {number}, added by the Governor")
    gs.squares_added += 1
    return (f"The Governor, {player.name}, added square {number} to the board, paid ${cost} by the Admin Bank "
            f"Account (XXXV.3); the board has {len(live_numbers(ctx.state))} squares.")
