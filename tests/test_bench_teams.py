"""The benchmark's Teams-variant workload (bench/workload_teams.py): its mail is the variant's own
commands, and the Admin's judgements it queues are accepted and earn the turns (IX)."""

from __future__ import annotations

import email

from admin.mail.inbound.grammar import CHATTER, grammar_for, parse_text
from admin.games.nomoteams.mechanics.proposals import undecided
from bench import workload, workload_teams

SPEC = workload.Spec(players=8, squares=30, game="nomoteams")


def _game(tmp_path, updates: int):
    game = workload.create_game(tmp_path / "game", SPEC)
    workload.run_updates(game, SPEC, updates)
    return game


def test_every_line_of_the_mail_is_a_command_of_the_variant(tmp_path):
    game = _game(tmp_path, 2)
    state = game.load()
    grammar = grammar_for(state)
    mails = workload_teams.emails_for(state, SPEC, state.update + 1)
    assert len(mails) == 8
    not_understood = []
    for _, raw in mails:
        body = email.message_from_bytes(raw).get_payload(decode=True).decode()
        commands = body.split("\n-- \n")[0]  # the signature and the quoted reply are not commands
        for verdict in parse_text(commands, grammar):
            if verdict.error and verdict.error != CHATTER:
                not_understood.append((verdict.text, verdict.error))
    assert not_understood == []


def test_the_admin_judges_every_waiting_proposal_and_each_earns_a_turn(tmp_path):
    game = _game(tmp_path, 3)
    state = game.load()
    waiting = undecided(state)
    # 3 proposals a week (Spec.proposals_per_week), one update a week: the last update's wait
    assert len(waiting) == 3
    rulings = workload_teams.rulings_for(state, SPEC, state.update + 1)
    judged = [r.args["proposal"] for r in rulings if r.kind == "judge"]
    assert sorted(judged) == sorted(p.number for p in waiting)
    workload.run_updates(game, SPEC, 1)  # queues them as `nomopoly ruling decide judge` does
    after = game.load()
    assert all(after.proposal(n) is None or after.proposal(n).status in ("accepted", "rejected") for n in judged)
    assert game.pending_rulings() == []
    events = game.log_entries()[-1]
    from admin.store.fileio import load_json

    entry = load_json(events)
    turns = [e for e in entry["events"] if e["kind"] == "turn"]
    wastes = sum(1 for r in rulings if r.kind == "judge" and r.args.get("waste"))
    assert len(turns) == len(judged) - wastes  # IX.5: every judged proposal but a waste of time earns a turn
