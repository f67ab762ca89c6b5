"""Health in the Teams variant: who is Sick and who is Hurt.

The seed never defines Sick or Hurt; it only says who becomes so (the Elephant, Fake Vomit, V-8,
TISSSG ...) and what follows (VII.1: a Sick or Hurt player rolls one die; IX.8: a Sick Proposal;
XIX.6: a Hot Spring Bath cures). This module keeps the two public lists every other module reads
and changes by name: ``sick`` and ``hurt`` (player names). :func:`make_sick` and :func:`cure`
are the one place a player's health changes, so the Hot Spring Bath (XIX.6) is checked every time.

Nobody recovers by the calendar: a standing ruling (the seed says nothing of it). The Admin
records health with ``nomopoly ruling decide health player=NAME sick=true|false hurt=true|false``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import RuleError
from admin.games.nomoteams import api

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.engine.events import Ruling
    from admin.engine.module import RulingHandler


@dataclass
class HealthState:
    #: players who are Sick (VII.1, IX.8, XIX.6, XIX.9, XIX.13)
    sick: list[str] = field(default_factory=list)
    #: players who are Hurt (VII.1, XXXIII.5)
    hurt: list[str] = field(default_factory=list)


def _state(state: GameState) -> HealthState | None:
    return api.HEALTH.get(state)


def is_sick(state: GameState, name: str) -> bool:
    hs = _state(state)
    return hs is not None and name in hs.sick


def make_sick(ctx: UpdateContext, name: str, *, rule: str, why: str) -> bool:
    """``name`` becomes Sick (True if she was not); a Hot Spring Bath she owns cures her at once."""
    hs = _state(ctx.state)
    if hs is None or name not in ctx.state.players or name in hs.sick:
        return False
    hs.sick.append(name)
    ctx.emit("sick", f"{name} became Sick: {why} ({rule}).", player=name, rule=rule)
    _after_change(ctx, name)
    return True


def cure(ctx: UpdateContext, name: str, *, rule: str, why: str) -> bool:
    """``name`` becomes non-Sick (True if she was Sick)."""
    hs = _state(ctx.state)
    if hs is None or name not in hs.sick:
        return False
    hs.sick.remove(name)
    ctx.emit("sick", f"{name} is no longer Sick: {why} ({rule}).", player=name, rule=rule)
    _after_change(ctx, name)
    return True


def _after_change(ctx: UpdateContext, name: str) -> None:
    baths = ctx.registry.provider(ctx.state, api.SettlesBaths)
    if baths is not None:  # XIX.6: the Products section settles a Hot Spring Bath
        baths.settle_bath(ctx, name)


def _truth(value: object, key: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text not in ("true", "false", "yes", "no"):
        raise RuleError(f"{key}={value!r}: say {key}=true or {key}=false")
    return text in ("true", "yes")


def _health_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``health player=NAME [sick=true|false] [hurt=true|false]``: the Admin records health where a
    rule makes someone Sick or Hurt and no module does it (XXXIII.2-5)."""
    name = str(r.args.get("player", ""))
    if name not in ctx.state.players:
        raise RuleError(f"health needs player= one of {', '.join(sorted(ctx.state.players)) or 'none'}")
    if "sick" not in r.args and "hurt" not in r.args:
        raise RuleError("health needs sick=true|false or hurt=true|false")
    why = f"the Admin's ruling: {r.note}" if r.note else "the Admin's ruling"
    if "sick" in r.args:
        (make_sick if _truth(r.args["sick"], "sick") else cure)(ctx, name, rule="VII.1", why=why)
    if "hurt" in r.args:
        hs = TeamsHealthModule.of(ctx.state)
        hurt = _truth(r.args["hurt"], "hurt")
        hs.hurt = sorted((set(hs.hurt) | {name}) if hurt else (set(hs.hurt) - {name}))
    hs = TeamsHealthModule.of(ctx.state)
    return (f"{name} is now {'Sick' if name in hs.sick else 'not Sick'} and "
            f"{'Hurt' if name in hs.hurt else 'not Hurt'}: {r.note}")


class TeamsHealthModule(Mechanic[HealthState, None]):
    name = "teams-health"
    rules = ()
    summary = "Who is Sick and who is Hurt (they roll one die, VII.1)."
    State = HealthState

    def rulings(self) -> dict[str, RulingHandler]:
        return {"health": _health_ruling}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        hs = self.of(state)
        hs.sick = [n for n in hs.sick if n != player.name]
        hs.hurt = [n for n in hs.hurt if n != player.name]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        hs = self.of(state)
        if key not in ("sick", "hurt"):
            return False
        names = set(getattr(hs, key))
        names = names | {player.name} if value else names - {player.name}
        setattr(hs, key, sorted(names))
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        hs = self.of(state)
        health = ", ".join(w for w, on in (("Sick", player.name in hs.sick), ("Hurt", player.name in hs.hurt)) if on)
        return [Fact("condition", health or "well", label="Health", column="Health", order=48, kind="text")]
