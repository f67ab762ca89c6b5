"""admin/store/plain.py: plain data to typed state (``from_data``): a converter made once per type,
and the slow walk that names the path of a value that does not fit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from fixtures.games import new_state

from admin.engine.errors import StateError
from admin.engine.model import GameState
from admin.store.plain import _convert, from_data, to_data


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


@dataclass
class _Node:
    """A type that refers to itself, with every kind of annotation the state uses."""

    value: int | str
    weight: float = 1.0
    label: str | None = None
    flag: bool = False
    kids: list[_Node] = field(default_factory=list)
    by_square: dict[int, str] = field(default_factory=dict)
    extra: Any = None


def test_the_fast_converter_builds_what_the_slow_walk_builds():
    data = {"value": "7", "weight": 2, "kids": [{"value": 3, "label": "x", "flag": True,
                                                 "by_square": {"12": "alice", "-1": "bob"}, "extra": [1, {"a": None}]}]}
    fast = from_data(_Node, data)
    assert fast == _convert(_Node, data, "_Node")
    assert fast == _Node("7", 2.0, kids=[_Node(3, label="x", flag=True, by_square={12: "alice", -1: "bob"},
                                              extra=[1, {"a": None}])])
    assert isinstance(fast.weight, float) and isinstance(fast.kids[0].value, int)


def test_a_whole_game_state_reads_back_equal_through_both():
    state = new_state()
    data = to_data(state)
    fast = from_data(GameState, data)
    assert fast == _convert(GameState, data, "GameState")
    assert fast.players == state.players and fast.squares == state.squares  # (modules' state stays data here)


@pytest.mark.parametrize("data, error", [
    ({"value": 1, "kids": [{"value": 2, "flag": "yes"}]}, r"^here\.kids\[0\]\.flag: expected true or false, found 'yes'$"),
    ({"value": 1, "kids": [{"value": 2, "colour": "red"}]}, r"^here\.kids\[0\]: unknown field\(s\) colour; known: "),
    ({"value": 1.5}, r"^here\.value: 1\.5 matches none of int \| str$"),
    ({"value": 1, "by_square": {"x": "bob"}}, r"^here: expected text, found|^here\.by_square"),
    ({"kids": []}, r"^here: .*missing 1 required positional argument: 'value'"),
    ([1], r"^here: expected a mapping for _Node, found list$"),
])
def test_a_value_that_does_not_fit_is_named_by_its_path(data: Any, error: str):
    with pytest.raises(StateError, match=error):
        from_data(_Node, data, "here")


def test_to_data_makes_plain_data_of_dataclasses_tuples_and_keys():
    node = _Node(1, kids=[_Node("a", by_square={3: "bob"}, extra=(1, _Row("p", "gone")))], extra=_Node)
    assert to_data(node) == {
        "value": 1, "weight": 1.0, "label": None, "flag": False, "by_square": {}, "extra": _Node,
        "kids": [{"value": "a", "weight": 1.0, "label": None, "flag": False, "kids": [], "by_square": {"3": "bob"},
                  "extra": [1, {"name": "p", "status": "gone", "scores": {}}]}]}


def test_text_of_a_str_subclass_is_read_as_plain_text():
    class Shout(str):
        pass

    rows = from_data(list[_Row], [{"name": Shout("p0003"), "status": "gone"}])
    assert type(rows[0].name) is str and rows[0].name == "p0003"
