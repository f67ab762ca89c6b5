"""Property tests: no input makes reading or parsing raise, and every command line gets a verdict."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from admin.engine.playingcards import DECK
from admin.mail.inbound.grammar import CHATTER, LineVerdict, parse_lines, parse_text, quote
from admin.mail.inbound.message import BodyLine, MailText, read_message
from admin.library.cards import Place
from admin.library.ownership import Buy
from admin.nomic.proposals import Vote, VoteChoice

CORPUS = Path(__file__).parent / "mail_corpus"
SMALL_CORPUS = sorted(p.read_bytes() for p in CORPUS.glob("*.eml") if p.stat().st_size < 20_000)
FAST = settings(max_examples=200, deadline=None)

SNIPPETS = [
    b"\x00", b"\r", b"\n", b"\r\n", b"\n\n", b"\xff", b"\xc3", b"\xe2\x80", b"=?", b"?=",
    b"=?utf-8?b?", b"=?x?q?=FF?=", b"--", b"-- \n", b"> ", b"--000000000000a1b2c3\n",
    b"Content-Type: multipart/mixed; boundary=\"x\"\n", b"Content-Transfer-Encoding: base64\n",
    b"charset=utf-42", b"<", b">", b"PROPOSE\n", b"END\n", b"On x wrote:\n", b"From: a\nSent: b\n",
    b"=", b"=\n", b"\t", b"\xa0", b"<br>", b"<blockquote>", b"</div>",
]


def check_invariants(lines: Sequence[BodyLine], verdicts: list[LineVerdict]) -> None:
    """Each verdict is a command xor an error; each command line lies in exactly one verdict."""
    for verdict in verdicts:
        assert (verdict.command is None) != (verdict.error is None)
        assert verdict.first_line <= verdict.last_line
        if verdict.error is not None:  # an error quotes its line; chatter is only "ignored"
            assert verdict.error.startswith('"') or verdict.error == CHATTER
    spans = [(v.first_line, v.last_line) for v in verdicts]
    assert spans == sorted(spans)
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:]))
    starts = {v.first_line for v in verdicts}
    for line in lines:
        text = line.text.strip()
        if not text or text.startswith("#"):
            assert line.number not in starts
            continue
        covering = [s for s in spans if s[0] <= line.number <= s[1]]
        assert len(covering) == 1, (line, spans)


def read_and_parse(raw: bytes) -> tuple[MailText, list[LineVerdict]]:
    mail = read_message(raw, max_bytes=50_000)
    assert isinstance(mail, MailText)
    assert mail.message_id
    assert mail.kind in ("normal", "auto-reply", "bounce")
    numbers = [line.number for line in mail.lines]
    assert numbers == sorted(set(numbers))
    verdicts = parse_lines(mail.lines)
    check_invariants(mail.lines, verdicts)
    return mail, verdicts


@FAST
@given(st.binary(max_size=3000))
def test_random_bytes_never_make_reading_or_parsing_raise(raw: bytes) -> None:
    read_and_parse(raw)


@st.composite
def mutated_corpus_message(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SMALL_CORPUS)))
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "flip", "truncate", "snippet"]))
        if action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=20))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 200))]
        elif action == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif action == "truncate":
            del data[at:]
        else:
            data[at:at] = draw(st.sampled_from(SNIPPETS))
    return bytes(data)


@FAST
@given(mutated_corpus_message())
def test_mutated_corpus_messages_never_make_reading_or_parsing_raise(raw: bytes) -> None:
    read_and_parse(raw)


WORDS = ["BUY", "buy", "NAME", "PLACE", "ON", "BURY", "VOTE", "STATUS", "JOIN", "TOKEN",
         "PROPOSE", "END", "end", "#", "#7", "14", "0", "-3", "AS", "10H", "5X", "yes", "NO",
         "abstain", "square", "sq", "P7", "proposal", "Hi", "\u00e9", "\u2028", "\x00", "\t",
         "x" * 120]


@st.composite
def command_text(draw: st.DrawFn) -> str:
    line = st.lists(st.sampled_from(WORDS) | st.text(max_size=12), max_size=6).map(" ".join)
    return "\n".join(draw(st.lists(line, max_size=30)))


@FAST
@given(command_text())
def test_every_command_line_gets_exactly_one_verdict(text: str) -> None:
    lines = [BodyLine(i + 1, t) for i, t in enumerate(text.split("\n"))]
    verdicts = parse_lines(lines)
    check_invariants(lines, verdicts)
    if not any(line.text.split()[:1] and line.text.split()[0].upper() == "PROPOSE"
               for line in lines):
        wanted = [ln.number for ln in lines if ln.text.strip()
                  and not ln.text.strip().startswith("#")]
        assert [v.first_line for v in verdicts] == wanted


@FAST
@given(st.text(min_size=1).filter(lambda t: t.strip() and "\n" not in t and "\r" not in t))
def test_an_error_always_begins_with_the_quoted_line_capped_at_80(text: str) -> None:
    for verdict in parse_text(text):
        if verdict.error is not None and verdict.error != CHATTER:  # chatter is only "ignored"
            assert verdict.error.startswith(quote(verdict.text))
            assert len(quote(verdict.text)) <= 82


@FAST
@given(st.integers(1, 999_999_999),
       st.sampled_from(["{}", "#{}", "square {}", "sq {}", "Square #{}", "SQ #{}"]),
       st.sampled_from(DECK))
def test_every_square_form_and_card_round_trips(number: int, form: str, card: str) -> None:
    square = form.format(number)
    assert parse_text(f"BUY {square}")[0].command == Buy(number)
    assert parse_text(f"place {card.lower()} on {square}")[0].command == Place(card, number)


@FAST
@given(st.integers(1, 999_999_999), st.sampled_from(["{}", "#{}", "P{}", "proposal {}"]),
       st.sampled_from(["yes", "no", "abstain"]), st.booleans())
def test_every_vote_form_round_trips(number: int, form: str, choice: VoteChoice,
                                     upper: bool) -> None:
    word = choice.upper() if upper else choice
    assert parse_text(f"VOTE {form.format(number)} {word}")[0].command == Vote(number, choice)
