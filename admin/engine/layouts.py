"""Board layouts: where each square of a board sits, for movement by compass and for the picture.

A layout places square ``n`` (1-based) of a board of ``count`` squares at a grid cell
``(row, col)``, row 0 at the bottom and column 0 at the left, and finds the square at a cell.

- ``snake``: rows of a fixed width (Nomopoly II VI.5: 10), square 1 at the bottom left, even rows
  running east, odd rows west, each row stacked on the last.
- ``sqrt-snake``: the same snake, each row ``floor(sqrt(count))`` squares wide (the Teams
  variant's rule 3), so the board keeps roughly square as it grows. A board of one square is one
  cell.
- ``loop``: a classic board of named spaces around the edge of a square, ``count / 4`` to a side:
  space 1 (the start) in the bottom-right corner, then west along the bottom, north up the left
  side, east along the top and south down the right side (Timopoly). Directions across a loop
  mean nothing: it has no compass.
- ``none``: no board (Technopoly): no square has a cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from admin.engine.errors import RuleError


class Layout(Protocol):
    @property
    def name(self) -> str: ...
    #: whether north, south, east and west mean something on it
    @property
    def compass(self) -> bool: ...

    def cell(self, number: int, count: int) -> tuple[int, int]: ...
    def number_at(self, row: int, col: int, count: int) -> int | None: ...
    def size(self, count: int) -> tuple[int, int]: ...
    def describe(self, count: int) -> str: ...


@dataclass(frozen=True)
class Snake:
    columns: int = 10
    name: str = "snake"
    compass: bool = True

    def width(self, count: int) -> int:
        return self.columns

    def cell(self, number: int, count: int) -> tuple[int, int]:
        columns = self.width(count)
        row, offset = divmod(number - 1, columns)
        return row, (offset if row % 2 == 0 else columns - 1 - offset)

    def number_at(self, row: int, col: int, count: int) -> int | None:
        columns = self.width(count)
        if row < 0 or not 0 <= col < columns:
            return None
        n = row * columns + (col if row % 2 == 0 else columns - 1 - col) + 1
        return n if n <= count else None

    def size(self, count: int) -> tuple[int, int]:
        columns = self.width(count)
        return max(1, math.ceil(count / columns)), columns

    def describe(self, count: int) -> str:
        return (f"{count} squares, {self.width(count)} to a row, snaking up from square 1 in the "
                "bottom-left corner")


@dataclass(frozen=True)
class SqrtSnake(Snake):
    name: str = "sqrt-snake"

    def width(self, count: int) -> int:
        return max(1, math.isqrt(max(count, 1)))


@dataclass(frozen=True)
class Loop:
    name: str = "loop"
    compass: bool = False

    @staticmethod
    def side(count: int) -> int:
        if count < 4 or count % 4:
            raise RuleError(f"a loop board needs a number of spaces divisible by 4 (4 or more), not {count}")
        return count // 4

    def cell(self, number: int, count: int) -> tuple[int, int]:
        side, i = self.side(count), number - 1
        if i <= side:
            return 0, side - i                      # the bottom, westwards from the start
        if i <= 2 * side:
            return i - side, 0                      # the left side, northwards
        if i <= 3 * side:
            return side, i - 2 * side               # the top, eastwards
        return side - (i - 3 * side), side          # the right side, southwards

    def number_at(self, row: int, col: int, count: int) -> int | None:
        side = self.side(count)
        if not (0 <= row <= side and 0 <= col <= side):
            return None
        for number in range(1, count + 1):  # a few dozen spaces at most
            if self.cell(number, count) == (row, col):
                return number
        return None

    def size(self, count: int) -> tuple[int, int]:
        side = self.side(count)
        return side + 1, side + 1

    def describe(self, count: int) -> str:
        return f"{count} spaces around the edge of the board, from the start in the bottom-right corner"


@dataclass(frozen=True)
class NoBoard:
    name: str = "none"
    compass: bool = False

    def cell(self, number: int, count: int) -> tuple[int, int]:
        raise RuleError("this game has no board, so no square has a place on one")

    def number_at(self, row: int, col: int, count: int) -> int | None:
        return None

    def size(self, count: int) -> tuple[int, int]:
        return 0, 0

    def describe(self, count: int) -> str:
        return "no board"


LAYOUTS = ("snake", "sqrt-snake", "loop", "none")


def layout(name: str, columns: int = 10) -> Layout:
    """The layout called ``name`` (``columns``: the width of a ``snake``)."""
    if name == "snake":
        return Snake(columns)
    if name == "sqrt-snake":
        return SqrtSnake()
    if name == "loop":
        return Loop()
    if name == "none":
        return NoBoard()
    raise RuleError(f"no board layout {name!r}; layouts: {', '.join(LAYOUTS)}")


_STEPS = {"north": (1, 0), "south": (-1, 0), "east": (0, 1), "west": (0, -1)}


def compass_step(lay: Layout, number: int, direction: str, count: int) -> int | None:
    """The square one step ``direction`` of ``number`` (None: off the board, or no compass)."""
    if not lay.compass:
        return None
    dr, dc = _STEPS[direction]
    row, col = lay.cell(number, count)
    return lay.number_at(row + dr, col + dc, count)
