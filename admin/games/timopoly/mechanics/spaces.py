"""Timopoly's board as data: forty named spaces around a loop (the game's ``timo-board``
parameters, from its package), and the look-ups every Timopoly mechanic shares."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from admin.engine.errors import IllegalAction, RuleError
from admin.engine.model import GameState
from admin.engine.params import MAX_INT, check_whole_numbers, whole_number

KINDS = ("go", "category", "card", "tax", "web", "publisher", "jail", "free", "gotojail")
#: the kinds of space a player may control (buy, mortgage, sell)
DEEDS = ("category", "web", "publisher")
#: what a space may say of itself: text, or a whole number
TEXTS, NUMBERS = ("name", "kind", "group", "deck"), ("price", "nom", "tax")
#: the most spaces a board may have
MAX_SPACES = 400


@dataclass(frozen=True)
class Space:
    number: int
    name: str
    kind: str
    group: str | None = None
    price: int = 0
    #: rants: unimproved, 1 to 5 Noms, a Rocket (categories only)
    rents: tuple[int, ...] = ()
    #: the price of a Nom (and of a Rocket) on it
    nom: int = 0
    deck: str | None = None
    tax: int = 0

    @property
    def is_deed(self) -> bool:
        return self.kind in DEEDS


def spaces(state: GameState) -> tuple[Space, ...]:
    data = state.params("timo-board").get("spaces") or []
    return _parse(_freeze(data))


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@lru_cache(maxsize=8)
def _parse(frozen: tuple[Any, ...]) -> tuple[Space, ...]:
    out = []
    for i, items in enumerate(frozen, 1):
        d = dict(items)
        if d.get("kind") not in KINDS:
            raise RuleError(f"timo-board.spaces[{i}]: kind {d.get('kind')!r} is not one of {', '.join(KINDS)}")
        rents = tuple(int(r) for r in d.get("rents") or ())
        if d["kind"] == "category" and len(rents) != 7:
            raise RuleError(f"timo-board.spaces[{i}] ({d.get('name')}): a category has 7 rants "
                            f"(unimproved, 1-5 Noms, a Rocket), not {len(rents)}")
        out.append(Space(number=i, name=str(d.get("name", f"Space {i}")), kind=d["kind"],
                         group=d.get("group"), price=int(d.get("price", 0)), rents=rents,
                         nom=int(d.get("nom", 0)), deck=d.get("deck"), tax=int(d.get("tax", 0))))
    if out and len(out) % 4:
        raise RuleError(f"timo-board.spaces: a loop board needs a multiple of 4 spaces, not {len(out)}")
    return tuple(out)


def check_spaces(value: Any) -> None:
    """The ``timo-board.spaces`` a proposal or a game may set: a board the game can be played on
    (a loop of 4 to :data:`MAX_SPACES` spaces, a multiple of 4, with a HUGE-O and a jail), each
    space a mapping of the keys a space has, of the right kinds."""
    if not isinstance(value, list) or not 4 <= len(value) <= MAX_SPACES:
        raise RuleError(f"the board is a list of 4 to {MAX_SPACES} spaces, like [{{name: HUGE-O, kind: go}}, ...]")
    for i, item in enumerate(value, 1):
        if not isinstance(item, dict):
            raise RuleError(f"space {i} is a mapping like {{name: HUGE-O, kind: go}}, not {str(item)[:60]!r}")
        unknown = sorted(str(k) for k in item if k not in (*TEXTS, *NUMBERS, "rents"))
        if unknown:
            raise RuleError(f"space {i} has no {unknown[0]!r}; a space has {', '.join((*TEXTS, *NUMBERS, 'rents'))}")
        for key in TEXTS:
            if item.get(key) is not None and not isinstance(item[key], str):
                raise RuleError(f"space {i}'s {key} is text, not {str(item[key])[:60]!r}")
        for key in NUMBERS:
            if key in item and ((n := whole_number(item[key])) is None or not 0 <= n <= MAX_INT):
                raise RuleError(f"space {i}'s {key} is a whole number from 0 to {MAX_INT:,}, not {str(item[key])[:60]!r}")
        if not isinstance(item.get("rents", []), list):
            raise RuleError(f"space {i}'s rents are a list of whole numbers, like [1, 2, 3, 8, 14, 20, 25]")
        check_whole_numbers(0, MAX_INT)(item.get("rents", []))
    board = _parse(_freeze(value))  # the kinds, a category's seven rants, a multiple of 4
    for kind in ("go", "jail"):
        if sum(s.kind == kind for s in board) != 1:
            raise RuleError(f"the board has one space of kind {kind!r}, not {sum(s.kind == kind for s in board)}")


def space(state: GameState, number: int) -> Space:
    board = spaces(state)
    if not 1 <= number <= len(board):
        raise IllegalAction(f"there is no space {number}; the spaces are numbered 1 to {len(board)}")
    return board[number - 1]


def group(state: GameState, name: str | None) -> list[Space]:
    return [s for s in spaces(state) if name is not None and s.group == name]


def first_of(state: GameState, kind: str) -> int:
    return next(s.number for s in spaces(state) if s.kind == kind)


def nearest(state: GameState, start: int, kind: str) -> int:
    """The next space of ``kind`` ahead of ``start`` (going round the loop)."""
    board = spaces(state)
    for step in range(1, len(board) + 1):
        n = (start - 1 + step) % len(board) + 1
        if board[n - 1].kind == kind:
            return n
    raise RuleError(f"the board has no space of kind {kind!r}")


def find(state: GameState, text: str) -> Space:
    """A space named by a player: its number (``14``, ``#14``) or its name, or a word of it that
    names one space only (``novella``, ``best novel``)."""
    text = text.strip()
    m = re.fullmatch(r"(?:space\s*)?#?(\d{1,3})", text, re.IGNORECASE)
    if m:
        return space(state, int(m.group(1)))
    want = text.casefold()
    board = spaces(state)
    exact = [s for s in board if s.name.casefold() == want]
    if exact:
        return exact[0]
    partial = [s for s in board if want and want in s.name.casefold() and s.is_deed]
    if len(partial) == 1:
        return partial[0]
    if partial:
        raise IllegalAction(f'"{text}" could be {", ".join(s.name for s in partial)}; write the '
                            "space's whole name or its number")
    raise IllegalAction(f'there is no space "{text}"; write a space\'s number (1 to {len(board)}) '
                        "or its name, like Novella")
