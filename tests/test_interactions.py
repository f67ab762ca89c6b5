"""Interactions that span updates, through a small mechanic written for the test: GIFT offers
money to another player, who accepts or declines by the next update (silence: declined); SELL
auctions a square with sealed bids. They use only the generic facility."""

from dataclasses import dataclass
from typing import ClassVar

import pytest

from admin.engine.commands import command_type
from admin.engine.config import enable_module
from admin.engine.context import BANK
from admin.engine.dice import Dice
from admin.engine.interactions import all_consent, auction_winner
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.registry import Registry
from admin.engine.update import LineCommand, Submission, run_update
from admin.engine.errors import IllegalAction
from admin.games.registry import LIBRARY
from admin.library.interactions import Answer, InteractionsModule, ask
from admin.library.ownership import owner_of, set_owner
from fixtures.games import new_state


@command_type
@dataclass(frozen=True)
class Gift:
    to: str
    amount: int
    cmd: ClassVar[str] = "test-gift"


@command_type
@dataclass(frozen=True)
class Sell:
    square: int
    cmd: ClassVar[str] = "test-sell"


class GiftModule(Mechanic[None, None]):
    name = "gift"
    requires = ("interactions",)

    def commands(self):
        return (CommandSpec("GIFT", Gift, _gift, lambda r, _line: None, "GIFT <player> <amount>"),
                CommandSpec("SELL", Sell, _sell, lambda r, _line: None, "SELL <square>"))

    def check_answer(self, ctx, inter, player, value):
        if inter.kind == "auction":
            if not isinstance(value, int):
                raise IllegalAction("an auction takes BID <number> <amount>")
            if value > player.money:
                raise IllegalAction(f"you bid ${value} and have ${player.money}")
        return value

    def resolve_interaction(self, ctx, inter, answers):
        p = inter.payload
        if inter.kind == "offer":
            if answers[p["to"]] != "accept":
                return f"{p['to']} did not accept {inter.proposer}'s gift"
            ctx.transfer(inter.proposer, p["to"], p["amount"], rule="T.1", reason="a gift")
            return f"{p['to']} accepted ${p['amount']} from {inter.proposer}"
        winner, price = auction_winner(answers, tie="dice", dice=ctx.dice, label=f"auction{inter.id}")
        if winner is None:
            return f"no bid for square {p['square']}: not sold"
        ctx.transfer(winner, inter.proposer, price, rule="T.2", reason=f"square {p['square']}")
        set_owner(ctx.state, p["square"], winner)
        return f"{winner} bought square {p['square']} for ${price}"


def _gift(ctx, player, cmd):
    ask(ctx, kind="offer", module="gift", parties=[cmd.to], silence="decline", proposer=player.name,
        payload={"to": cmd.to, "amount": cmd.amount})
    return f"{player.name} offered ${cmd.amount} to {cmd.to}."


def _sell(ctx, player, cmd):
    others = sorted(n for n, p in ctx.state.players.items() if p.active and n != player.name)
    ask(ctx, kind="auction", module="gift", parties=others, silence=0, proposer=player.name,
        payload={"square": cmd.square}, sealed=True, after=2)
    return f"{player.name} put square {cmd.square} up for auction."


REGISTRY = Registry([*LIBRARY, GiftModule])


def _state(players=("alice", "bob", "carol")):
    state = new_state(players)
    enable_module(state, REGISTRY, "gift")
    state.paused = True  # no turns: only the interactions move money
    return state


def _play(state, mails: dict[str, list], seed=b"s"):
    subs = [Submission(key=f"k-{name}", player=name, sender=f"{name}@example.org",
                       received=f"2026-11-04T10:0{i}:00+00:00",
                       commands=[LineCommand(j + 1, str(c), c) for j, c in enumerate(cmds)])
            for i, (name, cmds) in enumerate(mails.items())]
    return run_update(state, subs, [], Dice(seed=seed, digest="t", update=state.update + 1), REGISTRY)


def test_enabling_a_mechanic_enables_what_it_requires():
    state = _state()
    assert [m.name for m in state.modules][-2:] == ["interactions", "gift"]


def test_an_offer_made_in_one_update_and_accepted_in_the_next_is_carried_out_then():
    first = _play(_state(), {"alice": [Gift("bob", 300)]})
    [inter] = InteractionsModule.of(first.state).open
    assert (inter.id, inter.kind, inter.deadline, inter.parties) == (1, "offer", 2, ["bob"])
    assert first.state.players["bob"].money == 10000  # nothing moves before the answer
    second = _play(first.state, {"bob": [Answer(1, "accept")]})
    assert (second.state.players["alice"].money, second.state.players["bob"].money) == (9700, 10300)
    assert "#1 (offer) closed: bob accepted $300 from alice" in [e.text for e in second.events]
    assert InteractionsModule.of(second.state).open == []


def test_silence_is_a_decline_and_a_stranger_may_not_answer():
    first = _play(_state(), {"alice": [Gift("bob", 300)]})
    second = _play(first.state, {"carol": [Answer(1, "accept")]})
    assert second.state.players["bob"].money == 10000
    failed = [e.text for e in second.events if e.kind == "action" and not e.ok]
    assert failed == ['carol: "Answer(number=1, value=\'accept\')" was not done: #1 (offer) is not yours to '
                      "answer; it asks bob"]
    [closed] = InteractionsModule.of(second.state).closed
    assert closed.answers == {"bob": "decline"} and closed.outcome == "bob did not accept alice's gift"


def test_sealed_bids_stay_private_until_the_auction_closes_and_the_highest_wins():
    state = _state()
    set_owner(state, 6, "alice")
    first = _play(state, {"alice": [Sell(6)]})  # open until update 3
    second = _play(first.state, {"bob": [Answer(1, 250)], "carol": [Answer(1, 300)]})
    # between the bids and the close: the bids are in the private part only
    [inter] = InteractionsModule.of(second.state).open
    assert inter.answers == {} and "300" not in repr(InteractionsModule.of(second.state))
    assert InteractionsModule.private_of(second.state).answers == {1: {"bob": 250, "carol": 300}}
    assert all("250" not in (e.text or "") and "300" not in (e.text or "") for e in second.events)
    third = _play(second.state, {})
    assert third.state.players["carol"].money == 9700 and owner_of(third.state, 6) == "carol"
    [closed] = InteractionsModule.of(third.state).closed
    assert closed.answers == {"bob": 250, "carol": 300}  # published at the close
    assert "#1 (auction) closed: carol bought square 6 for $300" in [e.text for e in third.events]


def test_a_bid_over_the_bidders_money_is_refused():
    state = _state()
    set_owner(state, 6, "alice")
    first = _play(state, {"alice": [Sell(6)]})
    second = _play(first.state, {"bob": [Answer(1, 20000)]})
    assert InteractionsModule.private_of(second.state).answers == {}
    assert any("you bid $20000 and have $10000" in e.text for e in second.events if e.text)


def test_auction_ties_and_consent():
    assert auction_winner({"a": 5, "b": 5}, tie="first", order=["b", "a"]) == ("b", 5)
    assert auction_winner({"a": 5, "b": 5}, tie="none") == (None, 0)
    assert auction_winner({"a": 0, "b": "decline"}) == (None, 0)
    winner, price = auction_winner({"a": 5, "b": 5}, dice=Dice(seed=b"x", digest="d", update=1))
    assert winner in ("a", "b") and price == 5
    assert all_consent({"a": "accept", "b": "yes"}) and not all_consent({"a": "accept", "b": "decline"})
    with pytest.raises(ValueError, match="needs the update's dice"):
        auction_winner({"a": 5, "b": 5})


def test_the_bank_is_untouched_by_a_declined_offer():
    state = _state()
    before = state.admin_bank
    first = _play(state, {"alice": [Gift("bob", 300)]})
    second = _play(first.state, {"bob": [Answer(1, "decline")]})
    assert second.state.admin_bank == before and BANK == "@bank"


def test_closed_interactions_are_pickled_once_and_shared_by_a_copy():
    """XXII.4's snapshot pickles the state before every action, and an update starts from a copy:
    the closed interactions (never changed again) go as one blob made once, and a copy shares
    them; an open one is pickled and copied each time, and closing it is in the next pickle."""
    import copy
    import pickle

    from admin.engine.interactions import InteractionsState, SealedAnswers, close, open_interaction
    from admin.engine.settled import KEY

    state = InteractionsState()
    done = open_interaction(state, kind="offer", module="m", update=1, deadline=2, parties=["a"], silence="decline")
    live = open_interaction(state, kind="offer", module="m", update=1, deadline=3, parties=["b"], silence="decline")
    close(state, SealedAnswers(), done, "declined")
    first = pickle.dumps(state, 5)
    again = pickle.loads(first)
    assert again == state and pickle.dumps(again, 5) == first
    twin = copy.deepcopy(state)
    assert twin == state and twin.closed[0] is done and twin.open[0] is not live
    live.answers["b"] = "accept"
    assert pickle.loads(pickle.dumps(state, 5)).open[0].answers == {"b": "accept"}
    close(state, SealedAnswers(), live, "accepted")  # now two closed: the blob is made again
    assert pickle.loads(pickle.dumps(state, 5)) == state and len(state.__dict__[KEY][0]) == 2
    assert twin.open[0].status == "open" and len(twin.closed) == 1
