"""The bundled games. A game is a package of data under ``admin/games/<name>/``:

- ``game.yaml``: its title and one-line summary, the mechanics it enables in order (order is
  precedence) with their parameters, and its demo (players, update cut-offs, settings);
- ``rules_md/``: its rules in our own words with the seed's numbering, one file per section;
- ``demo/maildir``: the players' mail its demo plays (optional).

``nomopoly init DIR --game NAME`` starts one, ``nomopoly games`` lists them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from admin.engine import hooks
from admin.engine.board import add_square
from admin.engine.errors import RuleError
from admin.games.registry import REGISTRY
from admin.library.api import BOARD
from admin.engine.model import Directive, GameState, ModuleConfig, RuleRevision
from admin.nomic.ruleset import Section, load_ruleset, parse_section
from admin.store.fileio import load_yaml

HERE = Path(__file__).parent
DEFAULT = "nomopoly2"


@dataclass
class GameSpec:
    """One bundled game, as its ``game.yaml`` describes it."""

    name: str
    title: str
    summary: str
    path: Path
    modules: list[ModuleConfig] = field(default_factory=list)
    demo: dict[str, Any] = field(default_factory=dict)
    #: the board's layout (admin/engine/layouts.py)
    layout: str = "snake"
    #: how its money is written ("${}", "Fn {}")
    currency: str = "${}"
    #: mechanics an accepted proposal may switch on, with the file of the section each adds
    optional: dict[str, str] = field(default_factory=dict)
    #: rules no mechanic automates: {"core": {rule: how}, "admin": {rule: command}, "text": {rule: why}}
    coverage: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the game it is made from (its rules, modules, optional sections and coverage), if any
    base: str | None = None
    #: optional mechanics in force from the start, each with its section (in ``optional`` order)
    enabled_optional: list[str] = field(default_factory=list)
    #: the game's numbers for rules the library's mechanics cite by another game's numbers
    rule_aliases: dict[str, str] = field(default_factory=dict)
    #: every rule id of the rulebook the game follows (``rulebook: {section: count}``): coverage
    #: reports a rule with no section written yet as missing instead of leaving it out
    rulebook: list[str] = field(default_factory=list)

    @property
    def rules_dir(self) -> Path:
        return spec(self.base).rules_dir if self.base else self.path / "rules_md"

    @property
    def demo_maildir(self) -> Path:
        return self.path / "demo" / "maildir"


def available(games: Path = HERE) -> list[str]:
    """The names of the bundled games (of the games in folder ``games``)."""
    return sorted(p.parent.name for p in games.glob("*/game.yaml"))


def spec(name: str, games: Path = HERE) -> GameSpec:
    """The game ``name`` of the bundled games (or of the games in folder ``games``)."""
    path = games / name / "game.yaml"
    if not path.is_file():
        raise RuleError(f"no bundled game {name!r}; bundled games: {', '.join(available(games))} "
                        "(`nomopoly games` describes each)")
    data = load_yaml(path) or {}
    modules = [ModuleConfig(name=m["name"], params=dict(m.get("params") or {}),
                            rules=[str(r) for r in m["rules"]] if "rules" in m else None)
               for m in data.get("modules", [])]
    optional = {str(k): str(path.parent / str(v)) for k, v in (data.get("optional") or {}).items()}
    coverage = {k: dict(v or {}) for k, v in (data.get("coverage") or {}).items()}
    base = spec(str(data["base"]), games) if data.get("base") else None
    if base is not None:  # made from another game: its modules first, its sections, its coverage
        modules = [*base.modules, *modules]
        optional = {**base.optional, **optional}
        coverage = {k: {**base.coverage.get(k, {}), **coverage.get(k, {})}
                    for k in {*base.coverage, *coverage}}
    modules = with_params(modules, data.get("params"), str(path))
    if not isinstance(data.get("enable") or [], list):
        # each game names the sections it has in force, so a section added to one game is never
        # switched on in another that is made from it without saying so
        raise RuleError(f"{path}: enable must list the optional mechanics in force from the start, by name "
                        f"(not {data['enable']!r}); the game offers {', '.join(optional) or 'none'}")
    enabled = [str(m) for m in data.get("enable") or []]
    unknown = [m for m in enabled if m not in optional]
    if unknown:
        raise RuleError(f"{path}: enable names {', '.join(unknown)}, which the game does not offer "
                        f"(its optional mechanics: {', '.join(optional) or 'none'})")
    rulebook = [f"{section}.{n}" for section, count in (data.get("rulebook") or {}).items()
                for n in range(1, int(count) + 1)]
    return GameSpec(name=name, title=str(data.get("title", name)), summary=str(data.get("summary", "")),
                    currency=str(data.get("currency", base.currency if base else "${}")),
                    path=path.parent, modules=modules, demo=dict(data.get("demo") or {}),
                    coverage=coverage, optional=optional, base=base.name if base else None,
                    enabled_optional=enabled, rulebook=rulebook,
                    rule_aliases={str(k): str(v) for k, v in (data.get("rule_aliases") or {}).items()},
                    layout=str(data.get("layout", base.layout if base else "snake")))


def with_params(configs: list[ModuleConfig], params: Any, where: str) -> list[ModuleConfig]:
    """``configs`` (the modules) with the parameters ``params`` gives (``{module: {key: value}}``) set over theirs:
    how a game made from another (``base:``) or a demo tunes a module it does not list itself."""
    if not params:
        return configs
    if not isinstance(params, dict) or not all(isinstance(v, dict) for v in params.values()):
        raise RuleError(f"{where}: params must map a module to its parameters ({{board: {{initial_squares: 60}}}}), "
                        f"not {params!r}")
    names = [c.name for c in configs]
    unknown = [str(n) for n in params if n not in names]
    if unknown:
        raise RuleError(f"{where}: params names {', '.join(unknown)}, which the game does not run "
                        f"(its modules: {', '.join(names)})")
    out = []
    for m in configs:
        tuned = {**m.params, **params.get(m.name, {})}
        defaults = getattr(REGISTRY.known.get(m.name), "defaults", {}) or {}
        for key, value in params.get(m.name, {}).items():  # back to its default: not set for the game
            if key in defaults and defaults[key] == value:
                tuned.pop(key)
        out.append(ModuleConfig(m.name, tuned, m.rules))
    return out


def module_section(game: str, module: str) -> Section | None:
    """The section of rules ``game``'s package writes for ``module`` (None: it writes none)."""
    if game not in available():
        return None
    g = spec(game)
    name = g.optional.get(module)
    if not name:
        return None
    path = g.path / name
    return parse_section(path.read_text(encoding="utf-8"), path.name, where=str(path))


REGISTRY.section_source = module_section


def initial_state(game: str, name: str, params: dict[str, dict[str, Any]] | None = None) -> GameState:
    """A new game of the bundled game ``game``, called ``name``: its modules set up (with
    ``params`` over the game's own, as its demo gives them), its board laid out, its ruleset and
    each rule's first revision."""
    g = spec(game)
    state = GameState(name=name, ruleset=game, layout=g.layout, currency=g.currency,
                      rule_aliases=dict(g.rule_aliases),
                      modules=[ModuleConfig(m.name, dict(m.params), m.rules)
                               for m in with_params(g.modules, params, f"{game}'s demo")])
    calls = hooks.call(state, REGISTRY)  # fails early on an unknown module
    calls.setup(state)
    if BOARD.on(state):
        for _ in range(int(REGISTRY.params(state, "board").get("initial_squares", 0))):
            add_square(state, calls)
    state.rules = load_ruleset(g.rules_dir)
    state.rule_history = {r.id: [RuleRevision(rev=1, action="created", update=0, week=0, text=r.text)]
                          for r in state.rules.rules()}
    if g.enabled_optional:  # in force from the start: as if a proposal had enabled each, in order
        from admin.nomic.amendments import carry_out

        carry_out(state, None, [Directive("enable", m) for m in g.enabled_optional], REGISTRY)
    return state


def bundled_path(name: str) -> Path:
    """A top-level folder shipped with the tool (``site_templates``)."""
    repo = HERE.parent.parent / name
    return repo if repo.is_dir() else HERE.parent / "_bundled" / name
