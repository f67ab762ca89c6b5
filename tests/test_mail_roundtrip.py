"""All the way round: a player's email lands in the game's Dovecot INBOX, the update reads it over
IMAP, and the receipt and results go out over SMTP (STARTTLS, authenticated) into the player's
own Dovecot INBOX, where they read as answers to the email that was sent."""

from __future__ import annotations

import email.policy
from datetime import datetime, timezone
from email.message import EmailMessage
from email.parser import BytesParser

import pytest
from fixtures.dovecot import PASSWORD
from fixtures.smtp import SMTP_PASSWORD, ReceivedMail, SmtpSink
from test_mailout import ADMIN, GAME, configure

from admin.jobs import update as jobs
from admin.store.gamedir import GameDir
from admin.mail.inbound.imap import ImapConfig, ImapSource
from admin.mail.outbound.mailout import mail_out
from admin.runtime.dovecot import DovecotServer

pytestmark = [pytest.mark.dovecot, pytest.mark.smtp]

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
ADDRESSES = (GAME, ADMIN, "alice@example.org", "bob@example.org", "carol@example.org")


@pytest.fixture
def mailboxes(dovecot: DovecotServer) -> dict[str, str]:
    """A fresh Dovecot account for each address of the game (game, admin, players)."""
    return {address: dovecot.new_user() for address in ADDRESSES}


@pytest.fixture
def smtp_deliver(dovecot: DovecotServer, mailboxes: dict[str, str]):
    """What the SMTP server receives is appended to each recipient's Dovecot INBOX."""

    def deliver(mail: ReceivedMail) -> None:
        for rcpt in mail.rcpt_tos:
            dovecot.append(mailboxes[rcpt.lower()], mail.content)

    return deliver


def inbox(dovecot: DovecotServer, user: str) -> list[EmailMessage]:
    with dovecot.client(user, "INBOX") as c:
        fetched = c.fetch(c.search("ALL"), [b"BODY.PEEK[]"])
    parser = BytesParser(policy=email.policy.default)
    out = []
    for data in fetched.values():
        msg = parser.parsebytes(data[b"BODY[]"].replace(b"\r\n", b"\n"))
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


def test_a_players_email_goes_in_by_imap_and_its_receipt_and_results_come_back_by_smtp(
        game_dir: GameDir, dovecot: DovecotServer, mailboxes: dict[str, str],
        smtp_tls_server: SmtpSink, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", SMTP_PASSWORD)
    configure(game_dir, smtp_tls_server)
    sent = EmailMessage()
    sent["From"], sent["To"], sent["Subject"] = "Alice <alice@example.org>", GAME, "my moves"
    sent["Message-ID"] = "<roundtrip-1@alice.example>"
    sent.set_content("PROPOSE Free parking\nLanding on square 1 pays $200.\nEND\nVOTE 9 YES\n")
    dovecot.append(mailboxes[GAME], bytes(sent), datetime(2026, 11, 3, 10, tzinfo=timezone.utc))
    source = ImapSource(ImapConfig(host=dovecot.host, port=dovecot.port, tls="none",
                                   user=mailboxes[GAME], timeout=5.0),
                        environ={"NOMOPOLY_IMAP_PASSWORD": PASSWORD})

    outcome = jobs.run_update_job(game_dir, at=WED, source=source)
    assert [(s.player, s.status) for s in outcome.screened] == [("alice", "applied")]
    report = mail_out(game_dir, 1)
    assert (report.sent, report.failed) == (5, ())  # receipt, 3 results, the admin's report

    alice = {m["X-Nomopoly-Kind"]: m for m in inbox(dovecot, mailboxes["alice@example.org"])}
    assert set(alice) == {"receipt", "results"}
    receipt = alice["receipt"]
    assert receipt["In-Reply-To"] == "<roundtrip-1@alice.example>"
    assert receipt["Subject"] == "Re: my moves" and GAME in receipt["From"]
    body = receipt.get_content()
    assert "lines 1-3: PROPOSE Free parking\n    DONE: alice made proposal 1: Free parking" in body
    assert 'line 4: VOTE 9 YES\n    NOT DONE: alice: "VOTE 9 YES" was not done: there is no proposal 9' in body
    results = alice["results"].get_content()
    assert "1. Free parking (by alice): not voted yet: send VOTE 1 YES, NO or ABSTAIN" in results
    bob = inbox(dovecot, mailboxes["bob@example.org"])
    assert [m["X-Nomopoly-Kind"] for m in bob] == ["results"]
    assert [m["X-Nomopoly-Kind"] for m in inbox(dovecot, mailboxes[ADMIN])] == ["report"]
    assert mail_out(game_dir, 1).sent == 0
    assert len(inbox(dovecot, mailboxes["alice@example.org"])) == 2
