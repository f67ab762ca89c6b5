"""The Nomic half over several weeks: both vote systems, vetoes, send-backs, pauses, extra votes,
amendments with history, and precedence (Nomopoly II VIII, X, I.3; the first Nomopoly's VII)."""

from fixtures.games import mail, new_state, play, texts, total_money

from admin.engine.events import Ruling
from admin.library.cards import hand
from admin.nomic.amendments import parse_directives, precedence

FIVE = ["alice", "bob", "carol", "dave", "erin"]
MON, FRI, NEXT_FRI = "2026-11-02T09:00:00+00:00", "2026-11-06T09:00:00+00:00", "2026-11-13T09:00:00+00:00"
#: the first Nomopoly's voting (its rule VII), as parameters of the same module
NOMOPOLY1_VOTING = {"per_week": 2, "card_to_proposer": 0, "card_per_yes_vote": 0, "proposer_reward": 100,
                    "proposer_penalty": 10, "abstain_share_voids": "1/3", "majority_abstain_bonus": 50,
                    "admin_votes": True}


def proposal(title, text="Something changes.", at=MON):
    return f"PROPOSE {title}\n{text}\nEND"


def _cards(state):
    return {n: len(hand(state, n)) for n in state.players}


def _cards_from_votes(result):
    drawn = {}
    for e in result.events:
        if e.kind == "card" and "proposal" in e.text:
            drawn[e.player] = drawn.get(e.player, 0) + 1
    return drawn


def _no_doubles_money(result, name):
    """Money that moved for `name` other than through the vote (turn events)."""
    return sum(e.data["amount"] * (1 if e.data["to"] == name else -1) for e in result.events
               if e.kind == "money" and name in (e.data["from"], e.data["to"]) and e.rule not in ("VIII.3", "VIII.4"))


def test_two_weeks_of_nomopoly_ii_votes_with_exact_money_and_cards():
    state = new_state(FIVE)
    # week 1, Thursday: alice replaces her first proposal; bob and carol propose
    thu = play(state, [mail("alice", proposal("First idea"), received="2026-11-02T09:00:00+00:00"),
                       mail("alice", proposal("Second idea"), received="2026-11-03T09:00:00+00:00"),
                       mail("bob", proposal("Bob's rule")), mail("carol", proposal("Carol's rule"))],
               seed=b"w1t")
    number = {p.title: p.number for p in thu.state.proposals}  # numbered in processing order
    statuses = {p.title: p.status for p in thu.state.proposals}
    assert statuses == {"First idea": "replaced", "Second idea": "voting", "Bob's rule": "voting",
                        "Carol's rule": "voting"}
    assert number["First idea"] < number["Second idea"]
    a, b, c = number["Second idea"], number["Bob's rule"], number["Carol's rule"]
    # week 1, Sunday: the Admin vetoes 4; votes, one changed; dave sends none; erin ties 3
    sun = play(thu.state, [
        mail("alice", f"VOTE {a} YES\nVOTE {b} NO", received=FRI),
        mail("bob", f"VOTE {a} NO\nVOTE {b} YES", received=FRI),
        mail("carol", f"VOTE {a} NO\nVOTE {b} ABSTAIN", received=FRI),
        mail("carol", f"VOTE {a} YES", received="2026-11-07T09:00:00+00:00"),
        mail("erin", f"VOTE {a} YES\nVOTE {b} ABSTAIN", received=FRI),
    ], rulings=[Ruling("veto", {"proposal": c}, "destroys game play")], seed=b"w1s")
    p2, p3, p4 = (sun.state.proposal(n) for n in (a, b, c))
    assert (p2.status, p2.tally.yes, p2.tally.no, p2.tally.abstain) == ("accepted", 3, 1, 1)
    assert p2.votes["carol"].changed_from == ["no"] and p2.votes["carol"].choice == "yes"
    assert (p3.status, p3.tally.yes, p3.tally.no, p3.tally.abstain) == ("rejected", 1, 1, 3)
    assert (p4.status, p4.tally, p4.note) == ("vetoed", None, "destroys game play")
    # dave missed two votes: $200; everyone else paid nothing for votes
    fines = {e.player: 0 for e in sun.events if e.kind == "fine"}
    for e in sun.events:
        if e.kind == "money" and e.rule == "VIII.3":
            fines[e.data["from"]] += e.data["amount"]
    assert fines == {"dave": 200}
    # proposer alice and Yes voters alice, carol, erin each draw one card per reason
    assert _cards_from_votes(sun) == {"alice": 2, "carol": 1, "erin": 1}
    assert p2.tally.cards_to == ["alice", "alice", "carol", "erin"]
    for name in FIVE:
        expected = thu.state.players[name].money + _no_doubles_money(sun, name) - fines.get(name, 0)
        assert sun.state.players[name].money == expected, name
    # a vote after the deadline lands in the next update, where the vote is closed
    late = play(sun.state, [mail("dave", f"VOTE {a} NO", received="2026-11-08T09:00:00+00:00")], seed=b"w2t")
    assert texts(late.events, "action") == [
        f'dave: "VOTE {a} NO" was not done: voting on proposal {a} is closed (accepted)']
    assert total_money(late.state) == total_money(state)


def test_all_abstaining_rejects_and_fines_only_the_silent():
    thu = play(new_state(FIVE), [mail("alice", proposal("Idea"))], seed=b"a1")
    sun = play(thu.state, [mail(n, "VOTE 1 ABSTAIN", received=FRI) for n in ("alice", "bob", "carol")], seed=b"a2")
    p = sun.state.proposal(1)
    assert (p.status, p.tally.yes, p.tally.no, p.tally.abstain) == ("rejected", 0, 0, 5)
    assert p.tally.fines == {"dave": 100, "erin": 100}
    assert _cards_from_votes(sun) == {}


def test_a_sent_back_proposal_can_be_resubmitted_for_the_next_vote():
    thu = play(new_state(FIVE), [mail("bob", proposal("Unclear"))], seed=b"s1")
    sun = play(thu.state, [mail("bob", proposal("Clear now", "Rent on square 5 is $1."), received=FRI)],
               rulings=[Ruling("send-back", {"proposal": 1}, "say which square")], seed=b"s2")
    first, second = sun.state.proposal(1), sun.state.proposal(2)
    assert first.status == "sent back" and first.note == "resubmitted as proposal 2; say which square"
    assert (second.status, second.week) == ("open", 2)
    assert sun.state.proposal(1).tally is None  # a sent-back proposal is not tallied
    week2 = play(sun.state, seed=b"s3")
    assert week2.state.proposal(2).status == "voting"


def test_a_second_resubmission_outside_the_proposal_period_is_refused():
    thu = play(new_state(FIVE), [mail("bob", proposal("Unclear"))], seed=b"s1")
    sun = play(thu.state, [mail("bob", proposal("Again"), received=FRI),
                           mail("bob", proposal("And again"), received="2026-11-07T10:00:00+00:00")],
               rulings=[Ruling("send-back", {"proposal": 1}, "unclear")], seed=b"s2")
    assert "proposals are taken Monday to Wednesday" in texts(sun.events, "action")[1]


def test_a_withdrawn_proposal_is_not_tallied():
    thu = play(new_state(FIVE), [mail("bob", proposal("Oops"))], seed=b"x1")
    sun = play(thu.state, [mail("bob", "WITHDRAW 1", received=FRI), mail("alice", "WITHDRAW 1", received=FRI)],
               seed=b"x2")
    assert sun.state.proposal(1).status == "withdrawn"
    [refused] = [e.text for e in sun.events if e.kind == "action" and e.player == "alice"]
    assert refused == 'alice: "WITHDRAW 1" was not done: you have no proposal 1 to withdraw'
    assert not [e for e in sun.events if e.kind == "fine"]


def _nomopoly1(players=FIVE):
    state = new_state(players)
    for m in state.modules:
        if m.name == "proposals":
            m.params.update(NOMOPOLY1_VOTING)
    return state


def test_first_nomopoly_the_admin_votes_and_the_proposer_earns_100():
    thu = play(_nomopoly1(), [mail("alice", proposal("Idea"))], seed=b"n1")
    sun = play(thu.state, [mail("alice", "VOTE 1 YES", received=FRI), mail("bob", "VOTE 1 NO", received=FRI),
                           mail("carol", "VOTE 1 NO", received=FRI), mail("dave", "VOTE 1 YES", received=FRI),
                           mail("erin", "VOTE 1 ABSTAIN", received=FRI)],
               rulings=[Ruling("vote", {"proposal": 1, "choice": "yes"}, "")], seed=b"n2")
    p = sun.state.proposal(1)
    assert (p.status, p.tally.yes, p.tally.no, p.tally.abstain) == ("accepted", 3, 2, 1)
    assert p.tally.money == {"alice": 100}
    assert p.tally.cards_to == []


def test_first_nomopoly_a_rejected_proposal_costs_10():
    thu = play(_nomopoly1(), [mail("alice", proposal("Idea"))], seed=b"n1")
    sun = play(thu.state, [mail(n, "VOTE 1 NO", received=FRI) for n in ("bob", "carol", "dave", "erin")]
               + [mail("alice", "VOTE 1 YES", received=FRI)], seed=b"n2")
    assert sun.state.proposal(1).tally.money == {"alice": -10}


def test_first_nomopoly_over_a_third_abstaining_voids_the_reward():
    thu = play(_nomopoly1(), [mail("alice", proposal("Idea"))], seed=b"n1")
    sun = play(thu.state, [mail("alice", "VOTE 1 YES", received=FRI), mail("bob", "VOTE 1 ABSTAIN", received=FRI),
                           mail("carol", "VOTE 1 YES", received=FRI), mail("dave", "VOTE 1 ABSTAIN", received=FRI),
                           mail("erin", "VOTE 1 NO", received=FRI)], seed=b"n2")
    p = sun.state.proposal(1)
    assert p.status == "accepted" and p.tally.money == {}
    assert p.tally.note.startswith("more than 1/3 of the players abstained")


def test_first_nomopoly_when_most_abstain_each_other_voter_gets_50():
    thu = play(_nomopoly1(), [mail("alice", proposal("Idea"))], seed=b"n1")
    sun = play(thu.state, [mail("alice", "VOTE 1 YES", received=FRI), mail("bob", "VOTE 1 NO", received=FRI),
                           mail("carol", "VOTE 1 ABSTAIN", received=FRI)], seed=b"n2")
    p = sun.state.proposal(1)
    assert (p.tally.abstain, p.tally.fines) == (3, {"dave": 100, "erin": 100})
    assert p.tally.money == {"alice": 50, "bob": 50, "dave": -100, "erin": -100}


def test_extra_votes_count_but_never_more_than_the_other_players():
    state = new_state(["alice", "bob", "carol"])
    thu = play(state, [mail("bob", proposal("Idea"))], seed=b"e1")
    sun = play(thu.state, [mail("alice", "VOTE 1 YES", received=FRI), mail("bob", "VOTE 1 NO", received=FRI),
                           mail("carol", "VOTE 1 NO", received=FRI)],
               rulings=[Ruling("grant-votes", {"player": "alice", "extra": 5}, "lottery prize")], seed=b"e2")
    p = sun.state.proposal(1)
    assert p.votes["alice"].weight == 2  # capped at the two other players (VIII.4)
    assert (p.tally.yes, p.tally.no, p.status) == (2, 2, "rejected")


def test_a_pause_stops_turns_and_player_proposals_until_the_admins_fix_is_accepted():
    state = new_state(FIVE)
    paused = play(state, [mail("alice", proposal("Mine"))],
                  rulings=[Ruling("pause", {}, "an infinite loop"),
                           Ruling("propose", {"title": "Fix", "text": "REPEAL XIV.6"}, "")], seed=b"p1")
    assert paused.state.paused and not texts(paused.events, "roll")
    assert "the game is paused" in texts(paused.events, "action")[0]
    assert paused.state.proposal(1).proposer == "Admin" and paused.state.proposal(1).status == "voting"
    fixed = play(paused.state, [mail(n, "VOTE 1 YES", received=FRI) for n in FIVE[:3]], seed=b"p2")
    assert fixed.state.proposal(1).status == "accepted"
    assert not fixed.state.paused and texts(fixed.events, "unpaused")
    assert "XIV.6" not in {r.id for r in fixed.state.rules.rules()}


def test_directives_are_parsed_with_their_text():
    ds = parse_directives("Why: rent is too low.\n\nAMEND VI.9: Rent is 4 times\nthe number.\n\nREPEAL XIV.6\n"
                          "ADD SECTION Free Parking\nADD RULE XVI: Square 1 pays $200.\nRENUMBER")
    assert [(d.kind, d.target, d.text) for d in ds] == [
        ("amend", "VI.9", "Rent is 4 times\nthe number."), ("repeal", "XIV.6", ""),
        ("add-section", "Free Parking", ""), ("add-rule", "XVI", "Square 1 pays $200."), ("renumber", "", "")]


def test_a_proposal_with_an_impossible_directive_is_refused_with_the_reason(tmp_path):
    from admin.games.catalog import spec
    from admin.nomic.ruleset import load_ruleset

    state = new_state(FIVE)
    state.rules = load_ruleset(spec("nomopoly2").rules_dir)
    result = play(state, [mail("alice", "PROPOSE Bad\nAMEND VI.99: text\nEND")], seed=b"d1")
    assert "no rule 'VI.99'; section VI has rules VI.1–VI.18" in texts(result.events, "action")[0]
    assert result.state.proposals == []


def test_precedence_explicit_deference_first_then_the_older_form():
    from admin.games.catalog import spec
    from admin.engine.model import RuleRevision
    from admin.nomic.ruleset import load_ruleset

    state = new_state()
    state.rules = load_ruleset(spec("nomopoly2").rules_dir)
    assert precedence(state, "VI.9", "XIV.4")[0] is None  # same age, no deference: the Admin decides
    state.rule_history["XIV.4"] = [RuleRevision(1, "created", 0, 0), RuleRevision(2, "amended", 5, 3, 7)]
    assert precedence(state, "VI.9", "XIV.4")[0] == "VI.9"
    state.rules.rule("XIV.4").text += " This rule has precedence over VI.9."
    assert precedence(state, "VI.9", "XIV.4") == ("XIV.4", "XIV.4 states that it has precedence over VI.9 (I.3)")
