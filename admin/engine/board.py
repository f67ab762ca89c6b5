"""Board geometry (Nomopoly II VI): successors, compass moves and distance on the game's layout
(:mod:`admin.engine.layouts`; Nomopoly II's is the 10-wide snake).

A square keeps its grid cell when destroyed; movement and directions skip destroyed squares.
Square ``n`` sits in row ``(n-1) // columns`` counted from the bottom; even rows run left to
right, odd rows right to left (like Snakes and Ladders).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Iterator, Literal

from admin.engine.layouts import Layout, Snake, layout
from admin.engine.model import GameState, Square

if TYPE_CHECKING:
    from admin.engine.hooks import Hooks

Direction = Literal["north", "south", "east", "west"]


def cell(number: int, columns: int = 10) -> tuple[int, int]:
    """(row, column) of a square on the snake, row 0 at the bottom, column 0 at the left."""
    return Snake(columns).cell(number, number)



def live_numbers(state: GameState) -> list[int]:
    return [s.number for s in state.squares if not s.destroyed]


def lowest(state: GameState) -> int:
    """The lowest numbered square on the board (VI.15: "Square #1" means this)."""
    return live_numbers(state)[0]


def highest(state: GameState) -> int:
    return live_numbers(state)[-1]


def successor(state: GameState, number: int) -> int:
    """The next live square after ``number``; the highest wraps to the lowest (VI.4)."""
    for sq in state.squares[number:]:
        if not sq.destroyed:
            return sq.number
    return lowest(state)


def predecessor(state: GameState, number: int) -> int:
    for sq in reversed(state.squares[: max(number - 1, 0)]):
        if not sq.destroyed:
            return sq.number
    return highest(state)


def layout_of(state: GameState, columns: int = 10) -> Layout:
    """The game's board layout (``columns``: the width of a snake)."""
    return layout(state.layout, columns)


def step(state: GameState, number: int, direction: Direction, columns: int = 10) -> int | None:
    """The next live square in a compass direction, jumping destroyed ones (VI.10); None at the
    edge, or on a board without a compass."""
    lay = layout_of(state, columns)
    if not lay.compass:
        return None
    dr, dc = {"north": (1, 0), "south": (-1, 0), "east": (0, 1), "west": (0, -1)}[direction]
    count = len(state.squares)
    row, col = lay.cell(number, count)
    while True:
        row, col = row + dr, col + dc
        n = lay.number_at(row, col, count)
        if n is None:
            return None
        if not state.squares[n - 1].destroyed:
            return n


def grid_move(state: GameState, number: int, right: int, up: int, columns: int = 10) -> int:
    """Where a creature on ``number`` ends up moving ``right`` squares east along its row, then
    ``up`` squares north along its column, each wrapping round (past the east edge to the west,
    past the top to the bottom) and counting only the live squares of that row or column (a short
    top row, destroyed squares). Needs a compass board; elsewhere it stays put."""
    lay = layout_of(state, columns)
    if not lay.compass:
        return number
    count = len(state.squares)
    rows, cols = lay.size(count)

    def live(row: int, col: int) -> int | None:
        n = lay.number_at(row, col, count)
        return n if n is not None and not state.squares[n - 1].destroyed else None

    row, col = lay.cell(number, count)
    line = [c for c in range(cols) if live(row, c) is not None]
    if col in line:
        col = line[(line.index(col) + right) % len(line)]
    column = [r for r in range(rows) if live(r, col) is not None]
    if row in column:
        row = column[(column.index(row) + up) % len(column)]
    return live(row, col) or number


def nearest_ahead(state: GameState, start: int, where: dict[str, int]) -> list[str]:
    """Of ``where`` (who -> square), those nearest ``start`` counting forward along the board
    (on ``start`` itself is nearest of all); several at one distance: all, by name. Anyone off
    the board (a square not on it) is never near."""
    numbers = live_numbers(state)
    index = {n: i for i, n in enumerate(numbers)}
    here = index.get(start, 0)
    best: list[str] = []
    best_d = None
    for who, square in sorted(where.items()):
        if square not in index:
            continue
        d = (index[square] - here) % len(numbers)
        if best_d is None or d < best_d:
            best, best_d = [who], d
        elif d == best_d:
            best.append(who)
    return best


def neighbours(state: GameState, number: int, columns: int = 10) -> Iterator[int]:
    for d in ("north", "south", "east", "west"):
        n = step(state, number, d, columns)
        if n is not None:
            yield n


def distance(state: GameState, a: int, b: int, columns: int = 10) -> int | None:
    """Moves in the shortest N/S/E/W path between two squares (VI.13); None if unreachable."""
    if a == b:
        return 0
    seen = {a}
    queue = deque([(a, 0)])
    while queue:
        here, d = queue.popleft()
        for n in neighbours(state, here, columns):
            if n == b:
                return d + 1
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    return None


def distances_from(state: GameState, origin: int, columns: int = 10) -> dict[int, int]:
    """``distance(state, n, origin)`` for every live square ``n`` that reaches ``origin``, in one
    breadth-first search instead of one search a square: a step to the next live square north is
    undone by a step south (destroyed squares are jumped both ways), so the distance from a live
    square to ``origin`` is the distance from ``origin`` to it. (A destroyed square is never
    reached: ask :func:`distance` for one.)"""
    found = {origin: 0}
    queue = deque([origin])
    while queue:
        here = queue.popleft()
        for n in neighbours(state, here, columns):
            if n not in found:
                found[n] = found[here] + 1
                queue.append(n)
    return found


def add_square(state: GameState, calls: Hooks | None = None, refill: bool = True) -> int:
    """Add a square: in place of the lowest destroyed one if any and ``refill`` (Nomopoly II
    VI.18), else at the end (VI.3). Each module forgets what it kept about a square brought back,
    and sets up its part of a new one (``on_square_added``)."""
    for sq in state.squares if refill else ():
        if sq.destroyed:
            sq.destroyed = False
            sq.name = None
            if calls is not None:
                calls.on_square_added(state, sq)
            return sq.number
    number = len(state.squares) + 1
    state.squares.append(Square(number=number))
    if calls is not None:  # a new square too: each module sets up its part (The Government's)
        calls.on_square_added(state, state.squares[-1])
    return number


def destroy_square(state: GameState, number: int, calls: Hooks | None = None) -> None:
    """Destroy a square (used by later mechanics and admin rulings); the board keeps one square.
    Each module forgets what it kept about it (an owner, a card ...)."""
    if len(live_numbers(state)) <= 1:
        raise ValueError("the board must always contain at least one square (VI.1)")
    sq = state.squares[number - 1]
    sq.destroyed = True
    sq.name = None
    if calls is not None:
        calls.on_square_added(state, sq)


def renumber_square(state: GameState, old: int, new: int, calls: Hooks | None = None) -> None:
    """Square ``old`` takes the number of destroyed square ``new`` (the Teams variant's XVIII.2:
    the highest square fills a destroyed one's place): its name, the players on it and what each
    module kept about it (``on_square_renumbered``) move to ``new``; ``old`` is then gone, taken
    off the board if it was the last square, else left destroyed."""
    target, source = state.squares[new - 1], state.squares[old - 1]
    if not target.destroyed or source.destroyed:
        raise ValueError(f"square {old} can take only a destroyed square's number ({new} is not destroyed)")
    target.destroyed, target.name = False, source.name
    for player in state.players.values():
        if player.square == old:
            player.square = new
    if calls is not None:
        calls.on_square_renumbered(state, old, new)
    if old == len(state.squares):
        state.squares.pop()
    else:
        source.destroyed, source.name = True, None
