"""XIV: cards on doubles, placing, card rent, the 12-card limit and burying."""

from fixtures.games import mail, new_state, play, texts

from admin.engine.playingcards import card_value, parse_card
from admin.library.cards import buried_cards, hand, place_card, placed_on, set_hand
from admin.library.ownership import set_owner
from admin.site.export import public_status


def test_cards_parse_in_the_usual_short_forms():
    assert parse_card("as") == "AS" and parse_card("10h") == "10H" and parse_card("1c") == "AC"
    assert parse_card("11S") is None and parse_card("KX") is None


def test_card_values_for_rent_ace_11_faces_10():
    assert [card_value(c) for c in ("AS", "KD", "QH", "JC", "7S", "10D")] == [11, 10, 10, 10, 7, 10]


def test_a_thirteenth_card_is_buried_and_never_public():
    state = new_state(["alice"])
    set_hand(state, "alice", ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "2H", "3H", "4H"])
    result = play(state, seed=b"s2")  # alice rolls doubles and draws the jack of diamonds
    alice = hand(result.state, "alice")
    assert len(alice) == 12 and "JD" not in alice
    [buried] = buried_cards(result.state)
    assert (buried.card, buried.square, buried.player) == ("JD", 13, "alice")
    [card_event] = [e for e in result.events if e.kind == "card"]
    assert "JD" not in card_event.text and "buried" not in card_event.text
    assert "buried under square 13" in card_event.private
    status = public_status(result.state)
    assert "JD" not in repr(status)
    assert [p["cards_held"] for p in status["players"]] == [12]


def test_placing_a_card_moves_it_from_the_hand_to_the_square():
    state = new_state()
    set_hand(state, "alice", ["KS"])
    result = play(state, [mail("alice", "PLACE KS ON 4\nPLACE KS ON 5")], seed=b"s16")
    assert placed_on(result.state, 4) == "KS"
    assert hand(result.state, "alice") == []
    verdicts = texts(result.events, "action")
    assert verdicts[0] == "alice placed the king of spades (KS) on square 4."
    assert "you do not hold the king of spades (KS); you hold no cards" in verdicts[1]


def test_a_square_holds_one_card_at_most():
    state = new_state()
    set_hand(state, "alice", ["KS"])
    place_card(state, 4, "2D")
    result = play(state, [mail("alice", "PLACE KS ON 4")], seed=b"s16")
    assert "already holds the 2 of diamonds; a square holds one card at most (XIV.3)" in \
        texts(result.events, "action")[0]
    assert hand(result.state, "alice") == ["KS"]


def test_card_rent_is_the_square_number_times_the_card_value_instead_of_3n():
    state = new_state()
    set_owner(state, 6, "bob")
    place_card(state, 6, "QH")  # square 6 with a queen: 6 x 10
    result = play(state, seed=b"s16")
    assert texts(result.events, "rent") == ["alice paid $60 rent to bob for square 6."]


def test_the_admin_can_rule_that_card_rent_adds_to_3n():
    state = new_state()
    for m in state.modules:
        if m.name == "cards":
            m.params["card_rent"] = "add"
    set_owner(state, 6, "bob")
    place_card(state, 6, "QH")
    result = play(state, seed=b"s16")
    assert texts(result.events, "rent") == ["alice paid $78 rent to bob for square 6."]


def test_burying_a_card_is_private():
    state = new_state()
    set_hand(state, "alice", ["AS"])
    result = play(state, [mail("alice", "BURY AS")], seed=b"s16")
    [ev] = [e for e in result.events if e.kind == "action"]
    assert ev.text is None and ev.private == "You buried the ace of spades (AS) under square 1."
    assert [(b.card, b.square) for b in buried_cards(result.state)] == [("AS", 1)]
    assert hand(result.state, "alice") == []
