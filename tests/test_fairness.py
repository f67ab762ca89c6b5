"""Dice and draws nobody can steer and everybody can check (docs/fairness.md): the cut-off cannot
change a roll, verify names the first tampered roll or draw, a player checks their own card from
their results mail alone, every hidden draw is checked once the game ends, and a game on a public
demo key says so on every command."""

from __future__ import annotations

import email
import email.policy
import hashlib
import hmac
import json
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from admin.jobs import update as jobs
from admin.jobs.demo import deliver, fresh_maildir, run_demo
from admin.engine.dice import derive
from admin.engine.events import Ruling
from admin.store.gamedir import GameDir
from admin.store.fileio import dump_json, load_json


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fair") / "demo"
    run_demo(root, echo=lambda _: None)
    return root


@pytest.fixture
def demo(demo_dir, tmp_path) -> GameDir:
    copy = tmp_path / "demo"
    shutil.copytree(demo_dir, copy, symlinks=True)
    return GameDir(copy)


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "admin", *args], capture_output=True, text=True, cwd=cwd)


# -- the Admin cannot steer the dice ------------------------------------------------------------------
def _two_players(root: Path) -> GameDir:
    game = jobs.init_game(root)
    for name in ("alice", "bob"):
        jobs.add_player(game, name, f"{name}@example.org")
    return game


def test_the_same_mail_gives_the_same_rolls_whatever_the_cut_off(tmp_path):
    base = _two_players(tmp_path / "base")
    mail = tmp_path / "mail"
    fresh_maildir(mail)
    deliver(mail, 1, "2026-11-03T10:00", "alice@example.org", "admin@example.org", "moves", "STATUS\n",
            "<m1@example.org>")
    deliver(mail, 2, "2026-11-03T11:00", "bob@example.org", "admin@example.org", "moves", "HELP\n",
            "<m2@example.org>")
    rolls = []
    for i, cutoff in enumerate(("2026-11-04T23:59:59", "2026-11-04T23:59:58", "2026-11-04T12:00:00")):
        copy = GameDir(shutil.copytree(base.root, tmp_path / f"copy{i}"))
        box = shutil.copytree(mail, tmp_path / f"mail{i}")
        jobs.run_update_job(copy, at=datetime.fromisoformat(cutoff + "+00:00"), maildir=box)
        dice = load_json(copy.results_path(1))["dice"]
        assert dice["scheme"] == 3 and len(dice["rolls"]) > 2
        rolls.append((dice["digest"], dice["rolls"]))
    assert rolls[0] == rolls[1] == rolls[2]


def test_the_admins_rulings_do_not_enter_the_dice(tmp_path):
    base = _two_players(tmp_path / "base")
    plain = GameDir(shutil.copytree(base.root, tmp_path / "plain"))
    ruled = GameDir(shutil.copytree(base.root, tmp_path / "ruled"))
    jobs.queue_ruling(ruled, Ruling("adjust", {"player": "alice", "money": 1, "health": 0}, "a typo fixed"))
    at = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
    for game in (plain, ruled):
        fresh_maildir(game.root / "in")
        jobs.run_update_job(game, at=at, maildir=game.root / "in")
    assert load_json(plain.results_path(1))["dice"]["rolls"] == load_json(ruled.results_path(1))["dice"]["rolls"]


# -- verify names the first tampered roll -------------------------------------------------------------
def _tamper_rolls(game: GameDir, how: str) -> int:
    """Change update 2's recorded rolls as a cheat would; return the 1-based place of the change."""
    path = game.results_path(2)
    data = load_json(path)
    rolls = data["dice"]["rolls"]
    k = next(i for i, r in enumerate(rolls) if "/turn/" in r[0])  # a turn's die
    seed, digest = bytes.fromhex(data["dice"]["seed"]), data["dice"]["digest"]
    if how == "delete":
        del rolls[k]
    elif how == "add":
        rolls.insert(k, [rolls[k][0].replace("/d0", "/d9"), rolls[k][1], 3])
    elif how == "reorder":
        rolls[k], rolls[k + 1] = rolls[k + 1], rolls[k]
        if rolls[k] == rolls[k + 1]:
            pytest.skip("two equal rolls")
    elif how == "relabel":  # a new label whose recomputed value is what the cheat wants: still "recomputes"
        label = next(f"{rolls[k][0]}#{n}" for n in range(1000)
                     if derive(seed, digest, f"{rolls[k][0]}#{n}", rolls[k][1]) != rolls[k][2])
        rolls[k] = [label, rolls[k][1], derive(seed, digest, label, rolls[k][1])]
    elif how == "change":
        rolls[k][2] = rolls[k][2] % rolls[k][1] + 1
    path.write_text(dump_json(data), encoding="utf-8")
    return k + 1


@pytest.mark.parametrize("how", ["delete", "add", "reorder", "relabel", "change"])
def test_verify_names_the_first_missing_extra_moved_relabelled_or_changed_roll(demo, how):
    assert jobs.verify(demo) == []
    place = _tamper_rolls(demo, how)
    problems = jobs.verify(demo)
    assert problems, how
    assert any(p.startswith(f"update 2: roll {place} ") for p in problems), problems
    out = _cli("--game", str(demo.root), "verify")
    assert out.returncode == 1 and f"update 2: roll {place} " in out.stderr


def test_verify_names_a_changed_hidden_draw(demo):
    path = demo.update_logs()[2]
    log = load_json(path)
    draw = log["dice"]["hidden_rolls"][0]
    draw[2] = draw[2] % draw[1] + 1
    path.write_text(dump_json(log), encoding="utf-8")
    assert any("update 2: hidden draw 1 is recorded as" in p for p in jobs.verify(demo))


# -- a player checks their own draws from their results mail --------------------------------------
def test_a_player_checks_the_card_they_drew_from_their_results_mail_alone(demo_dir):
    game = GameDir(demo_dir)
    mails = sorted((demo_dir / "state" / "outbox" / "sent").glob("*.eml"))
    checked = 0
    for path in mails:
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",)).get_content()
        m = re.search(r"Update (\d+) results for (\w+)", str(message["subject"]))
        if not m or "Checking your own draws" not in text:
            continue
        update, name = int(m.group(1)), m.group(2)
        if update < 2:  # update 1's commitments were published with the players' registration
            continue
        key = bytes.fromhex(re.search(r"Your key for this update: ([0-9a-f]{64})", text).group(1))
        digest = re.search(r"The update's digest: ([0-9a-f]{64})", text).group(1)
        # the key's hash was published before the update: in the previous results file, on the site
        published = load_json(game.results_path(update - 1))["next_player_commitments"][name]
        assert hashlib.sha256(key).hexdigest() == published
        for label, sides, value, card in re.findall(r"  (u\d+/card/\S+): a d(\d+) gave (\d+) = (\w+)", text):
            mac = hmac.new(key, f"{digest}|{label}|0".encode(), hashlib.sha256).digest()
            assert int.from_bytes(mac, "big") % int(sides) + 1 == int(value)
            ranks, suits = "A 2 3 4 5 6 7 8 9 10 J Q K".split(), "SHDC"
            assert card == ranks[(int(value) - 1) % 13] + suits[(int(value) - 1) // 13]  # the deck in docs
            assert card in text.split("What happened to you")[1]  # the card the mail says they got
            checked += 1
    assert checked >= 3


# -- every hidden draw, once the game is over -------------------------------------------------------
def test_verify_hidden_checks_every_hidden_draw_once_the_game_is_over(demo):
    out = _cli("--game", str(demo.root), "verify", "--hidden")
    assert out.returncode == 1 and "published when the game ends" in out.stderr
    jobs.queue_ruling(demo, Ruling("end-game", {}, "the demo is over"))
    fresh_maildir(demo.root / "none")
    jobs.run_update_job(demo, at=datetime.fromisoformat("2026-11-18T23:59:59+00:00"), maildir=demo.root / "none")
    assert demo.hidden_seeds_path.exists()
    ok = _cli("--game", str(demo.root), "verify", "--hidden")
    assert ok.returncode == 0, ok.stderr
    revealed = load_json(demo.hidden_seeds_path)
    draw = revealed["updates"]["2"]["hidden_rolls"][0]
    draw[2] = draw[2] % draw[1] + 1
    demo.hidden_seeds_path.write_text(dump_json(revealed), encoding="utf-8")
    bad = _cli("--game", str(demo.root), "verify", "--hidden")
    assert bad.returncode == 1 and "update 2: hidden draw" in bad.stderr


# -- a public demo key is never silent --------------------------------------------------------------
def test_a_game_on_the_insecure_demo_key_warns_on_every_command_and_init_never_sets_it(demo, tmp_path):
    for args in (["status"], ["verify"], ["todo"]):
        out = _cli("--game", str(demo.root), *args)
        assert "WARNING" in out.stderr and "insecure_demo_seed_key" in out.stderr, args
    made = _cli("init", str(tmp_path / "real"))
    assert made.returncode == 0, made.stderr
    assert "insecure_demo_seed_key" not in (tmp_path / "real" / "nomopoly.toml").read_text()
    quiet = _cli("--game", str(tmp_path / "real"), "status")
    assert "WARNING" not in quiet.stderr


# -- games begun before keep replaying ---------------------------------------------------------------
def test_a_game_begun_under_the_first_scheme_still_replays_and_verifies(tmp_path, monkeypatch):
    game = _two_players(tmp_path / "old")
    monkeypatch.setattr("admin.store.gamedir.SCHEME", 1)
    fresh_maildir(game.root / "in")
    jobs.run_update_job(game, at=datetime.fromisoformat("2026-11-04T23:59:59+00:00"), maildir=game.root / "in")
    assert load_json(game.results_path(1))["dice"]["scheme"] == 1
    monkeypatch.undo()
    jobs.run_update_job(game, at=datetime.fromisoformat("2026-11-07T23:59:59+00:00"), maildir=game.root / "in")
    assert load_json(game.results_path(2))["dice"]["scheme"] == 3
    assert jobs.replay_check(game) == [] and jobs.verify(game) == []
    assert json.loads(json.dumps(load_json(game.results_path(2))["next_player_commitments"]))  # published


@pytest.mark.parametrize("how", ["delete", "add", "reorder"])
def test_verify_names_a_deleted_added_or_reordered_hidden_draw(demo, how):
    path = demo.update_logs()[2]
    log = load_json(path)
    draws = log["dice"]["hidden_rolls"]
    assert len(draws) >= 2, "the demo's update 2 draws cards"
    k = next((i for i in range(len(draws) - 1) if draws[i][2] != draws[i + 1][2]), 0)
    if how == "delete":
        del draws[k]
    elif how == "add":
        draws.insert(k, [draws[k][0] + "#extra", *draws[k][1:]])
    else:
        draws[k], draws[k + 1] = draws[k + 1], draws[k]
    path.write_text(dump_json(log), encoding="utf-8")
    problems = jobs.verify(demo)
    assert any(p.startswith(f"update 2: hidden draw {k + 1} ") for p in problems), problems


def test_updates_after_the_end_add_their_seed_to_what_is_published_without_rereading_every_log(demo):
    """A finished game published its hidden seeds by reading every update's log again at each
    update (a third of an update's time late in a long game); now each update adds its own, and the
    file stays exactly what reading every log gives."""
    from admin.jobs.replay import hidden_record

    jobs.queue_ruling(demo, Ruling("end-game", {}, "the demo is over"))
    fresh_maildir(demo.root / "none")
    for cutoff in ("2026-11-18T23:59:59+00:00", "2026-11-21T23:59:59+00:00", "2026-11-25T23:59:59+00:00"):
        jobs.run_update_job(demo, at=datetime.fromisoformat(cutoff), maildir=demo.root / "none")
    published = load_json(demo.hidden_seeds_path)
    assert sorted(published["updates"], key=int) == [str(n) for n in range(1, 8)]
    assert published == hidden_record(demo)
