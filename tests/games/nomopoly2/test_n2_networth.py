"""Nomopoly II XXX, net worth: money (the engine), squares (ownership), the bank account and the
credit card (their sections), and here: $10 a point of health, $10 x each card's value, a
proposal's Yes votes ($10 each), acceptance ($100), unanimity ($100), Nonsense ($25), less $100 a
polluted square, $1000 passed out, $1000 infected, $1500 a reset, $2500 a terrorist."""

from fixtures.games import mail, new_state, play, texts

from admin.engine.events import Ruling
from admin.games.registry import REGISTRY
from admin.library.board import set_polluted
from admin.library.cards import set_hand
from admin.library.health import set_health
from admin.games.nomopoly2.mechanics.conditions import grant, grant_weeks
from admin.games.nomopoly2.mechanics.networth import NetWorthModule, terms
from admin.library.ownership import set_owner

PLAYERS = ("alice", "bob", "carol")


def worth_game(*more: str):
    modules = ("net-worth", *more)
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": m}, "test") for m in modules]).state
    state.paused = True
    return state


def proposed(*mails):
    """Week 1's Thursday: net worth switched on and these proposals made (voted on by Sunday)."""
    return play(new_state(PLAYERS), list(mails), rulings=[Ruling("enable", {"module": "net-worth"}, "t")],
                seed=b"p")


def test_health_cards_resets_and_polluted_squares():
    state = worth_game()
    alice = state.players["alice"]
    set_health(state, "alice", 80)
    set_hand(state, "alice", ["AS", "10H", "KD", "2C"])  # 11 + 10 + 10 + 2 = 33
    REGISTRY.get("health").set_player(state, alice, "resets", 1)
    set_owner(state, 6, "alice")
    set_polluted(state, 6)
    set_polluted(state, 7)  # nobody's
    assert dict(terms(state, alice)) == {"health": 800, "resets": -1500, "cards": 330, "yes_votes": 0,
                                         "accepted": 0, "unanimous": 0, "nonsense": 0, "polluted": -100,
                                         "passed_out": 0, "infected": 0, "terrorist": 0}
    # money 10000 + square 6 at $150 (ownership) + 800 - 1500 + 330 - 100
    assert REGISTRY.net_worth(state, alice) == 10000 + 150 + 800 - 1500 + 330 - 100


def test_without_xxx_in_force_net_worth_is_money_and_squares():
    state = play(new_state(PLAYERS)).state
    set_owner(state, 6, "alice")
    assert REGISTRY.net_worth(state, state.players["alice"]) == 10150


def test_passed_out_infected_and_terrorist_take_their_amounts_off():
    state = worth_game("conditions")
    grant(state, "alice", "passed-out", state.update + 1)
    grant(state, "alice", "infected", 0)
    grant_weeks(state, "alice", "terrorist", state.week + 1)
    grant(state, "bob", "rent-immunity", 0)  # not a term of XXX.1
    assert REGISTRY.net_worth(state, state.players["alice"]) == 10000 + 1000 - 1000 - 1000 - 2500
    assert REGISTRY.net_worth(state, state.players["bob"]) == 10000 + 1000


def test_a_proposals_yes_votes_acceptance_and_unanimity_count_for_its_proposer():
    made = proposed(mail("alice", "PROPOSE Free parking\nSquare 1 is free parking.\nEND"),
                    mail("bob", "PROPOSE Two\nSomething else.\nEND"))
    voted = play(made.state, [mail("alice", "VOTE 1 YES\nVOTE 2 NO"), mail("bob", "VOTE 1 YES\nVOTE 2 YES"),
                              mail("carol", "VOTE 1 YES\nVOTE 2 NO")], seed=b"v")
    after = voted.state
    assert [p.status for p in after.proposals] == ["accepted", "rejected"]
    assert {k: v for k, v in terms(after, after.players["alice"]) if k in ("yes_votes", "accepted", "unanimous")} \
        == {"yes_votes": 30, "accepted": 100, "unanimous": 100}
    assert {k: v for k, v in terms(after, after.players["bob"]) if k in ("yes_votes", "accepted", "unanimous")} \
        == {"yes_votes": 10, "accepted": 0, "unanimous": 0}
    # the records outlive the proposals' leaving the live state
    later = play(play(after, seed=b"x").state, seed=b"y").state
    assert [p.number for p in later.proposals] == [1]  # 2 left; 1 awaits the Admin (free text)
    assert sorted(NetWorthModule.of(later).proposals) == [1, 2]
    assert dict(terms(later, later.players["alice"]))["unanimous"] == 100


def test_an_accepted_proposal_with_a_no_vote_is_not_unanimous():
    made = proposed(mail("carol", "PROPOSE Close\nA close one.\nEND"))
    voted = play(made.state, [mail("alice", "VOTE 1 YES"), mail("bob", "VOTE 1 NO"), mail("carol", "VOTE 1 YES")],
                 seed=b"v")
    assert voted.state.proposals[0].status == "accepted"
    got = dict(terms(voted.state, voted.state.players["carol"]))
    assert (got["yes_votes"], got["accepted"], got["unanimous"]) == (20, 100, 0)


def test_the_admin_rules_a_proposal_into_nonsense_worth_25_dollars():
    made = proposed(mail("bob", "PROPOSE Ducks\nThe duck jecieves renforsments.\nEND"))
    voted = play(made.state, [mail(n, "VOTE 1 NO") for n in PLAYERS], seed=b"v")
    ruled = play(voted.state, rulings=[Ruling("nonsense", {"proposal": 1}, "it is nonsense")], seed=b"n")
    assert dict(terms(ruled.state, ruled.state.players["bob"]))["nonsense"] == 25
    assert "Proposal 1 by bob made it into the Nonsense section (XXV), worth $25 to its proposer's net worth " \
           "(XXX.1)." in texts(ruled.events)
    undone = play(ruled.state, rulings=[Ruling("nonsense", {"proposal": 1, "undo": True}, "no")], seed=b"u")
    assert dict(terms(undone.state, undone.state.players["bob"]))["nonsense"] == 0


def test_a_nonsense_ruling_on_an_unknown_proposal_is_refused():
    state = worth_game()
    result = play(state, rulings=[Ruling("nonsense", {"proposal": 9}, "x")])
    assert any("there is no proposal 9" in t for t in texts(result.events))


def test_the_admins_nonsense_command_is_checked_when_given(tmp_path):
    """``nomopoly ruling nonsense N``: refused at once for a proposal the game does not have."""
    import subprocess
    import sys

    from admin.jobs import update as jobs

    game = jobs.init_game(tmp_path / "g", "nomopoly2-full")
    jobs.add_player(game, "bob", "bob@example.org")
    out = subprocess.run([sys.executable, "-m", "admin", "--game", str(game.root), "ruling", "nonsense", "9"],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "there is no proposal 9" in out.stderr, out.stderr
    assert game.pending_rulings() == []


def test_a_railroad_on_ones_square_adds_25_dollars():
    from admin.games.nomopoly2.mechanics.railroads import RailroadsModule

    state = worth_game("railroads")
    set_owner(state, 5, "alice")
    set_owner(state, 6, "bob")
    RailroadsModule.of(state).squares = [5, 6, 15]  # 15: nobody's
    assert dict(terms(state, state.players["alice"]))["railroads"] == 25
    assert REGISTRY.net_worth(state, state.players["alice"]) == 10000 + 125 + 1000 + 25
