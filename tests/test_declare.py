"""Declared commands (admin/engine/declare.py): one declaration gives the dataclass, the parser, the
usage line and the HELP entry; the parser reads exactly what the pattern says."""

from __future__ import annotations

import dataclasses

import pytest

from admin.engine.commands import COMMAND_TYPES, command_from_dict, command_to_dict
from admin.engine.declare import SYNTAXES, Square, Text, command, handled
from admin.engine.errors import CommandError


def _noop(ctx, player, cmd):  # pragma: no cover - never carried out here
    return ""


@command("ZAP <target:player> [WITH <tool:HAMMER|BIG STICK>]", summary="zap someone", example="ZAP bob",
         rules=("X.1",), listing=7)
class DeclZap:
    target: str
    tool: str | None = None


@command("ZOOP TO <square> [times]", keyword="ZOOP")
@command("ZOOP ALL", keyword="ZOOP ALL", fixed={"square": 0})
class DeclZoop:
    square: Square
    times: int = 1


@command("ZING <words>", hint="write ZING and then anything")
class DeclZing:
    words: Text


def parser(cls, keyword):
    return next(s.spec for s in SYNTAXES[cls] if s.spec.keyword == keyword).parse


def test_a_declaration_makes_a_frozen_registered_dataclass_named_in_kebab_case():
    assert dataclasses.is_dataclass(DeclZap) and DeclZap.cmd == "decl-zap"
    assert COMMAND_TYPES["decl-zap"] is DeclZap
    with pytest.raises(dataclasses.FrozenInstanceError):
        DeclZap("bob").target = "carol"  # type: ignore[misc]
    assert command_from_dict(command_to_dict(DeclZap("bob", "big stick"))) == DeclZap("bob", "big stick")


def test_the_usage_line_is_the_pattern_as_players_read_it():
    (spec,) = handled((DeclZap, _noop))
    assert spec.usage == "ZAP <player> [WITH HAMMER|BIG STICK]"
    assert (spec.keyword, spec.summary, spec.example, spec.rules, spec.listing) == (
        "ZAP", "zap someone", "ZAP bob", ("X.1",), 7)


def test_words_choices_and_optional_parts_fill_the_fields():
    parse = parser(DeclZap, "ZAP")
    assert parse("Bob", None) == DeclZap("Bob")
    assert parse("bob with Big  Stick", None) == DeclZap("bob", "big stick")
    assert parse("bob WITH hammer", None) == DeclZap("bob", "hammer")


def test_a_line_that_does_not_fit_is_told_the_usage():
    parse = parser(DeclZap, "ZAP")
    for rest in ("", "bob carol", "bob with spoon", "bob with"):
        with pytest.raises(CommandError, match=r"^write ZAP <player> \[WITH HAMMER\|BIG STICK\]$"):
            parse(rest, None)


def test_a_field_reads_its_word_by_its_type():
    parse = parser(DeclZoop, "ZOOP")
    assert parse("to #14", None) == DeclZoop(14)
    assert parse("to square 3 2", None) == DeclZoop(3, 2)
    with pytest.raises(CommandError, match="is not a square"):
        parse("to fourteen", None)
    with pytest.raises(CommandError, match=r'"x" is not a whole number'):
        parse("to 3 x", None)
    with pytest.raises(CommandError, match="is not a whole number"):
        parse("to 3 1234567890", None)  # ten digits: never a flood of work


def test_stacked_declarations_share_one_dataclass_with_fixed_values():
    assert [s.spec.keyword for s in SYNTAXES[DeclZoop]] == ["ZOOP", "ZOOP ALL"]
    assert parser(DeclZoop, "ZOOP ALL")("", None) == DeclZoop(0)
    with pytest.raises(CommandError, match="^write ZOOP ALL$"):
        parser(DeclZoop, "ZOOP ALL")("now", None)


def test_text_takes_the_rest_of_the_line_as_written_and_the_hint_replaces_the_usage():
    parse = parser(DeclZing, "ZING")
    assert parse("Hello,  wide   world!", None) == DeclZing("Hello,  wide   world!")
    with pytest.raises(CommandError, match="^write ZING and then anything$"):
        parse("", None)


def test_a_pattern_naming_no_field_or_not_starting_with_its_keyword_is_refused_when_declared():
    with pytest.raises(ValueError, match="not a field"):
        @command("BLURB <nothing>")
        class DeclBad:
            something: str
    with pytest.raises(ValueError, match="does not start with its keyword"):
        @command("BLURB <something>", keyword="BLARB")
        class DeclBad2:
            something: str


def test_a_fixed_value_for_no_field_or_for_a_field_the_pattern_reads_is_refused_when_declared():
    """Else a player's line would fail only when the command was built from it."""
    with pytest.raises(ValueError, match="fixed=.'elsewhere'.*is not a field"):
        @command("BLOOP <square>", fixed={"elsewhere": 1})
        class DeclBloop:
            square: Square
    with pytest.raises(ValueError, match="fixed=.'square'.*is also read from the line"):
        @command("BLOOP <square> [times]", fixed={"square": 0})
        class DeclBloop2:
            square: Square
            times: int = 1
    with pytest.raises(ValueError, match="fixed=.'times'.*is also read from the line"):
        @command("BLOOP <square> [times]", fixed={"times": 2})  # a field in an optional part too
        class DeclBloop3:
            square: Square
            times: int = 1


def test_an_undeclared_class_cannot_be_handled():
    class Plain:
        pass
    with pytest.raises(ValueError, match="not a declared command"):
        handled((Plain, _noop))


@command("ZIP <square>", cmd="decl-zip-renamed")
@command("ZIP ALL", keyword="ZIP ALL", fixed={"square": 0})
class DeclZip:
    square: Square


def test_the_name_may_be_given_on_any_declaration_of_a_stack():
    assert DeclZip.cmd == "decl-zip-renamed" and COMMAND_TYPES["decl-zip-renamed"] is DeclZip
    assert "decl-zip" not in COMMAND_TYPES


def test_the_last_field_is_quoted_whole_when_its_words_do_not_read():
    with pytest.raises(CommandError, match=r'^"a b c d" is not a square'):
        parser(DeclZip, "ZIP")("a b c d", None)
    assert parser(DeclZip, "ZIP")("square #3", None) == DeclZip(3)


def test_a_word_matches_only_in_ascii_letters():
    """upper() turns the long s and the dotless i into ASCII; a pattern's word is not matched by them."""
    parse = parser(DeclZap, "ZAP")
    with pytest.raises(CommandError, match="^write ZAP"):
        parse("bob wıth hammer", None)
    with pytest.raises(CommandError, match="^write ZAP"):
        parse("bob with hammer\u017f", None)
    assert parse("bob with HAMMER", None) == DeclZap("bob", "hammer")


def test_a_default_name_another_command_has_waits_for_the_name_given_above_it():
    taken = type("DeclZap", (), {"__annotations__": {"target": "str"}, "__module__": __name__})
    named = command("ZAPPEST <target>", cmd="decl-zappest")(command("ZAPPEST ALL", keyword="ZAPPEST ALL",
                                                                     fixed={"target": "x"})(taken))
    assert named.cmd == "decl-zappest" and COMMAND_TYPES["decl-zap"] is DeclZap
    lone = type("DeclZap", (), {"__annotations__": {"target": "str"}, "__module__": __name__})
    command("ZAPPIEST <target>")(lone)
    with pytest.raises(ValueError, match="two command types are named 'decl-zap'"):
        handled((lone, _noop))


def test_a_subclass_of_a_declared_command_is_a_command_of_its_own():
    @command("ZAPMORE <target> <times>")
    class DeclZapMore(DeclZap):
        times: int = 1

    assert DeclZapMore.cmd == "decl-zap-more" and COMMAND_TYPES["decl-zap-more"] is DeclZapMore
    assert COMMAND_TYPES["decl-zap"] is DeclZap
    assert parser(DeclZapMore, "ZAPMORE")("bob 3", None) == DeclZapMore("bob", None, 3)


def test_a_pattern_may_have_one_field_that_takes_the_rest_of_the_line():
    """Two would try every way to split a line between them: the work a line causes stays linear."""
    with pytest.raises(ValueError, match="two fields that take the rest of the line"):
        @command("BLURT <a> TO <b>")
        class DeclBlurt:
            a: Text
            b: Text
