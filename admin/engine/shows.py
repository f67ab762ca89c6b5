"""What a mechanic shows of itself on the site, in the JSON export and in mail: public facts about
a player or a square, how a square looks on the board, the pages and tables a mechanic adds, and
the rows of pseudoplayers in the standings. Plain, frozen values: the site escapes every one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Fact:
    """Something public a module says about a player or a square, for the site and the export.

    ``key`` is the JSON export's key; ``order`` places it among the other modules' facts (lower
    first; the core's own facts sit at 0 (money) and 20 (the square))."""

    key: str
    value: Any
    #: its heading among a player's facts on their page (None: not shown there)
    label: str | None = None
    #: its column heading in the standings or the board's table (None: not a column)
    column: str | None = None
    order: int = 50
    #: how the site shows it: "num" (a number), "text", "player" (a link), "squares" (square
    #: links), "hand" (a list of cards)
    kind: str = "num"
    #: how the site writes the value, when not as the value itself (a list of names as words)
    shown: str | None = None


@dataclass(frozen=True)
class SquareLook:
    """How a square looks on the board picture: what modules overlay on it."""

    #: the player whose colour the square takes
    owner: str | None = None
    #: phrases for the square's description, in order (e.g. "owned by bob", "polluted")
    notes: tuple[tuple[int, str], ...] = ()
    #: small badges in the square's corner: (order, short label, long label)
    flags: tuple[tuple[int, str, str], ...] = ()
    #: a corner marker (a placed card): (text, red)
    marker: tuple[str, bool] | None = None
    #: a colour band along the square's foot (its colour group), as #rrggbb
    band: str | None = None


@dataclass(frozen=True)
class Table:
    """A table on a module's page of the site: a caption, column headings and rows of cells (text
    or numbers; the site escapes them)."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class Panel:
    """A page a module adds to the site (the Zoo, the Lottery, the Bank ...): ``<slug>.html``, in
    the navigation by ``title``. Public only: it is built from the public state."""

    slug: str
    title: str
    intro: str = ""
    tables: tuple[Table, ...] = ()
    order: int = 50


@dataclass(frozen=True)
class Remark:
    """A player's public comment on a proposal, shown under it on the site."""

    player: str
    update: int
    date: str
    text: str


@dataclass(frozen=True)
class StandingRow:
    """A party that is not a player but stands in the players' standings (the Teams variant's
    pseudoplayers, The Government and The Corporation), marked with ``badge``; ``href`` is the
    page that tells more about it (a module's panel). ``money`` is None for one that holds none;
    ``facts`` fill the players' columns of the same key (its squares owned ...)."""

    name: str
    badge: str
    net_worth: int
    money: int | None = None
    square: int = 0
    href: str = ""
    facts: tuple[Fact, ...] = ()


def ordered(parts: list[tuple[int, str]]) -> list[str]:
    """Contributions of several modules in their declared order (stable for ties)."""
    return [text for _, text in sorted(parts, key=lambda p: p[0])]
