"""Hidden draws and face-down piles (docs/fairness.md, issue 29): the public record lists a hash
of every hidden draw when it is made, so once the game ends ``verify --hidden`` catches one dropped,
relabelled or moved to another player's key, even when its value recomputes."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest

from admin.jobs import update as jobs
from admin.jobs.demo import fresh_maildir, run_demo
from admin.jobs.replay import verify_hidden
from admin.engine.dice import derive, player_key
from admin.engine.events import Ruling
from admin.store.gamedir import GameDir
from admin.store.fileio import dump_json, load_json


@pytest.fixture(scope="module")
def ended_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hidden") / "demo"
    run_demo(root, echo=lambda _: None)
    game = GameDir(root)
    jobs.queue_ruling(game, Ruling("end-game", {}, "the demo is over"))
    fresh_maildir(root / "none")
    jobs.run_update_job(game, at=datetime.fromisoformat("2026-11-18T23:59:59+00:00"), maildir=root / "none")
    return root


@pytest.fixture
def ended(ended_dir, tmp_path) -> GameDir:
    return GameDir(shutil.copytree(ended_dir, tmp_path / "demo", symlinks=True))


def _tamper(game: GameDir, how: str) -> None:
    revealed = load_json(game.hidden_seeds_path)
    record = revealed["updates"]["2"]
    draws, hidden = record["hidden_rolls"], bytes.fromhex(record["hidden_seed"])
    digest = load_json(game.results_path(2))["dice"]["digest"]
    k = next(i for i, d in enumerate(draws) if len(d) > 3)
    label, sides, _, player = draws[k]
    if how == "drop":
        del draws[k]
    elif how == "relabel":  # a new label, its value recomputed: each draw still "recomputes"
        label = label + "#2"
        draws[k] = [label, sides, derive(player_key(hidden, player), digest, label, sides), player]
    elif how == "move":  # the same card told to another player, with their key
        other = next(p for p in ("alice", "bob", "carol", "dave", "erin") if p != player)
        draws[k] = [label, sides, derive(player_key(hidden, other), digest, label, sides), other]
    game.hidden_seeds_path.write_text(dump_json(revealed), encoding="utf-8")


@pytest.mark.parametrize("how", ["drop", "relabel", "move"])
def test_verify_hidden_catches_a_hidden_draw_dropped_relabelled_or_moved(ended, how):
    assert verify_hidden(ended) == []
    _tamper(ended, how)
    problems = verify_hidden(ended)
    assert any(p.startswith("update 2: ") and "public record listed" in p for p in problems), problems


def test_the_public_record_lists_a_hash_of_each_hidden_draw_and_never_its_card(ended):
    log = load_json(ended.update_logs()[2])["dice"]
    record = load_json(ended.results_path(2))["dice"]
    assert len(record["hidden_draws"]) == len(log["hidden_rolls"]) > 0
    text = ended.results_path(2).read_text()
    assert "card/" not in text and all(d[0] not in text for d in log["hidden_rolls"])
