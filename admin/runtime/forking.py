"""Run part of a job in a second process, on a machine with more than one CPU.

Once an update is saved, its site build and its mail-out are independent, and so are the pages of
a build. In a large game each of these is a second or so of pure Python, which one process runs on
one CPU whatever the machine has. :func:`start` runs a function in a forked child while the caller
goes on with other work, and :meth:`Child.result` waits for the child and returns what the
function returned (or raises what it raised), as if it had been called in place.

A forked child starts with a copy of the caller's memory (the game's state, the site's data), so
nothing is pickled on the way in: only the result comes back, through a pipe. Each side writes its
own files; nothing the two share is written by both. The result is the same whichever finishes
first, so a job stays deterministic.

Forking is skipped (``start`` returns None and the caller does the work itself) when the machine
has one CPU, where ``fork`` does not exist, and when ``NOMOPOLY_WORKERS=1`` is set in the
environment (``NOMOPOLY_WORKERS=N`` caps the processes a job uses; unset, the CPUs this process may
run on).
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from multiprocessing.connection import Connection
from typing import Any, Callable, Generic, TypeVar

from admin.engine.errors import NomopolyError

T = TypeVar("T")

ENV = "NOMOPOLY_WORKERS"


class WorkerError(NomopolyError):
    """The forked part of a job failed in a way that could not be carried back as it was."""


def workers() -> int:
    """How many processes a job may use: ``NOMOPOLY_WORKERS``, else the CPUs this process may
    run on (1 where ``fork`` does not exist)."""
    if not hasattr(os, "fork"):
        return 1
    told = os.environ.get(ENV, "").strip()
    if told:
        if not told.isdecimal() or int(told) < 1:
            raise NomopolyError(f"{ENV}={told!r}: not a number of processes; set it to 1 (no second "
                                "process) or more, or unset it to use every CPU")
        return int(told)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Child(Generic[T]):
    """A function running in a forked child; :meth:`result` waits for it."""

    def __init__(self, process: Any, pipe: Connection, what: str) -> None:
        self._process, self._pipe, self._what = process, pipe, what

    def result(self) -> T:
        """What the function returned; what it raised is raised here."""
        try:
            try:
                status, value = self._pipe.recv()
            except EOFError:  # it died before it could answer (killed, out of memory)
                self._process.join()
                raise WorkerError(f"the second process doing {self._what} stopped (exit code "
                                  f"{self._process.exitcode}) before it finished; run the command "
                                  f"again, or set {ENV}=1 to do everything in one process") from None
        finally:
            self._pipe.close()
        self._process.join()
        if status == "error":
            raise value
        result: T = value
        return result


def start(fn: Callable[[], T], what: str) -> Child[T] | None:
    """Start ``fn()`` in a forked child; None when this job should not fork (see the module
    docstring), and then the caller calls ``fn`` itself. ``what`` names the work in an error."""
    if workers() < 2:
        return None
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_run, args=(fn, send), name=f"nomopoly: {what}", daemon=True)
    process.start()  # flushes stdout and stderr first, so nothing buffered is written twice
    send.close()
    return Child(process, receive, what)


def _run(fn: Callable[[], Any], send: Connection) -> None:
    """In the child: call ``fn`` and send back ("ok", result) or ("error", exception)."""
    try:
        answer: tuple[str, Any] = ("ok", fn())
    except BaseException as exc:  # carried back, raised in the parent
        answer = ("error", exc)
    try:
        send.send(answer)
    except Exception:  # an exception or result that cannot be pickled: its text instead
        detail = "".join(traceback.format_exception(answer[1])) if answer[0] == "error" else repr(answer[1])
        send.send(("error", WorkerError(f"the second process could not send back its answer: {detail}")))
    finally:
        send.close()
