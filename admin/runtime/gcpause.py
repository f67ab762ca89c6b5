"""Keep Python's cyclic garbage collector out of the way of a job that builds a whole game.

An update holds a large state (tens of thousands of objects) and makes hundreds of thousands more
(events, pages, messages) that live until it ends. The collector counts allocations, and every few
thousand it walks the young objects, now and then all of them: in the large benchmark game that
was 650 young and 5 full passes, 0.3-0.5 s of a 3 s update, finding next to nothing to free
(almost everything is freed by reference counting the moment it is dropped).

:func:`few_collections` switches the automatic collector off while the job runs and back on
after it (it nests: only the outermost call switches it back). Nothing is collected by force:
whatever cyclic garbage the job left is collected later, as it would have been. Peak memory of
one update stays what it was (the benchmark's ``peak memory`` figure).
"""

from __future__ import annotations

import functools
import gc
from typing import Callable, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_depth = 0


def few_collections(job: Callable[P, R]) -> Callable[P, R]:
    """Run ``job`` with the automatic collector off (see the module docstring)."""

    @functools.wraps(job)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        global _depth
        was_on = gc.isenabled()
        _depth += 1
        gc.disable()
        try:
            return job(*args, **kwargs)
        finally:
            _depth -= 1
            if was_on and _depth == 0:
                gc.enable()

    return run
