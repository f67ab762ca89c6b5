"""Intake: take every message exactly once.

1. :func:`take_in` archives each raw message (``state/mail/<hh>/<sha256>.eml``) and records it in
   the ledger (``state/ledger/``) as ``pending`` before anything acts on it. A message already
   in the ledger (same content hash) is not taken twice; the same Message-ID with other content
   (a duplicate delivery) is recorded as ``duplicate`` and never acted on. The archive files of
   one take-in are made durable together, by one barrier, and only then is the ledger that
   names them written (:class:`ArchiveBatch`): the ledger never names a file that might not be
   on disk, and the cost is a constant number of syncs per batch, not two per message.
2. :func:`screen` turns the pending messages up to the cut-off into engine submissions, or into a
   verdict of why not (auto-reply, bounce, unknown sender, failed authentication, too big).
3. The update job commits the new state together with the ledger (each message ``applied``,
   ``rejected`` or ``ignored`` with the update's number) in one transaction, and only then asks the
   source to move the messages away. A crash anywhere leaves either the old state with the
   messages still pending, or the new state with them applied: a re-run finishes the job.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from admin.runtime.crashpoints import crashpoint
from admin.engine.commands import Join, Token, command_to_dict
from admin.engine.update import LineCommand, Submission
from admin.mail.inbound.auth import AuthSettings, address_book, check_dkim, check_token, find_player
from admin.engine.syntax import quote
from admin.mail.inbound.grammar import LineVerdict, grammar_for, parse_lines
from admin.mail.inbound.ledger import Ledger, LedgerEntry, Status
from admin.mail.inbound.limits import MailLimits
from admin.mail.inbound.message import BodyLine, MailText, read_message, strip_subject
from admin.mail.inbound.sources import MailSource, RawMessage
from admin.engine.model import GameState
from admin.store.fileio import sync_files, write_failed


@dataclass
class IntakeReport:
    ledger: Ledger
    new: int = 0
    known: int = 0
    duplicates: int = 0
    #: source keys whose messages are settled (in a committed update) and may be moved away
    settled_keys: list[str] = field(default_factory=list)
    #: raw bytes of the messages taken in by this call (what a dry run reads instead of the archive)
    fresh: dict[str, bytes] = field(default_factory=dict)


def archive_path(state_dir: Path, digest: str) -> Path:
    return state_dir / "mail" / digest[:2] / f"{digest}.eml"


def take_in(state_dir: Path, source: MailSource, cutoff: datetime | None, *,
            write: bool = True) -> IntakeReport:
    """Archive and record every message the source has up to ``cutoff`` (step 1 above).

    With ``write=False`` (a dry run) nothing is written: the report's ledger and ``fresh`` bytes
    hold what would have been."""
    messages: list[RawMessage] = source.fetch(cutoff)
    crashpoint("intake.fetched")
    digests = [hashlib.sha256(msg.raw).hexdigest() for msg in messages]
    message_ids = [_message_id(msg.raw, digest) for msg, digest in zip(messages, digests)]
    ledger = Ledger.load(state_dir, about=zip(digests, message_ids))  # what it holds of these only
    ids = ledger.message_ids()
    report = IntakeReport(ledger=ledger)
    keys = {msg.key for msg in messages}
    rekeyed = False
    batch = ArchiveBatch(state_dir)
    for msg, digest, message_id in zip(messages, digests, message_ids):
        entry = ledger.get(digest)
        if entry is not None:
            report.known += 1
            if entry.status != "pending":
                report.settled_keys.append(msg.key)
            elif entry.key not in keys:  # its folder was recreated (new UIDVALIDITY): track the new key
                entry.key, rekeyed = msg.key, True
                ledger.add(entry)
            continue
        report.fresh[digest] = msg.raw
        if write and batch.add(digest, msg.raw):
            crashpoint("intake.archived")
        entry = LedgerEntry(hash=digest, key=msg.key, message_id=message_id,
                            received=msg.received.isoformat())
        if message_id in ids:
            entry.status = "duplicate"
            entry.reason = f"the same Message-ID as message {ids[message_id][:12]}, taken in before"
            report.duplicates += 1
            report.settled_keys.append(msg.key)
        else:
            ids[message_id] = digest
            report.new += 1
        ledger.add(entry)
    if write and (report.new or report.duplicates or rekeyed):
        batch.sync()  # every archive file the new entries name is durable before the ledger
        ledger.write(state_dir)
        crashpoint("intake.ledger")
    return report


class ArchiveBatch:
    """The archive files of one take-in, made durable together before the ledger names them.

    Each file is written under a temporary name and renamed, so a file at its final name is
    whole as far as the running system sees (a SIGKILL cannot leave half a file there), but it
    is not fsynced on its own. :meth:`sync` then makes every file of the batch, and the folders
    naming them, durable with one ``syncfs(2)`` per file system (Linux), or where there is no
    syncfs, an fsync of each file and each folder once. Either way it happens after the last
    file is written and before the ledger is, which is the order that matters.

    syncfs flushes whatever else is dirty on that file system too; on the admin's machine that
    is little (the update has written nothing else yet), and one wait for the disk costs less
    than hundreds of small ones even when it is more.

    A file already at its final name but not in the ledger was left by a run that stopped
    before writing the ledger; it was perhaps never synced, and after a power cut it may even be
    empty. So it is read back and kept only if its SHA-256 is its name, rewritten otherwise, and
    synced with the batch either way."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = Path(state_dir)
        self.files: list[Path] = []

    def add(self, digest: str, raw: bytes) -> bool:
        """Archive one message; True if a file was written, False if a whole copy was there."""
        path = archive_path(self.state_dir, digest)
        self.files.append(path)
        if _holds(path, digest):
            return False
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as fh:
                fh.write(raw)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise write_failed(path, exc) from exc
        return True

    def sync(self) -> None:
        """Make every file added so far durable (the one barrier of the batch)."""
        if not self.files:
            return
        folders = {p.parent for p in self.files} | {self.state_dir / "mail", self.state_dir}
        try:  # new <hh> folders are entries in mail/, and mail/ one in state/
            sync_files(self.files, folders)
        except OSError as exc:
            raise write_failed(self.files[0].parent, exc) from exc
        self.files.clear()


def _holds(path: Path, digest: str) -> bool:
    """Whether ``path`` exists and holds the message whose SHA-256 is ``digest``."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() == digest
    except FileNotFoundError:
        return False
    except OSError:  # a folder in the way, no permission ...: the write will say what is wrong
        return False


def _message_id(raw: bytes, digest: str) -> str:
    head = raw[:65536].split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    lines = head.decode("latin-1").replace("\r\n", "\n").split("\n")
    for i, line in enumerate(lines):
        if line.lower().startswith("message-id:"):
            value = line.split(":", 1)[1]
            j = i + 1
            while j < len(lines) and lines[j][:1] in (" ", "\t"):
                value += lines[j]
                j += 1
            value = value.strip().strip("<>").strip()
            if value:
                return value
    return f"sha256:{digest}"


@dataclass
class Screened:
    """What became of one pending message (recorded in the update log, private)."""

    entry: LedgerEntry
    mail: MailText | None
    player: str | None
    status: Status
    reason: str | None
    verdicts: list[LineVerdict] = field(default_factory=list)
    submission: Submission | None = None

    def log_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "hash": self.entry.hash, "message_id": self.entry.message_id,
            "received": self.entry.received, "player": self.player,
            "sender": self.mail.sender if self.mail else "",
            "subject": _subject_record(self.mail.subject) if self.mail else "",
            "kind": self.mail.kind if self.mail else "normal",
            "status": self.status, "reason": self.reason,
            "lines": [_verdict_record(v) for v in self.verdicts],
        }
        if self.status == "applied" and self.mail and self.mail.problems:
            record["problems"] = list(self.mail.problems)  # what could not be read, for the receipt
        return record


def within_limits(verdicts: list[LineVerdict], unread_from: int | None,
                  limits: MailLimits) -> list[LineVerdict]:
    """The verdicts with every command over ``max_commands`` refused, and one verdict for the
    lines left unread (over ``max_lines``)."""
    out: list[LineVerdict] = []
    commands = 0
    for v in verdicts:
        if v.command is not None and not isinstance(v.command, Token):
            commands += 1
            if commands > limits.max_commands:
                v = LineVerdict(v.first_line, v.last_line, v.text, None,
                                f"{quote(v.text)} was not carried out: an email may hold at most "
                                f"{limits.max_commands} commands. Send it again in another email.")
        out.append(v)
    if unread_from is not None:
        out.append(LineVerdict(unread_from, unread_from, "(this line and all after it)", None,
                               f"Not read: an email is read up to its first {limits.max_lines} lines. "
                               "Send the rest in another email."))
    return out


def _verdict_record(v: LineVerdict) -> dict[str, Any]:
    secret = isinstance(v.command, Token) or v.text.strip().lower().startswith("token")
    error = v.error
    if secret and error:  # the error quotes the line ("token: s3cret" is not a command ...)
        error = error.replace(quote(v.text), '"TOKEN ********"')
    record = {"first": v.first_line, "last": v.last_line,
              "text": "TOKEN ********" if secret else v.text,
              "command": command_to_dict(v.command) if v.command is not None else None,
              "error": error}
    if v.note:
        record["note"] = v.note
    return record


def _subject_record(subject: str) -> str:
    """The subject for the log; a subject that is a TOKEN line (read as a command) is masked."""
    return "TOKEN ********" if strip_subject(subject).lower().startswith("token") else subject


def screen(state_dir: Path, entries: list[LedgerEntry], state: GameState,
           auth: AuthSettings, limits: MailLimits, fresh: dict[str, bytes] | None = None) -> list[Screened]:
    """Step 2: read, authenticate and parse each pending message, within ``limits``."""
    active = {p.name for p in state.active_players()}
    book = address_book(state.private.emails, auth, active)
    out = []
    for entry in entries:
        raw = (fresh or {}).get(entry.hash)
        if raw is None:
            raw = archive_path(state_dir, entry.hash).read_bytes()
        mail = read_message(raw, max_bytes=limits.max_bytes, max_lines=limits.max_lines)
        out.append(_screen_one(entry, mail, state, auth, active, book, limits))
        crashpoint("intake.screened")
    return out


def _screen_one(entry: LedgerEntry, mail: MailText, state: GameState, auth: AuthSettings,
                active: set[str], book: dict[str, str], limits: MailLimits) -> Screened:
    if mail.kind != "normal":
        return Screened(entry, mail, None, "ignored", f"{mail.kind}: never acted on nor answered")
    grammar = grammar_for(state)
    verdicts = parse_lines(mail.lines, grammar)
    if mail.subject and not any(v.command for v in verdicts) and not any(b.number == 0 for b in mail.lines):
        # a body of chatter only: the command may be in the Subject ("VOTE 3 YES")
        subject = parse_lines([BodyLine(0, strip_subject(mail.subject))], grammar)
        if subject and subject[0].command is not None:
            verdicts = subject + verdicts
    verdicts = within_limits(verdicts, mail.unread_from, limits)
    if mail.problems and not mail.lines:
        return Screened(entry, mail, None, "rejected", "; ".join(mail.problems))
    player = find_player(state.private.emails, mail.sender, auth, active, book)
    commands = [v for v in verdicts if v.command is not None]
    if player is None:
        joins = [v for v in commands if isinstance(v.command, Join)]
        if joins and mail.sender:
            sub = Submission(key=entry.hash, player=None, sender=mail.sender, received=entry.received,
                             commands=[LineCommand(v.first_line, v.text, v.command) for v in joins])
            return Screened(entry, mail, None, "applied", None, verdicts, sub)
        # a stranger's lines are never answered: the log keeps the reason, not the lines
        return Screened(entry, mail, None, "rejected",
                        f"{mail.sender or 'the sender'} is not a registered player's address; "
                        "to join, send JOIN <name> and the Admin will decide")
    tokens = [v.command.secret for v in commands if isinstance(v.command, Token)]
    if tokens and not auth.require_token and player not in state.private.token_hashes:
        # nothing to check it against, and nothing to gain by forging it: noted, the rest carried out
        note = (f"{player} has no token in this game, so this line was not needed and not checked; "
                "leave it out (or ask the Admin for a token)")
        verdicts = [replace(v, note=note) if isinstance(v.command, Token) else v for v in verdicts]
    elif auth.require_token or tokens:  # a token given is checked, required or not: a wrong one is refused
        problem = check_token(player, tokens, state.private.token_hashes, required=auth.require_token)
        if problem:
            return Screened(entry, mail, player, "rejected", problem, verdicts)
    if auth.require_dkim:
        problem = check_dkim(mail.sender, mail.authentication_results, auth)
        if problem:
            return Screened(entry, mail, player, "rejected", problem, verdicts)
    sub = Submission(key=entry.hash, player=player, sender=mail.sender, received=entry.received,
                     commands=[LineCommand(v.first_line, v.text, v.command) for v in commands
                               if not isinstance(v.command, Token)])
    return Screened(entry, mail, player, "applied", None, verdicts, sub)
