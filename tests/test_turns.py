"""VII, IX.1, VI.11, VI.17: turns, doubles, passing the end of the board, new squares."""

from fixtures.games import new_state, play, texts, total_money

from admin.engine.board import destroy_square
from admin.library.cards import hand


def test_doubles_draw_a_card_and_give_another_turn_until_a_non_double():
    result = play(new_state(["alice"]), seed=b"s2")
    assert texts(result.events, "roll") == ["alice rolled 6 and 6 (doubles).", "alice rolled 6 and 1."]
    alice = result.state.players["alice"]
    assert alice.square == 20  # 1 + 12 + 7
    assert hand(result.state, "alice") == ["JD"]
    assert alice.money == 10000  # no rent, no purchase, no pass
    private = [e.private for e in result.events if e.kind == "card"]
    assert private == ["You received the jack of diamonds (JD)."]


def test_each_player_takes_one_turn_in_a_random_order():
    result = play(new_state(["alice", "bob", "carol"]), seed=b"order")
    order = next(e.data["order"] for e in result.events if e.kind == "order")
    assert sorted(order) == ["alice", "bob", "carol"]
    rollers = [e.player for e in result.events if e.kind == "roll" and e.data["turn"] == 0]
    assert rollers == order


def test_passing_the_end_pays_1000_once_at_the_end_of_the_turn():
    state = new_state(["alice"])
    state.players["alice"].square = 19
    result = play(state, seed=b"s16")
    [move] = [e for e in result.events if e.kind == "move"]
    assert move.data["from"] == 19 and move.data["to"] == 4 and 1 in move.data["path"]
    assert texts(result.events, "pass-bonus") == ["alice received $1000 for passing the end of the board."]
    assert result.state.players["alice"].money == 11000
    assert result.state.admin_bank == state.admin_bank - 1000


def test_a_move_that_wraps_three_times_on_a_tiny_board_still_pays_once():
    state = new_state(["alice"])
    for n in range(4, 21):
        destroy_square(state, n)  # squares 1-3 remain
    result = play(state, seed=b"s1")
    assert texts(result.events, "roll") == ["alice rolled 5 and 6."]
    [move] = [e for e in result.events if e.kind == "move"]
    assert move.data["path"] == [2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]
    assert len(texts(result.events, "pass-bonus")) == 1
    assert result.state.players["alice"].money == 11000


def test_landing_exactly_on_the_first_square_counts_as_passing_the_end():
    state = new_state(["alice"])
    state.players["alice"].square = 15
    result = play(state, seed=b"s6")
    assert texts(result.events, "roll") == ["alice rolled 2 and 4."]
    assert result.state.players["alice"].square == 1
    assert texts(result.events, "pass-bonus") == ["alice received $1000 for passing the end of the board."]


def test_a_move_that_does_not_reach_the_first_square_pays_nothing():
    state = new_state(["alice"])
    state.players["alice"].square = 14
    result = play(state, seed=b"s6")  # the same roll of 6 now ends on square 20
    assert result.state.players["alice"].square == 20
    assert texts(result.events, "pass-bonus") == []
    assert result.state.players["alice"].money == 10000


def test_passing_the_end_may_add_a_square_with_a_2000_over_n_percent_chance():
    state = new_state(["alice"], new_squares=True)
    for n in range(11, 21):
        destroy_square(state, n)  # 10 squares: a 200% chance, so certain
    state.players["alice"].square = 10
    result = play(state, seed=b"s16")
    added = [e.data["square"] for e in result.events if e.kind == "new-square"]
    assert added and added[0] == 11  # in place of the lowest destroyed square (VI.18)
    assert not result.state.squares[10].destroyed


def test_money_is_conserved_by_a_turn():
    state = new_state(["alice", "bob", "carol"])
    result = play(state, seed=b"s7")
    assert total_money(result.state) == total_money(state)
