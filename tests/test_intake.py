"""Mail in for real: the update job and ``admin.jobs.fetch`` on a real Dovecot account (the tests that
use the server are marked ``dovecot``). Exactly once across fetches, updates, UIDVALIDITY
changes, duplicate deliveries and mail arriving mid-update; INTERNALDATE decides the update;
auto-replies and bounces are archived and never acted on; configuration and server errors are
clean CLI errors."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from pathlib import Path
from typing import Any, Sequence

import pytest

from admin.jobs import update as jobs
from admin.engine.errors import TemporaryError
from admin.jobs.fetch import fetch, taken
from admin.store.gamedir import GameDir
from admin.mail.inbound.imap import ImapConfig, ImapSource
from admin.mail.inbound.intake import archive_path
from admin.mail.inbound.ledger import Ledger, LedgerEntry
from admin.runtime.dovecot import DovecotServer, Message
from admin.runtime.machine import free_port

ENV = {"NOMOPOLY_IMAP_PASSWORD": "testpw"}
REPO = Path(__file__).resolve().parents[1]
TUE = datetime(2026, 11, 3, 10, 0, tzinfo=timezone.utc)
WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
THU = datetime(2026, 11, 5, 9, 0, tzinfo=timezone.utc)
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")
PROPOSE = "PROPOSE Idea {n}\nA new rule, number {n}.\nEND"


PLAYERS = ("alice@example.org", "Bob <bob@example.org>", "carol@example.org")


def email(n: int, sender: str | None = None, body: str | None = None, *,
          date: datetime = TUE, message_id: str | None = None,
          headers: Sequence[tuple[str, str]] = ()) -> bytes:
    """A realistic message in wire form (CRLF), from alice, bob or carol unless ``sender``."""
    m = EmailMessage()
    m["From"] = sender or PLAYERS[n % 3]
    m["To"] = "Nomopoly Admin <admin@example.org>"
    m["Subject"] = f"moves {n}"
    m["Date"] = format_datetime(date)
    m["Message-ID"] = message_id or f"<intake-{n}@example.org>"
    for name, value in headers:
        m[name] = value
    m.set_content(body if body is not None else PROPOSE.format(n=n))
    return m.as_bytes(policy=SMTP)


def imap(server: DovecotServer, user: str, **options: Any) -> ImapSource:
    source_args = {k: options.pop(k) for k in ("on_batch", "use_move") if k in options}
    config = ImapConfig(host=server.host, port=server.port, tls="none", user=user, timeout=10.0,
                        backoff=0.05, **options)
    return ImapSource(config, environ=ENV, **source_args)


def ledger(game: GameDir) -> dict[str, LedgerEntry]:
    return Ledger.load(game.state_dir).messages


def statuses(game: GameDir) -> Counter[str]:
    return Counter(e.status for e in ledger(game).values())


def titles(game: GameDir) -> list[str]:
    return [p.title for p in game.load().proposals]


def sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@pytest.fixture
def account(dovecot: DovecotServer) -> str:
    return dovecot.new_user()


# -- the update job over IMAP ---------------------------------------------------------------------
@pytest.mark.dovecot
def test_an_update_fetches_applies_and_moves_mail_to_the_processed_folder(game_dir, dovecot, account):
    raws = [email(1, "alice@example.org"), email(2, "Bob <bob@example.org>"),
            email(3, "carol@example.org", "STATUS")]
    dovecot.append_many(account, [Message(r, TUE + timedelta(minutes=i)) for i, r in enumerate(raws)])
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    assert [(s.status, s.player) for s in outcome.screened] == [
        ("applied", "alice"), ("applied", "bob"), ("applied", "carol")]
    assert titles(game_dir) == ["Idea 1", "Idea 2"]
    assert dovecot.list_uids(account) == []
    assert len(dovecot.list_uids(account, "Nomopoly/Processed")) == 3
    for raw in raws:  # archived byte for byte, as the server holds it
        assert archive_path(game_dir.state_dir, sha(raw)).read_bytes() == raw
        assert ledger(game_dir)[sha(raw)].status == "applied"
    again = jobs.run_update_job(game_dir, at=SAT, source=imap(dovecot, account))
    assert again.screened == [] and titles(game_dir) == ["Idea 1", "Idea 2"]


@pytest.mark.dovecot
def test_fetch_takes_mail_in_and_the_next_update_acts_on_it_once(game_dir, dovecot, account):
    raws = [email(n, date=TUE) for n in range(1, 4)]
    dovecot.append_many(account, [Message(r, TUE) for r in raws])
    first = fetch(game_dir, source=imap(dovecot, account), at=WED)
    assert (first.new, first.known, first.duplicates) == (3, 0, 0)
    assert [e.hash for e in taken(first)] == sorted(sha(r) for r in raws)
    assert statuses(game_dir) == {"pending": 3}
    assert game_dir.load().update == 0 and titles(game_dir) == []
    assert len(dovecot.list_uids(account)) == 3  # pending mail stays until an update settles it
    second = fetch(game_dir, source=imap(dovecot, account), at=WED)
    assert (second.new, second.known, second.duplicates) == (0, 3, 0)
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    assert [s.status for s in outcome.screened] == ["applied"] * 3
    assert sorted(titles(game_dir)) == ["Idea 1", "Idea 2", "Idea 3"]
    assert dovecot.list_uids(account) == []


@pytest.mark.dovecot
def test_fetch_moves_mail_an_interrupted_update_left_behind(game_dir, dovecot, account):
    dovecot.append(account, email(1), TUE)

    class CrashBeforeTheMove(ImapSource):
        def mark_processed(self, keys: Sequence[str]) -> None:
            raise KeyboardInterrupt("killed after the commit, before the move")

    source = CrashBeforeTheMove(imap(dovecot, account).config, environ=ENV)
    with pytest.raises(KeyboardInterrupt):
        jobs.run_update_job(game_dir, at=WED, source=source)
    assert len(dovecot.list_uids(account)) == 1 and statuses(game_dir) == {"applied": 1}
    report = fetch(game_dir, source=imap(dovecot, account), at=SAT)
    assert (report.new, report.known) == (0, 1)
    assert dovecot.list_uids(account) == []
    assert titles(game_dir) == ["Idea 1"]


@pytest.mark.dovecot
def test_a_rerun_of_a_committed_update_only_finishes_moving_its_mail(game_dir, dovecot, account):
    dovecot.append_many(account, [Message(email(1), TUE), Message(email(2), TUE)])

    class CrashBeforeTheMove(ImapSource):
        def mark_processed(self, keys: Sequence[str]) -> None:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        jobs.run_update_job(game_dir, at=WED, source=CrashBeforeTheMove(imap(dovecot, account).config, environ=ENV))
    before = {p: p.read_bytes() for p in game_dir.state_dir.rglob("*") if p.is_file() and p.name != ".lock"}
    rerun = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    assert rerun.already_run and rerun.update == 1 and not rerun.committed
    after = {p: p.read_bytes() for p in game_dir.state_dir.rglob("*") if p.is_file() and p.name != ".lock"}
    assert after == before  # no second update, no new dice
    assert dovecot.list_uids(account) == []


# -- UIDVALIDITY --------------------------------------------------------------------------------
def _recreate(server: DovecotServer, user: str, folder: str, raws: Sequence[bytes]) -> None:
    """Delete the folder, create it again and put the messages back: new UIDVALIDITY, new UIDs."""
    with server.client(user) as c:
        c.delete_folder(folder)
        c.create_folder(folder)
    server.append_many(user, [Message(r, TUE) for r in raws], folder=folder)


@pytest.mark.dovecot
def test_a_uidvalidity_change_after_a_fetch_applies_nothing_twice(game_dir, dovecot, account):
    raws = [email(n) for n in range(1, 4)]
    dovecot.append_many(account, [Message(r, TUE) for r in raws], folder="Game")
    fetch(game_dir, source=imap(dovecot, account, folder="Game"), at=WED)
    old = dovecot.uidvalidity(account, "Game")
    # restored from a backup: the same messages, and one copy whose server added a header
    restored = email(1, headers=[("X-Restored", "yes")])
    _recreate(dovecot, account, "Game", raws + [restored])
    assert dovecot.uidvalidity(account, "Game") != old
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account, folder="Game"))
    assert [s.status for s in outcome.screened] == ["applied"] * 3
    assert sorted(titles(game_dir)) == ["Idea 1", "Idea 2", "Idea 3"]
    assert statuses(game_dir) == {"applied": 3, "duplicate": 1}
    assert "the same Message-ID" in (ledger(game_dir)[sha(restored)].reason or "")
    assert dovecot.list_uids(account, "Game") == []  # moved under their new keys
    assert not jobs.run_update_job(game_dir, at=SAT, source=imap(dovecot, account, folder="Game")).screened


@pytest.mark.dovecot
def test_mail_put_back_under_a_new_uidvalidity_after_its_update_is_not_applied_again(game_dir, dovecot, account):
    raws = [email(n) for n in range(1, 3)]
    dovecot.append_many(account, [Message(r, TUE) for r in raws], folder="Game")
    jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account, folder="Game"))
    _recreate(dovecot, account, "Game", raws)
    outcome = jobs.run_update_job(game_dir, at=SAT, source=imap(dovecot, account, folder="Game"))
    assert outcome.screened == []
    assert sorted(titles(game_dir)) == ["Idea 1", "Idea 2"] and statuses(game_dir) == {"applied": 2}
    assert dovecot.list_uids(account, "Game") == []  # settled, so moved away at once


# -- INTERNALDATE decides -------------------------------------------------------------------------
@pytest.mark.dovecot
def test_internaldate_not_the_date_header_decides_the_update(game_dir, dovecot, account):
    backdated = email(1, date=TUE)  # claims Tuesday, reached the server on Thursday
    postdated = email(2, date=SAT + timedelta(days=30))  # claims next month, arrived Tuesday
    on_time = email(3, date=TUE)
    dovecot.append(account, backdated, THU)
    dovecot.append(account, postdated, TUE)
    dovecot.append(account, on_time, WED)  # exactly at the cut-off: in
    first = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    assert sorted(s.entry.hash for s in first.screened) == sorted([sha(postdated), sha(on_time)])
    assert ledger(game_dir)[sha(postdated)].received == TUE.isoformat()
    assert sha(backdated) not in ledger(game_dir)  # not even taken in: it belongs to the next update
    assert len(dovecot.list_uids(account)) == 1
    second = jobs.run_update_job(game_dir, at=SAT, source=imap(dovecot, account))
    assert [s.entry.hash for s in second.screened] == [sha(backdated)]
    assert {e.hash: e.update for e in ledger(game_dir).values()} == {
        sha(postdated): 1, sha(on_time): 1, sha(backdated): 2}


@pytest.mark.dovecot
def test_a_late_arrival_with_an_early_internaldate_goes_to_the_next_update(game_dir, dovecot, account):
    jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    late = email(1)
    dovecot.append(account, late, TUE)  # e.g. delivered by a slow relay, dated before update 1's cut-off
    outcome = jobs.run_update_job(game_dir, at=SAT, source=imap(dovecot, account))
    assert [s.entry.hash for s in outcome.screened] == [sha(late)]
    assert ledger(game_dir)[sha(late)].update == 2


# -- arriving during the update ---------------------------------------------------------------
@pytest.mark.dovecot
def test_mail_appended_during_an_update_is_taken_by_it_or_the_next_never_lost_or_doubled(
        game_dir, dovecot, account):
    early = [email(n, body="STATUS") for n in range(20)]
    dovecot.append_many(account, [Message(r, TUE) for r in early])
    during_fetch, during_move = email(100, body="BUY"), email(101, body="VOTE 1 YES")

    def append_during_fetch(done: int, total: int) -> None:
        if done == 5:
            dovecot.append(account, during_fetch, TUE)

    class AppendDuringTheMove(ImapSource):
        def mark_processed(self, keys: Sequence[str]) -> None:
            dovecot.append(account, during_move, TUE)
            super().mark_processed(keys)

    source = AppendDuringTheMove(imap(dovecot, account, batch_size=5).config, environ=ENV,
                                 on_batch=append_during_fetch)
    first = jobs.run_update_job(game_dir, at=WED, source=source)
    second = jobs.run_update_job(game_dir, at=SAT, source=imap(dovecot, account))
    hashes = [s.entry.hash for s in first.screened + second.screened]
    assert sorted(hashes) == sorted(sha(r) for r in early + [during_fetch, during_move])
    assert len(set(hashes)) == len(hashes)
    assert sha(during_move) in [s.entry.hash for s in second.screened]
    assert statuses(game_dir) == {"applied": 22}
    assert dovecot.list_uids(account) == []


# -- duplicates, auto-replies, bounces --------------------------------------------------------
@pytest.mark.dovecot
def test_a_duplicate_delivery_acts_once(game_dir, dovecot, account):
    original = email(1)
    redelivered = email(1, headers=[("Received", "from relay2.example.org; Tue, 3 Nov 2026 10:05:00 +0000")])
    dovecot.append_many(account, [Message(original, TUE), Message(redelivered, TUE + timedelta(minutes=5)),
                                  Message(original, TUE + timedelta(minutes=6))])  # the very same bytes again
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    assert [s.status for s in outcome.screened] == ["applied"]
    assert titles(game_dir) == ["Idea 1"]
    assert statuses(game_dir) == {"applied": 1, "duplicate": 1}
    assert ledger(game_dir)[sha(redelivered)].reason.startswith("the same Message-ID as message")
    fetch(game_dir, source=imap(dovecot, account), at=SAT)  # settles the identical copy too
    assert dovecot.list_uids(account) == []


@pytest.mark.dovecot
def test_auto_replies_and_bounces_are_archived_and_never_acted_on(game_dir, dovecot, account):
    vacation = email(1, headers=[("Auto-Submitted", "auto-replied")])
    autoresponder = email(2, "bob@example.org", headers=[("X-Autoreply", "yes")])
    bounce_raw = (  # a DSN quoting the player's commands back: never acted on
        "From: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\nTo: admin@example.org\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <bounce-1@mx.example.org>\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"\r\n\r\n'
        "--b1\r\nContent-Type: text/plain\r\n\r\nPROPOSE Idea 3\r\nBounced.\r\nEND\r\n"
        "--b1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n"
        "Final-Recipient: rfc822; x@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--b1--\r\n"
    ).encode()
    report = email(4, "carol@example.org", headers=[("Return-Path", "<>")])
    raws = [vacation, autoresponder, bounce_raw, report]
    dovecot.append_many(account, [Message(r, TUE) for r in raws])
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    kinds = sorted((s.status, s.mail.kind) for s in outcome.screened if s.mail)
    assert kinds == [("ignored", "auto-reply"), ("ignored", "auto-reply"), ("ignored", "bounce"),
                     ("ignored", "bounce")]
    assert titles(game_dir) == []
    for raw in raws:
        assert archive_path(game_dir.state_dir, sha(raw)).read_bytes() == raw
        entry = ledger(game_dir)[sha(raw)]
        assert entry.status == "ignored" and "never acted on" in (entry.reason or "")
    assert dovecot.list_uids(account) == []


# -- a thousand messages in one update --------------------------------------------------------------
@pytest.mark.dovecot
@pytest.mark.slow
def test_a_thousand_messages_in_one_update_over_imap(game_dir, dovecot, account):
    bodies = ["STATUS", "BUY", "VOTE 1 YES\nVOTE 2 NO", "BUY 14\n\nThanks!\n-- \nAlice"]
    senders = ["Alice <alice@example.org>", "bob@example.org", "Carol <CAROL@example.org>",
               "stranger@elsewhere.example"]
    raws = [email(n, senders[n % 4], PROPOSE.format(n=n) if n % 50 == 0 else bodies[n % 4],
                  date=TUE + timedelta(seconds=n)) for n in range(1000)]
    for i in range(0, 1000, 250):
        dovecot.append_many(account, [Message(r, TUE + timedelta(seconds=i + j))
                                      for j, r in enumerate(raws[i:i + 250])])
    started = time.monotonic()
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    took = time.monotonic() - started
    assert len(outcome.screened) == 1000
    assert Counter(s.status for s in outcome.screened) == {"applied": 750, "rejected": 250}
    assert len(titles(game_dir)) == 20  # every n % 50 == 0 (all from registered players)
    assert statuses(game_dir) == {"applied": 750, "rejected": 250}
    assert dovecot.list_uids(account) == []
    assert len(dovecot.list_uids(account, "Nomopoly/Processed")) == 1000
    print(f"\n1,000 messages, one update over IMAP: {took:.1f} s")


# -- configuration and server errors ---------------------------------------------------------
def _imap_settings(game: GameDir, table: str) -> None:
    text = game.settings_path.read_text().replace('source = "maildir"', 'source = "imap"')
    game.settings_path.write_text(text + f"\n[mail.imap]\n{table}\n")


@pytest.mark.dovecot
def test_a_relative_cafile_is_read_from_the_game_folder(game_dir, dovecot_tls, monkeypatch, tmp_path):
    user = dovecot_tls.new_user()
    dovecot_tls.append(user, email(1), TUE)
    (game_dir.root / "certs").mkdir()
    (game_dir.root / "certs" / "ca.pem").write_bytes(Path(dovecot_tls.cafile).read_bytes())
    _imap_settings(game_dir, f'host = "{dovecot_tls.host}"\nport = {dovecot_tls.tls_port}\nuser = "{user}"\n'
                             'tls = "implicit"\ncafile = "certs/ca.pem"\nbackoff = 0.05')
    monkeypatch.setenv("NOMOPOLY_IMAP_PASSWORD", "testpw")
    monkeypatch.chdir(tmp_path)  # not the game folder
    outcome = jobs.run_update_job(game_dir, at=WED)
    assert [s.status for s in outcome.screened] == ["applied"]
    assert dovecot_tls.list_uids(user) == []


def _cli(game: GameDir, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "NOMOPOLY_IMAP_PASSWORD"}
    environ["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "admin", *args, "--game", str(game.root)],
                          capture_output=True, text=True, env={**environ, **(env or {})}, timeout=120)


def _snapshot(game: GameDir) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in game.state_dir.rglob("*") if p.is_file() and p.name != ".lock"}


def test_a_missing_password_variable_is_a_clean_cli_error(game_dir):
    _imap_settings(game_dir, 'host = "127.0.0.1"\nport = 1\nuser = "admin"\ntls = "none"')
    before = _snapshot(game_dir)
    result = _cli(game_dir, "update", "--at", WED.isoformat(), "--no-site")
    assert result.returncode == 1, result.stderr
    # (after the demo key's warning: the game under test uses it)
    assert result.stderr.splitlines()[-1].startswith("error: the environment variable NOMOPOLY_IMAP_PASSWORD is not set")
    assert "Traceback" not in result.stderr
    assert _snapshot(game_dir) == before


def test_an_unreachable_server_is_exit_code_75_and_changes_nothing(game_dir, monkeypatch):
    _imap_settings(game_dir, f'host = "127.0.0.1"\nport = {free_port()}\nuser = "admin"\ntls = "none"\n'
                             "retries = 1\nbackoff = 0.01\ntimeout = 2")
    before = _snapshot(game_dir)
    result = _cli(game_dir, "update", "--at", WED.isoformat(), "--no-site",
                  env={"NOMOPOLY_IMAP_PASSWORD": "x"})
    assert result.returncode == 75, result.stderr
    assert "could not be reached after 2 attempt(s)" in result.stderr and "Traceback" not in result.stderr
    assert _snapshot(game_dir) == before
    monkeypatch.setenv("NOMOPOLY_IMAP_PASSWORD", "x")
    with pytest.raises(TemporaryError, match="could not be reached"):
        fetch(game_dir, at=WED)
    assert _snapshot(game_dir) == before


def test_fetch_on_a_folder_that_is_no_game_is_a_clear_error(tmp_path):
    from admin.engine.errors import StateError

    with pytest.raises(StateError, match="is not a game directory"):
        fetch(GameDir(tmp_path), at=WED)
    assert not (tmp_path / "state").exists()


def test_a_command_in_the_subject_counts_when_the_body_is_only_chatter(game_dir):
    """Hardening, "reading mail as players write it": a Subject "Re: STATUS" and a body of greetings."""
    from fixtures.games import deliver

    deliver(game_dir.root / "mail" / "inbox", "alice@example.org", "Hi Admin,\nsee the subject.\nThanks!\n",
            "2026-11-03T10:00:00", subject="Re: STATUS")
    outcome = jobs.run_update_job(game_dir, at=datetime(2026, 11, 4, 23, 59, 59, tzinfo=timezone.utc))
    [s] = outcome.screened
    assert s.status == "applied" and s.submission is not None
    assert [(lc.line, lc.text) for lc in s.submission.commands] == [(0, "STATUS")]
    [answer] = [e.private for e in outcome.events if e.kind == "status"]
    assert answer.startswith("alice: $10000, 100 health, on square 1")


def test_a_subject_is_not_read_when_the_body_has_a_command(game_dir):
    from fixtures.games import deliver

    deliver(game_dir.root / "mail" / "inbox", "alice@example.org", "STATUS\n", "2026-11-03T10:00:00",
            subject="BUY 7")
    outcome = jobs.run_update_job(game_dir, at=datetime(2026, 11, 4, 23, 59, 59, tzinfo=timezone.utc))
    [s] = outcome.screened
    assert [lc.text for lc in s.submission.commands] == ["STATUS"]
