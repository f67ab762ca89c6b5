"""Mail out, the queue: a folder of messages delivered by SMTP or left as .eml files.

What a message says is composed in :mod:`admin.mail.compose`; which messages an update sends is
decided in :mod:`admin.mail.mailout`; the SMTP session is :mod:`admin.mail.smtp`. The flow::

    outbox = Outbox(game_dir / "state" / "outbox")
    outbox.queue(msg)              # pending/<name>.eml, atomically; False if queued or sent before
    report = outbox.deliver(smtp)  # SMTP, or (smtp=None) the .eml files are the delivery

The ``sent/`` folder is the ledger. A file's name is derived from its Message-ID only, so a re-run
that composes the same messages (see :func:`~admin.mail.compose.make_message_id`) queues nothing
new and sends nothing twice. Per-message failures are reported in :class:`DeliveryReport`, never
raised; the message stays in ``pending/`` and is retried on the next run.
"""

from __future__ import annotations

import email.policy
import fcntl
import hashlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate
from pathlib import Path
from typing import Literal

from admin.store import fsync_dir, write_atomic
from admin.errors import MailError
from admin.mail.compose import AUTO_SUBMITTED_RECEIPT, AUTO_SUBMITTED_RESULTS, msgids
from admin.mail.smtp import (
    ADDRESS_HEADERS,
    ConnectError,
    SendError,
    SmtpConfig,
    SmtpSession,
    addresses,
    needs_smtputf8,
    recipients,
    refusals,
)

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
    """Message-IDs the caller queued in this run (see :mod:`admin.mail.mailout`)."""
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

    * :meth:`queue` writes each message atomically (temp file, fsync, ``os.replace``) and never
      twice: a Message-ID already in ``pending/`` or ``sent/`` is not queued again.
    * :meth:`deliver` moves a message to ``sent/`` only after the SMTP server accepted it (or, with
      no SMTP configured, the move *is* the delivery). Anything that fails stays in ``pending/``.
    * At most once, except for one honest gap: SMTP has no idempotent submission, so if the process
      dies after the server answered ``250`` to DATA and before the ``os.replace`` into ``sent/``
      (microseconds, plus the fsync), the next run sends that one message again. Recording a
      "sending" mark first would only turn that duplicate into a possible loss, so we do not.
      The identical Message-ID lets the recipient's client thread or collapse the duplicate.

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
        message_id = self._check_queueable(msg)
        name = file_name(message_id)
        if (self.pending_dir / name).exists() or (self.sent_dir / name).exists():
            return False
        # Non-ASCII addresses cannot be RFC 2047-encoded: such a message is written as UTF-8 and
        # sent with SMTPUTF8 (RFC 6531), which the server then has to offer.
        utf8 = needs_smtputf8(addresses(msg, ADDRESS_HEADERS))
        data = msg.as_bytes(policy=email.policy.SMTPUTF8 if utf8 else email.policy.SMTP)
        if msg.get("Date") is None:
            data = f"Date: {formatdate(usegmt=True)}\r\n".encode("ascii") + data
        self.pending_dir.mkdir(parents=True, exist_ok=True)
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.pending_dir / name, data)
        return True

    @staticmethod
    def _check_queueable(msg: EmailMessage) -> str:
        ids = msgids(msg.get("Message-ID"))
        if len(ids) != 1:
            raise MailError(
                f"cannot queue a message with Message-ID {msg.get('Message-ID')!r} "
                f"(subject {msg.get('Subject')!r}); set msg['Message-ID'] = make_message_id(...)"
            )
        if not msg.get("From"):
            raise MailError(
                f"cannot queue {ids[0]} without a From header; set it to the game's address"
            )
        if not recipients(msg):
            raise MailError(
                f"cannot queue {ids[0]} (subject {msg.get('Subject')!r}): "
                "no address in To, Cc or Bcc"
            )
        if msg.get("Auto-Submitted") is None:
            raise MailError(
                f"cannot queue {ids[0]} without an Auto-Submitted header; set "
                f"'{AUTO_SUBMITTED_RECEIPT}' on receipts and '{AUTO_SUBMITTED_RESULTS}' on "
                "results, so other robots do not answer the game"
            )
        return ids[0]

    # -- inspect -------------------------------------------------------------------------------

    def pending(self) -> list[Path]:
        """Queued files in queue order (oldest first)."""
        return _eml_files(self.pending_dir)

    def sent(self) -> list[Path]:
        return _eml_files(self.sent_dir)

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
                moved = []
                for path in files:
                    message_id = _file_message_id(path)
                    self._mark_sent(path)
                    moved.append(message_id)
                return DeliveryReport(mode="outbox", sent_ids=tuple(moved))
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

    def not_delivered(self, reason: str, *, temporary: bool = False) -> DeliveryReport:
        """The report of a run that could not send at all: every pending message failed."""
        return DeliveryReport(
            mode="smtp",
            failed=tuple(Failure(_file_message_id(p), p, reason) for p in self.pending()),
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
            message_id = _file_message_id(path)
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
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        os.replace(path, self.sent_dir / path.name)
        fsync_dir(self.sent_dir)
        fsync_dir(path.parent)


# --------------------------------------------------------------------------------------------
# Files


def file_name(message_id: str) -> str:
    """The outbox file name of a Message-ID: readable when the id is tame, always safe, unique."""
    ids = msgids(message_id)
    raw = (ids[0] if ids else message_id).strip("<>")
    safe = re.sub(r"[^A-Za-z0-9._@+=-]", "_", raw).lstrip(".")[:150]
    if safe != raw or not safe:
        safe = f"{safe}-{hashlib.sha256(raw.encode()).hexdigest()[:12]}"
    return f"{safe}.eml"


def _eml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    files = [p for p in folder.iterdir() if p.suffix == ".eml" and not p.name.startswith(".")]
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))


def _file_message_id(path: Path) -> str:
    try:
        with path.open("rb") as f:
            headers = BytesParser(policy=email.policy.default).parse(f, headersonly=True)
        ids = msgids(headers.get("Message-ID"))
    except (OSError, ValueError):
        ids = []
    return ids[0] if ids else f"<unknown: {path.name}>"


def read_eml(path: Path) -> EmailMessage:
    """Parse an outbox file with ``policy.default``.

    Files hold the wire format (CRLF line ends, exactly the bytes SMTP sends); they are read with LF
    line ends so that ``get_content()`` gives back the text that was composed.
    """
    data = path.read_bytes().replace(b"\r\n", b"\n")
    msg = BytesParser(policy=email.policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)  # policy.default makes EmailMessage objects
    return msg


def iter_messages(folder: Path) -> Iterator[EmailMessage]:
    """Parse every .eml file of a folder (e.g. ``outbox.sent_dir``) in queue order; see read_eml."""
    for path in _eml_files(folder):
        yield read_eml(path)
