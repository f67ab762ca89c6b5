"""Run one prepared update (or ``replay --check``) in a fresh process and report its own peak RSS.

    python -m bench.child update GAME HOST PORT USER UPDATE CUTOFF EMAILS
    python -m bench.child replay GAME

The last line printed is ``peak_kb N``: VmHWM from /proc/self/status, the high-water mark of this
process's own memory. (``ru_maxrss`` of a child is no good here: Linux carries the parent's RSS at
exec time into it, so a child of a big benchmark process reports the parent's size.)
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from admin.jobs import update as jobs
from admin.store.gamedir import GameDir
from bench.pipeline import Prepared, run_update


class _Server:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port


def peak_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return -1


def main(argv: list[str]) -> int:
    if argv[0] == "replay":
        problems = jobs.replay_check(GameDir(Path(argv[1])))
        if problems:
            print("\n".join(problems), file=sys.stderr)
            return 1
    else:
        game, host, port, user, update, cutoff, emails = argv[1:]
        p = Prepared(GameDir(Path(game)), user, "", int(update), datetime.fromisoformat(cutoff), int(emails))
        run_update(p, _Server(host, int(port)))  # type: ignore[arg-type]
    print(f"peak_kb {peak_kb()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
