"""Nomopoly II XXVIII, credit cards: a voluntary purchase ON CREDIT pays the seller and grows the
balance up to the limit ($1000; XXVIII.2 and XXVIII.3 are the same rule); PAY CREDIT pays it back
and adds 10% of the payment to the limit; a week's start adds 10% interest and sets the minimum
payment ($50 or 5%); a week's end without it climbs the ladder of infractions."""

import pytest
from fixtures.games import new_state, play, texts, total_money
from test_n2_bank import game_mail

from admin.engine.context import BANK, UpdateContext
from admin.engine.dice import Dice
from admin.engine.events import Ruling
from admin.engine.schedule import Slot
from admin.engine.errors import IllegalAction
from admin.games.registry import REGISTRY
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.credit import CreditModule, put_on_credit, raise_limits
from admin.library.ownership import owner_of, set_owner

PLAYERS = ("alice", "bob", "carol")
THURSDAY, SUNDAY = Slot("Thursday", 0, takes_proposals=True), Slot("Sunday", 1, closes_voting=True, week_end=True)


def card_game(**acct):
    """Credit cards on; alice holds a card set up as given."""
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "credit-cards"}, "test")]).state
    state.paused = True
    module = REGISTRY.get("credit-cards")
    module.set_player(state, state.players["alice"], "credit_card", True)
    for key, value in acct.items():
        module.set_player(state, state.players["alice"], f"credit_{key}", value)
    return state


def ctx_for(state, slot=THURSDAY):
    """The context of an update in ``slot`` (the game running: a pause stops the week's effects)."""
    state.paused = False
    return UpdateContext(state=state, dice=Dice(seed=b"x", digest="t", update=state.update + 1), slot=slot,
                         registry=REGISTRY)


def account(state, name="alice"):
    return CreditModule.private_of(state).accounts[name]


def test_a_purchase_on_credit_pays_the_seller_from_the_admin_bank_and_grows_the_balance():
    state = card_game(balance=200)
    ctx = ctx_for(state)
    before = total_money(state)
    shared.charge(ctx, "alice", "bob", 300, rule="XXII.1", reason="a house", on_credit=True)
    assert state.players["alice"].money == 10000
    assert state.players["bob"].money == 10300
    assert account(state).balance == 500
    assert total_money(state) == before
    assert [e.private for e in ctx.events if e.kind == "credit"] == [
        "$300 for a house went on your credit card; its balance is $500 of $1000."]


def test_a_purchase_from_the_admin_bank_on_credit_moves_no_money():
    state = card_game()
    ctx = ctx_for(state)
    put_on_credit(ctx, "alice", BANK, 350, rule="XIII.1", reason="square 14")
    assert state.players["alice"].money == 10000 and account(state).balance == 350
    assert [e for e in ctx.events if e.kind == "money"] == []


def test_a_purchase_that_would_take_the_balance_over_the_limit_is_refused():
    state = card_game(balance=900)
    with pytest.raises(IllegalAction) as refused:
        shared.charge(ctx_for(state), "alice", "bob", 101, rule="XXII.1", reason="a store", on_credit=True)
    assert str(refused.value) == ("a store costs $101; your card's balance is $900 and its limit $1000, so at "
                                  "most $100 more may go on it (XXVIII.2)")
    assert account(state).balance == 900 and state.players["bob"].money == 10000
    shared.charge(ctx_for(state), "alice", "bob", 100, rule="XXII.1", reason="a store", on_credit=True)
    assert account(state).balance == 1000


def test_without_a_card_on_credit_is_refused():
    state = card_game()
    with pytest.raises(IllegalAction) as refused:
        shared.charge(ctx_for(state), "bob", BANK, 50, rule="XXIX.1", reason="clogs", on_credit=True)
    assert "you have no credit card to put clogs on" in str(refused.value)


def test_paying_takes_money_off_the_balance_and_adds_10_percent_of_it_to_the_limit():
    state = card_game(balance=600)
    result = play(state, [game_mail(state, "alice", "PAY CREDIT 250\nPAY CREDIT 400")])
    after = result.state
    assert after.players["alice"].money == 9750
    assert (account(after).balance, account(after).limit, account(after).paid) == (350, 1025, 250)
    assert [e.private or e.text for e in result.events if e.kind == "action"] == [
        "alice paid $250 towards their credit card; its balance is $350 and its limit $1025 (up $25).",
        'alice: "PAY CREDIT 400" was not done: your credit card\'s balance is $350; pay at most that '
        "(PAY CREDIT 350), not $400"]


def test_a_weeks_start_adds_10_percent_interest_and_sets_the_minimum_payment():
    state = card_game(balance=1000)
    CreditModule().on_update_start(ctx_for(state, THURSDAY))
    assert (account(state).balance, account(state).due) == (1100, 55)  # 5% of 1100 = 55 > 50
    small = card_game(balance=300)
    CreditModule().on_update_start(ctx_for(small, THURSDAY))
    assert (account(small).balance, account(small).due) == (330, 50)  # 5% of 330 = 16.5 < 50
    tiny = card_game(balance=20)
    CreditModule().on_update_start(ctx_for(tiny, THURSDAY))
    assert (account(tiny).balance, account(tiny).due) == (22, 22)  # never more than the balance


def test_no_interest_on_a_zero_balance_and_none_on_a_sunday():
    state = card_game(balance=0)
    CreditModule().on_update_start(ctx_for(state, THURSDAY))
    assert (account(state).balance, account(state).due) == (0, 0)
    sunday = card_game(balance=500)
    CreditModule().on_update_start(ctx_for(sunday, SUNDAY))
    assert account(sunday).balance == 500


def test_a_paid_minimum_is_no_infraction():
    state = card_game(balance=330, due=50, paid=50)
    CreditModule().on_update_end(ctx_for(state, SUNDAY))
    assert account(state).infractions == 0 and account(state).due == 0


def test_the_first_infraction_is_a_stern_warning():
    state = card_game(balance=330, due=50, paid=20)
    ctx = ctx_for(state, SUNDAY)
    CreditModule().on_update_end(ctx)
    assert account(state).infractions == 1
    assert texts(ctx.events, "credit") == [
        "alice missed their credit card's minimum payment this week (infraction 1, XXVIII.5): a "
        "stern warning from the Admin."]


def test_the_second_takes_the_lowest_square_and_75_percent_of_its_net_worth_off_the_balance():
    state = card_game(balance=800, due=50, infractions=1)
    for n in (6, 14, 19):
        set_owner(state, n, "alice")
    ctx = ctx_for(state, SUNDAY)
    CreditModule().on_update_end(ctx)
    assert owner_of(state, 6) is None and owner_of(state, 14) == "alice"
    assert account(state).balance == 800 - 113  # 6 x $25 = $150 (VI.16); 75% = 112.5, rounded up


def test_the_third_takes_the_highest_square():
    state = card_game(balance=800, due=50, infractions=2)
    for n in (6, 14, 19):
        set_owner(state, n, "alice")
    CreditModule().on_update_end(ctx_for(state, SUNDAY))
    assert [owner_of(state, n) for n in (6, 14, 19)] == ["alice", "alice", None]
    assert account(state).balance == 800 - 356  # 19 x $25 = $475; 75% = 356.25


def test_the_fourth_takes_every_square_and_a_balance_never_goes_below_zero():
    state = card_game(balance=700, due=50, infractions=3)
    for n in (6, 14, 19):
        set_owner(state, n, "alice")
    ctx = ctx_for(state, SUNDAY)
    CreditModule().on_update_end(ctx)
    assert [owner_of(state, n) for n in (6, 14, 19)] == [None, None, None]
    assert account(state).balance == 0  # 39 x $25 = $975, 75% = $731, more than the $700 owed: none back
    assert texts(ctx.events, "credit") == [
        "alice missed their credit card's minimum payment this week (infraction 4, XXVIII.5): the "
        "Bank took squares 6, 14, 19 and $700 came off the balance."]


def test_the_fourth_with_less_than_the_balance_in_squares():
    state = card_game(balance=1000, due=55, infractions=3)
    set_owner(state, 4, "alice")
    CreditModule().on_update_end(ctx_for(state, SUNDAY))
    assert account(state).balance == 1000 - 75  # 4 x $25 = $100; 75% = $75


def test_the_fifth_takes_the_balance_from_money():
    state = card_game(balance=640, due=50, infractions=4)
    ctx = ctx_for(state, SUNDAY)
    CreditModule().on_update_end(ctx)
    assert state.players["alice"].money == 10000 - 640
    assert account(state).balance == 0 and CreditModule.of(state).holders == ["alice"]


def test_the_sixth_also_takes_the_card_for_good():
    state = card_game(balance=640, due=50, infractions=5)
    CreditModule().on_update_end(ctx_for(state, SUNDAY))
    assert state.players["alice"].money == 9360
    assert CreditModule.of(state).holders == [] and CreditModule.of(state).banned == ["alice"]
    assert "alice" not in CreditModule.private_of(state).accounts
    after = play(state, rulings=[Ruling("enable", {"module": "bank"}, "t")]).state
    after.players["alice"].square = 30
    result = play(after, [game_mail(after, "alice", "TAKE CREDIT CARD")])
    assert texts(result.events, "action") == [
        'alice: "TAKE CREDIT CARD" was not done: the Bank took your credit card away after your sixth missed '
        "minimum payment, and you may never hold one again (XXVIII.5)"]


def test_a_week_of_updates_interest_on_thursday_and_the_missed_minimum_on_sunday():
    state = card_game(balance=400)  # update 1 was week 1's Thursday
    state.paused = False
    sunday = play(state, seed=b"a")  # update 2: week 1 ends; nothing was due
    assert account(sunday.state).infractions == 0
    thursday = play(sunday.state, seed=b"b")  # update 3: week 2 starts
    assert (account(thursday.state).balance, account(thursday.state).due) == (440, 50)
    paid = play(thursday.state, [game_mail(thursday.state, "alice", "PAY CREDIT 30")], seed=b"c")
    assert account(paid.state).infractions == 1  # $30 of $50
    assert account(paid.state).balance == 410


def test_the_skunk_on_the_bank_raises_every_limit():
    state = card_game(limit=1025)
    ctx = ctx_for(state)
    raise_limits(ctx, 20, "XIX.3")
    assert account(state).limit == 1230
    assert texts(ctx.events, "credit") == ["Every credit card's limit rose by 20%."]


def test_net_worth_counts_a_tenth_of_the_limit_less_the_balance():
    state = card_game(balance=300, limit=1200)
    assert REGISTRY.net_worth(state, state.players["alice"]) == 10000 + 120 - 300
    assert REGISTRY.net_worth(state, state.players["bob"]) == 10000


def test_a_shovel_bought_on_credit_says_so_and_costs_no_money():
    state = play(card_game(), rulings=[Ruling("enable", {"module": "house-of-cards"}, "test")]).state
    state.players["alice"].square = 42
    result = play(state, [game_mail(state, "alice", "BUY SHOVEL ON CREDIT")])
    assert texts(result.events, "action") == ["alice bought a shovel at the House of Cards for $50 on credit."]
    assert result.state.players["alice"].money == 10000 and account(result.state).balance == 50
