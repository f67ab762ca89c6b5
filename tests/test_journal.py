"""The commit journal names files relative to the game, so a game folder moved or copied after a
crash mid-commit rolls forward in its new place and never writes into the old one (hardening #5);
a damaged journal is an error that says what to do (#10)."""

import shutil

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
