"""Nomopoly II XXXI, bingo cards: bought with a pair at the House of Cards, 25 secret numbers in
five columns from the squares on the board, marked by a normal turn's landing, traded in for the
prize of the pattern their marks make."""

from test_n2_house_of_cards import _game, gmail, items

from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.movement import jump, move
from admin.engine.schedule import Slot
from admin.games.registry import REGISTRY
from admin.library import cards
from admin.games.nomopoly2.mechanics.bingo import BingoModule, makes
from admin.games.nomopoly2.mechanics.house_of_cards.items import hs
from admin.games.nomopoly2.mechanics.shared import has_condition
from admin.library.ownership import owner_of, set_owner
from fixtures.games import play, texts
from fixtures.n2_sections import riding

#: a card whose columns are B 1-5, I 16-20, N 31-35, G 46-50, O 61-65 (top to bottom)
CARD = [[1, 2, 3, 4, 5], [16, 17, 18, 19, 20], [31, 32, 33, 34, 35], [46, 47, 48, 49, 50], [61, 62, 63, 64, 65]]


def _bingo(marked=(), board=50):
    state = _game(("house-of-cards", "bingo"))
    del state.squares[board:]
    BingoModule().set_player(state, state.players["alice"], "bingo_cards", [{"columns": CARD, "marked": list(marked)}])
    return state


def _ctx(state):
    return UpdateContext(state=state, dice=Dice(seed=b"s", digest="d", update=9), slot=Slot("t", 1),
                         registry=REGISTRY)


def test_a_pair_buys_a_bingo_card_of_25_numbers_from_the_squares_in_each_columns_range():
    state = _bingo(board=48)
    state.players["bob"].square = 42
    cards.set_hand(state, "bob", ["9S", "9D"])
    result = play(state, [gmail(state, "bob", "EXCHANGE 9S 9D FOR BINGO CARD")])
    assert texts(result.events, "action") == ["bob traded 2 cards at the House of Cards for bingo card 2."]
    card = BingoModule.private_of(result.state).cards["bob"][0]
    assert BingoModule.of(result.state).held == {"alice": 1, "bob": 1}
    for c, (low, high) in enumerate(((1, 15), (16, 30), (31, 45))):
        assert len(set(card.columns[c])) == 5 and all(low <= n <= high for n in card.columns[c])
    assert set(card.columns[3]) <= {46, 47, 48}  # only three squares there: repeats allowed
    assert len(set(card.columns[4])) == 5 and all(61 <= n <= 75 for n in card.columns[4])  # none: the range
    said = [e.private for e in result.events if e.private and e.private.startswith("Your bingo card 2:")]
    assert said and "B " + " ".join(map(str, card.columns[0])) in said[0]


def test_a_column_with_five_squares_on_the_board_has_them_all_once():
    state = _bingo(board=50)
    ctx = _ctx(state)
    from admin.games.nomopoly2.mechanics.bingo import new_card

    number = new_card(ctx, state.players["bob"])
    card = BingoModule.private_of(state).cards["bob"][0]
    assert number == 2 and sorted(card.columns[3]) == [46, 47, 48, 49, 50]


def test_a_normal_turns_landing_marks_every_card_but_a_jump_outside_a_turn_does_not():
    state = _bingo()
    ctx = _ctx(state)
    alice = state.players["alice"]
    alice.square = 14
    BingoModule().on_turn_start(ctx, alice, 0)
    move(ctx, alice, 3)  # lands on 17
    BingoModule().on_turn_end(ctx, alice, 0, 0)
    jump(ctx, alice, 33, rule="test", reason="test")  # not a normal turn
    card = BingoModule.private_of(state).cards["alice"][0]
    assert card.marked == [17]
    assert "You marked 17 on bingo card 1." in [e.private for e in ctx.events]


def test_patterns_need_every_cell_and_the_centre_is_not_free():
    card = BingoModule.private_of(_bingo(marked=[16, 17, 18, 19, 20])).cards["alice"][0]
    assert makes(card, "line") and not makes(card, "centre") and not makes(card, "diagonal")
    card.marked = [1, 17, 33, 49, 65]
    assert makes(card, "diagonal") and makes(card, "centre") and not makes(card, "line")
    card.marked = [1, 5, 61, 65]
    assert makes(card, "corners") and not makes(card, "perimeter")


def test_a_line_pays_1500_and_the_card_is_handed_in():
    state = _bingo(marked=[3, 18, 33, 48, 63])  # the middle row
    result = play(state, [gmail(state, "alice", "BINGO 1 LINE")])
    assert result.state.players["alice"].money == 11500
    assert BingoModule.private_of(result.state).cards["alice"] == []
    assert BingoModule.of(result.state).held == {}
    assert texts(result.events, "action") == ["alice called BINGO with the line of bingo card 1 and won $1500."]


def test_a_card_whose_marks_miss_the_pattern_is_refused_and_kept():
    state = _bingo(marked=[3, 18, 33, 48])
    result = play(state, [gmail(state, "alice", "BINGO 1 LINE\nBINGO 7 CENTRE")])
    assert result.state.players["alice"].money == 10000
    assert texts(result.events, "action") == [
        'alice: "BINGO 1 LINE" was not done: bingo card 1\'s marks do not make the line (XXXI.3); they '
        "make: centre",
        'alice: "BINGO 7 CENTRE" was not done: you hold no bingo card 7; your bingo cards: 1']


def test_four_corners_make_rent_immunity_for_this_update_and_the_next_three():
    state = _bingo(marked=[1, 5, 61, 65])
    result = play(state, [gmail(state, "alice", "BINGO 1 CORNERS")])
    assert has_condition(result.state, "alice", "rent-immunity")
    assert texts(result.events, "action") == [
        "alice called BINGO with the corners of bingo card 1 and won rent immunity for this update and "
        "the next 3 (to update 5)."]
    later = play(play(result.state).state).state  # updates 3 and 4
    set_owner(later, 25, "bob")
    set_owner(later, 26, "bob")
    hs(later).items.give("alice", "warp bubble", 2)
    five = play(later, [gmail(later, "alice", "USE WARP BUBBLE TO 25")])  # update 5: still immune
    assert five.state.players["alice"].money == 10000
    assert "alice is immune from rent and pays none for square 25." in texts(five.events)
    six = play(five.state, [gmail(five.state, "alice", "USE WARP BUBBLE TO 26")])  # update 6: over
    assert six.state.players["alice"].money == 10000 - 78
    assert not has_condition(six.state, "alice", "rent-immunity")


def test_a_diagonal_gives_one_square_to_steal_owned_or_not_but_never_the_house_of_cards():
    state = _bingo(marked=[5, 19, 33, 47, 61])  # the other diagonal
    set_owner(state, 14, "bob")
    result = play(state, [gmail(state, "alice", "STEAL SQUARE 14\nBINGO 1 DIAGONAL\nSTEAL SQUARE 42\n"
                                                "STEAL SQUARE 14\nSTEAL SQUARE 15")])
    assert owner_of(result.state, 14) == "alice" and owner_of(result.state, 15) is None
    assert texts(result.events, "action") == [
        'alice: "STEAL SQUARE 14" was not done: you have no square to steal; a bingo card\'s diagonal wins '
        "one (BINGO <card> DIAGONAL, XXXI.3)",
        "alice called BINGO with the diagonal of bingo card 1 and won the right to steal one square "
        "(STEAL SQUARE <n>).",
        'alice: "STEAL SQUARE 42" was not done: square 42 may not be owned by anyone, so it may not be stolen',
        "alice stole square 14 from bob with a bingo card's diagonal prize (XXXI.3).",
        'alice: "STEAL SQUARE 15" was not done: you have no square to steal; a bingo card\'s diagonal wins '
        "one (BINGO <card> DIAGONAL, XXXI.3)"]


def test_the_centre_gives_a_warp_bubble_the_perimeter_diplomatic_immunity_the_whole_card_a_mask():
    every = [n for column in CARD for n in column]
    state = _bingo(marked=every)
    BingoModule().set_player(state, state.players["bob"], "bingo_cards",
                             [{"columns": CARD, "marked": every}, {"columns": CARD, "marked": every}])
    BingoModule().set_player(state, state.players["carol"], "bingo_cards", [{"columns": CARD, "marked": [33]}])
    result = play(state, [gmail(state, "alice", "BINGO 1 FULL"), gmail(state, "bob", "BINGO 3 PERIMETER"),
                          gmail(state, "carol", "BINGO 4 CENTER")])
    assert items(result.state, "alice") == {"mask": 1} and items(result.state, "carol") == {"warp bubble": 1}
    assert has_condition(result.state, "bob", "diplomatic-immunity")
    assert BingoModule.of(result.state).held == {"bob": 1}


def test_springy_shoes_mark_no_bingo_numbers():
    state = riding(_bingo(), "springy-shoes", "alice")
    ctx = _ctx(state)
    alice = state.players["alice"]
    alice.square = 14
    BingoModule().on_turn_start(ctx, alice, 0)
    move(ctx, alice, 3)  # to 17, on the card: a landing, but not on foot
    assert BingoModule.private_of(state).cards["alice"][0].marked == []


def test_bingo_reads_card_numbers_and_pattern_names_as_players_write_them():
    from admin.games.nomopoly2.mechanics.bingo import Bingo, parse_bingo

    assert parse_bingo("card 2 full card", None) == Bingo(2, "full")
    assert parse_bingo("#3 Center.", None) == Bingo(3, "centre")
    assert parse_bingo("1 all four corners", None) == Bingo(1, "corners")
