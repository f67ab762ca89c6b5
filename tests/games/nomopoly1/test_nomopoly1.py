"""The first Nomopoly's rules that its scenario files (tests/games/nomopoly1/scenarios) do not reach well:
III.4's tie-break, the game package's shape and its coverage."""

from __future__ import annotations

import json
import subprocess
import sys

from admin.games.catalog import initial_state
from admin.games.nomopoly1.mechanics.winning import _break_tie
from admin.library.ownership import set_owner
from admin.jobs.roster import add_player


def _game(*names: str):
    state = initial_state("nomopoly1", "t")
    for name in names:
        add_player(state, name, f"{name}@example.org")
    return state


def test_iii4_a_tie_goes_to_more_conditions_then_more_squares_then_more_money():
    state = _game("alice", "bob", "carol")
    five, six = [True] * 5 + [False] * 2, [True] * 6 + [False]
    assert _break_tie(state, {"alice": five, "bob": six}) == ["bob"]
    set_owner(state, 3, "alice")
    assert _break_tie(state, {"alice": five, "bob": five}) == ["alice"]        # one square more
    set_owner(state, 4, "bob")
    state.players["bob"].money += 1
    assert _break_tie(state, {"alice": five, "bob": five}) == ["bob"]          # level squares, $1 more
    state.players["bob"].money -= 1
    assert _break_tie(state, {"alice": five, "bob": five}) == ["alice", "bob"]  # level in everything: both win


def test_every_rule_of_the_first_nomopoly_is_automated_or_routed():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", "nomopoly1", "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert data["counts"]["missing"] == 0
    rules = {r["rule"]: r for r in data["rules"]}
    assert len(rules) == 157 and rules["XXVIII.3"]["status"] == "admin"
    assert rules["XXXVI.3"]["status"] == "automated"  # one course at a time (it was missing from the text)
    untested = [r for r in data["rules"] if r["status"] == "automated" and not r["tests"]]
    assert not untested, [r["rule"] for r in untested]


def test_the_board_and_the_start_iv1_v1_to_v6_v10():
    """IV.1, V.1-V.6, V.10: $10000 each; 20 squares numbered from 1, snaking up ten to a row from
    the bottom left; everyone starts on square 1; the last square's successor is square 1."""
    from admin.engine.board import layout_of, step, successor

    state = _game("alice")
    assert [s.number for s in state.live_squares()] == list(range(1, 21))
    assert state.players["alice"].money == 10000 and state.players["alice"].square == 1
    assert successor(state, 20) == 1 and successor(state, 7) == 8
    lay = layout_of(state)
    assert lay.cell(1, 20) == (0, 0) and lay.cell(10, 20) == (0, 9) and lay.cell(11, 20) == (1, 9)
    assert step(state, 10, "north") == 11 and step(state, 1, "east") == 2 and step(state, 1, "west") is None


def test_events_cite_this_rulebooks_numbers():
    """The library's modules cite Nomopoly II's rules ("(XIII.3)"); in the first Nomopoly an event
    gives this rulebook's number, in its ``rule`` and in its text, and a rule of this game's own
    modules keeps its number (a donut is XII.2, not the XIV.1 the library's XII.2 becomes)."""
    from pathlib import Path

    import yaml

    from admin.jobs import scenario

    def events(name: str):
        path = Path(__file__).parent / "scenarios" / name
        return scenario.run(yaml.safe_load(path.read_text(encoding="utf-8")), str(path)).events

    donut = next(e for e in events("xii2-donut-place.yaml") if e.kind == "donut")
    assert donut.rule == "XII.2"
    texts = [e.text for e in events("viii2-last-two-proposals-missed-votes-first-mover-buys.yaml")]
    assert 'alice: "BUY 7" was not done: square 7 was bought by bob, who landed there first (VIII.2)' in texts
    assert not [t for t in texts if t and ("(XIII." in t or "(IX.2" in t)], texts
