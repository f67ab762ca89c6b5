"""A game saved before the seed chain and the record chain (scheme 2, made by the code of commit
9c55004) still passes ``replay --check`` and ``verify``; its next update begins a seed chain and
the record chain, and from then on every check of docs/fairness.md holds."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
from datetime import datetime
from pathlib import Path

import pytest
from fixtures.fair import fair_settings

from admin.jobs import update as jobs
from admin.jobs.replay import verify_hidden
from admin.mail.outbound.mailout import mail_out
from admin.store.gamedir import GameDir
from admin.store.fileio import load_json

REPO = Path(__file__).resolve().parents[1]
BEFORE = "9c55004"  # main before issue 29
MAKE = '''
import sys
from datetime import datetime
from pathlib import Path
from admin.jobs import update as jobs
from admin.jobs.demo import deliver
from admin.mail.outbound.mailout import mail_out
game = jobs.init_game(Path(sys.argv[1]), settings_text=open(sys.argv[2]).read())
for name in ("alice", "bob"):
    jobs.add_player(game, name, f"{name}@example.org")
box = game.root / "mail" / "inbox"
deliver(box, 1, "2026-11-03T10:00", "alice@example.org", "game@example.org", "m", "STATUS\\n", "<a1@x.org>")
deliver(box, 2, "2026-11-06T10:00", "bob@example.org", "game@example.org", "m", "HELP\\n", "<b1@x.org>")
for cutoff in ("2026-11-04T23:59:59+00:00", "2026-11-07T23:59:59+00:00"):
    outcome = jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
    mail_out(game, outcome.update, state=outcome.state)
'''
SETTINGS = fair_settings("old")


@pytest.fixture(scope="module")
def old_game(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("old")
    archive = subprocess.run(["git", "-C", str(REPO), "archive", BEFORE, "admin"], capture_output=True)
    if archive.returncode != 0:
        pytest.skip(f"the code of commit {BEFORE} is not in this checkout's history")
    tarfile.open(fileobj=io.BytesIO(archive.stdout)).extractall(tmp / "code")
    (tmp / "make.py").write_text(MAKE)
    (tmp / "settings.toml").write_text(SETTINGS)
    subprocess.run([sys.executable, str(tmp / "make.py"), str(tmp / "game"), str(tmp / "settings.toml")],
                   cwd=tmp / "code", env={"PYTHONPATH": str(tmp / "code"), "PATH": "/usr/bin:/bin"}, check=True)
    return tmp / "game"


def test_a_game_saved_before_the_chains_replays_verifies_and_goes_on_to_a_seed_chain(old_game, tmp_path):
    game = GameDir(shutil.copytree(old_game, tmp_path / "game"))
    assert load_json(game.results_path(2))["dice"]["scheme"] == 2 and "previous" not in load_json(game.results_path(2))
    assert jobs.replay_check(game) == [] and jobs.verify(game) == []
    for cutoff in ("2026-11-11T23:59:59+00:00", "2026-11-14T23:59:59+00:00"):
        outcome = jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
        mail_out(game, outcome.update, state=outcome.state)
    three, four = load_json(game.results_path(3)), load_json(game.results_path(4))
    assert three["dice"]["scheme"] == 3 and three["chain"]["base"] == 3
    assert three["next_commitment"] == three["chain"]["head"] == four["dice"]["commitment"]
    assert four["next_commitment"] == four["dice"]["seed"]
    assert jobs.replay_check(game) == [] and jobs.verify(game) == []
    if game.hidden_seeds_path.exists():  # the game ended: every hidden seed, the chain's key too
        assert verify_hidden(game) == []
    # the records written before the chain are covered by the first that carries it
    old = load_json(game.results_path(1))
    old["events"][0]["text"] += " (edited)"
    game.results_path(1).write_text(__import__("json").dumps(old), encoding="utf-8")
    assert any("update 3: its record names the record chain before it" in p for p in jobs.verify(game))
