"""The ledger: every message ever taken in, and what became of it (see :class:`Ledger`).

Its rows are written by intake (:mod:`admin.mail.inbound.intake`) and settled by the update
that commits them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from collections.abc import Iterable
from typing import Literal, cast, get_args

from admin.engine.errors import StateError
from admin.store.fileio import dump_yaml, load_yaml, write_atomic
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
    260 updates of 200 players), so a settled row is checked as it is read but kept as its line
    of text, and becomes a :class:`LedgerEntry` only when asked for (:meth:`get`).
    :attr:`messages` builds them all, for tools and tests.

    An update asks about the few hundred messages in hand only, so it reads the ledger
    :meth:`about <load>` them: every row is still checked, but only their rows (by hash or by
    Message-ID) and the pending entries are kept, and the one or two months it rewrites are read
    again when written. Holding all 52,000 rows cost 22 MB, a fifth of an update's memory."""

    def __init__(self, source: Path | None = None, about: About | None = None) -> None:
        #: the folder read, whose month files a ledger read ``about`` some messages reads again
        self._source = source
        #: what this ledger was read about (None: everything)
        self._about = about
        #: the months whose every row is held (a ledger read ``about`` some messages, once written)
        self._whole: set[str] = set()
        #: the entries in play: pending.yaml's, those added or asked for since loading
        self._entries: dict[str, LedgerEntry] = {}
        #: the settled rows as read, in file order: hash -> the row's line after its hash (text:
        #: cheap to keep; without the hash, which is the key, 3 MB less at 52,000 rows)
        self._rows: dict[str, str] = {}
        #: the cells of the rare rows holding an escaped tab, newline or backslash, unescaped
        self._escaped: dict[str, list[str]] = {}
        #: the hashes of the rows by month of receipt (the files an update rewrites)
        self._months: dict[str, list[str]] = {}
        #: Message-ID -> hash of the rows as read, not counting duplicates (see :meth:`message_ids`)
        self._row_ids: dict[str, str] = {}
        #: month file -> the other months whose rows it holds (by hand): rewritten with it
        self._strays: dict[str, set[str]] = {}
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
    def load(cls, where: Path, *, about: Iterable[tuple[str, str]] | None = None) -> "Ledger":
        """The ledger kept under ``where`` (see :meth:`folder`).

        With ``about``, the (hash, Message-ID) pairs of the messages in hand, it holds only what
        an update asks about them: :meth:`get` answers for those hashes (and refuses others),
        :meth:`message_ids` names those Message-IDs only, and :meth:`pending` and :meth:`files`
        are whole. A ledger edited by hand so that a message has two rows, or a row sits in
        another month's file, is read whole instead: those rows need every other row to mean
        what they meant."""
        folder = cls.folder(where)
        wanted = None if about is None else About.of(about)
        ledger = cls(folder, wanted)
        if not folder.is_dir():
            return ledger
        try:
            seen: set[int] = set()
            for path in sorted(folder.glob("*.tsv")):
                ledger._read_rows(path, seen)
        except _ReadWhole:
            return cls.load(where)
        pending = folder / "pending.yaml"
        if pending.exists():
            data = load_yaml(pending) or {}
            for h, entry in from_data(dict[str, LedgerEntry], data.get("messages", {}), str(pending)).items():
                ledger._entries[h] = entry
        return ledger

    def _read_rows(self, path: Path, seen: set[int]) -> None:
        """Check the rows of one month's file and keep those asked about (see the class
        docstring). ``seen``: the ``hash()`` of every message's hash read so far, when reading
        ``about`` some messages (a repeat, even a false one, only means reading it all)."""
        rows, ids, settled, month, about = self._rows, self._row_ids, _SETTLED, path.stem, self._about
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
                entry = _row_entry(h, mid, cells[2], received, status, update, cells[6], f"{path}:{n}")  # raises what is wrong, if anything
                if entry.status == "pending":  # by hand: acted on like pending.yaml's
                    self._entries[h] = entry
            if about is not None:
                key = hash(h)
                if key in seen or not received.startswith(month):
                    raise _ReadWhole
                seen.add(key)
                if h not in about.hashes and mid not in about.message_ids:
                    continue
            rows[h] = line[line.index("\t") + 1:]
            if received.startswith(month):
                of_month.append(h)
            else:  # by hand, or a file of another name: the row belongs to its own month
                self._months.setdefault(received[:7], []).append(h)
                self._strays.setdefault(month, set()).add(received[:7])
            if status != "duplicate":
                ids[mid] = h

    @property
    def messages(self) -> dict[str, LedgerEntry]:
        """Every entry by hash, in file order (then pending and new ones): builds them all."""
        if self._about is not None:
            raise LookupError("this ledger was read about some messages only: Ledger.load() "
                              "without about= reads every message")
        return {**{h: self._entry(h) for h in self._rows}, **self._entries}

    def get(self, digest: str) -> LedgerEntry | None:
        """The entry of a message, or None if it was never taken in."""
        entry = self._entries.get(digest)
        if entry is None and digest in self._rows:
            entry = self._entry(digest)
        if entry is None and self._about is not None and digest not in self._about.hashes:
            raise LookupError(f"this ledger was read about {len(self._about.hashes)} messages, not "
                              f"{digest[:12]}: Ledger.load() without about= reads every message")
        return entry

    def _cells(self, digest: str) -> list[str]:
        return self._escaped.get(digest) or [digest, *self._rows[digest].split("\t")]

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
        todo = list(months)
        while todo:  # a month's file rewritten loses the rows of other months it held: write those too
            for other in self._strays.get(todo.pop(), ()):
                if other not in months:
                    months.add(other)
                    todo.append(other)
        for month in months:
            self._hold_month(month)
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

    def _hold_month(self, month: str) -> None:
        """Hold every row of a month about to be rewritten (a ledger read ``about`` some
        messages holds only theirs). Its rows were checked when read, and cannot have changed
        since: the game is locked; its file may have been rewritten by this ledger only."""
        if self._about is None or month in self._whole or self._source is None:
            return
        self._whole.add(month)
        path = self._source / f"{month}.tsv"
        if not path.exists():
            return
        of_month = self._months.setdefault(month, [])
        for line in path.read_text(encoding="utf-8").split("\n")[:-1]:
            cells = line.split("\t")
            escaped = "\\" in line
            if escaped:
                cells = [_unescape(c) for c in cells]
            h = cells[0]
            if h in self._rows:
                continue
            if escaped:
                self._escaped[h] = cells
            self._rows[h] = line[line.index("\t") + 1:]
            of_month.append(h)

    def write(self, where: Path) -> None:
        for path, text in self.files(where).items():
            write_atomic(path, text)
        self._dirty.clear()

    def message_ids(self) -> dict[str, str]:
        """The hash of each Message-ID taken in, duplicates aside (two entries of one id: the last).

        Read ``about`` some messages: their Message-IDs only (and those of entries added since)."""
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


@dataclass(frozen=True)
class About:
    """The messages a ledger is read about: their hashes and their Message-IDs."""

    hashes: frozenset[str]
    message_ids: frozenset[str]

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, str]]) -> "About":
        pairs = list(pairs)
        return cls(frozenset(h for h, _ in pairs), frozenset(m for _, m in pairs))


class _ReadWhole(Exception):
    """A ledger edited by hand (a message in two rows, a row in another month's file): read all."""


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
