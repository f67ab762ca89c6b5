"""The command grammar: body lines -> a verdict for every line (a typed command or an error).

One command per line, keywords case-insensitive; blank lines and ``#`` comments get no verdict;
``PROPOSE [title]`` starts a block that runs to a line ``END``. The grammar is a table: each
keyword maps to a small parser function, and a rule module adds its own commands with
:func:`register` (or :func:`register_block` for multi-line ones) without touching this core.

A parser gets the text after the keyword and the :class:`BodyLine`, returns a command, and raises
:class:`~admin.errors.CommandError` with a message saying what is wrong and what would be right;
the core puts the quoted line in front of it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from admin.cards import parse_card
from admin.engine.commands import (
    SECRET_COMMANDS, Buy, Bury, Command, Join, Name, Place, Propose, Status, Token, Vote,
)
from admin.errors import CommandError
from admin.mail.message import BodyLine

LineParser = Callable[[str, BodyLine], Command]
#: A block parser gets the text after the keyword, the keyword's line and the lines up to END.
BlockParser = Callable[[str, BodyLine, Sequence[BodyLine]], Command]

MAX_QUOTE = 80
MAX_NAME = 100


@dataclass(frozen=True)
class LineVerdict:
    """The outcome of one command line (or of one PROPOSE ... END block)."""

    first_line: int
    last_line: int
    text: str
    command: Command | None
    error: str | None


_LINE_PARSERS: dict[str, LineParser] = {}
_BLOCK_PARSERS: dict[str, BlockParser] = {}
_USAGE: dict[str, str] = {}
_SECRET_KEYWORDS: set[str] = set()


def register(keyword: str, parser: LineParser, usage: str | None = None, *,
             secret: bool = False) -> None:
    """Add (or replace) a one-line command; ``usage`` is listed in "Valid commands"."""
    key = keyword.upper()
    _BLOCK_PARSERS.pop(key, None)
    _LINE_PARSERS[key] = parser
    _note(key, usage, secret)


def register_block(keyword: str, parser: BlockParser, usage: str | None = None) -> None:
    """Add (or replace) a block command: the keyword line, then text lines up to ``END``."""
    key = keyword.upper()
    _LINE_PARSERS.pop(key, None)
    _BLOCK_PARSERS[key] = parser
    _note(key, usage, False)


def unregister(keyword: str) -> None:
    """Remove a command (a rule module being disabled); unknown keywords are ignored."""
    key = keyword.upper()
    _LINE_PARSERS.pop(key, None)
    _BLOCK_PARSERS.pop(key, None)
    _note(key, None, False)


def _note(key: str, usage: str | None, secret: bool) -> None:
    _suggest.cache_clear()
    _USAGE.pop(key, None)
    if usage:
        _USAGE[key] = usage
    (_SECRET_KEYWORDS.add if secret else _SECRET_KEYWORDS.discard)(key)


def valid_commands() -> str:
    """``"BUY [square], NAME <square> <name>, ..."`` in registration order."""
    return ", ".join(_USAGE.values())


def quote(text: str) -> str:
    """Quote user text for an error: double quotes, at most 80 characters with an ellipsis."""
    text = " ".join(text.split())
    if len(text) > MAX_QUOTE:
        text = text[: MAX_QUOTE - 1] + "…"
    return f'"{text}"'


# ---------------------------------------------------------------- the core


def parse_text(text: str) -> list[LineVerdict]:
    """Parse a whole text, numbering its lines from 1."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return parse_lines([BodyLine(i + 1, line.rstrip()) for i, line in enumerate(lines)])


def parse_lines(lines: Sequence[BodyLine]) -> list[LineVerdict]:
    """One verdict per command line; blank lines and ``#`` comments get none."""
    verdicts: list[LineVerdict] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        text = line.text.strip()
        i += 1
        if not text or text.startswith("#"):
            continue
        word = text.split(None, 1)[0]
        rest = text[len(word):].strip()
        key = word.upper()
        if key in _BLOCK_PARSERS:
            end = _find_end(lines, i)
            block = lines[i:end]
            i = end + 1
            last = lines[end].number if end < len(lines) else lines[-1].number
            verdicts.append(_block_verdict(key, rest, line, block, last, end < len(lines)))
            continue
        shown = _shown(key, word, rest, text)
        parser = _LINE_PARSERS.get(key)
        if parser is None:
            verdicts.append(_error(line, line.number, shown, _unknown(shown, key)))
            continue
        try:
            command = parser(rest, line)
        except CommandError as exc:
            verdicts.append(_error(line, line.number, shown, f"{quote(shown)}: {exc}"))
            continue
        verdicts.append(LineVerdict(line.number, line.number, shown, command, None))
    return verdicts


def _find_end(lines: Sequence[BodyLine], start: int) -> int:
    for j in range(start, len(lines)):
        if lines[j].text.strip().upper() == "END":
            return j
    return len(lines)


def _block_verdict(key: str, rest: str, line: BodyLine, block: Sequence[BodyLine], last: int,
                   ended: bool) -> LineVerdict:
    shown = line.text.strip()
    if not ended:
        return _error(line, last, shown, f"{quote(shown)} has no END: end the text with a line "
                      f"END on its own, after the last line of the text.")
    try:
        command = _BLOCK_PARSERS[key](rest, line, block)
    except CommandError as exc:
        return _error(line, last, shown, f"{quote(shown)}: {exc}")
    return LineVerdict(line.number, last, shown, command, None)


def _shown(key: str, word: str, rest: str, text: str) -> str:
    """The line as quoted back; a secret (``TOKEN s3cret``) is never repeated."""
    return f"{word} <redacted>" if key in _SECRET_KEYWORDS and rest else text


def _error(line: BodyLine, last: int, shown: str, message: str) -> LineVerdict:
    return LineVerdict(line.number, last, shown, None, message)


def _unknown(shown: str, key: str) -> str:
    hint = f" Did you mean {_suggest(key)}?" if _suggest(key) else ""
    return f"{quote(shown)} is not a command.{hint} Valid commands: {valid_commands()}."


@functools.lru_cache(maxsize=1024)
def _suggest(key: str) -> str | None:
    return next((k for k in _USAGE if _near(key, k)), None)


def _near(typed: str, keyword: str) -> bool:
    """A likely typo: the same letters in another order, or (4+ letters) one letter off."""
    if len(typed) < 3 or abs(len(typed) - len(keyword)) > 1:
        return False
    if sorted(typed) == sorted(keyword):
        return True
    if len(typed) < 4:
        return False
    i = 0
    while i < min(len(typed), len(keyword)) and typed[i] == keyword[i]:
        i += 1
    return typed[i + 1:] in (keyword[i + 1:], keyword[i:]) or typed[i:] == keyword[i + 1:]


# ---------------------------------------------------------------- argument helpers

_SQUARE = re.compile(r"^(?:(?:square|sq)\.?\s*)?#?\s*(\d{1,9})$", re.IGNORECASE)
_SQUARE_PREFIX = re.compile(r"^((?:(?:square|sq)\.?\s*)?#?\s*\d{1,9})(?:\s+|$)", re.IGNORECASE)
_PROPOSAL = re.compile(r"^(?:(?:proposal|prop|p)\.?\s*)?#?\s*(\d{1,9})$", re.IGNORECASE)
_CHOICES = ("yes", "no", "abstain")


def parse_square(text: str) -> int:
    """``14``, ``#14``, ``square 14``, ``sq 14``, ``square #14`` -> 14; else CommandError."""
    m = _SQUARE.match(text.strip())
    if not m:
        raise CommandError(f"{quote(text)} is not a square; write a square as its number, "
                           f"like 14, #14 or square 14.")
    number = int(m.group(1))
    if number < 1:
        raise CommandError(f"{quote(text)} is not a square; squares are numbered from 1.")
    return number


def parse_proposal(text: str) -> int:
    """``7``, ``#7``, ``P7``, ``proposal 7`` -> 7; else CommandError."""
    m = _PROPOSAL.match(text.strip())
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


def _name_arg(text: str, what: str, example: str) -> str:
    name = text.strip()
    if not name:
        raise CommandError(f"{what} is missing; write it like {example}.")
    if len(name) > MAX_NAME:
        raise CommandError(f"{what} is {len(name)} characters long; "
                           f"at most {MAX_NAME} are allowed.")
    return name


def _no_args(keyword: str, rest: str) -> None:
    if rest:
        raise CommandError(f"{keyword} takes nothing after it; write {keyword} alone.")


# ---------------------------------------------------------------- the built-in commands


def _buy(rest: str, line: BodyLine) -> Command:
    return Buy(parse_square(rest) if rest else None)


def _name(rest: str, line: BodyLine) -> Command:
    if not rest:
        raise CommandError("NAME needs a square and a name, like NAME 14 Boardwalk.")
    m = _SQUARE_PREFIX.match(rest)
    square = parse_square(m.group(1) if m else rest.split()[0])
    return Name(square, _name_arg(rest[m.end():] if m else "", "the name", "NAME 14 Boardwalk"))


def _place(rest: str, line: BodyLine) -> Command:
    m = re.match(r"^(\S+)\s+on\s+(.+)$", rest, re.IGNORECASE)
    if not m:
        words = rest.split()
        if words and parse_card(words[0]) is None:
            parse_card_arg(words[0])
        raise CommandError("PLACE needs a card and a square: PLACE <card> ON <square>, "
                           "like PLACE AS ON 14.")
    return Place(parse_card_arg(m.group(1)), parse_square(m.group(2)))


def _bury(rest: str, line: BodyLine) -> Command:
    if not rest:
        raise CommandError("BURY needs a card, like BURY AS.")
    return Bury(parse_card_arg(rest))


def _vote(rest: str, line: BodyLine) -> Command:
    words = rest.split()
    if len(words) < 2:
        raise CommandError("VOTE needs a proposal number and YES, NO or ABSTAIN, like VOTE 7 YES.")
    choice = words[-1].lower()
    ref = " ".join(words[:-1])
    if words[0].lower() in _CHOICES and _PROPOSAL.match(" ".join(words[1:])):
        raise CommandError("write the proposal first, then the vote, like VOTE 7 YES.")
    number = parse_proposal(ref)
    if choice not in _CHOICES:
        raise CommandError(f"{quote(words[-1])} is not a vote; write YES, NO or ABSTAIN.")
    return Vote(number, choice)  # type: ignore[arg-type]


def _status(rest: str, line: BodyLine) -> Command:
    _no_args("STATUS", rest)
    return Status()


def _join(rest: str, line: BodyLine) -> Command:
    return Join(_name_arg(rest, "your name", "JOIN Ada Lovelace"))


def _token(rest: str, line: BodyLine) -> Command:
    if not rest:
        raise CommandError("TOKEN needs your secret token, like TOKEN 7f3a9c.")
    if len(rest.split()) > 1:
        raise CommandError("a token is one word without spaces; write TOKEN and then your token.")
    return Token(rest)


def _end(rest: str, line: BodyLine) -> Command:
    raise CommandError("END closes a proposal text, but no PROPOSE line came before it.")


def _propose(rest: str, line: BodyLine, block: Sequence[BodyLine]) -> Command:
    texts = [b.text.rstrip() for b in block]
    while texts and not texts[-1].strip():
        texts.pop()
    while texts and not texts[0].strip():
        texts.pop(0)
    if not texts:
        raise CommandError("the proposal has no text; write its text on the lines between "
                           "PROPOSE and END.")
    title = rest.strip()
    if len(title) > MAX_NAME:
        raise CommandError(f"the title is {len(title)} characters long; at most {MAX_NAME} "
                           f"are allowed.")
    return Propose(title or texts[0].strip()[:MAX_NAME], "\n".join(texts))


register("BUY", _buy, "BUY [square]")
register("NAME", _name, "NAME <square> <name>")
register("PLACE", _place, "PLACE <card> ON <square>")
register("BURY", _bury, "BURY <card>")
register_block("PROPOSE", _propose, "PROPOSE [title] ... END")
register("VOTE", _vote, "VOTE <proposal> YES|NO|ABSTAIN")
register("STATUS", _status, "STATUS")
register("JOIN", _join, "JOIN <name>")
register("TOKEN", _token, "TOKEN <secret>", secret="token" in SECRET_COMMANDS)
register("END", _end)
