"""What enters the dice (docs/fairness.md, issue 29): only each registered player's accepted
commands in a canonical form. Nothing the Admin can vary (a header added to an email, a stranger's
JOIN, an accomplice's empty email, the order the emails came in) changes a roll or a draw; what
went in is published per update, and each player's receipt says what of theirs went in."""

from __future__ import annotations

import email
import email.policy
import hashlib
import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from fixtures.fair import fair_settings

from admin.jobs import update as jobs
from admin.jobs.demo import deliver, fresh_maildir
from admin.engine.dice import canonical, fair_digest, player_inputs
from admin.mail.outbound.mailout import mail_out
from admin.store.gamedir import GameDir
from admin.store.fileio import load_json

AT = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SETTINGS = fair_settings("fair")


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> GameDir:
    game = jobs.init_game(tmp_path_factory.mktemp("fair") / "base", settings_text=SETTINGS)
    for name in ("alice", "bob", "carol"):
        jobs.add_player(game, name, f"{name}@example.org")
    return game


def _mail(box: Path, *, header: bool = False, stranger: bool = False, empty: bool = False,
          swap: bool = False) -> None:
    fresh_maildir(box)
    alice = ("2026-11-03T10:00", "alice@example.org", "moves", "STATUS\nHELP\n", "<a1@example.org>")
    bob = ("2026-11-03T11:00", "bob@example.org", "hi", "HELP\n", "<b1@example.org>")
    if swap:  # the same mail, arrived in the other order
        alice, bob = (bob[0],) + alice[1:], (alice[0],) + bob[1:]
    deliver(box, 1, *alice[:1], alice[1], "game@example.org", *alice[2:])
    deliver(box, 2, *bob[:1], bob[1], "game@example.org", *bob[2:])
    if header:  # the Admin holds the mailbox: an invisible header in alice's email
        path = next(p for p in (box / "new").iterdir() if p.name.endswith("M001P1.demo"))
        path.write_bytes(b"X-Spam-Score: 0.365\n" + path.read_bytes())
    if stranger:
        deliver(box, 3, "2026-11-03T12:00", "mallory@example.com", "game@example.org", "hi", "JOIN mallory\n",
                "<m1@example.com>")
    if empty:  # an accomplice player's email with no command in it
        deliver(box, 4, "2026-11-03T13:00", "carol@example.org", "game@example.org", "hello",
                "Hi all, nothing from me this week.\n\nCarol\n", "<c1@example.org>")


def _run(base: GameDir, tmp: Path, **how) -> tuple[GameDir, dict]:
    game = GameDir(shutil.copytree(base.root, tmp / "_".join(sorted(how)) if how else tmp / "plain"))
    _mail(game.root / "box", **how)
    jobs.run_update_job(game, at=AT, maildir=game.root / "box")
    log = load_json(game.update_logs()[1])
    return game, {"digest": log["dice"]["digest"], "rolls": log["dice"]["rolls"],
                  "hidden": log["dice"]["hidden_rolls"], "seed": log["dice"]["seed"]}


@pytest.mark.parametrize("how", [{"header": True}, {"stranger": True}, {"empty": True}, {"swap": True},
                                 {"header": True, "stranger": True, "empty": True}])
def test_a_header_a_strangers_join_an_empty_email_or_the_order_of_the_mail_leave_every_roll_unchanged(
        base, tmp_path, how):
    _, plain = _run(base, tmp_path)
    game, varied = _run(base, tmp_path, **how)
    assert plain["rolls"], "the update rolls dice"
    assert varied == plain
    if how.get("stranger"):  # the stranger's JOIN was read all the same: the Admin sees it
        assert [j.name for j in game.load().private.join_requests] == ["mallory"]


def test_a_players_commands_do_enter_the_dice(base, tmp_path):
    _, plain = _run(base, tmp_path)
    game = GameDir(shutil.copytree(base.root, tmp_path / "more"))
    _mail(game.root / "box")
    deliver(game.root / "box", 5, "2026-11-03T14:00", "carol@example.org", "game@example.org", "s", "STATUS\n",
            "<c2@example.org>")
    jobs.run_update_job(game, at=AT, maildir=game.root / "box")
    assert load_json(game.update_logs()[1])["dice"]["digest"] != plain["digest"]


def test_what_entered_the_dice_is_published_and_recomputes_to_the_digest(base, tmp_path):
    game, _ = _run(base, tmp_path, stranger=True, empty=True)
    record = load_json(game.results_path(1))
    players = record["dice"]["players"]
    assert sorted(players) == ["alice", "bob"]  # not the stranger, not carol's empty email
    want = hashlib.sha256(canonical(sorted([canonical({"cmd": "help", "topic": None}), canonical({"cmd": "status"})]))
                          .encode()).hexdigest()
    assert players["alice"] == want
    assert fair_digest(1, players) == record["dice"]["digest"]
    assert player_inputs(load_json(game.update_logs()[1])["inputs"]) == players
    assert [p for p, _ in record["mail"]] == ["alice", "bob", "carol"]  # received times, never addresses
    assert "@" not in json.dumps(record)


def test_each_receipt_tells_the_player_the_hash_of_their_commands_that_entered_the_dice(base, tmp_path):
    game, _ = _run(base, tmp_path, empty=True)
    mail_out(game, 1)
    players = load_json(game.results_path(1))["dice"]["players"]
    seen = {}
    for path in sorted((game.state_dir / "outbox").rglob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",)).get_content()
        if "this answers your email" in text:
            who = text.split(",", 1)[0].removeprefix("Hello ")
            line = next(x for x in text.splitlines() if "entered the dice" in x)
            seen[who] = line
    assert players["alice"] in seen["alice"] and players["bob"] in seen["bob"]
    assert "none" in seen["carol"]
