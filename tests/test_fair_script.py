"""The player's own check (site_templates/static/check.py, linked from the Verify page): with
Python's standard library alone, their own results mail and the site's records, a player checks the
record chain, the seeds, every roll and their own draws; a rewritten record fails it."""

from __future__ import annotations

import email
import email.policy
import json
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from admin.games.catalog import available, spec
from admin.jobs import update as jobs
from admin.store.gamedir import GameDir

SCRIPT = Path(__file__).resolve().parents[1] / "site_templates" / "static" / "check.py"


def check(records: Path, *mails: Path) -> subprocess.CompletedProcess:
    """The script as a player runs it: isolated (-I), so nothing of nomopoly can be imported."""
    return subprocess.run([sys.executable, "-I", str(SCRIPT), str(records), *map(str, mails)],
                          capture_output=True, text=True)


def mails_by_player(game: GameDir) -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = defaultdict(list)
    for path in sorted((game.state_dir / "outbox").rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        out[str(message["to"])].append(path)
    return out


@pytest.mark.parametrize("name", [g for g in available() if spec(g).demo])
def test_every_player_of_every_bundled_demo_checks_the_game_from_their_own_mail_and_the_site(demo_site, name):
    site = demo_site(name)
    game = GameDir(site.parent)
    assert jobs.verify(game) == []
    assert (site / "records" / "index.json").is_file() and "static/check.py" in (site / "verify.html").read_text()
    players = mails_by_player(game)
    assert len(players) >= 2
    for to, mails in players.items():
        out = check(site / "records", *mails)
        assert out.returncode == 0, (to, out.stdout, out.stderr)
        assert "All good" in out.stdout


def test_the_script_fails_on_a_rewritten_commitment_or_a_mail_that_no_longer_matches(tmp_path, demo_site):
    site = demo_site("nomopoly2")
    game = GameDir(site.parent)
    records = tmp_path / "records"
    shutil.copytree(site / "records", records)
    path = records / "0002.json"
    data = json.loads(path.read_text())
    data["next_commitment"] = "0" * 64
    path.write_text(json.dumps(data))
    out = check(records)
    assert out.returncode == 1 and "update 3: the commitment is not the one published before" in out.stdout
    alice = next(m for to, m in mails_by_player(game).items() if "alice" in to)
    shutil.copytree(site / "records", records, dirs_exist_ok=True)
    data = json.loads(path.read_text())
    data["events"][0]["text"] += " (edited)"
    path.write_text(json.dumps(data))
    out = check(records, *alice)
    assert out.returncode == 1 and "link was mailed as" in out.stdout


def test_the_script_without_records_says_what_to_give_it(tmp_path):
    out = check(tmp_path)
    assert out.returncode != 0 and "records folder" in out.stderr


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe"])
def test_the_script_names_a_damaged_record_and_says_what_to_do(tmp_path, content):
    records = tmp_path / "records"
    records.mkdir()
    (records / "index.json").write_text('{"updates": 1, "hidden": false}')
    (records / "0000.json").write_text('{"update": 0, "next_commitment": "aa"}')
    (records / "0001.json").write_bytes(content)
    out = check(records)
    assert out.returncode == 1 and "0001.json: not a record" in out.stderr and "download" in out.stderr


def test_the_script_skips_mail_that_is_not_a_results_email(tmp_path, demo_site):
    site = demo_site("nomopoly2")
    junk = tmp_path / "junk.eml"
    junk.write_text("Subject: hello\n\nnothing here\n")
    out = check(site / "records", junk)
    assert out.returncode == 0 and "skipped, not a results email" in out.stdout
