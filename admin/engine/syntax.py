"""The small pieces every command parser shares: quoting user text in an error, and reading a
square, a proposal number, a card or a name. Mechanics write their commands' parsers with these;
the grammar (:mod:`admin.mail.inbound.grammar`) puts the quoted line in front of their errors."""

from __future__ import annotations

import re

from admin.engine.playingcards import parse_card as parse_card  # one of the pieces (re-exported)
from admin.engine.errors import CommandError
from admin.engine.plaintext import visible

MAX_QUOTE = 80
MAX_NAME = 100

#: a player's name: a letter, then letters, digits, '_', '-' or '.', 40 at most (III.1)
PLAYER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,39}")
SQUARE = re.compile(r"^(?:(?:square|sq)\.?\s*)?#?\s*(\d{1,9})$", re.IGNORECASE)
SQUARE_PREFIX = re.compile(r"^((?:(?:square|sq)\.?\s*)?#?\s*\d{1,9})(?:\s+|$)", re.IGNORECASE)
PROPOSAL = re.compile(r"^(?:(?:proposal|prop|p)\.?\s*)?#?\s*(\d{1,9})$", re.IGNORECASE)


def quote(text: str) -> str:
    """Quote user text for an error: double quotes, at most 80 characters with an ellipsis, its
    control and bidi characters written as escapes (``\\x1b``, ``\\u202e``: see
    :func:`~admin.engine.plaintext.visible`)."""
    text = visible(" ".join(text.split()))
    if len(text) > MAX_QUOTE:
        text = text[: MAX_QUOTE - 1] + "…"
    return f'"{text}"'


def parse_square(text: str) -> int:
    """``14``, ``#14``, ``square 14``, ``sq 14``, ``square #14`` -> 14; else CommandError."""
    m = SQUARE.match(text.strip())
    if not m:
        raise CommandError(f"{quote(text)} is not a square; write a square as its number, "
                           f"like 14, #14 or square 14.")
    number = int(m.group(1))
    if number < 1:
        raise CommandError(f"{quote(text)} is not a square; squares are numbered from 1.")
    return number


def parse_proposal(text: str) -> int:
    """``7``, ``#7``, ``P7``, ``proposal 7`` -> 7; else CommandError."""
    m = PROPOSAL.match(text.strip())
    if not m:
        raise CommandError(f"{quote(text)} is not a proposal number; write it like 7, #7 or P7.")
    number = int(m.group(1))
    if number < 1:
        raise CommandError(f"{quote(text)} is not a proposal number; proposals are numbered "
                           f"from 1.")
    return number


def parse_card_arg(text: str) -> str:
    card = parse_card(text)
    if card is None:
        raise CommandError(f"{quote(text)} is not a card; write a card as rank and suit, "
                           f"like AS, 10H or KD.")
    return card


#: control characters (C0, DEL, C1) and the invisible marks that turn text around (bidi
#: overrides and isolates): never part of a name or a title a player gives
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_text(text: str, what: str) -> str:
    """Refuse text that would break the site, the feed or a reader: control characters and bidi
    overrides (the error names the character)."""
    m = _UNSHOWABLE.search(text)
    if m:
        raise CommandError(f"{what} holds an invisible control character (U+{ord(m.group()):04X}); "
                           "write it again without it.")
    return text


def name_arg(text: str, what: str, example: str) -> str:
    name = text.strip()
    if not name:
        raise CommandError(f"{what} is missing; write it like {example}.")
    if len(name) > MAX_NAME:
        raise CommandError(f"{what} is {len(name)} characters long; "
                           f"at most {MAX_NAME} are allowed.")
    return check_text(name, what)


def no_args(keyword: str, rest: str) -> None:
    if rest:
        raise CommandError(f"{keyword} takes nothing after it; write {keyword} alone.")
