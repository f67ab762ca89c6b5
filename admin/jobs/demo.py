"""``nomopoly demo [--game NAME]``: a bundled game played from the mail that ships with it (for
Nomopoly II, five players and their first two weeks of email).

The demo derives its dice seeds from a public key (``[dice] insecure_demo_seed_key``), so every
run gives the same game; a real game never sets that key and draws each seed from the OS.
"""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from admin.games import catalog as games
from admin.jobs import update as jobs
from admin.engine.events import Ruling
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.engine.model import GameState

MARKER = ".nomopoly-demo"

SETTINGS = '''# The bundled demo game (nomopoly demo). Secrets never go here.
[game]
title = "{title}"
start = "{start}"
timezone = "UTC"

[mail]
source = "maildir"
maildir = "mail/inbox"
from_address = "admin@example.org"
admin_address = "admin@example.org"
# no [mail.smtp]: receipts and results are written to state/outbox/ as .eml files

[auth]
plus_addressing = "strip"
require_token = false

[site]
title = "{title}"

[dice]
# DEMO ONLY: seeds derived from this public key make the demo reproducible. Never set in a real game.
insecure_demo_seed_key = "nomopoly-demo"
'''


def run_demo(directory: Path, echo: Callable[[str], None] = print, game_name: str = games.DEFAULT) -> Path:
    directory = Path(directory)
    spec = games.spec(game_name)
    if not spec.demo:
        raise StateError(f"the game {game_name!r} has no demo yet; games with one: "
                         f"{', '.join(n for n in games.available() if games.spec(n).demo)}")
    if directory.exists() and any(directory.iterdir()):
        if not (directory / MARKER).exists():
            raise StateError(f"{directory} exists and is not a demo game; choose an empty folder")
        shutil.rmtree(directory)
    title = str(spec.demo.get("title", f"{spec.title} demo"))
    settings = SETTINGS.format(title=title, start=spec.demo.get("start", "2026-11-02"))
    game = jobs.init_game(directory, game_name, title, settings_text=settings,
                          start=games.initial_state(game_name, title, spec.demo.get("params")))
    (game.root / MARKER).write_text("made by `nomopoly demo`; safe to delete\n", encoding="utf-8")
    for name, email in dict(spec.demo.get("players") or {}).items():
        jobs.add_player(game, name, email)
    shutil.copytree(spec.demo_maildir, game.root / "mail" / "inbox", dirs_exist_ok=True)  # init made it empty
    from admin.mail.outbound.mailout import mail_out
    from admin.site.build import build_site

    for update, cutoff in enumerate(spec.demo.get("cutoffs") or [], 1):
        queue_rulings(game, spec.demo, update)
        outcome = jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
        acted = sum(1 for s in outcome.screened if s.status == "applied")
        sent = mail_out(game, outcome.update, state=outcome.state)
        echo(f"Update {outcome.update} (week {outcome.state.week}): {acted} email(s) acted on, "
             f"{len(outcome.events)} events, {sent.sent} message(s) to the outbox.")
    echo(f"Outgoing mail: {game.state_dir / 'outbox' / 'sent'}")
    return build_site(game, state=outcome.state)


def queue_rulings(game: GameDir, demo: dict[str, Any], update: int) -> None:
    """Queue the Admin's rulings the demo's ``rulings:`` gives for ``update`` (``before:``, 1 when
    left out), as `nomopoly ruling ...` would: the update applies them first and records them, so
    replay and verify see them like any other input."""
    for entry in demo.get("rulings") or []:
        if int(entry.get("before", 1)) == update:
            jobs.queue_ruling(game, Ruling(str(entry["kind"]), dict(entry.get("args") or {}),
                                           str(entry.get("note", ""))))


def demo_game(directory: Path) -> GameDir:
    """The demo's game directory after :func:`run_demo` (for tests)."""
    return GameDir(directory)


def scratch_game(game_name: str, folder: Path) -> GameDir:
    """A new game of ``game_name`` in ``folder`` with its demo's settings and players: what a
    demo's mail-writing script plays as it goes, to write each update's mail from the state."""
    spec = games.spec(game_name)
    settings = SETTINGS.format(title=spec.demo["title"], start=spec.demo["start"])
    game = jobs.init_game(folder, game_name, spec.demo["title"], settings_text=settings,
                          start=games.initial_state(game_name, spec.demo["title"], spec.demo.get("params")))
    for name, email in spec.demo["players"].items():
        jobs.add_player(game, name, email)
    return game


def write_demo_mail(game_name: str, out: Path, cutoffs: list[str], to: str, tag: str,
                    mail_for: Callable[[GameState, int], list[tuple[str, str, str, str]]]) -> int:
    """Write a demo's mail by playing it: for each update, ``mail_for(state, update)`` gives the
    emails its players send seeing the game as it stands (when, sender address, subject, body);
    they are delivered into the Maildir ``out`` and the update runs on them in a scratch game.
    Returns how many emails were written."""
    import tempfile

    fresh_maildir(out)
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        game = scratch_game(game_name, Path(tmp) / "g")
        inbox = game.root / "mail" / "inbox"
        for update, cutoff in enumerate(cutoffs, 1):
            for when, sender, subject, body in mail_for(game.load(), update):
                n += 1
                who = sender.rpartition("<")[2].split("@")[0]
                deliver(out, n, when, sender, to, subject, body, f"<{tag}-{n:03d}.{who}@example.invalid>")
            shutil.rmtree(inbox, ignore_errors=True)
            shutil.copytree(out, inbox)
            jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
    return n


def fresh_maildir(out: Path) -> None:
    """An empty Maildir at ``out`` (for a demo's mail-writing script)."""
    shutil.rmtree(out, ignore_errors=True)
    for sub in ("new", "cur", "tmp"):
        (out / sub).mkdir(parents=True)
        (out / sub / ".keep").write_text("")


def deliver(out: Path, n: int, when: str, sender: str, to: str, subject: str, body: str,
            message_id: str) -> None:
    """Write one demo email into the Maildir ``out``, named like a real delivery at ``when`` (the
    time at the start of the name decides the update it belongs to)."""
    from email.message import EmailMessage
    from email.utils import format_datetime

    t = datetime.fromisoformat(when).replace(tzinfo=timezone.utc)
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(t)
    msg["Message-ID"] = message_id
    msg.set_content(body)
    (out / "new" / f"{int(t.timestamp())}.M{n:03d}P1.demo").write_bytes(bytes(msg))
