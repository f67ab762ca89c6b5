"""The registry of mechanics: every known module by name, a game's enabled list resolved into
instances in precedence order, and the tables the update asks of them (commands, hook
implementers, capability providers), cached per list of enabled modules."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from admin.engine import commands
from admin.engine.errors import RuleError
from admin.engine.module import CommandSpec, Mechanic

if TYPE_CHECKING:
    from admin.engine.model import GameState, Player

C = TypeVar("C")


@dataclass(frozen=True)
class Later:
    """The mechanics of a package imported only when one of them is first asked for (a game the
    process may never play: its import is time and memory every job would pay). ``package`` has
    ``MODULES``, the mechanics' classes, whose names are ``names`` in that order."""

    package: str
    names: tuple[str, ...]


class Known(Mapping[str, type[Mechanic[Any, Any]]]):
    """Every known mechanic by name, in library order; a :class:`Later` package is imported when
    one of its mechanics is looked up (iterating the names imports nothing)."""

    def __init__(self, entries: Sequence[type[Mechanic[Any, Any]] | Later]) -> None:
        self._names: list[str] = []
        self._classes: dict[str, type[Mechanic[Any, Any]]] = {}
        self._later: dict[str, Later] = {}
        for entry in entries:
            if isinstance(entry, Later):
                self._names += entry.names
                self._later.update(dict.fromkeys(entry.names, entry))
            else:
                self._names.append(entry.name)
                self._classes[entry.name] = entry

    def __getitem__(self, name: str) -> type[Mechanic[Any, Any]]:
        found = self._classes.get(name)
        if found is None:
            self.load(self._later[name])  # (a KeyError for a name nobody knows)
            found = self._classes[name]
        return found

    def __contains__(self, name: object) -> bool:
        return name in self._classes or name in self._later

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def load(self, later: Later) -> None:
        classes = importlib.import_module(later.package).MODULES
        if tuple(c.name for c in classes) != later.names:
            raise RuntimeError(f"{later.package}.MODULES names {[c.name for c in classes]}, not {list(later.names)}: "
                               "update its Later entry in admin/games/registry.py")
        for cls in classes:
            self._classes[cls.name] = cls
            self._later.pop(cls.name, None)

    def load_all(self) -> None:
        """Import every package still waiting (a log that names a command no loaded one declares)."""
        for later in dict.fromkeys(self._later.values()):
            self.load(later)


class Registry:
    """All known modules by name; resolves a game's enabled list into instances, in order."""

    def __init__(self, modules: Sequence[type[Mechanic[Any, Any]] | Later]) -> None:
        self.known = Known(modules)
        commands.ON_UNKNOWN.append(self.known.load_all)
        self._instances: dict[str, Mechanic[Any, Any]] = {}
        self._cache: dict[tuple[str, ...], list[Mechanic[Any, Any]]] = {}
        self._tables: dict[tuple[str, ...], dict[str, tuple[Mechanic[Any, Any], CommandSpec]]] = {}
        self._implementers: dict[tuple[tuple[str, ...], str, bool], list[Mechanic[Any, Any]]] = {}
        self._providers: dict[tuple[tuple[str, ...], type], Mechanic[Any, Any] | None] = {}
        #: the last enabled list asked about, its length then, and its names: the key of the caches
        #: above (a hook runs about 3,600 times an update; the list is replaced, not changed in
        #: place, when a module is switched on or off: admin/engine/config.py)
        self._last: tuple[list[Any] | None, int, tuple[str, ...]] = (None, 0, ())
        #: (game, module) -> the section of rules the game's package writes for the module, which
        #: ENABLE adds to the ruleset (set by :mod:`admin.games.catalog`)
        self.section_source: Callable[[str, str], Any] = lambda game, module: None

    def section_for(self, game: str, module: str) -> Any:
        return self.section_source(game, module)

    def get(self, name: str) -> Mechanic[Any, Any]:
        if name not in self.known:
            raise RuleError(f"unknown module {name!r}; known modules: {', '.join(sorted(self.known))}")
        if name not in self._instances:
            self._instances[name] = self.known[name]()
        return self._instances[name]

    def names(self, state: GameState) -> tuple[str, ...]:
        """The names of the enabled modules, in precedence order (the caches' key)."""
        mods = state.modules
        last, length, names = self._last
        if last is mods and length == len(mods):
            return names
        names = tuple([m.name for m in mods])
        self._last = (mods, len(mods), names)
        return names

    def enabled(self, state: GameState) -> list[Mechanic[Any, Any]]:
        names = self.names(state)
        if names not in self._cache:
            missing = [n for n in names if n not in self.known]
            if missing:
                raise RuleError(f"unknown rule module(s) {', '.join(missing)} in state/game.yaml; "
                                f"known modules: {', '.join(sorted(self.known))}")
            self._cache[names] = [self.get(n) for n in names]
        return self._cache[names]

    def params(self, state: GameState, module: str) -> dict[str, Any]:
        cls = self.known.get(module)
        merged = dict(cls.defaults) if cls else {}
        merged.update(state.params(module))
        return merged

    def command_table(self, state: GameState) -> dict[str, tuple[Mechanic[Any, Any], CommandSpec]]:
        """Command name (``"buy"``) -> (module, spec) for the enabled modules; the first wins."""
        names = self.names(state)
        if names not in self._tables:
            table: dict[str, tuple[Mechanic[Any, Any], CommandSpec]] = {}
            for module in self.enabled(state):
                for spec in module.commands():
                    # (a command class names itself in its ClassVar cmd: admin.engine.commands)
                    table.setdefault(spec.command.cmd, (module, spec))  # type: ignore[attr-defined]
            self._tables[names] = table
        return self._tables[names]

    def specs(self, state: GameState) -> list[tuple[Mechanic[Any, Any], CommandSpec]]:
        """Every command (keyword) of the enabled modules, in precedence order: several keywords
        may share one typed command (ACCEPT, DECLINE and BID are all answers)."""
        return [(m, spec) for m in self.enabled(state) for spec in m.commands()]

    def all_commands(self) -> list[tuple[Mechanic[Any, Any], CommandSpec]]:
        """Every command of every known module, in library order (the grammar's table)."""
        return [(self.get(n), spec) for n in self.known for spec in self.get(n).commands()]

    def implementers(self, state: GameState, hook: str, every: bool = False) -> list[Mechanic[Any, Any]]:
        """The enabled modules that implement ``hook`` (all of them with ``every``), in precedence
        order: what :mod:`admin.engine.hooks` calls."""
        key = (self.names(state), hook, every)
        found = self._implementers.get(key)
        if found is None:
            mods = self.enabled(state)
            found = self._implementers[key] = list(mods) if every else [
                m for m in mods if getattr(type(m), hook) is not getattr(Mechanic, hook)]
        return found

    def provider(self, state: GameState, capability: type[C]) -> C | None:
        """The enabled module that has ``capability`` (a class it derives from, see
        :mod:`admin.engine.capabilities`), the first in precedence order; None if none is on."""
        key = (self.names(state), capability)
        if key not in self._providers:
            self._providers[key] = next((m for m in self.enabled(state) if isinstance(m, capability)), None)
        return self._providers[key]  # type: ignore[return-value]  # an instance of capability, or None

    def undoes_failed_actions(self, state: GameState) -> bool:
        """Whether any enabled module asks that a failed action leave the game as it was."""
        return any(m.undo_failed_actions for m in self.enabled(state))

    def net_worth(self, state: GameState, player: Player) -> int:
        """Money plus what every enabled module adds (VI.16: the price of each square owned)."""
        from admin.engine.hooks import call

        return player.money + call(state, self).worth(state, player)

    def rules_of(self, state: GameState | None, module: str) -> tuple[str, ...]:
        """The rule ids ``module`` automates in this game (its game may number them its own way)."""
        for config in state.modules if state is not None else ():
            if config.name == module and config.rules is not None:
                return tuple(config.rules)
        cls = self.known.get(module)
        return cls.rules if cls else ()

    def module_for_rule(self, rule_id: str, state: GameState | None = None) -> str | None:
        """The module that automates a rule in this game: its enabled modules first, in precedence
        order, then its dormant ones (switched off, state kept). Rule ids belong to a game's
        ruleset, so a module the game has never had says nothing about them. Without a state,
        the library's modules (numbered as Nomopoly II)."""
        if state is None:
            return next((n for n, cls in self.known.items() if rule_id in cls.rules), None)
        names = [m.name for m in state.modules if m.name in self.known]
        names += sorted(n for n in state.mods if n in self.known and n not in names)
        # (not a library module the game lacks: in a game with its own numbering its ids mean nothing)
        return next((n for n in names if rule_id in self.rules_of(state, n)), None)
