"""Commands as players write them (hardening: "reading mail as players write it"), and names and
titles that would break the site (hardening #8)."""

import pytest

from admin.mail.inbound.grammar import parse_text
from admin.library.ownership import Buy, Name
from admin.nomic.proposals import Vote


@pytest.mark.parametrize("line, command", [
    ("vote 3 yes.", Vote(3, "yes")), ("Vote #4 no!", Vote(4, "no")), ("buy 7.", Buy(7)),
    ("BUY!", Buy(None)),
])
def test_a_sentence_s_full_stop_does_not_lose_the_command(line, command):
    [v] = parse_text(line)
    assert (v.command, v.error) == (command, None)


def test_status_with_a_question_mark_is_status():
    [v] = parse_text("STATUS?")
    assert v.command is not None and v.command.cmd == "status"


def test_a_line_understood_as_it_is_keeps_its_punctuation():
    [v] = parse_text("NAME 14 St. Mary's.")
    assert v.command == Name(14, "St. Mary's.")


def test_what_is_still_wrong_without_the_full_stop_gets_the_first_error():
    [v] = parse_text("vote 3 maybe.")
    assert v.command is None and '"maybe."' in v.error


@pytest.mark.parametrize("text", ["NAME 14 Park\x1b[31mLane", "NAME 14 evil\u202eenalP", "NAME 14 bell\x07"])
def test_a_name_with_a_control_or_bidi_character_is_refused_naming_it(text):
    [v] = parse_text(text)
    assert v.command is None and "invisible control character (U+" in v.error


def test_a_proposal_title_or_text_with_a_control_character_is_refused():
    [v] = parse_text("PROPOSE Free\x0bmoney\nEveryone gets $10.\nEND")
    assert v.command is None and "(U+000B)" in v.error
    [ok] = parse_text("PROPOSE Tabs\nA\tb\nEND")
    assert ok.command is not None and ok.command.text == "A    b"
