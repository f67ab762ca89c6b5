"""The text of each kind of message the game sends: receipts and acks (line by line verdicts),
results (one player's view of an update), reminders and the admin's report.

Pure functions of plain views, like :mod:`admin.mail.outbound.compose`, whose message helpers wrap these
texts into mail; :mod:`admin.mail.outbound.updatelog` and :mod:`admin.mail.outbound.mailout` build the views.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from functools import lru_cache

from admin.mail.outbound.caps import SUBJECT_CHARS, shorten
from admin.engine.events import Event
from admin.engine.plaintext import visible
from admin.mail.outbound.verdicts import LineResult, LoggedMessage, Verdict

FOOTER_HINT = ("Send commands to the game in a new email or a reply, one per line above any "
               "quoted text (lines starting with > are not read).")


def footer(title: str, site_url: str) -> str:
    lines = ["-- ", title]
    if site_url:
        lines += [site_url + "/", f"How to play (every command, HELP by mail): {site_url}/howto.html"]
    return "\n".join(lines) + "\n"


def format_time(when: datetime) -> str:
    """``Saturday 2026-11-14 23:59:59 UTC``: in the time's own zone (a deadline is in the game's
    timezone, ``[game] timezone``), UTC for a time without one."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.strftime("%A %Y-%m-%d %H:%M:%S ") + (when.tzname() or "UTC")


def _where(line: LineResult) -> str:
    if line.first == 0:
        return "subject"
    return f"lines {line.first}-{line.last}" if line.last > line.first else f"line {line.first}"


def _lines_block(results: list[LineResult]) -> list[str]:
    out = []
    for r in results:
        if r.verdict == "ignored":
            continue
        out.append(f"  {_where(r)}: {r.text}")
        for i, detail in enumerate(r.details or ("",)):
            label = r.verdict.upper() + ": " if i == 0 else " " * (len(r.verdict) + 2)
            out.append(f"    {label}{detail}".rstrip())
    chatter = [r for r in results if r.verdict == "ignored"]
    if chatter:  # greetings, sign-offs, a name: once, briefly
        out.append("  Ignored, as not commands: " + "; ".join(f"{_where(r)} ({r.text})" for r in chatter))
    return out


def _problems_block(message: LoggedMessage) -> list[str]:
    return [f"  (Not all of it could be read. {p})" for p in message.problems]


def _count(results: list[LineResult]) -> str:
    order: list[Verdict] = ["done", "understood", "not done", "no result", "not understood", "ignored"]
    counts = [f"{sum(r.verdict == v for r in results)} {v}" for v in order
              if any(r.verdict == v for r in results)]
    return ", ".join(counts) or "no lines"


def receipt_text(*, player: str, message: LoggedMessage, results: list[LineResult], update: int,
                 week: int, slot: str, title: str, site_url: str, zone: tzinfo | None = None,
                 entered: str | None = None) -> str:
    """``entered``: the hash of the player's commands as they entered the update's dice (scheme 3:
    "" when none of theirs did; None, a game whose dice do not say)."""
    subject = f'"{shorten(message.subject, SUBJECT_CHARS)}"' if message.subject else "(no subject)"
    received = message.received
    if zone is not None:  # in the game's timezone
        try:
            received = format_time(datetime.fromisoformat(received).astimezone(zone))
        except (TypeError, ValueError):
            pass
    parts = [
        f"Hello {player},",
        "",
        f"this answers your email {subject}, received {received}.",
        f"It was read in update {update} (week {week}, {slot}). Line by line:",
        *_problems_block(message),
        "",
        *_lines_block(results),
        "",
        f"In all: {_count(results)}. Your results for update {update} come in a separate email.",
        "",
        *_entered(entered, update),
        FOOTER_HINT,
        "",
    ]
    return "\n".join(parts) + footer(title, site_url)


def _entered(entered: str | None, update: int) -> list[str]:
    if entered is None:
        return []
    if not entered:
        return [f"None of your commands entered the dice of update {update} (none of your emails held one).", ""]
    return [f"Your commands (all your emails of update {update}) entered the dice as SHA-256 {entered}",
            "(the same hash must stand by your name in the update's record: docs/fairness.md).", ""]


def ack_text(*, player: str, message: LoggedMessage, results: list[LineResult],
             deadline: datetime | None, title: str, site_url: str) -> str:
    subject = f'"{message.subject}"' if message.subject else "(no subject)"
    when = f" (mail closes {format_time(deadline)})" if deadline else ""
    parts = [
        f"Hello {player},",
        "",
        f"your email {subject} has arrived. This is what the game understood. The commands",
        f"are carried out at the next update{when};",
        "its results come by email then.",
        "",
        *_lines_block(results),
        "",
        f"In all: {_count(results)}.",
        "",
        FOOTER_HINT,
        "",
    ]
    return "\n".join(parts) + footer(title, site_url)


@dataclass(frozen=True)
class ResultsView:
    """What one player's results email shows (built from the state and the update's events)."""

    player: str
    update: int
    week: int
    slot: str
    happened: tuple[str, ...]
    #: "Where you stand", a line each (money, square, and what each module adds)
    standing: tuple[str, ...]
    proposals: tuple[str, ...]
    deadline: datetime | None
    link: str | None
    everything: tuple[str, ...]
    game_over: str | None = None
    #: how to check one's own hidden draws (docs/fairness.md)
    draws: tuple[str, ...] = ()
    #: the update's seed, the next commitments and the record chain's head (docs/fairness.md)
    record: tuple[str, ...] = ()
    #: press relayed to the player this update, each "From <name> to you:\n<text>"
    press: tuple[str, ...] = ()
    #: False for a game without proposals (Technopoly, Timopoly): no section about voting
    votes: bool = True


def event_line(e: Event, player: str) -> str | None:
    """An event as one line for ``player``: the public text, and their private part if theirs."""
    private = e.private if e.player == player else None
    if e.text and private:
        return visible(f"{e.text} (only you see this: {private})")
    shown = e.text or private
    return visible(shown) if shown else None


def _bullets(items: Iterable[str], empty: str) -> list[str]:
    items = list(items)
    return [f"  - {i}" for i in items] if items else [f"  {empty}"]


@lru_cache(maxsize=4)
def _bullet_block(items: tuple[str, ...], empty: str) -> str:
    """:func:`_bullets` as one text, remembered: every player's results list the same events."""
    return "\n".join(_bullets(items, empty))


#: how many of an update's public events a results email lists (what happened to the player is
#: always there in full); a big game's update of thousands of events sends the rest to the site
EVERYTHING_MAX = 300


def results_text(v: ResultsView, *, title: str, site_url: str) -> str:
    parts = [f"Hello {v.player},", "",
             f"update {v.update} (week {v.week}, {v.slot}) has run. This is what it meant for you.", ""]
    if v.game_over:
        parts += [f"THE GAME IS OVER: {v.game_over}", ""]
    parts += ["What happened to you", *_bullets(v.happened, "Nothing this update."), ""]
    if v.press:  # relayed press: its text as its sender wrote it, each line indented
        parts += ["Press", *["\n".join("  " + line for line in p.split("\n")) + "\n" for p in v.press]]
    parts += ["Where you stand", *v.standing]
    if v.draws:
        parts += ["", "Checking your own draws (how: docs/fairness.md)", *v.draws,
                  "  Each value is HMAC-SHA256(key, digest|label|counter) as a number, mod the sides, plus one."]
    if v.record:
        parts += ["", "The dice and the record, to keep (check them: docs/fairness.md)", *v.record]
    parts += ["", "Proposals open for your vote", *_bullets(v.proposals, "None."), ""] if v.votes else [""]
    if v.deadline:
        parts.append(f"Next deadline: {format_time(v.deadline)}.")
    if v.link:
        parts.append(f"This update on the site: {v.link}")
    parts += ["", f"Everything that happened in update {v.update}",
              _bullet_block(v.everything[:EVERYTHING_MAX], "Nothing.")]
    if len(v.everything) > EVERYTHING_MAX:  # a big game's update: the rest is on the site
        where = f": {v.link}" if v.link else " (the update's page on the game's site)"
        parts.append(f"  ... and {len(v.everything) - EVERYTHING_MAX:,} more; the whole update is on the site{where}")
    parts += ["", FOOTER_HINT, ""]
    return "\n".join(parts) + footer(title, site_url)


def reminder_text(*, player: str, deadline: datetime, slot: str, unvoted: list[str],
                  propose: bool, fine: int, title: str, site_url: str) -> str:
    parts = [f"Hello {player},", "",
             f"mail for the next update ({slot}) closes {format_time(deadline)}.", ""]
    if unvoted:
        cost = f" and costs ${fine}" if fine else ""
        parts += ["You have not voted yet on:", *[f"  - {u}" for u in unvoted], "",
                  f"Not voting counts as Abstain{cost}. To vote, send e.g. VOTE <number> YES "
                  "(or NO, or ABSTAIN), one line per proposal.", ""]
    if propose:
        parts += ["You have not sent a proposal this week: PROPOSE <title>, then its text, "
                  "then a line END.", ""]
    parts += ["If your email is already on its way, ignore this one.", ""]
    return "\n".join(parts) + footer(title, site_url)


@dataclass(frozen=True)
class ReportView:
    """What the admin's report of one update shows."""

    update: int
    week: int
    slot: str
    cutoff: str
    events: int
    acted: tuple[str, ...]
    refused: tuple[str, ...]
    not_answered: tuple[str, ...]
    #: what waits for the Admin now (admin/jobs/todo.py): join requests, proposals to carry out, what
    #: a module asked, rulings queued
    todo: tuple[str, ...]
    #: the rulings this update carried out, and those it could not, each as the update said it
    rulings: tuple[str, ...]
    failed_rulings: tuple[str, ...]
    queued: int
    waiting: int


def report_text(v: ReportView, *, title: str, site_url: str) -> str:
    def section(name: str, items: tuple[str, ...], empty: str = "none") -> list[str]:
        return [name, *([f"  - {i}" for i in items] or [f"  {empty}"]), ""]

    parts = [
        f"Update {v.update} (week {v.week}, {v.slot}), mail up to {v.cutoff}.",
        "",
        *section("To do now (also: nomopoly todo)", v.todo, "nothing"),
        f"{v.events} events; {len(v.acted)} email(s) acted on"
        + (f" ({', '.join(sorted(set(v.acted)))})" if v.acted else "")
        + f"; {len(v.refused)} not acted on.",
        f"Mail out: {v.queued} message(s) queued for the players"
        + (f"; {v.waiting} older message(s) still wait in the outbox" if v.waiting else "") + ".",
        "",
        *section("Mail not acted on (never answered to the sender)", v.refused),
        *section("Not answered, or not sent", v.not_answered),
        *section("Your rulings applied", v.rulings),
        *section("Your rulings that could not be carried out", v.failed_rulings),
    ]
    return "\n".join(parts) + footer(title, site_url)
