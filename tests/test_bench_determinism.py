"""The benchmark's workload under nomopoly2-full: one update of the same game, run twice from copies,
leaves byte-identical state (bench/determinism.py); and the workload's later-section commands."""

from __future__ import annotations

from pathlib import Path

from bench import determinism, workload


def _game(tmp_path: Path, updates: int) -> tuple[workload.Spec, object]:
    spec = workload.Spec(players=12, squares=60, game="nomopoly2-full")
    game = workload.create_game(tmp_path / "base", spec)
    workload.run_updates(game, spec, updates)
    return spec, game


def test_one_update_twice_from_copies_is_byte_identical(tmp_path: Path) -> None:
    spec, game = _game(tmp_path, 6)
    update, diff = determinism.update_twice(game, spec, tmp_path / "copies")
    assert update == 7
    assert diff == []
    # the check can fail: a changed byte in one copy's state is found
    results = sorted((tmp_path / "copies" / "b" / "state" / "results").iterdir())[-1]
    results.write_bytes(results.read_bytes() + b" ")
    assert determinism.differences(tmp_path / "copies" / "a" / "state", tmp_path / "copies" / "b" / "state") \
        == [f"results/{results.name}"]


def test_the_mail_uses_the_later_sections(tmp_path: Path) -> None:
    """After a few updates the players' mail holds the later sections' commands, drawn from their
    situation, and the same state gives the same mail."""
    spec, game = _game(tmp_path, 8)
    state = game.load()
    mails = workload.emails_for(state, spec, state.update + 1)
    assert mails == workload.emails_for(game.load(), spec, state.update + 1)
    text = b"\n".join(raw for _, raw in mails).decode()
    keywords = {line.split()[0] for line in text.splitlines() if line[:1].isupper() and " " in line}
    assert {"CREATE", "BUILD"} & keywords, sorted(keywords)
