"""Which mechanics a game has, in what order, with what parameters: switching a module on and
off, and setting a parameter, as accepted proposals (``ENABLE``, ``DISABLE``, ``SET``) and the
Admin's rulings do. Pure functions over the state; the caller records them (the update log)."""

from __future__ import annotations

from typing import Any

from admin.engine.capabilities import ChecksSettings
from admin.engine.registry import Registry
from admin.engine.params import check_param
from admin.engine.errors import RuleError
from admin.engine.model import GameState, ModuleConfig


def enable_module(state: GameState, registry: Registry, name: str,
                  params: dict[str, Any] | None = None, *, after: str | None = None) -> None:
    """Switch a module on (last in precedence, or just after ``after``) and set up its state for
    every player and square already in the game. A module already on is an error."""
    mechanic = registry.get(name)  # an unknown module fails here, naming the known ones
    if state.enabled(name):
        raise RuleError(f"the {name} module is already enabled")
    for needed in mechanic.requires:  # what it builds on comes first
        if not state.enabled(needed):
            enable_module(state, registry, needed, after=after)
            after = needed if after is not None else None
    for key, value in (params or {}).items():
        _check_param(mechanic, name, key, value)
    config = ModuleConfig(name=name, params=dict(params or {}))
    names = [m.name for m in state.modules]
    if after is not None and after not in names:
        raise RuleError(f"cannot enable {name} after {after}: {after} is not enabled")
    position = names.index(after) + 1 if after is not None else _place(registry, name, names)
    # a new list, never changed in place: the registry knows the enabled list by identity
    state.modules = [*state.modules[:position], config, *state.modules[position:]]
    mechanic.setup(state)


def _place(registry: Registry, name: str, names: list[str]) -> int:
    """Where a module goes in precedence: last, but before any enabled module that must run after
    it and after every enabled module it must run after (``Mechanic.runs_after``)."""
    first = min((i for i, n in enumerate(names) if name in registry.get(n).runs_after), default=len(names))
    least = max((names.index(n) + 1 for n in registry.get(name).runs_after if n in names), default=0)
    return max(first, least)


def disable_module(state: GameState, name: str) -> None:
    """Switch a module off. Its state stays (dormant) so that enabling it again resumes it."""
    if not state.enabled(name):
        raise RuleError(f"the {name} module is not enabled; enabled: "
                        f"{', '.join(m.name for m in state.modules)}")
    state.modules = [m for m in state.modules if m.name != name]


def set_param(state: GameState, registry: Registry, module: str, key: str, value: Any) -> Any:
    """Set one parameter of an enabled module; a value of the wrong kind is refused. Returns the
    value as stored (text like "40" becomes 40 where the parameter is a number). The rules whose
    text states the parameter are rewritten to say its new value (admin/nomic/stated.py)."""
    for config in state.modules:
        if config.name == module:
            mechanic = registry.get(module)
            value = _check_param(mechanic, module, key, value)
            if isinstance(mechanic, ChecksSettings):
                mechanic.check_setting(state, key, value)
            config.params[key] = value
            from admin.nomic.stated import restate

            restate(state, registry, module, key)  # the rules that state it say the new value
            return value
    raise RuleError(f"module {module!r} is not enabled; enabled: "
                    f"{', '.join(m.name for m in state.modules)}")


def _check_param(mechanic: Any, module: str, key: str, value: Any) -> Any:
    """``value`` as stored, checked against the parameter's type and bounds (admin/engine/params.py)."""
    return check_param(mechanic, module, key, value)
