"""The IMAP mail source against a real Dovecot on loopback (tests/fixtures/dovecot.py)."""

from __future__ import annotations

import io
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Any

import pytest

from admin.engine.errors import MailError, StateError, TemporaryError
from admin.mail.inbound.imap import ImapConfig, ImapSource
from admin.runtime.dovecot import DovecotServer, Message
from admin.runtime.machine import free_port
from admin.runtime.testcerts import make_ca

ENV = {"NOMOPOLY_IMAP_PASSWORD": "testpw"}
T0 = datetime(2026, 3, 14, 12, 0, 0, tzinfo=timezone.utc)


def mail(n: int, subject: str = "hello", body: str = "roll\r\n") -> bytes:
    m = EmailMessage()
    m["From"] = f"player{n}@example.org"
    m["To"] = "admin@example.org"
    m["Subject"] = f"{subject} {n}"
    m["Message-ID"] = f"<m{n}.{subject.replace(' ', '-')}@example.org>"
    m.set_content(body)
    return m.as_bytes(policy=SMTP)


SourceFactory = Callable[..., ImapSource]


@pytest.fixture
def make_source() -> Iterator[SourceFactory]:
    """ImapSource objects for a server and user; closed after the test."""
    made: list[ImapSource] = []

    def make(
        server: DovecotServer,
        user: str,
        *,
        environ: dict[str, str] = ENV,
        source_args: dict[str, Any] | None = None,
        **config: Any,
    ) -> ImapSource:
        settings: dict[str, Any] = {
            "host": server.host, "port": server.port, "tls": "none", "user": user, "timeout": 5.0, "backoff": 0.05,
        }  # fmt: skip
        settings.update(config)
        src = ImapSource(ImapConfig(**settings), environ=environ, **(source_args or {}))
        made.append(src)
        return src

    yield make
    for src in made:
        src.close()


# -- configuration (no server) -------------------------------------------------------------------


def test_port_defaults_follow_the_tls_mode() -> None:
    assert ImapConfig(host="h", user="u").port == 993
    assert ImapConfig(host="h", user="u", tls="starttls").port == 143
    assert ImapConfig(host="h", user="u", tls="none").port == 143
    assert ImapConfig(host="h", user="u", port=1143).port == 1143


def test_config_from_dict_reads_the_mail_imap_table() -> None:
    table = {"host": "imap.example.org", "user": "admin", "tls": "starttls", "timeout": 10, "batch_size": 50}
    cfg = ImapConfig.from_dict(table)
    assert (cfg.host, cfg.port, cfg.tls, cfg.timeout, cfg.batch_size) == ("imap.example.org", 143, "starttls", 10.0, 50)
    assert cfg.folder == "INBOX" and cfg.processed_folder == "Nomopoly/Processed"


def test_unknown_key_is_rejected_and_a_password_in_the_file_points_to_the_environment() -> None:
    with pytest.raises(StateError, match=r"unknown key\(s\) 'password'.*password_env"):
        ImapConfig.from_dict({"host": "h", "user": "u", "password": "hunter2"})
    with pytest.raises(StateError, match=r"'hots'.*known keys are"):
        ImapConfig.from_dict({"hots": "h", "user": "u"})


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("port", "993", "whole number"),
        ("batch_size", True, "whole number"),
        ("timeout", "30s", "a number"),
        ("host", 5, "a string"),
    ],
)
def test_wrong_type_is_rejected_quoting_the_value(key: str, value: object, expected: str) -> None:
    with pytest.raises(StateError, match=rf"{key} = {value!r} has the wrong type.*{expected}"):
        ImapConfig.from_dict({"host": "h", "user": "u", key: value})


def test_tls_mode_must_be_one_of_three() -> None:
    with pytest.raises(StateError, match=r"tls = 'ssl' is not a TLS mode.*implicit.*starttls.*none"):
        ImapConfig.from_dict({"host": "h", "user": "u", "tls": "ssl"})


def test_missing_host_and_bad_values_are_rejected() -> None:
    with pytest.raises(StateError, match="needs host"):
        ImapConfig.from_dict({"user": "u"})
    with pytest.raises(StateError, match=r"batch_size = 0 is not valid"):
        ImapConfig.from_dict({"host": "h", "user": "u", "batch_size": 0})
    with pytest.raises(StateError, match=r"processed_folder = 'INBOX'.*other than"):
        ImapConfig.from_dict({"host": "h", "user": "u", "processed_folder": "INBOX"})


def test_relative_cafile_is_resolved_against_the_game_dir(tmp_path: Path) -> None:
    cfg = ImapConfig.from_dict({"host": "h", "user": "u", "cafile": "certs/ca.pem"}, base_dir=tmp_path)
    assert cfg.cafile == str(tmp_path / "certs/ca.pem")


def test_missing_password_variable_names_the_variable_to_set() -> None:
    cfg = ImapConfig(host="h", user="admin@example.org", password_env="GAME_IMAP_PW")
    with pytest.raises(MailError, match=r"GAME_IMAP_PW is not set.*'admin@example.org'.*never read from nomopoly.toml"):
        ImapSource(cfg, environ={})
    oauth = ImapConfig(host="h", user="u", oauth2_token_env="GMAIL_TOKEN")
    with pytest.raises(MailError, match="GMAIL_TOKEN is not set: set it to an OAuth2 access token"):
        ImapSource(oauth, environ={"NOMOPOLY_IMAP_PASSWORD": "not used with oauth"})


def test_malformed_key_is_rejected_before_connecting() -> None:
    src = ImapSource(ImapConfig(host="127.0.0.1", port=free_port(), tls="none", user="u", retries=0), environ=ENV)
    with pytest.raises(MailError, match=r"'maildir:123' is not an IMAP message key.*imap:<uidvalidity>:<uid>"):
        src.mark_processed(["maildir:123"])


def test_unreachable_server_is_a_temporary_error_after_retries_with_exponential_backoff() -> None:
    port = free_port()  # nothing listens there
    slept: list[float] = []
    cfg = ImapConfig(host="127.0.0.1", port=port, tls="none", user="u", retries=3, backoff=0.01, timeout=1.0)
    src = ImapSource(cfg, environ=ENV, sleep=slept.append)
    started = time.monotonic()
    expected = rf"127\.0\.0\.1:{port} could not be reached after 4 attempt\(s\): ConnectionRefusedError"
    with pytest.raises(TemporaryError, match=expected) as err:
        src.fetch()
    assert time.monotonic() - started < 2
    assert slept == [0.01, 0.02, 0.04]
    assert err.value.exit_code == 75


def test_silent_server_times_out_into_a_temporary_error() -> None:
    with socket.socket() as listener:  # accepts connections (backlog) but never greets
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        port = listener.getsockname()[1]
        cfg = ImapConfig(host="127.0.0.1", port=port, tls="none", user="u", retries=1, backoff=0.0, timeout=0.3)
        started = time.monotonic()
        with pytest.raises(TemporaryError, match=rf"127\.0\.0\.1:{port}.*2 attempt\(s\).*(TimeoutError|timed out)"):
            ImapSource(cfg, environ=ENV).fetch()
        assert time.monotonic() - started < 3


# -- against Dovecot --------------------------------------------------------------------------------



@pytest.mark.dovecot
def test_fetch_returns_byte_identical_raw_and_internaldate_in_utc(
    dovecot: DovecotServer,
    make_source: SourceFactory,
) -> None:
    user = dovecot.new_user()
    raw = mail(1, body="Buy Park Place — 200 €\r\n  trailing spaces  \r\n\r\n")
    local = datetime(2026, 3, 14, 14, 30, 5, tzinfo=timezone(timedelta(hours=2)))
    uid = dovecot.append(user, raw, local)
    [got] = make_source(dovecot, user).fetch()
    assert got.raw == raw
    assert got.received == T0 + timedelta(minutes=30, seconds=5)
    assert got.received.tzinfo == timezone.utc
    assert got.key == f"imap:{dovecot.uidvalidity(user)}:{uid}"


@pytest.mark.dovecot
def test_fetch_leaves_messages_unseen(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    dovecot.append_many(user, [Message(mail(n), T0) for n in range(3)])
    assert len(make_source(dovecot, user).fetch()) == 3
    flags = dovecot.flags(user)
    assert len(flags) == 3
    assert all(b"\\Seen" not in f for f in flags.values()), flags


@pytest.mark.dovecot
def test_fetch_is_sorted_by_received_then_key(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    dates = [T0 + timedelta(hours=3), T0, T0 + timedelta(hours=1), T0]
    dovecot.append_many(user, [Message(mail(n), d) for n, d in enumerate(dates)])
    got = make_source(dovecot, user).fetch()
    assert [(m.received, m.key) for m in got] == sorted((m.received, m.key) for m in got)
    assert [m.received for m in got] == sorted(dates)


@pytest.mark.dovecot
def test_cutoff_is_decided_on_internaldate_to_the_second(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    offsets = {"day-before": -timedelta(days=1), "second-before": -timedelta(seconds=1), "at-cutoff": timedelta(0),
               "second-after": timedelta(seconds=1), "day-after": timedelta(days=1)}  # fmt: skip
    # one message in another time zone, an hour before the cutoff in UTC but on the next local day
    tokyo = (T0 - timedelta(hours=1)).astimezone(timezone(timedelta(hours=14)))
    messages = [Message(mail(n, name), T0 + off) for n, (name, off) in enumerate(offsets.items())]
    uids = dovecot.append_many(user, [*messages, Message(mail(9, "far-east"), tokyo)])
    src = make_source(dovecot, user)
    got = src.fetch(cutoff=T0)
    subjects = sorted(m.raw.split(b"Subject: ")[1].split(b"\r\n")[0].decode() for m in got)
    assert subjects == ["at-cutoff 2", "day-before 0", "far-east 9", "second-before 1"]
    src.mark_processed([m.key for m in got])
    assert dovecot.list_uids(user) == [uids[3], uids[4]]  # the later messages stay in the folder
    assert [m.raw for m in make_source(dovecot, user).fetch()] == [messages[3].raw, messages[4].raw]


@pytest.mark.dovecot
def test_naive_cutoff_is_refused(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        make_source(dovecot, dovecot.new_user()).fetch(cutoff=datetime(2026, 1, 1))


@pytest.mark.dovecot
@pytest.mark.parametrize("use_move", [True, False], ids=["move", "copy-expunge"])
def test_mark_processed_moves_messages_to_the_processed_folder(
    dovecot: DovecotServer,
    make_source: SourceFactory,
    use_move: bool,
) -> None:
    user = dovecot.new_user()
    raws = [mail(n) for n in range(5)]
    uids = dovecot.append_many(user, [Message(r, T0 + timedelta(minutes=n)) for n, r in enumerate(raws)])
    src = make_source(dovecot, user, source_args={"use_move": use_move})
    got = src.fetch()
    src.mark_processed([m.key for m in got[:3]])
    assert dovecot.list_uids(user) == uids[3:]  # moved and expunged, nothing left flagged \Deleted
    assert all(b"\\Deleted" not in f for f in dovecot.flags(user).values())
    with dovecot.client(user, "Nomopoly/Processed") as c:
        moved = c.fetch(c.search("ALL"), ["BODY.PEEK[]", "INTERNALDATE"])
    assert sorted(d[b"BODY[]"] for d in moved.values()) == sorted(raws[:3])
    src.mark_processed([m.key for m in got[:3]])  # again (a re-run after a crash): harmless
    assert dovecot.list_uids(user) == uids[3:]
    assert [m.raw for m in src.fetch()] == raws[3:]


@pytest.mark.dovecot
def test_messages_flagged_deleted_are_not_fetched(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    uids = dovecot.append_many(user, [Message(mail(n), T0) for n in range(2)])
    with dovecot.client(user, "INBOX") as c:
        c.add_flags([uids[0]], [b"\\Deleted"])
    assert [m.key.rsplit(":", 1)[1] for m in make_source(dovecot, user).fetch()] == [str(uids[1])]


@pytest.mark.dovecot
def test_missing_folder_is_a_mail_error_naming_it(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    expected = r"cannot open the folder 'Nomopoly/Inbox'.*check folder in \[mail.imap\]"
    with pytest.raises(MailError, match=expected) as err:
        make_source(dovecot, dovecot.new_user(), folder="Nomopoly/Inbox").fetch()
    assert not isinstance(err.value, TemporaryError)


@pytest.mark.dovecot
def test_wrong_password_is_a_mail_error_naming_user_and_variable(
    dovecot: DovecotServer,
    make_source: SourceFactory,
) -> None:
    src = make_source(dovecot, "t-nobody", environ={"NOMOPOLY_IMAP_PASSWORD": "wrong"})
    expected = r"refused the login of user 't-nobody'.*environment variable NOMOPOLY_IMAP_PASSWORD"
    with pytest.raises(MailError, match=expected) as err:
        src.fetch()
    assert not isinstance(err.value, TemporaryError)


@pytest.mark.dovecot
def test_xoauth2_login_takes_the_token_from_the_environment(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    dovecot.append(user, mail(1), T0)
    src = make_source(dovecot, user, oauth2_token_env="GMAIL_TOKEN", environ={"GMAIL_TOKEN": "testpw"})
    assert [m.raw for m in src.fetch()] == [mail(1)]
    expired = make_source(dovecot, user, oauth2_token_env="GMAIL_TOKEN", environ={"GMAIL_TOKEN": "expired"})
    with pytest.raises(MailError, match=rf"refused the login of user '{user}'.*OAuth2 access token.*GMAIL_TOKEN"):
        expired.fetch()


@pytest.mark.dovecot
def test_uidvalidity_change_changes_keys_and_is_reported(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    raws = [mail(n) for n in range(3)]
    dovecot.append_many(user, [Message(r, T0) for r in raws], folder="Intake")
    src = make_source(dovecot, user, folder="Intake")
    before = src.fetch()
    old = src.uidvalidity
    assert old is not None and not src.uidvalidity_changed(old) and not src.uidvalidity_changed(None)
    src.close()
    with dovecot.client(user) as c:
        c.delete_folder("Intake")
        c.create_folder("Intake")
    dovecot.append_many(user, [Message(r, T0) for r in raws], folder="Intake")
    after = src.fetch()
    assert src.uidvalidity_changed(old)
    assert src.uidvalidity == dovecot.uidvalidity(user, "Intake") != old
    assert [m.raw for m in after] == [m.raw for m in before]
    assert not {m.key for m in after} & {m.key for m in before}
    src.mark_processed([m.key for m in before])  # old keys: their UIDs now name other messages
    assert len(dovecot.list_uids(user, "Intake")) == 3
    src.mark_processed([m.key for m in after])
    assert dovecot.list_uids(user, "Intake") == []


@pytest.mark.dovecot
def test_server_restart_between_batches_loses_nothing_and_repeats_nothing(
    dovecot: DovecotServer,
    make_source: SourceFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    user = dovecot.new_user()
    raws = [mail(n) for n in range(45)]
    dovecot.append_many(user, [Message(r, T0) for r in raws])
    calls: list[tuple[int, int]] = []

    def restart_after_first_batch(done: int, total: int) -> None:
        calls.append((done, total))
        if len(calls) == 1:
            dovecot.restart()

    src = make_source(dovecot, user, batch_size=10, source_args={"on_batch": restart_after_first_batch})
    with caplog.at_level("WARNING", logger="admin.mail.inbound.imap"):
        got = src.fetch()
    assert any("retrying" in r.getMessage() for r in caplog.records), "the restart did not cut the connection"
    assert calls[0] == (10, 45) and calls[-1] == (45, 45)
    assert len({m.key for m in got}) == 45
    assert sorted(m.raw for m in got) == sorted(raws)
    dovecot.restart()  # the source's connection is stale now; mark_processed reconnects
    src.mark_processed([m.key for m in got])
    assert dovecot.list_uids(user) == []


@pytest.mark.dovecot
def test_server_down_for_a_while_is_waited_for_with_backoff(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    raws = [mail(n) for n in range(20)]
    dovecot.append_many(user, [Message(r, T0) for r in raws])
    starter: list[threading.Timer] = []

    def outage(done: int, total: int) -> None:
        if not starter:
            dovecot.stop()
            starter.append(threading.Timer(0.3, dovecot.start))
            starter[0].start()

    src = make_source(dovecot, user, batch_size=5, retries=8, backoff=0.05, source_args={"on_batch": outage})
    try:
        got = src.fetch()
    finally:
        starter[0].join()
    assert sorted(m.raw for m in got) == sorted(raws) and len({m.key for m in got}) == 20


@pytest.mark.dovecot
def test_stopped_server_gives_a_temporary_error(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    dovecot.append(user, mail(1), T0)
    src = make_source(dovecot, user, retries=1, backoff=0.01)
    src.fetch()
    dovecot.stop()
    try:
        with pytest.raises(TemporaryError, match=rf"{dovecot.host}:{dovecot.port}"):
            src.fetch()
    finally:
        dovecot.start()


@pytest.mark.dovecot
def test_thousand_messages_in_one_fetch(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    user = dovecot.new_user()
    raws = [mail(n, body=f"move {n}\r\n" * 20) for n in range(1000)]
    dovecot.append_many(user, [Message(r, T0 + timedelta(seconds=n)) for n, r in enumerate(raws)])
    started = time.monotonic()
    got = make_source(dovecot, user).fetch()
    elapsed = time.monotonic() - started
    assert [m.raw for m in got] == raws  # sorted by INTERNALDATE, which follows n
    assert len({m.key for m in got}) == 1000
    assert elapsed < 10, elapsed


@pytest.mark.dovecot
def test_message_appended_during_a_fetch_is_in_this_fetch_or_the_next(
    dovecot: DovecotServer,
    make_source: SourceFactory,
) -> None:
    user = dovecot.new_user()
    dovecot.append_many(user, [Message(mail(n), T0) for n in range(30)])
    late = mail(99, "late")

    def append_once(done: int, total: int) -> None:
        if done == 10:
            dovecot.append(user, late, T0)

    src = make_source(dovecot, user, batch_size=10, source_args={"on_batch": append_once})
    first = src.fetch()
    src.mark_processed([m.key for m in first])
    second = src.fetch()
    raws = [m.raw for m in first + second]
    assert raws.count(late) == 1 and len(raws) == 31
    assert late in [m.raw for m in first]  # this implementation catches up before returning


@pytest.mark.dovecot
def test_progress_bar_only_when_stderr_is_a_terminal(
    dovecot: DovecotServer,
    make_source: SourceFactory,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = dovecot.new_user()
    dovecot.append_many(user, [Message(mail(n), T0) for n in range(25)])
    assert len(make_source(dovecot, user, batch_size=10).fetch()) == 25
    assert capfd.readouterr().err == ""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert len(make_source(dovecot, user, batch_size=10).fetch()) == 25
    assert "Fetching mail" in terminal.getvalue()


COURIER_LIKE = """
namespace inbox {
  separator = .
  prefix = INBOX.
}
imap_capability = IMAP4rev1 LITERAL+ SASL-IR LOGIN-REFERRALS ID ENABLE IDLE NAMESPACE MULTIAPPEND
"""


@pytest.fixture(scope="module")
def dovecot_courier_like(dovecot_factory: Callable[..., DovecotServer]) -> DovecotServer:
    """Folders under ``INBOX.`` with ``.`` as separator, and no MOVE or UIDPLUS (like older servers)."""
    return dovecot_factory(extra_config=COURIER_LIKE)


@pytest.mark.dovecot
def test_folders_follow_the_server_namespace_and_plain_expunge_without_move_or_uidplus(
    dovecot_courier_like: DovecotServer,
    make_source: SourceFactory,
) -> None:
    server = dovecot_courier_like
    user = server.new_user()
    raws = [mail(n) for n in range(3)]
    uids = server.append_many(user, [Message(r, T0) for r in raws], folder="INBOX.Nomopoly.Intake")
    src = make_source(server, user, folder="Nomopoly/Intake")
    got = src.fetch()
    assert [m.raw for m in got] == raws
    src.mark_processed([m.key for m in got[:2]])
    assert server.list_uids(user, "INBOX.Nomopoly.Intake") == uids[2:]
    assert len(server.list_uids(user, "INBOX.Nomopoly.Processed")) == 2


# -- TLS ------------------------------------------------------------------------------------------


@pytest.mark.dovecot
@pytest.mark.parametrize("mode", ["implicit", "starttls"])
def test_fetch_over_tls_verifies_the_certificate(
    dovecot_tls: DovecotServer,
    make_source: SourceFactory,
    mode: str,
) -> None:
    user = dovecot_tls.new_user()
    raw = mail(1)
    dovecot_tls.append(user, raw, T0)
    port = dovecot_tls.tls_port if mode == "implicit" else dovecot_tls.port
    src = make_source(dovecot_tls, user, tls=mode, port=port, cafile=str(dovecot_tls.cafile))
    assert [m.raw for m in src.fetch()] == [raw]
    assert src._client is not None and src._client.socket().version() in ("TLSv1.2", "TLSv1.3")


@pytest.mark.dovecot
@pytest.mark.parametrize("mode", ["implicit", "starttls"])
def test_wrong_ca_fails_with_a_clear_mail_error(
    dovecot_tls: DovecotServer,
    make_source: SourceFactory,
    mode: str,
    tmp_path: Path,
) -> None:
    other_ca, _ = make_ca(tmp_path, "other")
    port = dovecot_tls.tls_port if mode == "implicit" else dovecot_tls.port
    src = make_source(dovecot_tls, dovecot_tls.new_user(), tls=mode, port=port, cafile=str(other_ca), retries=3)
    started = time.monotonic()
    expected = rf"TLS certificate of the IMAP server 127\.0\.0\.1:{port} failed verification.*not signed by cafile"
    with pytest.raises(MailError, match=expected) as err:
        src.fetch()
    assert not isinstance(err.value, TemporaryError)
    assert time.monotonic() - started < 1  # not retried


@pytest.mark.dovecot
def test_system_cas_do_not_trust_a_self_signed_server(dovecot_tls: DovecotServer, make_source: SourceFactory) -> None:
    src = make_source(dovecot_tls, dovecot_tls.new_user(), tls="implicit", port=dovecot_tls.tls_port)
    with pytest.raises(MailError, match="failed verification.*set cafile in \\[mail.imap\\]"):
        src.fetch()


@pytest.mark.dovecot
def test_certificate_host_name_is_checked(dovecot_tls: DovecotServer, make_source: SourceFactory) -> None:
    # the certificate names IP 127.0.0.1 only; "localhost" reaches the same server but must not match
    src = make_source(
        dovecot_tls, dovecot_tls.new_user(), host="localhost", tls="implicit", port=dovecot_tls.tls_port,
        cafile=str(dovecot_tls.cafile),
    )  # fmt: skip
    with pytest.raises(MailError, match=r"failed verification: .*(mismatch|localhost)"):
        src.fetch()


@pytest.mark.dovecot
def test_starttls_is_required_when_configured(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    src = make_source(dovecot, dovecot.new_user(), tls="starttls")  # this server has no TLS at all
    with pytest.raises(MailError, match=r"does not offer STARTTLS.*tls = \"implicit\""):
        src.fetch()


@pytest.mark.dovecot
def test_implicit_tls_against_a_plain_port_is_a_clear_error(dovecot: DovecotServer, make_source: SourceFactory) -> None:
    src = make_source(dovecot, dovecot.new_user(), tls="implicit", retries=0)
    with pytest.raises(MailError, match=r"TLS with the IMAP server .* failed.*check tls in \[mail.imap\]"):
        src.fetch()
