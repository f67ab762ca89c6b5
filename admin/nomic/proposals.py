"""Proposals and votes (Nomopoly II VIII, IX.2-3, X; the first Nomopoly's VII as parameters).

Lifecycle: ``open`` (received in the proposal period; a later one from the same player that week
``replaced`` it) -> ``voting`` (at the update that publishes it; its text is frozen) -> ``accepted``
or ``rejected`` at the update that closes the vote. The Admin may send a proposal back (``sent
back``) or veto it (``vetoed``); its proposer may withdraw it (``withdrawn``) until the tally.

The differences between games are parameters of this one module, not forks of it: how many
proposals a week, whether the Admin votes, the fine for not voting, the cards and money a result
moves, and when abstentions void or reward (see ``defaults``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar, Literal, Sequence

from admin.engine import hooks
from admin.engine.context import BANK, UpdateContext
from admin.engine.declare import ProposalNo, command, handled
from admin.engine.module import CommandSpec, Mechanic, RulingHandler
from admin.engine.syntax import MAX_NAME, PROPOSAL, check_text, parse_proposal, quote
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.library.api import CARDS
from admin.library.cards import draw_card
from admin.engine.model import Player, Proposal, Tally, Vote as VoteRecord
from admin.nomic.amendments import carry_out, check, parse_directives
from admin.nomic.archive import archive_closed
from admin.nomic.changes import foreseen, record_changes
from admin.nomic.written import understood_rules

ADMIN = "Admin"
VoteChoice = Literal["yes", "no", "abstain"]
_CHOICES: dict[str, VoteChoice] = {"yes": "yes", "no": "no", "abstain": "abstain"}


def _parse_propose(rest: str, line: object, block: Sequence[Any]) -> Propose:
    texts = [b.text.rstrip() for b in block]
    while texts and not texts[-1].strip():
        texts.pop()
    while texts and not texts[0].strip():
        texts.pop(0)
    if not texts:
        raise CommandError("the proposal has no text; write its text on the lines between "
                           "PROPOSE and END.")
    title = check_text(rest.strip(), "the title")
    if len(title) > MAX_NAME:
        raise CommandError(f"the title is {len(title)} characters long; at most {MAX_NAME} "
                           f"are allowed.")
    body = check_text("\n".join(t.replace("\t", "    ") for t in texts), "the proposal's text")
    return Propose(title or body.split("\n")[0].strip()[:MAX_NAME], body)


def _parse_vote(rest: str, line: object) -> Vote:
    words = rest.split()
    if len(words) < 2:
        raise CommandError("VOTE needs a proposal number and YES, NO or ABSTAIN, like VOTE 7 YES.")
    choice = words[-1].lower()
    ref = " ".join(words[:-1])
    if words[0].lower() in _CHOICES and PROPOSAL.match(" ".join(words[1:])):
        raise CommandError("write the proposal first, then the vote, like VOTE 7 YES.")
    if choice not in _CHOICES and len(words) > 2 and words[1].lower() in _CHOICES and PROPOSAL.match(words[0]):
        raise CommandError(f"{quote(' '.join(words[2:]))} after the vote is not part of it; write just "
                           f"VOTE {words[0]} {words[1].upper()}.")
    number = parse_proposal(ref)
    if choice not in _CHOICES:
        raise CommandError(f"{quote(words[-1])} is not a vote; write YES, NO or ABSTAIN.")
    return Vote(number, _CHOICES[choice])


@command("PROPOSE [title] ... END", parse=_parse_propose, block=True, phase=10, listing=50,
         summary="propose a change to the rules: the title, then its text on the lines below, up to a line END",
         example="PROPOSE Free parking / ADD RULE VI: ... / END", rules=("VIII.1",))
class Propose:
    """``PROPOSE [title]`` then the text up to a line ``END`` (VIII.1)."""

    title: str
    text: str


@command("VOTE <proposal> YES|NO|ABSTAIN", parse=_parse_vote, listing=60,
         summary="vote on an open proposal; your last vote before the deadline counts", example="VOTE 3 YES",
         rules=("VIII.3",))
class Vote:
    """``VOTE <proposal> YES|NO|ABSTAIN`` (VIII.3)."""

    proposal: int
    choice: VoteChoice


@command("WITHDRAW <proposal>", hint="WITHDRAW needs the number of your proposal, like WITHDRAW 7.",
         summary="take back your own proposal before it is decided", example="WITHDRAW 3")
class Withdraw:
    """``WITHDRAW <proposal>``: the proposer takes their proposal back before the tally."""

    proposal: ProposalNo


def _check_share(value: Any) -> None:
    """None, or a share of the players from 0 to 1: "1/3", 0.5."""
    try:
        share = None if value is None or isinstance(value, bool) else Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        share = None
    if value is not None and (share is None or not 0 <= share <= 1):
        raise RuleError(f"a share of the players from 0 to 1, like \"1/3\", or nothing; not {value!r}")


class ProposalsModule(Mechanic[None, None]):
    name = "proposals"
    rules = ("VIII.1", "VIII.2", "VIII.3", "VIII.4", "VIII.5", "IX.2", "IX.3", "X.1", "X.2")
    defaults: ClassVar[dict[str, Any]] = {
        "per_week": 1,                 # proposals per player per week; the last ones count
        "missed_vote_fine": 100,       # per proposal not voted on
        "card_to_proposer": 1,         # cards to the proposer on acceptance
        "card_per_yes_vote": 1,        # cards to each Yes voter on acceptance
        "proposer_reward": 0,          # dollars to the proposer on acceptance
        "proposer_penalty": 0,         # dollars the proposer loses on rejection
        "abstain_share_voids": None,   # e.g. "1/3": more abstaining than this, no reward/penalty
        "majority_abstain_bonus": 0,   # dollars to each non-abstainer when most abstain
        "admin_votes": False,          # the Admin votes too (the first Nomopoly)
        "admin_reward": 0,             # the Admin Bank Account gains this when the Admin's proposal passes
        "admin_penalty": 0,            # and loses this when it is rejected
    }
    maximums = {'card_to_proposer': 10, 'card_per_yes_vote': 10}
    validators = {'abstain_share_voids': _check_share}
    summary = "Proposals Monday to Wednesday, votes Friday and Saturday; the tally and its rewards."

    def rulings(self) -> dict[str, RulingHandler]:
        from admin.nomic.proposal_rulings import RULINGS  # they call this module's functions

        return RULINGS

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Propose, propose), (Vote, vote), (Withdraw, withdraw))

    def on_update_end(self, ctx: UpdateContext) -> None:
        if ctx.slot.closes_voting:
            for proposal in ctx.state.proposals:
                if proposal.status == "voting" and (not ctx.state.paused or proposal.proposer == ADMIN):
                    tally(ctx, proposal)
        if ctx.slot.opens_voting:
            for proposal in ctx.state.proposals:
                if proposal.status == "open" and proposal.week <= ctx.state.week:
                    proposal.status = "voting"
                    ctx.emit("voting-open", f"Voting is open on proposal {proposal.number}: "
                                            f"{proposal.title}.", rule="IX.3",
                             data={"proposal": proposal.number})
        ctx.archived += archive_closed(ctx.state)
        # extra votes count in their own week only (VIII.4, vote_weight): a past week's are spent
        ctx.state.vote_grants = [g for g in ctx.state.vote_grants if g.week >= ctx.state.week]


def add_proposal(ctx: UpdateContext, proposer: str, title: str, text: str,
                 week: int | None = None) -> tuple[Proposal, list[int]]:
    """Number and record a proposal; the oldest of the proposer's open ones this week beyond
    ``per_week`` is replaced (IX.2: the last ones received count)."""
    state = ctx.state
    directives = parse_directives(text)
    problem = check(state, directives, ctx.registry) if directives else None
    if problem:
        raise IllegalAction(f"the proposal's directive cannot be carried out: {problem}; fix it and "
                            "send the proposal again")
    proposal = Proposal(number=state.next_proposal, proposer=proposer, title=title, text=text,
                        week=week or state.week, update=state.update, directives=directives)
    state.next_proposal += 1
    state.proposals.append(proposal)
    per_week = int(ctx.params("proposals")["per_week"]) + hooks.call(  # the Governor's (XXXV.3)
        state, ctx.registry).extra_proposals(state, proposer)
    mine = [p for p in state.proposals
            if p.proposer == proposer and p.week == proposal.week and p.status == "open"]
    replaced = []
    for old in mine[:-per_week] if len(mine) > per_week else []:
        old.close("replaced", state.update, f"replaced by proposal {proposal.number}")
        replaced.append(old.number)
    return proposal, replaced


def propose(ctx: UpdateContext, player: Player, cmd: Propose) -> str:
    if ctx.state.paused:
        raise IllegalAction("the game is paused: only the Admin makes a proposal this week (X.1)")
    week = None
    if not ctx.slot.takes_proposals:
        sent_back = [p for p in ctx.state.proposals if p.proposer == player.name
                     and p.status == "sent back" and not (p.note or "").startswith("resubmitted")]
        if not sent_back:
            raise IllegalAction("proposals are taken Monday to Wednesday and must arrive before "
                                "midnight on Wednesday (IX.2); send it again from Monday")
        week = ctx.state.week + 1  # a resubmission goes to the next vote (VIII.2)
    proposal, replaced = add_proposal(ctx, player.name, cmd.title, cmd.text, week)
    if week is not None:
        sent_back[-1].note = f"resubmitted as proposal {proposal.number}; {sent_back[-1].note or ''}".strip("; ")
    extra = (f"; it replaces proposal {', '.join(map(str, replaced))} (IX.2: the last one counts)"
             if replaced else "")
    kind = "free-form: if accepted, the Admin carries it out" if not proposal.directives else \
        f"{len(proposal.directives)} change(s) to the rules"
    understood = "".join(f" {line}" for line in understood_rules(ctx.state, proposal.directives)
                         + foreseen(ctx.state, ctx.registry, proposal.directives))
    return f"{player.name} made proposal {proposal.number}: {cmd.title} ({kind}){extra}.{understood}"


def withdraw(ctx: UpdateContext, player: Player, cmd: Withdraw) -> str:
    proposal = ctx.state.proposal(cmd.proposal)
    if proposal is None or proposal.proposer != player.name:
        closed = ctx.state.archived.get(cmd.proposal)
        raise IllegalAction(f"proposal {cmd.proposal} is {closed} and can no longer be withdrawn"
                            if closed else f"you have no proposal {cmd.proposal} to withdraw")
    if proposal.status not in ("open", "voting"):
        raise IllegalAction(f"proposal {proposal.number} is {proposal.status} and can no longer be withdrawn")
    proposal.close("withdrawn", ctx.state.update)
    return f"{player.name} withdrew proposal {proposal.number}."


def vote_weight(ctx: UpdateContext, name: str) -> int:
    """1 plus extra votes granted for this week, never more than the other players (VIII.4)."""
    extra = sum(g.extra for g in ctx.state.vote_grants if g.player == name and g.week == ctx.state.week)
    if extra <= 0:  # one vote: the cap below never takes it away (and counting the players is not free)
        return 1
    others = len([p for p in ctx.state.active_players() if p.name != name])
    return max(1, min(1 + extra, others))


def vote(ctx: UpdateContext, player: Player, cmd: Vote) -> str:
    return cast_vote(ctx, player.name, cmd.proposal, cmd.choice, vote_weight(ctx, player.name))


def cast_vote(ctx: UpdateContext, voter: str, number: int, choice: VoteChoice, weight: int = 1) -> str:
    proposal = ctx.state.proposal(number)
    if proposal is None and number in ctx.state.archived:
        raise IllegalAction(f"voting on proposal {number} is closed ({ctx.state.archived[number]})")
    if proposal is None:
        raise IllegalAction(f"there is no proposal {number}")
    if proposal.status != "voting":
        when = ("has not opened yet: it opens when the proposal is published at the Thursday "
                "update; vote on Friday or Saturday (IX.3)" if proposal.status == "open"
                else f"is closed ({proposal.status})")
        raise IllegalAction(f"voting on proposal {proposal.number} {when}")
    if ctx.state.paused and proposal.proposer != ADMIN:
        raise IllegalAction("the game is paused: only the Admin's proposal is voted on (X.2)")
    weight_note = f" ({weight} votes)" if weight > 1 else ""
    previous = proposal.votes.get(voter)
    if previous is not None:
        previous.changed_from.append(previous.choice)
        previous.choice, previous.update, previous.weight = choice, ctx.state.update, weight
        return f"{voter} changed their vote on proposal {proposal.number} to {choice.upper()}{weight_note}."
    proposal.votes[voter] = VoteRecord(player=voter, choice=choice, update=ctx.state.update,
                                       weight=weight)
    return f"{voter} voted {choice.upper()} on proposal {proposal.number}{weight_note}."


def tally(ctx: UpdateContext, proposal: Proposal) -> None:
    p = ctx.params("proposals")
    voters = sorted(pl.name for pl in ctx.state.active_players())
    if p["admin_votes"]:
        voters.append(ADMIN)
    missing = [n for n in voters if n not in proposal.votes and n != ADMIN]
    count = {"yes": 0, "no": 0, "abstain": len(missing)}
    for name in voters:
        v = proposal.votes.get(name)
        if v is not None:
            count[v.choice] += v.weight
    result = Tally(yes=count["yes"], no=count["no"], abstain=count["abstain"], missing=missing)
    proposal.tally = result
    fine = int(p["missed_vote_fine"])
    for name in missing:
        _pay(ctx, result, name, BANK, fine, "VIII.3", f"no vote on proposal {proposal.number}")
        result.fines[name] = fine
        ctx.emit("fine", f"{name} did not vote on proposal {proposal.number}: counted as Abstain"
                         + (f" and fined ${fine}." if fine else "."), player=name, rule="VIII.3")
    accepted = result.yes > result.no
    proposal.close("accepted" if accepted else "rejected", ctx.state.update)
    ctx.emit("tally", f"Proposal {proposal.number} ({proposal.title}) is {proposal.status}: "
                      f"{result.yes} Yes, {result.no} No, {result.abstain} Abstain.", rule="VIII.4",
             data={"proposal": proposal.number, "yes": result.yes, "no": result.no,
                   "abstain": result.abstain})
    _consequences(ctx, proposal, result, accepted, p)
    if accepted:
        _carry_out(ctx, proposal)


def _pay(ctx: UpdateContext, result: Tally, payer: str, payee: str, amount: int, rule: str, reason: str) -> None:
    if amount <= 0:
        return
    ctx.transfer(payer, payee, amount, rule=rule, reason=reason)
    for name, delta in ((payer, -amount), (payee, amount)):
        if name != BANK:
            result.money[name] = result.money.get(name, 0) + delta


def _consequences(ctx: UpdateContext, proposal: Proposal, result: Tally, accepted: bool, p: dict[str, Any]) -> None:
    players = [pl.name for pl in ctx.state.active_players()]
    abstaining = [n for n in players if n in result.missing or
                  (n in proposal.votes and proposal.votes[n].choice == "abstain")]
    share = Fraction(len(abstaining), len(players)) if players else Fraction(0)
    proposer = ctx.state.players.get(proposal.proposer)
    voids = p["abstain_share_voids"]
    if voids is not None and share > Fraction(str(voids)):
        result.note = f"more than {voids} of the players abstained: no reward or penalty for the proposer"
    elif proposal.proposer == ADMIN and (p["admin_reward"] or p["admin_penalty"]):
        # the first Nomopoly's VII.7: the Admin's own proposals gain or cost the Admin Bank Account
        change = int(p["admin_reward"]) if accepted else -int(p["admin_penalty"])
        ctx.state.admin_bank += change
        ctx.emit("bank", f"The Admin Bank Account {'gained' if change > 0 else 'lost'} "
                         f"{ctx.state.money(abs(change))}: the Admin's proposal {proposal.number} was "
                         f"{'accepted' if accepted else 'rejected'}.", rule="VIII.4")
    elif proposer is not None and proposer.active:
        if accepted:
            _pay(ctx, result, BANK, proposer.name, int(p["proposer_reward"]), "VIII.4",
                 f"proposal {proposal.number} was accepted")
        else:
            _pay(ctx, result, proposer.name, BANK, int(p["proposer_penalty"]), "VIII.4",
                 f"proposal {proposal.number} was rejected")
    bonus = int(p["majority_abstain_bonus"])
    if bonus and share > Fraction(1, 2):
        for name in players:
            if name not in abstaining:
                _pay(ctx, result, BANK, name, bonus, "VIII.4",
                     f"not abstaining when most abstained on proposal {proposal.number}")
    if not accepted or not CARDS.on(ctx.state):
        return
    if proposer is not None and proposer.active:
        for i in range(int(p["card_to_proposer"])):
            draw_card(ctx, proposer, f"{proposer.name}/proposal{proposal.number}/proposer/{i}",
                          f"proposal {proposal.number} was accepted")
            result.cards_to.append(proposer.name)
    for name in sorted(players):
        v = proposal.votes.get(name)
        if v is not None and v.choice == "yes":
            for i in range(int(p["card_per_yes_vote"])):
                draw_card(ctx, ctx.state.players[name], f"{name}/proposal{proposal.number}/yes/{i}",
                              f"voting Yes on accepted proposal {proposal.number}")
                result.cards_to.append(name)


def _carry_out(ctx: UpdateContext, proposal: Proposal) -> None:
    state = ctx.state
    if proposal.proposer == ADMIN and state.paused:
        state.paused = False
        ctx.emit("unpaused", f"The Admin's proposal {proposal.number} was accepted: the game is "
                             "unpaused (X.2).", rule="X.2")
    if not proposal.directives:
        proposal.awaiting_admin = True
        ctx.emit("awaiting-admin", f"Proposal {proposal.number} is accepted and waits for the Admin "
                                   "to carry it out (it changes the game in its own words).",
                 rule="VIII.4", data={"proposal": proposal.number})
        return
    problem = check(state, proposal.directives, ctx.registry)
    if problem:
        proposal.awaiting_admin = True
        proposal.note = f"could not be carried out as written: {problem}"
        ctx.emit("awaiting-admin", f"Proposal {proposal.number} is accepted but {proposal.note}; "
                                   "the Admin decides.", rule="I.2", data={"proposal": proposal.number})
        return
    try:
        changes = carry_out(state, proposal.number, proposal.directives, ctx.registry)
    except Exception as exc:  # one proposal is set aside, never the update (issue 30)
        proposal.awaiting_admin = True
        proposal.note = f"could not be carried out ({type(exc).__name__}: {exc})"
        ctx.emit("awaiting-admin", f"Proposal {proposal.number} is accepted but {proposal.note}; the Admin "
                                   "decides.", rule="I.2", data={"proposal": proposal.number})
        return
    record_changes(ctx, proposal, changes)
