"""The typed command language: what a player's email (or the admin) asks the engine to do.

The grammar in :mod:`admin.mail.inbound.grammar` turns lines of text into these; the engine only ever
sees these. The core has four (STATUS, HELP, JOIN, TOKEN); each mechanic declares its own next to its
handler and registers it with :func:`command_type`. Each command serialises to a plain dict (``{"cmd": "buy", "square": 14}``) for the
update log, and back, so a replay feeds the engine exactly what the original update fed it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, ClassVar


@dataclass(frozen=True)
class Status:
    """``STATUS``: ask for one's own status in the reply."""

    cmd: ClassVar[str] = "status"


@dataclass(frozen=True)
class Join:
    """``JOIN <name>`` from an address that is not a player's: a request the admin approves."""

    name: str
    cmd: ClassVar[str] = "join"


@dataclass(frozen=True)
class Token:
    """``TOKEN <secret>``: the player's secret, where the game requires one (checked by auth)."""

    secret: str
    cmd: ClassVar[str] = "token"


@dataclass(frozen=True)
class Help:
    """``HELP`` or ``HELP <command>``: the commands the rules in force allow, in the reply."""

    topic: str | None = None
    cmd: ClassVar[str] = "help"


#: Any command: a frozen dataclass with a class attribute ``cmd`` naming it.
Command = Any

#: Every command type by name: the core's own, and each mechanic's (added by :func:`command_type`).
COMMAND_TYPES: dict[str, type] = {c.cmd: c for c in (Status, Join, Token, Help)}
#: what :func:`command_from_dict` calls before it refuses a name no imported module declares: the
#: registry, which imports some games' mechanics only when first needed, loads the rest of them
ON_UNKNOWN: list[Callable[[], None]] = []


def command_type(cls: type) -> type:
    """Class decorator: register a mechanic's command type so the log can read it back."""
    name: str = cls.cmd  # type: ignore[attr-defined]  # a command class names itself (ClassVar cmd)
    known = COMMAND_TYPES.get(name)
    if known is not None and known is not cls:
        raise ValueError(f"two command types are named {name!r}: {known} and {cls}")
    COMMAND_TYPES[name] = cls
    return cls

#: Commands whose arguments are secret and must never be written to logs or the site.
SECRET_COMMANDS = frozenset({"token"})


#: the metadata of a field added to a command after games were played with it: left out of the
#: dict while it has its default, so the log, and the digest the dice are drawn from, of every
#: command written before it stay as they were (``field(default=False, metadata=LATER)``)
LATER = {"omitted_when_default": True}


def command_to_dict(command: Command) -> dict[str, Any]:
    """``Buy(14)`` -> ``{"cmd": "buy", "square": 14}`` (secrets are redacted)."""
    data: dict[str, Any] = {"cmd": command.cmd}
    for f in dataclasses.fields(command):
        value = getattr(command, f.name)
        if f.metadata.get("omitted_when_default") and value == f.default:
            continue
        data[f.name] = "<redacted>" if command.cmd in SECRET_COMMANDS else value
    return data


def command_from_dict(data: dict[str, Any]) -> Command:
    """The inverse of :func:`command_to_dict`; raises ``ValueError`` on an unknown command."""
    fields = dict(data)
    kind = fields.pop("cmd", None)
    cls = COMMAND_TYPES.get(str(kind))
    if cls is None and ON_UNKNOWN:  # declared by a game's mechanics not imported yet
        for load in ON_UNKNOWN:
            load()
        cls = COMMAND_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown command {kind!r}; known: {', '.join(sorted(COMMAND_TYPES))}")
    return cls(**fields)
