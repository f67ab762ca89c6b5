"""See before you vote: what an open proposal that changes what runs would have done, shown on its
page and to the Admin (``nomopoly proposal preview N``).

After each update, every open or voting proposal with directives (ENABLE, DISABLE, SET), with an
AMEND that sets the parameters its rule states, or with a rule the written-rules mechanic would run
is tried: the update that just ran is run again from the
state before it, the proposal carried out first, on the very same inputs and dice, and each
player's money, health and squares are compared with what really happened. The result is part of
the update's outcome (replay makes it again, byte for byte), public like the proposal itself:
nothing hidden is compared, and the previews' own rolls are never recorded.

At most :data:`MAX_PREVIEWS` proposals are tried an update (the oldest first), so a game's update
stays bounded whatever its players propose."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from admin.engine.model import GameState, Proposal
from admin.engine.statecopy import copy_state
from admin.library.health import HealthModule, health_of
from admin.library.ownership import OwnershipModule
from admin.nomic.amendments import amended_params, carry_out
from admin.nomic.rulelang.model import Rule
from admin.nomic.written import WrittenRulesModule, read_rule, runnable, vocabulary

#: proposals tried in one update, at most
MAX_PREVIEWS = 3
#: what a preview says when nothing would have come out differently
SAME = "The last update would have come out the same for every player."

Run = Callable[[GameState], GameState]


def changes_what_runs(state: GameState, proposal: Proposal) -> bool:
    """Whether carrying ``proposal`` out changes what the engine does (not only the rules' words)."""
    if any(amended_params(state, _registry(), proposal.directives).values()):
        return True  # an AMEND that sets the parameters its rule states (admin/nomic/stated.py)
    for d in proposal.directives:
        if d.kind in ("enable", "disable", "set"):
            return True
        if d.kind in ("add-rule", "amend") and state.enabled(WrittenRulesModule.name):
            read = read_rule(" ".join(d.text.split()), vocabulary(state))
            if isinstance(read, Rule) and runnable(read):
                return True
    return False


def add_previews(before: GameState, after: GameState, run: Run) -> None:
    """Set ``preview`` on each open proposal of ``after`` that changes what runs: ``run`` is the
    update that turned ``before`` into ``after``, run again on a game given to it."""
    tried = 0
    for proposal in after.proposals:
        if proposal.status not in ("open", "voting"):
            continue
        if tried >= MAX_PREVIEWS or not changes_what_runs(after, proposal):
            proposal.preview = []
            continue
        tried += 1
        proposal.preview = _preview(before, after, proposal, run)


def _preview(before: GameState, after: GameState, proposal: Proposal, run: Run) -> list[str]:
    trial = copy_state(before)  # as accepted the update before: in force for the one re-run
    try:
        carry_out(trial, proposal.number, proposal.directives, _registry())
        again = run(trial)
    except Exception as exc:  # the proposal cannot be tried: say so, and nothing else
        return [f"It could not be tried on the last update ({type(exc).__name__}: {exc})."[:300]]
    lines = [line for name in sorted(after.players) if (line := _difference(after, again, name))]
    return lines or [SAME]


def _registry() -> Any:
    from admin.games.registry import REGISTRY

    return REGISTRY


def _figures(state: GameState, name: str) -> dict[str, tuple[int, str]]:
    player = state.players.get(name)
    if player is None:
        return {}
    out = {"money": (player.money, state.money(player.money))}
    if state.enabled(HealthModule.name):
        health = health_of(state, name)
        out["health"] = (health, f"{health} health")
    if state.enabled(OwnershipModule.name):
        owned = len(OwnershipModule.of(state).owned_by(state, name))
        out["squares"] = (owned, f"{owned} square{'s' if owned != 1 else ''}")
    return out


def _difference(real: GameState, trial: GameState, name: str) -> str | None:
    got, would = _figures(real, name), _figures(trial, name)
    parts = [f"{would[k][1]} instead of {got[k][1]}" for k in got if k in would and would[k][0] != got[k][0]]
    return f"{name}: {', '.join(parts)}" if parts else None
