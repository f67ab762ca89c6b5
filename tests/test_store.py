"""admin/store.py: plain data to typed state (``from_data``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from admin.store import from_data


@dataclass
class _Row:
    name: str
    status: Literal["active", "gone"]
    scores: dict[str, int] = field(default_factory=dict)


def _fresh(text: str) -> str:
    """An equal text that is a new object (as a parser makes one for each occurrence)."""
    return "".join(list(text))


def test_equal_texts_read_from_data_are_one_object():
    rows = from_data(list[_Row], [{"name": _fresh("p0001"), "status": _fresh("active"),
                                   "scores": {_fresh("p0002"): 1}},
                                  {"name": _fresh("p0002"), "status": _fresh("active"),
                                   "scores": {_fresh("p0001"): 2}}])
    assert rows[0].status is rows[1].status
    assert rows[0].name is next(iter(rows[1].scores)) and rows[1].name is next(iter(rows[0].scores))
    assert rows == [_Row("p0001", "active", {"p0002": 1}), _Row("p0002", "active", {"p0001": 2})]
