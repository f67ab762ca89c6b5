"""Declared commands: one declaration gives a command's dataclass, its parser, its usage line and
its HELP entry.

    @command("STEAL FROM <target:player>", summary="a thief, once a week: 5% of ...",
             example="STEAL FROM bob", rules=("XXXVI.2",), listing=181)
    class Steal:
        target: str

The decorator makes the class a frozen dataclass, names it (``cmd``: the class name in kebab case,
``steal``, unless ``cmd=`` says otherwise), registers it so the update log can read it back
(:func:`admin.engine.commands.command_type`), and keeps the syntax. A mechanic hands its commands to
the engine with :func:`handled`::

    def commands(self):
        return handled((Steal, steal), (Enrol, enrol))

**The pattern is the usage line.** Its words, in order:

- ``STEAL``, ``FROM``, ``TO|ON``: words the player writes (any case); ``|`` separates the ones that
  do alike. The first word (or the ``keyword=`` words) is the command's keyword.
- ``<target>``: one word, the field ``target``; ``<target:player>`` shows as ``<player>``.
- ``<course:BASE|THIEF|HEALER>``: one of those words (any case), kept lower case in the field
  ``course``; it shows as ``BASE|THIEF|HEALER``. An alternative may hold spaces (``BIG MAC``).
- ``title``: a bare lower-case word is the field of that name, shown as it is (``BUY [square]``).
- ``[ ... ]``: may be left out; the fields inside then keep their defaults.

A field's annotation says how its word becomes its value: ``int`` a whole number, ``str`` the word
itself, :data:`Square` a square (``14``, ``#14``, ``square 14``), :data:`ProposalNo`, :data:`Card`,
:data:`Text` the rest of the line (several words), or ``Annotated[T, As(convert)]`` any converter
raising :class:`~admin.engine.errors.CommandError` (``As(convert, words=3)`` when it may take up to
three words). The words must convert for the line to fit: a line that does not fit gets the error
of the furthest words that would not convert (``"fourteen" is not a square``; a pattern's last
field may take all the words left), else "write <usage>" (or ``hint=``).

A command whose words a pattern cannot say (a block to END, a trade's lists) gives ``parse=``: a
function ``(rest, line)`` (``(rest, line, block)`` for ``block=True``) returning the command; the
declaration still gives its dataclass, usage line and HELP entry. One dataclass may have several
declarations (stacked decorators, listed in the order written), each with ``fixed=`` values for the
fields its words do not give (``STEAL`` and ``HEAL`` both make a ``CareerAct``).
"""

from __future__ import annotations

import dataclasses
import re
import sys
import types
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING, Annotated, Any, Callable, ClassVar, Sequence, TypeVar, Union, get_args, get_origin, get_type_hints,
)

from admin.engine.commands import COMMAND_TYPES, command_type

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    from typing import dataclass_transform
from admin.engine.errors import CommandError
from admin.engine.module import CommandSpec, Handler
from admin.engine.syntax import parse_card_arg, parse_proposal, parse_square, quote

T = TypeVar("T", bound=type)


@dataclass(frozen=True)
class As:
    """How a placeholder's word becomes its field's value (``Annotated[int, As(parse_square)]``);
    ``rest``: it takes the rest of the line, several words."""

    convert: Callable[[str], Any]
    rest: bool = False
    #: the most words it may take (``square 14`` is two)
    words: int = 1


def whole_number(text: str) -> int:
    """``12`` -> 12; else CommandError (at most nine digits: a number is never a flood of work)."""
    word = text.strip()
    if not re.fullmatch(r"\d{1,9}", word):
        raise CommandError(f"{quote(text)} is not a whole number; write it in digits, like 3.")
    return int(word)


def _text(text: str) -> str:
    return text.strip()


#: a square's number: ``14``, ``#14``, ``square 14``
Square = Annotated[int, As(parse_square, words=3)]
#: a proposal's number: ``7``, ``#7``, ``P7``
ProposalNo = Annotated[int, As(parse_proposal, words=3)]
#: a playing card: ``AS``, ``10H``
Card = Annotated[str, As(parse_card_arg)]
#: the rest of the line, as written (several words)
Text = Annotated[str, As(_text, rest=True)]


# ------------------------------------------------------------------ the pattern

@dataclass(frozen=True)
class _Word:
    """Words the player writes: any of ``alternatives`` (upper case)."""

    alternatives: tuple[str, ...]


@dataclass(frozen=True)
class _Slot:
    """A field's place: one word, the rest of the line, or one of ``choices``."""

    field: str
    shown: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Optional:
    items: tuple[Any, ...]


_TOKEN = re.compile(r"<[^>]*>|\[|\]|[^\s\[\]]+")


def _read_pattern(pattern: str) -> tuple[Any, ...]:
    stack: list[list[Any]] = [[]]
    for tok in _TOKEN.findall(pattern):
        if tok == "[":
            stack.append([])
        elif tok == "]":
            if len(stack) == 1:
                raise ValueError(f"pattern {pattern!r}: a ']' without its '['")
            items = stack.pop()
            stack[-1].append(_Optional(tuple(items)))
        elif tok.startswith("<"):
            inner = tok[1:-1]
            name, _, shown = inner.partition(":")
            if not name.isidentifier():
                raise ValueError(f"pattern {pattern!r}: {tok} does not name a field")
            if shown and all(a.strip() and a.strip() == a.strip().upper() for a in shown.split("|")):
                stack[-1].append(_Slot(name, shown, tuple(a.strip().upper() for a in shown.split("|"))))
            else:
                stack[-1].append(_Slot(name, f"<{shown or name}>"))
        elif tok.isidentifier() and tok == tok.lower():
            stack[-1].append(_Slot(tok, tok))
        else:
            stack[-1].append(_Word(tuple(tok.upper().split("|"))))
    if len(stack) != 1:
        raise ValueError(f"pattern {pattern!r}: a '[' without its ']'")
    return tuple(stack[0])


def _render(items: Sequence[Any]) -> str:
    out: list[str] = []
    for item in items:
        if isinstance(item, _Word):
            out.append("|".join(item.alternatives))
        elif isinstance(item, _Slot):
            out.append(item.shown)
        else:
            out.append(f"[{_render(item.items)}]")
    return " ".join(out)


class _Words:
    """The words of a line after the keyword, with where each sits (for the rest of a line)."""

    def __init__(self, rest: str) -> None:
        self.text = rest
        self.spans = [m.span() for m in re.finditer(r"\S+", rest)]
        # a pattern's words are ASCII: a word of other letters never matches one, even where
        # upper() would make it ASCII ("ſuit" is not SUIT, nor "ıtem" ITEM)
        self.upper = [w.upper() if w.isascii() else w for w in (rest[a:b] for a, b in self.spans)]

    def __len__(self) -> int:
        return len(self.spans)

    def between(self, i: int, j: int) -> str:
        return self.text[self.spans[i][0]:self.spans[j - 1][1]]


def _match(items: Sequence[Any], k: int, words: _Words, i: int, readers: dict[str, As],
           got: dict[str, Any], errors: list[tuple[int, int, CommandError]]) -> dict[str, Any] | None:
    """Bind ``items[k:]`` to ``words[i:]``, backtracking: the fields' values, or None. A field's
    words must convert; those that did not are kept in ``errors`` with where they sat."""
    if k == len(items):
        return dict(got) if i == len(words) else None
    item = items[k]
    if isinstance(item, _Optional):
        inner = _match((*item.items, *items[k + 1:]), 0, words, i, readers, got, errors)
        return inner if inner is not None else _match(items, k + 1, words, i, readers, got, errors)
    if isinstance(item, _Word) or item.choices:
        for alt in (item.alternatives if isinstance(item, _Word) else item.choices):
            n = len(alt.split())
            if " ".join(words.upper[i:i + n]) == alt:
                more = got if isinstance(item, _Word) else {**got, item.field: alt.lower()}
                found = _match(items, k + 1, words, i + n, readers, more, errors)
                if found is not None:
                    return found
        return None
    reader = readers[item.field]
    # the rest of the line, or, as the pattern's last field, all that is left if it may take several
    # words (so "a b c d" is quoted whole: '"a b c d" is not a square')
    whole = reader.rest or (reader.words > 1 and k == len(items) - 1)
    longest = len(words) - i if whole else min(reader.words, len(words) - i)
    for n in range(longest, 0, -1):
        try:
            value = reader.convert(words.between(i, i + n))
        except CommandError as exc:
            errors.append((i, n, exc))
            continue
        found = _match(items, k + 1, words, i + n, readers, {**got, item.field: value}, errors)
        if found is not None:
            return found
    return None


def _fields(items: Sequence[Any]) -> list[_Slot]:
    out: list[_Slot] = []
    for item in items:
        if isinstance(item, _Slot):
            out.append(item)
        elif isinstance(item, _Optional):
            out.extend(_fields(item.items))
    return out


def _converter(hint: Any) -> As:
    """How a field of this annotation reads its word."""
    if get_origin(hint) is Annotated:
        for extra in hint.__metadata__:
            if isinstance(extra, As):
                return extra
        hint = get_args(hint)[0]
    if get_origin(hint) in (Union, types.UnionType):
        kinds = [a for a in get_args(hint) if a is not type(None)]
        if len(kinds) == 1:
            return _converter(kinds[0])
    if hint is int:
        return As(whole_number)
    if hint is str:
        return As(str)
    raise TypeError(f"no reader for a field of type {hint!r}: annotate it Annotated[T, As(convert)]")


# ------------------------------------------------------------------ the declaration

def _unbound(ctx: Any, player: Any, command: Any) -> str:
    raise TypeError(f"{type(command).__name__} has no handler: hand it to the engine with handled()")


@dataclass(frozen=True)
class Syntax:
    """One declared way to write a command: its pattern, and the engine's spec of it (keyword,
    parser, usage line, HELP entry) but for the handler, which :func:`handled` gives."""

    pattern: str
    spec: CommandSpec

    def bound(self, handler: Handler) -> CommandSpec:
        return dataclasses.replace(self.spec, handler=handler)


#: every declared command class -> its syntaxes, in the order written
SYNTAXES: dict[type, list[Syntax]] = {}
#: the classes a declaration named with ``cmd=`` (any one of a stack may)
_NAMED: set[type] = set()
#: the classes whose default name another command has, waiting for a ``cmd=`` above them
_UNNAMED: set[type] = set()


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def _pattern_parser(cls: type, pattern: str, keyword: str, usage: str, hint: str | None,
                    fixed: dict[str, Any]) -> Callable[[str, object], Any]:
    items = _read_pattern(pattern)
    head = keyword.upper().split()
    lead = [w for w in items[:len(head)] if isinstance(w, _Word)]
    if [w.alternatives for w in lead] != [(h,) for h in head]:
        raise ValueError(f"{cls.__name__}: pattern {pattern!r} does not start with its keyword {keyword!r}")
    items = items[len(head):]
    module = sys.modules[cls.__module__]
    hints = get_type_hints(cls, vars(module), include_extras=True)
    slots = _fields(items)
    readers: dict[str, As] = {}
    for slot in slots:
        if slot.field not in hints:
            raise ValueError(f"{cls.__name__}: pattern {pattern!r} names {slot.field!r}, which is not a field")
        readers[slot.field] = As(str) if slot.choices else _converter(hints[slot.field])
    for name in fixed:  # else a line would fail when it reached cls(**fixed, **got)
        if name not in hints:
            raise ValueError(f"{cls.__name__}: fixed={{{name!r}: ...}} is not a field")
        if name in readers:
            raise ValueError(f"{cls.__name__}: fixed={{{name!r}: ...}} is also read from the line by "
                             f"pattern {pattern!r}: fix it or read it, not both")
    if sum(r.rest for r in readers.values()) > 1:  # two would try every split of the line: n^2 work
        raise ValueError(f"{cls.__name__}: pattern {pattern!r} has two fields that take the rest of the line")
    why = hint or f"write {usage}"

    def parse(rest: str, _line: object) -> Any:
        errors: list[tuple[int, int, CommandError]] = []
        got = _match(items, 0, _Words(rest), 0, readers, {}, errors)
        if got is None:  # the error of the furthest words that would not convert, the most of them
            raise min(errors, key=lambda e: (-e[0], -e[1]))[2] if errors else CommandError(why)
        return cls(**fixed, **got)

    return parse


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def command(pattern: str, *, keyword: str | None = None, usage: str | None = None, hint: str | None = None,
            parse: Callable[..., Any] | None = None, fixed: dict[str, Any] | None = None,
            cmd: str | None = None, block: bool = False, phase: int = 50, private: bool = False,
            voluntary: bool = True, listing: int = 100, summary: str = "", example: str = "",
            rules: tuple[str, ...] = ()) -> Callable[[T], T]:
    """Declare a command (see the module's doc): the class becomes a frozen, registered dataclass
    and gains this syntax. ``usage`` overrides the line shown when it is not the pattern's own
    rendering; ``hint`` the error of a line that does not fit."""

    def declare(cls: T) -> T:
        if cls not in SYNTAXES:
            # its own name (a subclass of a command is a command of its own, not its parent's)
            setattr(cls, "cmd", cmd or vars(cls).get("cmd") or _kebab(cls.__name__))
            cls.__annotations__.setdefault("cmd", ClassVar[str])
            if "__dataclass_fields__" not in vars(cls):  # a subclass's own fields too
                dataclass(frozen=True)(cls)
            if cmd:
                _NAMED.add(cls)
            if cmd or COMMAND_TYPES.get(getattr(cls, "cmd")) in (None, cls):
                command_type(cls)
            else:  # a default name another class has: a declaration above may name it (else handled() says)
                _UNNAMED.add(cls)
        elif cmd is not None and getattr(cls, "cmd", None) != cmd:
            if cls in _NAMED:
                raise ValueError(f"{cls.__name__} is already named {getattr(cls, 'cmd', None)!r}")
            if cls not in _UNNAMED:
                COMMAND_TYPES.pop(getattr(cls, "cmd"), None)  # named by a declaration above the first
            _UNNAMED.discard(cls)
            setattr(cls, "cmd", cmd)
            command_type(cls)
            _NAMED.add(cls)
        word = keyword or pattern.split()[0]
        shown = usage or _render(_read_pattern(pattern))
        reader = parse or _pattern_parser(cls, pattern, word, shown, hint, dict(fixed or {}))
        syntax = Syntax(pattern, CommandSpec(word, cls, _unbound, reader, shown, block=block, phase=phase,
                                             private=private, voluntary=voluntary, listing=listing,
                                             summary=summary, example=example, rules=rules))
        SYNTAXES.setdefault(cls, []).insert(0, syntax)  # stacked decorators apply bottom up
        return cls

    return declare


def handled(*pairs: tuple[type, Handler]) -> tuple[CommandSpec, ...]:
    """The engine's specs of a mechanic's commands: each declared class with the handler that
    carries it out, every syntax of it in the order declared."""
    out: list[CommandSpec] = []
    for cls, handler in pairs:
        syntaxes = SYNTAXES.get(cls)
        if not syntaxes:
            raise ValueError(f"{cls.__name__} is not a declared command (decorate it with @command)")
        if cls in _UNNAMED:
            raise ValueError(f"two command types are named {getattr(cls, 'cmd')!r}: {COMMAND_TYPES[getattr(cls, 'cmd')]} "
                             f"and {cls}; name one with cmd=")
        out.extend(s.bound(handler) for s in syntaxes)
    return tuple(out)
