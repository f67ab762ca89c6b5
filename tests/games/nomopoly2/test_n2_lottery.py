"""Nomopoly II XVIII, the Lottery: tickets bought with cards (XVIII.2-3), secret to their holder;
the week's draw (XVIII.1) and its prizes (XVIII.4), the winner's choice of eliminating or taking
over a player (XVIII.5)."""

import copy
import re
from types import SimpleNamespace

from fixtures.games import mail, new_state, play, refusals, texts

from admin.engine.config import enable_module
from admin.engine.events import Ruling
from admin.games.registry import REGISTRY
from admin.library.cards import hand, set_hand
from admin.games.nomopoly2.mechanics.conditions import grant_weeks
from admin.games.nomopoly2.mechanics.lottery import LotteryModule, best_match
from admin.games.nomopoly2.mechanics.shared import has_condition
from admin.library.ownership import set_owner
from admin.nomic.proposals import vote_weight

PLAYERS = ("alice", "bob", "carol")


def _game():
    """Update 1 (Thursday of week 1) played with the lottery on; paused: only actions move anything."""
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": "lottery"}, "test")]).state
    state.paused = True
    return state


def _tickets(state, name, *tickets):
    REGISTRY.get("lottery").set_player(state, state.players[name], "lottery_tickets", list(tickets))


def _numbers_of_next_draw(state):
    """The numbers update 2 (the week's end) will draw with the test seed (the dice are derived)."""
    return play(copy.deepcopy(state)).state.mods["lottery"].draws[-1].numbers


def test_a_ticket_trades_in_a_7_for_seven_lines_of_six_distinct_numbers_told_only_to_its_holder():
    state = _game()
    set_hand(state, "alice", ["7H", "2C"])
    result = play(state, [mail("alice", "LOTTERY TICKET 7H")])
    after = result.state  # update 2 ends the week: the ticket was in its draw
    assert hand(after, "alice") == ["2C"]
    draw = LotteryModule.of(after).draws[-1]
    assert draw.tickets == 1 and len(draw.numbers) == 7 and len(set(draw.numbers)) == 7
    told = [e for e in result.events if e.kind == "action" and e.player == "alice"][0]
    assert told.text is None and told.private.startswith(
        "You traded in the 7 of hearts for lottery ticket #1: 7 lines of 6 numbers (XVIII.2-3)")
    lines = [found.split() for found in re.findall(r"line \d+: ([\d ]+)", told.private)]
    assert len(lines) == 7
    assert all(len(line) == 6 and len(set(line)) == 6 and all(1 <= int(n) <= 20 for n in line) for line in lines)


def test_a_bonus_card_makes_each_line_seven_numbers_and_the_ticket_waits_for_the_draw():
    state = _game()
    set_hand(state, "bob", ["3S", "QD"])
    state.update, state.week = 2, 1  # so that the next update is a Thursday: no draw yet
    after = play(state, [mail("bob", "LOTTERY TICKET 3S BONUS QD")]).state
    (ticket,) = LotteryModule.private_of(after).tickets
    assert (ticket.player, ticket.bonus, [len(line) for line in ticket.lines]) == ("bob", True, [7, 7, 7])
    assert hand(after, "bob") == []
    lines = dict(REGISTRY.get("lottery").results_lines(after, after.players["bob"]))[72]
    assert lines.startswith("  Your lottery ticket #1 (only you see it, bonus number): ")
    assert all("ticket" not in str(t.tables) for t in REGISTRY.get("lottery").panels(after))


def test_a_ticket_needs_a_card_of_2_to_10_a_face_card_or_ace_only_as_bonus_and_no_terrorist_buys_one():
    state = _game()
    enable_module(state, REGISTRY, "terrorism")  # a terrorist is one only while XXIII is in force
    set_hand(state, "alice", ["AH", "5S", "6D"])
    set_hand(state, "bob", ["4C"])
    grant_weeks(state, "bob", "terrorist", 3)
    result = play(state, [mail("alice", "LOTTERY TICKET AH\nLOTTERY TICKET 5S BONUS 6D"),
                          mail("bob", "LOTTERY TICKET 4C")])
    assert refusals(result.events) == [
        'alice: "LOTTERY TICKET AH" was not done: a ticket is bought with a card of value 2 to 10 (XVIII.2), '
        "not the ace of hearts; a face card or an ace may only be added as BONUS",
        'bob: "LOTTERY TICKET 4C" was not done: a terrorist may not buy lottery tickets (XXIII.2)',
        'alice: "LOTTERY TICKET 5S BONUS 6D" was not done: a bonus number is bought with a face card or an ace '
        "(XVIII.2), not the 6 of diamonds"]
    assert hand(result.state, "alice") == ["AH", "5S", "6D"] and hand(result.state, "bob") == ["4C"]


def test_lines_are_compared_ignoring_order_and_a_ticket_wins_by_its_best_line():
    assert best_match([[20, 1, 2, 3, 4, 5], [9, 10, 11, 12, 13, 14]], [5, 4, 3, 2, 1, 6, 7]) == 5
    assert best_match([[1, 2, 3, 4, 5, 6, 7]], [7, 6, 5, 4, 3, 2, 1]) == 7


def test_seven_right_wins_the_whole_admin_bank_account_no_rent_and_two_votes_next_week():
    state = _game()
    state.admin_bank = 2500
    numbers = _numbers_of_next_draw(state)
    _tickets(state, "alice", [numbers])  # a bonus ticket whose line is the draw itself
    result = play(state)
    after = result.state
    assert after.players["alice"].money == 10000 + 2500 and after.admin_bank == 0
    assert after.week == 1 and [(g.player, g.extra, g.week) for g in after.vote_grants] == [("alice", 1, 2)]
    after.week = 2  # the following week
    assert has_condition(after, "alice", "rent-immunity") and has_condition(after, "alice", "double-votes")
    assert "alice's lottery ticket #1 has 7 numbers right: the Admin Bank Account ($2500), no rent and two " \
           "votes in week 2, and eliminating or taking over a player (XVIII.4)." in texts(result.events)


def test_two_votes_count_twice_on_next_weeks_proposals():
    state = _game()
    numbers = _numbers_of_next_draw(state)
    _tickets(state, "bob", [numbers[:6]])  # six right
    after = play(state).state
    after.week = 2
    ctx = SimpleNamespace(state=after)
    assert vote_weight(ctx, "bob") == 2 and vote_weight(ctx, "alice") == 1


def test_a_silent_five_number_winner_gets_two_votes_and_a_wrong_answer_is_refused():
    state = _game()
    numbers = _numbers_of_next_draw(state)
    _tickets(state, "carol", [numbers[:5] + [n for n in range(1, 21) if n not in numbers][:1]])
    drawn = play(state)
    assert "carol's lottery ticket #1 has 5 numbers right: eliminating or taking over a player, or two votes " \
           "in week 2 (XVIII.4)." in texts(drawn.events)
    answered = play(drawn.state, [mail("carol", "ELIMINATE carol\nTAKE OVER dave")])
    assert texts(answered.events, "action") == [
        'carol: "ELIMINATE carol" was not done: you may not eliminate yourself (XVIII.5)',
        "carol: \"TAKE OVER dave\" was not done: there is no player 'dave' to take over; players: alice, bob"]
    assert "#1 (prize) closed: carol took two votes on every proposal of week 2 (XVIII.4)" in texts(answered.events)
    assert [(g.player, g.week) for g in answered.state.vote_grants] == [("carol", 2)]


def test_eliminate_without_a_prize_is_refused():
    state = _game()
    set_owner(state, 5, "bob")
    result = play(state, [mail("alice", "ELIMINATE bob")])
    assert texts(result.events, "action") == [
        'alice: "ELIMINATE bob" was not done: only a lottery winner with 5, 6 or 7 numbers right may eliminate '
        "a player (XVIII.4-5), and you have no such prize waiting"]
    assert result.state.players["bob"].active


def test_the_lottery_page_shows_each_draw_and_its_winners_never_a_ticket():
    state = _game()
    numbers = _numbers_of_next_draw(state)
    _tickets(state, "alice", [[n for n in range(1, 21) if n not in numbers][:6]])  # none right
    _tickets(state, "bob", [numbers[:4] + [n for n in range(1, 21) if n not in numbers][:2]])  # four right
    after = play(state).state
    (panel,) = REGISTRY.get("lottery").panels(after)
    assert (panel.slug, panel.title) == ("lottery", "The Lottery")
    assert panel.tables[0].rows == ((1, " ".join(map(str, numbers)), 2, "bob (4 right: no rent on the next roll)"),)


def test_a_game_on_disk_with_tickets_bought_and_drawn_replays_and_verifies(game_dir):
    """The lottery switched on by the Admin, tickets bought with the cards voting gives (VIII.4),
    the week's draw: the logs replay to the same state and every roll, hidden ones included, verifies."""
    from datetime import datetime, timedelta

    from fixtures.games import deliver

    from admin.jobs import update as jobs

    inbox = game_dir.root / "mail" / "inbox"
    monday = datetime.fromisoformat("2026-11-02T10:00:00+00:00")
    jobs.queue_ruling(game_dir, Ruling("enable", {"module": "lottery"}, "test"))
    deliver(inbox, "alice@example.org", "PROPOSE Cards\nADD RULE XIV: Cards are fun.\nEND\n", monday.isoformat())
    jobs.run_update_job(game_dir, at=monday + timedelta(days=2, hours=13, minutes=59, seconds=59))
    for name in PLAYERS:
        deliver(inbox, f"{name}@example.org", "VOTE 1 YES\n", (monday + timedelta(days=3)).isoformat())
    jobs.run_update_job(game_dir, at=monday + timedelta(days=5, hours=13, minutes=59, seconds=59))
    state = game_dir.load()
    buyers = {name: next(c for c in hand(state, name) if c[:-1].isdigit())
              for name in PLAYERS if any(c[:-1].isdigit() for c in hand(state, name))}
    assert buyers  # a card from 2 to 10 among the cards of the votes (and the proposer's)
    week2 = monday + timedelta(weeks=1)
    for name, card in buyers.items():
        deliver(inbox, f"{name}@example.org", f"LOTTERY TICKET {card}\n", week2.isoformat())
    jobs.run_update_job(game_dir, at=week2 + timedelta(days=2, hours=13, minutes=59, seconds=59))
    assert len(LotteryModule.private_of(game_dir.load()).tickets) == len(buyers)
    jobs.run_update_job(game_dir, at=week2 + timedelta(days=5, hours=13, minutes=59, seconds=59))
    after = game_dir.load()
    assert [d.tickets for d in LotteryModule.of(after).draws] == [0, len(buyers)]
    assert jobs.replay_check(game_dir) == []
    assert jobs.verify(game_dir) == []


def test_the_state_keeps_the_last_30_draws_the_lottery_page_shows():
    """Older draws live in the update logs; the state, read and written every update, keeps the
    30 the page shows (a draw a week: 130 by the end of a 2.5-year game)."""
    from admin.games.nomopoly2.mechanics.lottery import Draw

    state = _game()
    LotteryModule.of(state).draws = [Draw(week=w, update=2 * w, numbers=[1, 2, 3, 4, 5, 6, 7], tickets=0)
                                     for w in range(-29, 1)]  # 30 draws, weeks -29 to 0
    after = play(state).state  # update 2 ends week 1: its draw is the 31st
    assert [d.week for d in LotteryModule.of(after).draws] == list(range(-28, 2))
