"""The typed command language: what a player's email (or the admin) asks the engine to do.

The grammar in :mod:`admin.mail.grammar` turns lines of text into these; the engine only ever
sees these. Each command serialises to a plain dict (``{"cmd": "buy", "square": 14}``) for the
update log, and back, so a replay feeds the engine exactly what the original update fed it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Union

VoteChoice = Literal["yes", "no", "abstain"]


@dataclass(frozen=True)
class Buy:
    """``BUY [square]``: buy the unowned square the player landed on (XIII.1)."""

    square: int | None = None
    cmd: ClassVar[str] = "buy"


@dataclass(frozen=True)
class Name:
    """``NAME <square> <name>``: name (free) or rename ($50) a square the player owns (XIII.4)."""

    square: int
    name: str
    cmd: ClassVar[str] = "name"


@dataclass(frozen=True)
class Place:
    """``PLACE <card> ON <square>``: put a held card on a square (XIV.3)."""

    card: str
    square: int
    cmd: ClassVar[str] = "place"


@dataclass(frozen=True)
class Bury:
    """``BURY <card>``: bury a held card under the player's current square (XIV.6)."""

    card: str
    cmd: ClassVar[str] = "bury"


@dataclass(frozen=True)
class Propose:
    """``PROPOSE [title]`` then the text up to a line ``END`` (VIII.1)."""

    title: str
    text: str
    cmd: ClassVar[str] = "propose"


@dataclass(frozen=True)
class Vote:
    """``VOTE <proposal> YES|NO|ABSTAIN`` (VIII.3)."""

    proposal: int
    choice: VoteChoice
    cmd: ClassVar[str] = "vote"


@dataclass(frozen=True)
class Withdraw:
    """``WITHDRAW <proposal>``: the proposer takes their proposal back before the tally."""

    proposal: int
    cmd: ClassVar[str] = "withdraw"


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


Command = Union[Buy, Name, Place, Bury, Propose, Vote, Withdraw, Status, Join, Token]

COMMAND_TYPES: dict[str, type] = {
    c.cmd: c for c in (Buy, Name, Place, Bury, Propose, Vote, Withdraw, Status, Join, Token)
}

#: Commands whose arguments are secret and must never be written to logs or the site.
SECRET_COMMANDS = frozenset({"token"})


def command_to_dict(command: Command) -> dict[str, Any]:
    """``Buy(14)`` -> ``{"cmd": "buy", "square": 14}`` (secrets are redacted)."""
    data: dict[str, Any] = {"cmd": command.cmd}
    for f in dataclasses.fields(command):
        data[f.name] = "<redacted>" if command.cmd in SECRET_COMMANDS else getattr(command, f.name)
    return data


def command_from_dict(data: dict[str, Any]) -> Command:
    """The inverse of :func:`command_to_dict`; raises ``ValueError`` on an unknown command."""
    fields = dict(data)
    kind = fields.pop("cmd", None)
    cls = COMMAND_TYPES.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown command {kind!r}; known: {', '.join(sorted(COMMAND_TYPES))}")
    return cls(**fields)
