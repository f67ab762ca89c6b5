"""No proposal can stop the game through a parameter (issue 30): every parameter of every bundled
mechanic has a type and bounds, a proposal whose SET could not be carried out is refused when it is
proposed, and any value a proposal could set either is refused or leaves the next update finishing."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admin.engine.errors import RuleError
from admin.engine.params import MAX_INT, check_param
from admin.games.catalog import available, initial_state
from admin.games.registry import REGISTRY
from admin.jobs.scenario import ScenarioError, run

PLAYERS = ["alice", "bob", "carol"]
NINES = "9" * 4299


@pytest.mark.parametrize("line, why", [
    ('SET ownership rent_per_number "²"', 'ownership.rent_per_number is a whole number in digits (like 3), not'),
    ("SET turns moves_per_update 100000000", "turns.moves_per_update is a whole number from 0 to 10, not 100000000"),
    ("SET turns dice {foot: 100000000d100000000}", "turns.dice: dice are written like 2d6, not '100000000d100000000'"),
    ("SET turns dice {foot: 99d6}", "turns.dice: dice are 1 to 10 dice of 2 to 1000 sides, not '99d6'"),
    (f"SET turns pass_bonus {NINES}", "turns.pass_bonus is a whole number from 0 to 1,000,000,000, not 999"),
    ('SET board columns "0"', "board.columns is a whole number from 1 to 100, not '0'"),
    ("SET schedule slots []", "schedule.slots: a week has 1 to 7 updates"),
    ("SET turns dice {foot: banana}", "turns.dice: dice are written like 2d6, not 'banana'"),
    ("SET ownership name_max_length -5", "ownership.name_max_length is a whole number from 0 to 1,000,000,000, not -5"),
])
def test_a_proposal_whose_setting_would_break_the_game_is_refused_when_proposed(line, why):
    data = {"game": "nomopoly2", "players": PLAYERS, "updates": [
        {"mail": {"alice": f"PROPOSE Break it\n{line}\nEND\n"}, "order": PLAYERS, "dice": [1, 2] * 3},
        {"order": PLAYERS, "dice": [1, 2] * 3},  # and the game goes on
    ]}
    outcome = run(data, "hostile")
    refused = [e.text or e.private or "" for e in outcome.events if e.ok is False]
    assert any("the proposal's directive cannot be carried out" in t and why in t for t in refused), refused
    assert outcome.state is not None and outcome.state.update == 2 and not outcome.state.proposals


def test_a_unicode_digit_is_not_a_whole_number():
    with pytest.raises(RuleError, match="whole number in digits"):
        check_param(REGISTRY.get("ownership"), "ownership", "rent_per_number", "²")
    assert check_param(REGISTRY.get("ownership"), "ownership", "rent_per_number", "4") == 4


def _params_of(game: str) -> list[tuple[str, str, object]]:
    state = initial_state(game, "g")
    return [(m.name, key, default) for m in state.modules for key, default in REGISTRY.get(m.name).defaults.items()]


GAMES = available()
PARAMS = {game: _params_of(game) for game in GAMES}

hostile_values = st.one_of(
    st.integers(min_value=-10**12, max_value=10**12),
    st.sampled_from([0, 1, 2, 10, 11, 100, 101, 1000, MAX_INT, MAX_INT + 1, -1, 10**100]),
    st.text(max_size=30),
    st.sampled_from(["²", "0", " 7 ", "1e9", "-0", "true", "2d6", "100000d100000", "d", "", "\x1b[31m", "‮x"]),
    st.booleans(),
    st.none(),
    st.lists(st.one_of(st.integers(-5, 10**6), st.text(max_size=5)), max_size=5),
    st.dictionaries(st.text(max_size=8), st.one_of(st.integers(-5, 10**6), st.text(max_size=8)), max_size=4),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_value_a_proposal_could_set_is_refused_or_the_next_update_finishes(data):
    game = data.draw(st.sampled_from(GAMES))
    module, key, default = data.draw(st.sampled_from(PARAMS[game]))
    value = data.draw(st.one_of(hostile_values, st.just(default)))
    try:
        check_param(REGISTRY.get(module), module, key, value)
    except RuleError:
        return  # refused, with the reason: the game is as it was
    scenario = {"game": game, "players": PLAYERS, "params": {module: {key: value}}, "updates": [
        {"seed": 7, "mail": {"alice": "PROPOSE Tidy\nADD RULE I: Be kind.\nEND\n"}},
        {"seed": 8, "mail": {"bob": "VOTE 1 YES", "carol": "VOTE 1 NO"}},  # a tally, where there are votes
    ]}
    started = time.perf_counter()
    try:
        outcome = run(scenario, f"{game} {module}.{key}={value!r}")
    except ScenarioError as exc:  # refused by the scenario's own setup (a module it needs is off ...)
        assert "Traceback" not in str(exc)
        return
    assert time.perf_counter() - started < 10, f"{module}.{key}={value!r} took too long"
    assert outcome.state is not None and outcome.state.update == 2


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_games_own_settings_are_within_their_bounds(game):
    state = initial_state(game, "g")
    for config in state.modules:
        mechanic = REGISTRY.get(config.name)
        for key, value in config.params.items():
            check_param(mechanic, config.name, key, value)  # raises, naming it, if one is out of bounds


def test_every_default_lies_within_its_own_bounds():
    """A default outside its bounds (Timopoly's max_throws 50 under a maximum of 10, the Zoo's
    elephant_rerolls 100 under 10) made a proposal to set the game's own value refused."""
    for name in sorted(REGISTRY.known):
        mechanic = REGISTRY.get(name)
        for key, value in mechanic.defaults.items():
            check_param(mechanic, name, key, value)  # raises, naming it, if one is out of bounds


#: every whole-number parameter that sets how many times an update loops or how much it makes
#: (issue 30's audit of the library's and the games' mechanics), with the most it may be: a
#: proposal may set any value up to it and the update stays bounded (bench/bench_params.py)
WORK_PARAMS = {
    ("turns", "moves_per_update"): 10, ("turns", "max_turns_in_a_row"): 100,
    ("board", "squares_per_pass"): 100, ("board", "max_squares"): 10_000, ("board", "initial_squares"): 1000,
    ("teams-board", "initial_squares"): 1000, ("blob", "green_squares"): 100, ("blob", "max_squares"): 10_000,
    ("cash-stacks", "stacks"): 100, ("dirty-bubble", "moves_per_week"): 10,
    ("proposals", "card_to_proposer"): 10, ("proposals", "card_per_yes_vote"): 10,
    ("teams-wetha", "dice_per_roll"): 10, ("timo-board", "max_throws"): 50,
    ("zoo", "elephant_rerolls"): 100, ("zoo", "crazy_elephant_turns"): 100, ("zoo", "gorilla_peels"): 100,
    ("zoo", "bison_dice"): 10, ("zoo", "bison_sides"): 1000, ("zoo", "skunk_dice_sides"): 1000,
    ("zoo", "max_chain"): 100, ("zoo", "gorilla_die"): 1000, ("buildings", "springboard_back"): 100,
    ("weapons", "bomb_reach"): 1000, ("quijibos", "rabid_run"): 1000,
    ("lottery", "numbers"): 100, ("lottery", "line_numbers"): 100, ("lottery", "bonus_line_numbers"): 100,
    ("lottery", "highest"): 1000, ("transport", "drives_per_update"): 10,
}


@pytest.mark.parametrize("module, key", WORK_PARAMS)
def test_a_parameter_that_counts_an_updates_work_has_a_small_maximum(module, key):
    most = WORK_PARAMS[module, key]
    mechanic = REGISTRY.get(module)
    assert check_param(mechanic, module, key, most) == most
    with pytest.raises(RuleError, match=f"is a whole number from .* to {most:,}, not"):
        check_param(mechanic, module, key, most + 1)


def test_a_lottery_asking_more_distinct_numbers_than_there_are_draws_them_all_and_stops():
    """SET lottery numbers 30 with highest 20 (distinct) rolled for ever: every update hung."""
    from admin.games.nomopoly2.mechanics.lottery import _numbers

    rolls = iter(range(100_000))

    def roll(label: str, sides: int) -> int:
        n = next(rolls)
        assert n < 10_000, "rolled for ever"
        return n % sides + 1

    assert _numbers(roll, "draw", 30, 20, True) == list(range(1, 21))
    assert _numbers(roll, "draw", 3, 20, False) == [1, 2, 3]
