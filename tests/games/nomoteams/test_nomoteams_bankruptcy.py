"""IV.5 Bankruptcy in a large Team: the standing ruling's shares, and that a settlement always
ends, in work bounded by the players, under the default and the literal reading (the scenario
files tests/games/nomoteams/scenarios/iv5-*.yaml give the exact money of small cases)."""

from __future__ import annotations

import pytest

from admin.engine.context import UpdateContext
from admin.games.registry import REGISTRY
from admin.games.nomoteams.mechanics.money import settle_bankrupts, shares_of
from admin.jobs.scenario import setup

GAME = "nomoteams"
LITERAL = {"shares": "rounded_up", "broke_teammates_pay": True, "team_helps_payer": True}


def test_exact_shares_add_up_to_the_debt_and_the_richest_pay_the_extra_dollars():
    money = {"bob": 950, "carol": 1950, "erin": 450}
    assert shares_of(50, ["bob", "carol", "erin"], money, "exact") == {"bob": 17, "carol": 17, "erin": 16}
    assert shares_of(1, ["bob", "carol", "erin"], money, "exact") == {"bob": 0, "carol": 1, "erin": 0}
    assert shares_of(39, ["bob", "carol"], {"bob": 5, "carol": 5}, "exact") == {"bob": 20, "carol": 19}
    assert shares_of(39, ["bob", "carol"], money, "rounded_up") == {"bob": 20, "carol": 20}


def _team_of_paupers(params: dict, size: int = 40):
    """One Team: a debtor $1 short, one rich Teammate, the rest with $0."""
    players = {f"m{i:02d}": {"team": "North", "money": 0} for i in range(size)}
    players["m00"]["money"] = -1
    players["m01"]["money"] = 1000
    players["zed"] = {"team": "South"}
    state = setup({"game": GAME, "players": players, "params": {"teams-money": params}}, "iv5")
    for name, p in players.items():  # the board's squares are nobody's: only money settles
        state.players[name].money = p.get("money", 1000)
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner
    from admin.games.nomoteams.mechanics.shared import GOVERNMENT, squares_of
    for name in players:
        for n in squares_of(state, name):
            set_owner(state, n, GOVERNMENT)
    ctx = UpdateContext(state=state, dice=None, slot=None, registry=REGISTRY)  # type: ignore[arg-type]
    return state, ctx


def test_a_dollar_owed_among_forty_paupers_is_paid_by_the_one_with_money():
    state, ctx = _team_of_paupers({})
    settle_bankrupts(ctx)
    money = {n: p.money for n, p in state.players.items()}
    assert money["m00"] == 0 and money["m01"] == 999
    assert all(money[f"m{i:02d}"] == 0 for i in range(2, 40))
    assert [e.text for e in ctx.events if e.kind == "bankrupt"] == [
        "m00 was Bankrupt by $1: the North Team paid it, $1 from m01 (IV.5)."]


@pytest.mark.parametrize("size", [10, 40])
def test_the_literal_reading_ends_with_nobody_below_zero_and_each_helped_once(size):
    state, ctx = _team_of_paupers(LITERAL, size)
    settle_bankrupts(ctx)
    assert all(p.money >= 0 for p in state.players.values())
    helped = [e.player for e in ctx.events if e.kind == "bankrupt" and "Team paid it" in e.text]
    assert len(helped) == len(set(helped)) <= size
    assert sum(p.money for n, p in state.players.items() if n != "zed") >= 999  # money only written off, never lost
