"""An accepted proposal that changed the words of rules a mechanic automates: the Admin is asked,
once a module, to review the module's parameters against the new words (a "review" event: on the
Admin's report and in ``nomopoly todo``)."""

from __future__ import annotations

from typing import Any


def ask_review(ctx: Any, review: dict[str, list[tuple[str, str]]]) -> None:
    """``review``: module -> (each rule it automates that the proposal changed, in order, with the
    word diff of its text when it was amended, else ""). One line a module, naming every rule,
    however many of them changed (XVII.1-4 of one module: one line), with what their words lost
    and gained beyond the numbers they state."""
    for module, changed in review.items():
        params = ctx.params(module)
        shown = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()) if not isinstance(v, (list, dict)))
        ids = list(dict.fromkeys(rule for rule, _diff in changed))
        diffs = [(rule, diff) for rule, diff in changed if diff]
        named = f"Rule {ids[0]} is" if len(ids) == 1 else f"Rules {', '.join(ids[:-1])} and {ids[-1]} are"
        said = ""
        if len(diffs) == 1 and len(ids) == 1:
            said = f" Its text changed more than its numbers (- out, + in): {diffs[0][1]}"
        elif diffs:
            said = " Their texts changed more than their numbers (- out, + in): " + "; ".join(
                f"{rule}: {diff}" for rule, diff in diffs)
        said += "." * bool(said and said[-1:] != ".")
        ctx.emit("review", f"{named} automated by the {module} module: the Admin should review its parameters "
                           f"({shown or 'none'}) with `nomopoly ruling set {module} KEY VALUE`.{said}",
                 rule="I.2", data={"rule": ids[0], "module": module, **({"rules": ids} if len(ids) > 1 else {})})


def words_not_run(state: Any) -> dict[str, tuple[str, int, str | None]]:
    """Each rule standing in the words an accepted proposal gave it (added or amended) that nothing
    runs as worded: rule id -> (``"added"`` or ``"amended"``, the proposal, and the enabled module
    that automates the rule by its parameters, or None: text only, the Admin applies it). A rule in
    the controlled English that the written-rules mechanic runs is not among them."""
    from admin.games.registry import REGISTRY
    from admin.nomic.written import carried_out

    written = carried_out(state)
    out: dict[str, tuple[str, int, str | None]] = {}
    for rule in state.rules.rules():
        history = state.rule_history.get(rule.id) or []
        last = history[-1] if history else None
        if last is None or last.proposal is None or last.action not in ("created", "amended") or rule.id in written:
            continue
        module = REGISTRY.module_for_rule(rule.id, state)
        automated = bool(module) and state.enabled(module)
        if automated and last.action != "amended":
            continue  # added by a proposal that enabled its mechanic: it runs as worded
        out[rule.id] = ("added" if last.action == "created" else "amended", last.proposal,
                        module if automated else None)
    return out
