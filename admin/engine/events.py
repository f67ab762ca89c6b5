"""Events: the engine's output. Each has a public text (or none) and an optional private detail
for one player; the site shows the public part, each player's email their own private part."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    kind: str
    #: what everyone may read; None for an event only its player may see (e.g. burying a card)
    text: str | None
    player: str | None = None
    #: what only ``player`` may read (the card they drew, where it was buried)
    private: str | None = None
    #: the rule that caused it, e.g. ``"XIII.1"``
    rule: str | None = None
    ok: bool = True
    #: the email line this answers: ``"<message key>#<line>"``
    ref: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Ruling:
    """An admin's decision, an input to the update like a player's email (see ``nomopoly ruling``)."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    note: str = ""
