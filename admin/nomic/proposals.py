"""VIII, IX.2, IX.3: proposals and votes (first cut: numbering, one per player per week, voting
between the Thursday and Sunday updates, Yes > No accepts, non-voters fined, cards as rewards)."""

from __future__ import annotations

from admin.engine.commands import Propose, Vote
from admin.engine.context import BANK
from admin.engine.rules.base import RuleModule
from admin.errors import IllegalAction
from admin.model import Proposal, Tally
from admin.model import Vote as VoteRecord


class ProposalsModule(RuleModule):
    name = "proposals"
    rules = ("VIII.1", "VIII.3", "VIII.4", "IX.2", "IX.3")
    defaults = {"missed_vote_fine": 100, "card_to_proposer": 1, "card_per_yes_vote": 1}
    summary = "One proposal per player per week; Yes > No accepts; no vote is Abstain and a $100 fine."

    def handlers(self):
        return {"propose": propose, "vote": vote}

    def on_update_end(self, ctx) -> None:
        if ctx.slot.closes_voting:
            for proposal in ctx.state.proposals:
                if proposal.status == "voting":
                    tally(ctx, proposal)
        if ctx.slot.opens_voting:
            for proposal in ctx.state.proposals:
                if proposal.status == "open" and proposal.week <= ctx.state.week:
                    proposal.status = "voting"
                    ctx.emit("voting-open", f"Voting is open on proposal {proposal.number}: "
                                            f"{proposal.title}.", rule="IX.3",
                             data={"proposal": proposal.number})


def propose(ctx, player, cmd: Propose) -> str:
    state = ctx.state
    if state.paused:
        raise IllegalAction("the game is paused: only the Admin makes a proposal this week (X.1)")
    if not ctx.slot.takes_proposals:
        raise IllegalAction("proposals are taken Monday to Wednesday and must arrive before midnight "
                            "on Wednesday (IX.2); send it again from Monday")
    number = state.next_proposal
    state.next_proposal += 1
    replaced = []
    for old in state.proposals:
        if old.proposer == player.name and old.week == state.week and old.status == "open":
            old.status = "replaced"
            old.note = f"replaced by proposal {number}"
            replaced.append(old.number)
    state.proposals.append(Proposal(number=number, proposer=player.name, title=cmd.title,
                                    text=cmd.text, week=state.week, update=state.update))
    extra = (f"; it replaces proposal {', '.join(map(str, replaced))} (one per player per week, IX.2)"
             if replaced else "")
    return f"{player.name} made proposal {number}: {cmd.title}{extra}."


def vote(ctx, player, cmd: Vote) -> str:
    proposal = ctx.state.proposal(cmd.proposal)
    if proposal is None:
        raise IllegalAction(f"there is no proposal {cmd.proposal}")
    if proposal.status != "voting":
        when = ("has not opened yet: it opens when the proposal is published at the Thursday "
                "update; vote on Friday or Saturday (IX.3)" if proposal.status == "open"
                else f"is closed ({proposal.status})")
        raise IllegalAction(f"voting on proposal {proposal.number} {when}")
    previous = proposal.votes.get(player.name)
    if previous is not None:
        previous.changed_from.append(previous.choice)
        previous.choice = cmd.choice
        previous.update = ctx.state.update
        return f"{player.name} changed their vote on proposal {proposal.number} to {cmd.choice.upper()}."
    proposal.votes[player.name] = VoteRecord(player=player.name, choice=cmd.choice, update=ctx.state.update)
    return f"{player.name} voted {cmd.choice.upper()} on proposal {proposal.number}."


def tally(ctx, proposal: Proposal) -> None:
    params = ctx.params("proposals")
    fine = int(params["missed_vote_fine"])
    voters = sorted(p.name for p in ctx.state.active_players())
    missing = [n for n in voters if n not in proposal.votes]
    choices = [proposal.votes[n].choice for n in voters if n in proposal.votes]
    yes, no = choices.count("yes"), choices.count("no")
    abstain = choices.count("abstain") + len(missing)
    result = Tally(yes=yes, no=no, abstain=abstain, missing=missing)
    for name in missing:
        ctx.transfer(name, BANK, fine, rule="VIII.3", reason=f"no vote on proposal {proposal.number}")
        result.fines[name] = fine
        ctx.emit("fine", f"{name} did not vote on proposal {proposal.number}: counted as Abstain and "
                         f"fined ${fine}.", player=name, rule="VIII.3")
    accepted = yes > no
    proposal.status = "accepted" if accepted else "rejected"
    proposal.tally = result
    ctx.emit("tally", f"Proposal {proposal.number} ({proposal.title}) is {proposal.status}: "
                      f"{yes} Yes, {no} No, {abstain} Abstain.", rule="VIII.4",
             data={"proposal": proposal.number, "yes": yes, "no": no, "abstain": abstain})
    if not accepted:
        return
    rewarded = []
    proposer = ctx.state.players.get(proposal.proposer)
    if proposer is not None and proposer.active:
        for i in range(int(params["card_to_proposer"])):
            ctx.draw_card(proposer, f"{proposer.name}/proposal{proposal.number}/proposer/{i}",
                          f"proposal {proposal.number} was accepted")
            rewarded.append(proposer.name)
    for name in voters:
        if name in proposal.votes and proposal.votes[name].choice == "yes":
            for i in range(int(params["card_per_yes_vote"])):
                ctx.draw_card(ctx.state.players[name], f"{name}/proposal{proposal.number}/yes/{i}",
                              f"voting Yes on accepted proposal {proposal.number}")
                rewarded.append(name)
    result.cards_to = rewarded
