"""The nomopoly command: help everywhere, the admin's commands end to end, exit codes."""

import json
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from admin.cli.main import cli


def _commands(group: click.Group, prefix=()):
    for name, cmd in sorted(group.commands.items()):
        yield prefix + (name,)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + (name,))


@pytest.mark.parametrize("path", list(_commands(cli)), ids=" ".join)
def test_every_command_has_help(path):
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output and len(result.output.splitlines()) > 3


def run(*args, cwd=None, check=True):
    out = subprocess.run([sys.executable, "-m", "admin", *args], capture_output=True, text=True, cwd=cwd)
    if check and out.returncode != 0:
        raise AssertionError(out.stderr)
    return out


def test_an_admin_runs_a_game_from_the_command_line(tmp_path):
    game = tmp_path / "g"
    run("init", str(game))
    run("--game", str(game), "player", "add", "alice", "alice@example.org")
    run("player", "add", "bob", "Bob@Example.org", "--game", str(game))
    out = run("--game", str(game), "player", "add", "carol", "carol@example.org", "--token")
    assert "Their secret token" in out.stdout
    run("--game", str(game), "ruling", "adjust", "bob", "--money", "50", "--reason", "a typo last week")
    update = run("--game", str(game), "update", "--at", "2026-11-04T23:59:59+00:00")
    assert "Ran update 1" in update.stdout and "Site:" in update.stdout
    status = json.loads(run("--game", str(game), "status", "--json").stdout)
    assert {p["name"]: p["money"] for p in status["players"]}["bob"] >= 10050 - 1000  # the ruling applied
    assert "example.org" not in json.dumps(status).lower()
    assert run("--game", str(game), "replay", "--check").stdout.startswith("Replay matches")
    assert run("--game", str(game), "verify", "1").stdout.startswith("Every seed matches")
    history = run("--game", str(game), "rules", "history", "VI.9").stdout
    assert history.startswith("rev 1: created at update 0")


def test_errors_exit_1_with_a_message_and_usage_errors_exit_2(tmp_path):
    missing = run("--game", str(tmp_path / "nothing"), "status", check=False)
    assert missing.returncode == 1
    assert "is not a game directory" in missing.stderr and "nomopoly init" in missing.stderr
    usage = run("update", "--at", "yesterday", check=False)
    assert usage.returncode == 2 and "is not an ISO time" in usage.stderr
    run("init", str(tmp_path / "g"))
    dup = run("--game", str(tmp_path / "g"), "player", "add", "x y", "x@example.org", check=False)
    assert dup.returncode == 1 and "player name 'x y' is not valid" in dup.stderr


def test_verify_fails_with_exit_1_when_a_roll_was_forged(tmp_path):
    game = tmp_path / "g"
    run("init", str(game))
    run("--game", str(game), "player", "add", "alice", "alice@example.org")
    run("--game", str(game), "update", "--at", "2026-11-04T23:59:59+00:00", "--no-site")
    results = game / "state" / "results" / "0001.json"
    results.write_text(results.read_text().replace('"seed": "', '"seed": "00', 1))
    out = run("--game", str(game), "verify", check=False)
    assert out.returncode == 1 and "does not hash to its commitment" in out.stderr


def test_fetch_with_ack_answers_each_new_email_with_its_verdicts(tmp_path):
    import email
    import email.policy

    from fixtures.games import deliver

    game = tmp_path / "g"
    run("init", str(game))
    run("--game", str(game), "player", "add", "alice", "alice@example.org")
    deliver(game / "mail" / "inbox", "alice@example.org", "BUY\nHELLO", "2026-11-03T10:00")
    out = run("--game", str(game), "fetch", "--ack", "--at", "2026-11-04T00:00:00+00:00")
    assert out.stdout.startswith("Fetched mail: 1 new, 0 known, 0 duplicate(s).")
    sent = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in (game / "state" / "outbox" / "sent").glob("*.eml")]
    assert sorted(str(m["X-Nomopoly-Kind"]) for m in sent) == ["ack", "welcome"]  # the welcome: player add
    [msg] = [m for m in sent if m["X-Nomopoly-Kind"] == "ack"]
    body = msg.get_body(("plain",)).get_content()
    assert msg["To"].addresses[0].addr_spec == "alice@example.org"
    assert "UNDERSTOOD: it will be carried out at the next update" in body
    assert 'NOT UNDERSTOOD: "HELLO" is not a command' in body
    again = run("--game", str(game), "fetch", "--ack", "--at", "2026-11-04T00:00:00+00:00")
    assert again.stdout.startswith("Fetched mail: 0 new, 1 known")
    assert len(list((game / "state" / "outbox" / "sent").glob("*.eml"))) == 2  # no second ack
