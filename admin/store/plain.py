"""Dataclasses to plain data (dicts, lists, scalars) and back, checking types against the
annotations, so that a hand-edited file with a wrong shape fails with the file, the field path
and what was expected.

:func:`from_data` reads a whole game's state every update (66,000 values in a large game). It
runs a converter made once per type (:func:`_converter`: what to check and build for each field,
decided from the annotations once instead of for every value); the first value that does not fit
sends the whole conversion to :func:`_convert`, which walks the data keeping the path, for the
error message.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from admin.engine.errors import StateError

T = TypeVar("T")


_SCALAR = (str, int, float, bool, type(None))
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names, looked up once per class (None: not a dataclass)."""
    try:
        return _FIELDS[cls]
    except KeyError:
        names = tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else None
        _FIELDS[cls] = names
        return names


def to_data(obj: Any) -> Any:
    """A dataclass tree as plain dicts/lists/scalars (None-valued fields are kept)."""
    if isinstance(obj, _SCALAR):
        return obj
    if isinstance(obj, dict):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    names = _field_names(type(obj))
    if names is not None:
        return {n: to_data(getattr(obj, n)) for n in names}
    return obj


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = get_type_hints(cls)
    return _HINTS[cls]


def from_data(cls: type[T], data: Any, where: str = "") -> T:
    """Build ``cls`` from plain data, checking every field; errors say where and what.

    Text read into a field typed ``str`` (or a Literal, or a ``str`` key) is interned: a large
    game's state holds the same few hundred names and statuses thousands of times ("active", a
    player's name in every module), and one object for each value makes the state smaller and
    XXII.4's snapshot (a pickle of the state before every action, admin/engine/update.py), which
    writes a text it has met already as a reference to it, a third cheaper."""
    made: T
    try:
        made = _converter(cls)(data)  # type: ignore[arg-type]  # a class is hashable
    except _Mismatch:  # somewhere a value does not fit: find where, and say so
        made = _convert(cls, data, where or cls.__name__)
    return made


# -- the converters, made once per type ----------------------------------------------------------
class _Mismatch(Exception):
    """A value that does not fit its annotation (:func:`_convert` then says where and why)."""


def _same(data: Any) -> Any:
    return data


@functools.cache
def _converter(tp: Any) -> Callable[[Any], Any]:
    """What :func:`_convert` does for ``tp``, without the path: raises :class:`_Mismatch` where
    :func:`_convert` raises a StateError."""
    origin = get_origin(tp)
    if tp is Any:
        return _same
    if origin in (Union, types.UnionType):
        return _union([_converter(o) for o in get_args(tp) if o is not type(None)], type(None) in get_args(tp))
    if origin is Literal:
        allowed = get_args(tp)

        def literal(data: Any) -> Any:
            if data not in allowed:
                raise _Mismatch
            return _interned(data) if isinstance(data, str) else data
        return literal
    if origin is list:
        item = _converter((get_args(tp) or (Any,))[0])

        def listed(data: Any) -> Any:
            if not isinstance(data, list):
                raise _Mismatch
            return list(data) if item is _same else [item(v) for v in data]
        return listed
    if origin is dict:
        key_t, val_t = get_args(tp) or (Any, Any)
        key, value = _key(key_t), _converter(val_t)

        def mapping(data: Any) -> Any:
            if not isinstance(data, dict):
                raise _Mismatch
            return {key(k): value(v) for k, v in data.items()}
        return mapping
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _record(tp)
    if tp in _SCALARS:
        return _SCALARS[tp]
    if isinstance(tp, typing.ForwardRef):  # pragma: no cover - hints are resolved
        raise StateError(f"unresolved type {tp}")
    return _same


def _union(options: list[Callable[[Any], Any]], optional: bool) -> Callable[[Any], Any]:
    def union(data: Any) -> Any:
        if data is None and optional:
            return None
        for option in options:
            try:
                return option(data)
            except _Mismatch:
                continue
        raise _Mismatch
    return union


def _key(key_t: Any) -> Callable[[Any], Any]:
    """A mapping's key: to_data writes every key as text, so an int key comes back here."""
    convert = _converter(key_t)
    if key_t is not int:
        return convert

    def int_key(k: Any) -> Any:
        if isinstance(k, str) and k.lstrip("-").isdecimal():
            return int(k)
        return convert(k)
    return int_key


def _record(tp: type) -> Callable[[Any], Any]:
    """A dataclass: every key a known field, each value converted by its field's converter."""
    fields: dict[str, Callable[[Any], Any]] = {}

    def record(data: Any) -> Any:
        if not fields:  # the hints are resolved on first use (a class may refer to a later one)
            hints = _hints(tp)
            fields.update({f.name: _converter(hints[f.name]) for f in dataclasses.fields(tp) if f.init})
        if not isinstance(data, dict) or not fields.keys() >= data.keys():
            raise _Mismatch
        try:
            return tp(**{k: fields[k](v) for k, v in data.items()})
        except TypeError:  # a required field missing
            raise _Mismatch from None
    return record


def _interned(text: str) -> str:
    """One object for each text value (a str subclass, such as markup, is made plain text first:
    only plain text can be interned)."""
    return sys.intern(text if type(text) is str else str.__str__(text))


def _text(data: Any) -> Any:
    if not isinstance(data, str):
        raise _Mismatch
    return _interned(data)


def _whole(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, int):
        raise _Mismatch
    return data


def _truth(data: Any) -> Any:
    if not isinstance(data, bool):
        raise _Mismatch
    return data


def _number(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise _Mismatch
    return float(data)


_SCALARS: dict[Any, Callable[[Any], Any]] = {str: _text, int: _whole, bool: _truth, float: _number}


# -- the slow walk, for the error message ----------------------------------------------------------
def _convert(tp: Any, data: Any, where: str) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, data, where)
            except StateError as exc:
                errors.append(str(exc))
        raise StateError(errors[0] if len(errors) == 1 else f"{where}: {data!r} matches none of {tp}")
    if origin is Literal:
        if data not in get_args(tp):
            allowed = ", ".join(repr(a) for a in get_args(tp))
            raise StateError(f"{where}: {data!r} is not one of {allowed}")
        return _interned(data) if isinstance(data, str) else data
    if origin is list:
        if not isinstance(data, list):
            raise StateError(f"{where}: expected a list, found {type(data).__name__}")
        (item,) = get_args(tp) or (Any,)
        return [_convert(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
    if origin is dict:
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected a mapping, found {type(data).__name__}")
        key_t, val_t = get_args(tp) or (Any, Any)

        def key(k: Any) -> Any:  # to_data writes every key as text; int keys come back here
            if key_t is int and isinstance(k, str) and k.lstrip("-").isdecimal():
                return int(k)
            return _convert(key_t, k, where)

        return {key(k): _convert(val_t, v, f"{where}.{k}") for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected a mapping for {tp.__name__}, found {type(data).__name__}")
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp) if f.init}
        unknown = set(data) - names
        if unknown:
            raise StateError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}; "
                             f"known: {', '.join(sorted(names))}")
        kwargs = {k: _convert(hints[k], v, f"{where}.{k}") for k, v in data.items()}
        try:
            return tp(**kwargs)
        except TypeError as exc:
            raise StateError(f"{where}: {exc}") from None
    if tp is bool:
        if not isinstance(data, bool):
            raise StateError(f"{where}: expected true or false, found {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise StateError(f"{where}: expected a whole number, found {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise StateError(f"{where}: expected a number, found {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise StateError(f"{where}: expected text, found {data!r}")
        return _interned(data)
    if isinstance(tp, typing.ForwardRef):  # pragma: no cover - hints are resolved above
        raise StateError(f"{where}: unresolved type {tp}")
    return data
