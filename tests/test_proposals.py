"""VIII and IX.2-3 (first cut): proposals in Monday-Wednesday, votes Friday-Saturday, the tally."""

from fixtures.games import mail, new_state, play, texts, total_money

from admin.library.cards import hand

PROPOSAL = "PROPOSE Free parking\nLanding on square 1 pays $200.\nEND"


def _week_one(players=("alice", "bob", "carol")):
    state = new_state(players)
    thursday = play(state, [mail("alice", PROPOSAL)], seed=b"t1")
    return thursday


def test_a_proposal_is_numbered_and_voting_opens_at_the_thursday_update():
    thursday = _week_one()
    [p] = thursday.state.proposals
    assert (p.number, p.proposer, p.title, p.status) == (1, "alice", "Free parking", "voting")
    assert p.text == "Landing on square 1 pays $200."
    assert texts(thursday.events, "voting-open") == ["Voting is open on proposal 1: Free parking."]


def test_yes_over_no_accepts_and_the_proposer_and_yes_voters_draw_cards():
    thursday = _week_one()
    cards_before = {n: len(hand(thursday.state, n)) for n in thursday.state.players}
    before = total_money(thursday.state)
    sunday = play(thursday.state, [mail("alice", "VOTE 1 YES"), mail("bob", "VOTE 1 NO"),
                                   mail("carol", "VOTE 1 YES")], seed=b"t2")
    p = sunday.state.proposals[0]
    assert p.status == "accepted"
    assert (p.tally.yes, p.tally.no, p.tally.abstain, p.tally.missing) == (2, 1, 0, [])
    assert p.tally.cards_to == ["alice", "alice", "carol"]
    drawn = {n: len(hand(sunday.state, n)) - cards_before[n] for n in sunday.state.players}
    doubles = {n: sum(1 for e in sunday.events if e.kind == "card" and e.player == n
                      and "doubles" in e.text) for n in drawn}
    assert {n: drawn[n] - doubles[n] for n in drawn} == {"alice": 2, "bob": 0, "carol": 1}
    assert total_money(sunday.state) == before


def test_a_missing_vote_counts_as_abstain_and_is_fined_100():
    thursday = _week_one()
    sunday = play(thursday.state, [mail("alice", "VOTE 1 YES")], seed=b"t2")
    p = sunday.state.proposals[0]
    assert (p.tally.yes, p.tally.no, p.tally.abstain) == (1, 0, 2)
    assert p.tally.fines == {"bob": 100, "carol": 100}
    fines = [e.data for e in sunday.events if e.kind == "money" and e.rule == "VIII.3"]
    assert [(f["from"], f["amount"]) for f in fines] == [("bob", 100), ("carol", 100)]


def test_a_tie_is_rejected_and_nobody_draws_a_card_for_it():
    thursday = _week_one(("alice", "bob"))
    sunday = play(thursday.state, [mail("alice", "VOTE 1 YES"), mail("bob", "VOTE 1 NO")], seed=b"t2")
    p = sunday.state.proposals[0]
    assert p.status == "rejected" and p.tally.cards_to == []


def test_the_last_vote_counts_and_the_change_is_recorded():
    thursday = _week_one()
    sunday = play(thursday.state, [
        mail("bob", "VOTE 1 NO", received="2026-11-06T10:00:00+00:00"),
        mail("bob", "VOTE 1 YES", received="2026-11-07T10:00:00+00:00"),
        mail("alice", "VOTE 1 ABSTAIN")], seed=b"t2")
    vote = sunday.state.proposals[0].votes["bob"]
    assert (vote.choice, vote.changed_from) == ("yes", ["no"])
    assert sunday.state.proposals[0].status == "accepted"


def test_a_second_proposal_in_a_week_replaces_the_first():
    state = new_state()
    result = play(state, [mail("alice", PROPOSAL, received="2026-11-02T10:00:00+00:00"),
                          mail("alice", "PROPOSE Better\nSomething else.\nEND",
                               received="2026-11-03T10:00:00+00:00")], seed=b"t1")
    first, second = result.state.proposals
    assert (first.status, first.note) == ("replaced", "replaced by proposal 2")
    assert second.status == "voting"


def test_a_proposal_after_wednesday_is_refused_with_the_reason():
    thursday = _week_one()
    sunday = play(thursday.state, [mail("bob", "PROPOSE Late\nToo late.\nEND")], seed=b"t2")
    assert texts(sunday.events, "action") == [
        'bob: "PROPOSE Late" was not done: proposals are taken Monday to Wednesday and must arrive '
        "before midnight on Wednesday (IX.2); send it again from Monday"]


def test_a_vote_before_voting_opens_or_after_it_closes_is_refused():
    state = new_state(["alice", "bob", "carol"])  # with two, XI.4 would end the game at once
    thursday = play(state, [mail("alice", PROPOSAL), mail("bob", "VOTE 1 YES")], seed=b"t1")
    assert texts(thursday.events, "action")[1] == (
        'bob: "VOTE 1 YES" was not done: voting on proposal 1 has not opened yet: it opens when the '
        "proposal is published at the Thursday update; vote on Friday or Saturday (IX.3)")
    assert thursday.state.proposals[0].votes == {}
    sunday = play(thursday.state, [mail("alice", "VOTE 1 YES"), mail("carol", "VOTE 1 YES")], seed=b"t2")
    later = play(sunday.state, [mail("bob", "VOTE 1 NO")], seed=b"t3")
    assert texts(later.events, "action") == ['bob: "VOTE 1 NO" was not done: voting on proposal 1 is closed (accepted)']
