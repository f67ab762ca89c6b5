"""Nomopoly II XXXV.1-2: the election of a Governor, by mail. The governor module opens a sealed
bidding question (an ``auction`` of the interactions module) at the end of the update before an
election week's first; ``BID GOVERNOR <amount>`` answers it (or ``BID n <amount>``). At the end of
that first update the two highest bidders pay and stand (a tie at a bid is drawn; a lone bidder
gets an opponent drawn from the rest), and a sealed ``election`` question opens for the week's
second update: ``VOTE GOVERNOR <candidate>``. At its end the votes are counted: most votes win, a
tie goes to the higher bid, then to a draw; the winner is Governor-elect until their term starts.
The state is the governor module's (``GOVERNOR`` in the game's api: election, results, elect)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.context import BANK
from admin.engine.declare import command
from admin.engine.interactions import answer as record_answer
from admin.engine.syntax import PLAYER_NAME
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly2.api import GOVERNOR
from admin.games.nomopoly2.mechanics import shared
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction, InteractionsState, SealedAnswers
    from admin.games.nomopoly2.mechanics.governor import GovernorState


@dataclass
class Election:
    #: the election week
    week: int
    candidates: list[str] = field(default_factory=list)
    #: every bid, published when the bidding closes
    bids: dict[str, int] = field(default_factory=dict)
    #: votes per candidate, published at the count
    votes: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    #: how it went, in words
    note: str = ""


def parse_bid(rest: str, _line: object) -> BidGovernor:
    m = re.fullmatch(r"\s*\$?(\d{1,9})\s*", rest)
    if not m:
        raise CommandError("write BID GOVERNOR <amount>, a whole number of dollars, like BID GOVERNOR 500")
    return BidGovernor(int(m.group(1)))


def parse_vote(rest: str, _line: object) -> VoteGovernor:
    name = rest.strip()
    if not PLAYER_NAME.fullmatch(name):
        raise CommandError("write VOTE GOVERNOR <candidate's name>, like VOTE GOVERNOR alice")
    return VoteGovernor(name)


@command("BID GOVERNOR <amount>", keyword="BID GOVERNOR", parse=parse_bid, listing=350, private=True,
         summary="in the first update of an election week, a sealed bid to stand for Governor (the two "
                 "highest pay and stand)", example="BID GOVERNOR 500", rules=("XXXV.1",))
class BidGovernor:
    """``BID GOVERNOR <amount>`` (XXXV.1)."""

    amount: int


@command("VOTE GOVERNOR <candidate>", keyword="VOTE GOVERNOR", parse=parse_vote, listing=351, private=True,
         summary="in the second update of an election week, vote for one of the two candidates (secret "
                 "until the count)", example="VOTE GOVERNOR alice", rules=("XXXV.2",))
class VoteGovernor:
    """``VOTE GOVERNOR <candidate>`` (XXXV.2)."""

    candidate: str


def is_election_week(params: dict[str, Any], week: int) -> bool:
    """Every ``period`` weeks from ``first_week`` (XXXV.1)."""
    first, period = int(params["first_week"]), int(params["period"])
    return week >= first and (week - first) % period == 0


def open_question(ctx: UpdateContext, number: int) -> tuple[Interaction | None, InteractionsState, SealedAnswers]:
    from admin.library.interactions import InteractionsModule

    ist = InteractionsModule.of(ctx.state)
    inter = next((i for i in ist.open if i.id == number), None) if number else None
    return inter, ist, InteractionsModule.private_of(ctx.state)


def check_bid(ctx: UpdateContext, player: Player, value: Any) -> int:
    if shared.has_condition(ctx.state, player.name, "terrorist"):
        raise IllegalAction("a terrorist may not bid to stand for Governor (XXXV.1)")
    try:
        amount = int(value)
    except (TypeError, ValueError):
        raise IllegalAction(f"a bid is a whole number of dollars, not {value!r}") from None
    if amount <= 0:
        raise IllegalAction("a bid for candidacy must be a positive amount of money (XXXV.1)")
    if amount > player.money:
        raise IllegalAction(f"you bid ${amount} and have ${player.money}; the two highest bidders pay their "
                            "bids, and no voluntary action may make a player bankrupt (IV.3)")
    return amount


def bid(ctx: UpdateContext, player: Player, cmd: BidGovernor) -> str:
    gs = GOVERNOR.of(ctx.state)
    inter, ist, sealed = open_question(ctx, gs.bid_question)
    if inter is None:
        raise IllegalAction("no election is taking bids this update; bids are taken in the first update of "
                            f"an election week (every {ctx.params('governor')['period']} weeks, XXXV.1)")
    amount = check_bid(ctx, player, cmd.amount)
    record_answer(ist, sealed, player.name, inter.id, amount)
    return f"Your bid of ${amount} to stand for Governor is sealed until the bidding closes (#{inter.id})."


def close_bids(ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
    gs, state = GOVERNOR.of(ctx.state), ctx.state
    week = int(inter.payload["election"])
    gs.bid_question = 0
    election = gs.election if gs.election is not None and gs.election.week == week else Election(week=week)
    gs.election = election
    bids: dict[str, int] = {}
    for name, value in answers.items():
        player = state.players.get(name)
        if (isinstance(value, int) and value > 0 and player is not None and player.active
                and not shared.has_condition(state, name, "terrorist")):
            bids[name] = value
    election.bids = dict(sorted(bids.items()))
    ranked: list[str] = []
    for amount in sorted(set(bids.values()), reverse=True):  # ties at a bid are drawn (XXXV.1)
        tied = sorted(n for n, b in bids.items() if b == amount)
        ranked += ctx.dice.shuffle(tied, f"governor/{week}/tie-{amount}") if len(tied) > 1 else tied
    for name in ranked:
        if len(election.candidates) == 2:
            break
        try:
            ctx.transfer(name, BANK, bids[name], rule="XXXV.1", reason="a bid to stand for Governor", voluntary=True)
        except IllegalAction as exc:
            ctx.emit("governor", f"{name}'s bid of ${bids[name]} lapses: {exc}.", rule="XXXV.1", player=name)
            continue
        election.candidates.append(name)
    if not election.candidates:
        election.note = "nobody bid"
        _file(gs)
        ctx.emit("governor", f"Nobody bid to stand for Governor; there is no election in week {week}.",
                 rule="XXXV.1")
        return "nobody bid"
    if len(election.candidates) == 1:  # a lone bidder gets a random opponent (XXXV.1)
        pool = [p.name for p in state.active_players() if p.name not in election.candidates]
        clean = [n for n in pool if not shared.has_condition(state, n, "terrorist")] or pool
        if clean:
            opponent = clean[ctx.dice.roll(f"governor/{week}/opponent", len(clean)) - 1]
            election.candidates.append(opponent)
            ctx.emit("governor", f"Only {election.candidates[0]} bid; {opponent} is drawn to stand against "
                                 "them (XXXV.1).", rule="XXXV.1")
    shown = ", ".join(f"{c} (${bids.get(c, 0)})" for c in election.candidates)
    if len(election.candidates) == 1:
        return _elect(ctx, gs, election, election.candidates[0], "unopposed")
    from admin.library.interactions import ask

    voters = [p.name for p in state.active_players()]
    vote_q = ask(ctx, kind="election", module="governor", parties=voters, silence="abstain", sealed=True,
                 payload={"election": week, "stage": "votes", "candidates": list(election.candidates)})
    gs.vote_question = vote_q.id
    ctx.emit("governor", f"The candidates for Governor are {shown}; send VOTE GOVERNOR <candidate> for the "
                         "next update (XXXV.2).", rule="XXXV.1", data={"candidates": list(election.candidates)})
    return f"candidates {shown}"


def check_vote(ctx: UpdateContext, inter: Interaction, player: Player, value: Any) -> str:
    candidates: list[str] = list(inter.payload.get("candidates", []))
    name = str(value).strip()
    match = next((c for c in candidates if c.lower() == name.lower()), None)
    if match is None:
        raise IllegalAction(f'"{name}" is not a candidate; the candidates are {" and ".join(candidates)} (XXXV.2)')
    return match


def vote(ctx: UpdateContext, player: Player, cmd: VoteGovernor) -> str:
    gs = GOVERNOR.of(ctx.state)
    inter, ist, sealed = open_question(ctx, gs.vote_question)
    if inter is None:
        raise IllegalAction("no election is taking votes this update; votes are taken in the second update "
                            "of an election week (XXXV.2)")
    choice = check_vote(ctx, inter, player, cmd.candidate)
    record_answer(ist, sealed, player.name, inter.id, choice)
    return f"Your vote for {choice} as Governor is sealed until the count (#{inter.id})."


def count_votes(ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
    gs = GOVERNOR.of(ctx.state)
    week = int(inter.payload["election"])
    gs.vote_question = 0
    election = gs.election if gs.election is not None and gs.election.week == week else Election(week=week)
    candidates = list(inter.payload.get("candidates", election.candidates))
    votes = {c: sum(1 for a in answers.values() if a == c) for c in candidates}
    election.votes = votes
    top = max(votes.values())
    tied = [c for c in candidates if votes[c] == top]
    how = "most votes"
    if len(tied) > 1:  # the higher bid, then a draw (XXXV.2)
        best = max(election.bids.get(c, 0) for c in tied)
        tied = [c for c in tied if election.bids.get(c, 0) == best]
        how = "a tie in votes, the higher bid"
        if len(tied) > 1:
            tied = [tied[ctx.dice.roll(f"governor/{week}/draw", len(tied)) - 1]]
            how = "a tie in votes and bids, a draw"
    counted = ", ".join(f"{c} {votes[c]}" for c in candidates)
    ctx.emit("governor", f"The votes for Governor: {counted}.", rule="XXXV.2", data={"votes": votes})
    return _elect(ctx, gs, election, tied[0], how)


def _elect(ctx: UpdateContext, gs: GovernorState, election: Election, winner: str, how: str) -> str:
    term = int(ctx.params("governor")["term_weeks"])
    election.winner, election.note = winner, how
    gs.elect, gs.elect_from, gs.elect_to = winner, election.week + 1, election.week + term
    _file(gs)
    ctx.emit("governor", f"{winner} is elected Governor ({how}) for weeks {gs.elect_from} to {gs.elect_to} "
                         "(XXXV.2).", rule="XXXV.2", data={"winner": winner})
    return f"{winner} elected ({how})"


def _file(gs: GovernorState) -> None:
    if gs.election is not None:
        gs.results = (gs.results + [gs.election])[-20:]
    gs.election = None
