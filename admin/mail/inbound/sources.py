"""Where mail comes from: a Maildir (the demo, tests) or an IMAP mailbox (:mod:`admin.mail.inbound.imap`).

A source only lists and moves raw messages; archiving, the ledger and "exactly once" live in
:mod:`admin.mail.inbound.intake`.
"""

from __future__ import annotations

import email.utils
import glob
import mailbox
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol, Sequence

from admin.engine.errors import StateError


@dataclass(frozen=True)
class RawMessage:
    """One message as the source holds it."""

    key: str  #: source-unique id: ``maildir:<name>`` or ``imap:<uidvalidity>:<uid>``
    received: datetime  #: when the server received it (UTC); decides which update it belongs to
    raw: bytes


class MailSource(Protocol):
    def fetch(self, cutoff: datetime | None = None) -> list[RawMessage]:
        """Messages received at or before ``cutoff`` (all if None), sorted by (received, key)."""
        ...

    def mark_processed(self, keys: Sequence[str]) -> None:
        """Move the messages out of the way (they are archived and in the ledger already)."""
        ...

    def close(self) -> None: ...


_MAILDIR_TIME = re.compile(r"^(\d{9,11})(?:\.|$)")


class MaildirSource:
    """A Maildir folder: ``new/`` and ``cur/``. Processed messages move to ``.Processed/``.

    The received time is the delivery timestamp at the start of the Maildir file name (the
    standard ``<seconds>.<unique>.<host>`` naming), which survives git checkouts, unlike mtimes;
    a file named otherwise falls back to its Date header.
    """

    def __init__(self, path: Path, *, move_processed: bool = True) -> None:
        self.path = Path(path)
        self.move_processed = move_processed

    def _box(self) -> mailbox.Maildir:
        return mailbox.Maildir(self.path, factory=None, create=False)

    def fetch(self, cutoff: datetime | None = None) -> list[RawMessage]:
        if not (self.path / "new").is_dir() and not (self.path / "cur").is_dir():
            # a misspelt or missing folder is never read as "no mail": that would fine every
            # player for not voting
            raise StateError(f"{self.path}: there is no mail folder here (no new/ or cur/); fix [mail] "
                             f"maildir in nomopoly.toml (or --maildir), or create it with "
                             f"`mkdir -p {self.path}/new {self.path}/cur {self.path}/tmp`")
        box = self._box()
        found: list[RawMessage] = []
        for name in box.keys():
            if name.startswith("."):  # not a message in a Maildir (e.g. a .keep placeholder)
                continue
            raw = box.get_bytes(name)
            received = _received_time(name, raw)
            if cutoff is None or received <= cutoff:
                found.append(RawMessage(key=f"maildir:{name}", received=received, raw=raw))
        found.sort(key=lambda m: (m.received, m.key))
        return found

    def mark_processed(self, keys: Sequence[str]) -> None:
        """Move each message file, as it is, to ``.Processed/cur/`` (a plain rename: the message
        is never parsed again here, so no message can make this step fail)."""
        if not self.move_processed or not keys:
            return
        done = self.path / ".Processed"
        for sub in ("new", "cur", "tmp"):
            (done / sub).mkdir(parents=True, exist_ok=True)
        for key in keys:
            name = key.removeprefix("maildir:")
            for sub in ("new", "cur"):
                for path in (self.path / sub).glob(f"{glob.escape(name)}*"):
                    if path.name == name or path.name.startswith(name + ":"):
                        os.replace(path, done / "cur" / path.name)

    def close(self) -> None:
        pass


def _received_time(name: str, raw: bytes) -> datetime:
    m = _MAILDIR_TIME.match(name)
    if m:
        return datetime.fromtimestamp(int(m.group(1)), tz=timezone.utc)
    head = raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0].decode("latin-1", "replace")
    for line in head.splitlines():
        if line.lower().startswith("date:"):
            try:
                parsed = email.utils.parsedate_to_datetime(line[5:].strip())
            except (TypeError, ValueError, IndexError):
                break
            return parsed.astimezone(timezone.utc) if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)
    return datetime(1970, 1, 1, tzinfo=timezone.utc)
