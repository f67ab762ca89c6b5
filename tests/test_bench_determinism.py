"""The benchmark's workload under nomopoly2-full: one update of the same game, run twice from copies,
leaves byte-identical state (bench/determinism.py); and the workload's later-section commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from admin.jobs import followup
from admin.site import writer
from bench import determinism, workload


def _game(tmp_path: Path, updates: int) -> tuple[workload.Spec, object]:
    spec = workload.Spec(players=12, squares=60, game="nomopoly2-full")
    game = workload.create_game(tmp_path / "base", spec)
    workload.run_updates(game, spec, updates)
    return spec, game


def test_one_update_twice_from_copies_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Copy b builds its site and mails out side by side, its pages in two processes (the
    thresholds lowered to this small game): the same bytes as copy a, in one process."""
    monkeypatch.setattr(followup, "PARALLEL_FROM", 1)
    monkeypatch.setattr(writer, "PARALLEL_FROM", 2)
    spec, game = _game(tmp_path, 6)
    update, diff = determinism.update_twice(game, spec, tmp_path / "copies")
    assert update == 7
    assert diff == []
    a, b = tmp_path / "copies" / "a", tmp_path / "copies" / "b"
    assert len(list((b / "site" / "players").iterdir())) == 12
    # the check can fail: a changed byte in one copy's state, site or mail is found; a message's Date is not
    results = sorted((b / "state" / "results").iterdir())[-1]
    results.write_bytes(results.read_bytes() + b" ")
    message = sorted((b / "state" / "outbox").rglob("*.eml"))[0]
    message.write_bytes(re.sub(rb"(?m)^Date: .*$", b"Date: Thu, 01 Jan 2099 00:00:00 +0000", message.read_bytes()))
    assert determinism.differences(a / "state", b / "state") == [f"results/{results.name}"]
    message.write_bytes(message.read_bytes() + b"P.S.\r\n")
    page = b / "site" / "index.html"
    page.write_bytes(page.read_bytes() + b" ")
    assert determinism.differences(a / "state", b / "state") == [message.relative_to(b / "state").as_posix(), f"results/{results.name}"]
    assert determinism.differences(a / "site", b / "site") == ["index.html"]


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
