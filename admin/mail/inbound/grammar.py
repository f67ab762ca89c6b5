"""The command grammar: body lines -> a verdict for every line (a typed command or an error).

One command per line, keywords case-insensitive; blank lines and ``#`` comments get no verdict;
``PROPOSE [title]`` starts a block that runs to a line ``END``. The grammar is a table: each
keyword maps to a small parser function, and a rule module adds its own commands with
:func:`register` (or :func:`register_block` for multi-line ones) without touching this core.

A parser gets the text after the keyword and the :class:`BodyLine`, returns a command, and raises
:class:`~admin.engine.errors.CommandError` with a message saying what is wrong and what would be right;
the core puts the quoted line in front of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from admin.engine.commands import SECRET_COMMANDS, Command, Help, Join, Status, Token
from admin.engine.syntax import (  # noqa: F401 - the parsers' helpers, importable from here too
    MAX_NAME, MAX_QUOTE, name_arg, no_args, parse_card_arg, parse_proposal, parse_square, quote,
)
from admin.engine.errors import CommandError
from admin.mail.inbound.limits import MAX_LINE_CHARS
from admin.mail.inbound.message import BodyLine
from admin.games.registry import REGISTRY
from admin.engine.model import GameState

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
    #: what the sender should know of how the line was read (a block with no END)
    note: str | None = None


class Grammar:
    """A table of commands: keyword -> parser, with usage lines and their order. Each game has its
    own (:func:`grammar_for`): the core's commands and those of its enabled modules, so two
    games may read the same keyword their own way (Nomopoly II's BUY and Timopoly's)."""

    def __init__(self) -> None:
        self.line: dict[str, LineParser] = {}
        self.block: dict[str, BlockParser] = {}
        self.usage: dict[str, tuple[int, str]] = {}
        self.secret: set[str] = set()
        #: keywords of two words (``BUILD RAILROAD``): tried before a line's first word alone
        self.two_words: set[str] = set()
        self._near: dict[str, str | None] = {}

    def register(self, keyword: str, parser: LineParser, usage: str | None = None, *,
                 secret: bool = False, rank: int | None = None) -> None:
        """Add (or replace) a one-line command; ``usage`` is listed in "Valid commands" (by
        ``rank``, lower first; by default after every command registered before it)."""
        key = keyword.upper()
        self.block.pop(key, None)
        self.line[key] = _guarded(parser, key)
        self._note(key, usage, secret, rank)

    def register_block(self, keyword: str, parser: BlockParser, usage: str | None = None, *,
                       rank: int | None = None) -> None:
        """Add (or replace) a block command: the keyword line, then text lines up to ``END``."""
        key = keyword.upper()
        self.line.pop(key, None)
        self.block[key] = _guarded(parser, key)
        self._note(key, usage, False, rank)

    def unregister(self, keyword: str) -> None:
        """Remove a command; unknown keywords are ignored."""
        key = keyword.upper()
        self.line.pop(key, None)
        self.block.pop(key, None)
        self._note(key, None, False, None)

    def _note(self, key: str, usage: str | None, secret: bool, rank: int | None) -> None:
        self._near.clear()
        if " " in key and (key in self.line or key in self.block):
            self.two_words.add(key)
        else:
            self.two_words.discard(key)
        self.usage.pop(key, None)
        if usage:
            last = max((r for r, _ in self.usage.values()), default=0)
            self.usage[key] = (rank if rank is not None else max(last, 1000) + 1, usage)
        (self.secret.add if secret else self.secret.discard)(key)

    def listed(self) -> list[str]:
        """The keywords with a usage line, in listing order."""
        return sorted(self.usage, key=lambda k: self.usage[k][0])

    def valid_commands(self) -> str:
        """``"BUY [square], NAME <square> <name>, ..."`` in listing order."""
        return ", ".join(self.usage[k][1] for k in self.listed())

    def suggest(self, key: str) -> str | None:
        if key not in self._near:
            self._near[key] = next((k for k in self.listed() if _near(key, k)), None)
        return self._near[key]

    def parse_lines(self, lines: Sequence[BodyLine]) -> list[LineVerdict]:
        """One verdict per command line; blank lines and ``#`` comments get none."""
        verdicts: list[LineVerdict] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            text = line.text.strip()
            i += 1
            if not text or text.startswith("#"):
                continue
            if len(text) > MAX_LINE_CHARS:
                verdicts.append(_too_long(line, line.number, line))
                continue
            word = text.split(None, 1)[0]
            rest = text[len(word):].strip()
            key = word.upper()
            if rest and self.two_words:  # a two-word keyword (BUILD RAILROAD) before a one-word one
                second = rest.split(None, 1)[0]
                bare = second.rstrip(":")  # "PU RULE: text" as well as "PU RULE text"
                if f"{key} {bare.upper()}" in self.two_words:
                    key, rest = f"{key} {bare.upper()}", rest[len(second):].strip()
                    word = f"{word} {bare}"
            if key in self.block:
                end = _find_end(lines, i)
                block = lines[i:end]
                i = end + 1
                last = lines[end].number if end < len(lines) else lines[-1].number
                verdicts.append(self._block_verdict(key, rest, line, block, last, end < len(lines)))
                continue
            shown = f"{word} <redacted>" if key in self.secret and rest else text
            parser = self.line.get(key)
            if parser is None and not rest and key.rstrip(_PUNCT) in self.line:  # "STATUS?"
                parser = self.line[key.rstrip(_PUNCT)]
            if parser is None:
                verdicts.append(_error(line, line.number, shown, self._unknown(shown, key)))
                continue
            try:
                command = parser(rest, line)
            except CommandError as exc:
                command = _without_full_stop(parser, rest, line)
                if command is None:
                    verdicts.append(_error(line, line.number, shown, f"{quote(shown)}: {exc}"))
                    continue
            verdicts.append(LineVerdict(line.number, line.number, shown, command, None))
        return verdicts

    def _block_verdict(self, key: str, rest: str, line: BodyLine, block: Sequence[BodyLine], last: int,
                       ended: bool) -> LineVerdict:
        shown = line.text.strip()
        longest = max(block, key=lambda b: len(b.text), default=None)
        if longest is not None and len(longest.text) > MAX_LINE_CHARS:
            return _too_long(line, last, longest, shown)
        try:
            command = self.block[key](rest, line, block)
        except CommandError as exc:
            return _error(line, last, shown, f"{quote(shown)}: {exc}")
        note = None if ended else (
            f"{quote(shown)} has no END, so its text was read to the end of your email (line {last}), "
            "any commands below it included. If that was not meant, send the commands again, and "
            "end a text with a line END on its own next time.")
        return LineVerdict(line.number, last, shown, command, None, note)

    def _unknown(self, shown: str, key: str) -> str:
        starts = [self.usage[k][1] for k in self.listed() if k.split()[0] == key]
        if starts:  # the first word of a two-word command (BUILD -> BUILD RAILROAD ON <square>)
            return f"{quote(shown)} is not a command. Did you mean {' or '.join(starts)}?"
        near = self.suggest(key)
        if near is None and not self._mentions_a_keyword(shown):
            return CHATTER  # a greeting, a sign-off, a name: said once, briefly, in the receipt
        hint = f" Did you mean {near}?" if near else ""
        return f"{quote(shown)} is not a command.{hint} Valid commands: {self.valid_commands()}."

    def _mentions_a_keyword(self, text: str) -> bool:
        """Whether a line that is not a command still looks like one meant as a command: it names a
        command's keyword in capitals ("Please STATUS"), or before a number ("I'd like to buy 7"),
        where "thanks for your help" is chatter."""
        keywords = {k.split()[0] for k in (*self.line, *self.block)}
        words = [w.strip(_PUNCT + ",;:\"'()") for w in text.split()]
        if len(words[0]) > 1 and words[0].isupper():  # "ROLL", "PROPOSAL Free parking"
            return True
        for i, word in enumerate(words[1:], 1):
            if word.upper() in keywords and (word.isupper() or any(c.isdigit() for w in words[i:] for c in w)):
                return True
        return False


#: the grammar a text is read with when no game is given: the default game's as it starts
DEFAULT = Grammar()
_GAMES: dict[tuple[str, ...], Grammar] = {}


def register(keyword: str, parser: LineParser, usage: str | None = None, *,
             secret: bool = False, rank: int | None = None) -> None:
    DEFAULT.register(keyword, parser, usage, secret=secret, rank=rank)


def register_block(keyword: str, parser: BlockParser, usage: str | None = None, *,
                   rank: int | None = None) -> None:
    DEFAULT.register_block(keyword, parser, usage, rank=rank)


def unregister(keyword: str) -> None:
    DEFAULT.unregister(keyword)


def valid_commands() -> str:
    return DEFAULT.valid_commands()


def grammar_for(state: GameState) -> Grammar:
    """The grammar of this game now: the core's commands and its enabled modules', the first
    module in precedence winning a shared keyword."""
    names = tuple(m.name for m in state.modules)
    if names not in _GAMES:
        _GAMES[names] = _fill(Grammar(), state)
    return _GAMES[names]


def library_grammar() -> Grammar:
    """Every command of every mechanic the tool knows (the first in library order wins a shared
    keyword): for tests and tools that read commands without a game."""
    if None not in _LIBRARY:
        g = _core_only()
        for _, spec in REGISTRY.all_commands():
            if spec.keyword.upper() not in g.line and spec.keyword.upper() not in g.block:
                (g.register_block if spec.block else g.register)(spec.keyword, spec.parse, spec.usage,
                                                                 rank=spec.listing)
        _LIBRARY[None] = g
    return _LIBRARY[None]


_LIBRARY: dict[None, Grammar] = {}


def _core_only() -> Grammar:
    g = Grammar()
    _core(g)
    return g


# ---------------------------------------------------------------- the core


def parse_text(text: str, grammar: Grammar | None = None) -> list[LineVerdict]:
    """Parse a whole text, numbering its lines from 1."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return parse_lines([BodyLine(i + 1, line.rstrip()) for i, line in enumerate(lines)], grammar)


def parse_lines(lines: Sequence[BodyLine], grammar: Grammar | None = None) -> list[LineVerdict]:
    """One verdict per command line (with the game's ``grammar``; the library's by default)."""
    return (grammar or DEFAULT).parse_lines(lines)


def _find_end(lines: Sequence[BodyLine], start: int) -> int:
    for j in range(start, len(lines)):
        if lines[j].text.strip().upper() == "END":
            return j
    return len(lines)


#: what ends a sentence, and so may end a command written as one ("vote 3 yes.", "Vote #4 no!")
_PUNCT = ".!?"


def _guarded(parser: Callable[..., Command], key: str) -> Callable[..., Command]:
    """The parser, with any fault of its own turned into the line's error: a line no parser can
    read is one refused line, never the end of its email or of the update (a "BUY TICKET ³" once
    reached ``int("³")``)."""

    def read(*args: Any) -> Command:
        try:
            return parser(*args)
        except CommandError:
            raise
        except Exception as exc:  # a parser's own fault: the line is refused, the rest goes on
            raise CommandError(f"this line could not be read ({type(exc).__name__}); write it again as "
                               f"HELP {key} shows, and if it looks right, forward it to the Admin.") from exc

    return read


def _without_full_stop(parser: LineParser, rest: str, line: BodyLine) -> Command | None:
    """The command read again without the punctuation that ends the line, if that is what kept it
    from being understood (a line understood as it is keeps its punctuation: NAME 14 St. Mary's.)."""
    bare = rest.rstrip(_PUNCT).rstrip()
    if bare == rest:
        return None
    try:
        return parser(bare, line)
    except CommandError:
        return None


def _too_long(line: BodyLine, last: int, long: BodyLine, shown: str | None = None) -> LineVerdict:
    """The verdict on ``line`` (to ``last``) when ``long``, it or a line of its block (which
    starts with ``shown``), is over :data:`MAX_LINE_CHARS`."""
    text = long.text.strip()
    where = "" if shown is None else f" (line {long.number}, in the block)"
    return _error(line, last, shown or text[:60] + "…",
                  f"A line{where} of {len(text):,} characters is longer than the limit of "
                  f"{MAX_LINE_CHARS:,}: break it into shorter lines.")


#: the verdict of a line that is no command and does not look like one (a greeting, a sign-off)
CHATTER = "not a command: ignored"


def _error(line: BodyLine, last: int, shown: str, message: str) -> LineVerdict:
    return LineVerdict(line.number, last, shown, None, message)


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


def _help(rest: str, line: BodyLine) -> Command:
    return Help(" ".join(rest.split()).upper() or None)


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


def _core(g: Grammar) -> None:
    g.register("STATUS", _status, "STATUS", rank=70)
    # not in "Valid commands" yet: that text is part of the logged inputs the dice derive from
    # (until issue 18's derivation lands), and listing HELP would change every game's rolls
    g.register("HELP", _help)
    g.register("JOIN", _join, "JOIN <name>", rank=80)
    g.register("TOKEN", _token, "TOKEN <secret>", secret="token" in SECRET_COMMANDS, rank=90)
    g.register("END", _end)


def _fill(g: Grammar, state: GameState) -> Grammar:
    """The core's commands, then the game's enabled modules' (the first wins a shared keyword)."""
    _core(g)
    for _, spec in REGISTRY.specs(state):
        if spec.keyword.upper() not in g.line and spec.keyword.upper() not in g.block:
            (g.register_block if spec.block else g.register)(spec.keyword, spec.parse, spec.usage,
                                                             rank=spec.listing)
    return g


def _install() -> None:
    """The default grammar: the default game's (Nomopoly II's), as a new game starts it."""
    from admin.games import catalog as games

    _fill(DEFAULT, GameState(name="", ruleset=games.DEFAULT, modules=games.spec(games.DEFAULT).modules))


_install()
