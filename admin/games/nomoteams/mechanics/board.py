"""VI and II.7: the board that snakes with a width of floor(sqrt(squares)), its corners and the
Teams' bases, New Clear Fishing, the squares' colours (all White until painted, XIII.2), and a
new player's first square.

The layout itself is the core's ``sqrt-snake`` (admin/engine/layouts.py, the game's ``layout``);
successors and predecessors are the core's (VI.8). This module adds what the rules name on it."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine import hooks
from admin.engine.board import add_square, layout_of
from admin.engine.declare import command, handled
from admin.engine.layouts import compass_step, layout
from admin.engine.module import Mechanic
from admin.engine.params import MAX_INT, check_whole_numbers
from admin.engine.shows import Fact, SquareLook
from admin.engine.errors import CommandError
from admin.games.nomoteams.mechanics.shared import (GOVERNMENT, TEAMS, WHITE, any_white, colour_of,  # noqa: F401
                                              mentioned_squares, owner_of, set_colour, set_owner)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.module import CommandSpec
    from admin.engine.layouts import Layout

#: XIII.1's colours as the board picture draws them
COLOUR_HEX = {"Red": "#d32f2f", "Orange": "#f08a24", "Yellow": "#e6c619", "Green": "#2e9e4f",
              "Blue": "#1f4fa8", "Indigo": "#4b3f9e", "Maroon": "#800000", "Khaki": "#b5a642",
              "Navy": "#001f5b", "Teal": "#008080", "Lime": "#9acd32", "Fuschia": "#c154c1"}


def _parse_fishing(rest: str, line: object) -> NewClearFishing:
    if rest.strip().upper() != "FISHING":
        raise CommandError(f"say NEW CLEAR FISHING, with nothing after it; found NEW CLEAR {rest.strip()!r}.")
    return NewClearFishing()


@command("NEW CLEAR FISHING", keyword="NEW CLEAR", parse=_parse_fishing, listing=120,
         summary="pay $300 to add a new square at the end of the board", example="NEW CLEAR FISHING",
         rules=("VI.7",))
class NewClearFishing:
    """``NEW CLEAR FISHING`` (VI.7)."""


@dataclass
class TeamsBoardState:
    #: squares painted a colour other than White (XIII.2: all are White until coloured)
    colours: dict[int, str] = field(default_factory=dict)


class TeamsBoardModule(Mechanic[TeamsBoardState, None]):
    name = "teams-board"
    rules = ("VI.1", "VI.2", "VI.3", "VI.4", "VI.5", "VI.6", "VI.7", "VI.8", "II.7")
    defaults = {"initial_squares": 20, "fishing_cost": 300, "mentioned": []}
    #: the squares the rules name (kept through XVIII.2's renumbering): square numbers
    validators = {"mentioned": check_whole_numbers(1, MAX_INT)}
    minimums = {"initial_squares": 1, "fishing_cost": 0}
    maximums = {"initial_squares": 1000}  # squares made when the game starts (issue 30)
    summary = "The square-root snake, its corners and Team bases, New Clear Fishing, new players' squares."
    State = TeamsBoardState

    def setup(self, state: GameState) -> None:
        super().setup(state)
        if not state.squares:  # a new game: the board's first squares (a standing ruling: 20)
            count = int({**self.defaults, **state.params(self.name)}["initial_squares"])
            for _ in range(count):
                new_square(state)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((NewClearFishing, fish))

    def on_player_added(self, state: GameState, player: Player) -> None:
        first_square(state, player.name)

    def on_square_added(self, state: GameState, square: Square) -> None:
        self.of(state).colours.pop(square.number, None)

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        colours = self.of(state).colours  # XVIII.2: the colour goes with the square
        if old in colours:
            colours[new] = colours.pop(old)

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "colour":
            return False
        set_colour(state, square.number, str(value))
        return True

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        bases = [t for t in TEAMS if square.number in base(state, t)]
        lay, count = layout_of(state), len(state.squares)
        return [Fact("colour", colour_of(state, square.number), column="Colour", order=15, kind="text"),
                Fact("cell", list(lay.cell(square.number, count)), order=18),  # (row, column) of VI.3's layout
                Fact("base", ", ".join(bases) or None, column="Base of", order=16, kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        colour = colour_of(state, square.number)
        if colour == WHITE:
            return None
        return SquareLook(notes=((15, f"painted {colour}"),), band=COLOUR_HEX.get(colour))


# -- colours: kept in this section's state, read and set by shared.colour_of and set_colour ------
def white_squares(state: GameState) -> list[int]:
    return [s.number for s in state.live_squares() if colour_of(state, s.number) == WHITE]


# -- new squares -------------------------------------------------------------------------------
def new_square(state: GameState) -> int:
    """A square added at the end of the board (VI.7's New Clear Fishing, II.7, the initial board):
    every module sets up its part of it (The Government's ownership of Public Property ...)."""
    from admin.games.registry import REGISTRY  # the library imports this package

    ready = hooks.call(state, REGISTRY, only=lambda m: m.name in state.mods or m.State is None)
    return add_square(state, ready, refill=False)


def fish(ctx: UpdateContext, player: Player, cmd: NewClearFishing) -> str:
    cost = int(ctx.params(TeamsBoardModule.name)["fishing_cost"])
    ctx.transfer(player.name, GOVERNMENT, cost, rule="teams:VI.7", reason="New Clear Fishing", voluntary=True)
    number = new_square(ctx.state)
    ctx.emit("new-square", f"{player.name} went New Clear Fishing: square {number} was added.",
             player=player.name, rule="teams:VI.7", data={"square": number})
    return f"{player.name} paid {ctx.state.money(cost)} for New Clear Fishing and created square {number}."


def first_square(state: GameState, name: str) -> int:
    """II.7: a new player owns the lowest numbered unowned square the rules do not mention; if
    there is none, New Clear Fishing makes one (nobody pays)."""
    mentioned = mentioned_squares(state)
    free = [s.number for s in state.live_squares()
            if owner_of(state, s.number) is None and s.number not in mentioned]
    number = free[0] if free else None
    while number is None:
        made = new_square(state)
        if made not in mentioned_squares(state) and owner_of(state, made) is None:
            number = made
    set_owner(state, number, name)
    return number


# -- geometry: corners and bases (VI.5, VI.6) ---------------------------------------------------
def corners(state: GameState) -> dict[str, int | None]:
    """VI.5's four corners of the board as it stands (the layout's cells, destroyed squares kept)."""
    return dict(_corners(state.layout, len(state.squares)))


@functools.lru_cache(maxsize=64)
def _corners(layout_name: str, count: int) -> tuple[tuple[str, int | None], ...]:
    lay = layout(layout_name, 10)
    width = lay.size(count)[1]
    last = (count - 1) // width
    top = last if count % width == 0 or last == 0 else last - 1
    return (("Southwest", 1), ("Southeast", lay.number_at(0, width - 1, count) or count),
            ("Northwest", lay.number_at(top, 0, count)), ("Northeast", lay.number_at(top, width - 1, count)))


def _run(lay: Layout, count: int, start: int | None, direction: str, stop: int | None) -> list[int]:
    out: list[int] = []
    here = start
    while here is not None:
        out.append(here)
        if here == stop:
            return out
        here = compass_step(lay, here, direction, count)
    return []


def base(state: GameState, team: str) -> list[int]:
    """VI.6: a Team's base, on a board of nine squares or more: the squares between two corners."""
    return list(_base(state.layout, len(state.squares), team))


@functools.lru_cache(maxsize=256)
def _base(layout_name: str, count: int, team: str) -> tuple[int, ...]:
    """:func:`base` from what it depends on: the layout and the number of squares (the site asks
    for every square)."""
    if count < 9:
        return ()
    c = dict(_corners(layout_name, count))
    ends = {"West": ("Southwest", "north", "Northwest"), "East": ("Southeast", "north", "Northeast"),
            "South": ("Southwest", "east", "Southeast"), "North": ("Northwest", "east", "Northeast")}
    start, direction, stop = ends[team]
    return tuple(sorted(_run(layout(layout_name, 10), count, c[start], direction, c[stop])))
