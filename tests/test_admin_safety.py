"""An admin's mistake never harms the game (issue 20, in part): a ruling or a player given with a
typo is refused when it is given, with a clear error and nothing changed; no command but init
writes into a folder that holds no game."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from admin.jobs import update as jobs


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "admin", *args], capture_output=True, text=True, cwd=cwd)


def _fingerprint(root: Path) -> str:
    """Every file of the game folder, by path and content."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("safety") / "g"
    made = jobs.init_game(root)
    for name in ("bob", "carol"):
        jobs.add_player(made, name, f"{name}@example.org")
    return root


TYPOS = [
    (["ruling", "set", "ownership", "rent_per_number", "four", "--reason", "x"], "is a whole number"),
    (["ruling", "set", "ownershp", "rent_per_number", "4", "--reason", "x"], "module 'ownershp' is not enabled"),
    (["ruling", "set", "ownership", "rent_per_numbr", "4", "--reason", "x"], "has no parameter 'rent_per_numbr'"),
    (["ruling", "set", "board", "columns", "0", "--reason", "x"], "board.columns is a whole number from 1 to 100, not 0"),
    (["ruling", "set", "turns", "dice", "xyz", "--reason", "x"], "turns.dice is a mapping (like {a: 1}), not 'xyz'"),
    (["ruling", "set", "cards", "card_rent", "7", "--reason", "x"], "not recorded"),
    (["ruling", "adjust", "zed", "--money", "5", "--reason", "x"], "player 'zed', who is not in the game"),
    (["ruling", "adjust", "bob", "--reason", "x"], "nothing to adjust"),
    (["ruling", "veto", "9", "--reason", "x"], "proposal 9, which does not exist"),
    (["ruling", "done", "9", "--reason", "x"], "proposal 9, which does not exist"),
    (["ruling", "send-back", "9", "--comment", "x"], "proposal 9, which does not exist"),
    (["ruling", "amend", "9", "AMEND VI.9: x"], "proposal 9, which does not exist"),
    (["ruling", "reject-name", "5", "--reason", "x"], "square 5 has no name to reject"),
    (["ruling", "enable", "zeppelins", "--reason", "x"], "unknown module 'zeppelins'"),
    (["ruling", "disable", "zeppelins", "--reason", "x"], "the zeppelins module is not enabled"),
    (["ruling", "vote", "1", "yes"], "the Admin does not vote"),
    (["ruling", "unpause", "--reason", "x"], "the game is not paused"),
    (["ruling", "end-game", "--winner", "zed", "--reason", "x"], "'zed', is not a player"),
    (["player", "add", "bob2", "BOB+games@Example.org"], "is bob's address as this game reads addresses"),
    (["player", "remove", "zed"], "no player named 'zed'"),
]


def test_twenty_typical_admin_typos_give_twenty_clear_errors_and_change_nothing(game):
    assert len(TYPOS) == 20
    before = _fingerprint(game)
    for args, message in TYPOS:
        out = _cli("--game", str(game), *args)
        assert out.returncode == 1, (args, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr and out.stderr.startswith("error: "), (args, out.stderr)
        assert message in out.stderr, (args, out.stderr)
    assert _fingerprint(game) == before


def test_a_ruling_on_a_proposal_already_carried_out_is_refused(tmp_path):
    """Item 1: `ruling amend 1` on an accepted proposal already applied replaced a rule's text."""
    from datetime import datetime

    from admin.jobs.demo import deliver, fresh_maildir
    from admin.engine.events import Ruling
    from admin.engine.errors import StateError

    from fixtures.games import DIR_SETTINGS

    # fixed dice: with the default secret seed, carol's roll past the end of the board won her the
    # game in one run of about fifteen (XI.4), and a game over counts no votes
    g = jobs.init_game(tmp_path / "g", settings_text=DIR_SETTINGS)
    for name in ("bob", "carol"):
        jobs.add_player(g, name, f"{name}@example.org")
    mail = tmp_path / "mail"
    fresh_maildir(mail)
    deliver(mail, 1, "2026-11-02T10:00", "bob@example.org", "admin@example.org", "p",
            "PROPOSE Cheaper rent\nAMEND VI.9: Rent is twice the number.\nEND\n", "<p1@example.org>")
    deliver(mail, 2, "2026-11-06T10:00", "bob@example.org", "admin@example.org", "v", "VOTE 1 YES\n", "<v1@example.org>")
    deliver(mail, 3, "2026-11-06T11:00", "carol@example.org", "admin@example.org", "v", "VOTE 1 YES\n", "<v2@example.org>")
    jobs.run_update_job(g, at=datetime.fromisoformat("2026-11-04T23:59:59+00:00"), maildir=mail)
    jobs.run_update_job(g, at=datetime.fromisoformat("2026-11-07T23:59:59+00:00"), maildir=mail)
    assert g.load().proposal(1).status == "accepted" and not g.load().proposal(1).awaiting_admin
    for kind, args in (("amend", {"proposal": 1, "directives": "AMEND VI.9: x"}), ("done", {"proposal": 1})):
        with pytest.raises(StateError, match="carried out already"):
            jobs.queue_ruling(g, Ruling(kind, args, "x"))
    assert g.pending_rulings() == []


@pytest.mark.parametrize("args", [["ruling", "adjust", "bob", "--money", "5", "--reason", "x"], ["verify"],
                                  ["status"], ["update"], ["todo"]])
def test_no_command_but_init_writes_into_a_folder_that_holds_no_game(tmp_path, args):
    """Items 2 and 3: a ruling outside a game folder made state/pending.yaml there; verify said
    every seed matched."""
    out = _cli(*args, cwd=tmp_path)
    assert out.returncode == 1 and "is not a game directory" in out.stderr and "nomopoly init" in out.stderr
    assert list(tmp_path.iterdir()) == []
    missing = _cli("--game", str(tmp_path / "nothing"), *args)
    assert missing.returncode == 1 and not (tmp_path / "nothing").exists()


def test_a_missing_or_misspelt_mail_folder_is_an_error_never_no_mail(tmp_path):
    """Item 5: a misspelt maildir was read as "no mail", and every player was fined for not voting."""
    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    assert all((made.root / "mail" / "inbox" / sub).is_dir() for sub in ("new", "cur", "tmp"))  # init made it
    for args in (["--maildir", str(tmp_path / "inbxo")], []):
        if not args:
            import shutil

            shutil.rmtree(made.root / "mail")
        out = _cli("--game", str(made.root), "update", "--at", "2026-11-04T23:59:59+00:00", *args)
        assert out.returncode == 1 and "there is no mail folder here" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
        assert made.load().update == 0


def test_ruling_list_shows_the_queue_and_cancel_takes_one_out(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    root = str(made.root)
    assert _cli("--game", root, "ruling", "list").stdout == "No rulings are queued; the next update applies none.\n"
    assert _cli("--game", root, "ruling", "adjust", "bob", "--money", "5", "--reason", "refund").returncode == 0
    assert _cli("--game", root, "ruling", "pause", "--reason", "holiday").returncode == 0
    assert _cli("--game", root, "ruling", "list").stdout == (
        "1. adjust money=5 player=bob (refund)\n2. pause (holiday)\n")
    missing = _cli("--game", root, "ruling", "cancel", "3")
    assert missing.returncode == 1 and "there is no queued ruling 3: the queue holds 1 to 2" in missing.stderr
    out = _cli("--game", root, "ruling", "cancel", "1")
    assert out.returncode == 0 and out.stdout == "Cancelled ruling 1: adjust money=5 player=bob (refund)\n"
    assert [r["kind"] for r in made.pending_rulings()] == ["pause"]


def test_cancelling_a_ruling_that_a_later_one_needs_is_refused(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    root = str(made.root)
    assert _cli("--game", root, "ruling", "pause", "--reason", "a").returncode == 0
    assert _cli("--game", root, "ruling", "unpause", "--reason", "b").returncode == 0  # needs the pause
    out = _cli("--game", root, "ruling", "cancel", "1")
    assert out.returncode == 1 and "would then fail (the game is not paused)" in out.stderr, out.stderr
    assert len(made.pending_rulings()) == 2


def test_ruling_decide_queues_any_rule_modules_ruling_by_its_kind(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    root = str(made.root)
    out = _cli("--game", root, "ruling", "decide", "adjust", "player=bob", "money=7", "--reason", "r")
    assert out.returncode == 0, out.stderr
    assert made.pending_rulings()[-1] == {"kind": "adjust", "args": {"player": "bob", "money": 7}, "note": "r"}
    bad = _cli("--game", root, "ruling", "decide", "zeppelin", "x=1", "--reason", "r")
    assert bad.returncode == 1 and "unknown ruling 'zeppelin'" in bad.stderr


def _start(made, start: str, zone: str = "UTC") -> None:
    text = made.settings_path.read_text()
    import re

    text = re.sub(r'start = "[^"]*"', f'start = "{start}"', text)
    made.settings_path.write_text(re.sub(r'timezone = "[^"]*"', f'timezone = "{zone}"', text))


def test_an_update_before_its_deadline_asks_for_early_and_says_when(tmp_path):
    """Item 6: a plain `update` before the deadline ran at once, without a word."""
    from datetime import date, timedelta

    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    monday = date.today() + timedelta(days=7 - date.today().weekday())  # next week's Monday
    _start(made, monday.isoformat(), "Europe/Berlin")
    refused = _cli("--game", str(made.root), "update", "--no-site", "--no-mail")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    from datetime import datetime, time
    from zoneinfo import ZoneInfo

    due = datetime.combine(monday + timedelta(days=2), time(23, 59, 59), ZoneInfo("Europe/Berlin"))
    assert f"update 1's mail closes {due:%A %Y-%m-%d %H:%M:%S} {due.tzname()}" in refused.stderr, refused.stderr
    assert "nomopoly update --early" in refused.stderr and made.load().update == 0
    early = _cli("--game", str(made.root), "update", "--early", "--no-site", "--no-mail")
    assert early.returncode == 0, early.stderr
    assert made.load().update == 1


def test_an_update_long_after_its_deadline_takes_that_deadlines_mail_and_says_more_have_passed(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    _start(made, "2026-01-05", "Europe/Berlin")  # a Monday long ago: many deadlines have passed
    out = _cli("--game", str(made.root), "update", "--no-site", "--no-mail")
    assert out.returncode == 0, out.stderr
    # the first deadline, Wednesday 7 January at 23:59:59 in Berlin, is 22:59:59 UTC
    assert "with mail up to 2026-01-07T23:59:59+01:00" in out.stdout, out.stdout
    assert "more deadline(s) have passed since (the next: Saturday 2026-01-10 23:59:59 CET)" in out.stdout


def test_a_dry_run_shows_the_events_and_writes_the_mail_it_would_send(tmp_path):
    """Item 12: --dry-run printed a count only, nothing to check before the real run."""
    from fixtures.games import deliver

    made = jobs.init_game(tmp_path / "g")
    for name in ("bob", "carol"):
        jobs.add_player(made, name, f"{name}@example.org")
    text = made.settings_path.read_text().replace("[mail]\n", '[mail]\nadmin_address = "admin@example.org"\n', 1)
    made.settings_path.write_text(text.replace('# from_address = "game@example.org"', 'from_address = "game@example.org"', 1))
    deliver(made.root / "mail" / "inbox", "bob@example.org", "PROPOSE Free parking\nSquares are free.\nEND\nBUY 99",
            "2026-11-03T10:00")
    before = _fingerprint(made.root)
    out = _cli("--game", str(made.root), "update", "--dry-run", "--at", "2026-11-04T23:59:59+00:00",
               "--preview", str(tmp_path / "preview"))
    assert out.returncode == 0, out.stderr
    assert "bob made proposal 1: Free parking" in out.stdout
    assert "refused: " in out.stdout  # BUY 99: there is no square 99, shown before the real run
    assert "nothing was saved or sent" in out.stdout
    assert _fingerprint(made.root) == before and made.load().update == 0
    mails = sorted(p.name for p in (tmp_path / "preview").iterdir())
    assert len(mails) == 4  # bob's receipt, bob's and carol's results, and the admin report
    bodies = "\n".join((tmp_path / "preview" / m).read_text() for m in mails)
    assert "DONE: bob made proposal 1: Free parking" in bodies and "Admin report for update 1" in bodies


def test_check_lists_every_wrong_setting_with_its_key_and_fix_and_every_command_refuses(tmp_path):
    """Item 4: nomopoly.toml was barely checked (a start that is not a date crashed `build`, the
    timezone was never read, "yes" and "false" both switched tokens on, unknown keys passed)."""
    made = jobs.init_game(tmp_path / "g")
    root = str(made.root)
    assert _cli("--game", root, "check").returncode == 0
    text = made.settings_path.read_text()
    text = text.replace('start = "', 'start = "next monday"\n# was: "', 1).replace('timezone = "UTC"', 'timezone = "Mars/Olympus"')
    text = text.replace("require_token = false", 'require_token = "false"').replace("[site]\n", '[site]\nurl = "example.org"\ntitel = "x"\n')
    text = text.replace('# admin_address = "admin@example.org"', 'admin_address = "admin.example.org"')
    made.settings_path.write_text(text + '\n[mail.smpt]\nhost = "x"\n')
    before = _fingerprint(made.root)
    out = _cli("--game", root, "check")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    toml = str(made.settings_path)
    for line in [f"{toml}: [game] start: is 'next monday', not a date; write the Monday of week 1",
                 f"{toml}: [game] timezone: is 'Mars/Olympus', not a timezone",
                 f"{toml}: [auth]: require_token = 'false': write true or false, without quotes",
                 f"{toml}: [site] url: is 'example.org'; write the site's address as",
                 f"{toml}: [site] titel: is not a setting nomopoly reads; did you mean title?",
                 f"{toml}: [mail] admin_address: is 'admin.example.org', not a mail address",
                 f"{toml}: [mail.smpt]: is not a table nomopoly reads; did you mean mail.smtp?"]:
        assert line in out.stderr, (line, out.stderr)
    assert "7 problem(s); nothing was changed." in out.stderr
    for args in (["status"], ["build"], ["update", "--early"], ["ruling", "pause", "--reason", "x"]):
        refused = _cli("--game", root, *args)
        assert refused.returncode == 1 and "nomopoly.toml needs fixing before anything runs" in refused.stderr
        assert "[game] start: is 'next monday'" in refused.stderr and "Traceback" not in refused.stderr
    assert _fingerprint(made.root) == before


def test_a_start_that_is_not_a_monday_is_refused_with_the_monday_to_write(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    _start(made, "2026-11-04")
    out = _cli("--game", str(made.root), "check")
    assert out.returncode == 1
    assert ("[game] start: is 2026-11-04, a Wednesday: a game's weeks start on a Monday; write the Monday "
            'of week 1 (e.g. "2026-11-02")') in out.stderr


def test_ruling_amend_takes_a_reason_like_ruling_done(game):
    """`ruling done N` asks for --reason; `ruling amend` refused one ("no such option")."""
    before = _fingerprint(game)
    for args in (["ruling", "amend", "9", "AMEND VI.9: x", "--reason", "as voted"],
                 ["ruling", "done", "9", "--reason", "as voted"]):
        out = _cli("--game", str(game), *args)
        assert out.returncode == 1 and "No such option" not in out.stderr, out.stderr
        assert "proposal 9, which does not exist" in out.stderr, out.stderr
    assert _fingerprint(game) == before


@pytest.mark.parametrize("args, message", [
    (["--money", "-999999"], "--money -999999 would take bob from $10000 to $-989999"),
    (["--money", "500000"], "--money 500000 would take bob from $10000 to $510000"),
    (["--health", "-5000"], "--health -5000 is more than a whole health of 100"),
])
def test_an_absurd_adjust_asks_for_yes_and_records_nothing(game, args, message):
    before = _fingerprint(game)
    out = _cli("--game", str(game), "ruling", "adjust", "bob", *args, "--reason", "x")
    assert out.returncode == 1 and out.stderr.startswith("error: "), out.stderr
    assert message in out.stderr and "add --yes" in out.stderr, out.stderr
    assert _fingerprint(game) == before


def test_an_absurd_adjust_with_yes_and_a_plain_one_are_recorded(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    for extra in (["--money", "-999999", "--yes"], ["--money", "-50"]):
        out = _cli("--game", str(made.root), "ruling", "adjust", "bob", *extra, "--reason", "x")
        assert out.returncode == 0 and "recorded" in out.stdout, out.stderr
    assert len(made.pending_rulings()) == 2


def test_a_cutoff_in_the_future_is_refused_and_a_rerun_says_nothing_ran_again(tmp_path):
    """Issue 31: `update --at` a time still to come was taken silently (mail sent before it, after
    the run, would miss the update); re-running a finished update said "its mail was moved away now"."""
    made = jobs.init_game(tmp_path / "g")
    jobs.add_player(made, "bob", "bob@example.org")
    before = _fingerprint(made.root)
    out = _cli("--game", str(made.root), "update", "--at", "2999-01-06T23:59:59+00:00", "--no-site")
    assert out.returncode == 2 and "2999-01-06T23:59:59+00:00 is in the future" in out.stderr, out.stderr
    assert "--dry-run" in out.stderr and _fingerprint(made.root) == before
    assert _cli("--game", str(made.root), "update", "--at", "2999-01-06T23:59:59+00:00", "--dry-run",
                "--no-site").returncode == 0
    first = _cli("--game", str(made.root), "update", "--at", "2026-11-04T23:59:59+00:00", "--no-site")
    assert first.returncode in (0, 1) and made.load().update == 1, first.stderr  # (1: nothing to publish to)
    again = _cli("--game", str(made.root), "update", "--at", "2026-11-04T23:59:59+00:00", "--no-site")
    assert ("Update 1 (mail up to 2026-11-04T23:59:59+00:00) had already run, so nothing was run again"
            in again.stdout), again.stdout
    assert "moved away now" not in again.stdout and made.load().update == 1


@pytest.mark.parametrize("title,what", [
    ('"My \\u0007 game"', "[site] title holds U+0007 (a control character) at character 4"),
    ('"""My\ngame"""', "[site] title holds U+000A (a control character) at character 3"),
    ('"Game \\u202egnp.exe"', "[site] title holds U+202E RIGHT-TO-LEFT OVERRIDE at character 6"),
    ('"tab\\there"', "[site] title holds U+0009 (a control character) at character 4"),
])
def test_a_control_character_or_newline_in_a_setting_is_refused_naming_its_key(tmp_path, title, what):
    """A BEL or a newline in [site] title used to pass `check` and break feed.atom and the build."""
    made = jobs.init_game(tmp_path / "g")
    root = str(made.root)
    text = made.settings_path.read_text()
    made.settings_path.write_text(text.replace("[site]\n", '[site]\nurl = "https://example.org/g"\n')
                                  .replace(f'title = "{made.root.name}"\n# url', f"title = {title}\n# url"))
    before = _fingerprint(made.root)
    out = _cli("--game", root, "check")
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
    assert f"{made.settings_path}: {what}: a setting is one line of plain text" in out.stderr, out.stderr
    for args in (["build"], ["status"], ["update", "--early"]):
        refused = _cli("--game", root, *args)
        assert refused.returncode == 1 and what in refused.stderr and "Traceback" not in refused.stderr
    assert _fingerprint(made.root) == before
    assert not (made.root / "site").exists()


def test_a_control_character_in_a_key_or_a_list_is_refused_too(tmp_path):
    made = jobs.init_game(tmp_path / "g")
    made.settings_path.write_text(made.settings_path.read_text()
                                  + '\n[mail.imap]\n"ho\\u001bst" = "x"\n')
    out = _cli("--game", str(made.root), "check")
    assert out.returncode == 1 and "[mail.imap] key 'ho\\\\x1bst' holds U+001B" in out.stderr, out.stderr
