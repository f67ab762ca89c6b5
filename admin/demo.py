"""``nomopoly demo``: a 5-player Nomopoly II game whose first two weeks of email ship with the tool.

The demo derives its dice seeds from a public key (``[dice] insecure_demo_seed_key``), so every
run gives the same game; a real game never sets that key and draws each seed from the OS.
"""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path
from typing import Callable

from admin import jobs
from admin.errors import StateError
from admin.game import GameDir
from admin.presets import bundled_path

PLAYERS = [("alice", "alice@example.org"), ("bob", "bob@example.net"), ("carol", "carol@example.com"),
           ("dave", "dave@example.org"), ("erin", "erin@example.net")]
#: the four update cut-offs of weeks 1 and 2: midnight Wednesday and midnight Saturday (IX.4)
CUTOFFS = ["2026-11-04T23:59:59+00:00", "2026-11-07T23:59:59+00:00",
           "2026-11-11T23:59:59+00:00", "2026-11-14T23:59:59+00:00"]
MARKER = ".nomopoly-demo"

SETTINGS = '''# The bundled demo game (nomopoly demo). Secrets never go here.
[game]
title = "Nomopoly II demo"
start = "2026-11-02"
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
title = "Nomopoly II demo"

[dice]
# DEMO ONLY: seeds derived from this public key make the demo reproducible. Never set in a real game.
insecure_demo_seed_key = "nomopoly-demo"
'''


def run_demo(directory: Path, echo: Callable[[str], None] = print) -> Path:
    directory = Path(directory)
    if directory.exists() and any(directory.iterdir()):
        if not (directory / MARKER).exists():
            raise StateError(f"{directory} exists and is not a demo game; choose an empty folder")
        shutil.rmtree(directory)
    game = jobs.init_game(directory, "nomopoly2", "Nomopoly II demo", settings_text=SETTINGS)
    (game.root / MARKER).write_text("made by `nomopoly demo`; safe to delete\n", encoding="utf-8")
    for name, email in PLAYERS:
        jobs.add_player(game, name, email)
    shutil.copytree(bundled_path("demo") / "maildir", game.root / "mail" / "inbox")
    from admin.mail.mailout import mail_out
    from admin.site.build import build_site

    for cutoff in CUTOFFS:
        outcome = jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
        acted = sum(1 for s in outcome.screened if s.status == "applied")
        sent = mail_out(game, outcome.update, state=outcome.state)
        echo(f"Update {outcome.update} (week {outcome.state.week}): {acted} email(s) acted on, "
             f"{len(outcome.events)} events, {sent.sent} message(s) to the outbox.")
    echo(f"Outgoing mail: {game.state_dir / 'outbox' / 'sent'}")
    return build_site(game, state=outcome.state)


def demo_game(directory: Path) -> GameDir:
    """The demo's game directory after :func:`run_demo` (for tests)."""
    return GameDir(directory)
