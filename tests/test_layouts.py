"""Board layouts: the snake (Nomopoly II VI.5), the square-root snake (the Teams variant's rule 3),
the classic loop of named spaces (Timopoly), and no board (Technopoly)."""

import pytest

from admin.engine.board import step
from admin.engine.layouts import Loop, NoBoard, Snake, SqrtSnake, compass_step, layout
from admin.engine.errors import RuleError
from fixtures.games import new_state


def test_the_snake_runs_east_then_west_ten_to_a_row():
    snake = Snake(10)
    assert [snake.cell(n, 30) for n in (1, 10, 11, 20, 21)] == [(0, 0), (0, 9), (1, 9), (1, 0), (2, 0)]
    assert snake.number_at(1, 5, 30) == 15 and snake.number_at(3, 0, 30) is None  # above square 30
    assert snake.size(21) == (3, 10)


def test_the_square_root_snake_widens_as_the_board_grows():
    lay = SqrtSnake()
    assert [lay.width(n) for n in (1, 3, 4, 8, 9, 24, 25, 100)] == [1, 1, 2, 2, 3, 4, 5, 10]
    # 10 squares: rows of 3; 4 is north of 3 (the row's last), 6 west of 5; 10 north of 9
    assert [lay.cell(n, 10) for n in (1, 3, 4, 6, 7, 10)] == [(0, 0), (0, 2), (1, 2), (1, 0), (2, 0), (3, 2)]
    assert compass_step(lay, 3, "north", 10) == 4 and compass_step(lay, 5, "west", 10) == 6
    assert compass_step(lay, 10, "east", 10) is None  # the last row is short


def test_the_loop_goes_west_north_east_and_south_from_the_start_in_the_bottom_right_corner():
    loop = Loop()
    corners = [loop.cell(n, 40) for n in (1, 11, 21, 31)]
    assert corners == [(0, 10), (0, 0), (10, 0), (10, 10)]
    assert loop.cell(40, 40) == (1, 10) and loop.size(40) == (11, 11)
    assert all(loop.number_at(*loop.cell(n, 40), 40) == n for n in range(1, 41))
    assert loop.number_at(5, 5, 40) is None  # the middle of the board is no space
    assert compass_step(loop, 5, "north", 40) is None  # no compass on a loop
    with pytest.raises(RuleError, match="divisible by 4"):
        loop.cell(1, 38)


def test_no_board_places_nothing_and_an_unknown_layout_names_the_valid_ones():
    assert NoBoard().size(0) == (0, 0)
    with pytest.raises(RuleError, match="no board"):
        NoBoard().cell(1, 1)
    with pytest.raises(RuleError, match="layouts: snake, sqrt-snake, loop, none"):
        layout("hexagons")


def test_compass_moves_follow_the_games_layout():
    state = new_state()  # 20 squares on the 10-wide snake
    assert step(state, 6, "north") == 15
    state.layout = "sqrt-snake"  # 20 squares: rows of 4
    assert step(state, 4, "north") == 5 and step(state, 1, "north") == 8
    state.layout = "loop"
    assert step(state, 6, "north") is None
