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
from dataclasses import dataclass
from typing import Callable, Sequence

from admin.engine.commands import SECRET_COMMANDS, Command, Join, Status, Token
from admin.engine.syntax import (  # noqa: F401 - the parsers' helpers, importable from here too
    MAX_NAME, MAX_QUOTE, name_arg, no_args, parse_card_arg, parse_proposal, parse_square, quote,
)
from admin.errors import CommandError
from admin.mail.message import BodyLine
from admin.mechanics import REGISTRY
from admin.model import GameState

LineParser = Callable[[str, BodyLine], Command]
#: A block parser gets the text after the keyword, the keyword's line and the lines up to END.
BlockParser = Callable[[str, BodyLine, Sequence[BodyLine]], Command]


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
_USAGE: dict[str, tuple[int, str]] = {}
_SECRET_KEYWORDS: set[str] = set()
#: keywords of two words (``BUILD RAILROAD``): a line's first two words are tried before its first
_TWO_WORDS: set[str] = set()


def register(keyword: str, parser: LineParser, usage: str | None = None, *,
             secret: bool = False, rank: int | None = None) -> None:
    """Add (or replace) a one-line command; ``usage`` is listed in "Valid commands" (by ``rank``,
    lower first; by default after every command registered before it)."""
    key = keyword.upper()
    _BLOCK_PARSERS.pop(key, None)
    _LINE_PARSERS[key] = parser
    _note(key, usage, secret, rank)


def register_block(keyword: str, parser: BlockParser, usage: str | None = None, *,
                   rank: int | None = None) -> None:
    """Add (or replace) a block command: the keyword line, then text lines up to ``END``."""
    key = keyword.upper()
    _LINE_PARSERS.pop(key, None)
    _BLOCK_PARSERS[key] = parser
    _note(key, usage, False, rank)


def unregister(keyword: str) -> None:
    """Remove a command (a rule module being disabled); unknown keywords are ignored."""
    key = keyword.upper()
    _LINE_PARSERS.pop(key, None)
    _BLOCK_PARSERS.pop(key, None)
    _note(key, None, False, None)


def _note(key: str, usage: str | None, secret: bool, rank: int | None) -> None:
    _suggest.cache_clear()
    if " " in key and (key in _LINE_PARSERS or key in _BLOCK_PARSERS):
        _TWO_WORDS.add(key)
    else:
        _TWO_WORDS.discard(key)
    _USAGE.pop(key, None)
    if usage:
        last = max((r for r, _ in _USAGE.values()), default=0)
        _USAGE[key] = (rank if rank is not None else max(last, 1000) + 1, usage)
    (_SECRET_KEYWORDS.add if secret else _SECRET_KEYWORDS.discard)(key)


def valid_commands(allowed: frozenset[str] | None = None) -> str:
    """``"BUY [square], NAME <square> <name>, ..."`` in listing order; with ``allowed``, only
    those keywords (the core's and the game's enabled modules')."""
    return ", ".join(usage for key, (_, usage) in sorted(_USAGE.items(), key=lambda u: u[1][0])
                     if allowed is None or key in allowed)


def keywords_in_force(state: GameState) -> frozenset[str]:
    """The keywords a player of this game may use now: the core's and the enabled modules'."""
    names = tuple(m.name for m in state.modules)
    if names not in _IN_FORCE:
        mine = {spec.keyword.upper() for _, spec in REGISTRY.command_table(state).values()}
        _IN_FORCE[names] = frozenset(mine | set(_CORE))
    return _IN_FORCE[names]


_IN_FORCE: dict[tuple[str, ...], frozenset[str]] = {}
_CORE = ("STATUS", "JOIN", "TOKEN", "END")


# ---------------------------------------------------------------- the core


def parse_text(text: str) -> list[LineVerdict]:
    """Parse a whole text, numbering its lines from 1."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return parse_lines([BodyLine(i + 1, line.rstrip()) for i, line in enumerate(lines)])


def parse_lines(lines: Sequence[BodyLine], allowed: frozenset[str] | None = None) -> list[LineVerdict]:
    """One verdict per command line; blank lines and ``#`` comments get none. ``allowed``: the
    keywords in force in the game (:func:`keywords_in_force`), the only ones an unknown line's
    error lists (a known command not in force is refused by the update, with the reason)."""
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
        if rest and _TWO_WORDS:  # a two-word keyword (BUILD RAILROAD) before a one-word one
            second = rest.split(None, 1)[0]
            if f"{key} {second.upper()}" in _TWO_WORDS:
                key, rest = f"{key} {second.upper()}", rest[len(second):].strip()
                word = f"{word} {second}"
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
            verdicts.append(_error(line, line.number, shown, _unknown(shown, key, allowed)))
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


def _unknown(shown: str, key: str, allowed: frozenset[str] | None = None) -> str:
    starts = [_USAGE[k][1] for k in sorted(_USAGE, key=lambda k: _USAGE[k][0])
              if k.split()[0] == key and (allowed is None or k in allowed)]
    if starts:  # the first word of a two-word command (BUILD -> BUILD RAILROAD ON <square>)
        return f"{quote(shown)} is not a command. Did you mean {' or '.join(starts)}?"
    near = _suggest(key)
    hint = f" Did you mean {near}?" if near and (allowed is None or near in allowed) else ""
    return f"{quote(shown)} is not a command.{hint} Valid commands: {valid_commands(allowed)}."


@functools.lru_cache(maxsize=1024)
def _suggest(key: str) -> str | None:
    listed = sorted(_USAGE, key=lambda k: _USAGE[k][0])
    return next((k for k in listed if _near(key, k)), None)


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


# ---------------------------------------------------------------- the core's commands


def _status(rest: str, line: BodyLine) -> Command:
    no_args("STATUS", rest)
    return Status()


def _join(rest: str, line: BodyLine) -> Command:
    return Join(name_arg(rest, "your name", "JOIN Ada Lovelace"))


def _token(rest: str, line: BodyLine) -> Command:
    if not rest:
        raise CommandError("TOKEN needs your secret token, like TOKEN 7f3a9c.")
    if len(rest.split()) > 1:
        raise CommandError("a token is one word without spaces; write TOKEN and then your token.")
    return Token(rest)


def _end(rest: str, line: BodyLine) -> Command:
    raise CommandError("END closes a proposal text, but no PROPOSE line came before it.")


def _install() -> None:
    """The core's commands, then every mechanic's from the library."""
    register("STATUS", _status, "STATUS", rank=70)
    register("JOIN", _join, "JOIN <name>", rank=80)
    register("TOKEN", _token, "TOKEN <secret>", secret="token" in SECRET_COMMANDS, rank=90)
    register("END", _end)
    for _, spec in REGISTRY.all_commands():
        (register_block if spec.block else register)(spec.keyword, spec.parse, spec.usage,
                                                      rank=spec.listing)


_install()
