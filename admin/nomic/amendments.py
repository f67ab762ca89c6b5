"""Amendments: the directives a proposal carries, checked when it is made and carried out when it
is accepted, with every change recorded in the rule's history.

In a proposal's text, a directive starts a line; its text runs on over the following lines up to a
blank line or the next directive::

    ADD SECTION The Lottery            a new section, numbered after the last one
    ADD RULE XVI: Each week ...        a new rule at the end of a section
    AMEND VI.9: A player landing ...   new text for a rule
    REPEAL XIV.6                       the rule is removed
    RENUMBER                           number the rules of each section it touched 1, 2, 3 ...
    ENABLE railroads                   switch a mechanic on (last in precedence, or
    ENABLE railroads AFTER ownership   just after another module)
    DISABLE health                     switch a mechanic off (its state is kept, dormant)
    SET ownership rent_per_number 4    set a mechanic's parameter

A proposal with no directive is free-form: when accepted it waits for the Admin, who carries it
out with ``nomopoly ruling amend N "AMEND ..."`` (recorded like any ruling).
"""

from __future__ import annotations

import copy
import pickle
import re
from dataclasses import dataclass, field
from typing import Any

from admin.engine.config import disable_module, enable_module, set_param
from admin.engine.params import check_param
from admin.engine.registry import Registry
from admin.engine.errors import RuleError
from admin.engine.model import Directive, GameState, RuleRevision
from admin.nomic.ruleset import Rule, Ruleset, Section, roman, section_filename
from admin.nomic.stated import amended_values, stating_rules

_HEAD = re.compile(
    r"^\s*(?:(ADD\s+SECTION)\s+(?P<title>.+?)|(ADD\s+RULE)\s+(?P<section>[IVXLCDM]+)\s*:\s*(?P<add>.*)"
    r"|(AMEND)\s+(?P<amend>[IVXLCDM]+\.\d+)\s*:\s*(?P<atext>.*)|(REPEAL)\s+(?P<repeal>[IVXLCDM]+\.\d+)\s*\.?"
    r"|(RENUMBER)"
    r"|(ENABLE)\s+(?P<enable>[a-z][\w-]*)(?:\s+AFTER\s+(?P<after>[a-z][\w-]*))?"
    r"|(DISABLE)\s+(?P<disable>[a-z][\w-]*)"
    r"|(SET)\s+(?P<module>[a-z][\w-]*)[.\s]\s*(?P<key>[a-z_][\w]*)\s*=?\s*(?P<value>\S.*?))\s*$",
    re.IGNORECASE)
_MODULE_KINDS = ("enable", "disable", "set")


def parse_directives(text: str) -> list[Directive]:
    """The directives in a proposal's text, in order (none: a free-form proposal)."""
    out: list[Directive] = []
    current: Directive | None = None
    for line in text.splitlines():
        m = _HEAD.match(line)
        if m:
            current = _directive(m)
            out.append(current)
            if current.kind in ("repeal", "renumber", "add-section") + _MODULE_KINDS:
                current = None
        elif not line.strip():
            current = None
        elif current is not None:
            current.text = (current.text + "\n" + line.rstrip()).strip()
    return out


def _directive(m: re.Match[str]) -> Directive:
    if m.group("title"):
        return Directive("add-section", m.group("title").strip())
    if m.group("section"):
        return Directive("add-rule", m.group("section").upper(), m.group("add").strip())
    if m.group("amend"):
        return Directive("amend", m.group("amend").upper(), m.group("atext").strip())
    if m.group("repeal"):
        return Directive("repeal", m.group("repeal").upper())
    if m.group("enable"):
        return Directive("enable", m.group("enable").lower(), (m.group("after") or "").lower())
    if m.group("disable"):
        return Directive("disable", m.group("disable").lower())
    if m.group("module"):
        return Directive("set", f"{m.group('module').lower()}.{m.group('key')}", m.group("value").strip())
    return Directive("renumber", "")


@dataclass
class Change:
    """What carrying out one directive did (for the history and the site's diff)."""

    rule_id: str
    action: str
    old_text: str | None = None
    text: str | None = None
    old_id: str | None = None
    #: an AMEND of a rule stating its mechanic's parameters: (module, key, old, new) of each
    #: parameter it set, when the new text differs from the old only in them (None: it changed more)
    params: list[tuple[str, str, Any, int]] | None = None


@dataclass
class Applied:
    ruleset: Ruleset
    changes: list[Change] = field(default_factory=list)


def apply_directives(ruleset: Ruleset, directives: list[Directive],
                     module_sections: dict[str, Section] | None = None) -> Applied:
    """Carry out ``directives`` on a copy of ``ruleset``; a RuleError names the one that cannot be done.

    ``ENABLE m`` adds the section the game's package writes for module ``m`` (``module_sections``)
    with the rulebook's numeral (or after the last section if that one is taken), unless a section
    of that title is there already."""
    # a copy (the ruleset is plain data): by pickle, a quarter of deepcopy's cost, paid for every
    # proposal checked and carried out (seven in the large Teams update)
    rs = pickle.loads(pickle.dumps(ruleset, pickle.HIGHEST_PROTOCOL))
    result = Applied(ruleset=rs)
    touched: list[str] = []
    for d in directives:
        if d.kind == "enable" and module_sections and d.target in module_sections:
            template = module_sections[d.target]
            if any(s.title.casefold() == template.title.casefold() for s in rs.sections):
                continue
            # the numeral the rulebook gives it, so citations match the module's; if another
            # section has it, the next after the last
            taken = {s.numeral for s in rs.sections}
            numeral = (template.numeral if template.numeral not in taken
                       else roman(max((s.order for s in rs.sections), default=0) + 1))
            section = Section(numeral, template.title, section_filename(numeral, template.title), [])
            for rule in template.rules:
                section.rules.append(Rule.make(numeral, rule.number, rule.text))
                result.changes.append(Change(f"{numeral}.{rule.number}", "created", text=rule.text))
            rs.sections.append(section)
            rs.sections.sort(key=lambda s: s.order)
            continue
        if d.kind in _MODULE_KINDS:
            continue  # the game's mechanics, not its text: see apply_module_directives
        if d.kind == "add-section":
            numeral = roman(max((s.order for s in rs.sections), default=0) + 1)
            rs.sections.append(Section(numeral, d.target, section_filename(numeral, d.target), []))
            touched.append(numeral)
        elif d.kind == "add-rule":
            section = rs.section(d.target)
            _need_text(d)
            number = max((r.number for r in section.rules), default=0) + 1
            rule = Rule.make(section.numeral, number, d.text)
            section.rules.append(rule)
            result.changes.append(Change(rule.id, "created", text=d.text))
            touched.append(section.numeral)
        elif d.kind == "amend":
            _need_text(d)
            rule = rs.rule(d.target)
            if rule.text == d.text:
                raise RuleError(f"AMEND {rule.id}: the new text is the same as the old")
            result.changes.append(Change(rule.id, "amended", old_text=rule.text, text=d.text))
            rule.text = d.text
        elif d.kind == "repeal":
            rule = rs.rule(d.target)
            section = rs.section(rule.section)
            section.rules.remove(rule)
            result.changes.append(Change(rule.id, "repealed", old_text=rule.text))
            touched.append(section.numeral)
        elif d.kind == "renumber":
            for numeral in dict.fromkeys(touched):
                section = rs.section(numeral)
                for i, rule in enumerate(section.rules, 1):
                    if rule.number != i:
                        old = rule.id
                        rule.number, rule.id = i, f"{numeral}.{i}"
                        result.changes.append(Change(rule.id, "renumbered", text=rule.text, old_id=old))
    return result


def _need_text(d: Directive) -> None:
    if not d.text.strip():
        raise RuleError(f"{d.kind.upper().replace('-', ' ')} {d.target}: the rule's text is missing; "
                        "write it after the colon")


def apply_module_directives(state: GameState, registry: Registry, directives: list[Directive]) -> list[Change]:
    """Carry out ENABLE, DISABLE and SET on ``state`` (a RuleError names the one that cannot be
    done); each becomes a change naming the module (``rule_id`` ``module:<name>``)."""
    out = []
    for d in directives:
        if d.kind == "enable":
            enable_module(state, registry, d.target, after=d.text or None)
            out.append(Change(f"module:{d.target}", "enabled", text=d.text or None))
        elif d.kind == "disable":
            disable_module(state, d.target)
            out.append(Change(f"module:{d.target}", "disabled"))
        elif d.kind == "set":
            module, key = d.target.split(".", 1)
            value = set_param(state, registry, module, key, _scalar(d.text))
            out.append(Change(f"module:{module}", "set", text=f"{key} = {value!r}"))
    return out


def _scalar(text: str) -> Any:
    """A parameter's value as written in a SET directive: a number, true/false, or text."""
    import yaml

    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, (int, float, bool, str, list, dict)) else text


def _sections(state: GameState, registry: Registry | None, directives: list[Directive]) -> dict[str, Section]:
    """The section text the game's package writes for each module an ENABLE switches on."""
    out = {}
    for d in directives:
        if d.kind == "enable" and registry is not None:
            section = registry.section_for(state.ruleset, d.target)
            if section is not None:
                out[d.target] = section
    return out


def amended_params(state: GameState, registry: Registry | None,
                   directives: list[Directive]) -> dict[str, list[tuple[str, str, Any, int]] | None]:
    """Rule id -> the parameters each AMEND of a rule that states its mechanic's parameters sets
    (admin/nomic/stated.py), or None when it changes more than those numbers."""
    out: dict[str, list[tuple[str, str, Any, int]] | None] = {}
    if registry is None:
        return out
    for d in directives:
        if d.kind == "amend" and d.text.strip():
            try:
                rule_id = state.rules.rule(d.target).id
            except RuleError:
                continue
            if rule_id in stating_rules(state, registry):
                out[rule_id] = amended_values(state, registry, rule_id, d.text)
    return out


def check(state: GameState, directives: list[Directive], registry: Registry | None = None) -> str | None:
    """None if the directives can be carried out on today's game, else why not."""
    try:
        apply_directives(state.rules, directives, _sections(state, registry, directives))
        if any(d.kind in _MODULE_KINDS for d in directives):
            if registry is None:
                raise RuleError("ENABLE, DISABLE and SET need the game's mechanics")
            apply_module_directives(copy.deepcopy(state), registry, directives)
        for sets in amended_params(state, registry, directives).values():
            for module, key, _old, new in sets or ():
                assert registry is not None
                check_param(registry.get(module), module, key, new)
    except RuleError as exc:
        return str(exc)
    except Exception as exc:  # a fault in a mechanic's setup: the proposal is refused, never the update
        return f"it fails ({type(exc).__name__}: {exc})"
    return None


def carry_out(state: GameState, number: int | None, directives: list[Directive],
              registry: Registry | None = None) -> list[Change]:
    """Apply directives to the game's ruleset (recording each change in the rules' history) and
    to its mechanics (ENABLE, DISABLE, SET)."""
    modules = []
    amended = amended_params(state, registry, directives)  # read before the texts change
    if any(d.kind in _MODULE_KINDS for d in directives) and registry is None:
        raise RuleError("ENABLE, DISABLE and SET need the game's mechanics")
    # the texts first, then the mechanics: a SET restates the rules that state its parameter, so
    # an AMEND of the same proposal saying the same number would otherwise find nothing to change
    applied = apply_directives(state.rules, directives, _sections(state, registry, directives))
    state.rules = applied.ruleset
    if registry is not None and any(d.kind in _MODULE_KINDS for d in directives):
        modules = apply_module_directives(state, registry, directives)
    for ch in applied.changes:
        if ch.action == "amended" and ch.rule_id in amended:
            ch.params = amended[ch.rule_id]
            for module, key, _old, new in ch.params or ():  # the amendment sets what its text says
                assert registry is not None
                set_param(state, registry, module, key, new)
    for ch in applied.changes:
        if ch.action == "renumbered" and ch.old_id is not None:
            history = state.rule_history.pop(ch.old_id, [])
            if ch.old_id in state.rule_decisions:  # the Admin's decision on its words moves with them
                state.rule_decisions[ch.rule_id] = state.rule_decisions.pop(ch.old_id)
        else:
            history = state.rule_history.get(ch.rule_id, [])
        # (the changes apply_directives made are to rules, created ... renumbered: a Change's
        # action may also name a module's, enabled, disabled or set, which no rule's history holds)
        history.append(RuleRevision(rev=len(history) + 1, action=ch.action,  # type: ignore[arg-type]
                                    update=state.update, week=state.week, proposal=number,
                                    text=ch.text, old_text=ch.old_text, old_id=ch.old_id))
        state.rule_history[ch.rule_id] = history
    return applied.changes + modules


def current_since(state: GameState, rule_id: str) -> int:
    """The update since which the rule has been in its current form (0: since the start)."""
    history = state.rule_history.get(rule_id, [])
    return history[-1].update if history else 0


_DEFERS = re.compile(r"\b(?:defers?\s+to|subject\s+to)\s+(?:rule\s+)?([IVXLCDM]+\.\d+)", re.IGNORECASE)
_OVER = re.compile(r"\b(?:precedence|priority)\s+over\s+(?:rule\s+)?([IVXLCDM]+\.\d+)", re.IGNORECASE)


def precedence(state: GameState, a: str, b: str) -> tuple[str | None, str]:
    """Which of two contradicting rules prevails (Nomopoly II I.3), and why.

    First a rule that defers to the other, or claims precedence over it; then the rule that has
    been in its current form longer. None when neither test decides: the Admin rules."""
    ra, rb = state.rules.rule(a), state.rules.rule(b)
    for this, other in ((ra, rb), (rb, ra)):
        if any(m.upper() == other.id for m in _OVER.findall(this.text)):
            return this.id, f"{this.id} states that it has precedence over {other.id} (I.3)"
        if any(m.upper() == other.id for m in _DEFERS.findall(this.text)):
            return other.id, f"{this.id} defers to {other.id} (I.3)"
    since_a, since_b = current_since(state, ra.id), current_since(state, rb.id)
    if since_a != since_b:
        older, newer = (ra, rb) if since_a < since_b else (rb, ra)
        return older.id, (f"{older.id} has been in its current form longer (since update "
                          f"{min(since_a, since_b)}) than {newer.id} (I.3)")
    return None, (f"{ra.id} and {rb.id} have both been in their current form since update {since_a} "
                  "and neither defers: the Admin decides")


