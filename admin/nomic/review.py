"""An accepted proposal that changed the words of rules a mechanic automates: the Admin is asked,
once a module, to review the module's parameters against the new words (a "review" event: on the
Admin's report and in ``nomopoly todo``)."""

from __future__ import annotations

from typing import Any

from admin.engine.errors import RuleError
from admin.engine.events import Ruling
from admin.engine.model import RuleDecision, RuleRevision
from admin.engine.plaintext import first_unsafe


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


def words_not_run(state: Any, *, undecided: bool = True) -> dict[str, tuple[str, int, str | None]]:
    """Each rule standing in the words an accepted proposal gave it (added or amended) that nothing
    runs as worded: rule id -> (``"added"`` or ``"amended"``, the proposal, and the enabled module
    that automates the rule by its parameters, or None: text only, the Admin applies it). A rule in
    the controlled English that the written-rules mechanic runs is not among them; nor, when
    ``undecided``, a text-only rule the Admin settled (:func:`decision`)."""
    from admin.games.registry import REGISTRY
    from admin.nomic.written import carried_out

    written = carried_out(state)
    out: dict[str, tuple[str, int, str | None]] = {}
    for rule in state.rules.rules():
        last = worded(state.rule_history.get(rule.id) or [])
        if last is None or last.proposal is None or last.action not in ("created", "amended") or rule.id in written:
            continue
        module = REGISTRY.module_for_rule(rule.id, state)
        automated = bool(module) and state.enabled(module)
        if automated and last.action != "amended":
            continue  # added by a proposal that enabled its mechanic: it runs as worded
        if undecided and not automated and decision(state, rule.id) is not None:
            continue
        out[rule.id] = ("added" if last.action == "created" else "amended", last.proposal,
                        module if automated else None)
    return out


def worded(history: list[RuleRevision]) -> RuleRevision | None:
    """The revision that gave a rule its words now: the last, passing over renumberings (a rule
    moved to another number keeps its words, and what was said and decided of them)."""
    return next((r for r in reversed(history) if r.action != "renumbered"), None)


def decision(state: Any, rule_id: str) -> RuleDecision | None:
    """The Admin's decision on the words rule ``rule_id`` has now, if any: one made on an earlier
    revision of the rule (before a proposal amended it) no longer holds."""
    made: RuleDecision | None = (getattr(state, "rule_decisions", None) or {}).get(rule_id)
    last = worded(state.rule_history.get(rule_id) or [])
    if made is None or last is None or (last.rev, last.update) != (made.rev, made.rev_update):
        return None
    return made


#: ``--as`` of ``ruling settle``, and what the rules page says of each
SETTLED = {"flavour": "flavour: no effect in play", "by-hand": "applied by the Admin's rulings"}


def settle(ctx: Any, r: Ruling) -> str:
    """The ``settle`` ruling: the Admin decides a text-only rule (one a proposal added or amended
    that nothing runs) is ``flavour`` or applied ``by-hand``; it leaves the to-do and the report,
    and the rules page and ``rules coverage`` say which."""
    state = ctx.state
    rule_id, kind, reason = str(r.args.get("rule", "")), str(r.args.get("as", "")), r.note.strip()
    if kind not in SETTLED:
        raise RuleError(f"--as {kind!r} is not one of {', '.join(SETTLED)}: flavour (no effect in play) or "
                        "by-hand (you apply it by rulings)")
    if not reason:
        raise RuleError("give the reason for the record: --reason \"...\"")
    unsafe = first_unsafe(reason)
    if unsafe:
        raise RuleError(f"the reason holds {unsafe[1]} at character {unsafe[0]}: write it as plain text")
    pending = words_not_run(state, undecided=False)
    if rule_id not in pending or pending[rule_id][2] is not None:
        raise RuleError(f"rule {rule_id!r} {_why_not(state, rule_id, pending)}; only a rule a proposal added or "
                        "amended that nothing runs (`nomopoly todo` lists them) can be settled")
    before = decision(state, rule_id)
    if before is not None and before.kind == kind:
        raise RuleError(f"rule {rule_id} is settled as {kind} already (update {before.update}: {before.reason})")
    last = worded(state.rule_history[rule_id])
    assert last is not None  # (words_not_run lists only a rule with a revision)
    state.rule_decisions[rule_id] = RuleDecision(kind=kind, reason=reason, update=state.update,  # type: ignore[arg-type]
                                                 rev=last.rev, rev_update=last.update)
    was = f", no longer {before.kind}" if before is not None else ""
    return f"The Admin settled rule {rule_id} as {SETTLED[kind]}{was}: {reason}"


def _why_not(state: Any, rule_id: str, pending: dict[str, tuple[str, int, str | None]]) -> str:
    if rule_id in pending:
        return (f"is automated by the {pending[rule_id][2]} module, which runs its parameters: check them "
                f"with `nomopoly ruling set {pending[rule_id][2]} KEY VALUE`")
    if rule_id not in {rule.id for rule in state.rules.rules()}:
        history = state.rule_history.get(rule_id) or []
        if history and history[-1].action == "repealed":
            by = f" by proposal {history[-1].proposal}" if history[-1].proposal else ""
            return f"was repealed{by}: it is not in force, so there is nothing to settle"
        return "is not in this game's rules (`nomopoly rules coverage` lists them)"
    return "is not text only: a mechanic runs it, or its words are the rulebook's own"
