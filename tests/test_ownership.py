"""XIII and VI.9: buying, priority, rent, names; IV.3: no voluntary bankruptcy."""

from fixtures.games import mail, new_state, play, texts

from admin.library.ownership import BuyRight, OwnershipModule, owner_of, set_owner


def _landed(state, player, square, order=1):
    state.players[player].square = square
    OwnershipModule.of(state).buy_rights.append(BuyRight(square=square, player=player, order=order, update=state.update))


def test_two_players_on_one_square_the_first_to_land_buys_it():
    first = play(new_state(), seed=b"s16")
    assert [(r.player, r.square) for r in OwnershipModule.of(first.state).buy_rights] == [("alice", 6), ("bob", 6)]
    # both ask; bob's email even arrives first
    second = play(first.state, [mail("bob", "BUY 6", received="2026-11-06T09:00:00+00:00"),
                                mail("alice", "BUY", received="2026-11-06T10:00:00+00:00")], seed=b"x")
    assert owner_of(second.state, 6) == "alice"
    assert second.state.players["alice"].money == 10000 - 150
    assert second.state.players["bob"].money == 10000 - rent_paid(second, "bob")
    failed = [e.text for e in second.events if e.kind == "action" and not e.ok]
    assert failed == ['bob: "BUY 6" was not done: square 6 was bought by alice, who landed there first (XIII.3)']


def test_the_second_lander_may_buy_when_the_first_does_not():
    first = play(new_state(), seed=b"s16")
    second = play(first.state, [mail("bob", "BUY 6")], seed=b"x")
    assert owner_of(second.state, 6) == "bob"
    assert OwnershipModule.of(second.state).paid[6] == 150


def test_a_purchase_that_would_bankrupt_the_buyer_fails_and_moves_no_money():
    state = new_state()
    _landed(state, "alice", 14)
    state.players["alice"].money = 300  # the price is 25 x 14 = 350
    result = play(state, [mail("alice", "BUY 14")], seed=b"s16")
    assert owner_of(result.state, 14) is None
    failed = [e.text for e in result.events if e.kind == "action"]
    assert failed == ['alice: "BUY 14" was not done: that costs $350 and alice has $300; no voluntary '
                      'action may make a player bankrupt (IV.3)']
    moved = [e.data for e in result.events if e.kind == "money" and e.data["from"] == "alice"]
    assert moved == []  # alice's turn after the failed BUY cost nothing either
    assert result.state.players["alice"].money == 300


def test_buying_a_square_not_landed_on_is_refused_with_the_squares_that_can_be_bought():
    state = new_state()
    _landed(state, "alice", 5)
    result = play(state, [mail("alice", "BUY 9")], seed=b"s16")
    assert texts(result.events, "action") == [
        'alice: "BUY 9" was not done: you can only buy a square you landed on since your last turn '
        "(XIII.1); yours: 5"]


def test_a_right_to_buy_ends_at_the_players_next_turn():
    first = play(new_state(), seed=b"s16")
    second = play(first.state, seed=b"x")  # no BUY: alice's and bob's turns end the rights from update 1
    assert all(r.update == 2 for r in OwnershipModule.of(second.state).buy_rights)


def test_rent_is_three_times_the_square_number():
    state = new_state()
    set_owner(state, 6, "bob")  # square 6
    result = play(state, seed=b"s16")  # alice lands on 6 first; bob lands on his own square
    assert texts(result.events, "rent") == ["alice paid $18 rent to bob for square 6."]
    assert result.state.players["alice"].money == 10000 - 18
    assert result.state.players["bob"].money == 10000 + 18


def test_naming_is_free_renaming_costs_50_and_names_are_unique():
    state = new_state()
    set_owner(state, 5, "alice")  # 5
    set_owner(state, 7, "alice")  # 7
    result = play(state, [mail("alice", "NAME 5 Park Lane\nNAME 7 park lane\nNAME 5 Mayfair")],
                  seed=b"s16")
    assert result_square(result, 5).name == "Mayfair"
    assert result_square(result, 7).name is None
    verdicts = texts(result.events, "action")
    assert verdicts[0] == 'alice named square 5 "Park Lane".'
    assert 'already named "Park Lane"; names are unique (XIII.4)' in verdicts[1]
    assert verdicts[2] == 'alice renamed square 5 from "Park Lane" to "Mayfair" for $50.'
    assert result.state.players["alice"].money == 10000 - 50 - rent_paid(result, "alice")


def test_only_the_owner_may_name_a_square():
    result = play(new_state(), [mail("bob", "NAME 3 Mine")], seed=b"s16")
    assert texts(result.events, "action") == [
        'bob: "NAME 3 Mine" was not done: only the owner may name square 3 (XIII.4); its owner is nobody']


def test_a_bankrupt_player_may_not_pay_to_rename():
    state = new_state()
    set_owner(state, 5, "alice")
    state.squares[4].name = "Old"
    state.players["alice"].money = -5
    result = play(state, [mail("alice", "NAME 5 New")], seed=b"s16")
    assert result_square(result, 5).name == "Old"
    assert "is bankrupt ($-5) and may not pay $50 (IV.3)" in texts(result.events, "action")[0]


def result_square(result, n):
    return result.state.square(n)


def rent_paid(result, player):
    return sum(e.data["amount"] for e in result.events if e.kind == "rent" and e.player == player)
