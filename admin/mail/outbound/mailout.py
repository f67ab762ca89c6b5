"""Mail out: which messages an update (or a reminder run, or a fetch) sends, to whom; then send.

Entry points (each queues into ``state/outbox/`` and delivers; each is safe to run again):

* :func:`mail_out` after an update: a receipt for every email acted on, results for every
  active player, and one report for the admin. Read from the update's log and the state.
* :func:`remind` from cron, every hour if you like: before the next deadline, one reminder per
  player and deadline to those who have not voted on every proposal in voting.
* :func:`ack` right after mail is fetched: what each email's lines were understood as.

Call them after the update (or fetch) has committed and released the game's lock: they take the
lock to read a consistent state and queue, and release it before talking to the SMTP server.
Message-IDs are derived from purposes (``receipt/<hash>``, ``results/update-3/alice``,
``remind/<deadline>/alice``, ``report/update-3``, ``ack/<hash>``), so nothing is sent twice; what
fails to send stays queued for the next run and is reported, never raised.

Mail is never answered when it was refused (unknown sender, failed authentication: the admin's
report lists it), is an auto-reply, bounce, list or our own mail (:func:`must_not_answer` on the
archived headers), or is a reply to the game's own mail with no command in it (a mail loop).
"""

from __future__ import annotations

import email.policy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage, Message
from email.parser import BytesParser
from functools import partial
from typing import Any

from admin.runtime.gcpause import few_collections
from admin.games.registry import REGISTRY
from admin.engine.schedule import slot_of
from admin.engine.errors import MailError
from admin.store.gamedir import GameDir
from admin.mail.outbound import compose, verdicts
from admin.mail.outbound.caps import SUBJECT_CHARS, shorten
from admin.mail.outbound import texts, welcome
from admin.mail.inbound.intake import Screened, archive_path
from admin.mail.outbound.outbox import DeliveryReport, Outbox
from admin.mail.outbound.settings import MailSettings
from admin.mail.outbound.updatelog import EventIndex, ResultsIndex, UpdateLog, load_update_log, results_view
from admin.engine.model import GameState
from admin.jobs.todo import todo_items

def outbox_of(game: GameDir) -> Outbox:
    return Outbox(game.state_dir / "outbox")


@dataclass(frozen=True)
class Draft:
    """A message a run means to send, before its text is written.

    Writing the text and the message is most of the work, and the Message-ID depends only on the
    purpose: :func:`_queue` asks the outbox first, so a re-run writes nothing it queued or sent
    before (and counts the same messages).
    """

    purpose: str
    kind: str
    to: str
    subject: str
    body: Callable[[], str]
    extra_headers: Mapping[str, str] = field(default_factory=dict)

    def message(self, ms: MailSettings) -> EmailMessage:
        return ms.message(purpose=self.purpose, to=self.to, subject=self.subject, kind=self.kind,
                          body=self.body(), extra_headers=dict(self.extra_headers))


# -- receipts and acks ---------------------------------------------------------------------------
def _archived_headers(game: GameDir, digest: str) -> Message | None:
    path = archive_path(game.state_dir, digest)
    try:
        with path.open("rb") as fh:
            return BytesParser(policy=email.policy.compat32).parse(fh, headersonly=True)
    except OSError:
        return None


def _why_not_answer(ms: MailSettings, m: verdicts.LoggedMessage, archived: Message | None) -> str | None:
    """None when the email may be answered; else the reason, for the admin."""
    headers: Any = archived or {"From": m.sender}
    if m.kind != "normal" or compose.must_not_answer(headers, [ms.from_address]):
        return "an automatic message, a bounce, list mail or the game's own mail"
    if compose.is_reply_to_us(headers, ms.domain) and not m.has_command():
        return "a reply to the game's own mail with no command in it (a possible mail loop)"
    return None


def _reply_to(m: verdicts.LoggedMessage, archived: Message | None) -> dict[str, str]:
    original = archived.get("Message-ID") if archived is not None else None
    if not original and m.message_id and not m.message_id.startswith("sha256:"):
        original = f"<{m.message_id}>"
    references = archived.get("References") if archived is not None else None
    return compose.reply_headers(original, references, m.subject)


def _describe(m: verdicts.LoggedMessage) -> str:
    subject = f'"{shorten(m.subject, SUBJECT_CHARS)}"' if m.subject else "(no subject)"
    return f"{m.sender or '(no sender)'}, {subject}, received {m.received}"


AnswerText = Callable[[verdicts.LoggedMessage, list[verdicts.LineResult]], str]


def _answer_text(text: AnswerText, m: verdicts.LoggedMessage, by_ref: verdicts.EventsByRef | None) -> str:
    return text(m, verdicts.cap_results(verdicts.judge_lines(m, by_ref)))


def _answers(game: GameDir, ms: MailSettings, state: GameState, messages: list[verdicts.LoggedMessage],
             by_ref: verdicts.EventsByRef | None, purpose: str,
             text: AnswerText) -> tuple[list[Draft], list[str]]:
    """Receipts (or acks) for the emails that may be answered; notes on the ones not answered."""
    out: list[Draft] = []
    notes: list[str] = []
    for m in messages:
        if m.status != "applied":
            continue  # refused mail goes to the admin, never to the sender
        if m.player is None:  # a stranger's JOIN: one answer, with the update's receipts
            if purpose == "receipt" and m.sender:
                out += _join_reply(game, ms, m, by_ref, notes)
            continue
        archived = _archived_headers(game, m.hash)
        why = _why_not_answer(ms, m, archived)
        address = state.private.emails.get(m.player)
        if why is None and not address:
            why = f"{m.player} has no registered address"
        if why is not None or not address:
            notes.append(f"not answered: {_describe(m)}: {why}")
            continue
        thread = _reply_to(m, archived)
        subject = thread.pop("Subject")
        out.append(Draft(purpose=f"{purpose}/{m.hash}", kind=purpose, subject=subject,
                         to=compose.address_of(m.player, address), extra_headers=thread,
                         body=partial(_answer_text, text, m, by_ref)))
    return out, notes


def _join_reply(game: GameDir, ms: MailSettings, m: verdicts.LoggedMessage, by_ref: verdicts.EventsByRef | None,
                notes: list[str]) -> list[Draft]:
    """The answer to a request to join (received; the Admin decides), unless it may not be answered."""
    archived = _archived_headers(game, m.hash)
    why = _why_not_answer(ms, m, archived)
    if why is not None:
        notes.append(f"not answered: {_describe(m)}: {why}")
        return []
    thread = _reply_to(m, archived)
    subject = thread.pop("Subject")

    def body() -> str:
        results = verdicts.cap_results(verdicts.judge_lines(m, by_ref))
        return welcome.join_reply_text(message=m, results=results, zone=ms.zone, **ms.text_args())

    return [Draft(purpose=f"receipt/{m.hash}", kind="receipt", subject=subject, to=str(m.sender),
                  extra_headers=thread, body=body)]


def welcome_player(game: GameDir, name: str, token: str | None = None) -> DeliveryReport:
    """Queue and send player ``name``'s welcome (``nomopoly player add``): how to play, the coming
    deadlines, the game's address, and ``token`` (the secret just issued) where there is one.
    One welcome per player and address, however often this runs."""
    from admin.jobs.deadlines import upcoming
    from admin.mail.inbound.auth import AuthSettings

    with game.lock(wait=True):
        state = game.load()
        ms = MailSettings.read(game, state)
        address = state.private.emails.get(name)
        drafts = []
        if address and name in state.players and state.players[name].active:
            due = [(d.update, d.slot, d.when) for d in upcoming(game, state, 3)]
            body = partial(welcome.welcome_text, player=name, address=ms.from_address, deadlines=due,
                           token=token, require_token=AuthSettings.from_dict(game.settings().section("auth")).require_token,
                           **ms.text_args())
            drafts.append(Draft(purpose=f"welcome/{name}/{address}", kind="welcome",
                                to=compose.address_of(name, address), body=body,
                                subject=f"[{ms.title}] Welcome, {name}: how to play"))
        queued = _queue(outbox_of(game), ms, drafts)
    return replace(deliver(game, ms), queued=queued)


# -- results -------------------------------------------------------------------------------------
def _results_text(ms: MailSettings, index: ResultsIndex, state: GameState, name: str) -> str:
    return texts.results_text(results_view(index, state, name), **ms.text_args())


def _results(game: GameDir, ms: MailSettings, state: GameState, log: UpdateLog,
             events: EventIndex) -> tuple[list[Draft], list[str]]:
    if state.update != log.update:
        return [], [f"results of update {log.update} not composed: the game is at update "
                    f"{state.update} now, and results show the state right after their update"]
    index = ResultsIndex.of(game, state, log, events, ms.site_url)
    out, notes = [], []
    for name, player in sorted(state.players.items()):
        if not player.active:
            continue
        address = state.private.emails.get(name)
        if not address:
            notes.append(f"no results for {name}: no registered address")
            continue
        out.append(Draft(purpose=f"results/update-{log.update}/{name}", kind="results",
                         to=compose.address_of(name, address),
                         subject=f"[{ms.title}] Update {log.update} results for {name}",
                         body=partial(_results_text, ms, index, state, name)))
    return out, notes


# -- the admin's report --------------------------------------------------------------------------
def _report_text(ms: MailSettings, todo: tuple[str, ...], log: UpdateLog, notes: list[str], queued: int,
                 waiting: int) -> str:
    said = [(e.ok, e.text) for e in log.events if e.kind == "ruling" and e.text]  # in words, as the update said it
    rulings = tuple(text for ok, text in said if ok)
    failed = tuple(text for ok, text in said if not ok)
    view = texts.ReportView(
        update=log.update, week=log.week, slot=log.slot, cutoff=log.cutoff, events=len(log.events),
        acted=tuple(m.player or m.sender for m in log.messages if m.status == "applied"),
        refused=tuple(f"{_describe(m)}: {m.status}: {m.reason}" for m in log.messages
                      if m.status in ("rejected", "ignored")),
        not_answered=tuple(notes),
        todo=todo,
        rulings=rulings, failed_rulings=failed, queued=queued, waiting=waiting)
    return texts.report_text(view, **ms.text_args())


def _report(ms: MailSettings, todo: tuple[str, ...], log: UpdateLog, notes: list[str], queued: int,
            waiting: int) -> Draft | None:
    if not ms.admin_address:
        return None
    return Draft(purpose=f"report/update-{log.update}", to=ms.admin_address, kind="report",
                 subject=f"[{ms.title}] Admin report for update {log.update}",
                 body=partial(_report_text, ms, todo, log, list(notes), queued, waiting))


# -- entry points --------------------------------------------------------------------------------
def _queue(outbox: Outbox, ms: MailSettings, drafts: list[Draft]) -> tuple[str, ...]:
    """Queue, as one batch, the drafts not queued or sent before (the others are not written).
    Each message is composed as the outbox takes it, so memory holds one, not the batch."""
    fresh = (d.message(ms) for d in drafts if not outbox.knows(ms.message_id(d.purpose)))
    return tuple(outbox.queue_all(fresh))


def deliver(game: GameDir, ms: MailSettings) -> DeliveryReport:
    """Send whatever waits in the outbox (this run's mail and earlier failures). Never raises
    for mail trouble: a bad ``[mail.smtp]`` table or an unset secret is reported like a dead server."""
    outbox = outbox_of(game)
    if ms.smtp_error:
        return outbox.not_delivered(ms.smtp_error)
    try:
        return outbox.deliver(ms.smtp)
    except MailError as e:
        return outbox.not_delivered(str(e))


@few_collections
def mail_out(game: GameDir, update: int, *, state: GameState | None = None, send: bool = True) -> DeliveryReport:
    """Queue the receipts, results and admin report of ``update`` (one batch), then deliver.
    Idempotent: a re-run writes only what is missing from the outbox, and sends nothing twice.

    ``state`` is the state right after the update when the caller has it (the update job's
    outcome): it saves loading the state files once more (a quarter of mail-out in a big game)."""
    with game.lock(wait=True):
        state = state if state is not None else game.load()
        ms = MailSettings.read(game, state)
        log = load_update_log(game, update)
        outbox = outbox_of(game)
        waiting = len(outbox.pending())
        events = EventIndex.of(log.events)

        dice = (log.record or {}).get("dice") or {}
        entered = dice.get("players") or {} if int(dice.get("scheme", 1)) >= 3 else None

        def receipt(m: verdicts.LoggedMessage, results: list[verdicts.LineResult]) -> str:
            return texts.receipt_text(player=m.player or "", message=m, results=results, zone=ms.zone,
                                      update=log.update, week=log.week, slot=log.slot, **ms.text_args(),
                                      entered=None if entered is None else entered.get(m.player or "", ""))

        receipts, notes = _answers(game, ms, state, list(log.messages), events.by_ref, "receipt", receipt)
        results, result_notes = _results(game, ms, state, log, events)
        todo = tuple(t.line() for t in todo_items(state, log.events, game.pending_rulings()))
        report = _report(ms, todo, log, notes + result_notes, len(receipts) + len(results), waiting)
        if report is None:
            result_notes.append("no [mail] admin_address in nomopoly.toml: no admin report sent")
        queued = _queue(outbox, ms, receipts + results + ([report] if report else []))
    if not send:  # queued only (a dry run's preview): nothing leaves the outbox
        return DeliveryReport(mode="outbox", queued=queued, notes=tuple(notes + result_notes))
    return replace(deliver(game, ms), queued=queued, notes=tuple(notes + result_notes))


def remind(game: GameDir, now: datetime) -> DeliveryReport:
    """Remind players before the next deadline (``[mail] remind_hours`` before it) of their
    missing votes (and, with ``remind_proposals = true``, a missing proposal). One reminder per
    player and deadline, however often this runs; mail already received counts (see below)."""
    from admin.jobs.deadlines import deadline

    now = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
    with game.lock(wait=True):
        state = game.load()
        ms = MailSettings.read(game, state)
        due = deadline(game, state)
        drafts: list[Draft] = []
        if due is not None and not state.ended and due - timedelta(hours=ms.remind_hours) <= now < due:
            drafts = _reminders(game, ms, state, due, now)
        queued = _queue(outbox_of(game), ms, drafts)
    return replace(deliver(game, ms), queued=queued)


def _sent_already(game: GameDir, state: GameState, now: datetime) -> tuple[dict[str, set[int]], set[str]]:
    """Votes and proposals in mail taken in (``nomopoly fetch``) but not yet applied."""
    from admin.mail.inbound.auth import AuthSettings
    from admin.mail.inbound.intake import screen
    from admin.mail.inbound.ledger import Ledger
    from admin.mail.inbound.limits import MailLimits

    settings = game.settings()
    ledger = Ledger.load(game.state_dir, about=())  # the pending entries are all it needs
    auth = AuthSettings.from_dict(settings.section("auth"))
    limits = MailLimits.from_settings(settings.section("mail"))
    votes: dict[str, set[int]] = {}
    proposers: set[str] = set()
    for s in screen(game.state_dir, ledger.pending(now), state, auth, limits):
        if s.status != "applied" or s.player is None:
            continue
        for v in s.verdicts:
            cmd = getattr(v.command, "cmd", None)
            if cmd == "vote":
                votes.setdefault(s.player, set()).add(int(v.command.proposal))  # type: ignore[union-attr]
            elif cmd == "propose":
                proposers.add(s.player)
    return votes, proposers


def _reminders(game: GameDir, ms: MailSettings, state: GameState, due: datetime,
               now: datetime) -> list[Draft]:
    slots = REGISTRY.params(state, "schedule")["slots"]
    week, slot = slot_of(slots, state.update + 1)
    voting = [p for p in state.proposals if p.status == "voting"]
    fine = int(REGISTRY.params(state, "proposals").get("missed_vote_fine", 0) or 0)
    votes, proposers = _sent_already(game, state, now)
    out = []
    for name, player in sorted(state.players.items()):
        address = state.private.emails.get(name)
        if not player.active or not address:
            continue
        unvoted = [f"{p.number}. {p.title} (by {p.proposer}): VOTE {p.number} YES, NO or ABSTAIN"
                   for p in voting if name not in p.votes and p.number not in votes.get(name, set())]
        propose = (ms.remind_proposals and slot.takes_proposals and name not in proposers
                   and not any(p.proposer == name and p.week == week for p in state.proposals))
        if not unvoted and not propose:
            continue
        what = "vote" if unvoted else "proposal"
        body = partial(texts.reminder_text, player=name, deadline=due, slot=slot.name,
                       unvoted=unvoted, propose=propose, fine=fine, **ms.text_args())
        out.append(Draft(purpose=f"remind/{due.isoformat()}/{name}", kind="reminder",
                         to=compose.address_of(name, address), body=body,
                         subject=f"[{ms.title}] Reminder: your {what} before "
                                 f"{texts.format_time(due)}"))
    return out


def _help_now(state: GameState, m: verdicts.LoggedMessage,
              results: list[verdicts.LineResult]) -> list[verdicts.LineResult]:
    """HELP needs no update: an ack answers it at once, with the rules in force now."""
    from admin.engine.howto import help_lines
    from admin.games.registry import REGISTRY

    topics = {line.first: line.command.get("topic") for line in m.lines
              if line.command is not None and line.command.get("cmd") == "help"}
    return [replace(r, verdict="done", details=tuple(help_lines(state, REGISTRY, topics[r.first])))
            if r.first in topics and r.verdict == "understood" else r for r in results]


def ack(game: GameDir, screened: list[Screened], state: GameState | None = None) -> DeliveryReport:
    """Right after a fetch: answer each email that will be acted on with its parse verdicts
    (the results come with the update). Does not take the game's lock: call it inside or after
    the fetch; ``state`` saves a reload when the caller has it."""
    from admin.jobs.deadlines import deadline

    state = state if state is not None else game.load()
    ms = MailSettings.read(game, state)
    due = deadline(game, state)

    def text(m: verdicts.LoggedMessage, results: list[verdicts.LineResult]) -> str:
        return texts.ack_text(player=m.player or "", message=m, results=_help_now(state, m, results),
                              deadline=due, **ms.text_args())

    messages = [verdicts.LoggedMessage.from_record(s.log_record()) for s in screened]
    acks, notes = _answers(game, ms, state, messages, None, "ack", text)
    queued = _queue(outbox_of(game), ms, acks)
    return replace(deliver(game, ms), queued=queued, notes=tuple(notes))
