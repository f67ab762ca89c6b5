"""Every parameter a mechanic declares has a type and bounds, and every value is checked against
them wherever it comes from: a proposal's ``SET`` or ``ENABLE``, ``nomopoly ruling set``, a game's
``game.yaml``, a scenario's ``params:``. The bounds keep an update's work bounded whatever value a
proposal sets, so an accepted proposal can change the game but never stop it.

The type is the default's: true/false, a whole number, text, a list or a mapping. A whole number is
written in ASCII digits (``"²"`` is not a number here) and lies between the mechanic's ``minimums``
(0 when the default is not negative) and its ``maximums`` (:data:`MAX_INT` when it names none: a
parameter that counts work, moves or dice names a small one). Text and lists and mappings are
plain data of bounded size; a mechanic checks the inside of its own lists and mappings with
``validators`` (dice such as ``2d6``: :func:`check_dice_map`)."""

from __future__ import annotations

import re
from typing import Any, Callable

from admin.engine.errors import RuleError

#: the largest whole number any parameter may hold unless its mechanic says less
MAX_INT = 1_000_000_000
#: the longest text a parameter may hold, and the most items a list or mapping parameter may hold
MAX_TEXT = 200
MAX_ITEMS = 2000
MAX_DEPTH = 4
#: dice a parameter may name: at most this many dice of at most this many sides
MAX_DICE = 10
MAX_SIDES = 1000

_WHOLE = re.compile(r"-?[0-9]{1,12}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
_DICE = re.compile(r"([0-9]{0,3})d([0-9]{0,5})")

Validator = Callable[[Any], None]


def whole_number(value: Any) -> int | None:
    """``value`` as a whole number if it is one (an int, or text of ASCII digits), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip())
    return None


def check_param(mechanic: Any, module: str, key: str, value: Any) -> Any:
    """``value`` as ``module.key`` stores it, or :class:`RuleError` saying what would be valid."""
    defaults = mechanic.defaults
    if key not in defaults:
        raise RuleError(f"the {module} module has no parameter {key!r}; its parameters: "
                        f"{', '.join(sorted(defaults)) or 'none'}")
    default = defaults[key]
    name = f"{module}.{key}"
    allowed = getattr(mechanic, "choices", {}).get(key)
    if allowed is not None:
        if str(value) not in allowed:
            raise RuleError(f"{name} is one of {', '.join(allowed)}, not {_shown(value)}")
        return str(value)
    if isinstance(default, bool):
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "on", "off"):
            return value.lower() in ("true", "yes", "on")
        if not isinstance(value, bool):
            raise RuleError(f"{name} is true or false, not {_shown(value)}")
        return value
    if isinstance(default, int):
        number = whole_number(value)
        if number is None:
            raise RuleError(f"{name} is a whole number in digits (like {default}), not {_shown(value)}")
        least = getattr(mechanic, "minimums", {}).get(key, 0 if default >= 0 else -MAX_INT)
        most = getattr(mechanic, "maximums", {}).get(key, MAX_INT)
        if not least <= number <= most:
            raise RuleError(f"{name} is a whole number from {least:,} to {most:,}, not {_shown(value)}")
        return number
    if isinstance(default, str):
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            raise RuleError(f"{name} is text, not {_shown(value)}")
        check_plain(str(value), name)
        return str(value)
    if isinstance(default, (dict, list)):
        if not isinstance(value, type(default)):
            kind = "a mapping (like {a: 1})" if isinstance(default, dict) else "a list (like [1, 2])"
            raise RuleError(f"{name} is {kind}, not {_shown(value)}")
        check_plain(value, name)
    elif default is None:
        check_plain(value, name)
    validator = getattr(mechanic, "validators", {}).get(key)
    if validator is not None:
        try:
            validator(value)
        except RuleError as exc:
            raise RuleError(f"{name}: {exc}") from None
    return value


def check_plain(value: Any, name: str) -> None:
    """Plain data of bounded size: text without control characters, whole numbers within
    :data:`MAX_INT`, true/false, nothing, and lists and mappings of these, at most
    :data:`MAX_ITEMS` items in all and :data:`MAX_DEPTH` deep."""
    count = [0]

    def walk(v: Any, depth: int) -> None:
        count[0] += 1
        if count[0] > MAX_ITEMS:
            raise RuleError(f"{name} holds more than {MAX_ITEMS} items")
        if depth > MAX_DEPTH:
            raise RuleError(f"{name} is nested more than {MAX_DEPTH} deep")
        if v is None or isinstance(v, bool):
            return
        if isinstance(v, int):
            if abs(v) > MAX_INT:
                raise RuleError(f"{name} holds {_shown(v)}, beyond {MAX_INT:,}")
            return
        if isinstance(v, str):
            if len(v) > MAX_TEXT or _CONTROL.search(v):
                raise RuleError(f"{name} holds text of over {MAX_TEXT} characters or with control characters")
            return
        if isinstance(v, list):
            for item in v:
                walk(item, depth + 1)
            return
        if isinstance(v, dict):
            for k, item in v.items():
                if not isinstance(k, (str, int)) or isinstance(k, bool):
                    raise RuleError(f"{name} has a key {_shown(k)} that is neither text nor a number")
                walk(k, depth + 1)
                walk(item, depth + 1)
            return
        raise RuleError(f"{name} holds {_shown(v)}, which is not plain data")

    walk(value, 0)


def check_dice(spec: Any) -> None:
    """Dice written ``NdS`` (``2d6``; ``d10`` is one die): at most :data:`MAX_DICE` dice of at
    most :data:`MAX_SIDES` sides, each with at least two sides."""
    m = _DICE.fullmatch(str(spec).strip().lower()) if isinstance(spec, str) else None
    if m is None:
        raise RuleError(f"dice are written like 2d6, not {_shown(spec)}")
    count, sides = int(m.group(1) or 1), int(m.group(2) or 6)
    if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES:
        raise RuleError(f"dice are 1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides, not {_shown(spec)}")


def check_dice_map(value: Any) -> None:
    """A mapping from a name (a means of transport) to its dice."""
    if not isinstance(value, dict) or not value:
        raise RuleError("name at least one set of dice, like {foot: 2d6}")
    for dice in value.values():
        check_dice(dice)


def check_whole_numbers(least: int, most: int, *, pairs: bool = False) -> Validator:
    """A list of whole numbers from ``least`` to ``most`` (``pairs``: of two-number lists)."""
    def check(value: Any) -> None:
        items = [n for pair in value for n in (pair if isinstance(pair, list) else [None])] if pairs else value
        if pairs and any(not isinstance(p, list) or len(p) != 2 for p in value):
            raise RuleError("each item is a pair of whole numbers, like [5, 2]")
        for n in items:
            if (whole := whole_number(n)) is None or not least <= whole <= most:
                raise RuleError(f"each number is from {least:,} to {most:,}, not {_shown(n)}")
    return check


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
