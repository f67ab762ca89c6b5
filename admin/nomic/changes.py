"""What an accepted proposal changed, told in the update's events: each rule added, amended,
repealed or renumbered, each mechanic switched on or off or tuned. An amendment of a rule a
mechanic carries out either set the parameters its new numbers state (said, with the old and new
values: nobody has to do anything), or changed more, and then the Admin is asked to review the
mechanic, shown the difference word by word."""

from __future__ import annotations

from typing import Any, Sequence

from admin.engine.context import UpdateContext
from admin.engine.model import Directive, GameState, Proposal
from admin.engine.registry import Registry
from admin.nomic.amendments import Change, amended_params
from admin.nomic.review import ask_review
from admin.nomic.stated import word_diff


def record_changes(ctx: UpdateContext, proposal: Proposal, changes: Sequence[Change]) -> None:
    """Mark the proposal carried out and tell what each of its ``changes`` did."""
    proposal.changed_rules = list(dict.fromkeys(c.rule_id for c in changes))
    proposal.awaiting_admin = False
    review: dict[str, list[tuple[str, str]]] = {}  # module -> (rule it automates, how its words changed)
    for ch in changes:
        if ch.rule_id.startswith("module:"):
            name = ch.rule_id.split(":", 1)[1]
            what = {"enabled": "switched on", "disabled": "switched off",
                    "set": f"changed ({ch.text})"}[ch.action]
            ctx.emit("module-change", f"The {name} module was {what} by proposal {proposal.number}.",
                     rule="VIII.4", data={"module": name, "action": ch.action, "proposal": proposal.number})
            continue
        what = {"created": "added", "amended": "amended", "repealed": "repealed",
                "renumbered": f"renumbered from {ch.old_id}"}[ch.action]
        ctx.emit("rule-change", f"Rule {ch.rule_id} was {what} by proposal {proposal.number}.",
                 rule="VIII.4", data={"rule": ch.rule_id, "action": ch.action, "proposal": proposal.number})
        if ch.params is not None:
            _parameters_set(ctx, proposal, ch)
            continue
        module = ctx.registry.module_for_rule(ch.old_id or ch.rule_id, ctx.state)
        if module and ctx.state.enabled(module):
            diff = word_diff(ch.old_text, ch.text) if ch.action == "amended" and ch.old_text and ch.text else ""
            review.setdefault(module, []).append((ch.rule_id, diff))
    ask_review(ctx, review)


def _parameters_set(ctx: UpdateContext, proposal: Proposal, ch: Change) -> None:
    """An amendment that changed only the numbers its rule states: the parameters now hold them."""
    sets: list[tuple[str, str, Any, int]] = ch.params or []
    if not sets:
        return
    said = "; ".join(f"{module}.{key} is now {new} (was {old})" for module, key, old, new in sets)
    ctx.emit("module-change", f"Rule {ch.rule_id} as amended by proposal {proposal.number} sets its "
                              f"parameters: {said}. The game applies them from now.",
             rule=ch.rule_id, native=True,
             data={"rule": ch.rule_id, "action": "set", "proposal": proposal.number,
                   "params": {f"{m}.{k}": new for m, k, _o, new in sets}})


def foreseen(state: GameState, registry: Registry, directives: Sequence[Directive]) -> list[str]:
    """For the proposer's receipt: what each AMEND of a rule that states its mechanic's parameters
    will do if accepted (set them, or go to the Admin), in a sentence each."""
    out = []
    for rule_id, sets in amended_params(state, registry, list(directives)).items():
        if sets is None:
            out.append(f"Rule {rule_id} as amended changes more than the numbers it states: if accepted, "
                       "the Admin decides what the game does.")
        elif sets:
            said = ", ".join(f"{module}.{key} becomes {new} (now {old})" for module, key, old, new in sets)
            out.append(f"Rule {rule_id} as amended changes only the numbers it states: if accepted, {said}.")
    return out
