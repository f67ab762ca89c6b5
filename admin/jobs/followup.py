"""What follows a saved update: its site build and its mail-out, side by side in a large game.

Both read the update as it was saved (the job's outcome state, the results and logs on disk) and
write their own files (the site; the outbox and its log), so neither waits for the other. In a
game of many players the mail-out runs in a second process (:mod:`admin.runtime.forking`) while this one
builds the site; a small game does both here, one after the other, as forking would cost more than
it saves. Either way the files written are the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from admin.runtime import forking
from admin.engine.errors import NomopolyError

if TYPE_CHECKING:
    from admin.store.gamedir import GameDir
    from admin.mail.outbound.outbox import DeliveryReport
    from admin.engine.model import GameState
    from admin.site.writer import BuildReport

#: the mail-out runs beside the site build from this many players
PARALLEL_FROM = 40


@dataclass
class FollowUp:
    """What the site build and the mail-out did. The update is saved whatever happened here:
    a site that could not be built is ``site_error`` (``nomopoly build`` tries again)."""

    site: BuildReport | None = None
    site_error: NomopolyError | None = None
    mail: DeliveryReport | None = None


def site_and_mail(game: GameDir, update: int, state: GameState, *, site: bool = True,
                  mail: bool = True, send: bool = True) -> FollowUp:
    """Build the site (unless ``site`` is false) and queue and send update ``update``'s mail
    (unless ``mail`` is false; ``send=False`` only queues it). An error of the mail-out that is
    not mail trouble (which the report carries) is raised once the site is built."""
    from admin.mail.outbound.mailout import mail_out
    from admin.site.build import build

    done = FollowUp()

    def mailing() -> DeliveryReport:
        return mail_out(game, update, state=state, send=send)

    child = (forking.start(mailing, "the mail-out")
             if site and mail and len(state.players) >= PARALLEL_FROM else None)
    try:
        if site:
            try:
                done.site = build(game, state=state)
            except NomopolyError as exc:  # the update is saved: its mail still goes out
                done.site_error = exc
    finally:
        if child is not None:  # waited for even when the build failed: the mail must go out
            done.mail = child.result()
    if mail and child is None:
        done.mail = mailing()
    return done
