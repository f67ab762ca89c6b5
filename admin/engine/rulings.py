"""The Admin's rulings: decisions that are inputs to an update, recorded in its log like mail.

``nomopoly ruling KIND ...`` queues one; the next update applies it before anything else."""

from __future__ import annotations

from typing import Any, Callable

from admin.engine.context import BANK, UpdateContext
from admin.engine.events import Ruling
from admin.errors import IllegalAction, RuleError


def _player(ctx: UpdateContext, args: dict[str, Any]):
    name = args.get("player")
    if name not in ctx.state.players:
        raise RuleError(f"ruling names player {name!r}, who is not in the game; players: "
                        f"{', '.join(sorted(ctx.state.players)) or 'none'}")
    return ctx.state.players[name]


def _proposal(ctx: UpdateContext, args: dict[str, Any]):
    number = int(args.get("proposal", 0))
    p = ctx.state.proposal(number)
    if p is None and number in ctx.state.archived:
        raise RuleError(f"proposal {number} is closed ({ctx.state.archived[number]}) and archived")
    if p is None:
        raise RuleError(f"ruling names proposal {args.get('proposal')!r}, which does not exist")
    return p


def _adjust(ctx: UpdateContext, r: Ruling) -> str:
    player = _player(ctx, r.args)
    money, health = int(r.args.get("money", 0)), int(r.args.get("health", 0))
    if money:
        ctx.transfer(BANK, player.name, money, rule="II.3", reason=f"the Admin's ruling: {r.note}")
    if health:
        ctx.change_health(player, health, rule="II.3", reason=f"the Admin's ruling: {r.note}")
    parts = ([f"${money:+d}"] if money else []) + ([f"{health:+d} health"] if health else [])
    return f"The Admin adjusted {player.name}: {', '.join(parts) or 'no change'} ({r.note})."


def _pause(ctx: UpdateContext, r: Ruling) -> str:
    ctx.state.paused = True
    return f"The Admin paused the game (X.1): {r.note}"


def _unpause(ctx: UpdateContext, r: Ruling) -> str:
    ctx.state.paused = False
    return f"The Admin unpaused the game: {r.note}"


def _close_proposal(ctx: UpdateContext, r: Ruling, status: str, verb: str):
    p = _proposal(ctx, r.args)
    if p.status not in ("open", "voting"):
        raise RuleError(f"proposal {p.number} is {p.status}; only an open or voting proposal can be {verb}")
    p.close(status, ctx.state.update, r.note)  # type: ignore[arg-type]
    return p


def _veto(ctx: UpdateContext, r: Ruling) -> str:
    p = _close_proposal(ctx, r, "vetoed", "vetoed")
    return f"The Admin vetoed proposal {p.number} (VIII.5): {r.note}"


def _send_back(ctx: UpdateContext, r: Ruling) -> str:
    p = _close_proposal(ctx, r, "sent back", "sent back")
    return f"The Admin sent proposal {p.number} back to {p.proposer} (VIII.2): {r.note}"


def _reject_name(ctx: UpdateContext, r: Ruling) -> str:
    sq = ctx.state.square(int(r.args.get("square", 0)))
    if sq is None:
        raise RuleError(f"ruling names square {r.args.get('square')!r}, which does not exist")
    old, sq.name = sq.name, None
    return f"The Admin rejected the name {old!r} of square {sq.number} (XIII.4): {r.note}"


def _set_param(ctx: UpdateContext, r: Ruling) -> str:
    module, key, value = r.args.get("module"), r.args.get("key"), r.args.get("value")
    for m in ctx.state.modules:
        if m.name == module:
            m.params[str(key)] = value
            return f"The Admin set {module}.{key} = {value!r}: {r.note}"
    raise RuleError(f"module {module!r} is not enabled; enabled: "
                    f"{', '.join(m.name for m in ctx.state.modules)}")


def _end_game(ctx: UpdateContext, r: Ruling) -> str:
    ctx.state.ended = True
    ctx.state.winner = r.args.get("winner")
    ctx.state.end_reason = r.note or "ended by the Admin"
    return f"The Admin ended the game: {ctx.state.end_reason}."


def _propose(ctx: UpdateContext, r: Ruling) -> str:
    from admin.nomic.proposals import ADMIN, add_proposal

    proposal, _ = add_proposal(ctx, ADMIN, str(r.args.get("title", "")), str(r.args.get("text", "")))
    return f"The Admin made proposal {proposal.number}: {proposal.title}."


def _admin_vote(ctx: UpdateContext, r: Ruling) -> str:
    from admin.nomic.proposals import ADMIN, cast_vote

    if not ctx.params("proposals").get("admin_votes"):
        raise RuleError("in this game the Admin does not vote (proposals.admin_votes is false)")
    return cast_vote(ctx, ADMIN, int(r.args.get("proposal", 0)), str(r.args.get("choice", "")).lower())


def _amend(ctx: UpdateContext, r: Ruling) -> str:
    from admin.nomic.amendments import carry_out, parse_directives
    from admin.nomic.proposals import record_changes

    p = _proposal(ctx, r.args)
    if p.status != "accepted":
        raise RuleError(f"proposal {p.number} is {p.status}; only an accepted proposal is carried out")
    directives = parse_directives(str(r.args.get("directives", "")))
    if not directives:
        raise RuleError("give the changes as directives: ADD RULE <section>: <text>, AMEND <rule>: "
                        "<text>, REPEAL <rule>, ADD SECTION <title>, RENUMBER")
    record_changes(ctx, p, carry_out(ctx.state, p.number, directives))
    p.directives = p.directives or directives
    return f"The Admin carried out proposal {p.number}: {', '.join(p.changed_rules)} changed."


def _done(ctx: UpdateContext, r: Ruling) -> str:
    p = _proposal(ctx, r.args)
    p.awaiting_admin = False
    return f"The Admin carried out proposal {p.number} without changing the rules' text: {r.note}"


def _grant_votes(ctx: UpdateContext, r: Ruling) -> str:
    from admin.model import VoteGrant

    player = _player(ctx, r.args)
    extra, week = int(r.args.get("extra", 1)), int(r.args.get("week", ctx.state.week))
    ctx.state.vote_grants.append(VoteGrant(player=player.name, extra=extra, week=week, reason=r.note))
    return f"The Admin granted {player.name} {extra} extra vote(s) on each proposal of week {week}: {r.note}"


RULINGS: dict[str, Callable[[UpdateContext, Ruling], str]] = {
    "adjust": _adjust, "pause": _pause, "unpause": _unpause, "veto": _veto,
    "send-back": _send_back, "reject-name": _reject_name, "set-param": _set_param,
    "end-game": _end_game, "propose": _propose, "vote": _admin_vote, "amend": _amend,
    "done": _done, "grant-votes": _grant_votes,
}


def apply_ruling(ctx: UpdateContext, ruling: Ruling) -> None:
    """Apply one ruling; one that cannot be carried out is reported, and the update goes on."""
    fn = RULINGS.get(ruling.kind)
    before = len(ctx.events)
    try:
        if fn is None:
            raise RuleError(f"unknown ruling {ruling.kind!r}; known: {', '.join(sorted(RULINGS))}")
        text = fn(ctx, ruling)
    except (RuleError, IllegalAction) as exc:
        del ctx.events[before:]
        ctx.emit("ruling", f"The Admin's ruling {ruling.kind} could not be carried out: {exc}",
                 ok=False, rule="II.3", data={"kind": ruling.kind})
        return
    ctx.emit("ruling", text, rule="II.3", data={"kind": ruling.kind, **{k: v for k, v in ruling.args.items()
                                                                        if k not in ("text", "directives")}})
