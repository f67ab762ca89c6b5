"""The Admin's rulings: decisions that are inputs to an update, recorded in its log like mail.

``nomopoly ruling KIND ...`` queues one; the next update applies it before anything else."""

from __future__ import annotations

from typing import Any, Callable

from admin.engine.context import BANK, UpdateContext
from admin.engine.events import Ruling
from admin.errors import RuleError


def _player(ctx: UpdateContext, args: dict[str, Any]):
    name = args.get("player")
    if name not in ctx.state.players:
        raise RuleError(f"ruling names player {name!r}, who is not in the game; players: "
                        f"{', '.join(sorted(ctx.state.players)) or 'none'}")
    return ctx.state.players[name]


def _proposal(ctx: UpdateContext, args: dict[str, Any]):
    p = ctx.state.proposal(int(args.get("proposal", 0)))
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


def _veto(ctx: UpdateContext, r: Ruling) -> str:
    p = _proposal(ctx, r.args)
    p.status, p.note = "vetoed", r.note
    return f"The Admin vetoed proposal {p.number} (VIII.5): {r.note}"


def _send_back(ctx: UpdateContext, r: Ruling) -> str:
    p = _proposal(ctx, r.args)
    p.status, p.note = "sent back", r.note
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


RULINGS: dict[str, Callable[[UpdateContext, Ruling], str]] = {
    "adjust": _adjust, "pause": _pause, "unpause": _unpause, "veto": _veto,
    "send-back": _send_back, "reject-name": _reject_name, "set-param": _set_param,
    "end-game": _end_game,
}


def apply_ruling(ctx: UpdateContext, ruling: Ruling) -> None:
    fn = RULINGS.get(ruling.kind)
    if fn is None:
        raise RuleError(f"unknown ruling {ruling.kind!r}; known: {', '.join(sorted(RULINGS))}")
    ctx.emit("ruling", fn(ctx, ruling), rule="II.3", data={"kind": ruling.kind, **ruling.args})
