"""Characters that must not reach a reader raw: control characters (BEL, ESC, a newline inside a
setting) and the bidirectional controls that reorder what is shown (RLO, LRI ...).

A setting holding one is refused (:func:`first_unsafe`); text a player wrote is quoted back with
each shown as an escape anyone can read (:func:`visible`: ``\\x1b``, ``\\u202e``), so a refused line
cannot ring the reader's terminal, recolour it, or show its words in another order than they were
read; XML output drops what XML 1.0 cannot hold at all (:func:`xml_text`)."""

from __future__ import annotations

import re
import unicodedata

#: the bidirectional formatting characters (Unicode's Bidi_Control, less none): embeddings,
#: overrides, isolates and marks
BIDI_CONTROLS = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"

#: control characters (C0, DEL, C1), the line and paragraph separators, and the bidi controls
UNSAFE = re.compile(rf"[\x00-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")

#: what :func:`visible` leaves as it is: a tab is white space wherever a line is quoted
_KEPT = re.compile(rf"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")

#: what XML 1.0 cannot hold, even escaped (C0 but tab, newline and CR; lone surrogates; U+FFFE/F)
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def first_unsafe(text: str) -> tuple[int, str] | None:
    """Where the first unsafe character of ``text`` is (1-based) and its description, or None."""
    m = UNSAFE.search(text)
    if m is None:
        return None
    return m.start() + 1, describe(m.group())


def describe(char: str) -> str:
    """``U+0007 (a control character)``, ``U+202E RIGHT-TO-LEFT OVERRIDE``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X} (a control character)"


def visible(text: str, *, newlines: bool = False) -> str:
    """``text`` with every control and bidi character but the tab written as an escape
    (``\\x07``, ``\\x1b``, ``\\u202e``); with ``newlines``, its line ends are kept too (a
    player's press, quoted over several lines)."""
    if not _KEPT.search(text):
        return text
    if newlines:
        return "\n".join(_KEPT.sub(_escape, line) for line in text.split("\n"))
    return _KEPT.sub(_escape, text)


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (a feed with one is not read at all)."""
    return _NOT_XML.sub("", text) if _NOT_XML.search(text) else text
