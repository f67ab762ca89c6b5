"""``nomopoly run``: one cron line runs the game. It does what is due now and nothing else.

- When the next update's deadline has passed and that update has not run: take in the mail up to
  the deadline, run the update, build the site, send the mail, publish. Several deadlines passed
  (the machine was off for a week): one update each, in order, each with its own deadline's mail.
- Otherwise: send the reminders that are due (each player once per deadline), retry mail the
  outbox still holds, and retry a publish that failed.

A second run right after the first finds nothing due and does nothing. The update itself is the
one ``nomopoly update`` runs (crash-safe, exactly once per email); everything after it can be
redone by the next run, so a run killed at any point loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from admin.runtime import forking
from admin.jobs import update as jobs
from admin.jobs import publish
from admin.jobs.deadlines import deadline
from admin.engine.errors import NomopolyError
from admin.store.gamedir import GameDir

if TYPE_CHECKING:
    from admin.mail.outbound.outbox import DeliveryReport

#: the most updates one run catches up on (a clock far in the future must not run a year of them)
MAX_CATCH_UP = 14


@dataclass
class RunReport:
    """What a run did, line by line for the Admin (empty: nothing was due)."""

    lines: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def idle(self) -> bool:
        return not self.lines and not self.errors


def run_due(game: GameDir, now: datetime | None = None, *, maildir: Path | None = None,
            echo: Callable[[str], None] = lambda _: None) -> RunReport:
    """Do what is due at ``now`` (default: the clock); see the module docstring."""
    from admin.jobs.followup import site_and_mail

    now = now or datetime.now(timezone.utc)
    now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
    report = RunReport()

    def say(line: str) -> None:
        report.lines.append(line)
        echo(line)

    forking.workers()  # a bad NOMOPOLY_WORKERS is refused before an update runs, not after
    for _ in range(MAX_CATCH_UP):
        state = game.load()
        due = deadline(game, state)
        if due is None or state.ended or now < due:
            break
        outcome = jobs.run_update_job(game, at=due, maildir=maildir)
        applied = sum(1 for s in outcome.screened if s.status == "applied")
        say(f"Ran update {outcome.update} (mail up to {due.isoformat()}): {applied} email(s) acted on.")
        done = site_and_mail(game, outcome.update, outcome.state)
        try:
            if done.site_error is not None:
                raise done.site_error
            assert done.site is not None
            say(f"Site: {done.site.summary()}")
            publish.mark_pending(game, outcome.update)
        except NomopolyError as exc:  # the update is saved; the next run builds again
            report.errors.append(f"update {outcome.update} is saved, but {exc}")
        assert done.mail is not None
        say(done.mail.summary())
    else:
        report.errors.append(f"more than {MAX_CATCH_UP} deadlines have passed: ran {MAX_CATCH_UP} "
                             "updates; run again for the rest (is the clock right?)")
    if report.idle:  # reminders due now; the delivery also retries mail the outbox still holds
        try:
            reminded = remind_after_fetch(game, now, maildir=maildir)
        except NomopolyError as exc:
            report.errors.append(str(exc))
        else:
            if reminded.queued or reminded.sent or reminded.failed:
                say(f"Reminders ({len(reminded.queued)} new): {reminded.summary()}")
    if publish.pending(game):
        published = publish.publish(game)
        (say if published.ok else report.errors.append)(published.summary())
    return report


def remind_after_fetch(game: GameDir, now: datetime, *, maildir: Path | None = None) -> DeliveryReport:
    """Take in the mail that came since the last fetch, then send the reminders due at ``now``: a
    vote sent an hour ago counts, and its player is not reminded. When the mail cannot be taken in,
    nobody is reminded (the next run, an hour later, tries again) and the error says so."""
    from admin.engine.errors import TemporaryError
    from admin.jobs.fetch import fetch
    from admin.mail.outbound.mailout import remind

    try:
        fetch(game, at=now, maildir=maildir)
    except TemporaryError as exc:
        raise TemporaryError(f"no reminders sent: the new mail could not be taken in first ({exc}); "
                             "run it again later") from exc
    except NomopolyError as exc:
        raise type(exc)(f"no reminders sent: the new mail could not be taken in first ({exc})") from exc
    return remind(game, now)
