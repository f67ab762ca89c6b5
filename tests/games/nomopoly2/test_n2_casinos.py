"""Nomopoly II XXXIII, casinos: a square with a Casino (bob's square 14 here, in whatever block a
test puts it) pays its owner $50 a week and a share of its net profit; alice, standing on it,
plays Blackjack and Poker hands over several mails, spins Roulette, and buys and uses the items.
Cards and wheels are forced (``draws`` in deck order, ``casino/`` rolls: the number + 1)."""

from collections import deque

from fixtures.games import new_state, texts

from admin.engine.playingcards import DECK
from admin.engine.events import Ruling
from admin.engine.update import LineCommand, Submission, run_update
from admin.mail.inbound.grammar import grammar_for, parse_text
from admin.games.registry import REGISTRY
from admin.library.cards import hand, set_hand
from admin.games.nomopoly2.mechanics.casinos.mechanic import CasinosModule
from admin.games.nomopoly2.mechanics.shared import Block
from admin.library.ownership import set_owner
from admin.jobs.scenario import ForcedDice

PLAYERS = ("alice", "bob")


def game(block: str | None = None, paused: bool = True):
    """Casinos on, a Casino on bob's square 14 (in a block of ``block`` kind, if given), alice
    standing on it, $10000 each; update 1 is played (enabling), so update 2 ends week 1."""
    state = new_state(PLAYERS)
    state.paused = True
    state = run_update(state, [], [Ruling("enable", {"module": m}, "test") for m in ("buildings", "blocks", "casinos")]
                       + [Ruling("disable", {"module": "endgame"}, "test")], ForcedDice(b"s", "t", 1), REGISTRY).state
    state.mods["buildings"].on[14] = ["casino"]
    if block:
        state.mods["blocks"].blocks = [Block(1, block, [14, 15])]
    set_owner(state, 14, "bob")
    state.players["alice"].square = 14
    for p in state.players.values():
        p.money = 10000
    state.paused = paused
    return state


def mail(state, player, text):
    verdicts = parse_text(text, grammar_for(state))
    assert not [v.error for v in verdicts if v.error]
    return Submission(key=f"{player}-{abs(hash(text)) % 10**8}", player=player, sender=f"{player}@example.org",
                      received="2026-11-04T10:00:00+00:00",
                      commands=[LineCommand(v.first_line, v.text, v.command) for v in verdicts])


def play(state, mails=None, *, draws=(), wheel=(), dice=(), order=None, rulings=()):
    dice_ = ForcedDice(b"seed", "test", state.update + 1, forced=deque(dice),
                       draws=deque(DECK.index(c) + 1 for c in draws), order=order,
                       others={"casino/": deque(n + 1 for n in wheel)})
    subs = [mail(state, p, t) for p, t in (mails or {}).items()]
    result = run_update(state, subs, list(rulings), dice_, REGISTRY)
    assert not dice_.leftover(), dice_.leftover()
    return result


def money(state):
    return {n: p.money for n, p in state.players.items()}


# -- Blackjack (XXXIII.2-4) -------------------------------------------------------------------
def test_a_blackjack_hand_over_three_emails_hit_then_stand_pays_twice_the_bet():
    dealt = play(game(), {"alice": "PLAY BLACKJACK 100"}, draws=["10H", "6C", "9S", "7D"])
    assert money(dealt.state)["alice"] == 9900  # the bet is paid up front (XXXIII.4)
    assert "alice bet $100 at blackjack at the Casino on square 14: dealt 10H 6C (16); the dealer shows 9S. " \
           "Answer HIT or STAND by update 3 (hand #1); no answer stands." in texts(dealt.events)
    assert "7D" not in " ".join(texts(dealt.events))  # the hole card stays hidden
    hit = play(dealt.state, {"alice": "HIT"}, draws=["4D"])
    assert "alice drew 4D: 10H 6C 4D (20). The dealer shows 9S. Answer HIT or STAND by update 4 (hand #2); " \
           "no answer stands." in texts(hit.events)
    stood = play(hit.state, {"alice": "STAND"}, draws=["10C"])
    assert "Blackjack at the Casino on square 14: alice has 10H 6C 4D (20), the dealer 9S 7D 10C (26): alice " \
           "won $200." in texts(stood.events)
    assert money(stood.state)["alice"] == 10100


def test_silence_stands_and_equal_totals_give_the_bet_back():
    dealt = play(game(), {"alice": "PLAY BLACKJACK 100"}, draws=["10H", "8C", "9S", "9D"])
    quiet = play(dealt.state)
    assert "Blackjack at the Casino on square 14: alice has 10H 8C (18), the dealer 9S 9D (18): a tie, and " \
           "alice has the bet of $100 back." in texts(quiet.events)
    assert money(quiet.state)["alice"] == 10000


def test_going_over_21_loses_the_bet_and_the_dealer_draws_nothing():
    dealt = play(game(), {"alice": "PLAY BLACKJACK 100"}, draws=["10H", "6C", "9S", "7D"])
    bust = play(dealt.state, {"alice": "ANSWER 1 hit"}, draws=["KD"])
    assert "Blackjack at the Casino on square 14: alice went over 21 and lost the bet of $100 (the dealer's " \
           "hole card was 7D)." in texts(bust.events)
    assert money(bust.state)["alice"] == 9900
    assert CasinosModule.of(dealt.state).last_week == [  # week 1 ended with the deal: the bet was its takings
        {"square": 14, "owner": "bob", "in": 100, "out": 0, "net": 100, "percent": 0, "share": 0}]
    assert CasinosModule.of(bust.state).takings == {}


def test_a_dealer_below_17_draws_and_beats_the_player():
    dealt = play(game(), {"alice": "PLAY BLACKJACK 40"}, draws=["10H", "8C", "6S", "5D"])
    stood = play(dealt.state, {"alice": "STAND"}, draws=["3H", "4C"])  # the dealer: 11, 14, 18
    assert "alice has 10H 8C (18), the dealer 6S 5D 3H 4C (18): a tie, and alice has the bet of $40 back." \
        in " ".join(texts(stood.events))
    dealt = play(game(), {"alice": "PLAY BLACKJACK 40"}, draws=["10H", "7C", "6S", "5D"])
    stood = play(dealt.state, {"alice": "STAND"}, draws=["3H", "4C"])
    assert "alice has 10H 7C (17), the dealer 6S 5D 3H 4C (18): alice lost the bet of $40." \
        in " ".join(texts(stood.events))
    assert money(stood.state)["alice"] == 9960


def test_a_player_dealt_21_stands_at_once():
    dealt = play(game(), {"alice": "PLAY BLACKJACK 50"}, draws=["AS", "KD", "9S", "8D"])
    assert money(dealt.state)["alice"] == 10050
    assert "alice has AS KD (21), the dealer 9S 8D (17): alice won $100." in " ".join(texts(dealt.events))


def test_a_bet_over_the_limit_or_away_from_a_casino_is_refused_and_costs_nothing():
    state = game()
    state.players["bob"].square = 15
    result = play(state, {"alice": "PLAY BLACKJACK 501", "bob": "PLAY ROULETTE 5 ON RED"})
    assert money(result.state) == {"alice": 10000, "bob": 10050}  # the week's $50 from the casino
    assert set(texts(result.events, "action")) == {
        'alice: "PLAY BLACKJACK 501" was not done: a bet at blackjack is from $1 to $500, not $501 (XXXIII.2)',
        'bob: "PLAY ROULETTE 5 ON RED" was not done: you are on square 15, which has no Casino; you may play '
        "only while on a square with a Casino (XXXIII.2, XXXIII.5)"}


# -- Poker ------------------------------------------------------------------------------------
def test_poker_replaces_the_cards_not_held_and_pays_by_the_hand():
    dealt = play(game(), {"alice": "PLAY POKER 20"}, draws=["AS", "AD", "7C", "4H", "2S"])
    assert "alice bet $20 at poker at the Casino on square 14: dealt 1. AS, 2. AD, 3. 7C, 4. 4H, 5. 2S. Answer " \
           "HOLD with the cards to keep (like HOLD 1 3) by update 3 (hand #1); no answer keeps all five." \
           in texts(dealt.events)
    drawn = play(dealt.state, {"alice": "HOLD 1 2"}, draws=["AC", "9D", "9H"])
    assert "Poker at the Casino on square 14: alice kept AS, AD: AS AD AC 9D 9H, full house: alice won $160 " \
           "(8 times the bet)." in texts(drawn.events)
    assert money(drawn.state)["alice"] == 10140


def test_poker_silence_keeps_all_five_and_no_winning_hand_pays_nothing():
    dealt = play(game(), {"alice": "PLAY POKER 25"}, draws=["AS", "JD", "7C", "4H", "2S"])
    kept = play(dealt.state)
    assert "Poker at the Casino on square 14: alice kept every card: AS JD 7C 4H 2S, no winning hand; the bet " \
           "of $25 is lost." in texts(kept.events)
    assert money(kept.state)["alice"] == 9975


# -- Roulette ---------------------------------------------------------------------------------
def test_roulette_pays_36_times_a_number_2_times_a_colour_and_7_times_five_numbers():
    result = play(game(), {"alice": "PLAY ROULETTE 10 ON 17\nPLAY ROULETTE 10 ON BLACK\nPLAY ROULETTE 10 ON 1,5,9,17,36"},
                  wheel=[17, 17, 17])
    assert money(result.state)["alice"] == 10000 - 30 + 360 + 0 + 70
    assert "alice bet $10 at roulette on BLACK at the Casino on square 14. The wheel stopped on 17 (red): the " \
           "bet is lost." in texts(result.events)


def test_zero_is_green_and_a_fourth_play_in_one_update_is_refused():
    result = play(game(), {"alice": "\n".join(["PLAY ROULETTE 10 ON RED"] * 3 + ["PLAY ROULETTE 10 ON BLACK"])},
                  wheel=[0, 0, 0])
    assert money(result.state)["alice"] == 9970
    assert texts(result.events, "action")[-1] == (
        'alice: "PLAY ROULETTE 10 ON BLACK" was not done: you have played 3 times in this update; a player may '
        "not play more than 3 times in a single update (XXXIII.2)")


# -- the week: income and the owner's share (XXXIII.1, XXXIII.6) -------------------------------
def test_the_owner_gets_50_a_week_and_half_a_commercial_casinos_profit():
    result = play(game("commercial"), {"alice": "PLAY ROULETTE 50 ON RED"}, wheel=[2])  # black: +$50 to the casino
    assert money(result.state) == {"alice": 9950, "bob": 10000 + 50 + 25}
    assert "bob received $25, 50% of the Casino on square 14's net profit of $50 this week." in texts(result.events)
    assert CasinosModule.of(result.state).takings == {}
    assert CasinosModule.of(result.state).last_week == [
        {"square": 14, "owner": "bob", "in": 50, "out": 0, "net": 50, "percent": 50, "share": 25}]


def test_the_owner_pays_a_share_of_a_loss_and_a_square_in_no_block_shares_nothing():
    lost = play(game("residential"), {"alice": "PLAY ROULETTE 10 ON 7"}, wheel=[7])  # pays $360: net -$350
    assert money(lost.state) == {"alice": 10350, "bob": 10000 + 50 - 87}  # 25% of 350 = 87.5, toward zero
    plain = play(game(None), {"alice": "PLAY ROULETTE 10 ON 7"}, wheel=[7])
    assert money(plain.state)["bob"] == 10050


# -- items (XXXIII.5) -------------------------------------------------------------------------
def test_items_are_bought_at_a_casino_and_their_price_is_the_casinos_takings():
    result = play(game(), {"alice": "BUY FLOWER 2\nGIVE FLOWER TO bob\nBUY SALAD\nEAT SALAD\nEAT SALAD\nBUY JOKER"})
    state = result.state
    assert money(state)["alice"] == 10000 - 20 - 200 - 1250  # the Joker comes with the Casinos
    assert CasinosModule.of(state).items.held == {"alice": {"flower": 1}, "bob": {"flower": 1}}
    assert state.mods["health"].health["alice"] == 105
    assert texts(result.events, "action")[-2:] == [
        'alice: "EAT SALAD" was not done: you ate a salad in this update already; one salad an update at most '
        "(XXXIII.5)",
        "alice bought 1 joker at the Casino on square 14 for $1250."]
    assert state.private.mods["jokers"].held == {"alice": 1}
    assert CasinosModule.of(state).last_week[0]["in"] == 220 + 1250  # settled with the week's end


def test_a_salad_is_eaten_anywhere_but_only_if_held():
    state = game()
    state.players["alice"].square = 3
    CasinosModule.of(state).items.give("alice", "salad", 1)
    first = play(state, {"alice": "EAT SALAD"})
    second = play(first.state, {"alice": "EAT SALAD"})
    assert second.state.mods["health"].health["alice"] == 105
    assert texts(second.events, "action")[-1] == (
        'alice: "EAT SALAD" was not done: you have no salad; buy one at a Casino (BUY SALAD, XXXIII.5)')


def test_a_weighted_die_sets_one_die_of_the_next_turn():
    state = game(paused=False)
    state.players["alice"].square = 1
    CasinosModule.of(state).items.give("alice", "weighted-die", 1)
    result = play(state, {"alice": "USE WEIGHTED DIE 7\nUSE WEIGHTED DIE 6"}, dice=[2, 3, 1, 2], order=["alice", "bob"])
    assert result.state.players["alice"].square == 1 + 6 + 3
    assert "alice's weighted die shows 6." in texts(result.events)
    assert 'alice: "USE WEIGHTED DIE 7" was not done: one of your dice cannot show 7; it shows 1, 2, 3, 4, 5, 6 ' \
           "(XXXIII.5)" in texts(result.events)
    assert CasinosModule.of(result.state).weighted == {}


def test_grease_goes_on_ones_own_square_and_slides_a_lander_losing_at_most_12_a_move():
    state = game(paused=False)
    set_owner(state, 3, "alice")
    state.players["alice"].square = 3
    state.players["bob"].square = 1
    CasinosModule.of(state).items.give("alice", "grease", 1)
    CasinosModule.of(state).greased = [4, 5, 6, 7]
    result = play(state, {"alice": "PLACE GREASE"}, dice=[1, 2, 2, 3], order=["bob", "alice"])
    # bob 1 -> 4: slides 4 5 6 7 -> 8, 3 + 3 + 3 + 3; alice's grease on 3 went on before the turns
    assert CasinosModule.of(result.state).greased == [3, 4, 5, 6, 7]
    assert result.state.players["bob"].square == 8
    assert result.state.mods["health"].health["bob"] == 88


def test_five_greased_squares_cost_12_health_and_the_slide_goes_on():
    state = game(paused=False)
    state.players["bob"].square = 1
    CasinosModule.of(state).greased = [4, 5, 6, 7, 8]
    result = play(state, dice=[1, 2, 5, 1], order=["bob", "alice"])
    assert result.state.players["bob"].square == 9
    assert result.state.mods["health"].health["bob"] == 88
    assert "bob slid on the grease of square 8 to square 9." in texts(result.events)


def test_an_auto_shuffler_swaps_the_chosen_cards_for_new_ones():
    state = game()
    set_hand(state, "alice", ["2H", "7S"])
    CasinosModule.of(state).items.give("alice", "auto-shuffler", 1)
    result = play(state, {"alice": "USE AUTO-SHUFFLER 2H"}, draws=["KD"])
    assert hand(result.state, "alice") == ["7S", "KD"]
    assert CasinosModule.of(result.state).items.held == {}


# -- answers, credit, and how it shows ---------------------------------------------------------
def test_poker_answers_by_card_through_answer_and_a_wrong_answer_is_refused():
    dealt = play(game(), {"alice": "PLAY POKER 10"}, draws=["AS", "AD", "7C", "4H", "2S"])
    answered = play(dealt.state, {"alice": "ANSWER 1 STAND\nANSWER 1 HOLD AS 2"}, draws=["AC", "9D", "9H"])
    assert 'alice: "ANSWER 1 STAND" was not done: \'STAND\' is not a Poker answer; answer HOLD with the cards ' \
           "to keep, like HOLD 1 3, HOLD KH KD, HOLD ALL or HOLD NONE (XXXIII.2)" in texts(answered.events)
    assert "alice answered #1 (game): hold 1 2." in texts(answered.events)
    assert money(answered.state)["alice"] == 10000 - 10 + 80


def test_a_move_without_an_open_hand_is_refused():
    result = play(game(), {"alice": "HIT\nHOLD 1 2"})
    assert texts(result.events, "action") == [
        'alice: "HIT" was not done: you have no open casino hand to HIT in; start one with PLAY BLACKJACK <bet> '
        "or PLAY POKER <bet> at a Casino",
        'alice: "HOLD 1 2" was not done: you have no open casino hand to HOLD in; start one with PLAY BLACKJACK '
        "<bet> or PLAY POKER <bet> at a Casino"]


def test_a_bet_on_credit_needs_credit_cards_in_force():
    result = play(game(), {"alice": "PLAY ROULETTE 10 ON RED ON CREDIT"})
    assert money(result.state)["alice"] == 10000
    assert texts(result.events, "action") == [
        'alice: "PLAY ROULETTE 10 ON RED ON CREDIT" was not done: there are no credit cards in this game '
        "(XXVIII is not in force); leave out ON CREDIT"]


def test_the_open_hand_is_in_the_players_results_and_the_casinos_page_lists_the_week():
    dealt = play(game("industrial"), {"alice": "PLAY BLACKJACK 30"}, draws=["10H", "6C", "9S", "7D"])
    module = REGISTRY.get("casinos")
    assert [line for _, line in module.results_lines(dealt.state, dealt.state.players["alice"])] == [
        "  Your Blackjack hand #1: 10H 6C (16); the dealer shows 9S. Answer HIT or STAND by update 3."]
    # update 3: roulette on RED, the wheel stops on 2 (black); the hand stands by silence, and the
    # dealer draws 5H to 21
    state = play(dealt.state, {"alice": "PLAY ROULETTE 5 ON RED"}, wheel=[2], draws=["5H"]).state
    (panel,) = module.panels(state)
    assert panel.tables[0].rows == ((14, "", "bob", "industrial", "10%", "$5", "$0", "$5"),)
    assert panel.tables[1].caption == "Week 1, settled"
    assert panel.tables[1].rows == ((14, "bob", "$30", "$0", "$30", "10%", "$3"),)


def test_a_greased_square_has_a_flag_and_a_note():
    state = game()
    CasinosModule.of(state).greased = [14]
    look = REGISTRY.get("casinos").square_look(state, state.square(14))
    assert look.notes == ((80, "greased"),) and look.flags == ((80, "GR", "greased"),)
    assert REGISTRY.get("casinos").square_look(state, state.square(13)) is None


def test_a_trade_moves_casino_items_through_the_casinos_functions():
    from admin.games.nomopoly2.mechanics.casinos.mechanic import items_held, transfer_item

    state = game()
    CasinosModule.of(state).items.give("alice", "grease", 2)
    transfer_item(state, "alice", "bob", "grease")
    assert (items_held(state, "alice"), items_held(state, "bob")) == ({"grease": 1}, {"grease": 1})


def test_a_blackjack_hand_by_mail_replays_and_verifies(tmp_path):
    """A game on disk whose Casino (on square 1, where everyone starts) deals a hand over three
    updates: ``replay --check`` rebuilds it from the log, and ``verify`` recomputes every roll."""
    from datetime import datetime, timedelta

    from fixtures.games import DIR_SETTINGS, deliver
    from fixtures.n2_sections import in_force, with_buildings

    from admin.jobs import update as jobs
    from admin.games.catalog import initial_state

    start = in_force(initial_state("nomopoly2", "Casino night"), "buildings", "casinos")
    with_buildings(start, {1: ["casino"]})
    start.paused = True
    game = jobs.init_game(tmp_path / "game", "nomopoly2", "Casino night", settings_text=DIR_SETTINGS,
                          start=start)
    for name in ("alice", "bob", "carol"):
        jobs.add_player(game, name, f"{name}@example.org")
    inbox = game.root / "mail" / "inbox"
    monday = datetime.fromisoformat("2026-11-02T10:00:00+00:00")
    for n, (text, days) in enumerate((("PLAY BLACKJACK 100\nPLAY POKER 10", 0), ("HIT", 3), ("", 7))):
        if text:
            deliver(inbox, "alice@example.org", text + "\n", (monday + timedelta(days=days)).isoformat(),
                    message_id=f"<c{n}@test.invalid>")
        jobs.run_update_job(game, at=monday + timedelta(days=days + 2, hours=13, minutes=59, seconds=59))
    from admin.library.interactions import InteractionsModule

    state = game.load()
    assert state.update == 3
    closed = [i for i in InteractionsModule.of(state).closed if i.module == "casinos"]
    assert {i.payload["game"] for i in closed} == {"blackjack", "poker"} and not InteractionsModule.of(state).open
    assert CasinosModule.private_of(state).hole == {}  # every hole card shown when its hand ended
    assert jobs.replay_check(game) == []
    assert jobs.verify(game) == []


def test_status_lists_the_casino_items_held():
    state = game()
    CasinosModule.of(state).items.give("alice", "salad", 2)
    module = REGISTRY.get("casinos")
    assert module.status_parts(state, state.players["alice"]) == [(70, "; casino items: salad x2")]
    assert module.status_parts(state, state.players["bob"]) == []
