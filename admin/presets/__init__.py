"""Bundled rulesets a new game can start from (``nomopoly init DIR --ruleset NAME``)."""

from __future__ import annotations

from pathlib import Path

from admin.engine.board import add_square
from admin.engine.registry import REGISTRY
from admin.errors import RuleError
from admin.model import GameState, ModuleConfig, RuleRevision
from admin.nomic.ruleset import load_ruleset
from admin.store import load_yaml

HERE = Path(__file__).parent


def available() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.yaml"))


def initial_state(ruleset: str, name: str) -> GameState:
    path = HERE / f"{ruleset}.yaml"
    if not path.exists():
        raise RuleError(f"no bundled ruleset {ruleset!r}; available: {', '.join(available())}")
    preset = load_yaml(path)
    modules = [ModuleConfig(name=m["name"], params=dict(m.get("params") or {})) for m in preset["modules"]]
    state = GameState(name=name, ruleset=ruleset, modules=modules)
    REGISTRY.enabled(state)  # fails early on an unknown module
    for _ in range(int(REGISTRY.params(state, "board")["initial_squares"])):
        add_square(state)
    state.rules = load_ruleset(bundled_path(preset.get("rules", "rules_md")))
    state.rule_history = {r.id: [RuleRevision(rev=1, action="created", update=0, week=0, text=r.text)]
                          for r in state.rules.rules()}
    return state


def bundled_path(name: str) -> Path:
    """A top-level folder shipped with the tool (``rules_md``, ``site_templates``)."""
    repo = HERE.parent.parent / name
    return repo if repo.is_dir() else HERE.parent / "_bundled" / name
