"""Mail out, the queue: a folder of messages delivered by SMTP or left as .eml files.

What a message says is composed in :mod:`admin.mail.outbound.texts` and :mod:`admin.mail.outbound.compose`; which
messages an update sends is decided in :mod:`admin.mail.outbound.mailout`; the files (names, bytes) are
:mod:`admin.mail.outbound.eml`; the SMTP session is :mod:`admin.mail.outbound.smtp`. The flow::

    outbox = Outbox(game_dir / "state" / "outbox")
    outbox.queue(msg)              # pending/<name>.eml, atomically; False if queued or sent before
    outbox.queue_all(messages)     # the same for many, as one batch (one fsync of the folder)
    report = outbox.deliver(smtp)  # SMTP, or (smtp=None) the .eml files are the delivery

The ``sent/`` folder is the ledger. A file's name is derived from its Message-ID only, so a re-run
that composes the same messages (see :func:`~admin.mail.outbound.compose.make_message_id`) queues nothing
new and sends nothing twice. Per-message failures are reported in :class:`DeliveryReport`, never
raised; the message stays in ``pending/`` and is retried on the next run.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Literal

from admin.engine.errors import MailError
from admin.mail.outbound.compose import AUTO_SUBMITTED_RECEIPT, AUTO_SUBMITTED_RESULTS, msgids
from admin.mail.outbound.eml import (  # file_name, read_eml and iter_messages: part of the outbox's API
    eml_files,
    file_bytes,
    file_message_id,
    file_name,
    first_value,
    has_address,
    iter_messages,
    raw_headers,
    read_eml,
)
from admin.mail.outbound.smtp import ConnectError, SendError, SmtpConfig, SmtpSession, refusals
from admin.store.fileio import fsync_dir, sync_files, write_failed

__all__ = ["DeliveryReport", "Failure", "Outbox", "file_name", "iter_messages", "read_eml"]


# --------------------------------------------------------------------------------------------
# The outbox


@dataclass(frozen=True)
class Failure:
    """A message that was not delivered in this run (it stays in ``pending/``), or a recipient
    the server refused while it accepted the others (the message then counts as sent)."""

    message_id: str
    file: Path
    reason: str


@dataclass(frozen=True)
class DeliveryReport:
    """What one :meth:`Outbox.deliver` run did."""

    mode: Literal["outbox", "smtp"]
    sent_ids: tuple[str, ...] = ()
    failed: tuple[Failure, ...] = ()
    refused: tuple[Failure, ...] = ()
    """Recipients refused on messages that the server accepted for their other recipients."""
    connection_error: str | None = None
    """Set when the run could not reach the server, or lost it: every remaining message failed."""
    temporary: bool = False
    """True when the connection error looks transient (refused, timed out, dropped): exit 75."""
    queued: tuple[str, ...] = ()
    """Message-IDs the caller queued in this run (see :mod:`admin.mail.outbound.mailout`)."""
    notes: tuple[str, ...] = ()
    """What the caller chose not to send and why (e.g. a loop guard), for the admin."""

    @property
    def sent(self) -> int:
        return len(self.sent_ids)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.refused

    def summary(self) -> str:
        """A few lines for the admin."""
        where = "moved to the outbox's sent/ folder" if self.mode == "outbox" else "sent by SMTP"
        lines = [
            f"{self.sent} message(s) {where}, "
            f"{len(self.failed)} failed (kept in pending/ for the next run)"
        ]
        if self.connection_error:
            lines.append(f"  connection: {self.connection_error}")
        for f in self.failed:
            if f.reason != self.connection_error:
                lines.append(f"  failed {f.message_id} ({f.file.name}): {f.reason}")
        for f in self.refused:
            lines.append(f"  partly refused {f.message_id}: {f.reason}")
        if self.queued:
            lines.append(f"  {len(self.queued)} new message(s) queued in this run")
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


class Outbox:
    """A folder of outgoing mail: ``pending/`` (queued, to deliver) and ``sent/`` (the ledger).

    Guarantees:

    * :meth:`queue_all` (and :meth:`queue`, a batch of one) writes each message atomically (temp
      file, fsync, ``os.replace``) and never twice: a Message-ID already in ``pending/`` or
      ``sent/`` (or earlier in the batch) is not queued again.
    * :meth:`deliver` moves a message to ``sent/`` only after the SMTP server accepted it (or, with
      no SMTP configured, the move *is* the delivery). Anything that fails stays in ``pending/``.
    * At most once, except for one honest gap: SMTP has no idempotent submission, so if the process
      dies after the server answered ``250`` to DATA and before the ``os.replace`` into ``sent/``
      (microseconds, plus the fsync), the next run sends that one message again. Recording a
      "sending" mark first would only turn that duplicate into a possible loss, so we do not.
      The identical Message-ID lets the recipient's client thread or collapse the duplicate.

    Durability: queueing N messages and moving them to ``sent/`` costs N + 3 fsyncs (it cost 4N),
    sending them by SMTP 2N + 2. What must be durable, and when:

    * A file under its final name is always whole: its data is fsynced before the rename, since
      a torn file would be sent as garbage and, its name being taken, never be written again. The
      whole batch is made durable by one barrier (:func:`admin.store.fileio.sync_files`: ``syncfs(2)``,
      or parallel fsyncs that the file system commits together).
    * The new names are made durable once per batch (one fsync of ``pending/`` after the
      renames), not once per message. Until :meth:`queue_all` returns, nothing relies on them:
      the messages are derived from the committed state (same Message-IDs, same file names), so
      after a crash part way (of the process: the renames done so far stay; of the machine: some
      may be lost) running the same command again (``nomopoly mail-out UPDATE``) queues exactly
      what is missing. When it returns they are durable, because some could not be composed
      again later (results once the next update has run, a reminder after its deadline).
    * ``sent/`` is the ledger. With SMTP, each message the server accepted is moved there and
      ``sent/`` is fsynced before the next one is sent, so the gap above stays one message wide
      (an SMTP round trip per message dwarfs the fsync). The removals from ``pending/`` are
      fsynced once, at the end: a lost removal leaves the file in both folders, and the next run
      only deletes it (``sent/`` wins).
    * Without SMTP the move is the delivery and nothing has reached anyone yet: the files, whole
      already, are all moved, then ``sent/`` and ``pending/`` are fsynced once each. A machine
      crash before that leaves files in ``pending/`` (or in both), which the next run moves.

    Two runs must not deliver the same outbox at once; the game's lock sees to that.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.pending_dir = self.folder / "pending"
        self.sent_dir = self.folder / "sent"

    # -- queue ---------------------------------------------------------------------------------

    def queue(self, msg: EmailMessage) -> bool:
        """Write ``msg`` to ``pending/``; False (nothing written) if its Message-ID was seen before.

        The message must carry Message-ID, From, at least one recipient and ``Auto-Submitted``.
        A missing ``Date`` is added (in the file only; ``msg`` is not changed).
        """
        return bool(self.queue_all([msg]))

    def queue_all(self, messages: Iterable[EmailMessage]) -> list[str]:
        """Queue every message not seen before, as one batch (see the class docstring); returns
        their Message-IDs in order. Each message is checked as :meth:`queue` says and written to
        a temp file as it comes (a generator of messages is composed one at a time, so memory
        holds one message, not the batch); none is renamed into ``pending/`` before all are
        written. A message that fails its check (:class:`~admin.engine.errors.MailError`), or a file that
        cannot be written (a full disk: :class:`~admin.engine.errors.StateError`), fails the batch with
        none of it queued and no temp file left."""
        batch = _Batch(self.pending_dir)
        try:
            for msg in messages:
                headers = raw_headers(msg)
                message_id = self._check_queueable(msg, headers)
                if not batch.has(message_id) and not self.knows(message_id):
                    batch.write(message_id, file_bytes(msg, headers))
            if batch.names:
                self.sent_dir.mkdir(parents=True, exist_ok=True)
                batch.commit()
        except BaseException:
            batch.discard()
            raise
        return batch.message_ids

    def knows(self, message_id: str) -> bool:
        """True when the message is queued or sent already: a caller can skip composing it."""
        name = file_name(message_id)  # os.path: a caller asks once or twice per message queued
        return os.path.exists(os.path.join(self.pending_dir, name)) or os.path.exists(
            os.path.join(self.sent_dir, name))

    @staticmethod
    def _check_queueable(msg: EmailMessage, headers: dict[str, list[str]]) -> str:
        ids = msgids(first_value(headers, "message-id"))
        if len(ids) != 1:
            raise MailError(
                f"cannot queue a message with Message-ID {msg.get('Message-ID')!r} "
                f"(subject {msg.get('Subject')!r}); set msg['Message-ID'] = make_message_id(...)"
            )
        if not first_value(headers, "from").strip():
            raise MailError(
                f"cannot queue {ids[0]} without a From header; set it to the game's address"
            )
        if not has_address(headers, ("To", "Cc", "Bcc")):
            raise MailError(
                f"cannot queue {ids[0]} (subject {msg.get('Subject')!r}): "
                "no address in To, Cc or Bcc"
            )
        if "auto-submitted" not in headers:
            raise MailError(
                f"cannot queue {ids[0]} without an Auto-Submitted header; set "
                f"'{AUTO_SUBMITTED_RECEIPT}' on receipts and '{AUTO_SUBMITTED_RESULTS}' on "
                "results, so other robots do not answer the game"
            )
        return ids[0]

    # -- inspect -------------------------------------------------------------------------------

    def pending(self) -> list[Path]:
        """Queued files in queue order (oldest first)."""
        return eml_files(self.pending_dir)

    def sent(self) -> list[Path]:
        return eml_files(self.sent_dir)

    def is_sent(self, message_id: str) -> bool:
        return (self.sent_dir / file_name(message_id)).exists()

    # -- deliver -------------------------------------------------------------------------------

    def deliver(self, smtp: SmtpConfig | None) -> DeliveryReport:
        """Deliver every pending message; see the class docstring for the guarantees.

        With ``smtp=None`` each file moves to ``sent/``: the admin's outbox folder is the delivery.
        With SMTP all messages go over one connection. Per-message trouble (a refused recipient, a
        rejected message) and connection trouble (server down, TLS or login failure) are reported,
        not raised. Only a configuration error raises :class:`MailError` (e.g. the password
        variable is unset), before anything is sent. Two deliveries of the same outbox never run
        at once: the second waits for the first (``.lock`` in the outbox folder).
        """
        with self._locked():
            files = self.pending()
            if smtp is None:
                return DeliveryReport(mode="outbox", sent_ids=self._move_all(files))
            if not files:
                return DeliveryReport(mode="smtp")
            try:
                session = SmtpSession.open(smtp)  # a missing secret raises MailError here
            except ConnectError as e:
                return self.not_delivered(e.reason, temporary=e.temporary)
            try:
                return self._send_all(session, files)
            finally:
                session.close()
                fsync_dir(self.pending_dir)  # the removals, once (see the class docstring)

    def _move_all(self, files: list[Path]) -> tuple[str, ...]:
        """Without SMTP: move every file to ``sent/``, then fsync both folders once."""
        moved = []
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        try:
            for path in files:
                message_id = file_message_id(path)
                os.replace(path, self.sent_dir / path.name)
                moved.append(message_id)
        finally:
            if files:
                fsync_dir(self.sent_dir)
                fsync_dir(self.pending_dir)
        return tuple(moved)

    def not_delivered(self, reason: str, *, temporary: bool = False) -> DeliveryReport:
        """The report of a run that could not send at all: every pending message failed."""
        return DeliveryReport(
            mode="smtp",
            failed=tuple(Failure(file_message_id(p), p, reason) for p in self.pending()),
            connection_error=reason,
            temporary=temporary,
        )

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".lock", "a+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            yield

    def _send_all(self, session: SmtpSession, files: list[Path]) -> DeliveryReport:
        sent: list[str] = []
        failed: list[Failure] = []
        refused: list[Failure] = []
        connection_error: str | None = None
        for path in files:
            message_id = file_message_id(path)
            if connection_error is not None:
                failed.append(Failure(message_id, path, connection_error))
                continue
            if (self.sent_dir / path.name).exists():  # sent before; never twice
                path.unlink()
                continue
            try:
                rejected = session.send(path.read_bytes())
            except OSError as e:
                failed.append(Failure(message_id, path, f"cannot read {path}: {e}"))
                continue
            except SendError as e:
                failed.append(Failure(message_id, path, e.reason))
                if e.connection_lost:
                    connection_error = e.reason
                continue
            try:
                self._mark_sent(path)
            except OSError as e:
                raise MailError(
                    f"the server accepted {message_id} but moving {path} to {self.sent_dir} "
                    f"failed ({e}); move it by hand, or the next run sends it again"
                ) from e
            sent.append(message_id)
            if rejected:
                why = "refused recipient(s): " + refusals(rejected)
                refused.append(Failure(message_id, self.sent_dir / path.name, why))
        return DeliveryReport(
            mode="smtp",
            sent_ids=tuple(sent),
            failed=tuple(failed),
            refused=tuple(refused),
            connection_error=connection_error,
            temporary=connection_error is not None,
        )

    def _mark_sent(self, path: Path) -> None:
        """After the server took it: into the ledger, durably, before the next message is sent."""
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        os.replace(path, self.sent_dir / path.name)
        fsync_dir(self.sent_dir)


class _Batch:
    """The files of one :meth:`Outbox.queue_all`: temp files first, then their fsyncs, the renames
    and one fsync of the folder. Each file's mtime is the batch's start plus its rank, so that
    :meth:`Outbox.pending` keeps the queue order within a batch (a file system's clock ticks far
    slower than a batch is written)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.message_ids: list[str] = []
        self.names: list[str] = []
        self.seen: set[str] = set()
        self.stamp = time.time_ns()

    def has(self, message_id: str) -> bool:
        return file_name(message_id) in self.seen

    def temp(self, name: str) -> Path:
        return self.folder / f".{name}.tmp"

    def write(self, message_id: str, data: bytes) -> None:
        name = file_name(message_id)
        self.message_ids.append(message_id)
        self.names.append(name)
        self.seen.add(name)
        tmp = self.temp(name)
        try:
            if len(self.names) == 1:
                self.folder.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as fh:
                fh.write(data)
                mtime = self.stamp + len(self.names)
                os.utime(fh.fileno(), ns=(mtime, mtime))
        except OSError as exc:
            raise write_failed(tmp, exc) from exc

    def commit(self) -> None:
        try:
            sync_files([self.temp(name) for name in self.names])
            for name in self.names:
                os.replace(self.temp(name), self.folder / name)
        except OSError as exc:
            raise write_failed(self.folder, exc) from exc
        fsync_dir(self.folder)

    def discard(self) -> None:
        for name in self.names:
            self.temp(name).unlink(missing_ok=True)
