"""VI: the board's geometry."""

import pytest
from fixtures.games import new_state

from admin.engine.board import (
    add_square,
    cell,
    destroy_square,
    distance,
    lowest,
    predecessor,
    step,
    successor,
)


def test_squares_snake_up_the_grid_ten_columns_wide():
    assert cell(1) == (0, 0) and cell(10) == (0, 9)
    assert cell(11) == (1, 9) and cell(20) == (1, 0)
    assert cell(21) == (2, 0)


def test_successor_of_the_highest_square_is_the_lowest():
    state = new_state()
    assert successor(state, 5) == 6
    assert successor(state, 20) == 1
    assert predecessor(state, 1) == 20


def test_destroyed_squares_are_skipped_by_moves_and_directions():
    state = new_state()
    destroy_square(state, 6)
    destroy_square(state, 1)
    assert successor(state, 5) == 7
    assert successor(state, 20) == 2  # square 1 is gone: the lowest is 2 (VI.15)
    assert lowest(state) == 2
    # north of 10 is 11; north of 5 is 16; east of 5 jumps the destroyed 6 to 7
    assert step(state, 10, "north") == 11
    assert step(state, 5, "north") == 16
    assert step(state, 5, "east") == 7
    assert step(state, 10, "east") is None


def test_distance_counts_compass_moves():
    state = new_state()
    assert distance(state, 1, 1) == 0
    assert distance(state, 1, 20) == 1  # 20 is directly north of 1
    assert distance(state, 1, 10) == 9
    assert distance(state, 5, 15) == 2  # 5 -> 16 (north) -> 15 (east)


def test_new_squares_go_to_the_end_or_replace_the_lowest_destroyed():
    state = new_state()
    assert add_square(state) == 21
    destroy_square(state, 12)
    destroy_square(state, 4)
    assert add_square(state) == 4
    assert add_square(state) == 12
    assert add_square(state) == 22


def test_the_board_keeps_at_least_one_square():
    state = new_state()
    for n in range(1, 20):
        destroy_square(state, n)
    with pytest.raises(ValueError, match="at least one square"):
        destroy_square(state, 20)
