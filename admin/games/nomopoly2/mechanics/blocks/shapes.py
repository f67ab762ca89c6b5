"""The shapes of Nomopoly II's blocks (XXI.3-XXI.6): how many squares each kind has, whether
squares have a kind's shape on the board, and every group of owned squares that could make one.
A leaf: the blocks module (:mod:`blocks`) and the making of blocks (:mod:`blocks_making`) read it."""

from __future__ import annotations

from admin.engine.board import layout_of, successor
from admin.games.nomopoly2.mechanics.shared import block_of
from admin.library.ownership import owner_of
from admin.engine.model import GameState

#: how many squares each kind of block has (XXI.3-XXI.6)
SIZES = {"residential": 2, "industrial": 3, "commercial": 4, "government": 1}
SHAPES = {"residential": "two squares in numerical order (XXI.3)",
          "industrial": "three squares in a row or a column of the board (XXI.4)",
          "commercial": "four squares in a 2x2 square on the board (XXI.5)",
          "government": "a single square (XXI.6)"}
RULE = {"residential": "XXI.3", "industrial": "XXI.4", "commercial": "XXI.5", "government": "XXI.6"}


def _cells(state: GameState, squares: list[int]) -> list[tuple[int, int]] | None:
    lay = layout_of(state, int(state.params("board").get("columns", 10)))
    if not lay.compass:
        return None
    return [lay.cell(n, len(state.squares)) for n in squares]


def shape_ok(state: GameState, kind: str, squares: list[int]) -> bool:
    """Whether ``squares`` (sorted, distinct) have the shape of a ``kind`` block (XXI.3-XXI.6)."""
    if len(squares) != SIZES[kind]:
        return False
    if kind == "government":
        return True
    if kind == "residential":
        a, b = squares
        return b > a and successor(state, a) == b
    cells = _cells(state, squares)
    if cells is None:
        return False
    rows, cols = sorted({r for r, _ in cells}), sorted({c for _, c in cells})
    if kind == "industrial":
        if len(rows) == 1:
            return cols == list(range(cols[0], cols[0] + 3))
        if len(cols) == 1:
            return rows == list(range(rows[0], rows[0] + 3))
        return False
    return (len(rows) == 2 and len(cols) == 2 and rows[1] == rows[0] + 1 and cols[1] == cols[0] + 1
            and len(set(cells)) == 4)


def possible_groups(state: GameState, kind: str) -> list[list[int]]:
    """Every group of owned squares outside blocks that could make a ``kind`` block (XIX.3's Mall)."""
    free = [s.number for s in state.squares
            if not s.destroyed and owner_of(state, s.number) is not None and block_of(state, s.number) is None]
    if kind == "government":
        return [[n] for n in free]
    if kind == "residential":
        return [[n, successor(state, n)] for n in free if successor(state, n) in free and successor(state, n) > n]
    lay = layout_of(state, int(state.params("board").get("columns", 10)))
    if not lay.compass:
        return []
    count, groups = len(state.squares), set()
    offsets = ([[(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (2, 0)]] if kind == "industrial"
               else [[(0, 0), (0, 1), (1, 0), (1, 1)]])
    for n in free:
        r, c = lay.cell(n, count)
        for shape in offsets:
            group = [lay.number_at(r + dr, c + dc, count) for dr, dc in shape]
            found = [g for g in group if g is not None and g in free]
            if len(found) == len(group):
                groups.add(tuple(sorted(found)))
    return [list(g) for g in sorted(groups)]
