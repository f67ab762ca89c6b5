"""Named points where a test may kill this process with a real SIGKILL (tests/test_crash.py).

``NOMOPOLY_CRASH_AT=name`` kills the process the first time :func:`crashpoint` is called with
``name``; ``name#3`` kills it at the third call. ``NOMOPOLY_CRASH_TRACE=file`` appends the name of
every point passed to ``file`` (how the test learns where it can kill). Both unset (always, outside
that test), a call costs one environment lookup and does nothing.
"""

from __future__ import annotations

import os
import signal

_counts: dict[str, int] = {}


def crashpoint(name: str) -> None:
    wanted = os.environ.get("NOMOPOLY_CRASH_AT")
    if wanted and (wanted == name or wanted.startswith(name + "#")):
        _counts[name] = _counts.get(name, 0) + 1
        if wanted == name or wanted == f"{name}#{_counts[name]}":
            os.kill(os.getpid(), signal.SIGKILL)
    trace = os.environ.get("NOMOPOLY_CRASH_TRACE")
    if trace:
        with open(trace, "a", encoding="utf-8") as fh:
            fh.write(name + "\n")


def reset() -> None:
    """Forget the calls counted so far (a driver running several jobs in one process)."""
    _counts.clear()
