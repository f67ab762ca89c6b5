"""The admin's real mailbox over IMAP: a :class:`~admin.mail.inbound.sources.MailSource`.

Reads with UIDs and ``BODY.PEEK[]`` (never sets ``\\Seen``), keys messages by
``imap:<uidvalidity>:<uid>``, decides the cutoff on the server's INTERNALDATE, and moves processed
mail to a folder (UID MOVE, else COPY + ``\\Deleted`` + UID EXPUNGE). TLS is verified by default.
Connection trouble is retried with exponential backoff; when the server stays unreachable the
error is a :class:`~admin.engine.errors.TemporaryError` (exit code 75), so cron simply tries again later.

Folder names in the config use ``/`` as the hierarchy separator; they are translated to the
server's separator and personal namespace (``INBOX.`` on Courier/Cyrus) when they differ.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import click
from imapclient import DELETED, IMAPClient
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError

from admin.runtime.crashpoints import crashpoint
from admin.engine.errors import MailError
from admin.mail.inbound.imapconfig import ImapConfig, TlsMode  # noqa: F401 - importable from here
from admin.mail.inbound.imapconn import ImapConnection, _text, log
from admin.mail.inbound.sources import RawMessage

#: Candidate UIDs whose INTERNALDATE is checked per command when a cutoff is given.
_DATE_CHUNK = 2000
#: New messages arriving during a fetch are picked up this many times before stopping.
_CATCH_UP_ROUNDS = 5
#: Stands in for the INTERNALDATE of a message expunged meanwhile (it is then skipped).
_NEVER = datetime.max.replace(tzinfo=timezone.utc)


@dataclass
class _FetchRun:
    """The state of one fetch; it survives reconnects, so a retry resumes where it stopped."""

    cutoff: datetime | None
    validity: int | None = None
    found: dict[int, RawMessage] = field(default_factory=dict)
    todo: list[int] | None = None  #: UIDs still to fetch; None: not searched yet
    upto: int = 0  #: highest UID searched so far
    total: int = 0  #: UIDs to fetch, found so far
    done: int = 0  #: UIDs fetched
    catch_ups: int = 0
    dates: dict[int, datetime] = field(default_factory=dict)  #: INTERNALDATEs read for the cutoff


class ImapSource(ImapConnection):
    """One folder of an IMAP mailbox. Connects lazily; reconnects on its own; ``close()`` when done.

    ``use_move=False`` forces the COPY + ``\\Deleted`` + UID EXPUNGE path even when the server has
    MOVE. ``on_batch(fetched, total)`` is called after each fetched batch (tests, progress).
    """

    def __init__(
        self,
        config: ImapConfig,
        *,
        environ: Mapping[str, str] | None = None,
        use_move: bool = True,
        on_batch: Callable[[int, int], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(config, environ=environ, sleep=sleep)
        self.use_move = use_move
        self.on_batch = on_batch

    # -- MailSource ------------------------------------------------------------------------------
    def fetch(self, cutoff: datetime | None = None) -> list[RawMessage]:
        """Messages in the folder with INTERNALDATE at or before ``cutoff`` (all if None).

        Messages that arrive while fetching are included (or come with the next fetch); a dropped
        connection is resumed without losing or repeating messages.
        """
        if cutoff is not None and cutoff.tzinfo is None:
            raise ValueError(f"cutoff {cutoff.isoformat()} must be timezone-aware (e.g. UTC)")
        run = _FetchRun(cutoff=cutoff)
        bar: Any = None
        try:
            while True:
                fetched = self._call(lambda c: self._fetch_step(c, run))
                if fetched is None:
                    break
                if fetched:
                    if bar is None and run.total > self.config.batch_size and sys.stderr.isatty():
                        bar = click.progressbar(length=run.total, label="Fetching mail", file=sys.stderr)
                        bar.__enter__()
                        bar.update(run.done - fetched)
                    if bar is not None:
                        bar.length = max(bar.length or 0, run.total)
                        bar.update(fetched)
                    if self.on_batch is not None:
                        self.on_batch(run.done, run.total)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        return sorted(run.found.values(), key=lambda m: (m.received, m.key))

    def mark_processed(self, keys: Sequence[str]) -> None:
        """Move the messages to the processed folder (created when missing).

        Keys from an older UIDVALIDITY are skipped (their UIDs may now name other messages); the
        same mail comes back under new keys and intake recognises it by Message-ID and content.
        """
        parsed = sorted({_parse_key(k) for k in keys})
        if not parsed:
            return
        target = self._call(self._ensure_processed_folder)
        stale: list[tuple[int, int]] = []

        def move(c: IMAPClient, chunk: list[tuple[int, int]]) -> None:
            # self.uidvalidity is read here, after any reconnect, never before
            current = [uid for validity, uid in chunk if validity == self.uidvalidity]
            stale.extend((validity, uid) for validity, uid in chunk if validity != self.uidvalidity)
            if current:
                self._move(c, current, target)

        step = self.config.batch_size
        for i in range(0, len(parsed), step):
            chunk = parsed[i : i + step]
            self._call(lambda c: move(c, chunk))
            crashpoint("imap.moved")
        if stale:
            validity, uid = stale[0]
            log.warning(
                "not moving %d message(s) of folder %s: their UIDVALIDITY is not the current %s (e.g. imap:%s:%s)",
                len(set(stale)), self.config.folder, self.uidvalidity, validity, uid,
            )  # fmt: skip

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except Exception:
                try:
                    client.shutdown()
                except Exception:
                    pass

    def __enter__(self) -> ImapSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def uidvalidity_changed(self, previous: int | None) -> bool:
        """True when the folder's UIDVALIDITY differs from ``previous`` (None: nothing to compare)."""
        if previous is None:
            return False
        if self.uidvalidity is None:
            self._call(lambda c: None)  # connect and SELECT
        return self.uidvalidity != previous

    # -- steps run under _call -------------------------------------------------------------------
    def _fetch_step(self, c: IMAPClient, run: _FetchRun) -> int | None:
        """One round trip's worth of work: returns messages fetched (0 after a search), None when done."""
        if run.validity != self.uidvalidity:  # first step, or the folder was recreated meanwhile
            run.validity, run.found, run.todo, run.upto, run.total, run.done = self.uidvalidity, {}, None, 0, 0, 0
            run.dates = {}
        if run.todo is None:
            run.todo = self._search(c, run, [])
            return 0
        if not run.todo:
            if run.catch_ups >= _CATCH_UP_ROUNDS:
                return None
            run.catch_ups += 1
            run.todo = self._search(c, run, ["UID", f"{run.upto + 1}:*"])
            return 0 if run.todo else None
        batch = run.todo[: self.config.batch_size]
        known = all(uid in run.dates for uid in batch)  # read by _search for the cutoff already
        data = c.fetch(batch, ["BODY.PEEK[]"] if known else ["BODY.PEEK[]", "INTERNALDATE"])
        for uid in batch:  # the cutoff was applied by _search (INTERNALDATE never changes)
            item = data.get(uid, {})
            body, date = item.get(b"BODY[]"), run.dates.get(uid) or item.get(b"INTERNALDATE")
            if body is None or date is None:
                continue  # expunged by another client since the search (or unsolicited FETCH data)
            run.found[uid] = RawMessage(key=f"imap:{run.validity}:{uid}", received=_utc(date), raw=bytes(body))
        run.todo = run.todo[len(batch) :]
        run.done += len(batch)
        return len(batch)

    def _search(self, c: IMAPClient, run: _FetchRun, extra: list[Any]) -> list[int]:
        criteria: list[Any] = ["NOT", "DELETED", *extra]
        if run.cutoff is not None:
            # SINCE/BEFORE compare dates only, in a time zone of the server's choosing: search loosely,
            # then decide precisely on INTERNALDATE.
            criteria += ["BEFORE", run.cutoff.astimezone(timezone.utc).date() + timedelta(days=2)]
        uids = sorted(u for u in c.search(criteria) if u > run.upto and u not in run.found)
        if not uids:
            return []
        run.upto = max(run.upto, uids[-1])
        if run.cutoff is not None:
            keep: list[int] = []
            for i in range(0, len(uids), _DATE_CHUNK):
                chunk = uids[i : i + _DATE_CHUNK]
                wanted = set(chunk)
                for uid, item in c.fetch(chunk, ["INTERNALDATE"]).items():
                    if uid in wanted and b"INTERNALDATE" in item:
                        run.dates[uid] = _utc(item[b"INTERNALDATE"])
                keep += [u for u in chunk if run.dates.get(u, _NEVER) <= run.cutoff]
            uids = sorted(keep)
        run.total += len(uids)
        return uids

    def _ensure_processed_folder(self, c: IMAPClient) -> str:
        target = self._server_name(c, self.config.processed_folder)
        if not c.folder_exists(target):
            try:
                c.create_folder(target)
            except IMAPClientAbortError:
                raise
            except IMAPClientError as e:
                if not c.folder_exists(target):  # not a race with another client
                    raise MailError(
                        f"cannot create the processed folder {target!r} on {self.address}: {_text(e)}; "
                        f"create it in your mail client or set processed_folder in [mail.imap]"
                    ) from e
        return target

    def _move(self, c: IMAPClient, uids: list[int], target: str) -> None:
        if self.use_move and c.has_capability("MOVE"):
            c.move(uids, target)
            return
        # Re-running after a crash may copy twice; the processed folder is an archive, so that is harmless.
        c.copy(uids, target)
        crashpoint("imap.copied")
        c.add_flags(uids, [DELETED], silent=True)
        if c.has_capability("UIDPLUS"):
            c.uid_expunge(uids)
        else:
            c.expunge()  # no UIDPLUS: expunges every \Deleted message of the folder, as closing it would

def _parse_key(key: str) -> tuple[int, int]:
    parts = key.split(":")
    if len(parts) != 3 or parts[0] != "imap" or not parts[1].isdecimal() or not parts[2].isdecimal():
        raise MailError(f"{key!r} is not an IMAP message key; they look like 'imap:<uidvalidity>:<uid>'")
    return int(parts[1]), int(parts[2])


def _utc(value: datetime) -> datetime:
    return (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
