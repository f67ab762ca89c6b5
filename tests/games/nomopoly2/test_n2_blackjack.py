"""Nomopoly II XVI, Blackjack: two cards for landing on the square named Blackjack, and cards
totalling exactly 21 (face cards 10, an ace 1 or 11, XVI.2) traded in for 30% more money."""

from fixtures.games import mail, new_state, play, texts

from admin.engine.events import Ruling
from admin.library.cards import hand, set_hand
from admin.games.nomopoly2.mechanics.blackjack import BlackjackModule, totals

PLAYERS = ("alice", "bob", "carol")


def _game(landed=("alice",)):
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "blackjack"}, "test")]).state
    state.paused = True
    for name in landed:
        BlackjackModule.of(state).landed[name] = state.update
    return state


def test_face_cards_count_ten_and_an_ace_one_or_eleven():
    assert totals(["KS", "AH"]) == {11, 21}
    assert totals(["AS", "AH", "9D"]) == {11, 21, 31}
    assert totals(["QH", "5S", "6D"]) == {21}
    assert 21 not in totals(["JC", "QD", "2S"])


def test_cashing_21_pays_30_percent_of_the_money_rounded_down_from_the_admin_bank_account():
    state = _game()
    state.players["alice"].money = 1001
    bank = state.admin_bank
    set_hand(state, "alice", ["9S", "AD", "AC", "4H"])
    result = play(state, [mail("alice", "CASH BLACKJACK 9S AD AC")])  # 9 + 11 + 1
    assert result.state.players["alice"].money == 1001 + 300  # 30% of 1001 = 300.3
    assert result.state.admin_bank == bank - 300
    assert hand(result.state, "alice") == ["4H"]
    assert BlackjackModule.of(result.state).landed == {}  # the option is used up
    assert texts(result.events, "action") == [
        "alice cashed in Blackjack (9 of spades, ace of diamonds, ace of clubs: 21) for a 30% bonus of $300."]


def test_cards_that_do_not_make_exactly_21_or_are_not_held_are_refused_and_nothing_changes():
    state = _game()
    set_hand(state, "alice", ["KS", "QS", "2C"])
    result = play(state, [mail("alice", "CASH BLACKJACK KS QS 2C\nCASH BLACKJACK KS AS")])
    assert texts(result.events, "action") == [
        'alice: "CASH BLACKJACK KS QS 2C" was not done: KS QS 2C total 22, not exactly 21 (XVI.1; face cards '
        "count 10, an ace 1 or 11, XVI.2)",
        'alice: "CASH BLACKJACK KS AS" was not done: you do not hold AS; STATUS lists your cards (only to you)']
    assert hand(result.state, "alice") == ["KS", "QS", "2C"] and result.state.players["alice"].money == 10000


def test_the_option_lasts_to_the_end_of_the_update_after_the_landing():
    state = _game()
    set_hand(state, "alice", ["KS", "AH"])
    later = play(state).state  # update 2: the option closes at its end
    assert BlackjackModule.of(later).landed == {}
    result = play(later, [mail("alice", "CASH BLACKJACK KS AH")])
    assert result.state.players["alice"].money == 10000
    assert texts(result.events, "action")[0].endswith(
        "you may cash in 21 only after landing on the square named Blackjack, until the end of the next "
        "update (XVI.1); you have not landed there since")


def test_the_whole_hand_ruling_makes_every_card_count():
    state = _game()
    next(m for m in state.modules if m.name == "blackjack").params["whole_hand"] = True
    set_hand(state, "alice", ["KS", "AH", "3C"])
    result = play(state, [mail("alice", "CASH BLACKJACK KS AH")])
    assert result.state.players["alice"].money == 10000
    assert "every card you hold must be traded in together" in texts(result.events, "action")[0]


def test_the_square_named_blackjack_is_found_in_any_case_and_a_destroyed_one_is_not():
    from admin.games.nomopoly2.mechanics.shared import blackjack_squares

    state = _game()
    state.square(7).name = " BlackJack"
    assert blackjack_squares(state) == [7]
    state.square(7).destroyed = True
    assert blackjack_squares(state) == []
