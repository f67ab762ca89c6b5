"""A newcomer's mail (issue 32, item 1): a stranger's JOIN is answered once (received; the Admin
decides), and `nomopoly player add` sends the new player one welcome: how to play, the coming
deadlines, the game's address, and their TOKEN where the game uses tokens. By the outbox, or by
SMTP (a real aiosmtpd server on loopback) like the game's other mail."""

from __future__ import annotations

from datetime import datetime

import pytest
from click.testing import CliRunner
from fixtures.games import deliver
from fixtures.smtp import SMTP_PASSWORD, SmtpSink

from admin.cli.main import cli
from admin.jobs import update as jobs
from admin.mail.inbound.auth import AuthSettings
from admin.mail.inbound.intake import screen, take_in
from admin.mail.inbound.limits import MailLimits
from admin.mail.inbound.sources import MaildirSource
from admin.mail.outbound.mailout import ack, mail_out, outbox_of, welcome_player
from admin.mail.outbound.outbox import iter_messages
from admin.store.gamedir import GameDir

GAME = "game@nomopoly.test"
WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")


def _configure(game: GameDir, sink: SmtpSink | None = None, **auth: str) -> None:
    text = game.settings_path.read_text().replace(
        "[mail]\n", f'[mail]\nfrom_address = "{GAME}"\nadmin_address = "admin@nomopoly.test"\n', 1)
    if sink is not None:
        text += (f'\n[mail.smtp]\nhost = "{sink.host}"\nport = {sink.port}\ntls = "{sink.tls}"\n'
                 f'user = "{sink.user}"\nfrom_address = "{GAME}"\ntimeout = 5\n')
    if auth:
        text += "\n[auth]\n" + "".join(f"{key} = {value}\n" for key, value in auth.items())
    game.settings_path.write_text(text)


def _sent(game: GameDir) -> list:
    return list(iter_messages(outbox_of(game).sent_dir))


def _to(game: GameDir, address: str) -> list:
    return [m for m in _sent(game) if address in str(m["To"])]


def _add(game: GameDir, *args: str):
    out = CliRunner().invoke(cli, ["--game", str(game.root), "player", "add", *args])
    assert out.exit_code == 0, out.output
    return out


def test_a_strangers_join_gets_one_answer_saying_the_admin_decides(game_dir: GameDir) -> None:
    _configure(game_dir)
    inbox = game_dir.root / "mail" / "inbox"
    deliver(inbox, "Zoe <zoe@example.net>", "JOIN zoe", "2026-11-03T10:00", subject="May I play?",
            message_id="<z1@example.net>")
    deliver(inbox, "mallory@evil.example", "BUY 3", "2026-11-03T11:00")  # a stranger, no JOIN
    deliver(inbox, "robot@example.net", "JOIN robot", "2026-11-03T12:00",
            headers={"Auto-Submitted": "auto-replied"})  # an automatic message: never answered
    # a fetch's acks do not answer a request yet: it is decided on at the update
    intake = take_in(game_dir.state_dir, MaildirSource(inbox), None)  # as `nomopoly fetch` does
    state = game_dir.load()
    screened = screen(game_dir.state_dir, intake.ledger.pending(None), state, AuthSettings.from_dict({}), MailLimits())
    assert [s.status for s in screened] == ["applied", "rejected", "ignored"]  # Zoe, Mallory, the robot
    assert ack(game_dir, screened, state).queued == ()
    assert jobs.run_update_job(game_dir, at=WED).committed
    mail_out(game_dir, 1)
    answers = _to(game_dir, "zoe@example.net")
    assert len(answers) == 1
    reply = answers[0]
    assert str(reply["In-Reply-To"]) == "<z1@example.net>" and str(reply["Subject"]) == "Re: May I play?"
    body = reply.get_content()
    assert "JOIN zoe" in body and "Your request to join as zoe was passed to the Admin (III.4)." in body
    assert "The Admin decides who joins" in body
    assert _to(game_dir, "mallory@evil.example") == [] and _to(game_dir, "robot@example.net") == []
    mail_out(game_dir, 1)  # again: nothing more
    assert len(_to(game_dir, "zoe@example.net")) == 1


def test_player_add_queues_one_welcome_with_how_to_play_the_deadlines_and_the_address(game_dir: GameDir) -> None:
    _configure(game_dir)
    out = _add(game_dir, "dave", "Dave@Example.org")
    assert "Welcome email for dave" in out.output
    welcomes = [m for m in _sent(game_dir) if str(m["X-Nomopoly-Kind"]) == "welcome"]
    assert [str(m["To"]) for m in welcomes] == ["dave <dave@example.org>"]
    body = welcomes[0].get_content()
    assert f"Send your commands by email to {GAME}" in body
    assert "HELP by email" in body
    # the game starts Monday 2 November 2026: mail closes at midnight Wednesday and Saturday
    assert "Update 1 (Thursday): mail closes Wednesday 2026-11-04 23:59:59 UTC" in body
    assert "Update 2 (Sunday): mail closes Saturday 2026-11-07 23:59:59 UTC" in body
    assert "TOKEN" not in body  # this game uses no tokens, and none was issued
    assert welcome_player(game_dir, "dave").queued == ()  # one welcome, however often


def test_the_welcome_carries_the_token_the_admin_issued(game_dir: GameDir) -> None:
    _configure(game_dir, require_token="true")
    out = _add(game_dir, "erin", "erin@example.org", "--token")
    token = out.output.split("in their welcome email): ")[1].split()[0]
    (welcome,) = [m for m in _to(game_dir, "erin@example.org") if str(m["X-Nomopoly-Kind"]) == "welcome"]
    body = welcome.get_content()
    assert f"  TOKEN {token}\n" in body
    assert "every email you send to the game: mail without it is refused" in body


@pytest.mark.smtp
def test_the_welcome_goes_by_smtp_when_the_game_sends_by_smtp(
        game_dir: GameDir, smtp_server: SmtpSink, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOMOPOLY_SMTP_PASSWORD", SMTP_PASSWORD)
    _configure(game_dir, smtp_server)
    _add(game_dir, "dave", "dave@example.org")
    assert [r.rcpt_tos for r in smtp_server.messages] == [("dave@example.org",)]
    received = smtp_server.messages[0].message()
    assert str(received["X-Nomopoly-Kind"]) == "welcome" and smtp_server.messages[0].mail_from == GAME
    assert "Welcome, dave" in str(received["Subject"])
