"""Composing mail out: Message-IDs, threading, loop guards, and the text of each kind of message.

Everything here is pure: data in, text or headers out. Which messages an update sends, to whom,
and the sending itself live in :mod:`admin.mail.mailout` and :mod:`admin.mail.outbox`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage, Message
from email.utils import formataddr, getaddresses
from typing import Any, Literal

from admin.engine.events import Event
from admin.errors import MailError

AUTO_SUBMITTED_RECEIPT = "auto-replied"
"""``Auto-Submitted`` value for receipts: an automatic answer to a player's email (RFC 3834)."""
AUTO_SUBMITTED_RESULTS = "auto-generated"
"""``Auto-Submitted`` value for results: mail the game sends on its own schedule (RFC 3834)."""


# --------------------------------------------------------------------------------------------
# Message-IDs and headers

def make_message_id(game_id: str, purpose: str, domain: str) -> str:
    """A Message-ID that depends only on its arguments, so a re-run composes the identical one.

    ``purpose`` names the message within the game, e.g. ``receipt/update-3/<original id>`` or
    ``results/update-3/alice``. The result looks like ``<nomopoly.1f3a...@example.org>``.
    """
    if not game_id:
        raise MailError(f"make_message_id: game_id {game_id!r} is empty; pass the game's id")
    if not purpose:
        raise MailError(
            f"make_message_id: purpose {purpose!r} is empty; pass e.g. 'results/update-3/alice'"
        )
    if not re.fullmatch(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*", domain or ""):
        raise MailError(
            f"make_message_id: domain {domain!r} is not a domain name; "
            "pass the domain of the game's address, e.g. 'example.org'"
        )
    digest = hashlib.sha256(f"nomopoly-message-id\0{game_id}\0{purpose}".encode()).hexdigest()
    return f"<nomopoly.{digest[:40]}@{domain.lower()}>"


_MSGID = re.compile(r"<[^<>\s]+>")


def msgids(value: str | None) -> list[str]:
    """The ``<...>`` tokens of a Message-ID or References value; junk between them is dropped."""
    if not value:
        return []
    text = str(value).strip()
    found = _MSGID.findall(text)
    if not found and "@" in text and not any(c.isspace() or c in "<>" for c in text):
        found = [f"<{text}>"]  # a bare id without angle brackets
    return found


_RE_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|antw)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)
MAX_REFERENCES = 20


def reply_headers(
    original_message_id: str | None,
    original_references: str | None,
    original_subject: str | None,
) -> dict[str, str]:
    """``In-Reply-To``, ``References`` and ``Subject`` for an answer to a message (RFC 5322 3.6.4).

    References keeps the last :data:`MAX_REFERENCES` ids of the thread; the subject gets exactly one
    ``Re:`` however many the original carried (also ``RE:``, ``Aw:``, ``Re[2]:``).
    """
    headers: dict[str, str] = {}
    parent = msgids(original_message_id)[:1]
    refs = msgids(original_references)
    if parent:
        headers["In-Reply-To"] = parent[0]
        if not refs or refs[-1] != parent[0]:
            refs.append(parent[0])
    if refs:
        headers["References"] = " ".join(refs[-MAX_REFERENCES:])
    subject = " ".join(str(original_subject or "").split())  # one line, no header injection
    subject = _RE_PREFIX.sub("", subject).strip()
    headers["Subject"] = f"Re: {subject}" if subject else "Re: (no subject)"
    return headers


HeaderSource = Message | Mapping[str, str] | Iterable[tuple[str, str]]


def must_not_answer(msg_headers: HeaderSource, own_addresses: Iterable[str] = ()) -> bool:
    """True when answering this message could start a mail loop or spam a list.

    That is: auto-replies (``Auto-Submitted`` other than ``no``, ``X-Autoreply``,
    ``X-Autorespond``), bulk and list mail (``Precedence: bulk|junk|list``, ``List-Id``), bounces
    (from ``MAILER-DAEMON`` or ``postmaster``, an empty ``Return-Path: <>``, a delivery report),
    and mail from the game's own address(es) in ``own_addresses``. ``msg_headers`` is a parsed
    message or any mapping / sequence of header pairs; header names are case-insensitive.
    """
    headers = _header_lists(msg_headers)

    def values(name: str) -> list[str]:
        return headers.get(name, [])

    for value in values("auto-submitted"):
        if value.split(";")[0].strip().lower() != "no":
            return True
    if values("x-autoreply") or values("x-autorespond"):
        return True
    if any(v.strip().lower() in ("bulk", "junk", "list") for v in values("precedence")):
        return True
    if values("list-id"):
        return True
    if any(v.strip().replace(" ", "") == "<>" for v in values("return-path")):
        return True
    if any(v.strip().lower().startswith("multipart/report") for v in values("content-type")):
        return True
    own = {a.strip().lower() for a in own_addresses}
    for name in ("from", "sender", "return-path"):
        for _, addr in getaddresses(values(name)):
            local = addr.rpartition("@")[0] if "@" in addr else addr
            if local.lower() in ("mailer-daemon", "postmaster"):
                return True
            if name == "from" and addr.lower() in own:
                return True
    return False


def _header_lists(source: HeaderSource) -> dict[str, list[str]]:
    pairs: Iterable[tuple[str, Any]]
    if isinstance(source, Message):
        pairs = source.items()
    elif isinstance(source, Mapping):
        pairs = source.items()
    else:
        pairs = source
    out: dict[str, list[str]] = {}
    for name, value in pairs:
        out.setdefault(str(name).lower(), []).append(str(value))
    return out


def new_message(
    *,
    sender: str,
    to: str,
    subject: str,
    message_id: str,
    auto_submitted: str,
    kind: str,
    body: str,
    extra_headers: Mapping[str, str] | None = None,
) -> EmailMessage:
    """A plain-text message ready for :meth:`admin.mail.outbox.Outbox.queue`.

    ``kind`` (``receipt``, ``ack``, ``results``, ``reminder``, ``report``) is written to
    ``X-Nomopoly-Kind`` so players can filter the game's mail.
    """
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = " ".join(subject.split())
    msg["Message-ID"] = message_id
    msg["Auto-Submitted"] = auto_submitted
    msg["X-Nomopoly-Kind"] = kind
    for name, value in (extra_headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg


def address_of(name: str | None, address: str) -> str:
    """``Name <address>`` for a header; the bare address when there is no name."""
    return formataddr((name or "", address))


def is_reply_to_us(headers: HeaderSource, domain: str) -> bool:
    """True when ``In-Reply-To`` or ``References`` names a message the game sent (our ids look
    like ``<nomopoly.<hex>@domain>``, see :func:`make_message_id`)."""
    lists = _header_lists(headers)
    ids = [i for name in ("in-reply-to", "references") for v in lists.get(name, []) for i in msgids(v)]
    suffix = f"@{domain.lower()}>"
    return any(i.lower().startswith("<nomopoly.") and i.lower().endswith(suffix) for i in ids)


# --------------------------------------------------------------------------------------------
# What the update log says about one email


@dataclass(frozen=True)
class LoggedLine:
    """One line (or PROPOSE block) of an email, as ``Screened.log_record()`` records it."""

    first: int
    last: int
    text: str
    command: Mapping[str, Any] | None
    error: str | None


@dataclass(frozen=True)
class LoggedMessage:
    """One email of an update log's ``inputs.messages[]`` (also made from a fresh Screened)."""

    hash: str
    message_id: str
    received: str
    player: str | None
    sender: str
    subject: str
    kind: str
    status: str
    reason: str | None
    lines: tuple[LoggedLine, ...]

    @classmethod
    def from_record(cls, r: Mapping[str, Any]) -> LoggedMessage:
        lines = tuple(
            LoggedLine(int(x["first"]), int(x.get("last", x["first"])), str(x["text"]),
                       x.get("command"), x.get("error"))
            for x in r.get("lines") or []
        )
        return cls(hash=str(r["hash"]), message_id=str(r.get("message_id") or ""),
                   received=str(r.get("received") or ""), player=r.get("player"),
                   sender=str(r.get("sender") or ""), subject=str(r.get("subject") or ""),
                   kind=str(r.get("kind") or "normal"), status=str(r["status"]),
                   reason=r.get("reason"), lines=lines)

    def has_command(self) -> bool:
        return any(line.command is not None for line in self.lines)


Verdict = Literal["done", "not done", "not understood", "understood", "no result", "secret"]


@dataclass(frozen=True)
class LineResult:
    """The answer to one line: its verdict and what it did or why not."""

    first: int
    last: int
    text: str
    verdict: Verdict
    details: tuple[str, ...] = ()


def judge_lines(message: LoggedMessage, events: Iterable[Event] | None) -> list[LineResult]:
    """Each line's verdict. ``events`` are the update's (None: not run yet, as for an ack).

    A line's result is every event whose ``ref`` is ``<hash>#<line>``: its public text, or its
    private text (the sender is the player it belongs to); a parse error quotes what is valid.
    """
    by_ref: dict[str, list[Event]] = {}
    for e in events or ():
        if e.ref:
            by_ref.setdefault(e.ref, []).append(e)
    out = []
    for line in message.lines:
        if line.error is not None or line.command is None:
            out.append(LineResult(line.first, line.last, line.text, "not understood",
                                  (line.error or "not a command",)))
        elif line.command.get("cmd") == "token":
            out.append(LineResult(line.first, line.last, line.text, "secret", ("your token was checked",)))
        elif events is None:
            out.append(LineResult(line.first, line.last, line.text, "understood",
                                  ("it will be carried out at the next update",)))
        else:
            found = [e for e in by_ref.get(f"{message.hash}#{line.first}", [])
                     if e.player in (None, message.player)]
            details = tuple(d for e in found for d in (e.text, e.private) if d)
            if not found:
                why = ("only JOIN <name> is accepted from an address that is not a player's"
                       if message.player is None else "nothing came of it in this update")
                out.append(LineResult(line.first, line.last, line.text, "no result", (why,)))
            else:
                verdict: Verdict = "done" if all(e.ok for e in found) else "not done"
                out.append(LineResult(line.first, line.last, line.text, verdict, details))
    return out


# --------------------------------------------------------------------------------------------
# Texts

FOOTER_HINT = ("Send commands to the game in a new email or a reply, one per line above any "
               "quoted text (lines starting with > are not read).")


def footer(title: str, site_url: str) -> str:
    lines = ["-- ", title]
    if site_url:
        lines.append(site_url + "/")
    return "\n".join(lines) + "\n"


def format_time(when: datetime) -> str:
    """``Saturday 2026-11-14 23:59:59 UTC``."""
    when = when.astimezone(timezone.utc)
    return when.strftime("%A %Y-%m-%d %H:%M:%S UTC")


def _where(line: LineResult) -> str:
    if line.first == 0:
        return "subject"
    return f"lines {line.first}-{line.last}" if line.last > line.first else f"line {line.first}"


def _lines_block(results: list[LineResult]) -> list[str]:
    out = []
    for r in results:
        out.append(f"  {_where(r)}: {r.text}")
        for i, detail in enumerate(r.details or ("",)):
            label = r.verdict.upper() + ": " if i == 0 else " " * (len(r.verdict) + 2)
            out.append(f"    {label}{detail}".rstrip())
    return out


def _count(results: list[LineResult]) -> str:
    order: list[Verdict] = ["done", "understood", "not done", "no result", "not understood"]
    counts = [f"{sum(r.verdict == v for r in results)} {v}" for v in order
              if any(r.verdict == v for r in results)]
    return ", ".join(counts) or "no lines"


def receipt_text(*, player: str, message: LoggedMessage, results: list[LineResult], update: int,
                 week: int, slot: str, title: str, site_url: str) -> str:
    subject = f'"{message.subject}"' if message.subject else "(no subject)"
    parts = [
        f"Hello {player},",
        "",
        f"this answers your email {subject}, received {message.received}.",
        f"It was read in update {update} (week {week}, {slot}). Line by line:",
        "",
        *_lines_block(results),
        "",
        f"In all: {_count(results)}. Your results for update {update} come in a separate email.",
        "",
        FOOTER_HINT,
        "",
    ]
    return "\n".join(parts) + footer(title, site_url)


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
    money: int
    health: int
    square: str
    transport: str
    squares: tuple[str, ...]
    cards: tuple[str, ...]
    buried: tuple[str, ...]
    buy_rights: tuple[str, ...]
    proposals: tuple[str, ...]
    deadline: datetime | None
    link: str | None
    everything: tuple[str, ...]
    game_over: str | None = None


def event_line(e: Event, player: str) -> str | None:
    """An event as one line for ``player``: the public text, and their private part if theirs."""
    private = e.private if e.player == player else None
    if e.text and private:
        return f"{e.text} (only you see this: {private})"
    return e.text or private


def results_text(v: ResultsView, *, title: str, site_url: str) -> str:
    def bullets(items: Iterable[str], empty: str) -> list[str]:
        items = list(items)
        return [f"  - {i}" for i in items] if items else [f"  {empty}"]

    parts = [f"Hello {v.player},", "",
             f"update {v.update} (week {v.week}, {v.slot}) has run. This is what it meant for you.", ""]
    if v.game_over:
        parts += [f"THE GAME IS OVER: {v.game_over}", ""]
    parts += ["What happened to you", *bullets(v.happened, "Nothing this update."), ""]
    parts += [
        "Where you stand",
        f"  Money: ${v.money}",
        f"  Health: {v.health}",
        f"  Square: {v.square}",
        f"  Transport: {v.transport}",
        f"  Squares you own: {', '.join(v.squares) or 'none'}",
        f"  Your cards (only you see them): {', '.join(v.cards) or 'none'}",
    ]
    if v.buried:
        parts.append(f"  Cards you buried (only you see them): {', '.join(v.buried)}")
    if v.buy_rights:
        parts.append(f"  You may still BUY: {', '.join(v.buy_rights)}")
    parts += ["", "Proposals open for your vote", *bullets(v.proposals, "None."), ""]
    if v.deadline:
        parts.append(f"Next deadline: {format_time(v.deadline)}.")
    if v.link:
        parts.append(f"This update on the site: {v.link}")
    parts += ["", f"Everything that happened in update {v.update}",
              *bullets(v.everything, "Nothing."), "", FOOTER_HINT, ""]
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
    joins: tuple[str, ...]
    attention: tuple[str, ...]
    awaiting: tuple[str, ...]
    rulings: tuple[str, ...]
    queued: int
    waiting: int


def report_text(v: ReportView, *, title: str, site_url: str) -> str:
    def section(name: str, items: tuple[str, ...], empty: str = "none") -> list[str]:
        return [name, *([f"  - {i}" for i in items] or [f"  {empty}"]), ""]

    parts = [
        f"Update {v.update} (week {v.week}, {v.slot}), mail up to {v.cutoff}.",
        "",
        f"{v.events} events; {len(v.acted)} email(s) acted on"
        + (f" ({', '.join(sorted(set(v.acted)))})" if v.acted else "")
        + f"; {len(v.refused)} not acted on.",
        f"Mail out: {v.queued} message(s) queued for the players"
        + (f"; {v.waiting} older message(s) still wait in the outbox" if v.waiting else "") + ".",
        "",
        *section("Mail not acted on (never answered to the sender)", v.refused),
        *section("Not answered, or not sent", v.not_answered),
        *section("Join requests waiting for you (nomopoly player add NAME EMAIL)", v.joins),
        *section("Needs your attention", v.attention),
        *section("Accepted proposals awaiting you", v.awaiting),
        *section("Your rulings applied", v.rulings),
    ]
    return "\n".join(parts) + footer(title, site_url)
