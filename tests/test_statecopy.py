"""The copy of the state an update starts from (admin/engine/statecopy.py): equal to a deepcopy,
sharing nothing an update may change, and sharing what never changes (the rules, a table's rows)."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from admin.engine.model import GameState
from admin.engine.statecopy import copy_state
from admin.games.catalog import available, initial_state
from admin.jobs import roster
from admin.library.cards import BuriedCard, CardsModule
from fixtures.games import play

ATOMIC = (int, str, bool, float, bytes, type(None))


def played(game: str, updates: int = 3) -> GameState:
    state = initial_state(game, "copy test")
    for name in ("alice", "bob", "carol"):
        roster.add_player(state, name, f"{name}@example.org")
    for n in range(updates):
        state = play(state, seed=f"copy-{n}".encode()).state
    return state


def shared_changeables(a: Any, b: Any, path: str, seen: set[int]) -> list[str]:
    """Where the copy ``b`` is the very object ``a`` that an update could change in place."""
    if isinstance(a, ATOMIC) or id(a) in seen:
        return []
    seen.add(id(a))
    frozen = dataclasses.is_dataclass(a) and a.__dataclass_params__.frozen  # type: ignore[union-attr]
    out = [path] if a is b and not frozen and not isinstance(a, tuple) else []
    if isinstance(a, dict):
        for k in a:
            out += shared_changeables(a[k], b[k], f"{path}[{k!r}]", seen)
    elif isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            out += shared_changeables(x, y, f"{path}[{i}]", seen)
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            out += shared_changeables(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", seen)
    return out


@pytest.mark.parametrize("game", available())
def test_the_copy_equals_a_deepcopy_and_shares_nothing_an_update_changes(game):
    state = played(game)
    copied = copy_state(state)
    assert copied == state == copy.deepcopy(state)
    rules = {id(state.rules)} | {id(r) for revisions in state.rule_history.values() for r in revisions}
    # what a mechanic's own __deepcopy__ keeps shared (settled interactions: admin/engine/settled.py)
    its_own = shared_changeables(state, copy.deepcopy(state), "state", set(rules))
    assert set(shared_changeables(state, copied, "state", set(rules))) <= set(its_own)
    assert len(shared_changeables(state, state, "state", set(rules))) > 20  # (the check sees the state)
    assert copied.rules is state.rules  # never changed in place: a change makes a new Ruleset


def test_a_change_to_the_copy_leaves_the_state_as_it_was():
    state = played("nomopoly2")
    copied = copy_state(state)
    before = copy.deepcopy(state)
    player = next(iter(copied.players.values()))
    player.money += 1000
    copied.modules[0].params["changed"] = True
    copied.proposals.append(copied.proposals[0] if copied.proposals else None)  # type: ignore[arg-type]
    for revisions in copied.rule_history.values():
        revisions.append(revisions[-1])
    assert state == before


def test_a_tables_rows_are_shared_and_its_list_is_new():
    state = played("nomopoly2", updates=1)
    buried = CardsModule.private_of(state).buried
    buried.extend(BuriedCard(update=1, square=n, player="alice", card="5H") for n in range(1, 4))
    copied = CardsModule.private_of(copy_state(state)).buried
    assert copied == buried and copied is not buried
    assert all(a is b for a, b in zip(copied, buried))
    copied.append(BuriedCard(update=2, square=9, player="bob", card="KS"))
    assert len(buried) == 3
