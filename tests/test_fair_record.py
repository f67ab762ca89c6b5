"""Commitments out of the Admin's hands and a chained public record (docs/fairness.md, issue 29):
the seeds are a hash chain whose head is published when the game starts, so running an update
again offers no other seed for the next; the next commitment and the record chain's head go to
every player in their results mail; ``verify`` fails on a missing, edited or reordered record or a
forged ruling, and, given a player's saved results mail, on a record rewritten after it was sent."""

from __future__ import annotations

import email
import email.policy
import hashlib
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from fixtures.fair import fair_settings

from admin.jobs import update as jobs
from admin.jobs.demo import deliver, fresh_maildir
from admin.jobs.verifychain import check_mail
from admin.engine.errors import StateError
from admin.mail.outbound.mailout import mail_out
from admin.store.gamedir import GameDir
from admin.store.fileio import dump_json, load_json

SETTINGS = fair_settings("fair")
CUTOFFS = ("2026-11-04T23:59:59+00:00", "2026-11-07T23:59:59+00:00", "2026-11-11T23:59:59+00:00")


def _new_game(root: Path) -> GameDir:
    game = jobs.init_game(root, settings_text=SETTINGS)
    for name in ("alice", "bob"):
        jobs.add_player(game, name, f"{name}@example.org")
    return game


def _play(game: GameDir, updates: int = 3) -> None:
    box = game.root / "box"
    fresh_maildir(box)
    deliver(box, 1, "2026-11-03T10:00", "alice@example.org", "game@example.org", "m", "STATUS\n", "<a1@x.org>")
    deliver(box, 2, "2026-11-06T10:00", "bob@example.org", "game@example.org", "m", "HELP\n", "<b1@x.org>")
    for cutoff in CUTOFFS[:updates]:
        outcome = jobs.run_update_job(game, at=datetime.fromisoformat(cutoff), maildir=box)
        mail_out(game, outcome.update, state=outcome.state)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> GameDir:
    game = _new_game(tmp_path_factory.mktemp("rec") / "game")
    _play(game)
    return game


@pytest.fixture
def game(played, tmp_path) -> GameDir:
    return GameDir(shutil.copytree(played.root, tmp_path / "game"))


def _results_mail(game: GameDir, update: int, name: str) -> Path:
    for path in sorted((game.state_dir / "outbox").rglob("*.eml")):
        if f"Update {update} results for {name}".encode() in path.read_bytes():
            return path
    raise AssertionError(f"no results mail of update {update} for {name}")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "admin", *args], capture_output=True, text=True)


# -- the seed chain ------------------------------------------------------------------------------------
def test_the_seeds_are_a_hash_chain_whose_head_is_published_when_the_game_starts(played):
    records = [load_json(played.results_path(n)) for n in range(4)]
    head = records[0]["chain"]["head"]
    assert records[0]["next_commitment"] == head == records[1]["dice"]["commitment"]
    for n in (1, 2, 3):
        seed = records[n]["dice"]["seed"]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == records[n]["dice"]["commitment"]
        assert records[n]["next_commitment"] == seed  # the revealed seed is the next one's commitment
    assert jobs.verify(played) == []


def test_running_an_update_again_offers_no_other_seed_for_the_next(tmp_path):
    base = _new_game(tmp_path / "base")
    commitments = set()
    for i, body in enumerate(("STATUS\n", "HELP\n", "")):
        copy = GameDir(shutil.copytree(base.root, tmp_path / f"run{i}"))
        fresh_maildir(copy.root / "box")
        if body:
            deliver(copy.root / "box", 1, "2026-11-03T10:00", "alice@example.org", "g@x.org", "m", body, "<a@x>")
        jobs.run_update_job(copy, at=datetime.fromisoformat(CUTOFFS[0]), maildir=copy.root / "box")
        commitments.add((load_json(copy.results_path(1))["next_commitment"],
                         load_json(copy.results_path(1))["next_hidden_commitment"]))
    assert len(commitments) == 1


def test_a_seed_chosen_again_breaks_the_seed_chain(game):
    path = game.results_path(2)
    data = load_json(path)
    seed = hashlib.sha256(b"another").digest()
    data["dice"]["seed"], data["dice"]["commitment"] = seed.hex(), hashlib.sha256(seed).hexdigest()
    data["dice"]["rolls"] = []
    path.write_text(dump_json(data), encoding="utf-8")
    one = load_json(game.results_path(1))
    one["next_commitment"] = data["dice"]["commitment"]
    game.results_path(1).write_text(dump_json(one), encoding="utf-8")
    problems = jobs.verify(game)
    assert any("update 1: the commitment for update 2 is not update 1's seed" in p for p in problems), problems


def test_the_next_commitments_and_the_record_chain_travel_in_every_players_results_mail(played):
    from admin.engine.seedchain import links

    chain = links([load_json(played.results_path(n)) for n in range(4)])
    for n in (1, 2, 3):
        record = load_json(played.results_path(n))
        for name in ("alice", "bob"):
            message = email.message_from_bytes(_results_mail(played, n, name).read_bytes(), policy=email.policy.default)
            text = message.get_body(preferencelist=("plain",)).get_content()
            assert f"Commitment for update {n + 1}: {record['next_commitment']}" in text
            assert f"Your key's commitment for update {n + 1}: {record['next_player_commitments'][name]}" in text
            assert f"Record chain to update {n}: {chain[n]}" in text


# -- a player's saved mail against a rewritten record -----------------------------------------------
def test_verify_given_a_players_results_mail_catches_a_game_rewritten_on_another_seed_chain(played, tmp_path):
    saved = shutil.copy(_results_mail(played, 2, "alice"), tmp_path / "alice-2.eml")
    assert check_mail(played, Path(saved)) == []
    forged = _new_game(tmp_path / "forged")  # the Admin plays it all again, on a new chain
    _play(forged)
    assert jobs.verify(forged) == [] and jobs.replay_check(forged) == []  # alone, nothing shows
    problems = check_mail(forged, Path(saved))
    assert any("the commitment for update 3 was mailed as" in p for p in problems), problems
    assert any("the record chain to update 2" in p for p in problems), problems
    out = _cli("--game", str(forged.root), "verify", "--mail", str(saved))
    assert out.returncode == 1 and "rewritten after the mail was sent" in out.stderr


def test_verify_given_a_players_mail_catches_an_edit_of_the_last_record(game, tmp_path):
    saved = shutil.copy(_results_mail(game, 3, "bob"), tmp_path / "bob-3.eml")
    path = game.results_path(3)
    data = load_json(path)
    data["events"][0]["text"] += " (edited)"
    path.write_text(dump_json(data), encoding="utf-8")
    assert any("record chain to update 3" in p for p in check_mail(game, Path(saved)))


@pytest.mark.parametrize("text", ["", "not a mail at all\n", "Subject: Update 2 results for bob\n\nHello bob,\nhi\n"])
def test_verify_mail_refuses_a_file_that_is_not_a_results_mail_with_a_clear_error(played, tmp_path, text):
    path = tmp_path / "x.eml"
    path.write_text(text)
    with pytest.raises(StateError, match="x.eml"):
        check_mail(played, path)
    out = _cli("--game", str(played.root), "verify", "--mail", str(path))
    assert out.returncode != 0 and "x.eml" in out.stderr


# -- the chained record -----------------------------------------------------------------------------
def test_verify_fails_on_a_missing_last_record(game):
    game.results_path(3).unlink()
    assert any("the record of update 3 is missing" in p for p in jobs.verify(game))


def test_verify_fails_on_a_missing_record_in_the_middle(game):
    game.results_path(2).unlink()
    assert any("the record of update 2 is missing" in p for p in jobs.verify(game))


def test_verify_fails_on_reordered_records(game):
    one, two = game.results_path(1).read_bytes(), game.results_path(2).read_bytes()
    game.results_path(1).write_bytes(two)
    game.results_path(2).write_bytes(one)
    problems = jobs.verify(game)
    assert any("0001.json holds the record of update 2" in p for p in problems), problems


def test_verify_fails_on_an_edited_earlier_record_even_without_the_log(game):
    shutil.rmtree(game.log_dir)
    path = game.results_path(1)
    data = load_json(path)
    data["events"][0]["text"] += " (edited)"
    path.write_text(dump_json(data), encoding="utf-8")
    problems = jobs.verify(game)
    assert any(p.startswith("update 2: its record names the record chain before it") for p in problems), problems


def test_verify_fails_on_an_edited_event_of_the_last_record_with_the_log(game):
    path = game.results_path(3)
    data = load_json(path)
    data["events"][-1]["text"] += " (edited)"
    path.write_text(dump_json(data), encoding="utf-8")
    problems = jobs.verify(game)
    assert any("update 3: public event" in p for p in problems), problems


def test_verify_fails_on_a_forged_ruling(game):
    path = game.update_logs()[2]
    log = load_json(path)
    log["inputs"]["rulings"].append({"kind": "adjust", "args": {"player": "bob", "money": 500}, "note": "forged"})
    path.write_text(dump_json(log), encoding="utf-8")
    problems = jobs.verify(game)
    assert any("update 2: the log's rulings are not those the public record lists" in p for p in problems), problems


def test_verify_fails_on_a_changed_received_time(game):
    path = game.update_logs()[1]
    log = load_json(path)
    log["inputs"]["messages"][0]["received"] = "2026-11-03T09:00:00+00:00"
    path.write_text(dump_json(log), encoding="utf-8")
    assert any("received times" in p for p in jobs.verify(game))


def test_verify_fails_on_a_deleted_log(game):
    game.update_logs()[3].unlink()
    assert any("update 3: it has a record but no log" in p for p in jobs.verify(game))


def test_verify_fails_on_an_edited_record_on_the_site(game):
    from admin.site.build import build_site

    site = build_site(game)
    assert jobs.verify(game) == []
    path = site / "records" / "0002.json"
    path.write_text(path.read_text().replace('"update": 2', '"update": 2 '), encoding="utf-8")
    assert any("site/records/0002.json differs" in p for p in jobs.verify(game))


def test_a_seed_chain_that_runs_out_is_followed_by_a_new_one_announced_where_it_ends(tmp_path, monkeypatch):
    monkeypatch.setattr("admin.engine.seedchain.CHAIN_LENGTH", 2)
    game = _new_game(tmp_path / "short")
    _play(game)
    records = [load_json(game.results_path(n)) for n in range(4)]
    assert [n for n, r in enumerate(records) if r.get("chain")] == [0, 2]
    assert records[2]["next_commitment"] == records[2]["chain"]["head"] == records[3]["dice"]["commitment"]
    assert jobs.verify(game) == [] and jobs.replay_check(game) == []
    one = records[1]  # a new chain announced before the old one ran out: a choice of seeds
    one["chain"] = dict(records[2]["chain"], base=1)
    game.results_path(1).write_text(dump_json(one), encoding="utf-8")
    assert any("update 1: a new seed chain is begun while the one begun at update 0 runs to update 2" in p
               for p in jobs.verify(game))
