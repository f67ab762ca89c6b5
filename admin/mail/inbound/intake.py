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
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast, get_args

from admin.runtime.crashpoints import crashpoint
from admin.engine.commands import Join, Token, command_to_dict
from admin.engine.update import LineCommand, Submission
from admin.mail.inbound.auth import AuthSettings, address_book, check_dkim, check_token, find_player
from admin.mail.inbound.grammar import LineVerdict, grammar_for, parse_lines, quote
from admin.mail.inbound.limits import MailLimits
from admin.mail.inbound.message import BodyLine, MailText, read_message, strip_subject
from admin.mail.inbound.sources import MailSource, RawMessage
from admin.engine.model import GameState
from admin.engine.errors import StateError
from admin.store.fileio import dump_yaml, load_yaml, sync_files, write_atomic, write_failed
from admin.store.plain import from_data, to_data

Status = Literal["pending", "applied", "rejected", "ignored", "duplicate"]


@dataclass
class LedgerEntry:
    hash: str
    key: str
    message_id: str
    received: str
    status: Status = "pending"
    update: int | None = None
    reason: str | None = None


_FIELDS = ("hash", "message_id", "key", "received", "status", "update", "reason")


class Ledger:
    """Every message ever taken in, and what became of it.

    Stored under ``state/ledger/``: ``pending.yaml`` holds the messages not yet settled (a few),
    and one tab-separated file per month of receipt (``2026-11.tsv``) holds the settled ones, a
    line each, sorted. An update rewrites only the pending file and the months it touched, so its
    cost does not grow with the length of the game.

    Reading does grow with it (the ledger holds every message ever taken in: 52,000 rows after
    260 updates of 200 players; building an entry of each was most of a take-in's cost), so a
    settled row is checked as it is read but kept as its line of text, and becomes a
    :class:`LedgerEntry` only when asked for (:meth:`get`): an update asks for a few hundred, and
    rewrites one or two months. :attr:`messages` builds them all, for tools and tests."""

    def __init__(self) -> None:
        #: the entries in play: pending.yaml's, those added or asked for since loading
        self._entries: dict[str, LedgerEntry] = {}
        #: the settled rows as read, in file order: hash -> the row's line (text: cheap to keep)
        self._rows: dict[str, str] = {}
        #: the cells of the rare rows holding an escaped tab, newline or backslash, unescaped
        self._escaped: dict[str, list[str]] = {}
        #: the hashes of the rows by month of receipt (the files an update rewrites)
        self._months: dict[str, list[str]] = {}
        #: Message-ID -> hash of the rows as read, not counting duplicates (see :meth:`message_ids`)
        self._row_ids: dict[str, str] = {}
        #: whether a hash has two rows (then :meth:`message_ids` cannot use ``_row_ids``)
        self._repeated = False
        self._dirty: set[str] = set()

    @staticmethod
    def folder(where: Path) -> Path:
        """``state/``, ``state/ledger`` or the old ``state/ledger.yaml`` -> ``state/ledger``."""
        where = Path(where)
        if where.name == "ledger.yaml":
            return where.with_name("ledger")
        return where if where.name == "ledger" else where / "ledger"

    @classmethod
    def load(cls, where: Path) -> "Ledger":
        folder = cls.folder(where)
        ledger = cls()
        if not folder.is_dir():
            return ledger
        for path in sorted(folder.glob("*.tsv")):
            ledger._read_rows(path)
        pending = folder / "pending.yaml"
        if pending.exists():
            data = load_yaml(pending) or {}
            for h, entry in from_data(dict[str, LedgerEntry], data.get("messages", {}), str(pending)).items():
                ledger._entries[h] = entry
        return ledger

    def _read_rows(self, path: Path) -> None:
        """Check and keep the rows of one month's file (see the class docstring)."""
        rows, ids, settled, month = self._rows, self._row_ids, _SETTLED, path.stem
        of_month = self._months.setdefault(month, [])
        # split on "\n" only: str.splitlines would also break on \x1c, \u2028 ... in a reason
        for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")[:-1], 1):
            cells = line.split("\t")
            if len(cells) != len(_FIELDS):
                raise StateError(f"{path}:{n}: expected {len(_FIELDS)} tab-separated fields "
                                 f"({', '.join(_FIELDS)}); restore the file with git")
            escaped = "\\" in line  # rare: only a reason or key with a tab, newline or backslash
            if escaped:
                cells = [_unescape(c) for c in cells]
            h, mid, _, received, status, update, _ = cells
            if h in rows:  # by hand: a message in two rows; the last one counts
                self._repeated = True
                self._escaped.pop(h, None)
                self._entries.pop(h, None)
            if escaped:
                self._escaped[h] = cells
            if status not in settled or (update and not update.isdecimal()):
                entry = _row_entry(*cells, f"{path}:{n}")  # raises what is wrong, if anything
                if entry.status == "pending":  # by hand: acted on like pending.yaml's
                    self._entries[h] = entry
            rows[h] = line
            if received.startswith(month):
                of_month.append(h)
            else:  # by hand, or a file of another name: the row belongs to its own month
                self._months.setdefault(received[:7], []).append(h)
            if status != "duplicate":
                ids[mid] = h

    @property
    def messages(self) -> dict[str, LedgerEntry]:
        """Every entry by hash, in file order (then pending and new ones): builds them all."""
        return {**{h: self._entry(h) for h in self._rows}, **self._entries}

    def get(self, digest: str) -> LedgerEntry | None:
        """The entry of a message, or None if it was never taken in."""
        entry = self._entries.get(digest)
        if entry is None and digest in self._rows:
            entry = self._entry(digest)
        return entry

    def _cells(self, digest: str) -> list[str]:
        return self._escaped.get(digest) or self._rows[digest].split("\t")

    def _entry(self, digest: str) -> LedgerEntry:
        entry = self._entries.get(digest)
        if entry is None:
            h, mid, key, received, status, update, reason = self._cells(digest)
            entry = LedgerEntry(hash=h, key=key, message_id=mid, received=received,
                                status=cast(Status, status), update=int(update) if update else None,
                                reason=reason or None)
            self._entries[digest] = entry  # changes to it are the ledger's, as for any entry
        return entry

    def add(self, entry: LedgerEntry) -> None:
        self._entries[entry.hash] = entry
        self._dirty.add(entry.hash)

    def settle(self, digest: str, status: Status, update: int, reason: str | None) -> None:
        entry = self.get(digest)
        if entry is None:
            raise KeyError(digest)
        entry.status, entry.update, entry.reason = status, update, reason
        self._dirty.add(digest)

    def files(self, where: Path) -> dict[Path, str]:
        """The files to write for the entries changed since loading (pending and their months)."""
        folder = self.folder(where)
        pending = {h: e for h, e in self._entries.items() if e.status == "pending"}
        out = {folder / "pending.yaml": dump_yaml({"messages": to_data(dict(sorted(pending.items())))})}
        months = {self._entries[h].received[:7] for h in self._dirty
                  if self._entries[h].status != "pending"}
        by_month: dict[str, list[LedgerEntry]] = {m: [] for m in months}
        # only the rows of those months become entries (and any entry that overrides a row)
        touched = {h: None for m in months for h in self._months.get(m, ())}
        touched.update(dict.fromkeys(self._entries))
        for e in map(self._entry, touched):
            rows_of = by_month.get(e.received[:7])
            if rows_of is not None and e.status != "pending":
                rows_of.append(e)
        for month in sorted(months):
            rows = sorted(by_month[month], key=lambda e: (e.received, e.hash))
            out[folder / f"{month}.tsv"] = "".join(
                "\t".join(_escape(getattr(e, f)) for f in _FIELDS) + "\n" for e in rows)
        return out

    def write(self, where: Path) -> None:
        for path, text in self.files(where).items():
            write_atomic(path, text)
        self._dirty.clear()

    def message_ids(self) -> dict[str, str]:
        """The hash of each Message-ID taken in, duplicates aside (two entries of one id: the last)."""
        if self._repeated:
            return self._all_message_ids()
        ids = dict(self._row_ids)
        for h, e in self._entries.items():
            if h not in self._rows:
                if e.status != "duplicate":
                    ids[e.message_id] = h
                continue
            cells = self._cells(h)
            if cells[1] != e.message_id or (cells[4] == "duplicate") != (e.status == "duplicate"):
                return self._all_message_ids()  # it no longer says what its row said (by hand)
        return ids

    def _all_message_ids(self) -> dict[str, str]:
        return {e.message_id: h for h, e in self.messages.items() if e.status != "duplicate"}

    def pending(self, cutoff: datetime | None) -> list[LedgerEntry]:
        out = [e for e in self._entries.values() if e.status == "pending"
               and (cutoff is None or datetime.fromisoformat(e.received) <= cutoff)]
        return sorted(out, key=lambda e: (e.received, e.hash))


_STATUSES: tuple[str, ...] = get_args(Status)
_SETTLED = frozenset(_STATUSES) - {"pending"}


def _row_entry(h: str, mid: str, key: str, received: str, status: str, update: str, reason: str,
               where: str) -> LedgerEntry:
    """One settled row as a :class:`LedgerEntry`, checked as ``from_data`` would check it.

    Built directly rather than through ``from_data``: every cell of a row is text already, so
    only the status and the update number can be wrong, and the generic conversion cost most of
    a take-in on a long game (the ledger holds every message ever taken in)."""
    if status not in _STATUSES:
        allowed = ", ".join(repr(a) for a in _STATUSES)
        raise StateError(f"{where}.status: {status!r} is not one of {allowed}")
    try:
        number = int(update) if update else None
    except ValueError:
        raise StateError(f"{where}.update: expected a whole number, found {update!r}") from None
    return LedgerEntry(hash=h, key=key, message_id=mid, received=received,
                       status=cast(Status, status), update=number, reason=reason or None)


def _escape(value: object) -> str:
    text = "" if value is None else str(value)
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append({"t": "\t", "n": "\n", "r": "\r"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


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
    ledger = Ledger.load(state_dir)
    ids = ledger.message_ids()
    report = IntakeReport(ledger=ledger)
    messages: list[RawMessage] = source.fetch(cutoff)
    crashpoint("intake.fetched")
    keys = {msg.key for msg in messages}
    rekeyed = False
    batch = ArchiveBatch(state_dir)
    for msg in messages:
        digest = hashlib.sha256(msg.raw).hexdigest()
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
        message_id = _message_id(msg.raw, digest)
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
        record = {
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
    if auth.require_token or tokens:  # a token given is checked, required or not: a wrong one is refused
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
