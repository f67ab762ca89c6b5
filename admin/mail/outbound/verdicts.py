"""What the update log says about one email, and the answer to each of its lines.

:class:`LoggedMessage` is one email as the update log records it; :func:`judge_lines` gives each
line its verdict from the update's events, and :func:`cap_results` keeps a receipt's quotes within
its budget. The receipt and results texts (:mod:`admin.mail.outbound.texts`) are made of these."""

from __future__ import annotations

import collections
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from admin.engine.events import Event
from admin.engine.plaintext import visible
from admin.mail.inbound.grammar import CHATTER
from admin.mail.inbound.limits import RECEIPT_BUDGET
from admin.mail.outbound.caps import DETAIL_CHARS, QUOTE_CHARS, shorten



@dataclass(frozen=True)
class LoggedLine:
    """One line (or PROPOSE block) of an email, as ``Screened.log_record()`` records it."""

    first: int
    last: int
    text: str
    command: Mapping[str, Any] | None
    error: str | None
    note: str | None = None


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
    #: what could not be read of an email that was acted on (an unknown charset, a part too long)
    problems: tuple[str, ...] = ()

    @classmethod
    def from_record(cls, r: Mapping[str, Any]) -> LoggedMessage:
        lines = tuple(
            LoggedLine(int(x["first"]), int(x.get("last", x["first"])), str(x["text"]),
                       x.get("command"), x.get("error"), x.get("note"))
            for x in r.get("lines") or []
        )
        return cls(hash=str(r["hash"]), message_id=str(r.get("message_id") or ""),
                   received=str(r.get("received") or ""), player=r.get("player"),
                   sender=str(r.get("sender") or ""), subject=str(r.get("subject") or ""),
                   kind=str(r.get("kind") or "normal"), status=str(r["status"]),
                   reason=r.get("reason"), lines=lines,
                   problems=tuple(str(p) for p in r.get("problems") or ()))

    def has_command(self) -> bool:
        return any(line.command is not None for line in self.lines)


Verdict = Literal["done", "not done", "not understood", "understood", "no result", "secret", "ignored"]


@dataclass(frozen=True)
class LineResult:
    """The answer to one line: its verdict and what it did or why not."""

    first: int
    last: int
    text: str
    verdict: Verdict
    details: tuple[str, ...] = ()


EventsByRef = Mapping[str, Sequence[Event]]
"""An update's events by the email line they answer (``<hash>#<line>``), see :func:`events_by_ref`."""


def events_by_ref(events: Iterable[Event]) -> dict[str, list[Event]]:
    """Index an update's events by their ``ref``, once per update: judging each email's lines then
    costs only its own events, not every event of the update for every email."""
    by_ref: dict[str, list[Event]] = {}
    for e in events:
        if e.ref:
            by_ref.setdefault(e.ref, []).append(e)
    return by_ref


def judge_lines(message: LoggedMessage, by_ref: EventsByRef | None) -> list[LineResult]:
    """Each line's verdict. ``by_ref`` are the update's events (:func:`events_by_ref`); None: the
    update has not run yet, as for an ack.

    A line's result is every event whose ``ref`` is ``<hash>#<line>``: its public text, or its
    private text (the sender is the player it belongs to); a parse error quotes what is valid.
    """
    return [_with_note(r, line.note) for line, r in zip(message.lines, _judged(message, by_ref))]


def _with_note(result: LineResult, note: str | None) -> LineResult:
    if not note:
        return result
    return LineResult(result.first, result.last, result.text, result.verdict, (*result.details, note))


def _judged(message: LoggedMessage, by_ref: EventsByRef | None) -> list[LineResult]:
    out = []
    for line in message.lines:
        if line.error == CHATTER:
            out.append(LineResult(line.first, line.last, line.text, "ignored", ()))
        elif line.error is not None or line.command is None:
            out.append(LineResult(line.first, line.last, line.text, "not understood",
                                  (line.error or "not a command",)))
        elif line.command.get("cmd") == "token" and line.note:  # a token where none was checked
            out.append(LineResult(line.first, line.last, line.text, "not done", ()))
        elif line.command.get("cmd") == "token":
            out.append(LineResult(line.first, line.last, line.text, "secret", ("your token was checked",)))
        elif by_ref is None:
            out.append(LineResult(line.first, line.last, line.text, "understood",
                                  ("it will be carried out at the next update",)))
        else:
            found = [e for e in by_ref.get(f"{message.hash}#{line.first}", ())
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


def cap_results(results: Sequence[LineResult], budget: int = RECEIPT_BUDGET) -> list[LineResult]:
    """The results a receipt quotes, within ``budget`` characters, control and bidi characters
    written as escapes (:func:`~admin.engine.plaintext.visible`): each quoted line cut to
    :data:`QUOTE_CHARS` and each detail to :data:`DETAIL_CHARS`; once the budget is spent, the
    lines left are summed up in one last result, by verdict."""
    out: list[LineResult] = []
    spent = 0
    for i, r in enumerate(results):
        r = LineResult(r.first, r.last, shorten(visible(r.text), QUOTE_CHARS), r.verdict,
                       tuple(shorten(visible(d), DETAIL_CHARS) for d in r.details))
        size = len(r.text) + sum(len(d) for d in r.details) + 40
        if spent + size > budget:
            rest = results[i:]
            counts = collections.Counter(x.verdict for x in rest)
            summary = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
            out.append(LineResult(rest[0].first, rest[-1].last, "(the rest of your email)", "no result",
                                  (f"{len(rest)} more lines ({summary}), not quoted: this answer "
                                   "is kept short. Write fewer lines per email.",)))
            break
        spent += size
        out.append(r)
    return out
