"""The optional public beacon (admin/jobs/beacon.py, docs/fairness.md): off by default; when a game
turns it on, each update mixes in the beacon's value for the round after its deadline, records it,
and replay, verify and the players' script use it from the record. Tested with recorded values:
no network."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from admin.jobs import update as jobs
from admin.jobs.beacon import BeaconSettings
from admin.jobs.demo import deliver, fresh_maildir
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.store.fileio import dump_json, load_json

SETTINGS = '''[game]
title = "beacon"
start = "2026-11-02"
timezone = "UTC"
[mail]
source = "maildir"
maildir = "mail/inbox"
[dice]
beacon = {on}
'''
AT = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
#: drand-shaped values, as they would have been recorded
VALUE = "a" * 64
OTHER = "0123456789abcdef" * 4


def _game(root: Path, on: bool) -> GameDir:
    game = jobs.init_game(root, settings_text=SETTINGS.format(on="true" if on else "false"))
    for name in ("alice", "bob"):
        jobs.add_player(game, name, f"{name}@example.org")
    fresh_maildir(game.root / "box")
    deliver(game.root / "box", 1, "2026-11-03T10:00", "alice@example.org", "g@x.org", "m", "STATUS\n", "<a@x>")
    return game


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> GameDir:
    return _game(tmp_path_factory.mktemp("beacon") / "base", on=True)


def _run(base: GameDir, where: Path, value: str) -> GameDir:
    game = GameDir(shutil.copytree(base.root, where))
    jobs.run_update_job(game, at=AT, maildir=game.root / "box", beacon=value)
    return game


def test_the_beacon_is_off_by_default_and_refused_when_given_to_a_game_without_it(tmp_path):
    assert BeaconSettings.from_dict({}).on is False
    game = _game(tmp_path / "off", on=False)
    with pytest.raises(StateError, match="--beacon was given"):
        jobs.run_update_job(game, at=AT, maildir=game.root / "box", beacon=VALUE)
    jobs.run_update_job(game, at=AT, maildir=game.root / "box")
    assert "beacon" not in load_json(game.results_path(1))["dice"]


def test_the_beacons_value_enters_every_roll_and_is_recorded_with_its_round(base, tmp_path):
    one, two = _run(base, tmp_path / "one", VALUE), _run(base, tmp_path / "two", OTHER)
    a, b = load_json(one.results_path(1))["dice"], load_json(two.results_path(1))["dice"]
    assert a["beacon"]["value"] == VALUE and a["beacon"]["round"] == b["beacon"]["round"] > 0
    assert a["seed"] == b["seed"] and a["rolls"] != b["rolls"]
    assert jobs.verify(one) == [] and jobs.replay_check(one) == []


def test_the_round_is_fixed_by_the_deadline_not_by_the_cut_off(base, tmp_path):
    rounds = set()
    for i, at in enumerate(("2026-11-04T23:59:59+00:00", "2026-11-04T12:00:00+00:00")):
        game = GameDir(shutil.copytree(base.root, tmp_path / f"g{i}"))
        jobs.run_update_job(game, at=datetime.fromisoformat(at), maildir=game.root / "box", beacon=VALUE)
        rounds.add(load_json(game.results_path(1))["dice"]["beacon"]["round"])
    assert len(rounds) == 1


def test_a_beacon_value_changed_in_the_record_is_caught_by_verify_and_the_players_script(base, tmp_path):
    from admin.site.build import build_site

    game = _run(base, tmp_path / "g", VALUE)
    site = build_site(game)
    script = Path(__file__).resolve().parents[1] / "site_templates" / "static" / "check.py"
    ok = subprocess.run([sys.executable, "-I", str(script), str(site / "records")], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout
    path = game.results_path(1)
    data = load_json(path)
    data["dice"]["beacon"]["value"] = OTHER
    path.write_text(dump_json(data), encoding="utf-8")
    assert any("digest of its rolls is not the hash" in p for p in jobs.verify(game))
    shutil.copy(path, site / "records" / path.name)
    bad = subprocess.run([sys.executable, "-I", str(script), str(site / "records")], capture_output=True, text=True)
    assert bad.returncode == 1 and "update 1: the digest" in bad.stdout


@pytest.mark.parametrize("value", ["", "xyz", "12", "g" * 64, "a" * 200])
def test_a_bad_beacon_value_is_refused_with_a_clear_error_and_nothing_is_saved(base, tmp_path, value):
    game = GameDir(shutil.copytree(base.root, tmp_path / "g"))
    with pytest.raises(StateError, match="is not a beacon value"):
        jobs.run_update_job(game, at=AT, maildir=game.root / "box", beacon=value)
    assert game.load().update == 0 and not game.results_path(1).exists()


@pytest.mark.parametrize("raw", [{"beacon": "yes"}, {"beacon": True, "beacon_period": 0},
                                 {"beacon": True, "beacon_url": "https://example.org/"},
                                 {"beacon": True, "beacon_genesis": "soon"}])
def test_bad_beacon_settings_are_refused_with_the_setting_named(raw):
    with pytest.raises(StateError, match=r"\[dice\]"):
        BeaconSettings.from_dict(raw)


def test_an_unreachable_beacon_is_a_temporary_error_that_says_what_to_do(tmp_path):
    from admin.engine.errors import TemporaryError
    from admin.jobs.beacon import fetch

    settings = BeaconSettings(True, "http://127.0.0.1:9/{round}")
    with pytest.raises(TemporaryError, match="--beacon"):
        fetch(settings, 5, timeout=2)
