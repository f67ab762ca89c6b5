"""One bad input is set aside, never the game (issue 30): an email line, a ruling or an accepted
proposal whose carrying out fails with a fault in a mechanic is refused with the reason, put on the
Admin's to-do, and the update goes on with everything else. The faults are injected into real
mechanics' functions (a ZeroDivisionError where a bug would be)."""

from __future__ import annotations

from admin.jobs.scenario import run
from admin.jobs.todo import todo_items

PLAYERS = ["alice", "bob", "carol"]


def _fault(*args, **kwargs):
    raise ZeroDivisionError("division by zero")


def test_an_email_line_that_fails_is_set_aside_and_the_update_goes_on(monkeypatch):
    import admin.library.ownership as ownership

    from admin.games.registry import REGISTRY

    monkeypatch.setattr(ownership, "buy", _fault)
    monkeypatch.setattr(REGISTRY, "_tables", {})  # the command tables are made again, with the fault
    outcome = run({"game": "nomopoly2", "players": PLAYERS, "updates": [
        {"order": PLAYERS, "dice": [1, 2] * 3},  # everyone to square 4
        {"order": PLAYERS, "dice": [1, 2] * 3, "mail": {"alice": "BUY", "bob": "NAME 4 Home"}},
    ]}, "fault")
    assert outcome.state is not None and outcome.state.update == 2
    said = [e.private or e.text or "" for e in outcome.events if e.ok is False]
    assert any('alice: "BUY" was not done: the game could not carry it out (ZeroDivisionError: division by '
               "zero); it is set aside and the Admin is told" in t for t in said), said
    todo = [t.text for t in todo_items(outcome.state, outcome.events)]
    assert any("alice's line \"BUY\" was set aside" in t for t in todo), todo
    assert outcome.state.players["alice"].money == 10000  # nothing of it stayed


def test_a_ruling_that_fails_is_set_aside_and_the_update_goes_on(monkeypatch):
    import admin.engine.rulings as rulings

    monkeypatch.setitem(rulings.RULINGS, "pause", _fault)
    outcome = run({"game": "nomopoly2", "players": PLAYERS, "updates": [
        {"order": PLAYERS, "dice": [1, 2] * 3, "rulings": [{"kind": "pause", "args": {}, "note": "x"}]},
    ]}, "ruling fault")
    assert outcome.state is not None and outcome.state.update == 1 and not outcome.state.paused
    failed = [e.text for e in outcome.events if e.kind == "ruling" and e.ok is False]
    assert failed == ["The Admin's ruling pause could not be carried out: it fails (ZeroDivisionError: division "
                      "by zero)"]
    assert [p.square for p in outcome.state.players.values()] == [4, 4, 4]  # the turns went on


def test_an_accepted_proposal_that_fails_is_set_aside_for_the_admin(monkeypatch):
    import admin.nomic.proposals as proposals

    monkeypatch.setattr(proposals, "carry_out", _fault)
    outcome = run({"game": "nomopoly2", "players": PLAYERS, "updates": [
        {"order": PLAYERS, "dice": [1, 2] * 3, "mail": {"alice": "PROPOSE Tidy\nADD RULE I: Be kind.\nEND\n"}},
        {"order": PLAYERS, "dice": [1, 2] * 3, "mail": {p: "VOTE 1 YES" for p in PLAYERS},
         "draws": ["2S", "3S", "4S", "5S"]},
    ]}, "proposal fault")
    assert outcome.state is not None and outcome.state.update == 2
    proposal = outcome.state.proposal(1)
    assert proposal is not None and proposal.status == "accepted" and proposal.awaiting_admin
    assert proposal.note == "could not be carried out (ZeroDivisionError: division by zero)"
    todo = [t.text for t in todo_items(outcome.state, outcome.events)]
    assert any("Proposal 1, 'Tidy' (by alice), was accepted and waits for you" in t for t in todo), todo
