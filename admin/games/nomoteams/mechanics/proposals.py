"""IX: proposals as this variant has them. Players never vote: the Admin judges each proposal
(``nomopoly ruling decide judge proposal=N verdict=accept|reject [waste=true] [sick=true]
[simplifies=true]``). A player has at most two undecided proposals: a third discards the oldest
(IX.2). The Admin judges every player's first undecided proposal before any second (IX.7). A
proposal that is not a complete waste of time earns its proposer a turn, taken after the week's
judging in the order judged; just before it, $100 for an accepted proposal (and $100 more if it
simplifies the rules, IX.9) or a $10 fine for a rejected one (IX.5, IX.6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine import hooks
from admin.engine.context import BANK, UpdateContext
from admin.engine.declare import command, handled
from admin.engine.events import Ruling
from admin.engine.module import Mechanic
from admin.engine.errors import IllegalAction, RuleError
from admin.games.nomoteams.mechanics.shared import fine
from admin.nomic.proposal_rulings import RULINGS as LIBRARY_RULINGS
from admin.nomic.proposals import _carry_out, _parse_propose
from admin.engine.model import Proposal
from admin.nomic.amendments import check, parse_directives
from admin.nomic.archive import archive_closed

if TYPE_CHECKING:
    from admin.engine.model import GameState, Player
    from admin.engine.module import CommandSpec, RulingHandler

UNDECIDED = ("open", "voting")


def _parse(rest: str, line: object, block: Sequence[Any]) -> TeamsPropose:
    p = _parse_propose(rest, line, block)
    return TeamsPropose(p.title, p.text)


@command("PROPOSE [title] ... END", parse=_parse, cmd="teams-propose", block=True, phase=10, listing=50,
         summary="propose a change to the rules: the title, then its text on the lines "
                 "below, up to a line END; the Admin judges it",
         example="PROPOSE Free parking / ADD RULE VI: ... / END", rules=("IX.1",))
class TeamsPropose:
    """``PROPOSE [title]`` then the text up to a line ``END`` (IX.1)."""

    title: str
    text: str


@dataclass
class Judgement:
    """A proposal the Admin judged this update, waiting for its award or fine and its turn."""

    proposal: int
    proposer: str
    accepted: bool
    waste: bool = False
    simplifies: bool = False


@dataclass
class TeamsProposalsState:
    #: judged this update, in the order judged (their turns come after all the judging)
    judged: list[Judgement] = field(default_factory=list)
    #: proposals the Admin declared Sick (IX.8)
    sick: list[int] = field(default_factory=list)


class TeamsProposalsModule(Mechanic[TeamsProposalsState, None]):
    name = "teams-proposals"
    rules = ("IX.1", "IX.2", "IX.3", "IX.4", "IX.5", "IX.6", "IX.7", "IX.8", "IX.9")
    stated = {"IX.2": {"undecided_max": ("while {} of hers are undecided",)},
              "IX.6": {"accepted_award": ("is awarded ${} for each accepted",),
                       "rejected_fine": ("fined ${} for each rejected",)},
              "IX.9": {"simplifies_award": ("is awarded ${} more",)}}
    defaults = {"undecided_max": 2, "accepted_award": 100, "rejected_fine": 10, "simplifies_award": 100}
    minimums = {"undecided_max": 1}
    summary = "Proposals judged by the Admin: $100 or a $10 fine, and a turn, for each that is not a waste of time."
    State = TeamsProposalsState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((TeamsPropose, propose))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"judge": _judge, "amend": LIBRARY_RULINGS["amend"], "done": LIBRARY_RULINGS["done"],
                "propose": _admin_propose}

    def on_turns(self, ctx: UpdateContext) -> None:
        take_proposal_turns(ctx)

    def on_update_end(self, ctx: UpdateContext) -> None:
        for p in undecided(ctx.state):
            ctx.emit("admin", f"Proposal {p.number}, {p.title!r} by {p.proposer}, waits for your judgement (IX.3): "
                              f"nomopoly ruling decide judge proposal={p.number} verdict=accept|reject "
                              "[waste=true] [sick=true] [simplifies=true] --reason ...",
                     rule="IX.3", data={"proposal": p.number})
        ctx.archived += archive_closed(ctx.state)


def undecided(state: GameState) -> list[Proposal]:
    return [p for p in state.proposals if p.status in UNDECIDED]


def propose(ctx: UpdateContext, player: Player, cmd: TeamsPropose) -> str:
    state = ctx.state
    directives = parse_directives(cmd.text)
    problem = check(state, directives, ctx.registry) if directives else None
    if problem:
        raise IllegalAction(f"the proposal's directive cannot be carried out: {problem}; fix it and send "
                            "the proposal again")
    proposal = Proposal(number=state.next_proposal, proposer=player.name, title=cmd.title, text=cmd.text,
                        week=state.week, update=state.update, directives=directives)
    state.next_proposal += 1
    limit = int(ctx.params(TeamsProposalsModule.name)["undecided_max"])
    # one more this week for each a module grants (an All-Nighter, XIX.8)
    limit += hooks.call(state, ctx.registry).extra_proposals(state, player.name)
    mine = [p for p in undecided(state) if p.proposer == player.name]
    dropped = []
    while len(mine) >= limit:  # IX.2: the oldest undecided makes room
        old = mine.pop(0)
        old.close("replaced", state.update, f"discarded for proposal {proposal.number} (IX.2)")
        dropped.append(old.number)
    state.proposals.append(proposal)
    extra = f"; proposal {', '.join(map(str, dropped))} was discarded to make room (IX.2)" if dropped else ""
    return f"{player.name} made proposal {proposal.number}: {cmd.title}{extra}."


def _flag(args: dict[str, Any], key: str) -> bool:
    value = args.get(key, False)
    if isinstance(value, str):
        if value.lower() not in ("true", "false", "yes", "no", ""):
            raise RuleError(f"{key}={value!r}: say {key}=true or leave it out")
        return value.lower() in ("true", "yes")
    return bool(value)


def ranks(state: GameState) -> dict[int, int]:
    """Each undecided proposal's place among its proposer's undecided ones, oldest first (1: the
    first), in one pass."""
    out: dict[int, int] = {}
    count: dict[str, int] = {}
    for p in undecided(state):
        count[p.proposer] = count.get(p.proposer, 0) + 1
        out[p.number] = count[p.proposer]
    return out


def _judge(ctx: UpdateContext, r: Ruling) -> str:
    from admin.games.nomoteams.mechanics.health import is_sick

    number = int(r.args.get("proposal", 0))
    proposal = ctx.state.proposal(number)
    if proposal is None or proposal.status not in UNDECIDED:
        waiting = ", ".join(str(p.number) for p in undecided(ctx.state)) or "none"
        raise RuleError(f"proposal {r.args.get('proposal')!r} is not waiting for judgement; undecided: {waiting}")
    verdict = str(r.args.get("verdict", "")).lower()
    if verdict not in ("accept", "reject"):
        raise RuleError(f"verdict={r.args.get('verdict')!r}: give verdict=accept or verdict=reject")
    waste, sick, simplifies = _flag(r.args, "waste"), _flag(r.args, "sick"), _flag(r.args, "simplifies")
    if waste and verdict == "accept":
        raise RuleError("only a rejected proposal may be declared a complete waste of time (IX.4)")
    if simplifies and verdict == "reject":
        raise RuleError("the $100 for simplifying the rules is for an accepted proposal (IX.9)")
    rank = ranks(ctx.state)
    mine = rank[number]
    earlier = [p for p in undecided(ctx.state) if p.proposer != proposal.proposer and rank[p.number] < mine]
    if earlier:
        raise RuleError(f"proposal {number} is {proposal.proposer}'s undecided proposal no. {mine}; judge every "
                        f"player's earlier ones first (IX.7): {', '.join(str(p.number) for p in earlier)}")
    if sick and verdict == "accept" and not is_sick(ctx.state, proposal.proposer):  # Hurt is not Sick
        raise RuleError(f"a Sick Proposal is never accepted from a player who is not Sick, and "
                        f"{proposal.proposer} is not (IX.8)")
    ps = TeamsProposalsModule.of(ctx.state)
    if sick:
        ps.sick.append(number)
    accepted = verdict == "accept"
    proposal.close("accepted" if accepted else "rejected", ctx.state.update,
                   "a complete waste of time (IX.4)" if waste else ("a Sick Proposal (IX.8)" if sick else r.note or None))
    if accepted:
        _carry_out(ctx, proposal)
    if proposal.proposer in ctx.state.players:
        ps.judged.append(Judgement(number, proposal.proposer, accepted, waste, simplifies))
    return (f"The Admin {'accepted' if accepted else 'rejected'} proposal {number} by {proposal.proposer}"
            + (", a complete waste of time" if waste else "") + (", a Sick Proposal" if sick else "")
            + (", which simplifies the rules" if simplifies else "") + f": {r.note}")


def _admin_propose(ctx: UpdateContext, r: Ruling) -> str:
    from admin.nomic.proposals import ADMIN

    text = str(r.args.get("text", ""))
    proposal = Proposal(number=ctx.state.next_proposal, proposer=ADMIN, title=str(r.args.get("title", "")),
                        text=text, week=ctx.state.week, update=ctx.state.update, directives=parse_directives(text))
    ctx.state.next_proposal += 1
    ctx.state.proposals.append(proposal)
    return f"The Admin made proposal {proposal.number}: {proposal.title}."


def take_proposal_turns(ctx: UpdateContext) -> None:
    """IX.5, IX.6, IX.9: each proposal judged this update, in the order judged: its award or fine,
    then (unless a complete waste of time) its proposer's turn."""
    from admin.games.nomoteams.mechanics.turns import take_turn_for

    ps = TeamsProposalsModule.of(ctx.state)
    p = ctx.params(TeamsProposalsModule.name)
    judged, ps.judged = ps.judged, []
    for j in judged:
        player = ctx.state.players.get(j.proposer)
        if player is None or not player.active:
            continue
        if j.accepted:
            award = int(p["accepted_award"]) + (int(p["simplifies_award"]) if j.simplifies else 0)
            ctx.transfer(BANK, player.name, award, rule="IX.6", reason=f"accepted proposal {j.proposal}"
                         + (" (which simplifies the rules, IX.9)" if j.simplifies else ""))
            ctx.emit("award", f"{player.name} was awarded {ctx.state.money(award)} for accepted proposal "
                              f"{j.proposal} (IX.6" + (", IX.9" if j.simplifies else "") + ").",
                     player=player.name, rule="IX.6", data={"proposal": j.proposal, "amount": award})
        else:
            amount = int(p["rejected_fine"])
            fine(ctx, player, amount, rule="IX.6", reason=f"rejected proposal {j.proposal}")
            ctx.emit("award", f"{player.name} was fined {ctx.state.money(amount)} for rejected proposal "
                              f"{j.proposal} (IX.6).", player=player.name, rule="IX.6",
                     data={"proposal": j.proposal, "amount": -amount})
        if j.waste:
            ctx.emit("no-move", f"Proposal {j.proposal} was a complete waste of time: {player.name} earns no "
                                "turn for it (IX.5).", player=player.name, rule="IX.5")
            continue
        take_turn_for(ctx, player, f"proposal {j.proposal} was judged")
