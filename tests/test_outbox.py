"""Mail out, the sending layer: Message-IDs, outbox folder, SMTP delivery, loop guards, threads
(admin.mail.outbound.outbox, admin.mail.outbound.smtp and the header helpers of admin.mail.outbound.compose)."""

from __future__ import annotations

import email.policy
import shutil
from collections import Counter
from collections.abc import Callable
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path

import pytest
from fixtures.smtp import (
    SMTP_OAUTH2_TOKEN,
    SMTP_PASSWORD,
    SMTP_USER,
    CertPair,
    ReceivedMail,
    SmtpSink,
)

from admin.engine.errors import MailError
from admin.mail.outbound.compose import (
    AUTO_SUBMITTED_RECEIPT,
    AUTO_SUBMITTED_RESULTS,
    make_message_id,
    must_not_answer,
    reply_headers,
)
from admin.mail.outbound.eml import addresses_in, has_address
from admin.mail.outbound.outbox import Outbox, file_name, iter_messages, read_eml
from admin.mail.outbound.smtp import SmtpConfig

GAME = "game@nomopoly.test"
DOMAIN = "nomopoly.test"
SinkFactory = Callable[..., SmtpSink]


def compose(
    purpose: str,
    to: str | list[str],
    *,
    cc: str | None = None,
    bcc: str | None = None,
    kind: str = AUTO_SUBMITTED_RESULTS,
    body: str = "Your results.\n",
) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"Nomopoly <{GAME}>"
    msg["To"] = to if isinstance(to, str) else ", ".join(to)
    if cc:
        msg["Cc"] = cc
    if bcc:
        msg["Bcc"] = bcc
    msg["Subject"] = f"[nomopoly] {purpose}"
    msg["Message-ID"] = make_message_id("demo-game", purpose, DOMAIN)
    msg["Auto-Submitted"] = kind
    msg.set_content(body)
    return msg


def alice() -> EmailMessage:
    return compose("results/update-3/alice", "alice@example.org")


def three_messages() -> list[EmailMessage]:
    """Alice, Bob (with Carol in Cc) and a receipt for Dora, in this queue order."""
    return [
        alice(),
        compose("results/update-3/bob", "Bob B <bob@example.net>", cc="carol@example.com"),
        compose("receipt/update-3/<x1@mua>", "dora@example.org", kind=AUTO_SUBMITTED_RECEIPT),
    ]


def queue_all(outbox: Outbox, messages: list[EmailMessage]) -> None:
    assert [outbox.queue(m) for m in messages] == [True] * len(messages)


def ids(messages: list[EmailMessage]) -> set[str]:
    return {str(m["Message-ID"]) for m in messages}


def parse(raw: bytes) -> EmailMessage:
    msg = BytesParser(policy=email.policy.default).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    return msg


@pytest.fixture
def outbox(tmp_path: Path) -> Outbox:
    return Outbox(tmp_path / "state" / "outbox")


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", SMTP_PASSWORD)
    return SMTP_PASSWORD


# --- Message-IDs -----------------------------------------------------------------------------


def test_message_id_is_the_same_for_the_same_game_and_purpose() -> None:
    a = make_message_id("demo-game", "results/update-3/alice", "Nomopoly.Test")
    assert a == make_message_id("demo-game", "results/update-3/alice", "nomopoly.test")
    assert a.startswith("<nomopoly.") and a.endswith("@nomopoly.test>")
    assert " " not in a and a.count("@") == 1


def test_message_id_differs_by_purpose_and_by_game() -> None:
    base = make_message_id("demo-game", "results/update-3/alice", DOMAIN)
    others = {
        make_message_id("demo-game", "results/update-3/bob", DOMAIN),
        make_message_id("demo-game", "results/update-4/alice", DOMAIN),
        make_message_id("demo-game", "receipt/update-3/<x@y>", DOMAIN),
        make_message_id("other-game", "results/update-3/alice", DOMAIN),
    }
    assert base not in others and len(others) == 4


@pytest.mark.parametrize("domain", ["", "exa mple.org", "<evil>", "a@b", ".example.org", "a..b"])
def test_message_id_refuses_a_domain_that_is_not_one(domain: str) -> None:
    with pytest.raises(MailError, match="is not a domain name"):
        make_message_id("demo-game", "results/update-3/alice", domain)


# --- queue -----------------------------------------------------------------------------------


def test_queue_writes_one_eml_per_message_id_and_refuses_a_duplicate(outbox: Outbox) -> None:
    msg = alice()
    assert outbox.queue(msg) is True
    changed = compose("results/update-3/alice", "alice@example.org", body="changed\n")
    assert outbox.queue(changed) is False
    files = outbox.pending()
    assert [p.name for p in files] == [file_name(str(msg["Message-ID"]))]
    assert read_eml(files[0]).get_content() == "Your results.\n"  # the first one queued wins
    assert [p.name for p in files[0].parent.iterdir()] == [files[0].name]  # no temp file left


def test_queue_refuses_a_message_that_was_already_sent(outbox: Outbox) -> None:
    msg = alice()
    outbox.queue(msg)
    assert outbox.deliver(None).sent == 1
    assert outbox.queue(alice()) is False
    assert outbox.pending() == []
    assert outbox.is_sent(str(msg["Message-ID"]))


def test_queue_adds_a_date_to_the_file_and_leaves_the_callers_message_alone(
    outbox: Outbox,
) -> None:
    msg = alice()
    outbox.queue(msg)
    assert msg["Date"] is None
    assert read_eml(outbox.pending()[0])["Date"].datetime is not None


@pytest.mark.parametrize(
    ("drop", "expected"),
    [
        ("Message-ID", r"set msg\['Message-ID'\] = make_message_id"),
        ("From", "without a From header"),
        ("To", "no address in To, Cc or Bcc"),
        ("Auto-Submitted", "'auto-replied' on receipts and 'auto-generated' on results"),
    ],
)
def test_queue_refuses_an_incomplete_message_and_says_what_to_set(
    outbox: Outbox, drop: str, expected: str
) -> None:
    msg = alice()
    del msg[drop]
    with pytest.raises(MailError, match=expected):
        outbox.queue(msg)
    assert outbox.pending() == []


@pytest.mark.parametrize("to", [
    "alice <alice@example.org>", "a.b@example.org", "Jörg <j@example.org>", '"Doe, J." <j@x.org>',
    "undisclosed-recipients:;", "alice", "<>", "", "a@b, c@d", "Al Ice <al@x.org> (the player)",
])
def test_a_recipient_is_found_in_plain_and_other_values_as_getaddresses_finds_it(to: str) -> None:
    headers = {"to": [to]}
    assert has_address(headers, ("To", "Cc")) == bool(addresses_in(headers, ("To", "Cc")))
    assert has_address(headers, ("To",)) == any(addr for _, addr in getaddresses([to]))


def test_file_names_are_safe_and_distinct_for_hostile_message_ids() -> None:
    names = {file_name(m) for m in ["<a/b@x>", "<a_b@x>", "<../../etc@x>", "<.hidden@x>"]}
    assert len(names) == 4
    assert all("/" not in n and not n.startswith(".") and n.endswith(".eml") for n in names)
    assert file_name("<a/b@x>") == file_name(" <a/b@x> ")


# --- no SMTP: the outbox folder is the delivery ----------------------------------------------


def test_without_smtp_each_message_becomes_an_eml_file_in_sent(outbox: Outbox) -> None:
    messages = three_messages()
    queue_all(outbox, messages)
    report = outbox.deliver(None)
    assert (report.mode, report.sent, report.failed) == ("outbox", 3, ())
    assert set(report.sent_ids) == ids(messages)
    assert outbox.pending() == []
    back = {str(m["Message-ID"]): m for m in iter_messages(outbox.sent_dir)}
    assert set(back) == ids(messages)
    for original in messages:
        copy = back[str(original["Message-ID"])]
        for header in ("From", "To", "Cc", "Subject", "Auto-Submitted"):
            assert copy[header] == original[header]
        assert copy.get_content() == original.get_content()


def test_without_smtp_a_second_run_moves_nothing(outbox: Outbox) -> None:
    queue_all(outbox, three_messages())
    outbox.deliver(None)
    again = outbox.deliver(None)
    assert again.sent == 0 and len(outbox.sent()) == 3


# --- SMTP ------------------------------------------------------------------------------------


@pytest.mark.smtp
def test_smtp_with_auth_delivers_exactly_the_queued_messages(
    outbox: Outbox, smtp_server: SmtpSink, password: str
) -> None:
    messages = three_messages()
    queue_all(outbox, messages)
    report = outbox.deliver(smtp_server.config(tls="none"))
    assert (report.mode, report.sent, report.failed) == ("smtp", 3, ())
    assert report.connection_error is None
    received = smtp_server.messages
    got = {
        (tuple(sorted(r.rcpt_tos)), r.message()["Subject"], r.message()["Message-ID"])
        for r in received
    }
    assert got == {
        (("alice@example.org",), "[nomopoly] results/update-3/alice", messages[0]["Message-ID"]),
        (
            ("bob@example.net", "carol@example.com"),
            "[nomopoly] results/update-3/bob",
            messages[1]["Message-ID"],
        ),
        (("dora@example.org",), "[nomopoly] receipt/update-3/<x1@mua>", messages[2]["Message-ID"]),
    }
    assert {r.mail_from for r in received} == {GAME}
    assert {r.auth_user for r in received} == {SMTP_USER}
    assert outbox.pending() == [] and len(outbox.sent()) == 3


@pytest.mark.smtp
def test_smtp_sends_the_queued_bytes(outbox: Outbox, smtp_server: SmtpSink, password: str) -> None:
    body = "Line one\n.dotted line\n"
    outbox.queue(compose("results/update-3/alice", "alice@example.org", body=body))
    outbox.deliver(smtp_server.config(tls="none"))
    (received,) = smtp_server.messages
    assert received.content == outbox.sent()[0].read_bytes()
    assert received.message().get_content() == body


@pytest.mark.smtp
def test_smtp_bcc_recipient_gets_the_mail_but_not_the_header(
    outbox: Outbox, smtp_server: SmtpSink, password: str
) -> None:
    outbox.queue(compose("results/update-3/copy", "alice@example.org", bcc="admin@example.org"))
    assert outbox.deliver(smtp_server.config(tls="none")).sent == 1
    (received,) = smtp_server.messages
    assert sorted(received.rcpt_tos) == ["admin@example.org", "alice@example.org"]
    assert b"admin@example.org" not in received.content


@pytest.mark.smtp
def test_smtp_rerun_sends_nothing_more(
    outbox: Outbox, smtp_server: SmtpSink, password: str
) -> None:
    config = smtp_server.config(tls="none")
    queue_all(outbox, three_messages())
    assert outbox.deliver(config).sent == 3
    again = [outbox.queue(m) for m in three_messages()]  # the re-run composes them again
    assert again == [False, False, False]
    second = outbox.deliver(config)
    assert (second.sent, second.failed) == (0, ())
    assert len(smtp_server.messages) == 3


@pytest.mark.smtp
def test_smtp_never_resends_a_message_whose_file_reappears_in_pending(
    outbox: Outbox, smtp_server: SmtpSink, password: str
) -> None:
    # e.g. a queue() racing a deliver() in another process: sent/ is the ledger and wins
    config = smtp_server.config(tls="none")
    outbox.queue(alice())
    outbox.deliver(config)
    (sent_file,) = outbox.sent()
    shutil.copy(sent_file, outbox.pending_dir / sent_file.name)
    report = outbox.deliver(config)
    assert (report.sent, report.failed) == (0, ())
    assert len(smtp_server.messages) == 1 and outbox.pending() == []


@pytest.mark.smtp
def test_smtp_without_user_sends_unauthenticated(outbox: Outbox, smtp_server: SmtpSink) -> None:
    outbox.queue(alice())
    assert outbox.deliver(smtp_server.config(tls="none", user=None)).sent == 1
    assert smtp_server.messages[0].auth_user is None


@pytest.mark.smtp
def test_starttls_verifies_the_certificate_with_the_configured_ca_and_delivers(
    outbox: Outbox, smtp_tls_server: SmtpSink, password: str
) -> None:
    queue_all(outbox, three_messages())
    report = outbox.deliver(smtp_tls_server.config())
    assert (report.sent, report.failed) == (3, ())
    assert all(r.tls and r.auth_user == SMTP_USER for r in smtp_tls_server.messages)


@pytest.mark.smtp
@pytest.mark.parametrize("ca", ["other", "system"])
def test_starttls_with_an_untrusted_certificate_is_reported_and_the_messages_stay_pending(
    outbox: Outbox, smtp_tls_server: SmtpSink, smtp_other_cert: CertPair, password: str, ca: str
) -> None:
    queue_all(outbox, three_messages())
    cafile = str(smtp_other_cert.cafile) if ca == "other" else None
    report = outbox.deliver(smtp_tls_server.config(cafile=cafile))
    assert report.sent == 0 and len(report.failed) == 3
    assert report.connection_error is not None
    assert "certificate" in report.connection_error and "set cafile" in report.connection_error
    assert not report.temporary
    assert len(outbox.pending()) == 3 and outbox.sent() == []
    assert smtp_tls_server.messages == []


@pytest.mark.smtp
def test_starttls_configured_but_not_offered_is_reported_not_downgraded(
    outbox: Outbox, smtp_server: SmtpSink, password: str
) -> None:
    outbox.queue(alice())
    report = outbox.deliver(smtp_server.config(tls="starttls"))
    assert report.sent == 0 and "does not offer STARTTLS" in (report.connection_error or "")
    assert smtp_server.messages == [] and len(outbox.pending()) == 1


@pytest.mark.smtp
def test_implicit_tls_delivers(
    outbox: Outbox, smtp_sink_factory: SinkFactory, password: str
) -> None:
    sink = smtp_sink_factory(tls="implicit", require_auth=True)
    outbox.queue(alice())
    report = outbox.deliver(sink.config())
    assert (report.sent, report.failed) == (1, ())
    assert sink.messages[0].tls and sink.messages[0].auth_user == SMTP_USER


@pytest.mark.smtp
def test_server_down_for_one_run_then_up_delivers_each_message_once(
    outbox: Outbox, smtp_tls_server: SmtpSink, password: str
) -> None:
    messages = three_messages()
    queue_all(outbox, messages)
    config = smtp_tls_server.config()
    with smtp_tls_server.down():
        down = outbox.deliver(config)
    assert down.sent == 0 and {f.message_id for f in down.failed} == ids(messages)
    assert down.temporary and f"{config.host}:{config.port}" in (down.connection_error or "")
    assert len(outbox.pending()) == 3
    up = outbox.deliver(config)
    assert (up.sent, up.failed) == (3, ())
    assert outbox.deliver(config).sent == 0
    counts = Counter(r.message()["Message-ID"] for r in smtp_tls_server.messages)
    assert counts == Counter(ids(messages))


@pytest.mark.smtp
def test_wrong_password_is_reported_and_the_messages_stay_pending(
    outbox: Outbox, smtp_tls_server: SmtpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", "not the password")
    queue_all(outbox, three_messages())
    report = outbox.deliver(smtp_tls_server.config())
    assert report.sent == 0 and len(report.failed) == 3 and not report.temporary
    assert "refused the login of user 'nomopoly-bot'" in (report.connection_error or "")
    assert "$NOMOPOLY_SMTP_PASSWORD" in (report.connection_error or "")
    assert len(outbox.pending()) == 3 and smtp_tls_server.messages == []


@pytest.mark.smtp
def test_unset_password_variable_is_an_error_naming_it_and_nothing_is_sent(
    outbox: Outbox, smtp_tls_server: SmtpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GAME_SMTP_PW", raising=False)
    outbox.queue(alice())
    with pytest.raises(MailError, match="environment variable GAME_SMTP_PW is not set"):
        outbox.deliver(smtp_tls_server.config(password_env="GAME_SMTP_PW"))
    assert len(outbox.pending()) == 1 and smtp_tls_server.messages == []


@pytest.mark.smtp
def test_xoauth2_logs_in_with_the_token_from_the_environment(
    outbox: Outbox, smtp_tls_server: SmtpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOMOPOLY_SMTP_PASSWORD", raising=False)  # the token is used, no password
    monkeypatch.setenv("GAME_OAUTH", SMTP_OAUTH2_TOKEN)
    outbox.queue(alice())
    assert outbox.deliver(smtp_tls_server.config(oauth2_token_env="GAME_OAUTH")).sent == 1
    assert smtp_tls_server.messages[0].auth_user == SMTP_USER


@pytest.mark.smtp
def test_xoauth2_with_an_expired_token_is_reported(
    outbox: Outbox, smtp_tls_server: SmtpSink, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAME_OAUTH", "expired")
    outbox.queue(alice())
    report = outbox.deliver(smtp_tls_server.config(oauth2_token_env="GAME_OAUTH"))
    assert report.sent == 0 and "check the token in $GAME_OAUTH" in (report.connection_error or "")
    assert len(outbox.pending()) == 1


@pytest.mark.smtp
def test_a_refused_recipient_keeps_that_message_pending_and_the_others_go(
    outbox: Outbox, smtp_sink_factory: SinkFactory, password: str
) -> None:
    sink = smtp_sink_factory(refuse_rcpt={"ghost@example.org"})
    ghost = compose("results/update-3/ghost", "ghost@example.org")
    queue_all(outbox, [ghost, alice()])
    config = sink.config(tls="none")
    first = outbox.deliver(config)
    assert first.sent_ids == (alice()["Message-ID"],)
    (failure,) = first.failed
    assert failure.message_id == ghost["Message-ID"]
    assert "'ghost@example.org': 550" in failure.reason and first.connection_error is None
    second = outbox.deliver(config)  # still refused; alice is not sent again
    assert (second.sent, len(second.failed)) == (0, 1)
    assert [r.rcpt_tos for r in sink.messages] == [("alice@example.org",)]
    assert [p.name for p in outbox.pending()] == [file_name(str(ghost["Message-ID"]))]


@pytest.mark.smtp
def test_a_partly_refused_message_counts_as_sent_and_reports_the_refused_address(
    outbox: Outbox, smtp_sink_factory: SinkFactory, password: str
) -> None:
    sink = smtp_sink_factory(refuse_rcpt={"ghost@example.org"})
    outbox.queue(compose("results/update-3/all", ["alice@example.org", "ghost@example.org"]))
    report = outbox.deliver(sink.config(tls="none"))
    assert report.sent == 1 and report.failed == ()
    (refused,) = report.refused
    assert "ghost@example.org" in refused.reason and not report.ok
    assert [r.rcpt_tos for r in sink.messages] == [("alice@example.org",)]
    assert outbox.pending() == []


@pytest.mark.smtp
def test_a_message_the_server_rejects_stays_pending_and_the_rest_use_the_same_connection(
    outbox: Outbox, smtp_sink_factory: SinkFactory, password: str
) -> None:
    def deliver(mail: ReceivedMail) -> None:
        if b"bob" in mail.content:
            raise RuntimeError("mailbox full")

    sink = smtp_sink_factory(deliver=deliver)
    messages = three_messages()
    queue_all(outbox, messages)
    report = outbox.deliver(sink.config(tls="none"))
    assert report.sent == 2
    (failure,) = report.failed
    assert failure.message_id == messages[1]["Message-ID"] and "451" in failure.reason
    assert "mailbox full" in failure.reason
    assert len(outbox.pending()) == 1 and len(sink.messages) == 2


@pytest.mark.smtp
def test_when_the_server_hangs_up_midway_the_rest_wait_for_the_next_run(
    outbox: Outbox, smtp_sink_factory: SinkFactory, password: str
) -> None:
    def reject(mail: ReceivedMail) -> str | None:
        return "421 4.3.2 Shutting down" if b"bob" in mail.content else None

    sink = smtp_sink_factory(reject=reject)
    messages = three_messages()  # alice, bob, dora: in queue order
    queue_all(outbox, messages)
    config = sink.config(tls="none")
    first = outbox.deliver(config)
    assert first.sent_ids == (messages[0]["Message-ID"],)
    failed = [f.message_id for f in first.failed]
    assert failed == [messages[1]["Message-ID"], messages[2]["Message-ID"]]
    assert "421" in first.failed[0].reason
    assert first.temporary and "closed the connection" in (first.connection_error or "")
    sink.handler.reject = None
    second = outbox.deliver(config)
    assert (second.sent, second.failed) == (2, ())
    assert Counter(r.message()["Message-ID"] for r in sink.messages) == Counter(ids(messages))


@pytest.mark.smtp
def test_a_non_ascii_address_is_sent_with_smtputf8(
    outbox: Outbox, smtp_server: SmtpSink, password: str
) -> None:
    outbox.queue(compose("results/update-3/jörg", "Jörg <jörg@exämple.org>"))
    raw = outbox.pending()[0].read_bytes()
    assert "To: Jörg <jörg@exämple.org>\r\n".encode() in raw  # UTF-8, not RFC 2047
    assert outbox.deliver(smtp_server.config(tls="none")).sent == 1
    (received,) = smtp_server.messages
    assert received.rcpt_tos == ("jörg@exämple.org",)
    assert getaddresses([str(received.message()["To"])]) == [("Jörg", "jörg@exämple.org")]


@pytest.mark.smtp
def test_summary_tells_the_admin_what_happened(
    outbox: Outbox, smtp_tls_server: SmtpSink, password: str
) -> None:
    queue_all(outbox, three_messages())
    with smtp_tls_server.down():
        text = outbox.deliver(smtp_tls_server.config()).summary()
    first_line = "0 message(s) sent by SMTP, 3 failed (kept in pending/ for the next run)"
    assert text.splitlines()[0] == first_line
    assert "connection refused" in text.lower()


# --- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(("tls", "port"), [("implicit", 465), ("starttls", 587), ("none", 25)])
def test_smtp_config_default_port_follows_the_tls_mode(tls: str, port: int) -> None:
    config = SmtpConfig.from_dict({"host": "smtp.example.org", "tls": tls, "from_address": GAME})
    assert config.port == port


def test_smtp_config_from_a_full_table() -> None:
    table = {
        "host": "smtp.gmail.com",
        "port": 587,
        "user": "game@gmail.com",
        "oauth2_token_env": "TOK",
        "timeout": 10,
        "from_address": GAME,
        "from_name": "Nomopoly Demo",
    }
    config = SmtpConfig.from_dict(table)
    assert (config.tls, config.port, config.timeout) == ("starttls", 587, 10.0)
    assert config.password_env == "NOMOPOLY_SMTP_PASSWORD"
    assert config.from_header == f"Nomopoly Demo <{GAME}>"


BASE = {"host": "h", "from_address": GAME}


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({**BASE, "password": "hunter2"}, "'password' must not be written in the game's files"),
        ({**BASE, "prot": 25}, r"unknown key\(s\) 'prot'; valid keys are cafile, from_address"),
        ({"from_address": GAME}, "'host' is missing"),
        ({"host": "h"}, "'from_address' is missing"),
        ({**BASE, "port": "587"}, "port = '587' must be an integer"),
        ({**BASE, "port": 70000}, "port = 70000 is not a TCP port"),
        ({**BASE, "tls": "ssl"}, "tls = 'ssl' is not a TLS mode; use one of 'implicit'"),
        ({**BASE, "from_address": "the game"}, "'the game' is not a plain mail address"),
        ({**BASE, "oauth2_token_env": "T"}, "oauth2_token_env is set but user is not"),
    ],
)
def test_smtp_config_errors_quote_the_table_and_say_what_to_do(
    table: dict[str, object], expected: str
) -> None:
    with pytest.raises(MailError, match=expected) as error:
        SmtpConfig.from_dict(table)
    assert str(error.value).startswith("[mail.smtp] in nomopoly.toml: ")


def test_smtp_config_reads_secrets_only_from_the_named_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = SmtpConfig.from_dict({**BASE, "user": "u", "password_env": "PW_VAR"})
    monkeypatch.delenv("PW_VAR", raising=False)
    with pytest.raises(MailError, match="PW_VAR is not set"):
        config.password()
    monkeypatch.setenv("PW_VAR", "s3cret")
    assert config.password() == "s3cret"
    assert "s3cret" not in repr(config)


# --- must_not_answer -------------------------------------------------------------------------


PLAYER = {
    "From": "Alice <alice@example.org>",
    "Return-Path": "<alice@example.org>",
    "Subject": "buy",
}


@pytest.mark.parametrize(
    "extra",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Auto-Submitted": "auto-generated"},
        {"Auto-Submitted": "auto-notified; owner-email=x@y"},
        {"X-Autoreply": "yes"},
        {"X-Autorespond": "Out of office"},
        {"Precedence": "bulk"},
        {"Precedence": "Junk"},
        {"Precedence": "list"},
        {"List-Id": "<players.lists.example.org>"},
        {"From": "Mail Delivery System <MAILER-DAEMON@mx.example.org>"},
        {"From": "postmaster@example.org"},
        {"Return-Path": "<>"},
        {"Content-Type": "multipart/report; report-type=delivery-status"},
        {"From": f"Nomopoly <{GAME.upper()}>"},
    ],
)
def test_must_not_answer_auto_replies_bounces_lists_and_ourselves(extra: dict[str, str]) -> None:
    assert must_not_answer({**PLAYER, **extra}, own_addresses=[GAME]) is True


@pytest.mark.parametrize("extra", [{}, {"Auto-Submitted": "no"}, {"Precedence": "first-class"}])
def test_must_answer_a_players_own_mail(extra: dict[str, str]) -> None:
    assert must_not_answer({**PLAYER, **extra}, own_addresses=[GAME]) is False


def test_must_not_answer_reads_a_parsed_message_case_insensitively() -> None:
    raw = (
        b"from: Alice <alice@example.org>\r\nauto-submitted: auto-replied\r\n"
        b"Subject: away\r\n\r\nback soon\r\n"
    )
    assert must_not_answer(parse(raw)) is True
    assert must_not_answer(parse(raw.replace(b"auto-replied", b"no"))) is False


def test_our_outgoing_mail_is_not_answered_by_us_or_another_robot(outbox: Outbox) -> None:
    for msg in three_messages():
        assert must_not_answer(msg)  # Auto-Submitted is set on every message we send
    outbox.queue(alice())
    assert must_not_answer(read_eml(outbox.pending()[0]), own_addresses=[GAME])


# --- reply headers ---------------------------------------------------------------------------


def test_reply_to_a_first_message_starts_the_thread() -> None:
    assert reply_headers("<m1@mua.example>", None, "buy Park Place") == {
        "In-Reply-To": "<m1@mua.example>",
        "References": "<m1@mua.example>",
        "Subject": "Re: buy Park Place",
    }


def test_reply_extends_the_references_of_the_thread_without_repeating() -> None:
    assert reply_headers("<m3@x>", "<m1@x>\r\n <m2@x>", "Re: moves")["References"] == (
        "<m1@x> <m2@x> <m3@x>"
    )
    assert reply_headers("<m3@x>", "<m1@x> <m3@x>", "moves")["References"] == "<m1@x> <m3@x>"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Re: moves", "Re: moves"),
        ("RE: re:  moves", "Re: moves"),
        ("Aw: Re[2]: moves", "Re: moves"),
        ("moves about Re: that", "Re: moves about Re: that"),
        ("moves\r\nBcc: victim@example.org", "Re: moves Bcc: victim@example.org"),
        ("", "Re: (no subject)"),
        (None, "Re: (no subject)"),
    ],
)
def test_reply_subject_has_exactly_one_re_and_one_line(subject: str | None, expected: str) -> None:
    assert reply_headers("<m1@x>", None, subject)["Subject"] == expected


def test_reply_headers_set_on_a_message_survive_the_outbox(outbox: Outbox) -> None:
    msg = compose("receipt/update-3/<m2@x>", "alice@example.org", kind=AUTO_SUBMITTED_RECEIPT)
    del msg["Subject"]
    for name, value in reply_headers("<m2@x>", "<m1@x>", "moves for update 3").items():
        msg[name] = value
    outbox.queue(msg)
    outbox.deliver(None)
    back = read_eml(outbox.sent()[0])
    assert back["In-Reply-To"] == "<m2@x>"
    assert back["References"] == "<m1@x> <m2@x>"
    assert back["Subject"] == "Re: moves for update 3"


def test_reply_to_a_message_without_id_has_no_threading_headers() -> None:
    assert reply_headers(None, None, "hi") == {"Subject": "Re: hi"}
