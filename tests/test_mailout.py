"""Mail out after an update: receipts, results, the admin's report, reminders and acks, sent over
a real SMTP server on loopback (or left in the outbox folder), each exactly once."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path

import pytest
from fixtures.games import deliver
from fixtures.smtp import SMTP_PASSWORD, SMTP_USER, ReceivedMail, SmtpSink

from admin.jobs import update as jobs
from admin.store.gamedir import GameDir
from admin.mail.inbound.auth import AuthSettings
from admin.mail.outbound.compose import make_message_id
from admin.mail.inbound.intake import Screened, screen, take_in
from admin.mail.inbound.limits import MailLimits
from admin.mail.outbound.mailout import ack, mail_out, outbox_of, remind
from admin.mail.outbound.outbox import iter_messages
from admin.mail.inbound.sources import MaildirSource
from admin.library.cards import set_hand
from admin.library.health import health_of
from admin.store.fileio import Transaction

GAME = "game@nomopoly.test"
ADMIN = "admin@nomopoly.test"
WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")
ALICE_MAIL = "PROPOSE Free parking\nLanding on square 1 pays $200.\nEND\nVOTE 9 YES\nHello there"


def configure(game: GameDir, sink: SmtpSink | None = None, **mail: object) -> None:
    """Give the game an admin address and a From address, and (with ``sink``) an SMTP server."""
    keys = {"admin_address": ADMIN, "from_address": GAME, **mail}
    lines = "".join(f"{k} = {_toml(v)}\n" for k, v in keys.items())
    text = game.settings_path.read_text().replace("[mail]\n", f"[mail]\n{lines}", 1)
    if sink is not None:
        text += (f'\n[mail.smtp]\nhost = "{sink.host}"\nport = {sink.port}\ntls = "{sink.tls}"\n'
                 f'user = "{sink.user}"\nfrom_address = "{GAME}"\ntimeout = 5\n')
        if sink.cafile:
            text += f'cafile = "{sink.cafile}"\n'
    game.settings_path.write_text(text)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, (int, float)) else f'"{value}"'


def inbox(game: GameDir) -> Path:
    return game.root / "mail" / "inbox"


def mid(purpose: str) -> str:
    return make_message_id("Test game", purpose, "nomopoly.test")


def by_id(received: list[ReceivedMail]) -> dict[str, ReceivedMail]:
    return {str(r.message()["Message-ID"]): r for r in received}


def first_update(game: GameDir) -> dict[str, Screened]:  # by Message-ID
    """Alice proposes (plus a bad vote and a line that is no command), Bob asks for his status,
    Mallory (no player) buys, and Alice's out-of-office answers something: update 1."""
    deliver(inbox(game), "Alice <alice@example.org>", ALICE_MAIL, "2026-11-03T10:00",
            message_id="<a1@alice.example>")
    deliver(inbox(game), "bob@example.org", "STATUS", "2026-11-03T11:00", subject="status?",
            message_id="<b1@bob.example>")
    deliver(inbox(game), "mallory@evil.example", "BUY 3", "2026-11-03T12:00",
            message_id="<m1@evil.example>")
    deliver(inbox(game), "alice@example.org", "I am away.", "2026-11-03T13:00",
            subject="Out of office", headers={"Auto-Submitted": "auto-replied"})
    outcome = jobs.run_update_job(game, at=WED)
    assert outcome.committed and outcome.update == 1
    return {s.entry.message_id: s for s in outcome.screened}


def expected_update_1(screened: dict[str, Screened]) -> dict[str, str]:
    """Message-ID -> recipient of everything update 1 must send."""
    return {
        mid(f"receipt/{screened['a1@alice.example'].entry.hash}"): "alice@example.org",
        mid(f"receipt/{screened['b1@bob.example'].entry.hash}"): "bob@example.org",
        mid("results/update-1/alice"): "alice@example.org",
        mid("results/update-1/bob"): "bob@example.org",
        mid("results/update-1/carol"): "carol@example.org",
        mid("report/update-1"): ADMIN,
    }


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", SMTP_PASSWORD)
    return SMTP_PASSWORD


# -- the exact set of messages, over STARTTLS with authentication --------------------------------
@pytest.mark.smtp
def test_an_update_sends_one_receipt_per_email_results_per_player_and_one_admin_report(
        game_dir: GameDir, smtp_tls_server: SmtpSink, password: str) -> None:
    configure(game_dir, smtp_tls_server)
    screened = first_update(game_dir)
    report = mail_out(game_dir, 1)
    expected = expected_update_1(screened)
    assert (report.mode, report.sent, report.failed) == ("smtp", 6, ())
    assert set(report.queued) == set(expected)
    got = {str(r.message()["Message-ID"]): r.rcpt_tos for r in smtp_tls_server.messages}
    assert got == {m: (to,) for m, to in expected.items()}
    assert all(r.tls and r.auth_user == SMTP_USER and r.mail_from == GAME
               for r in smtp_tls_server.messages)


@pytest.mark.smtp
def test_a_receipt_answers_every_line_and_threads_under_the_players_email(
        game_dir: GameDir, smtp_server: SmtpSink, password: str) -> None:
    configure(game_dir, smtp_server)
    screened = first_update(game_dir)
    mail_out(game_dir, 1)
    receipt = by_id(smtp_server.messages)[mid(f"receipt/{screened['a1@alice.example'].entry.hash}")]
    msg = receipt.message()
    assert (msg["In-Reply-To"], msg["References"]) == ("<a1@alice.example>", "<a1@alice.example>")
    assert msg["Subject"] == "Re: moves" and msg["Auto-Submitted"] == "auto-replied"
    assert msg["To"] == "alice <alice@example.org>"
    body = msg.get_content()
    assert "lines 1-3: PROPOSE Free parking\n    DONE: alice made proposal 1: Free parking" in body
    assert "line 4: VOTE 9 YES\n    NOT DONE: alice: \"VOTE 9 YES\" was not done: there is no proposal 9" in body
    assert "Hello there\n    NOT UNDERSTOOD" not in body  # chatter: said once, briefly (issue 20, item 11)
    assert "  Ignored, as not commands: line 5 (Hello there)\n" in body
    assert "In all: 1 done, 1 not done, 1 ignored." in body


@pytest.mark.smtp
def test_a_rerun_sends_nothing_more(game_dir: GameDir, smtp_server: SmtpSink, password: str) -> None:
    configure(game_dir, smtp_server)
    first_update(game_dir)
    assert mail_out(game_dir, 1).sent == 6
    again = mail_out(game_dir, 1)
    assert (again.sent, again.queued, again.failed) == (0, (), ())
    assert len(smtp_server.messages) == 6


@pytest.mark.smtp
def test_server_down_for_one_run_then_up_delivers_each_message_once(
        game_dir: GameDir, smtp_tls_server: SmtpSink, password: str) -> None:
    configure(game_dir, smtp_tls_server)
    screened = first_update(game_dir)
    with smtp_tls_server.down():
        down = mail_out(game_dir, 1)
    assert down.sent == 0 and len(down.failed) == 6 and down.temporary
    assert "stay queued for the next run" in (down.connection_error or "")
    assert game_dir.load().update == 1  # the update stands whatever happens to its mail
    up = mail_out(game_dir, 1)
    assert (up.sent, up.failed, up.queued) == (6, (), ())
    assert mail_out(game_dir, 1).sent == 0
    counts = Counter(str(r.message()["Message-ID"]) for r in smtp_tls_server.messages)
    assert counts == Counter(expected_update_1(screened).keys())


@pytest.mark.smtp
def test_an_unset_smtp_password_is_reported_and_the_mail_waits_for_the_next_run(
        game_dir: GameDir, smtp_tls_server: SmtpSink, monkeypatch: pytest.MonkeyPatch) -> None:
    configure(game_dir, smtp_tls_server)
    first_update(game_dir)
    monkeypatch.delenv("NOMOPOLY_SMTP_PASSWORD", raising=False)
    report = mail_out(game_dir, 1)
    assert report.sent == 0 and len(report.failed) == 6
    assert "NOMOPOLY_SMTP_PASSWORD is not set" in (report.connection_error or "")
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", SMTP_PASSWORD)
    assert mail_out(game_dir, 1).sent == 6 and len(smtp_tls_server.messages) == 6


# -- without SMTP: the outbox folder -------------------------------------------------------------
def test_without_smtp_the_messages_are_eml_files_in_the_outbox_folder(game_dir: GameDir) -> None:
    configure(game_dir)
    screened = first_update(game_dir)
    report = mail_out(game_dir, 1)
    assert (report.mode, report.sent) == ("outbox", 6)
    files = {str(m["Message-ID"]): m["To"] for m in iter_messages(outbox_of(game_dir).sent_dir)}
    assert set(files) == set(expected_update_1(screened))
    assert outbox_of(game_dir).folder == game_dir.state_dir / "outbox"
    assert mail_out(game_dir, 1).sent == 0


# -- refused mail, loops and privacy ---------------------------------------------------------------
def test_refused_and_automatic_mail_is_reported_to_the_admin_and_never_answered(
        game_dir: GameDir) -> None:
    configure(game_dir)
    first_update(game_dir)
    mail_out(game_dir, 1)
    sent = list(iter_messages(outbox_of(game_dir).sent_dir))
    assert not any("mallory" in str(m["To"]) for m in sent)
    assert not any(m["Subject"] == "Re: Out of office" for m in sent)
    (admin,) = [m for m in sent if m["To"] == ADMIN]
    text = admin.get_content()
    assert "mallory@evil.example, \"moves\"" in text and "is not a registered player's address" in text
    assert "alice@example.org, \"Out of office\"" in text and "ignored: auto-reply" in text
    assert "2 email(s) acted on (alice, bob); 2 not acted on." in text


def test_mail_that_fails_authentication_is_not_answered_even_to_the_registered_address(
        game_dir: GameDir) -> None:
    configure(game_dir)
    settings = game_dir.settings_path.read_text() + "[auth]\nrequire_token = true\n"
    game_dir.settings_path.write_text(settings)
    deliver(inbox(game_dir), "alice@example.org", "STATUS", "2026-11-03T10:00")
    outcome = jobs.run_update_job(game_dir, at=WED)
    assert [(s.player, s.status) for s in outcome.screened] == [("alice", "rejected")]
    report = mail_out(game_dir, 1)
    sent = [m for m in iter_messages(outbox_of(game_dir).sent_dir) if str(m["Message-ID"]) in report.queued]
    assert sorted(m["X-Nomopoly-Kind"] for m in sent) == ["report", "results", "results", "results"]
    (admin,) = [m for m in sent if m["To"] == ADMIN]
    assert 'alice@example.org, "moves"' in admin.get_content() and "rejected" in admin.get_content()


def test_an_auto_reply_answering_a_receipt_gets_no_answer(game_dir: GameDir) -> None:
    configure(game_dir)
    screened = first_update(game_dir)
    mail_out(game_dir, 1)
    receipt_id = mid(f"receipt/{screened['a1@alice.example'].entry.hash}")
    deliver(inbox(game_dir), "alice@example.org", "I am on holiday until Monday.", "2026-11-05T09:00",
            subject="Automatic reply: Re: moves",
            headers={"Auto-Submitted": "auto-replied", "In-Reply-To": receipt_id})
    outcome = jobs.run_update_job(game_dir, at=SAT)
    report = mail_out(game_dir, 2)
    kinds = Counter(m["X-Nomopoly-Kind"] for m in iter_messages(outbox_of(game_dir).sent_dir)
                    if str(m["Message-ID"]) in report.queued)
    assert kinds == Counter({"results": 3, "report": 1})
    assert [s.status for s in outcome.screened] == ["ignored"]


def test_a_reply_to_the_games_mail_without_commands_is_not_answered_but_one_with_commands_is(
        game_dir: GameDir) -> None:
    # a careless autoresponder sets none of the headers that mark it; its text holds no command
    configure(game_dir)
    screened = first_update(game_dir)
    mail_out(game_dir, 1)
    receipt_id = mid(f"receipt/{screened['a1@alice.example'].entry.hash}")
    deliver(inbox(game_dir), "alice@example.org", "Thanks for your message, I will read it soon.",
            "2026-11-05T09:00", subject="Re: Re: moves", headers={"In-Reply-To": receipt_id})
    deliver(inbox(game_dir), "bob@example.org", "VOTE 1 YES\n\n> earlier text", "2026-11-05T10:00",
            subject="Re: status?", headers={"In-Reply-To": receipt_id})
    jobs.run_update_job(game_dir, at=SAT)
    report = mail_out(game_dir, 2)
    receipts = [m for m in iter_messages(outbox_of(game_dir).sent_dir)
                if str(m["Message-ID"]) in report.queued and m["X-Nomopoly-Kind"] == "receipt"]
    assert [str(m["To"]) for m in receipts] == ["bob <bob@example.org>"]
    assert any("a reply to the game's own mail with no command" in n for n in report.notes)


def _give(game: GameDir, player: str, cards: list[str]) -> None:
    with game.lock():
        state = game.load()
        set_hand(state, player, cards)
        tx = Transaction(game.state_dir)
        game.stage_state(tx, state)
        tx.commit()


def test_results_show_each_player_their_position_and_only_their_own_secrets(
        game_dir: GameDir) -> None:
    configure(game_dir)
    game_dir.settings_path.write_text(game_dir.settings_path.read_text().replace(
        "[dice]", '[site]\nurl = "https://nomopoly.test/game/"\n[dice]'))
    _give(game_dir, "bob", ["QH"])
    screened = first_update(game_dir)
    mail_out(game_dir, 1)
    sent = {m["Message-ID"]: m for m in iter_messages(outbox_of(game_dir).sent_dir)}
    bob = sent[mid("results/update-1/bob")].get_content()
    state = game_dir.load()
    me = state.players["bob"]
    assert f"Money: ${me.money}" in bob and f"Health: {health_of(state, 'bob')}" in bob
    assert f"Square: {me.square}" in bob
    assert "Your cards (only you see them): QH (queen of hearts)" in bob
    assert "\n  - bob rolled " in bob
    assert "1. Free parking (by alice): not voted yet: send VOTE 1 YES, NO or ABSTAIN" in bob
    assert "Next deadline: Saturday 2026-11-07 23:59:59 UTC." in bob
    assert "https://nomopoly.test/game/updates/0001.html" in bob
    status = sent[mid(f"receipt/{screened['b1@bob.example'].entry.hash}")].get_content()
    assert "cards: QH." in status  # the private STATUS answer reaches bob ...
    others = [m for k, m in sent.items() if m["To"] != "bob <bob@example.org>"]
    assert others and not any("QH" in m.get_content() for m in others)  # ... and nobody else


def test_the_admin_report_lists_join_requests_and_accepted_proposals_awaiting_the_admin(
        game_dir: GameDir) -> None:
    configure(game_dir)
    deliver(inbox(game_dir), "dora@example.org", "JOIN dora", "2026-11-03T10:00")
    jobs.run_update_job(game_dir, at=WED)
    with game_dir.lock():
        from admin.engine.model import Proposal

        state = game_dir.load()
        state.proposals.append(Proposal(number=1, proposer="alice", title="Free-form", text="x",
                                        week=1, update=1, status="accepted", awaiting_admin=True))
        tx = Transaction(game_dir.state_dir)
        game_dir.stage_state(tx, state)
        tx.commit()
    report = mail_out(game_dir, 1)
    (admin,) = [m for m in iter_messages(outbox_of(game_dir).sent_dir) if m["To"] == ADMIN]
    text = admin.get_content()
    assert "  - dora <dora@example.org> asked to join (update 1) → nomopoly player add dora dora@example.org" in text
    assert ("  - Proposal 1, 'Free-form' (by alice), was accepted and waits for you to carry it out → "
            'nomopoly ruling amend 1 "..." (or ruling done 1)') in text
    # dora's request is answered once (received; the Admin decides: issue 32), nothing more
    to_dora = [m for m in iter_messages(outbox_of(game_dir).sent_dir) if "dora" in str(m["To"])]
    assert [(str(m["To"]), str(m["X-Nomopoly-Kind"])) for m in to_dora] == [("dora@example.org", "receipt")]
    assert "The Admin decides who joins" in to_dora[0].get_content()
    assert report.sent == 5  # the report, three players' results and the answer to dora


def test_the_admin_report_calls_attention_to_loop_guards_and_a_winner(game_dir: GameDir) -> None:
    from admin.store.fileio import dump_json, load_json

    configure(game_dir)
    jobs.run_update_job(game_dir, at=WED)
    path = game_dir.update_logs()[1]
    log = load_json(path)
    for kind, text in (("loop-guard", "bob rolled doubles 3 times in a row; the turn stops."),
                       ("winner", "alice wins the game: the richest at the end.")):
        log["events"].append({"kind": kind, "text": text, "player": None, "private": None,
                              "rule": None, "ok": True, "ref": None, "data": {}})
    path.write_text(dump_json(log))
    mail_out(game_dir, 1)
    (admin,) = [m for m in iter_messages(outbox_of(game_dir).sent_dir) if m["To"] == ADMIN]
    text = admin.get_content()
    assert ("To do now (also: nomopoly todo)\n  - bob rolled doubles 3 times in a row; the turn stops.\n"
            "  - alice wins the game: the richest at the end.\n") in text
    assert text.index("To do now") < text.index("Mail not acted on")  # at the top


# -- reminders -----------------------------------------------------------------------------------
def test_remind_reminds_each_player_who_has_not_voted_once_per_deadline(game_dir: GameDir) -> None:
    configure(game_dir, remind_hours=24)
    first_update(game_dir)  # voting opens on proposal 1; the next deadline is Saturday 23:59:59
    deliver(inbox(game_dir), "bob@example.org", "VOTE 1 NO", "2026-11-06T09:00")
    take_in(game_dir.state_dir, MaildirSource(inbox(game_dir)), None)  # as `nomopoly fetch` does
    too_early = remind(game_dir, datetime.fromisoformat("2026-11-06T23:00:00+00:00"))
    assert too_early.queued == ()
    first = remind(game_dir, datetime.fromisoformat("2026-11-07T08:00:00+00:00"))
    due = "2026-11-07T23:59:59+00:00"
    assert set(first.queued) == {mid(f"remind/{due}/alice"), mid(f"remind/{due}/carol")}
    again = remind(game_dir, datetime.fromisoformat("2026-11-07T09:00:00+00:00"))
    assert (again.queued, again.sent) == ((), 0)
    (carol,) = [m for m in iter_messages(outbox_of(game_dir).sent_dir)
                if str(m["Message-ID"]) == mid(f"remind/{due}/carol")]
    assert "1. Free parking (by alice): VOTE 1 YES, NO or ABSTAIN" in carol.get_content()
    assert carol["Auto-Submitted"] == "auto-generated"
    assert remind(game_dir, datetime.fromisoformat("2026-11-08T00:30:00+00:00")).queued == ()


def test_the_remind_command_takes_in_new_mail_first_so_a_vote_already_sent_counts(game_dir: GameDir) -> None:
    """Issue 20, item 10: `nomopoly remind` did not fetch: a player who voted an hour ago was told
    they had not."""
    import subprocess
    import sys

    configure(game_dir, remind_hours=24)
    first_update(game_dir)
    deliver(inbox(game_dir), "bob@example.org", "VOTE 1 NO", "2026-11-07T07:00")  # not fetched yet
    out = subprocess.run([sys.executable, "-m", "admin", "--game", str(game_dir.root), "remind",
                          "--at", "2026-11-07T08:00:00+00:00"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    due = "2026-11-07T23:59:59+00:00"
    sent = {str(m["Message-ID"]) for m in iter_messages(outbox_of(game_dir).sent_dir)}
    reminded = {p for p in ("alice", "bob", "carol") if mid(f"remind/{due}/{p}") in sent}
    assert reminded == {"alice", "carol"}  # bob's vote was taken in before the reminders


def test_remind_asks_for_proposals_only_when_the_settings_want_them(game_dir: GameDir) -> None:
    configure(game_dir, remind_proposals=False)
    wednesday = datetime.fromisoformat("2026-11-04T12:00:00+00:00")
    assert remind(game_dir, wednesday).queued == ()  # Nomopoly II does not require a proposal
    text = game_dir.settings_path.read_text()
    game_dir.settings_path.write_text(text.replace("remind_proposals = false", "remind_proposals = true"))
    report = remind(game_dir, wednesday)
    due = "2026-11-04T23:59:59+00:00"
    assert set(report.queued) == {mid(f"remind/{due}/{p}") for p in ("alice", "bob", "carol")}
    (alice,) = [m for m in iter_messages(outbox_of(game_dir).sent_dir) if "alice" in m["To"]]
    assert "You have not sent a proposal this week: PROPOSE <title>" in alice.get_content()


# -- acks at fetch time --------------------------------------------------------------------------
def test_ack_answers_each_fetched_email_with_what_was_understood(game_dir: GameDir) -> None:
    configure(game_dir)
    deliver(inbox(game_dir), "Alice <alice@example.org>", ALICE_MAIL, "2026-11-03T10:00",
            message_id="<a1@alice.example>")
    deliver(inbox(game_dir), "mallory@evil.example", "BUY 3", "2026-11-03T12:00")
    intake = take_in(game_dir.state_dir, MaildirSource(inbox(game_dir)), None)
    state = game_dir.load()
    screened = screen(game_dir.state_dir, intake.ledger.pending(None), state,
                      AuthSettings.from_dict({}), MailLimits())
    report = ack(game_dir, screened)
    (msg,) = list(iter_messages(outbox_of(game_dir).sent_dir))
    assert report.queued == (str(msg["Message-ID"]),) and msg["To"] == "alice <alice@example.org>"
    assert msg["In-Reply-To"] == "<a1@alice.example>" and msg["Auto-Submitted"] == "auto-replied"
    body = msg.get_content()
    assert "lines 1-3: PROPOSE Free parking\n    UNDERSTOOD: it will be carried out" in body
    assert "Ignored, as not commands: line 5 (Hello there)" in body
    assert "mail closes Wednesday 2026-11-04 23:59:59 UTC" in body
    assert ack(game_dir, screened).queued == ()


def test_the_admin_report_says_rulings_in_words_and_puts_failures_and_reviews_first(game_dir: GameDir) -> None:
    """Issue 20, item 9: the report listed rulings as raw Python dicts, and said nothing needed
    attention while the results asked the Admin to review a module's parameters."""
    from admin.engine.events import Ruling
    from admin.store.fileio import dump_json, dump_yaml, load_json

    configure(game_dir)
    jobs.queue_ruling(game_dir, Ruling("adjust", {"player": "bob", "money": 5}, "a refund"))
    # a ruling that cannot be carried out (a hand-edited queue: `ruling` itself refuses a typo)
    queue = game_dir.pending_rulings() + [{"kind": "adjust", "args": {"player": "zed", "money": 5}, "note": "x"}]
    (game_dir.state_dir / "pending.yaml").write_text(dump_yaml({"rulings": queue}))
    jobs.run_update_job(game_dir, at=WED)
    path = game_dir.update_logs()[1]
    log = load_json(path)
    log["events"].append({"kind": "review", "text": "Review the ownership module's parameters after "
                          "proposal 3 amended VI.9.", "player": None, "private": None, "rule": None,
                          "ok": True, "ref": None, "data": {}})
    path.write_text(dump_json(log))
    mail_out(game_dir, 1)
    (admin,) = [m for m in iter_messages(outbox_of(game_dir).sent_dir) if m["To"] == ADMIN]
    text = admin.get_content()
    todo = text[text.index("To do now"):text.index("\n\n", text.index("To do now"))]
    assert "Review the ownership module's parameters after proposal 3 amended VI.9." in todo
    assert "The Admin's ruling adjust could not be carried out" in todo
    applied = text[text.index("Your rulings applied"):]
    assert "{" not in applied and "'player'" not in applied  # words, not a Python dict
    assert applied.split("\n")[1] == "  - The Admin adjusted bob: +$5 (a refund)."
    assert "Your rulings that could not be carried out\n  - The Admin's ruling adjust could not be carried out" in text


def test_a_big_updates_results_list_the_first_events_and_send_the_rest_to_the_site() -> None:
    """A results email listed every public event of the update: 6,400 lines (320 KB) to each of
    200 players in the benchmark's whole-rulebook game. It lists the first EVERYTHING_MAX and says
    where the rest is; what happened to the player is always there in full."""
    from admin.mail.outbound import texts

    events = tuple(f"event {n}" for n in range(1, texts.EVERYTHING_MAX + 51))
    view = texts.ResultsView(player="alice", update=7, week=4, slot="Sunday", happened=("you moved",),
                             standing=("  Money: $10",), proposals=(), deadline=None,
                             link="https://example.org/g/updates/0007.html", everything=events)
    body = texts.results_text(view, title="G", site_url="https://example.org/g")
    assert f"  - event {texts.EVERYTHING_MAX}\n" in body and f"event {texts.EVERYTHING_MAX + 1}\n" not in body
    assert "  ... and 50 more; the whole update is on the site: https://example.org/g/updates/0007.html" in body
    small = texts.results_text(texts.ResultsView(**{**view.__dict__, "everything": events[:3]}),
                               title="G", site_url="https://example.org/g")
    assert "more; the whole update" not in small and "  - event 3\n" in small


def test_results_leave_out_help_and_status_answers_which_the_receipt_carries(game_dir: GameDir) -> None:
    configure(game_dir)
    deliver(inbox(game_dir), "bob@example.org", "HELP\nHELP BUY\nHELP FOO\nSTATUS", "2026-11-03T11:00",
            subject="help?", message_id="<b2@bob.example>")
    outcome = jobs.run_update_job(game_dir, at=WED)
    assert outcome.committed
    screened = {s.entry.message_id: s for s in outcome.screened}
    mail_out(game_dir, 1)
    sent = {m["Message-ID"]: m.get_content() for m in iter_messages(outbox_of(game_dir).sent_dir)}
    receipt = sent[mid(f"receipt/{screened['b2@bob.example'].entry.hash}")]
    results = sent[mid("results/update-1/bob")]
    mine = results.split("What happened to you", 1)[1].split("\n\n", 1)[0]
    assert "BUY" in receipt and "cards:" in receipt  # HELP BUY and STATUS answered in the receipt
    assert "\n  - bob rolled " in mine
    assert "BUY" not in mine and "cards:" not in mine and "PROPOSE" not in mine
    assert not any(line.strip().startswith("- HELP") for line in mine.splitlines())
