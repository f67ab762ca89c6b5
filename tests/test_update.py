"""admin/engine/update.py: the copy of the state an update starts from, and XXII.4 in the core
(``undo_failed_actions``): the snapshot taken before an action and what a failed action leaves. A
Teams game (whose module asks for the undo), with the Taxi's handler swapped, for each test only,
for one that changes things and then fails."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from admin.engine import update
from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.schedule import Slot
from admin.engine.update import LineCommand, Submission, _do, run_update
from admin.engine.errors import IllegalAction
from admin.games.registry import REGISTRY
from admin.games.nomoteams.mechanics.easy_movement import EasyMove
from admin.engine.model import GameState, RuleRevision
from admin.jobs.scenario import setup

SUB = Submission("k", "alice", "a@x", "2026-01-01T00:00:00+00:00")


def _ctx() -> UpdateContext:
    state = setup({"game": "nomoteams", "players": {"alice": {"team": "North", "square": 1}}}, "t")
    return UpdateContext(state=state, dice=Dice(seed=b"x", digest="t", update=1), slot=Slot("Sunday", 0),
                         registry=REGISTRY)


@contextmanager
def _taxi(ctx: UpdateContext, handler: Callable[..., Any]) -> Iterator[None]:
    table = ctx.registry.command_table(ctx.state)
    module, spec = table["teams-easy-move"]
    table["teams-easy-move"] = (module, replace(spec, handler=handler))
    try:
        yield
    finally:
        table["teams-easy-move"] = (module, spec)


def _taxi_to_5(ctx: UpdateContext, clean: list[Any]) -> None:
    _do(ctx, "alice", SUB, LineCommand(1, "TAXI! 5", EasyMove("taxi", 5)), clean)


def _everything(ctx: UpdateContext) -> tuple[GameState, dict[str, Any]]:
    """A copy of the state (its rules and their history too) and the scratch, to compare."""
    return copy.deepcopy((ctx.state, {k: v for k, v in ctx.scratch.items() if k != "received"}))


def _revision(update_no: int) -> RuleRevision:
    return RuleRevision(rev=99, action="amended", update=update_no, week=1, text="changed")


def test_a_failed_action_that_added_to_a_rules_history_leaves_the_history_as_it_was():
    ctx = _ctx()
    rule = next(iter(ctx.state.rule_history))
    before = _everything(ctx)
    lengths = {k: len(v) for k, v in ctx.state.rule_history.items()}

    def amends_then_fails(ctx, player, cmd):
        ctx.state.rule_history[rule].append(_revision(1))
        ctx.state.rule_history["XCIX.1"] = [_revision(1)]
        player.money -= 5
        raise IllegalAction("the amendment was not allowed")

    with _taxi(ctx, amends_then_fails):
        _taxi_to_5(ctx, [None])
    assert {k: len(v) for k, v in ctx.state.rule_history.items()} == lengths
    assert _everything(ctx) == before


def test_a_failed_action_that_replaced_a_rules_history_with_one_as_long_is_undone():
    ctx = _ctx()
    rule = next(iter(ctx.state.rule_history))
    kept = list(ctx.state.rule_history[rule])

    def rewrites_then_fails(ctx, player, cmd):
        ctx.state.rule_history[rule] = [_revision(7) for _ in kept]
        raise IllegalAction("history is not to be rewritten")

    with _taxi(ctx, rewrites_then_fails):
        _taxi_to_5(ctx, [None])
    assert ctx.state.rule_history[rule] == kept


def test_a_failed_action_that_changed_nothing_leaves_its_snapshot_to_the_next_action(monkeypatch):
    ctx = _ctx()
    taken: list[int] = []
    real = update._snapshot
    monkeypatch.setattr(update, "_snapshot", lambda state, scratch: taken.append(1) or real(state, scratch))

    def fails(ctx, player, cmd):
        raise IllegalAction("no taxi today")

    clean: list[Any] = [None]
    with _taxi(ctx, fails):
        _taxi_to_5(ctx, clean)
        _taxi_to_5(ctx, clean)
    # the first action's snapshot, and one after each failure to see that nothing changed
    assert len(taken) == 3 and clean[0] is not None


def test_two_failed_actions_in_a_row_that_changed_things_are_both_undone():
    ctx = _ctx()
    rule = next(iter(ctx.state.rule_history))
    before = _everything(ctx)
    money = ctx.state.players["alice"].money

    def changes_then_fails(ctx, player, cmd):
        ctx.state.rule_history[rule].append(_revision(2))
        ctx.scratch["taxi"] = ctx.scratch.get("taxi", 0) + 1
        player.money -= 40
        player.square = 5
        raise IllegalAction("the Taxi broke down")

    clean: list[Any] = [None]
    with _taxi(ctx, changes_then_fails):
        _taxi_to_5(ctx, clean)
        _taxi_to_5(ctx, clean)
    assert ctx.state.players["alice"].money == money and ctx.state.players["alice"].square == 1
    assert "taxi" not in ctx.scratch and _everything(ctx) == before
    assert [e.ok for e in ctx.events] == [False, False]


def test_an_update_shares_the_rules_and_their_revisions_but_not_the_history_lists():
    state = _ctx().state
    before = copy.deepcopy(state)
    result = run_update(state, [], [], Dice(seed=b"x", digest="t", update=state.update + 1), REGISTRY)
    rule = next(iter(state.rule_history))
    assert result.state.rules is state.rules and result.state.players is not state.players
    assert result.state.rule_history[rule] is not state.rule_history[rule]
    assert all(map(lambda a, b: a is b, result.state.rule_history[rule], state.rule_history[rule]))
    result.state.rule_history[rule].append(_revision(9))
    result.state.players["alice"].money += 1
    assert state == before


def test_a_failed_action_that_closed_an_interaction_is_undone():
    from admin.engine.interactions import SealedAnswers, close, open_interaction

    ctx = _ctx()
    inter = ctx.state.mods["interactions"]
    open_interaction(inter, kind="offer", module="m", update=1, deadline=3, parties=["alice"], silence="decline")
    before = _everything(ctx)

    def closes_then_fails(ctx, player, cmd):
        close(ctx.state.mods["interactions"], SealedAnswers(), ctx.state.mods["interactions"].open[0], "declined")
        raise IllegalAction("too late")

    clean: list[Any] = [None]
    with _taxi(ctx, closes_then_fails):
        _taxi_to_5(ctx, clean)
        _taxi_to_5(ctx, clean)  # snapshotted anew: the state put back
    assert _everything(ctx) == before and ctx.state.mods["interactions"].open[0].status == "open"
