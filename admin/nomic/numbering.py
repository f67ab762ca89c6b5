"""Rule ids and section numerals: ``VI`` <-> 6, ``VI.11`` split and checked, the anchor a rule has
on the site, and the file a section goes in (``06-the-board.md``)."""

from __future__ import annotations

import re

from admin.engine.errors import RuleError

_NUMERALS: tuple[tuple[int, str], ...] = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)
ROMAN = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")

#: A rule id as written in files and citations: ``VI.11`` (no leading zeros).
RULE_ID = re.compile(r"^([IVXLCDM]+)\.([1-9][0-9]*)$")


def roman(n: int) -> str:
    """``6`` -> ``"VI"``; for section numerals, 1 to 3999."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError(f"cannot write {n!r} as a roman numeral; expected a whole number from 1 to 3999")
    out = []
    for value, letters in _NUMERALS:
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def from_roman(s: str) -> int:
    """``"VI"`` -> ``6``. Only canonical upper-case numerals (``IV``, not ``IIII``) are accepted."""
    if not s or not ROMAN.match(s):
        raise RuleError(
            f"{s!r} is not a section numeral; expected an upper-case roman numeral such as 'VI' or 'XIV'"
        )
    total = 0
    rest = s
    for value, letters in _NUMERALS:
        while rest.startswith(letters):
            total += value
            rest = rest[len(letters):]
    return total


def split_rule_id(rule_id: str) -> tuple[str, int]:
    """``"VI.11"`` -> ``("VI", 11)``, or RuleError quoting the input."""
    m = RULE_ID.match(rule_id)
    if not m or not ROMAN.match(m.group(1)):
        raise RuleError(
            f"{rule_id!r} is not a rule id; expected a section numeral, a dot and a rule number, like 'VI.11'"
        )
    return m.group(1), int(m.group(2))


def rule_anchor(rule_id: str) -> str:
    """The HTML anchor of a rule: ``"VI.11"`` -> ``"rule-VI-11"``."""
    numeral, number = split_rule_id(rule_id)
    return f"rule-{numeral}-{number}"


def slugify(title: str) -> str:
    """``"The Admin Bank Account"`` -> ``"the-admin-bank-account"``."""
    slug = "-".join(re.findall(r"[a-z0-9]+", title.lower()))
    if not slug:
        raise RuleError(f"section title {title!r} has no letters or digits to name its file by")
    return slug


def section_filename(numeral: str, title: str) -> str:
    """The file a new section goes in: ``("VI", "The Board")`` -> ``"06-the-board.md"``."""
    return f"{from_roman(numeral):02d}-{slugify(title)}.md"


def ranges(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted numbers as runs: ``[1, 2, 3, 5]`` -> ``[(1, 3), (5, 5)]``."""
    out: list[tuple[int, int]] = []
    for n in numbers:
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def describe(numeral: str, numbers: list[int]) -> str:
    """``("VI", [1, 2, 3, 5])`` -> ``"VI.1–VI.3, VI.5"``."""
    parts = []
    for low, high in ranges(numbers):
        parts.append(f"{numeral}.{low}" if low == high else f"{numeral}.{low}–{numeral}.{high}")
    return ", ".join(parts)
