"""A rule's text and its mechanic's parameters are one: the numbers a rule states ("three times the
square's number", "the price is $25 times ...") are the parameters the engine uses.

A mechanic declares beside its rules which phrase of which rule states which parameter
(:attr:`admin.engine.module.Mechanic.stated`: rule id, as the library numbers it, -> parameter ->
the phrases, ``{}`` marking the number). From that:

- :func:`restate` rewrites every rule stating a parameter when the parameter changes (a ``SET``, a
  ruling), in the text's own style ("three" becomes "four", "$25" becomes "$30");
- :func:`amended_values` reads an ``AMEND`` of such a rule: when its new text differs from the old
  only in the numbers that are parameters, the amendment sets them (and nobody has to);
- :func:`disagreements` is what ``nomopoly check`` reports: each rule whose text states a value its
  parameter does not hold;
- :func:`word_diff` shows an amendment that changes more, for the Admin.

A rule whose text no longer holds any of the phrases states nothing (a game may word it otherwise):
it cannot disagree, but an AMEND that drops the phrase changes more than the numbers."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from admin.engine.model import RuleRevision

if TYPE_CHECKING:
    from admin.engine.model import GameState
    from admin.engine.registry import Registry

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
#: number words a rule may state a parameter in, 0 to 99 ("twenty-five")
WORDS: dict[str, int] = {w: i for i, w in enumerate(_UNITS)}
WORDS.update(_TENS)
WORDS.update({f"{t}-{u}": v + i for t, v in _TENS.items() for i, u in enumerate(_UNITS[1:10], 1)})
_NAMES = {v: w for w, v in WORDS.items()}
#: "twice the square's number" is "two times"
MULTIPLES = {"once": 1, "twice": 2, "thrice": 3}
#: a number in digits or in WORDS (the same words, written compactly: a pattern of WORDS one by
#: one took twice as long to compile, and an update compiles one per stated phrase)
_NUMBER = (r"\d{1,3}(?:,\d{3})+|\d+|(?:" + "|".join(_TENS) + r")(?:-(?:" + "|".join(_UNITS[1:10]) + "))?|"
           + "|".join(_UNITS))

Style = Literal["digits", "word", "multiple"]


@dataclass(frozen=True)
class Found:
    """Where a rule's text states a number: its span, the value, and how it is written."""

    start: int
    end: int
    value: int
    style: Style
    capital: bool


@dataclass(frozen=True)
class Stated:
    """One parameter a rule of this game states: the rule, the module and key, the value the
    parameter holds, and what the text says (None: the text does not state it)."""

    rule: str
    module: str
    key: str
    value: Any
    found: Found | None


def _pattern(phrase: str) -> re.Pattern[str]:
    before, _, after = phrase.partition("{}")
    times = after.startswith(" times")
    if times:
        after = after[len(" times"):]
    lit = [r"\s+".join(re.escape(w) for w in part.split(" ")) for part in (before, after)]
    number = rf"(?<![\w-])(?P<v>{_NUMBER})(?![\w-])"
    if times:
        number = rf"(?:{number}\s+times|(?<![\w-])(?P<m>{'|'.join(MULTIPLES)}))"
    return re.compile(lit[0] + number + lit[1] + (r"(?!\w)" if after and after[-1].isalnum() else ""),
                      re.IGNORECASE)


def find(text: str, phrases: tuple[str, ...]) -> Found | None:
    """The number ``text`` states in the first of ``phrases`` it holds, or None."""
    for phrase in phrases:
        m = _pattern(phrase).search(text)
        if m is None:
            continue
        group = "v" if m.group("v") is not None else "m"
        word = m.group(group)
        low = word.lower()
        style: Style
        if group == "m":
            value, style = MULTIPLES[low], "multiple"
        elif low in WORDS:
            value, style = WORDS[low], "word"
        else:
            value, style = int(low.replace(",", "")), "digits"
        return Found(m.start(group), m.end(group), value, style, word[:1].isupper())
    return None


def written(value: int, like: Found) -> str:
    """``value`` written the way ``like`` was: in words when it was and the value has one."""
    if like.style == "multiple":
        out = {1: "once", 2: "twice"}.get(value) or f"{_NAMES.get(value, str(value))} times"
    elif like.style == "word" and value in _NAMES:
        out = _NAMES[value]
    else:
        out = str(value)
    return out[:1].upper() + out[1:] if like.capital else out


def _phrases(state: GameState, registry: Registry) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(rule id in this game, module, key, phrases) for every enabled module's stated parameter."""
    out = []
    for config in state.modules:  # what each enabled mechanic declares (no hook is called)
        mechanic = registry.known.get(config.name)
        if mechanic is None:
            continue
        own = registry.rules_of(state, mechanic.name)
        for library_id, keys in mechanic.stated.items():
            rule_id = state.rule_aliases.get(library_id, library_id)
            if rule_id not in own and library_id not in own:
                continue
            for key, phrases in keys.items():
                out.append((rule_id, mechanic.name, key, phrases))
    return out


def stating_rules(state: GameState, registry: Registry) -> set[str]:
    """The ids of the rules of ``state`` that state an enabled mechanic's parameters."""
    return {rule_id for rule_id, _m, _k, _p in _phrases(state, registry)
            if (text := _text(state, rule_id)) is not None and find(text, _p) is not None}


def _text(state: GameState, rule_id: str) -> str | None:
    try:
        return state.rules.rule(rule_id).text
    except Exception:  # a game without that rule (a section not in its rulebook)
        return None


def stated(state: GameState, registry: Registry) -> list[Stated]:
    """Every parameter the rules of ``state`` state (or should), in the modules' order."""
    out = []
    for rule_id, module, key, phrases in _phrases(state, registry):
        text = _text(state, rule_id)
        if text is not None:
            out.append(Stated(rule_id, module, key, registry.params(state, module).get(key),
                              find(text, phrases)))
    return out


def disagreements(state: GameState, registry: Registry) -> list[str]:
    """Each rule whose text states a number its parameter does not hold, in words for the Admin."""
    return [f"rule {s.rule} says {s.found.value} but {s.module}.{s.key} is {s.value!r}; make them agree "
            f"with `nomopoly ruling set {s.module} {s.key} {s.found.value}` (or correct the text)"
            for s in stated(state, registry) if s.found is not None and s.found.value != s.value]


def restate(state: GameState, registry: Registry, module: str, key: str) -> list[str]:
    """Rewrite every rule that states ``module.key`` to say the value it now holds, each change a
    revision in the rule's history (by no proposal: the module-change event says who set it); the
    ids of the rules whose text changed."""
    changed = []
    value = registry.params(state, module).get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        return []
    for rule_id, mod, k, phrases in _phrases(state, registry):
        if (mod, k) != (module, key):
            continue
        text = _text(state, rule_id)
        found = find(text, phrases) if text is not None else None
        if text is None or found is None or found.value == value:
            continue
        new = text[:found.start] + written(value, found) + text[found.end:]
        state.rules.rule(rule_id).text = new
        history = state.rule_history.setdefault(rule_id, [])  # the rules page shows the change
        history.append(RuleRevision(rev=len(history) + 1, action="amended", update=state.update,
                                    week=state.week, text=new, old_text=text))
        changed.append(rule_id)
    return changed


def amended_values(state: GameState, registry: Registry, rule_id: str,
                   new_text: str) -> list[tuple[str, str, Any, int]] | None:
    """When ``new_text`` differs from rule ``rule_id``'s text only in numbers that are parameters:
    (module, key, old value, new value) for each one it changes (maybe none). None when the rule
    states no parameter, or when the amendment changes more than those numbers."""
    old_text = _text(state, rule_id)
    mine = [(m, k, p) for r, m, k, p in _phrases(state, registry) if r == rule_id]
    if old_text is None or not mine:
        return None
    old_masked, new_masked, out = old_text, new_text, []
    for module, key, phrases in mine:
        old, new = find(old_masked, phrases), find(new_masked, phrases)
        if old is None or new is None:
            if old is not None or new is not None:
                return None  # the phrase came or went: the rule now says something else
            continue
        mark = f"\x00{module}.{key}\x00"
        old_masked = old_masked[:old.start] + mark + old_masked[old.end:]
        new_masked = new_masked[:new.start] + mark + new_masked[new.end:]
        if new.value != registry.params(state, module).get(key):
            out.append((module, key, registry.params(state, module).get(key), new.value))
    if " ".join(old_masked.split()).casefold() != " ".join(new_masked.split()).casefold():
        return None
    if old_masked == old_text:
        return None  # it states none of its parameters: nothing to set
    return out


def word_diff(old: str, new: str) -> str:
    """The difference of two texts word by word, as a unified diff on one line: ``... costs you
    -three +twice times ...`` (unchanged words around each change kept for context)."""
    lines = difflib.unified_diff(old.split(), new.split(), lineterm="", n=3)
    words = [w for w in lines if not w.startswith(("---", "+++"))]
    return " ".join("…" if w.startswith("@@") else w.lstrip(" ") for w in words).strip("… ")
