"""The commit journal names files relative to the game, so a game folder moved or copied after a
crash mid-commit rolls forward in its new place and never writes into the old one (hardening #5);
a damaged journal is an error that says what to do (#10)."""

import json
import shutil
from pathlib import Path

import pytest

import admin.store.fileio as store
from admin.engine.errors import StateError
from admin.store.fileio import JOURNAL, Transaction, recover


def _crash_after_the_journal(root, monkeypatch):
    """Stage two files (one in state/, one beside it) and stop at the commit point."""
    state = root / "state"
    state.mkdir(parents=True)
    (root / "rules_md").mkdir()
    tx = Transaction(state)
    tx.write(state / "game.yaml", "update: 1\n")
    tx.write(root / "rules_md" / "01-x.md", "# I. X\n")

    def crash(_root):
        raise RuntimeError("killed")

    monkeypatch.setattr(store, "_roll_forward", crash)
    with pytest.raises(RuntimeError):
        tx.commit()
    monkeypatch.undo()
    assert (state / JOURNAL).exists() and not (state / "game.yaml").exists()


def test_a_copied_game_rolls_forward_in_the_copy_only(tmp_path, monkeypatch):
    original = tmp_path / "game"
    _crash_after_the_journal(original, monkeypatch)
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    assert recover(copy / "state")
    assert (copy / "state" / "game.yaml").read_text() == "update: 1\n"
    assert (copy / "rules_md" / "01-x.md").read_text() == "# I. X\n"
    assert not (original / "state" / "game.yaml").exists()  # the original is untouched ...
    assert (original / "state" / JOURNAL).exists()          # ... and still rolls forward itself
    assert recover(original / "state") and (original / "state" / "game.yaml").exists()


def test_a_moved_game_rolls_forward_where_it_is(tmp_path, monkeypatch):
    _crash_after_the_journal(tmp_path / "game", monkeypatch)
    moved = tmp_path / "elsewhere" / "game"
    moved.parent.mkdir()
    shutil.move(tmp_path / "game", moved)
    assert recover(moved / "state") and (moved / "rules_md" / "01-x.md").exists()


def test_a_damaged_journal_says_what_to_do(tmp_path):
    (tmp_path / JOURNAL).write_text('[["a", ')
    with pytest.raises(StateError, match="journal of an interrupted commit is damaged; restore"):
        recover(tmp_path)


def test_reading_a_game_after_a_crash_mid_commit_finishes_the_commit_first(tmp_path, monkeypatch):
    """Hardening #7: status, status --json and build never show a half-written state."""
    from admin.jobs import update as jobs
    from admin.store.gamedir import GameDir

    game = jobs.init_game(tmp_path / "g")
    jobs.add_player(game, "alice", "alice@example.org")
    state = game.load()
    state.players["alice"].money = 123
    tx = Transaction(game.state_dir)
    game.stage_state(tx, state)
    monkeypatch.setattr(store, "_roll_forward", lambda root: (_ for _ in ()).throw(RuntimeError("killed")))
    with pytest.raises(RuntimeError):
        tx.commit()
    monkeypatch.undo()
    assert (game.state_dir / JOURNAL).exists()
    assert GameDir(game.root).load_public().players["alice"].money == 123
    assert not (game.state_dir / JOURNAL).exists()


def test_a_transaction_tells_what_it_would_write_and_remove(tmp_path):
    from admin.store.fileio import Transaction

    tx = Transaction(tmp_path)
    tx.write(tmp_path / "a.yaml", "x: 1\n")
    tx.remove(tmp_path / "b.yaml")
    assert tx.staged() == {tmp_path / "a.yaml": b"x: 1\n", tmp_path / "b.yaml": None}


@pytest.mark.parametrize("pairs", [
    [["", "/tmp/nomopoly-victim"]],               # a removal of any file
    [["payload.sh", "../../victim"]],              # a rename out of the game
    [["../../outside.tmp", "game.yaml"]],         # a temp file from outside
    [["a.tmp", "sub/../../../victim"]],
])
def test_a_journal_naming_a_file_outside_the_game_is_refused_and_changes_nothing(tmp_path, pairs):
    state = tmp_path / "game" / "state"
    state.mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    outside = Path("/tmp/nomopoly-victim")
    outside.write_text("keep me too")
    (state / "payload.sh").write_text("rm -rf /")
    (state / JOURNAL).write_text(json.dumps(pairs))
    with pytest.raises(StateError, match="outside the game folder .* nothing was changed"):
        recover(state)
    assert victim.read_text() == "keep me" and outside.read_text() == "keep me too"
    assert (state / JOURNAL).exists() and (state / "payload.sh").exists()


@pytest.mark.parametrize("text", ['{"a": 1}', '[["only one"]]', "[[1, 2]]", '"x"'])
def test_a_journal_of_the_wrong_shape_is_a_clear_error(tmp_path, text):
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL).write_text(text)
    with pytest.raises(StateError, match=r"is not a list of \[temp file, file\] pairs; remove it"):
        recover(state)


def test_a_journal_nested_beyond_reading_is_called_damaged_not_a_traceback(tmp_path):
    """Issue 30: valid JSON of the wrong shape is a clear error; so is JSON nested 100,000 deep,
    which made json raise RecursionError."""
    (tmp_path / JOURNAL).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StateError, match="journal of an interrupted commit is damaged"):
        recover(tmp_path)


def test_a_journal_too_big_to_be_a_journal_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "MAX_JOURNAL_BYTES", 100)
    (tmp_path / JOURNAL).write_text(json.dumps([["a.tmp", "a.yaml"]] * 20))
    with pytest.raises(StateError, match="damaged; .* it is 420 bytes, more than any journal nomopoly writes"):
        recover(tmp_path)


def test_a_journal_that_is_a_folder_is_a_clear_error(tmp_path):
    (tmp_path / JOURNAL).mkdir()
    with pytest.raises(StateError, match="journal of an interrupted commit cannot be read"):
        recover(tmp_path)


def test_a_journal_whose_rename_fails_names_the_file_and_stops(tmp_path):
    state = tmp_path / "game" / "state"
    (state / "a.tmp").mkdir(parents=True)  # a folder where the journal names a temp file
    (state / "a.tmp" / "x").write_text("x")
    (state / "a.yaml").write_text("kept: 1\n")
    (state / JOURNAL).write_text(json.dumps([["a.tmp", "a.yaml"]]))
    with pytest.raises(StateError, match=r"finishing the interrupted commit failed at .*a\.yaml"):
        recover(state)
    assert (state / "a.yaml").read_text() == "kept: 1\n" and (state / JOURNAL).exists()


@pytest.mark.parametrize("text", ['{"a": 1}', "[" * 50_000 + "]" * 50_000, "null"])
def test_no_command_gives_a_traceback_for_a_journal_of_the_wrong_shape(tmp_path, text):
    import subprocess
    import sys

    from admin.jobs import update as jobs

    game = jobs.init_game(tmp_path / "g")
    (game.state_dir / JOURNAL).write_text(text)
    out = subprocess.run([sys.executable, "-m", "admin", "--game", str(game.root), "status"],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert f"{game.state_dir / JOURNAL}: the journal of an interrupted commit" in out.stderr
