"""Nomopoly II XXXV, the Governor and elections. Two updates a week: updates 5 and 6 are week 3's,
the first election week (``first_week`` 3, every ``period`` 3 weeks). The bidding opens at the end
of update 4, closes at the end of update 5 (the two highest pay and stand), the votes close at the
end of update 6, and the winner governs weeks 4 to 6."""

from dataclasses import fields

import pytest
from fixtures.n2_missiles_gov import game, run, silo_block
from fixtures.games import refusals, texts

from admin.library.health import health_of
from admin.library.interactions import InteractionsModule
from admin.games.nomopoly2.mechanics.conditions import grant_weeks
from admin.games.nomopoly2.mechanics.governor import GovernorModule
from admin.games.nomopoly2.mechanics.shared import buildings_on, governor
from admin.library.ownership import BuyRight, OwnershipModule, owner_of

PLAYERS = ("alice", "bob", "carol")


def _at(update: int, enable=("terrorism", "governor")):
    s = game(PLAYERS, enable=enable)
    s.update = update
    return s


def _elected(bids: dict[str, str], votes: dict[str, str], vote_rolls=None, bid_rolls=None):
    opened = run(_at(3))  # update 4 opens the bidding for week 3
    bidding = run(opened.state, bids, rolls=bid_rolls)
    voting = run(bidding.state, votes, rolls=vote_rolls)
    return opened, bidding, voting


def _governing(name="alice", week=4):
    """A game in week ``week``'s first update with ``name`` Governor for weeks 4-6."""
    s = _at(2 * week - 2)
    gs = GovernorModule.of(s)
    gs.governor, gs.term_from, gs.term_to = name, 4, 6
    return s


def test_an_election_by_mail_two_highest_bidders_pay_and_most_votes_win():
    opened, bidding, voting = _elected({"alice": "BID GOVERNOR 500", "bob": "BID GOVERNOR 300",
                                        "carol": "BID GOVERNOR 100"},
                                       {"alice": "VOTE GOVERNOR alice", "bob": "VOTE GOVERNOR bob",
                                        "carol": "VOTE GOVERNOR bob"})
    assert "Week 3 elects a Governor: send BID GOVERNOR <amount> for the next update (sealed; the two " \
           "highest bidders pay and stand, XXXV.1)." in texts(opened.events)
    money = {n: p.money for n, p in bidding.state.players.items()}
    assert money == {"alice": 9500, "bob": 9700, "carol": 10000}
    assert "The candidates for Governor are alice ($500), bob ($300); send VOTE GOVERNOR <candidate> for the " \
           "next update (XXXV.2)." in texts(bidding.events)
    assert "The votes for Governor: alice 1, bob 2." in texts(voting.events)
    assert "bob is elected Governor (most votes) for weeks 4 to 6 (XXXV.2)." in texts(voting.events)
    gs = GovernorModule.of(voting.state)
    assert (gs.governor, gs.elect, gs.elect_from, gs.elect_to) == (None, "bob", 4, 6)
    week4 = run(voting.state)
    assert governor(week4.state) == "bob" and health_of(week4.state, "bob") == 105
    assert "bob is Governor from week 4 to the end of week 6." in texts(week4.events)


def test_bids_and_votes_are_sealed_until_the_close():
    opened = run(_at(3))
    bidding = run(opened.state, {"alice": "BID GOVERNOR 500"})
    [event] = [e for e in bidding.events if e.kind == "action"]
    assert event.text is None and "sealed" in event.private
    assert InteractionsModule.of(opened.state).open[0].sealed


def test_a_sealed_bid_is_told_only_to_its_bidder_in_their_results():
    opened = run(_at(3))
    state = opened.state
    from admin.engine.interactions import answer

    answer(InteractionsModule.of(state), InteractionsModule.private_of(state), "alice", 1, 500)
    lines = [line for _, line in GovernorModule().results_lines(state, state.players["alice"])]
    assert lines == ["  Your sealed bid to stand for Governor: $500 (#1)"]
    assert GovernorModule().results_lines(state, state.players["bob"]) == []


def test_a_tie_in_votes_goes_to_the_higher_bid():
    _, _, voting = _elected({"alice": "BID GOVERNOR 500", "bob": "BID GOVERNOR 300"},
                            {"alice": "VOTE GOVERNOR alice", "bob": "VOTE GOVERNOR bob"})
    assert "alice is elected Governor (a tie in votes, the higher bid) for weeks 4 to 6 (XXXV.2)." in texts(voting.events)


def test_a_tie_in_votes_and_bids_is_drawn():
    _, _, voting = _elected({"alice": "BID GOVERNOR 300", "bob": "BID GOVERNOR 300"},
                            {"alice": "VOTE GOVERNOR alice", "bob": "VOTE GOVERNOR bob"},
                            vote_rolls={"governor/3/draw": [2]})
    assert GovernorModule.of(voting.state).elect == GovernorModule.of(voting.state).results[-1].candidates[1]
    assert "(a tie in votes and bids, a draw)" in " ".join(texts(voting.events))


def test_a_lone_bidder_gets_a_random_opponent_who_pays_nothing():
    _, bidding, _ = _elected({"carol": "BID GOVERNOR 50"}, {}, bid_rolls={"governor/3/opponent": [2]})
    assert GovernorModule.of(bidding.state).election.candidates == ["carol", "bob"]
    assert (bidding.state.players["carol"].money, bidding.state.players["bob"].money) == (9950, 10000)
    assert "Only carol bid; bob is drawn to stand against them (XXXV.1)." in texts(bidding.events)


def test_nobody_voting_leaves_it_to_the_higher_bid():
    _, _, voting = _elected({"alice": "BID GOVERNOR 10", "bob": "BID GOVERNOR 20"}, {})
    assert GovernorModule.of(voting.state).elect == "bob"


def test_a_terrorist_may_not_bid_and_a_bid_must_be_positive_and_payable():
    opened = run(_at(3))
    grant_weeks(opened.state, "carol", "terrorist", 4)
    r = run(opened.state, {"carol": "BID GOVERNOR 100", "alice": "BID GOVERNOR 0", "bob": "BID GOVERNOR 20000"})
    # a refused sealed bid is told to its bidder only: its amount is secret too
    assert [e.text for e in r.events if e.kind == "action"] == [None, None, None]
    errors = sorted(e.private for e in r.events if e.kind == "action")
    assert errors == [
        'alice: "BID GOVERNOR 0" was not done: a bid for candidacy must be a positive amount of money (XXXV.1)',
        'bob: "BID GOVERNOR 20000" was not done: you bid $20000 and have $10000; the two highest bidders pay '
        "their bids, and no voluntary action may make a player bankrupt (IV.3)",
        'carol: "BID GOVERNOR 100" was not done: a terrorist may not bid to stand for Governor (XXXV.1)']
    assert "Nobody bid to stand for Governor; there is no election in week 3." in texts(r.events)


def test_no_bids_outside_an_election_week():
    r = run(_at(0), {"alice": "BID GOVERNOR 100"})
    assert [e.private for e in r.events if e.kind == "action"] == [
        'alice: "BID GOVERNOR 100" was not done: no election is taking bids this update; bids are taken in the '
        "first update of an election week (every 3 weeks, XXXV.1)"]


def test_a_vote_must_name_a_candidate():
    opened = run(_at(3))
    bidding = run(opened.state, {"alice": "BID GOVERNOR 10", "bob": "BID GOVERNOR 20"})
    r = run(bidding.state, {"carol": "VOTE GOVERNOR carol"})
    assert refusals(r.events) == [
        'carol: "VOTE GOVERNOR carol" was not done: "carol" is not a candidate; the candidates are bob and alice '
        "(XXXV.2)"]


def test_the_term_ends_after_three_weeks_and_the_benefits_with_it():
    s = _governing(week=7)
    r = run(s)
    assert governor(r.state) is None and "alice's term as Governor is over." in texts(r.events)
    assert health_of(r.state, "alice") == 100


def test_the_governor_gains_five_health_in_each_weeks_first_update_only():
    first = run(_governing())
    assert health_of(first.state, "alice") == 105
    second = run(first.state)
    assert health_of(second.state, "alice") == 105


TURNS = {"order": list(PLAYERS), "dice": [1, 2] * 3}  # proposals need a game not paused: everyone moves 3


def test_the_governor_makes_two_proposals_a_week_and_others_one():
    s = _governing()
    s.paused = False
    text = "PROPOSE One\nWords.\nEND\nPROPOSE Two\nWords.\nEND\nPROPOSE Three\nWords.\nEND"
    r = run(s, {"alice": text, "bob": "PROPOSE Mine\nWords.\nEND\nPROPOSE Again\nWords.\nEND"}, **TURNS)
    open_by = sorted((p.proposer, p.title) for p in r.state.proposals if p.status in ("open", "voting"))
    assert open_by == [("alice", "Three"), ("alice", "Two"), ("bob", "Again")]


def test_the_governor_vetoes_one_proposal_a_week():
    s = _governing()
    s.paused = False
    r = run(s, {"bob": "PROPOSE Mine\nWords.\nEND\nPROPOSE Again\nWords.\nEND",
                "carol": "PROPOSE Hers\nWords.\nEND"}, **TURNS)
    numbers = {p.title: p.number for p in r.state.proposals}
    vetoed = run(r.state, {"alice": f"VETO {numbers['Again']}\nVETO {numbers['Hers']}", "bob": "VETO 1"}, **TURNS)
    statuses = {p.title: p.status for p in vetoed.state.proposals}
    assert statuses["Again"] == "vetoed" and statuses["Hers"] == "rejected"  # tallied as usual, no votes
    assert sorted(texts(vetoed.events, "action")) == sorted([
        f"The Governor, alice, vetoed proposal {numbers['Again']}: Again (XXXV.3).",
        f'alice: "VETO {numbers["Hers"]}" was not done: the Governor has vetoed 1 proposal this week already; 1 a '
        "week (XXXV.3)",
        'bob: "VETO 1" was not done: only the Governor may veto a proposal (XXXV.3); the Governor is alice'])


def test_the_governor_pays_five_percent_less_for_a_square_rounded_in_their_favour():
    s = _governing()
    s.players["alice"].square = 7
    OwnershipModule.of(s).buy_rights.append(BuyRight(square=7, player="alice", order=1, update=6))
    r = run(s, {"alice": "BUY 7"})
    assert owner_of(r.state, 7) == "alice"
    assert r.state.players["alice"].money == 10000 - (175 - 8)


def test_adding_squares_costs_the_admin_bank_4000_each_three_a_term():
    s = _governing()
    s.admin_bank = 9000
    s.squares[2].destroyed = True  # square 3
    r = run(s, {"alice": "ADD SQUARE\nADD SQUARE\nADD SQUARE"})
    assert r.state.admin_bank == 1000 and len(r.state.squares) == 21 and not r.state.squares[2].destroyed
    assert texts(r.events, "action") == [
        "The Governor, alice, added square 3 to the board, paid $4000 by the Admin Bank Account (XXXV.3); the "
        "board has 20 squares.",
        "The Governor, alice, added square 21 to the board, paid $4000 by the Admin Bank Account (XXXV.3); the "
        "board has 21 squares.",
        'alice: "ADD SQUARE" was not done: a square costs $4000 and the Admin Bank Account has $1000; the '
        "Governor may never make a purchase it cannot afford (XXXV.4)"]


def test_add_square_in_place_of_a_named_destroyed_square_and_the_term_limit():
    s = _governing()
    s.admin_bank = 100000
    for n in (3, 5):
        s.squares[n - 1].destroyed = True
    GovernorModule.of(s).squares_added = 2
    r = run(s, {"alice": "ADD SQUARE IN PLACE OF 5\nADD SQUARE"})
    assert not r.state.squares[4].destroyed and r.state.squares[2].destroyed
    assert texts(r.events, "action")[-1] == (
        'alice: "ADD SQUARE" was not done: the Governor has added 3 squares this term, as many as allowed (XXXV.3)')


@pytest.fixture
def gov_square():
    s = _governing()
    from admin.engine.config import enable_module
    from admin.games.registry import REGISTRY

    for name in ("blocks", "buildings"):
        enable_module(s, REGISTRY, name)
    silo_block(s, silo=12, squares=(12,), kind="government")
    s.mods["buildings"].on.pop(12)
    return s


def test_the_governor_builds_once_a_week_on_a_government_square_from_the_admin_bank(gov_square):
    gov_square.admin_bank = 1000
    r = run(gov_square, {"alice": "GOVERN BUILD HOSPITAL ON 12\nGOVERN BUILD HOUSE ON 12", "bob": "GOVERN BUILD HOUSE ON 12"})
    assert buildings_on(r.state, 12) == ["hospital"] and r.state.admin_bank == 750
    assert sorted(texts(r.events, "action")) == [
        "The Governor, alice, built a Hospital on square 12, paid $250 by the Admin Bank Account (XXXV.3).",
        'alice: "GOVERN BUILD HOUSE ON 12" was not done: the Governor has built this week already; one building '
        "a week (XXXV.3)",
        'bob: "GOVERN BUILD HOUSE ON 12" was not done: only the Governor may build on a Government square '
        "(XXXV.3); the Governor is alice"]


def test_the_governor_builds_only_on_government_squares_and_what_the_bank_can_afford(gov_square):
    gov_square.admin_bank = 200
    r = run(gov_square, {"alice": "GOVERN BUILD HOSPITAL ON 12\nGOVERN BUILD HOUSE ON 13"})
    assert buildings_on(r.state, 12) == [] and r.state.admin_bank == 200
    assert texts(r.events, "action") == [
        'alice: "GOVERN BUILD HOSPITAL ON 12" was not done: a Hospital on square 12 costs $250 and the Admin Bank '
        "Account has $200; the Governor may never make a purchase it cannot afford (XXXV.4)",
        'alice: "GOVERN BUILD HOUSE ON 13" was not done: square 13 is not a Government square; the Governor '
        "builds only on those (XXXV.3): 12"]


def test_the_governor_page_appears_with_the_first_candidates_and_shows_their_bids():
    opened = run(_at(3))
    assert GovernorModule().panels(_at(3)) == [] and GovernorModule().panels(opened.state) == []
    bidding = run(opened.state, {"alice": "BID GOVERNOR 500", "bob": "BID GOVERNOR 300"})
    [panel] = GovernorModule().panels(bidding.state)
    assert ("alice", 500) in panel.tables[1].rows and ("bob", 300) in panel.tables[1].rows


def test_an_election_by_mail_on_disk_publishes_the_governor_page_and_replays(tmp_path):
    from datetime import datetime, timedelta

    from fixtures.games import DIR_SETTINGS, deliver

    from admin.jobs import update as jobs
    from admin.engine.events import Ruling
    from admin.site.build import build_site

    game = jobs.init_game(tmp_path / "g", "nomopoly2-full", "Election", settings_text=DIR_SETTINGS)
    for name in PLAYERS:
        jobs.add_player(game, name, f"{name}@example.org")
    inbox = game.root / "mail" / "inbox"
    jobs.queue_ruling(game, Ruling("set-param", {"module": "governor", "key": "first_week", "value": 2}, "test"))
    monday = datetime.fromisoformat("2026-11-02T10:00:00+00:00")
    cutoffs = [monday + timedelta(days=d, hours=13, minutes=59, seconds=59) for d in (2, 5, 9, 12, 16)]
    mails = {2: {"alice": "BID GOVERNOR 400", "bob": "BID GOVERNOR 250"},   # before update 3's cut-off
             3: {"alice": "VOTE GOVERNOR alice", "bob": "VOTE GOVERNOR bob", "carol": "VOTE GOVERNOR bob"}}
    for i, at in enumerate(cutoffs):
        for name, text in mails.get(i, {}).items():
            deliver(inbox, f"{name}@example.org", text + "\n", (at - timedelta(days=1)).isoformat(),
                    message_id=f"<u{i}{name}@test.invalid>")
        jobs.run_update_job(game, at=at)
        if i == 1:
            build_site(game)
            assert not (game.root / "site" / "governor.html").exists()  # no candidates yet
    build_site(game)
    state = game.load()
    assert governor(state) == "bob" and GovernorModule.of(state).term_to == 5  # weeks 3 to 5
    page = (game.root / "site" / "governor.html").read_text(encoding="utf-8")
    assert "bob" in page and "alice" in page and "$400" in page and "$250" in page
    assert jobs.replay_check(game) == []
    assert jobs.verify(game) == []


@pytest.mark.parametrize("line, command", [
    ("BID GOVERNOR $500", ("bid-governor", 500)),
    ("VOTE GOVERNOR bob", ("vote-governor", "bob")),
    ("VETO P7", ("governor-veto", 7)),
    ("GOVERN BUILD anti missile battery ON 12", ("govern-build", "anti-missile-battery", 12)),
    ("ADD SQUARE", ("add-square", None)),
    ("ADD SQUARE IN PLACE OF 7", ("add-square", 7)),
    ("BID 4 250", ("answer", 4, 250)),   # the interactions module's own BID is still read
])
def test_what_players_write_is_read(line, command):
    from admin.mail.inbound.grammar import grammar_for, parse_text

    [v] = parse_text(line, grammar_for(game(enable=("governor",))))
    assert v.error is None and (v.command.cmd, *[getattr(v.command, f.name) for f in fields(v.command)]) == command
