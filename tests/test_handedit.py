"""The state a user may edit (issue 31): a hand edit that replay cannot make is named file and key,
with how to record it; a missing state file is named; `check` fails without the seeds; and
`replay --write` rebuilds the state from the log."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from fixtures.games import copy_game

from admin.engine.events import Ruling
from admin.jobs import update as jobs

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")


def _cli(game: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "admin", "--game", str(game), *args], capture_output=True, text=True)


def _edit_money(game, name: str, money: int) -> None:
    """A hand edit, as a user makes it in an editor: one line of players.yaml changed."""
    path = game.state_dir / "players.yaml"
    text, n = re.subn(rf"(\n  {name}:\n(?:    .*\n)*?    money: )-?\d+", rf"\g<1>{money}", path.read_text())
    assert n == 1
    path.write_text(text)


def _money(game, name: str) -> int:
    return game.load().players[name].money


def test_replay_check_names_the_file_the_key_both_values_and_the_ruling_that_records_it(game_dir):
    jobs.run_update_job(game_dir, at=WED)
    bob = _money(game_dir, "bob")
    _edit_money(game_dir, "bob", bob + 5)
    out = _cli(game_dir.root, "replay", "--check")
    assert out.returncode == 1
    assert (f"state/players.yaml differs from the replayed state: players.bob.money is {bob + 5} on disk, "
            f"{bob} in the replay") in out.stderr, out.stderr
    assert "`nomopoly replay --write`" in out.stderr
    assert 'nomopoly ruling adjust bob --money +5 --reason "..."' in out.stderr, out.stderr


def test_the_edit_recorded_as_a_ruling_replays(game_dir, tmp_path):
    """What the check advises, done: the state written back, the change made by a ruling; the
    next update applies it and replay makes it too."""
    jobs.run_update_job(game_dir, at=WED)
    bob = _money(game_dir, "bob")
    _edit_money(game_dir, "bob", bob + 5)
    out = _cli(game_dir.root, "replay", "--write")
    assert out.returncode == 0 and "wrote state/players.yaml" in out.stdout, out.stderr
    assert _money(game_dir, "bob") == bob and jobs.replay_check(game_dir) == []
    without = copy_game(game_dir, tmp_path / "without")
    jobs.queue_ruling(game_dir, Ruling(kind="adjust", args={"player": "bob", "money": 5}, note="hand edit"))
    for g in (game_dir, without):
        jobs.run_update_job(g, at=SAT)
    assert jobs.replay_check(game_dir) == []
    assert _money(game_dir, "bob") == _money(without, "bob") + 5


def test_a_key_added_by_hand_and_a_reformatted_file_are_told_apart(game_dir):
    board = game_dir.state_dir / "board.yaml"
    board.write_text(board.read_text() + "extra: 1\n")
    game = game_dir.state_dir / "game.yaml"
    game.write_text("# a comment\n" + game.read_text())
    problems = jobs.replay_check(game_dir)
    assert "state/board.yaml differs from the replayed state: extra is 1 on disk, absent in the replay" in problems
    assert ("state/game.yaml differs from the replayed state only in how it is written (the same data)"
            in problems), problems


def test_a_missing_state_file_is_named_by_every_command_and_replay_write_makes_it_again(game_dir):
    (game_dir.state_dir / "players.yaml").unlink()
    for args in (["status"], ["check"], ["ruling", "adjust", "bob", "--money", "5", "--reason", "x"]):
        out = _cli(game_dir.root, *args)
        assert out.returncode == 1, (args, out.stdout)
        assert "players.yaml: missing" in out.stderr and "`nomopoly replay --write`" in out.stderr, out.stderr
        assert "is --game pointing at a game directory" not in out.stderr
    out = _cli(game_dir.root, "replay", "--check")
    assert out.returncode == 1 and "state/players.yaml is missing; the replayed state has it" in out.stderr
    out = _cli(game_dir.root, "replay", "--write")
    assert out.returncode == 0 and out.stdout.splitlines()[0] == "wrote state/players.yaml", out.stdout
    assert sorted(game_dir.load().players) == ["alice", "bob", "carol"]
    assert jobs.replay_check(game_dir) == []
    out = _cli(game_dir.root, "replay", "--write")
    assert "nothing was written" in out.stdout


def test_replay_needs_check_or_write(game_dir):
    out = _cli(game_dir.root, "replay")
    assert out.returncode == 2 and "--check (compare) or --write" in out.stderr


def test_check_fails_when_the_seeds_are_missing(game_dir):
    assert _cli(game_dir.root, "check").returncode == 0
    (game_dir.state_dir / "secrets.yaml").unlink()
    out = _cli(game_dir.root, "check")
    assert out.returncode == 1
    assert "state/secrets.yaml: missing: it holds the seeds of the next updates" in out.stderr, out.stderr


def test_check_fails_when_the_seeds_are_damaged(game_dir):
    (game_dir.state_dir / "secrets.yaml").write_text("chain_tail: zz\n")
    out = _cli(game_dir.root, "check")
    assert out.returncode == 1 and "no valid seed chain" in out.stderr, out.stderr


def test_check_warns_of_a_sections_square_off_the_board(tmp_path):
    """A fresh nomopoly2-full game has the Bank, the House of Cards and the Zoo on its board (a
    standing ruling: 60 squares); one that starts on the 20 squares of VI.2 is warned of each."""
    from admin.games.catalog import initial_state

    fresh = jobs.init_game(tmp_path / "fresh", "nomopoly2-full")
    assert len(fresh.load().squares) == 60
    out = _cli(fresh.root, "check")
    assert out.returncode == 0 and "warning" not in out.stderr, out.stderr
    small = jobs.init_game(tmp_path / "small", "nomopoly2-full",
                           start=initial_state("nomopoly2-full", "small", {"board": {"initial_squares": 20}}))
    out = _cli(small.root, "check")
    assert out.returncode == 0, out.stderr  # a warning: the game runs, the board may grow to them
    warned = sorted(line.split(": ")[2] for line in out.stderr.splitlines() if line.startswith("warning: "))
    assert warned == ["bank.square", "house-of-cards.square", "zoo.zoo_square"], out.stderr
    assert ("zoo.zoo_square: is square 51, which is not on the board (squares 1 to 20): nobody can reach what the "
            "zoo section puts there") in out.stderr
