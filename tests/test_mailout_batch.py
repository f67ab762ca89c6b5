"""Mail out at scale: one event index per update, one queued batch per run (N + a few fsyncs), a
re-run that composes and sends nothing, and a batch that fails or is killed part way."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from fixtures.smtp import SMTP_PASSWORD, SmtpSink
from test_mailout import configure, first_update
from test_outbox import alice, compose, three_messages

from admin.store import fileio as store
from admin.engine.events import Event
from admin.engine.errors import MailError, StateError
from admin.store.gamedir import GameDir
from admin.mail.outbound import compose as compose_module
from admin.mail.outbound import eml
from admin.mail.outbound.mailout import mail_out, outbox_of
from admin.mail.outbound.outbox import Outbox, iter_messages
from admin.mail.outbound.updatelog import EventIndex, event_of, load_update_log
from admin.store.plain import from_data, to_data

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def outbox(tmp_path: Path) -> Outbox:
    return Outbox(tmp_path / "state" / "outbox")


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every fsync, counted by what it synced: ``file`` or the folder's name."""
    counts: Counter[str] = Counter()
    real = os.fsync

    def counting(fd: int) -> None:
        path = Path(os.readlink(f"/proc/self/fd/{fd}"))
        counts[path.name if path.is_dir() else "file"] += 1
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    real_syncfs = store.syncfs_function()
    if real_syncfs is not None:
        def syncfs(fd: int) -> None:
            counts["syncfs"] += 1
            real_syncfs(fd)

        monkeypatch.setattr(store, "syncfs_function", lambda: syncfs)
    return counts


# -- the event index -----------------------------------------------------------------------------
def _about_by_scanning(e: Event, name: str) -> bool:
    """What results used to ask of every event for every player."""
    if e.player == name:
        return True
    return bool(e.text) and name in (e.data.get("owner"), e.data.get("to"), e.data.get("from"))


EVENTS = [
    Event("move", "alice moves to 5", player="alice"),
    Event("rent", "bob pays alice $10", player="bob", data={"to": "alice", "from": "bob"}),
    Event("bury", None, player="carol", private="buried KS on 9", data={"owner": "alice"}),
    Event("loss", "dora loses square 3", data={"owner": "dora", "to": 7, "from": ["x"]}),
    Event("self", "erin pays erin", player="erin", data={"to": "erin", "owner": "erin"}),
    Event("note", "", data={"owner": "alice"}),
    Event("update", "update 1 ran", data={"week": 1}),
    Event("gift", "alice gives bob $1", player="alice", data={"to": "bob"}, ref="h#2"),
    Event("gift", "again", player="bob", ref="h#2"),
]


def test_one_index_gives_each_player_exactly_their_events_in_order() -> None:
    index = EventIndex.of(EVENTS)
    for name in ("alice", "bob", "carol", "dora", "erin", "frank"):
        assert index.about(name) == [e for e in EVENTS if _about_by_scanning(e, name)], name
    assert index.public == tuple(e.text for e in EVENTS if e.text)
    assert index.by_ref == {"h#2": EVENTS[-2:]}


def test_the_index_of_a_real_update_matches_scanning(game_dir: GameDir) -> None:
    configure(game_dir)
    first_update(game_dir)
    log = load_update_log(game_dir, 1)
    index = EventIndex.of(log.events)
    for name in ("alice", "bob", "carol", "mallory"):
        assert index.about(name) == [e for e in log.events if _about_by_scanning(e, name)]


def test_events_are_read_as_strictly_as_from_data(tmp_path: Path) -> None:
    for e in EVENTS:
        record = to_data(e)
        assert event_of(record, tmp_path / "log.json", 0) == from_data(Event, record)
    bad = [{"kind": "x", "text": 3}, {"kind": "x", "ok": 1}, {"kind": "x", "colour": "red"},
           {"text": "no kind"}, ["not", "a", "mapping"]]
    for i, record in enumerate(bad):
        with pytest.raises(StateError, match=rf"log\.json: events\[{i}\]"):
            event_of(record, tmp_path / "log.json", i)


# -- a batch -------------------------------------------------------------------------------------
@pytest.mark.parametrize("use_syncfs", [True, False], ids=["syncfs", "fsync-each"])
def test_a_batch_is_queued_in_order_with_one_barrier_for_the_files_and_one_for_the_folder(
        outbox: Outbox, fsyncs: Counter[str], monkeypatch: pytest.MonkeyPatch, use_syncfs: bool) -> None:
    if use_syncfs and store.syncfs_function() is None:
        pytest.skip("syncfs(2) is Linux-only")
    if not use_syncfs:
        monkeypatch.setattr(store, "syncfs_function", lambda: None)
    messages = [compose(f"results/update-3/p{i:02d}", f"p{i:02d}@example.org") for i in range(30)]
    queued = outbox.queue_all(messages + [messages[3]])  # a duplicate in the batch is queued once
    assert queued == [str(m["Message-ID"]) for m in messages]
    barrier = {"syncfs": 1} if use_syncfs else {"file": 30}
    assert fsyncs == {**barrier, "pending": 1}
    assert [eml.file_message_id(p) for p in outbox.pending()] == queued  # queue order kept
    assert all(outbox.knows(m) for m in queued)
    assert outbox.queue_all(messages) == [] and fsyncs == {**barrier, "pending": 1}
    assert not list(outbox.pending_dir.glob(".*.tmp"))


def test_a_batch_survives_and_a_rerun_queues_and_sends_nothing(outbox: Outbox) -> None:
    outbox.queue_all(three_messages())
    later = Outbox(outbox.folder)  # the next run
    assert later.queue_all(three_messages()) == []
    report = later.deliver(None)
    assert report.sent == 3 and len(later.sent()) == 3
    assert later.queue_all(three_messages()) == [] and later.deliver(None).sent == 0


def test_a_write_that_fails_part_way_queues_none_of_the_batch_and_leaves_no_temp_files(
        outbox: Outbox, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = open
    opened: list[str] = []

    def failing_open(path, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if "w" in mode and str(path).endswith(".tmp"):
            opened.append(str(path))
            if len(opened) == 3:
                raise OSError(28, "No space left on device")
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(StateError, match="could not write .*No space left on device"):
        outbox.queue_all(three_messages())
    monkeypatch.undo()
    assert outbox.pending() == [] and not list(outbox.pending_dir.glob(".*"))
    assert len(outbox.queue_all(three_messages())) == 3  # the re-run queues all of them


def test_a_message_that_fails_its_check_fails_the_batch_with_nothing_queued(outbox: Outbox) -> None:
    bad = compose("results/update-3/nobody", "alice@example.org")
    del bad["Auto-Submitted"]
    written: list[str] = []

    def messages():  # type: ignore[no-untyped-def]  # composed one at a time, as mail_out does
        for msg in [*three_messages(), bad]:
            written.extend(p.name for p in outbox.pending_dir.glob(".*.tmp"))
            yield msg

    with pytest.raises(MailError, match="Auto-Submitted"):
        outbox.queue_all(messages())
    assert written, "the first messages were written before the bad one was composed"
    assert outbox.pending() == [] and not list(outbox.pending_dir.glob(".*"))


KILL_DURING_BATCH = """
import os, signal, sys
sys.path[:0] = [{root!r}, {tests!r}]
from admin.mail.outbound import outbox as module
from admin.mail.outbound.outbox import Outbox
from test_outbox import three_messages

def killed(paths):  # the temp files are written; die before any is fsynced or renamed
    os.kill(os.getpid(), signal.SIGKILL)

module.sync_files = killed
Outbox({folder!r}).queue_all(three_messages())
"""


def test_a_batch_killed_part_way_is_queued_whole_by_the_rerun_and_sent_once(outbox: Outbox) -> None:
    script = KILL_DURING_BATCH.format(root=str(ROOT), tests=str(ROOT / "tests"), folder=str(outbox.folder))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == -9, run.stderr
    assert outbox.pending() == [] and len(list(outbox.pending_dir.glob(".*.tmp"))) == 3
    assert len(outbox.queue_all(three_messages())) == 3
    assert not list(outbox.pending_dir.glob(".*.tmp"))
    assert outbox.deliver(None).sent == 3
    assert outbox.queue_all(three_messages()) == [] and outbox.deliver(None).sent == 0


# -- mail out ------------------------------------------------------------------------------------
def test_mail_out_costs_one_barrier_per_batch_and_a_rerun_composes_and_syncs_nothing(
        game_dir: GameDir, fsyncs: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    configure(game_dir)
    first_update(game_dir)
    fsyncs.clear()
    first = mail_out(game_dir, 1)
    assert (first.sent, len(first.queued)) == (6, 6)
    barrier = {"syncfs": 1} if store.syncfs_function() is not None else {"file": 6}
    assert fsyncs == {**barrier, "pending": 2, "sent": 1}
    composed: list[str] = []
    real = compose_module.new_message
    monkeypatch.setattr(compose_module, "new_message",
                        lambda **kw: composed.append(kw["message_id"]) or real(**kw))
    fsyncs.clear()
    again = mail_out(game_dir, 1)
    assert (again.sent, again.queued, composed, fsyncs) == (0, (), [], Counter())
    assert len(outbox_of(game_dir).sent()) == 6


def test_mail_out_after_a_crash_before_the_report_queues_only_the_report(game_dir: GameDir) -> None:
    configure(game_dir)
    first_update(game_dir)
    first = mail_out(game_dir, 1)
    (report_file,) = [p for p in outbox_of(game_dir).sent()
                      if b"X-Nomopoly-Kind: report" in p.read_bytes()]
    report_file.unlink()  # as if the run had died before the report was written
    again = mail_out(game_dir, 1)
    assert again.sent == 1 and len(again.queued) == 1
    (report,) = [m for m in iter_messages(outbox_of(game_dir).sent_dir)
                 if m["X-Nomopoly-Kind"] == "report"]
    assert str(report["Message-ID"]) in first.queued
    assert "Mail out: 5 message(s) queued for the players" in report.get_content()


@pytest.mark.smtp
def test_over_smtp_each_sent_message_is_in_the_ledger_before_the_next_is_sent(
        game_dir: GameDir, smtp_server: SmtpSink, fsyncs: Counter[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", SMTP_PASSWORD)
    configure(game_dir, smtp_server)
    first_update(game_dir)
    fsyncs.clear()
    assert mail_out(game_dir, 1).sent == 6
    barrier = {"syncfs": 1} if store.syncfs_function() is not None else {"file": 6}
    assert fsyncs == {**barrier, "pending": 2, "sent": 6}
    assert len(smtp_server.messages) == 6


def test_a_single_queue_is_a_batch_of_one(outbox: Outbox, fsyncs: Counter[str]) -> None:
    assert outbox.queue(alice()) is True and outbox.queue(alice()) is False
    barrier = {"syncfs": 1} if store.syncfs_function() is not None else {"file": 1}
    assert fsyncs == {**barrier, "pending": 1}


def test_mail_out_given_the_updated_state_writes_what_it_writes_after_loading_it(
        game_dir: GameDir, tmp_path: Path) -> None:
    import shutil

    configure(game_dir)
    first_update(game_dir)
    other = GameDir(shutil.copytree(game_dir.root, tmp_path / "copy"))
    mail_out(game_dir, 1, state=game_dir.load())  # what `nomopoly update` hands over
    mail_out(other, 1)
    mine = {p.name: p.read_bytes().split(b"\r\n", 1)[1] for p in outbox_of(game_dir).sent()}  # not the Date
    theirs = {p.name: p.read_bytes().split(b"\r\n", 1)[1] for p in outbox_of(other).sent()}
    assert mine == theirs and len(mine) == 6
