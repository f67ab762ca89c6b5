"""Run nomopoly jobs in a process of its own, so tests/test_crash.py can SIGKILL it at a named point.

    python tests/crash_driver.py GAME STEP [STEP ...]

Steps run in order in this one process:

- ``update:ISO``   ``jobs.run_update_job(game, at=ISO)`` with the source of GAME/nomopoly.toml
- ``fetch:ISO``    ``admin.jobs.fetch.fetch(game, at=ISO)``
- ``crash:POINT``  from here on, SIGKILL this process at crash point POINT (``name`` or ``name#n``);
                   ``crash:`` alone disarms
- ``trace:FILE``   from here on, append each crash point passed to FILE; ``trace:`` alone stops
- ``copy-expunge`` from here on, move IMAP mail with COPY + \\Deleted + UID EXPUNGE, not MOVE

Exit status 0 when every step finished; -9 (killed) when a crash point fired.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from admin.runtime import crashpoints  # noqa: E402
from admin.jobs import update as jobs
from admin.jobs.fetch import fetch  # noqa: E402
from admin.store.gamedir import GameDir  # noqa: E402
from admin.mail.inbound.sources import MailSource  # noqa: E402


def source_for(game: GameDir, copy_expunge: bool) -> MailSource:
    source = jobs.open_source(game, None)
    if copy_expunge:
        source.use_move = False  # type: ignore[attr-defined]
    return source


def main(argv: list[str]) -> int:
    game = GameDir(argv[0])
    copy_expunge = False
    for step in argv[1:]:
        verb, _, arg = step.partition(":")
        if verb == "crash":
            crashpoints.reset()
            if arg:
                os.environ["NOMOPOLY_CRASH_AT"] = arg
            else:
                os.environ.pop("NOMOPOLY_CRASH_AT", None)
        elif verb == "trace":
            if arg:
                os.environ["NOMOPOLY_CRASH_TRACE"] = arg
            else:
                os.environ.pop("NOMOPOLY_CRASH_TRACE", None)
        elif verb == "copy-expunge":
            copy_expunge = True
        elif verb == "update":
            jobs.run_update_job(game, at=datetime.fromisoformat(arg), source=source_for(game, copy_expunge))
        elif verb == "fetch":
            fetch(game, at=datetime.fromisoformat(arg), source=source_for(game, copy_expunge))
        else:
            print(f"crash_driver: unknown step {step!r}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
