"""``nomopoly fetch``: take in new mail now, without running an update.

Under the game lock, every message the source holds up to ``at`` is archived and recorded in the
ledger as ``pending`` (:func:`admin.mail.inbound.intake.take_in`); the next update acts on it from the
archive. Run it as often as you like (cron): a message is taken in once, whatever the number of
fetches, crashes or UIDVALIDITY changes. Pending mail stays in the mailbox until an update has
committed it; mail an earlier update settled (left behind by a crash) and duplicate deliveries
are moved to the processed folder now.

``ack`` is the hook for receipts of parse verdicts (``nomopoly fetch --ack``): it is called under
the lock with the game and the report, whose :func:`taken` entries are the messages this fetch
took in (``report.fresh`` holds their raw bytes).
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.jobs.update import open_source
from admin.mail.inbound.intake import IntakeReport, take_in
from admin.mail.inbound.ledger import LedgerEntry
from admin.mail.inbound.sources import MailSource

AckHook = Callable[[GameDir, IntakeReport], None]


def fetch(game: GameDir, *, source: MailSource | None = None, at: datetime | None = None,
          maildir: Path | None = None, ack: AckHook | None = None) -> IntakeReport:
    """Archive and record every message up to ``at`` (default: now); see the module docstring.

    ``source`` defaults to the one configured in nomopoly.toml (``maildir`` overrides it) and is
    closed on return. A server that cannot be reached raises :class:`~admin.engine.errors.TemporaryError`.
    """
    at = at or datetime.now(timezone.utc)
    at = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
    if not game.exists():
        raise StateError(f"{game.state_dir / 'game.yaml'}: not found; {game.root} is not a game "
                         "directory (make one with `nomopoly init DIR`, or pass --game DIR)")
    with game.lock():
        source = source or open_source(game, maildir)
        try:
            report = take_in(game.state_dir, source, at)
            source.mark_processed(report.settled_keys)
            if ack is not None:
                ack(game, report)
        finally:
            source.close()
    return report


def taken(report: IntakeReport) -> list[LedgerEntry]:
    """The ledger entries a fetch took in (new and duplicate), oldest first."""
    entries = [e for e in map(report.ledger.get, report.fresh) if e is not None]
    return sorted(entries, key=lambda e: (e.received, e.hash))
