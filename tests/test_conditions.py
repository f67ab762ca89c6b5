"""The conditions several of Nomopoly II's later sections share: granted for updates or for weeks,
lapsing after their last update, public ones shown to all and the rest only to their holder."""

from fixtures.games import new_state, play

from admin.engine.events import Ruling
from admin.games.registry import REGISTRY
from admin.games.nomopoly2.mechanics.conditions import clear, grant, grant_weeks
from admin.games.nomopoly2.mechanics.shared import has_condition


def _game():
    state = play(new_state(("alice", "bob")), rulings=[Ruling("enable", {"module": "conditions"}, "test")]).state
    state.paused = True
    return state


def test_a_condition_for_updates_lapses_after_its_last_update():
    state = _game()
    grant(state, "alice", "passed-out", state.update + 1)  # through the next update
    assert has_condition(state, "alice", "passed-out")
    assert not has_condition(play(state).state, "alice", "passed-out")


def test_a_condition_for_weeks_holds_to_the_end_of_its_last_week():
    state = _game()
    assert (state.update, state.week) == (1, 1)  # two updates a week: week 2 ends with update 4
    grant_weeks(state, "bob", "terrorist", state.week + 1)
    for _ in range(2, 4):
        state = play(state).state
        assert has_condition(state, "bob", "terrorist"), (state.week, state.update)
    state = play(state).state
    assert (state.update, has_condition(state, "bob", "terrorist")) == (4, False)


def test_a_shorter_grant_keeps_the_longer_one_and_clear_ends_it():
    state = _game()
    grant(state, "alice", "infected", 0)
    grant(state, "alice", "infected", state.update)
    assert has_condition(play(play(state).state).state, "alice", "infected")
    clear(state, "alice", "infected")
    assert not has_condition(state, "alice", "infected")


def test_public_conditions_are_facts_and_private_ones_are_not():
    state = _game()
    grant(state, "alice", "terrorist", 0)
    grant(state, "alice", "rent-immunity", 0)
    module = REGISTRY.get("conditions")
    public = {f.key: f.value for f in module.player_facts(state, state.players["alice"])}
    assert public == {"conditions": "terrorist"}
    assert [f.value for f in module.private_facts(state, state.players["alice"])] == [["rent-immunity"]]
