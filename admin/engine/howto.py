"""How to play: the commands the rules in force allow, each with its usage line, an example, what
it does and the rule it comes from. One source for the site's how-to-play page and for the
answer to ``HELP`` by mail, built from what the enabled modules register, so both change the
moment a proposal enables, disables or changes a mechanic."""

from __future__ import annotations

from dataclasses import dataclass

from admin.engine.module import CommandSpec
from admin.engine.registry import Registry
from admin.engine.model import GameState

__all__ = ["HowTo", "CORE", "commands_in_force", "find", "help_lines"]


@dataclass(frozen=True)
class HowTo:
    """One command as a player learns it."""

    keyword: str
    usage: str
    example: str
    summary: str
    #: the rule ids it comes from, in this game's numbering (none for the core's own commands)
    rules: tuple[str, ...]
    #: the module that adds it ("core" for the tool's own)
    module: str
    listing: int = 100

    def line(self) -> str:
        """``BUY [square]: buy ... (XIII.1). Example: BUY 14``, for HELP."""
        cites = f" ({', '.join(self.rules)})" if self.rules else ""
        example = f" Example: {self.example}" if self.example and self.example != self.usage else ""
        return f"{self.usage}: {self.summary}{cites}.{example}"


CORE = (
    HowTo("STATUS", "STATUS", "STATUS", "your money, square and what you hold, in the reply to "
          "you alone", (), "core", 70),
    HowTo("HELP", "HELP [command]", "HELP BUY", "the commands the rules in force allow, or one of "
          "them, in the reply", (), "core", 75),
    HowTo("JOIN", "JOIN <name>", "JOIN Ada", "from an address that is not a player's yet: ask to "
          "join the game under that name (the Admin decides)", (), "core", 80),
    HowTo("TOKEN", "TOKEN <secret>", "TOKEN 7f3a9c", "your secret, in games that ask for one on "
          "every email (never shown anywhere)", (), "core", 90),
)


def commands_in_force(state: GameState, registry: Registry) -> list[HowTo]:
    """Every command a player may send now, in the order of the grammar's "Valid commands" (a
    keyword two modules share is the first module's, as in the grammar)."""
    found: dict[str, HowTo] = {h.keyword: h for h in CORE}
    known = _rule_ids(state)
    for module, spec in registry.specs(state):
        key = spec.keyword.upper()
        if key not in found:
            found[key] = _entry(module.name, spec, registry.rules_of(state, module.name), known,
                                 state.rule_aliases)
    return sorted(found.values(), key=lambda h: (h.listing, h.keyword))


def find(entries: list[HowTo], topic: str) -> HowTo | None:
    """The entry for ``topic`` (``BUY``, ``build railroad``, ``BUILD``: its first word)."""
    words = topic.upper().split()
    for size in (2, 1):
        key = " ".join(words[:size])
        hit = next((h for h in entries if h.keyword == key), None)
        if hit is not None:
            return hit
    return next((h for h in entries if h.keyword.split()[0] == (words[0] if words else "")), None)


def help_lines(state: GameState, registry: Registry, topic: str | None = None) -> list[str]:
    """The answer to ``HELP`` (one line a command) or ``HELP <topic>``."""
    entries = commands_in_force(state, registry)
    if topic:
        hit = find(entries, topic)
        if hit is None:
            return [f"{topic} is not a command of this game now. Its commands: "
                    + ", ".join(h.keyword for h in entries) + "."]
        return [hit.line()]
    return [h.line() for h in entries]


def _entry(module: str, spec: CommandSpec, module_rules: tuple[str, ...], known: set[str] | None,
           aliases: dict[str, str] | None = None) -> HowTo:
    aliases = aliases or {}
    cited = tuple(aliases.get(r, r) for r in spec.rules if aliases.get(r, r) in module_rules)
    if spec.rules and not cited and module_rules:  # the game numbers the module's rules its own way
        cited = module_rules[:1]
    if known is not None:
        cited = tuple(r for r in cited if r in known)
    return HowTo(spec.keyword.upper(), spec.usage, spec.example or spec.usage,
                 spec.summary or "see the rules", cited, module, spec.listing)


def _rule_ids(state: GameState) -> set[str] | None:
    """The rule ids of the game's ruleset (None when it has none loaded: cite as registered)."""
    return {r.id for r in state.rules.rules()} or None
