"""No line a player writes can make a command's parser fail other than by refusing the line: every
mechanic's every command, fed odd digits, odd letters and odd sizes, either reads the line or says
what is wrong with it (a CommandError), and the grammar keeps a parser's own fault to its line."""

from __future__ import annotations

import pytest

from admin.engine.commands import Status
from admin.engine.errors import CommandError
from admin.games.registry import REGISTRY
from admin.mail.inbound.grammar import library_grammar, parse_text
from admin.mail.inbound.message import BodyLine

#: digits int() refuses though str.isdigit() takes them (superscripts, circled), digits int() takes
#: from other scripts (Arabic-Indic, fullwidth), letters upper() turns into ASCII, signs, sizes
ODD = ["³", "²3", "①", "٣", "１２", "1³", "x³", "³ to bob", "to ³", "on ³", "for ³", "square ³", "#³",
       "ſ", "ı", "ﬀ", "-0", "+5", "1e3", "0x10", "1_000", "9" * 30, "$³", "³ ³ ³", "all ³", "³ yes",
       "bob for ³", "to bob for ³", "3 ³", "\x00", "\u202e3", "½", "Ⅻ", "𝟙𝟚"]


def _specs():
    seen = {}
    for module, spec in REGISTRY.all_commands():
        seen.setdefault((module.name, spec.keyword.upper()), spec)
    return sorted(seen.items())


@pytest.mark.parametrize(("key", "spec"), _specs(), ids=lambda v: "/".join(v) if isinstance(v, tuple) else "")
def test_a_parser_reads_an_odd_line_or_refuses_it(key, spec):
    line = BodyLine(1, spec.keyword)
    faults = []
    for odd in ODD:
        for rest in (odd, f"{spec.example.split(maxsplit=len(spec.keyword.split()))[-1]} {odd}"):
            try:
                spec.parse(rest, line, [BodyLine(2, odd)]) if spec.block else spec.parse(rest, line)
            except CommandError:
                pass
            except Exception as exc:  # noqa: BLE001 - what this test looks for
                faults.append(f"{spec.keyword} {rest!r}: {type(exc).__name__}: {exc}")
    assert faults == []


def test_a_parsers_fault_refuses_its_line_and_the_email_goes_on():
    def broken(rest, line):
        raise ValueError("a parser's own bug")

    grammar = library_grammar()
    grammar.register("ZZBROKEN", broken, None)
    try:
        first, second = parse_text("ZZBROKEN 3\nSTATUS", grammar)
    finally:
        grammar.unregister("ZZBROKEN")
    assert first.command is None and "could not be read (ValueError)" in first.error
    assert "HELP ZZBROKEN" in first.error
    assert isinstance(second.command, Status)
