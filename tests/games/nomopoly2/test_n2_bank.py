"""Nomopoly II XXVII, the Bank of Nomopoly on square 30 (and the ATM of XXII.4): a private
account at 2% an update (3% for the Governor), mortgages at half a square's net worth (VI.16) with
no rent while mortgaged, un-mortgaging at what was received plus 10%, one free credit card a
player. Money paid in goes to the Admin Bank Account and comes back from it (XV)."""

from fixtures.games import new_state, play, texts, total_money
from fixtures.n2_sections import governing, with_buildings

from admin.engine.events import Ruling
from admin.engine.update import LineCommand, Submission
from admin.mail.inbound.grammar import grammar_for, parse_text
from admin.games.registry import REGISTRY
from admin.library.health import reset_player
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.bank import BankModule, balance_of
from admin.games.nomopoly2.mechanics.credit import CreditModule
from admin.library.ownership import owner_of, set_owner

PLAYERS = ("alice", "bob", "carol")


def game_mail(state, player: str, text: str) -> Submission:
    """An email read with the game's own grammar (MORTGAGE is Timopoly's too in the library)."""
    verdicts = parse_text(text, grammar_for(state))
    assert not [v.error for v in verdicts if v.error]
    return Submission(key=f"{player}-{abs(hash(text)) % 10**8}", player=player, sender=f"{player}@example.org",
                      received="2026-11-04T10:00:00+00:00",
                      commands=[LineCommand(v.first_line, v.text, v.command) for v in verdicts])


def bank_game(paused: bool = True):
    """The Bank and credit cards switched on; everyone with $10000 on square 1 (paused: only the
    actions under test move money)."""
    rulings = [Ruling("enable", {"module": m}, "test") for m in ("bank", "credit-cards")]
    state = play(new_state(PLAYERS), rulings=rulings).state
    state.paused = paused
    return state


def test_deposit_and_withdraw_on_square_30_keep_a_private_balance_and_the_money_in_the_admin_bank():
    state = bank_game()
    state.players["alice"].square = 30
    before = total_money(state)
    result = play(state, [game_mail(state, "alice", "DEPOSIT 1,000\nWITHDRAW MONEY $300\nWITHDRAW MONEY 701")])
    after = result.state
    assert after.players["alice"].money == 9300
    assert balance_of(after, "alice") == 700
    assert total_money(after) == before
    action = [e for e in result.events if e.kind == "action"]
    assert [e.text for e in action[:2]] == [None, None]  # the balance is told to alice only
    assert [e.private for e in action[:2]] == [
        "alice deposited $1000 at the Bank; the account's balance is $1000.",
        "alice withdrew $300 at the Bank; the account's balance is $700."]
    assert "you may not withdraw more than that (XXVII.1), so not $701" in (action[2].private or action[2].text)


def test_the_bank_serves_only_a_player_standing_on_its_square():
    state = bank_game()
    state.players["bob"].square = 29
    result = play(state, [game_mail(state, "bob", "DEPOSIT 100")])
    assert result.state.players["bob"].money == 10000 and balance_of(result.state, "bob") == 0
    assert any("you are on square 29; only a player on the Bank's square (30) may deposit (XXVII.1)" in t
               for t in [e.private or e.text or "" for e in result.events if e.kind == "action"])


def test_interest_is_2_percent_an_update_rounded_to_the_nearest_dollar():
    state = bank_game(paused=False)
    BankModule.private_of(state).balances.update({"alice": 1234, "bob": 1225, "carol": 10})
    result = play(state)
    # 24.68 -> 25; 24.50 -> 25 (half a dollar rounds up, IV.1); 0.20 -> 0
    assert BankModule.private_of(result.state).balances == {"alice": 1259, "bob": 1250, "carol": 10}
    assert "Your bank account earned $25 interest (2%); its balance is $1259." in [
        e.private for e in result.events if e.player == "alice"]


def test_rounding_down_is_a_standing_ruling_the_admin_can_change():
    state = bank_game(paused=False)
    BankModule.private_of(state).balances.update({"bob": 1225})
    result = play(state, rulings=[Ruling("set-param", {"module": "bank", "key": "rounding", "value": "down"}, "t")])
    assert balance_of(result.state, "bob") == 1249


def test_the_governor_earns_3_percent():
    state = governing(bank_game(paused=False), "bob")
    BankModule.private_of(state).balances.update({"alice": 1000, "bob": 1000})
    result = play(state)
    assert BankModule.private_of(result.state).balances == {"alice": 1020, "bob": 1030}


def test_no_interest_while_the_game_is_paused():
    state = bank_game()
    BankModule.private_of(state).balances.update({"alice": 1000})
    assert balance_of(play(state).state, "alice") == 1000


def test_mortgage_pays_half_the_squares_net_worth_and_the_square_then_takes_no_rent():
    state = bank_game()
    set_owner(state, 14, "alice")
    state.players["alice"].square = 30
    result = play(state, [game_mail(state, "alice", "MORTGAGE 14\nMORTGAGE 14")])
    after = result.state
    assert after.players["alice"].money == 10000 + 175  # net worth 14 x $25 = $350 (VI.16)
    assert BankModule.of(after).mortgages == {14: 175}
    assert texts(result.events, "action") == [
        "alice mortgaged square 14 for $175 (50% of its net worth, $350); it takes no rent until it is "
        "un-mortgaged.",
        'alice: "MORTGAGE 14" was not done: square 14 is mortgaged already; UNMORTGAGE 14 first (XXVII.1)']


def test_rent_is_zero_on_a_mortgaged_square_whatever_the_rent_would_be():
    state = bank_game()
    set_owner(state, 6, "bob")
    BankModule.of(state).mortgages[6] = 75
    from admin.engine.context import UpdateContext
    from admin.engine.dice import Dice
    from admin.engine.schedule import Slot
    from admin.library.ownership import rent_due

    ctx = UpdateContext(state=state, dice=Dice(seed=b"x", digest="t", update=9), slot=Slot("Thursday", 0),
                        registry=REGISTRY)
    assert rent_due(ctx, state.players["alice"], state.square(6)) == 0
    del BankModule.of(state).mortgages[6]
    assert rent_due(ctx, state.players["alice"], state.square(6)) == 18


def test_unmortgage_costs_what_was_received_plus_10_percent():
    state = bank_game()
    set_owner(state, 15, "alice")
    BankModule.of(state).mortgages[15] = 188  # 15 x $25 = $375; half is $187.50, rounded up
    state.players["alice"].square = 30
    result = play(state, [game_mail(state, "alice", "UNMORTGAGE 15\nUNMORTGAGE 15")])
    assert result.state.players["alice"].money == 10000 - 207  # 188 + 18.80 -> 19
    assert BankModule.of(result.state).mortgages == {}
    assert texts(result.events, "action") == [
        "alice un-mortgaged square 15 for $207 ($188 received plus 10%).",
        'alice: "UNMORTGAGE 15" was not done: square 15 is not mortgaged; MORTGAGE 15 mortgages it']


def test_only_the_owner_may_mortgage_a_square():
    state = bank_game()
    set_owner(state, 14, "bob")
    state.players["alice"].square = 30
    result = play(state, [game_mail(state, "alice", "MORTGAGE 14")])
    assert result.state.players["alice"].money == 10000
    assert texts(result.events, "action") == [
        'alice: "MORTGAGE 14" was not done: you may mortgage only a square you own (XXVII.1); square 14 is '
        "owned by bob"]


def test_a_mortgage_lapses_when_the_square_loses_its_owner():
    state = bank_game()
    BankModule.of(state).mortgages[14] = 175
    assert owner_of(state, 14) is None
    assert BankModule.of(play(state).state).mortgages == {}


def test_a_credit_card_is_free_and_one_a_player():
    state = bank_game()
    state.players["carol"].square = 30
    result = play(state, [game_mail(state, "carol", "TAKE CREDIT CARD\nTAKE CREDIT CARD")])
    assert CreditModule.of(result.state).holders == ["carol"]
    assert CreditModule.private_of(result.state).accounts["carol"].limit == 1000
    assert result.state.players["carol"].money == 10000
    assert texts(result.events, "action") == [
        "carol took out a credit card at the Bank of Nomopoly, free; its limit is $1000.",
        'carol: "TAKE CREDIT CARD" was not done: you hold a credit card already; a player may hold one at '
        "most (XXVII.1)"]


def test_an_atm_deposit_and_withdrawal_each_pay_5_dollars_to_the_squares_owner():
    state = bank_game()
    set_owner(state, 12, "bob")
    state.players["alice"].square = 12
    with_buildings(state, {12: ["atm"]})
    result = play(state, [game_mail(state, "alice", "ATM DEPOSIT 500\nATM WITHDRAW 100\nDEPOSIT 5")])
    after = result.state
    assert after.players["alice"].money == 10000 - 500 + 100 - 10
    assert after.players["bob"].money == 10010
    assert balance_of(after, "alice") == 400
    assert [e.private for e in result.events if e.kind == "action"][:2] == [
        "alice deposited $500 at the ATM on square 12, paying the $5 fee to bob; the account's balance is $500.",
        "alice withdrew $100 at the ATM on square 12, paying the $5 fee to bob; the account's balance is $400."]


def test_no_atm_on_the_square_refuses_an_atm_deposit():
    state = bank_game()
    state.players["alice"].square = 12
    result = play(state, [game_mail(state, "alice", "ATM DEPOSIT 500")])
    assert result.state.players["alice"].money == 10000
    assert [e.private or e.text for e in result.events if e.kind == "action"] == [
        'alice: "ATM DEPOSIT 500" was not done: there is no ATM on square 12, where you are; use one on a '
        "square with an ATM (XXII.4), or the Bank on its square (XXVII.1)"]


def test_the_balance_counts_in_net_worth_and_a_reset_closes_the_account():
    state = bank_game()
    BankModule.private_of(state).balances["alice"] = 700
    assert REGISTRY.net_worth(state, state.players["alice"]) == 10000 + 700
    from admin.engine.context import UpdateContext
    from admin.engine.dice import Dice
    from admin.engine.schedule import Slot

    ctx = UpdateContext(state=state, dice=Dice(seed=b"x", digest="t", update=9), slot=Slot("Thursday", 0),
                        registry=REGISTRY)
    reset_player(ctx, state.players["alice"], reason="test")
    assert balance_of(state, "alice") == 0


def test_the_bank_page_lists_mortgaged_squares_card_holders_and_atms_never_balances():
    state = bank_game()
    with_buildings(state, {12: ["atm"]})
    set_owner(state, 14, "alice")
    BankModule.of(state).mortgages[14] = 175
    BankModule.private_of(state).balances["alice"] = 4321
    CreditModule.of(state).holders = ["bob"]
    (panel,) = REGISTRY.get("bank").panels(state)
    assert panel.title == "The Bank"
    assert panel.tables[0].rows == ((14, "", "alice", "$175", "$193"),)
    assert panel.tables[1].rows == (("bob", "holds one"),)
    assert panel.tables[2].rows == ((12, "nobody"),)
    assert "4321" not in repr(panel)
    look = REGISTRY.get("bank").square_look(state, state.square(14))
    assert look.flags == ((58, "MTG", "mortgaged"),)


def test_the_bank_and_card_state_survive_saving_and_loading():
    import yaml

    from admin.store.statefiles import state_files, state_from_files

    state = bank_game()
    rulings = [Ruling("enable", {"module": "net-worth"}, "t")]
    state = play(state, rulings=rulings).state
    BankModule.of(state).mortgages[14] = 175
    BankModule.private_of(state).balances["alice"] = 700
    REGISTRY.get("credit-cards").set_player(state, state.players["bob"], "credit_balance", 120)
    from admin.games.nomopoly2.mechanics.networth import NetWorthModule, ProposalRecord

    NetWorthModule.of(state).proposals[3] = ProposalRecord("carol", yes=2, accepted=True)
    files = {}
    for path, text in state_files(state).items():
        if path.startswith("state/"):
            key = path[len("state/"):]
            files[key] = text if key.endswith(".tsv") else yaml.safe_load(text)
    from pathlib import Path

    back = state_from_files(files, Path("state"))
    assert BankModule.of(back).mortgages == {14: 175}
    assert BankModule.private_of(back).balances == {"alice": 700}
    assert CreditModule.private_of(back).accounts["bob"].balance == 120
    assert CreditModule.of(back).holders == ["bob"]
    assert NetWorthModule.of(back).proposals == {3: ProposalRecord("carol", yes=2, accepted=True)}


def test_no_atm_fee_on_ones_own_square_and_an_unowned_squares_fee_goes_to_the_admin_bank():
    state = bank_game()
    set_owner(state, 12, "alice")
    state.players["alice"].square = 12
    state.players["bob"].square = 13
    with_buildings(state, {12: ["atm"], 13: ["atm"]})
    bank_before = state.admin_bank
    result = play(state, [game_mail(state, "alice", "ATM DEPOSIT 500"), game_mail(state, "bob", "ATM DEPOSIT 100")])
    after = result.state
    assert after.players["alice"].money == 9500 and balance_of(after, "alice") == 500
    assert after.players["bob"].money == 9895 and balance_of(after, "bob") == 100
    assert after.admin_bank == bank_before + 500 + 100 + 5


def test_a_squares_net_worth_counts_the_buildings_on_it():
    state = bank_game()
    set_owner(state, 14, "alice")
    state.players["alice"].square = 30
    with_buildings(state, {14: ["house", "atm"]})
    assert shared.square_net_worth(state, 14) == 350 + 300 + 50  # VI.16, XXII.4's prices
    result = play(state, [game_mail(state, "alice", "MORTGAGE 14")])
    assert BankModule.of(result.state).mortgages == {14: 350}
