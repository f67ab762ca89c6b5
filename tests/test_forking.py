"""Work done in a second process (admin/runtime/forking.py): the site's pages and the mail-out beside the
site build give what one process gives, byte for byte, and a child's failure reaches the caller."""

from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from fixtures.browser import make_game
from fixtures.games import copy_game, deliver, game_dir  # noqa: F401 - a fixture

from admin.runtime import forking
from admin.engine.errors import NomopolyError, StateError
from admin.store.gamedir import GameDir
from admin.site import writer
from admin.site.build import build


def test_a_forked_function_returns_its_result_from_another_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forking.ENV, "2")
    child = forking.start(lambda: (os.getpid(), [1, 2, 3]), "a test")
    assert child is not None
    pid, value = child.result()
    assert pid != os.getpid() and value == [1, 2, 3]


def test_what_the_child_raised_is_raised_in_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forking.ENV, "2")

    def fails() -> None:
        raise StateError("state/game.yaml: not found")

    child = forking.start(fails, "a test")
    assert child is not None
    with pytest.raises(StateError, match="state/game.yaml: not found"):
        child.result()


def test_a_child_that_dies_is_reported_with_its_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forking.ENV, "2")
    child = forking.start(lambda: os._exit(3), "the dying work")
    assert child is not None
    with pytest.raises(forking.WorkerError, match=r"the dying work stopped \(exit code 3\)"):
        child.result()


def test_a_result_that_cannot_be_sent_back_is_an_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forking.ENV, "2")
    child = forking.start(lambda: (lambda: None), "a test")
    assert child is not None
    with pytest.raises(forking.WorkerError, match="could not send back its answer"):
        child.result()


def test_one_worker_means_no_second_process_and_a_bad_setting_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forking.ENV, "1")
    assert forking.start(lambda: 1, "a test") is None
    monkeypatch.setenv(forking.ENV, "two")
    with pytest.raises(NomopolyError, match="NOMOPOLY_WORKERS='two': not a number of processes; set it to 1"):
        forking.workers()


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("incremental", [False, True])
def test_pages_rendered_in_two_processes_equal_those_of_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           incremental: bool) -> None:
    """Every page the build renders is shared out between two processes (PARALLEL_FROM=2): the
    site, its manifest and the build's report are those of a build in one process."""
    monkeypatch.setattr(writer, "PARALLEL_FROM", 2)
    game = make_game(tmp_path / "g", updates=4)
    if incremental:
        old = make_game(tmp_path / "before", updates=3)
        for out in ("one", "two"):
            build(old, tmp_path / out)
    reports = {}
    for out, workers in (("one", "1"), ("two", "2")):
        monkeypatch.setenv(forking.ENV, workers)
        reports[out] = build(game, tmp_path / out)
    one, two = reports["one"], reports["two"]
    assert len(one.rendered) >= 10
    assert (one.rendered, one.written, one.files) == (two.rendered, two.written, two.files)
    assert _files(one.out) == _files(two.out)
    if incremental:
        assert "updates/0001.html" not in two.rendered and "updates/0004.html" in two.rendered


def test_the_mail_out_beside_the_site_build_writes_what_it_writes_after_it(game_dir: GameDir, tmp_path: Path,  # noqa: F811 (the fixture)
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The mail-out in a second process (PARALLEL_FROM=1 player) while the site is built: the same
    outbox (but for each message's Date) and the same site as one process doing one then the other."""
    from admin.jobs import followup
    from admin.jobs import update as jobs

    monkeypatch.setattr(followup, "PARALLEL_FROM", 1)
    inbox = game_dir.root / "mail" / "inbox"
    deliver(inbox, "alice@example.org", "PROPOSE Free parking\nA player on square 1 gains $5.", "2026-11-03T10:00")
    deliver(inbox, "bob@example.org", "STATUS", "2026-11-03T11:00")
    made = {}
    for name, workers in (("one", "1"), ("two", "2")):
        monkeypatch.setenv(forking.ENV, workers)
        game = copy_game(game_dir, tmp_path / name)
        outcome = jobs.run_update_job(game, at=datetime(2026, 11, 4, tzinfo=timezone.utc))
        done = followup.site_and_mail(game, outcome.update, outcome.state)
        assert done.site is not None and done.site_error is None and done.mail is not None
        made[name] = game, done

    def outbox(game: GameDir) -> dict[str, bytes]:
        return {k: re.sub(rb"(?m)^Date: .*\r?\n", b"", v) for k, v in _files(game.state_dir / "outbox").items()}

    (one, a), (two, b) = made["one"], made["two"]
    assert len(a.mail.queued) >= 3 and a.mail.queued == b.mail.queued
    assert outbox(one) == outbox(two) and len(outbox(two)) >= 3
    site_one, site_two = _files(one.root / "site"), _files(two.root / "site")
    for stamped in (site_one, site_two):  # the build's cache of results files by size and mtime
        del stamped[".nomopoly-cache.json"]
    assert site_one == site_two and "index.html" in site_two


def test_a_bad_workers_setting_stops_an_update_before_it_runs(game_dir: GameDir, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811 (the fixture)
    from click.testing import CliRunner

    from admin.cli.main import cli

    deliver(game_dir.root / "mail" / "inbox", "bob@example.org", "STATUS", "2026-11-03T11:00")
    monkeypatch.setenv(forking.ENV, "two")
    result = CliRunner().invoke(cli, ["update", "--game", str(game_dir.root), "--at", "2026-11-04T00:00:00+00:00"])
    assert isinstance(result.exception, NomopolyError)
    assert "NOMOPOLY_WORKERS='two': not a number of processes" in str(result.exception)
    assert game_dir.load().update == 0
