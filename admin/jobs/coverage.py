"""``nomopoly rules coverage``: rule by rule, what automates each rule of a game.

A rule is **automated** by an enabled module that names it (with the tests and scenario files
that exercise it), run by the **core** update itself, **routed to the Admin** (the ruling command
that decides it), **text** with no mechanical effect, or **missing**: none of these, which is a
gap to fix. The last three come from the game's ``game.yaml`` (``coverage:``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from admin.games.catalog import DEFAULT, GameSpec, available
from admin.games.catalog import spec as load
from admin.games.registry import REGISTRY
from admin.nomic.review import decision, worded
from admin.nomic.written import WrittenRulesModule, carried_out
from admin.engine.model import GameState

TESTS = Path(__file__).resolve().parents[2] / "tests"


@dataclass
class RuleCoverage:
    rule: str
    status: str  # automated, core, admin, text, missing
    module: str | None = None
    how: str | None = None
    tests: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"rule": self.rule, "status": self.status}
        if self.module:
            out["module"] = self.module
        if self.how:
            out["how"] = self.how
        if self.status == "automated":
            out["tests"] = self.tests
        return out


def coverage(state: GameState, spec: GameSpec, tests: Path = TESTS) -> list[RuleCoverage]:
    """Every rule of ``state``'s ruleset with its status (in the ruleset's order)."""
    exercised = _exercised(tests, family(spec))
    out = []
    written = carried_out(state)
    for rule in state.rules.rules():
        module = REGISTRY.module_for_rule(rule.id, state)
        if module and state.enabled(module):
            out.append(RuleCoverage(rule.id, "automated", module=module,
                                    tests=sorted(exercised.get(rule.id, ()))))
            continue
        if rule.id in written:  # a rule a proposal wrote in the controlled English: it runs as written
            out.append(RuleCoverage(rule.id, "automated", module=WrittenRulesModule.name,
                                    how=f"as written, since proposal {written[rule.id]}"))
            continue
        last = worded(state.rule_history.get(rule.id) or [])  # (a renumbering keeps the words)
        by = last if last is not None and last.action in ("created", "amended") else None
        for status in ("core", "admin", "text"):
            how = spec.coverage.get(status, {}).get(rule.id)
            if how and (by is None or by.proposal is None):
                out.append(RuleCoverage(rule.id, status, how=how))
                break
        else:
            if by is not None and by.proposal is not None:  # its words are a proposal's: nothing runs them
                what = "added" if by.action == "created" else "amended"
                made = decision(state, rule.id)
                if made is not None:  # the Admin settled it: flavour text, or applied by hand
                    out.append(RuleCoverage(rule.id, "text" if made.kind == "flavour" else "admin",
                                            how=f"{what} by proposal {by.proposal}; settled as {made.kind} by the "
                                                f"Admin's ruling in update {made.update}: {made.reason}"))
                    continue
                out.append(RuleCoverage(rule.id, "admin", how=f"{what} by proposal {by.proposal}: text only, "
                                                              "with the Admin (by hand or by ruling)"))
                continue
            out.append(RuleCoverage(rule.id, "missing",
                                    how=f"known to module {module}, which is not enabled" if module else None))
    listed = {row.rule for row in out}
    out += [RuleCoverage(rule, "missing", how="in the game's rulebook, but no section of its rules has it yet")
            for rule in spec.rulebook if rule not in listed]
    return out


_ID = re.compile(r"(?<![\w.])([IVXLC]+\.\d+)(?![\d])")
#: "XVIII.1-XVIII.6" (or "XVIII.1-6"): every rule of the section between
_RANGE = re.compile(r"(?<![\w.])([IVXLC]+)\.(\d+)\s*[-\u2013]\s*(?:\1\.)?(\d+)(?![\d])")


def _named(text: str) -> set[str]:
    """The rule ids a test or scenario file names, ranges spelt out."""
    found = set(_ID.findall(text))
    for section, first, last in _RANGE.findall(text):
        found |= {f"{section}.{n}" for n in range(int(first), int(last) + 1) if int(last) - int(first) < 50}
    return found
_FILE_ID = re.compile(r"^([ivxlc]+)(\d+)(?=-)")


def family(spec: GameSpec) -> set[str]:
    """A game and the games made from the same rulebook (its base, and every game made from
    either): they number and play the same rules, so their tests count for each other."""
    root = spec.base or spec.name
    return {root} | {name for name in available() if name == root or load(name).base == root}


def _exercised(tests: Path, games_played: set[str]) -> dict[str, set[str]]:
    """Rule id -> the test files and scenario files naming it that play one of ``games_played`` (a source
    checkout has them). A scenario plays the game its ``game:`` line names; a test file under
    ``tests/games/<name>/`` plays that game; any other test file plays the default game and the
    games it names in quotes. A game is credited with the tests of its family too (the game it
    is made from, ``base:``, and the others made from that): they play the same rules. A file that plays another game is never
    credited to this one's rules, however alike their numbers."""
    found: dict[str, set[str]] = {}
    if not tests.is_dir():
        return found
    games = tests / "games"
    for path in sorted(tests.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if not games_played & _games_of_test(path, text, games):
            continue
        for rule in _named(text):
            found.setdefault(rule, set()).add(str(path.relative_to(tests.parent)))
    for path in sorted(games.glob("*/scenarios/*.yaml")):
        text = path.read_text(encoding="utf-8", errors="replace")
        named = _SCENARIO_GAME.search(text)
        if (named.group(1) if named else DEFAULT) not in games_played:
            continue
        rel = str(path.relative_to(tests.parent))
        m = _FILE_ID.match(path.stem)
        if m:
            found.setdefault(f"{m.group(1).upper()}.{m.group(2)}", set()).add(rel)
        for rule in _named(text):
            found.setdefault(rule, set()).add(rel)
    return found


_SCENARIO_GAME = re.compile(r"^game:\s*['\"]?([\w-]+)", re.M)


def _games_of_test(path: Path, text: str, games: Path) -> set[str]:
    """The games a test file plays: its folder's under ``tests/games/``, else the bundled games it
    names in quotes and the default game."""
    if games in path.parents:
        return {path.relative_to(games).parts[0]}
    return {DEFAULT} | {name for name in available() if f'"{name}"' in text or f"'{name}'" in text}
