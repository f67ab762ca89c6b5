"""The command grammar: every command line gets exactly one verdict, good or bad."""

from __future__ import annotations

from typing import Sequence

import pytest

from admin.engine.commands import Command, Join, Status, Token, command_to_dict
from admin.engine.errors import CommandError
from admin.mail.inbound.grammar import (
    LineVerdict,
    parse_lines,
    parse_text,
    quote,
    register,
    register_block,
    unregister,
    valid_commands,
)
from admin.mail.inbound.message import BodyLine
from admin.library.cards import Bury, Place
from admin.library.ownership import Buy, Name
from admin.nomic.proposals import Propose, Vote

# Rule modules may register more commands after these; the built-ins always come first.
BUILT_IN = ("BUY [square], NAME <square> <name>, PLACE <card> ON <square>, BURY <card>, "
            "PROPOSE [title] ... END, VOTE <proposal> YES|NO|ABSTAIN, STATUS, JOIN <name>, "
            "TOKEN <secret>")


def one(text: str) -> LineVerdict:
    verdicts = parse_text(text)
    assert len(verdicts) == 1, verdicts
    return verdicts[0]


def command(text: str) -> Command:
    verdict = one(text)
    assert verdict.error is None, verdict.error
    assert verdict.command is not None
    return verdict.command


def error(text: str) -> str:
    verdict = one(text)
    assert verdict.command is None, verdict.command
    assert verdict.error is not None
    return verdict.error


@pytest.mark.parametrize("text, expected", [
    ("BUY", Buy(None)),
    ("buy", Buy(None)),
    ("BUY 14", Buy(14)),
    ("Buy #14", Buy(14)),
    ("BUY square 14", Buy(14)),
    ("BUY sq 14", Buy(14)),
    ("BUY Square #14", Buy(14)),
    ("  BUY   14  ", Buy(14)),
    ("NAME 14 Boardwalk", Name(14, "Boardwalk")),
    ("name #3 the  Old Kent Road ", Name(3, "the  Old Kent Road")),
    ("NAME square 9 Fish & Chips", Name(9, "Fish & Chips")),
    ("NAME 14 " + "x" * 100, Name(14, "x" * 100)),
    ("PLACE AS ON 14", Place("AS", 14)),
    ("place 10h on square 3", Place("10H", 3)),
    ("PLACE 1s On #2", Place("AS", 2)),
    ("BURY KD", Bury("KD")),
    ("bury qc", Bury("QC")),
    ("VOTE 7 YES", Vote(7, "yes")),
    ("vote #7 no", Vote(7, "no")),
    ("VOTE P7 Abstain", Vote(7, "abstain")),
    ("VOTE proposal 7 yes", Vote(7, "yes")),
    ("VOTE Proposal #12 NO", Vote(12, "no")),
    ("STATUS", Status()),
    ("status", Status()),
    ("JOIN Ada Lovelace", Join("Ada Lovelace")),
    ("TOKEN 7f3a9c", Token("7f3a9c")),
])
def test_valid_lines_become_typed_commands(text: str, expected: Command) -> None:
    assert command(text) == expected


def test_unknown_words_are_quoted_and_the_valid_commands_listed() -> None:
    message = error("HI Admin,")  # a first word in capitals: meant as a command
    assert message.startswith(f'"HI Admin," is not a command. Valid commands: {BUILT_IN}')
    assert message == f'"HI Admin," is not a command. Valid commands: {valid_commands()}.'


def test_valid_commands_lists_usages_in_registration_order() -> None:
    assert valid_commands().startswith(BUILT_IN)


def test_a_misspelt_keyword_gets_a_suggestion() -> None:
    assert 'Did you mean BUY?' in error("BYU 14")
    assert 'Did you mean STATUS?' in error("statsu")
    assert "Did you mean" not in error("Thanks")


@pytest.mark.parametrize("text, message", [
    ("PLACE 5X ON 3",
     '"PLACE 5X ON 3": "5X" is not a card; write a card as rank and suit, like AS, 10H or KD.'),
    ("PLACE AS ON 0", '"PLACE AS ON 0": "0" is not a square; squares are numbered from 1.'),
    ("PLACE AS 14", '"PLACE AS 14": PLACE needs a card and a square'),
    ("PLACE ZZ 14", '"PLACE ZZ 14": "ZZ" is not a card'),
    ("BUY fourteen", '"BUY fourteen": "fourteen" is not a square; write a square as its number'),
    ("BUY 99999999999999999999", 'is not a square'),
    ("NAME", '"NAME": NAME needs a square and a name, like NAME 14 Boardwalk.'),
    ("NAME 14", '"NAME 14": the name is missing'),
    ("NAME Boardwalk 14", '"Boardwalk" is not a square'),
    ("NAME 14 " + "x" * 101, "the name is 101 characters long; at most 100 are allowed."),
    ("BURY", "BURY needs a card, like BURY AS."),
    ("BURY 11H", '"11H" is not a card'),
    ("VOTE 7", "VOTE needs a proposal number and YES, NO or ABSTAIN, like VOTE 7 YES."),
    ("VOTE 7 maybe", '"maybe" is not a vote; write YES, NO or ABSTAIN.'),
    ("VOTE 7 Y", '"Y" is not a vote'),
    ("VOTE yes 7", "write the proposal first, then the vote, like VOTE 7 YES."),
    ("VOTE seven yes", '"seven" is not a proposal number; write it like 7, #7 or P7.'),
    ("VOTE 0 yes", "proposals are numbered from 1"),
    ("vote 1 yes please", '"please" after the vote is not part of it; write just VOTE 1 YES.'),
    ("VOTE 1 no thank you", '"thank you" after the vote is not part of it; write just VOTE 1 NO.'),
    ("STATUS please", '"STATUS please": STATUS takes nothing after it; write STATUS alone.'),
    ("JOIN", "your name is missing; write it like JOIN Ada Lovelace."),
    ("TOKEN", "TOKEN needs your secret token"),
    ("END", "END closes a proposal text, but no PROPOSE line came before it."),
])
def test_known_keywords_with_bad_arguments_get_a_specific_error(text: str, message: str) -> None:
    assert message in error(text)


def test_errors_quote_the_line_and_cap_the_quote_at_80_characters() -> None:
    long = "HELLO " + "a" * 200
    message = error(long)
    quoted = message.split('"')[1]
    assert len(quoted) == 80 and quoted.endswith("…")
    assert quoted.startswith("HELLO aaa")


def test_quote_leaves_short_text_alone_and_collapses_whitespace() -> None:
    assert quote("BUY  14\t") == '"BUY 14"'
    assert quote("x" * 80) == '"' + "x" * 80 + '"'
    assert quote("x" * 81) == '"' + "x" * 79 + '…"'


def test_blank_lines_and_comments_get_no_verdict() -> None:
    assert parse_text("\n   \n# a comment\n  # indented comment\n") == []


def test_every_other_line_gets_exactly_one_verdict_and_a_bad_line_affects_no_other() -> None:
    verdicts = parse_text("BUY 14\nnonsense here\n\nVOTE 7 yes\nPLACE 5X ON 3\nSTATUS\n")
    assert [v.first_line for v in verdicts] == [1, 2, 4, 5, 6]
    assert [v.command for v in verdicts] == [Buy(14), None, Vote(7, "yes"), None, Status()]
    assert all((v.command is None) == (v.error is not None) for v in verdicts)


def test_verdict_text_is_the_stripped_source_line() -> None:
    verdict = one("   vote #7   YES   ")
    assert verdict.text == "vote #7   YES"
    assert (verdict.first_line, verdict.last_line) == (1, 1)


def test_a_token_is_never_repeated_in_the_verdict_text_or_error() -> None:
    assert one("TOKEN s3cret").text == "TOKEN <redacted>"
    message = error("TOKEN s3cret and more")
    assert "s3cret" not in message
    assert "one word" in message
    assert command_to_dict(command("TOKEN s3cret")) == {"cmd": "token", "secret": "<redacted>"}


def test_parse_lines_keeps_the_given_line_numbers() -> None:
    verdicts = parse_lines([BodyLine(0, "STATUS"), BodyLine(7, "BUY"), BodyLine(9, "oops")])
    assert [(v.first_line, v.last_line) for v in verdicts] == [(0, 0), (7, 7), (9, 9)]


def test_parse_text_numbers_lines_from_one_across_crlf_and_cr() -> None:
    verdicts = parse_text("BUY\r\nSTATUS\rVOTE 7 no")
    assert [v.first_line for v in verdicts] == [1, 2, 3]


# ---------------------------------------------------------------- PROPOSE blocks


def test_propose_block_keeps_line_breaks_and_takes_its_title() -> None:
    verdict = one("PROPOSE Rent doubles\nRent doubles\n\n  on a monopoly.\n\n\nEND")
    assert verdict.command == Propose("Rent doubles", "Rent doubles\n\n  on a monopoly.")
    assert (verdict.first_line, verdict.last_line) == (1, 7)
    assert verdict.text == "PROPOSE Rent doubles"


def test_propose_title_defaults_to_the_first_line_of_text_cut_at_100_characters() -> None:
    first = "A" * 150
    verdict = one(f"propose\n\n{first}\nsecond line\nend")
    assert verdict.command == Propose("A" * 100, f"{first}\nsecond line")


def test_propose_block_does_not_parse_commands_or_comments_inside_it() -> None:
    verdicts = parse_text("PROPOSE\n# Heading\nBUY 14\nnonsense\n  End  \nSTATUS")
    assert [v.command for v in verdicts] == [Propose("# Heading", "# Heading\nBUY 14\nnonsense"),
                                             Status()]
    assert [v.first_line for v in verdicts] == [1, 6]


def test_propose_without_end_runs_to_the_end_of_the_text_and_says_so() -> None:
    verdicts = parse_text("BUY 3\nPROPOSE Free money\nEveryone gets $10.\nBUY 14")
    assert len(verdicts) == 2
    assert verdicts[0].command == Buy(3) and verdicts[0].note is None
    proposal = verdicts[1]
    assert proposal.command == Propose("Free money", "Everyone gets $10.\nBUY 14")
    assert (proposal.first_line, proposal.last_line) == (2, 4)
    assert proposal.note is not None and proposal.note.startswith(
        '"PROPOSE Free money" has no END, so its text was read to the end of your email (line 4)')


def test_propose_with_no_text_is_an_error() -> None:
    verdict = one("PROPOSE Nothing\n\n  \nEND")
    assert verdict.error == ('"PROPOSE Nothing": the proposal has no text; write its text on the '
                             "lines between PROPOSE and END.")
    assert (verdict.first_line, verdict.last_line) == (1, 4)


def test_propose_title_longer_than_100_characters_is_an_error() -> None:
    assert "at most 100" in one("PROPOSE " + "t" * 101 + "\ntext\nEND").error  # type: ignore


def test_an_end_line_may_be_in_any_case() -> None:
    assert one("PROPOSE\ntext\neNd").command == Propose("text", "text")


# ---------------------------------------------------------------- extending the grammar


def test_a_module_can_register_a_new_command_without_touching_the_core() -> None:
    def roll(rest: str, line: BodyLine) -> Command:
        if rest:
            raise CommandError("ROLL takes nothing after it.")
        return Status()

    register("ROLL", roll, "ROLL")
    try:
        assert command("roll") == Status()
        assert error("ROLL twice") == '"ROLL twice": ROLL takes nothing after it.'
        assert valid_commands().startswith(BUILT_IN)
        assert valid_commands().endswith(", ROLL")
    finally:
        unregister("ROLL")
    assert "is not a command" in error("ROLL")
    assert "ROLL" not in valid_commands()


def test_a_module_can_register_a_block_command() -> None:
    def note(rest: str, line: BodyLine, block: Sequence[BodyLine]) -> Command:
        return Join(f"{rest}:{len(block)}")

    register_block("NOTE", note)
    try:
        verdict = one("NOTE x\na\nb\nEND")
        assert verdict.command == Join("x:2")
        assert "NOTE" not in valid_commands()
    finally:
        unregister("NOTE")


@pytest.mark.parametrize("text", ["Hi all,", "Hello there", "Thanks for your help!", "Cheers,",
                                  "Bob", "Best wishes from sunny Leeds", "Sent from my phone"])
def test_chatter_is_ignored_briefly_not_answered_with_every_command(text):
    """Issue 20, item 11: a greeting or a sign-off got NOT UNDERSTOOD and the whole list of commands."""
    from admin.mail.inbound.grammar import CHATTER

    assert error(text) == CHATTER


@pytest.mark.parametrize("text, hint", [
    ("I'd like to buy 7 please", "Valid commands:"),   # a keyword before a number
    ("Please STATUS", "Valid commands:"),              # a keyword in capitals
    ("VOET 1 YES", "Did you mean VOTE?"),              # a typo of a keyword
    ("PROPOSAL Free parking", "Valid commands:"),
])
def test_a_line_that_looks_like_a_command_gets_the_valid_forms(text, hint):
    message = error(text)
    assert hint in message and "not a command" in message
