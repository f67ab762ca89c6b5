"""Rules players add by proposal in the controlled English, carried out as written
(admin/nomic/written.py): from the update after they are accepted, until repealed; bounded; never
a rule it cannot read, nor one made before the mechanic was switched on. The exact numbers of each
kind of rule are scenario files (tests/games/nomopoly2/scenarios/written-rule-*.yaml)."""

from __future__ import annotations

from typing import Any

from admin.jobs.scenario import run
from admin.nomic.written import MAX_FIRINGS

PLAYERS = ["alice", "bob", "carol"]


def _game(rule_lines: str, later: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    """A nomopoly2 game of three in which alice proposes ``rule_lines`` (Thursday) and everyone
    votes Yes (Sunday), then ``later`` updates."""
    return {
        "game": "nomopoly2", "players": PLAYERS, **top,
        "updates": [
            {"mail": {"alice": f"PROPOSE A rule\n{rule_lines}\nEND\n"}, "order": PLAYERS, "dice": [1, 2] * 3},
            {"mail": {p: "VOTE 1 YES" for p in PLAYERS}, "order": PLAYERS, "dice": [1, 2] * 3,
             "draws": ["2S", "3S", "4S", "5S"]},
            *later,
        ],
    }


def _texts(outcome) -> list[str]:
    return [e.text for e in outcome.events if e.text]


def test_a_rule_that_moves_its_player_onto_its_own_trigger_fires_a_bounded_number_of_times():
    data = _game("ADD RULE VI: A player who lands on any square moves forward 1 square.",
                 [{"order": PLAYERS, "dice": [1, 2] * 3}])
    outcome = run(data, "runaway")
    assert outcome.state is not None
    fired = [t for t in _texts(outcome) if t == "alice moves forward 1 squares (rule VI.19)."]
    assert len(fired) == MAX_FIRINGS
    # 7 + 3 = square 10, then one square a firing
    assert outcome.state.players["alice"].square == 10 + MAX_FIRINGS


def test_a_rule_the_language_cannot_read_is_added_but_runs_nothing():
    data = _game("ADD RULE VI: A player who lands on the lowest numbered square dances a jig for $200.",
                 [{"order": PLAYERS, "dice": [5, 6, 1, 2, 1, 2]}, {"order": PLAYERS, "dice": [1, 2] * 3}])
    outcome = run(data, "unreadable")
    texts = _texts(outcome)
    assert "Rule VI.19 was added by proposal 1." in texts
    assert not [e for e in outcome.events if e.kind == "written-rule"]


def test_a_repealed_rule_stops_running_and_an_amended_one_runs_its_new_words():
    landing = {"order": PLAYERS, "dice": [1, 2] * 3}
    data = _game("ADD RULE VI: A player who passes square 12 receives $5.", [
        {**landing, "mail": {"bob": "PROPOSE Dearer\nAMEND VI.19: A player who passes square 12 receives $7.\nEND\n"}},
        {**landing, "mail": {p: "VOTE 2 YES" for p in PLAYERS}, "draws": ["6S", "7S", "8S", "9S"]},
        {**landing, "mail": {"carol": "PROPOSE Gone\nREPEAL VI.19\nEND\n"}},
        {**landing, "mail": {p: "VOTE 3 YES" for p in PLAYERS}, "draws": ["10S", "JS", "QS", "KS"]},
        landing,
    ])
    outcome = run(data, "amend and repeal")
    texts = _texts(outcome)
    # everyone moves 3 an update: 4, 7, 10, 13 (passes 12: $5), 16, 19, 22 -> 2 ...
    assert texts.count("alice receives $5 from the Admin Bank Account (rule VI.19).") == 1
    assert "Rule VI.19 was amended by proposal 2." in texts
    assert "Rule VI.19 was repealed by proposal 3." in texts
    assert not any("$7" in t and "rule VI.19" in t for t in texts)  # it was never passed again while in force
    assert outcome.state is not None and "VI.19" not in {r.id for r in outcome.state.rules.rules()}


def _landing_bonus(**top: Any) -> dict[str, Any]:
    data = _game("ADD RULE VI: A player who lands on any square receives $5.",
                 [{"order": PLAYERS, "dice": [1, 2] * 3}, {"order": PLAYERS, "dice": [1, 2] * 3}], **top)
    if top.get("disable"):  # switched on by the Admin at the first update after the rule was made
        data["updates"][2]["rulings"] = [{"kind": "enable", "args": {"module": "written-rules"}, "note": "on"}]
    return data


def test_a_rule_made_before_the_mechanic_was_switched_on_stays_the_admins():
    made_after = run(_landing_bonus(), "made after")
    assert len([e for e in made_after.events if e.kind == "written-rule"]) == 6  # three players, two updates
    made_before = run(_landing_bonus(disable=["written-rules"]), "made before")
    assert made_before.state is not None and made_before.state.enabled("written-rules")
    assert not [e for e in made_before.events if e.kind == "written-rule"]


def test_rules_coverage_counts_a_running_written_rule_as_automated_by_its_proposal():
    from admin.games.catalog import spec
    from admin.jobs.coverage import coverage

    outcome = run(_landing_bonus(), "coverage")
    assert outcome.state is not None
    row = next(r for r in coverage(outcome.state, spec("nomopoly2")) if r.rule == "VI.19")
    assert (row.status, row.module, row.how) == ("automated", "written-rules", "as written, since proposal 1")


def test_the_proposers_receipt_restates_each_rule_or_names_the_words_it_could_not_read():
    data = {"game": "nomopoly2", "players": PLAYERS, "updates": [
        {"mail": {"alice": "PROPOSE Three rules\n"
                           "ADD RULE VI: A player who passes square 3 receives $5.\n"
                           "ADD RULE VI: A player who lands on square 7 dances a jig.\n"
                           "ADD RULE VI: A player who rolls a total of 5 receives $1.\nEND\n"},
         "order": PLAYERS, "dice": [1, 2] * 3}]}
    said = next(t for t in _texts(run(data, "receipt")) if t.startswith("alice made proposal 1"))
    assert ("The new rule in section VI reads: Whenever a player passes square 3: that player receives $5 "
            "from the Admin Bank Account. If accepted, it runs from the next update.") in said
    assert ("The new rule in section VI is not in the rule language (could not read 'dances a jig.': expected "
            "what happens") in said
    # every trigger and effect of the language now runs (issue 33): a dice total too
    assert ("Whenever a player rolls a total of 5: that player receives $1 from the Admin Bank Account. If "
            "accepted, it runs from the next update.") in said


def test_every_trigger_and_effect_the_language_reads_is_one_the_mechanic_runs():
    from typing import get_args

    from admin.nomic.rulelang.model import EffectKind, TriggerKind
    from admin.nomic.written import RUNS_EFFECTS, RUNS_TRIGGERS

    assert RUNS_TRIGGERS == set(get_args(TriggerKind))
    assert RUNS_EFFECTS == set(get_args(EffectKind))


def test_an_amend_of_one_of_the_games_own_rules_is_not_restated_as_a_written_rule():
    data = {"game": "nomopoly2", "players": PLAYERS, "updates": [
        {"mail": {"alice": "PROPOSE Dearer\nAMEND VI.9: A player who lands on square 7 receives $5.\nEND\n"},
         "order": PLAYERS, "dice": [1, 2] * 3}]}
    said = next(t for t in _texts(run(data, "own rule")) if t.startswith("alice made proposal 1"))
    # not read as a written rule; VI.9 states ownership.rent_per_number, and this changes more than it
    assert said == ("alice made proposal 1: Dearer (1 change(s) to the rules). Rule VI.9 as amended changes more "
                    "than the numbers it states: if accepted, the Admin decides what the game does.")


def test_a_rule_the_mechanic_runs_is_not_on_the_admins_todo():
    from admin.jobs.todo import todo_items

    outcome = run(_landing_bonus(), "runs")
    assert outcome.state is not None
    assert not any("VI.19" in t.line() for t in todo_items(outcome.state, outcome.events))
