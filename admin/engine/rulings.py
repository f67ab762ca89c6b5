"""The Admin's rulings: decisions that are inputs to an update, recorded in its log like mail.

``nomopoly ruling KIND ...`` queues one; the next update applies it before anything else."""

from __future__ import annotations

from typing import Any

from admin.engine import hooks
from admin.engine.capabilities import AdjustsQuantities
from admin.engine.config import disable_module, enable_module, set_param
from admin.engine.context import BANK, UpdateContext
from admin.engine.events import Ruling
from admin.engine.errors import IllegalAction, RuleError
from admin.engine.model import Player
from admin.engine.module import RulingHandler


def ruling_player(ctx: UpdateContext, args: dict[str, Any]) -> Player:
    """The player a ruling names (``args["player"]``); a RuleError lists the players."""
    name = args.get("player")
    if name not in ctx.state.players:
        raise RuleError(f"ruling names player {name!r}, who is not in the game; players: "
                        f"{', '.join(sorted(ctx.state.players)) or 'none'}")
    return ctx.state.players[name]


def _adjust(ctx: UpdateContext, r: Ruling) -> str:
    """Money is the core's to adjust; any other quantity (health ...) its module's."""
    player = ruling_player(ctx, r.args)
    if not any(int(v) for k, v in r.args.items() if k != "player"):
        raise RuleError("nothing to adjust: give an amount, e.g. --money 50 or --health -10")
    reason = f"the Admin's ruling: {r.note}"
    parts = []
    money = int(r.args.get("money", 0))
    if money:
        ctx.transfer(BANK, player.name, money, rule="II.3", reason=reason)
        parts.append(f"{'+' if money > 0 else '-'}{ctx.state.money(abs(money))}")
    for key, value in r.args.items():
        if key in ("player", "money") or not int(value):
            continue
        keeper = ctx.registry.provider(ctx.state, AdjustsQuantities)
        if keeper is None or not keeper.adjust(ctx, player, key, int(value), reason):
            raise RuleError(f"no module of this game keeps a player's {key}; adjust money, or "
                            "a quantity of an enabled module")
        parts.append(f"{int(value):+d} {key}")
    return f"The Admin adjusted {player.name}: {', '.join(parts) or 'no change'} ({r.note})."


def _pause(ctx: UpdateContext, r: Ruling) -> str:
    if ctx.state.paused:
        raise RuleError("the game is paused already")
    ctx.state.paused = True
    return f"The Admin paused the game (X.1): {r.note}"


def _unpause(ctx: UpdateContext, r: Ruling) -> str:
    if not ctx.state.paused:
        raise RuleError("the game is not paused")
    ctx.state.paused = False
    return f"The Admin unpaused the game: {r.note}"


def _set_param(ctx: UpdateContext, r: Ruling) -> str:
    module, key, value = str(r.args.get("module")), str(r.args.get("key")), r.args.get("value")
    value = set_param(ctx.state, ctx.registry, module, key, value)
    return f"The Admin set {module}.{key} = {value!r}: {r.note}"


def _enable(ctx: UpdateContext, r: Ruling) -> str:
    name = str(r.args.get("module"))
    enable_module(ctx.state, ctx.registry, name, dict(r.args.get("params") or {}),
                  after=r.args.get("after"))
    return f"The Admin enabled the {name} module: {r.note}"


def _disable(ctx: UpdateContext, r: Ruling) -> str:
    name = str(r.args.get("module"))
    disable_module(ctx.state, name)
    return f"The Admin disabled the {name} module: {r.note}"


def _end_game(ctx: UpdateContext, r: Ruling) -> str:
    winner = r.args.get("winner")
    if winner and winner not in ctx.state.players:
        raise RuleError(f"the winner named, {winner!r}, is not a player; players: "
                        f"{', '.join(sorted(ctx.state.players)) or 'none'}")
    ctx.state.ended = True
    ctx.state.winner = r.args.get("winner")
    ctx.state.end_reason = r.note or "ended by the Admin"
    return f"The Admin ended the game: {ctx.state.end_reason}."


#: The core's rulings; each module adds its own (``Mechanic.rulings``).
RULINGS: dict[str, RulingHandler] = {
    "adjust": _adjust, "pause": _pause, "unpause": _unpause, "set-param": _set_param,
    "enable": _enable, "disable": _disable, "end-game": _end_game,
}


def ruling_table(ctx: UpdateContext) -> dict[str, RulingHandler]:
    """The core's rulings, and each enabled module's (a module's replaces the core's of the same
    kind: the proposals module's ``enable`` also adds the section of rules the game writes for
    the mechanic; the first module in precedence wins a tie)."""
    mine: dict[str, RulingHandler] = hooks.call(ctx).rulings()
    return {**RULINGS, **mine}


def apply_ruling(ctx: UpdateContext, ruling: Ruling) -> None:
    """Apply one ruling; one that cannot be carried out is reported, and the update goes on."""
    table = ruling_table(ctx)
    fn = table.get(ruling.kind)
    before = len(ctx.events)
    try:
        if fn is None:
            raise RuleError(f"unknown ruling {ruling.kind!r}; known: {', '.join(sorted(table))}")
        text = fn(ctx, ruling)
    except (RuleError, IllegalAction) as exc:
        del ctx.events[before:]
        ctx.emit("ruling", f"The Admin's ruling {ruling.kind} could not be carried out: {exc}",
                 ok=False, rule="II.3", data={"kind": ruling.kind})
        return
    except Exception as exc:  # a fault in a mechanic: this ruling is set aside, never the update
        del ctx.events[before:]
        ctx.emit("ruling", f"The Admin's ruling {ruling.kind} could not be carried out: it fails "
                           f"({type(exc).__name__}: {exc})", ok=False, rule="II.3", data={"kind": ruling.kind})
        return
    ctx.emit("ruling", text, rule="II.3", data={"kind": ruling.kind, **{k: v for k, v in ruling.args.items()
                                                                        if k not in ("text", "directives")}})
