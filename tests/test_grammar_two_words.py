"""Two-word keywords (BUILD RAILROAD ...): tried before a one-word keyword, and the first word
alone gets a hint naming the commands it starts."""

from dataclasses import dataclass
from typing import ClassVar

from admin.mail.inbound.grammar import parse_text, register, unregister


@dataclass(frozen=True)
class _Lay:
    square: int
    cmd: ClassVar[str] = "lay"


def test_a_two_word_keyword_is_read_before_the_first_word_alone():
    register("LAY TRACK", lambda rest, line: _Lay(int(rest.split()[-1])), "LAY TRACK ON <square>")
    try:
        [v] = parse_text("lay track on 14")
        assert v.command == _Lay(14) and v.error is None
        [bad] = parse_text("LAY BRICKS 3")
        assert bad.command is None
        assert bad.error == '"LAY BRICKS 3" is not a command. Did you mean LAY TRACK ON <square>?'
    finally:
        unregister("LAY TRACK")
    [gone] = parse_text("LAY TRACK ON 14")
    assert gone.command is None and "Did you mean" not in gone.error


def test_a_colon_after_a_two_word_keyword_is_read_as_written():
    register("LAY TRACK", lambda rest, line: _Lay(int(rest.split()[-1])), "LAY TRACK ON <square>")
    try:
        [v] = parse_text("LAY TRACK: on 14")
        assert v.command == _Lay(14) and v.error is None
    finally:
        unregister("LAY TRACK")
