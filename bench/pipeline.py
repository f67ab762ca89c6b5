"""One whole update of a benchmark game, and the floor of its unavoidable parts.

The update: the game's next emails are MULTIAPPENDed to a fresh Dovecot account (not timed), then
the timed part runs what ``nomopoly update`` and the mail-out do: :func:`admin.jobs.update.run_update_job`
with an :class:`~admin.mail.inbound.imap.ImapSource` (fetch, archive, ledger, parse, engine, state),
:func:`admin.jobs.followup.site_and_mail`: the site build (incremental: unchanged update pages are
reused) and, beside it in a second process in a large game, the mail-out (receipts and results
into the outbox folder). Its ``site`` figure is the build's own time; ``outbox`` is what waiting
for the mail-out added after the build (near 0 when it ran beside it).

The floor: a bare ``imapclient`` connect, LOGIN, SELECT, SEARCH and ``FETCH BODY.PEEK[]`` of the
same messages, plus as many bare jinja2 page writes (one small template, a 20-row list) as the
update's site build leaves HTML pages in the site.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import jinja2
from imapclient import IMAPClient

from admin.jobs import update as jobs
from admin.jobs.followup import site_and_mail
from admin.store.gamedir import GameDir
from admin.mail.inbound.imap import ImapConfig, ImapSource
from admin.site.build import build_site
from admin.store.fileio import Transaction
from admin.runtime.dovecot import PASSWORD, DovecotServer, Message
from bench import workload

BARE_PAGE = jinja2.Environment(autoescape=True).from_string(
    "<!doctype html><html><head><title>{{ title }}</title></head><body><h1>{{ title }}</h1>"
    "<ul>{% for row in rows %}<li>{{ row.name }}: {{ row.money }}</li>{% endfor %}</ul></body></html>\n")


@dataclass
class Prepared:
    """A private copy of a cached game, its next update's mail waiting in a Dovecot account."""

    game: GameDir
    user: str
    floor_user: str  #: another account holding the same mail, for the floor's bare fetch
    update: int
    cutoff: datetime
    emails: int


@dataclass
class Timing:
    total: float
    update: float  #: intake, parse, engine, state
    site: float  #: the site build
    outbox: float  #: the mail-out, or what waiting for it added when it ran beside the build
    pages: int


def prepare(base: GameDir, spec: workload.Spec, server: DovecotServer, into: Path) -> Prepared:
    game = workload.copy_game(base, into / "game")
    # the cached site was built by whatever code built the history: bring it up to date with this
    # code first (untimed), as an admin's previous update would have, so the timed build is the
    # incremental one of a real update and not a full one caused by the code having changed
    build_site(game)
    # likewise the parsed-state cache an update by this code leaves beside the state files
    # (admin/store/cache.py): saving the loaded state again writes it (and no state file changes)
    with game.lock():
        tx = Transaction(game.root)
        game.stage_state(tx, game.load())
        tx.commit()
    update, mails = workload.next_emails(game, spec)
    messages = [Message(raw, received) for received, raw in mails]
    user, floor_user = server.new_user(), server.new_user()
    server.append_many(user, messages)
    server.append_many(floor_user, messages)
    # the copy above left ~100 MB of dirty pages: flush them now, or the update's first durability
    # barrier (intake's syncfs, or any fsync on a journalling file system) would pay for the copy
    os.sync()
    return Prepared(game, user, floor_user, update, workload.cutoff(update), len(mails))


def imap_config(server: DovecotServer, user: str) -> ImapConfig:
    return ImapConfig(host=server.host, port=server.port, tls="none", user=user)


def run_update(p: Prepared, server: DovecotServer) -> Timing:
    """The timed pipeline; checks that the update ran and acted on every email."""
    config = imap_config(server, p.user)
    started = time.perf_counter()
    source = ImapSource(config, environ={config.password_env: PASSWORD})
    outcome = jobs.run_update_job(p.game, at=p.cutoff, source=source)
    t_update = time.perf_counter()
    done = site_and_mail(p.game, outcome.update, outcome.state)  # as `nomopoly update` does
    finished = time.perf_counter()
    if done.site is None or done.mail is None:
        raise SystemExit(f"update {p.update}: the site was not built ({done.site_error})")
    report, site = done.mail, done.site.out
    # the site build's own time; the mail-out ran beside it: what it added is the rest
    t_site = t_update + done.site.seconds
    applied = sum(1 for s in outcome.screened if s.status == "applied")
    if outcome.update != p.update or applied != p.emails:
        raise SystemExit(f"update {p.update}: ran {outcome.update}, acted on {applied} of {p.emails} emails")
    if len(report.queued) < p.emails:
        raise SystemExit(f"update {p.update}: queued {report.queued} messages for {p.emails} emails")
    return Timing(total=finished - started, update=t_update - started, site=t_site - t_update,
                  outbox=finished - t_site, pages=len(list(site.rglob("*.html"))))


def run_floor(server: DovecotServer, user: str, expected: int, pages: int) -> float:
    """The bare floor: fetch the same mail with imapclient, write ``pages`` bare jinja2 pages."""
    with tempfile.TemporaryDirectory(prefix="nomopoly-floor-") as tmp:
        rows = [{"name": f"p{i:04d}", "money": 1000 + i} for i in range(20)]
        started = time.perf_counter()
        with IMAPClient(server.host, server.port, ssl=False) as c:
            c.login(user, PASSWORD)
            c.select_folder("INBOX", readonly=True)
            fetched = c.fetch(c.search("ALL"), ["BODY.PEEK[]"])
        for n in range(pages):
            Path(tmp, f"page{n}.html").write_text(BARE_PAGE.render(title=f"Page {n}", rows=rows),
                                                  encoding="utf-8")
        elapsed = time.perf_counter() - started
    if len(fetched) != expected:
        raise SystemExit(f"floor: fetched {len(fetched)} messages, expected {expected}")
    return elapsed
