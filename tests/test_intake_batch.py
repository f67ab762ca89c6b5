"""Intake writes a batch of messages with a constant number of syncs, and in the right order: every
archive file is durable before the ledger that names it is written. Also: archive files left by
an interrupted run are checked before they are trusted, failures are clean errors.
(The ledger's own files: tests/test_ledger.py.)"""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from pathlib import Path
from typing import Sequence

import pytest

from admin.store import fileio as store
from admin.engine.errors import StateError
from admin.mail.inbound import intake
from admin.mail.inbound.intake import archive_path, take_in
from admin.mail.inbound.ledger import Ledger
from admin.mail.inbound.sources import RawMessage

T0 = datetime(2026, 11, 3, 9, 0, tzinfo=timezone.utc)


def raw_mail(n: int, message_id: str | None = None) -> bytes:
    m = EmailMessage()
    m["From"] = f"Player {n} <p{n}@example.org>"
    m["To"] = "admin@example.org"
    m["Subject"] = f"moves {n}"
    m["Date"] = format_datetime(T0 + timedelta(minutes=n))
    m["Message-ID"] = message_id or f"<batch-{n}@example.org>"
    m.set_content(f"BUY\nVOTE {n} YES\n")
    return m.as_bytes(policy=SMTP)


@dataclass
class ListSource:
    """A MailSource holding messages in memory."""

    raws: Sequence[bytes]
    moved: list[str] = field(default_factory=list)

    def fetch(self, cutoff: datetime | None = None) -> list[RawMessage]:
        return [RawMessage(f"list:{i}", T0 + timedelta(minutes=i), raw) for i, raw in enumerate(self.raws)]

    def mark_processed(self, keys: Sequence[str]) -> None:
        self.moved.extend(keys)

    def close(self) -> None:
        pass


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def fd_path(fd: int) -> str:
    return os.readlink(f"/proc/self/fd/{fd}")


@dataclass
class Barriers:
    """Every fsync and syncfs made, in order, as ("fsync", path) or ("syncfs", path)."""

    calls: list[tuple[str, str]] = field(default_factory=list)

    def count(self) -> int:
        return len(self.calls)


@pytest.fixture
def barriers(monkeypatch: pytest.MonkeyPatch) -> Barriers:
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd to name the synced files")
    seen = Barriers()
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        seen.calls.append(("fsync", fd_path(fd)))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    real_syncfs = store.syncfs_function()
    if real_syncfs is not None:
        def syncfs(fd: int) -> None:
            seen.calls.append(("syncfs", fd_path(fd)))
            real_syncfs(fd)

        monkeypatch.setattr(store, "syncfs_function", lambda: syncfs)
    return seen


def no_syncfs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "syncfs_function", lambda: None)


# -- a constant number of syncs ----------------------------------------------------------------
@pytest.mark.skipif(store.syncfs_function() is None, reason="syncfs(2) is Linux-only")
def test_the_syncs_of_a_take_in_do_not_grow_with_the_number_of_messages(tmp_path, barriers):
    counts = {}
    for n in (1, 10, 200):
        before = barriers.count()
        report = take_in(tmp_path / f"state-{n}", ListSource([raw_mail(i) for i in range(n)]), None)
        assert report.new == n
        counts[n] = barriers.count() - before
    # one syncfs for the archive, then the ledger's pending.yaml: the file and its folder
    assert counts == {1: 3, 10: 3, 200: 3}, counts
    assert [kind for kind, _ in barriers.calls[-3:]] == ["syncfs", "fsync", "fsync"]


@pytest.mark.skipif(store.syncfs_function() is None, reason="syncfs(2) is Linux-only")
def test_a_duplicate_delivery_adds_only_its_months_ledger_file(tmp_path, barriers):
    raws = [raw_mail(i) for i in range(20)] + [raw_mail(99, message_id="<batch-3@example.org>")]
    report = take_in(tmp_path / "state", ListSource(raws), None)
    assert (report.new, report.duplicates) == (20, 1)
    # syncfs, then pending.yaml and 2026-11.tsv, each with its folder
    assert barriers.count() == 5, barriers.calls


def test_taking_in_nothing_new_syncs_nothing(tmp_path, barriers):
    source = ListSource([raw_mail(i) for i in range(5)])
    take_in(tmp_path / "state", source, None)
    before = barriers.count()
    report = take_in(tmp_path / "state", source, None)
    assert (report.new, report.known) == (0, 5)
    assert barriers.count() == before


def test_a_dry_run_writes_and_syncs_nothing(tmp_path, barriers):
    report = take_in(tmp_path / "state", ListSource([raw_mail(i) for i in range(5)]), None, write=False)
    assert report.new == 5 and len(report.fresh) == 5
    assert not (tmp_path / "state").exists()
    assert barriers.calls == []


# -- the order: archive durable, then the ledger ----------------------------------------------
@pytest.mark.parametrize("use_syncfs", [True, False], ids=["syncfs", "fsync-each"])
def test_every_archive_file_is_synced_before_the_ledger_names_it(tmp_path, barriers, monkeypatch,
                                                                 use_syncfs):
    if use_syncfs and store.syncfs_function() is None:
        pytest.skip("syncfs(2) is Linux-only")
    if not use_syncfs:
        no_syncfs(monkeypatch)
    state = tmp_path / "state"
    take_in(state, ListSource([raw_mail(100)]), None)  # a ledger exists before this batch
    raws = [raw_mail(i) for i in range(30)]
    digests = {sha(raw) for raw in raws}
    seen_at_barrier: list[tuple[set[str], bool]] = []
    real_write = Ledger.write

    def write(self: Ledger, where: Path) -> None:
        # when the ledger is written, every file it is about to name must already be synced
        synced = {Path(p).name for _, p in barriers.calls}
        files = {archive_path(state, d).name for d in digests}
        folders = {str(archive_path(state, d).parent) for d in digests}
        if use_syncfs:
            assert any(kind == "syncfs" for kind, _ in barriers.calls)
        else:
            assert files <= synced, files - synced
            assert folders <= {p for _, p in barriers.calls}
        on_disk = Ledger.load(state).messages
        seen_at_barrier.append(({d for d in digests if d in on_disk}, True))
        real_write(self, where)

    monkeypatch.setattr(Ledger, "write", write)
    barriers.calls.clear()
    report = take_in(state, ListSource(raws), None)
    assert report.new == 30
    assert seen_at_barrier == [(set(), True)]  # the ledger did not name them before the sync
    for raw in raws:
        assert archive_path(state, sha(raw)).read_bytes() == raw
    assert {h for h, e in Ledger.load(state).messages.items() if e.status == "pending"} >= digests
    last_sync = max(i for i, (kind, p) in enumerate(barriers.calls)
                    if kind == "syncfs" or "/mail/" in p)
    first_ledger = min(i for i, (_, p) in enumerate(barriers.calls) if "ledger" in p)
    assert last_sync < first_ledger


def test_without_syncfs_each_file_and_folder_is_synced_once(tmp_path, barriers, monkeypatch):
    no_syncfs(monkeypatch)
    raws = [raw_mail(i) for i in range(12)]
    take_in(tmp_path / "state", ListSource(raws), None)
    paths = [p for _, p in barriers.calls]
    for raw in raws:
        assert paths.count(str(archive_path(tmp_path / "state", sha(raw)))) == 1
    assert len(paths) == len(set(paths)), "a file or folder was synced twice"


# -- files left by an interrupted run -----------------------------------------------------------
def test_an_archive_file_torn_by_a_power_cut_is_written_again(tmp_path):
    state = tmp_path / "state"
    raws = [raw_mail(i) for i in range(3)]
    torn = archive_path(state, sha(raws[1]))
    torn.parent.mkdir(parents=True)
    torn.write_bytes(raws[1][:10])  # renamed into place, its data never reached the disk
    report = take_in(state, ListSource(raws), None)
    assert report.new == 3
    assert torn.read_bytes() == raws[1]


def test_a_whole_archive_file_left_by_an_interrupted_run_is_kept_and_synced(tmp_path, barriers,
                                                                            monkeypatch):
    no_syncfs(monkeypatch)  # so the sync of each file shows
    state = tmp_path / "state"
    raw = raw_mail(1)
    kept = archive_path(state, sha(raw))
    kept.parent.mkdir(parents=True)
    kept.write_bytes(raw)
    inode = kept.stat().st_ino
    archived: list[str] = []
    monkeypatch.setattr(intake, "crashpoint", archived.append)
    report = take_in(state, ListSource([raw]), None)
    assert report.new == 1
    assert kept.stat().st_ino == inode  # not rewritten
    assert "intake.archived" not in archived
    assert ("fsync", str(kept)) in barriers.calls
    assert Ledger.load(state).messages[sha(raw)].status == "pending"


# -- failures ----------------------------------------------------------------------------------
def test_a_failing_archive_write_is_a_clear_error_and_leaves_no_temp_file(tmp_path, monkeypatch):
    state = tmp_path / "state"
    raws = [raw_mail(i) for i in range(5)]
    real_replace = os.replace
    calls = []

    def replace(src: str | Path, dst: str | Path) -> None:
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(StateError, match="could not write .*No space left"):
        take_in(state, ListSource(raws), None)
    assert list(state.rglob("*.tmp")) == []
    assert not (state / "ledger").exists()


def test_a_failing_sync_stops_before_the_ledger_is_written(tmp_path, monkeypatch):
    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(store, "syncfs_function", lambda: failing)
    state = tmp_path / "state"
    with pytest.raises(StateError, match="could not write .*Input/output error"):
        take_in(state, ListSource([raw_mail(i) for i in range(3)]), None)
    assert not (state / "ledger").exists()
    monkeypatch.undo()
    report = take_in(state, ListSource([raw_mail(i) for i in range(3)]), None)  # the re-run
    assert report.new == 3
