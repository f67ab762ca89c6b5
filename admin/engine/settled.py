"""Settled items: the first items of a list that are never changed again (settled disputes,
closed interactions), pickled once as one blob and shared by copies.

XXII.4's snapshot (admin/engine/update.py) pickles the whole state before every action of an
update, and the copy an update starts from is a deepcopy of it. Items that are final by the rules
need neither: a state keeps, beside the list, the settled items it pickled last time and their
pickle, and takes the blob again while they are still the list's first items (a list comparison,
in C, that takes the same objects as equal at once), looking only at the items after them.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: the key, in the owning state's ``__dict__``, of its settled items and their pickle
KEY = "_settled"


def settled(owner: Any, items: list[T], final: Callable[[T], bool]) -> tuple[list[T], bytes]:
    """The first ``items`` that are ``final`` and their pickle, kept in ``owner`` for next time."""
    cached: tuple[list[T], bytes] | None = owner.__dict__.get(KEY)
    known = len(cached[0]) if cached is not None else 0
    if cached is None or not known or len(items) < known or items[:known] != cached[0]:
        known, cached = 0, None
    done = known
    for item in items[known:]:
        if not final(item):
            break
        done += 1
    if cached is None or done != known:
        cached = owner.__dict__[KEY] = (items[:done], pickle.dumps(items[:done], pickle.HIGHEST_PROTOCOL))
    return cached


def keep(owner: Any, items: list[T], blob: bytes) -> None:
    """Record in ``owner`` (a copy, or a state just unpickled) its settled items and their pickle."""
    owner.__dict__[KEY] = (items, blob)


def unpickled(blob: bytes) -> list[Any]:
    """The settled items of a blob made by :func:`settled`."""
    items: list[Any] = pickle.loads(blob)
    return items
