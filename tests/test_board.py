"""VI: the board's geometry."""

import pytest
from fixtures.games import new_state

from admin.engine.board import (
    add_square,
    cell,
    destroy_square,
    distance,
    distances_from,
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


def test_distances_from_one_square_are_every_square_s_distance_to_it():
    """One search from the target gives what a search from each square would (the Fake IDs of the
    Skunk on a Legislative Building, XIX.3, ask it for every player), destroyed squares jumped."""
    state = new_state()
    for _ in range(13):
        add_square(state)  # 33 squares: a short top row (31-33), whose missing cells end the board
    destroy_square(state, 16)
    destroy_square(state, 25)
    reach = distances_from(state, 15)
    assert reach[15] == 0 and reach[6] == 1 and reach[5] == 2  # 6 is south of 15 (column 5); 5 west of 6
    assert reach[26] == 1  # north of 15 (row 2, column 5)
    assert reach[17] == 1  # west of 15: 16 is destroyed, so the step jumps to 17
    assert 16 not in reach and 25 not in reach  # destroyed: never reached
    for n in range(1, 34):
        if n not in (16, 25):
            assert reach.get(n) == distance(state, n, 15), n


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
