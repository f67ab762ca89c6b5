"""The Admin's rulings on proposals (VIII.2, VIII.5, II.3, and carrying out a free-form one):
veto, send back, the Admin's own proposal and vote, amend, done, extra votes, enabling a module
with its section. :class:`admin.nomic.proposals.ProposalsModule` offers them (``rulings``)."""

from __future__ import annotations

from typing import Any

from admin.engine.context import UpdateContext
from admin.engine.errors import RuleError
from admin.engine.events import Ruling
from admin.engine.model import Proposal, ProposalStatus, VoteGrant
from admin.engine.module import RulingHandler
from admin.engine.rulings import ruling_player
from admin.nomic.amendments import carry_out, parse_directives
from admin.nomic.changes import record_changes
from admin.nomic.proposals import _CHOICES, ADMIN, add_proposal, cast_vote
from admin.nomic.review import settle

# -- the Admin's rulings on proposals (VIII.2, VIII.5, II.3) --------------------------------------
def _proposal(ctx: UpdateContext, args: dict[str, Any]) -> Proposal:
    number = int(args.get("proposal", 0))
    p = ctx.state.proposal(number)
    if p is None and number in ctx.state.archived:
        raise RuleError(f"proposal {number} is closed ({ctx.state.archived[number]}) and archived")
    if p is None:
        raise RuleError(f"ruling names proposal {args.get('proposal')!r}, which does not exist")
    return p


def _close_proposal(ctx: UpdateContext, r: Ruling, status: ProposalStatus, verb: str) -> Proposal:
    p = _proposal(ctx, r.args)
    if p.status not in ("open", "voting"):
        raise RuleError(f"proposal {p.number} is {p.status}; only an open or voting proposal can be {verb}")
    p.close(status, ctx.state.update, r.note)
    return p


def _veto(ctx: UpdateContext, r: Ruling) -> str:
    p = _close_proposal(ctx, r, "vetoed", "vetoed")
    return f"The Admin vetoed proposal {p.number} (VIII.5): {r.note}"


def _send_back(ctx: UpdateContext, r: Ruling) -> str:
    p = _close_proposal(ctx, r, "sent back", "sent back")
    return f"The Admin sent proposal {p.number} back to {p.proposer} (VIII.2): {r.note}"


def _propose(ctx: UpdateContext, r: Ruling) -> str:
    proposal, _ = add_proposal(ctx, ADMIN, str(r.args.get("title", "")), str(r.args.get("text", "")))
    return f"The Admin made proposal {proposal.number}: {proposal.title}."


def _admin_vote(ctx: UpdateContext, r: Ruling) -> str:
    if not ctx.params("proposals").get("admin_votes"):
        raise RuleError("in this game the Admin does not vote (proposals.admin_votes is false)")
    raw = r.args.get("choice", "")
    # YAML reads a bare yes/no as true/false
    choice = {True: "yes", False: "no"}[raw] if isinstance(raw, bool) else str(raw).lower()
    if choice not in _CHOICES:
        raise RuleError(f"the Admin's vote {raw!r} is not one of yes, no, abstain")
    return cast_vote(ctx, ADMIN, int(r.args.get("proposal", 0)), _CHOICES[choice])


def _amend(ctx: UpdateContext, r: Ruling) -> str:
    p = _proposal(ctx, r.args)
    if p.status != "accepted":
        raise RuleError(f"proposal {p.number} is {p.status}; only an accepted proposal is carried out")
    if not p.awaiting_admin:
        raise RuleError(f"proposal {p.number} was carried out already; to change the rules again, make a "
                        "proposal (nomopoly ruling propose)")
    directives = parse_directives(str(r.args.get("directives", "")))
    if not directives:
        raise RuleError("give the changes as directives: ADD RULE <section>: <text>, AMEND <rule>: "
                        "<text>, REPEAL <rule>, ADD SECTION <title>, RENUMBER")
    record_changes(ctx, p, carry_out(ctx.state, p.number, directives, ctx.registry))
    p.directives = p.directives or directives
    return f"The Admin carried out proposal {p.number}: {', '.join(p.changed_rules)} changed."


def _done(ctx: UpdateContext, r: Ruling) -> str:
    p = _proposal(ctx, r.args)
    if p.status != "accepted" or not p.awaiting_admin:
        raise RuleError(f"proposal {p.number} is {p.status}" + (", carried out already" if p.status == "accepted" else "")
                        + "; only an accepted proposal waiting for the Admin is marked done")
    p.awaiting_admin = False
    return f"The Admin carried out proposal {p.number} without changing the rules' text: {r.note}"


def _grant_votes(ctx: UpdateContext, r: Ruling) -> str:
    player = ruling_player(ctx, r.args)
    extra, week = int(r.args.get("extra", 1)), int(r.args.get("week", ctx.state.week))
    ctx.state.vote_grants.append(VoteGrant(player=player.name, extra=extra, week=week, reason=r.note))
    return f"The Admin granted {player.name} {extra} extra vote(s) on each proposal of week {week}: {r.note}"


def _enable(ctx: UpdateContext, r: Ruling) -> str:
    """The Admin switches a mechanic on as an ENABLE directive would: with its section of rules."""
    from admin.engine.config import set_param
    from admin.engine.model import Directive

    name = str(r.args.get("module"))
    changes = carry_out(ctx.state, None, [Directive("enable", name, str(r.args.get("after") or ""))],
                        ctx.registry)
    for key, value in dict(r.args.get("params") or {}).items():
        set_param(ctx.state, ctx.registry, name, key, value)
    added = sorted({c.rule_id.split(".")[0] for c in changes if not c.rule_id.startswith("module:")})
    text = f" and added section {', '.join(added)} to the rules" if added else ""
    return f"The Admin enabled the {name} module{text}: {r.note}"


RULINGS: dict[str, RulingHandler] = {
    "enable": _enable, "veto": _veto, "send-back": _send_back, "propose": _propose, "vote": _admin_vote,
    "amend": _amend, "done": _done, "grant-votes": _grant_votes,
    # a text-only rule (one a proposal added or amended) settled as flavour or applied by hand
    "settle": settle}
