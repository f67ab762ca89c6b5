"""The rule-module protocol and the registry.

A rule module implements one mechanic: it names the rule ids it automates, declares its
parameters with defaults, and hooks into the update (``on_land``, ``on_pass_end`` ...) and into the
command language (``handlers``). The game's state lists the enabled modules with their parameters;
that list's order is precedence: hooks run in that order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from admin.errors import RuleError

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.model import GameState, Player, Square

Handler = Callable[["UpdateContext", "Player", Any], str]


class RuleModule:
    #: the module's name in the game's configuration
    name: ClassVar[str] = ""
    #: the rule ids it automates, e.g. ("XIII.1", "XIII.3")
    rules: ClassVar[tuple[str, ...]] = ()
    #: parameters and their defaults; the game's config overrides them
    defaults: ClassVar[dict[str, Any]] = {}
    summary: ClassVar[str] = ""

    def handlers(self) -> dict[str, Handler]:
        """Command name (``"buy"``) -> handler returning the success text or raising IllegalAction."""
        return {}

    # Hooks; each does nothing unless a module overrides it.
    def on_update_start(self, ctx: UpdateContext) -> None: ...
    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None: ...
    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None: ...
    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None: ...
    def on_doubles(self, ctx: UpdateContext, player: Player, turn: int) -> None: ...
    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None: ...
    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        return rent
    def on_update_end(self, ctx: UpdateContext) -> None: ...


class Registry:
    """All known modules by name; resolves a game's enabled list into instances, in order."""

    def __init__(self, modules: list[type[RuleModule]]) -> None:
        self.known: dict[str, type[RuleModule]] = {m.name: m for m in modules}
        self._cache: dict[tuple[str, ...], list[RuleModule]] = {}

    def enabled(self, state: GameState) -> list[RuleModule]:
        names = tuple(m.name for m in state.modules)
        if names not in self._cache:
            missing = [n for n in names if n not in self.known]
            if missing:
                raise RuleError(f"unknown rule module(s) {', '.join(missing)} in state/modules.yaml; "
                                f"known modules: {', '.join(sorted(self.known))}")
            self._cache[names] = [self.known[n]() for n in names]
        return self._cache[names]

    def params(self, state: GameState, module: str) -> dict[str, Any]:
        cls = self.known.get(module)
        merged = dict(cls.defaults) if cls else {}
        merged.update(state.params(module))
        return merged

    def handlers(self, state: GameState) -> dict[str, tuple[RuleModule, Handler]]:
        table: dict[str, tuple[RuleModule, Handler]] = {}
        for module in self.enabled(state):
            for cmd, fn in module.handlers().items():
                table.setdefault(cmd, (module, fn))  # precedence: the first module wins
        return table

    def module_for_rule(self, rule_id: str) -> str | None:
        for cls in self.known.values():
            if rule_id in cls.rules:
                return cls.name
        return None
