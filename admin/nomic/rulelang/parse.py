"""Reading a rule written in the controlled English: text -> :class:`Rule`, or
:class:`NotUnderstood` naming the words where reading stopped.

The language reads like the seeds' own rules. A rule is one sentence in one of three shapes::

    A player who <trigger> [<conditions>] <effects>.
    When(ever) | If | Every time  a player <trigger> [<conditions>], <effects>.
    At the start | end of each update | week, every [other] player [<conditions>] <effects>.

and its parts are phrases (docs/proposals.md lists them all):

- triggers: lands on / passes / lands on or passes <square>, passes the end of the board, rolls
  doubles, rolls a total of N, pays rent, buys a square, draws a card;
- squares: square N (or #N), the lowest / highest numbered square, a square owned by another
  player, a square they own, an unowned square, any square;
- conditions: with / who has / and has less than, more than, at least, at most, exactly <money>
  or N health; who owns N or more squares; who holds N or more cards; if the Admin Bank Account
  has more than <money>; if the square's number is greater / less than N;
- effects, joined by "and": receives <money> [from the Admin Bank Account | from each other
  player], pays <money> to the Admin Bank Account | to the owner | to each other player, gains /
  loses N health, moves to <square>, moves back / forward N squares, draws a card, loses a turn;
  "for each square they own" after an amount of money multiplies it.

Money a rule names without saying from whom comes from (or goes to) the Admin Bank Account.
Reading is case-insensitive; "will", "must", "also" and a subject (he, she, they, the player) may
stand before an effect. Every number is bounded (:mod:`admin.nomic.rulelang.model`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NoReturn

from admin.nomic.rulelang.model import (
    MAX_AMOUNT, MAX_SQUARE, MAX_TOTAL, Condition, Effect, NotUnderstood, Op, Party, Rule, SquareKind, SquareRef,
    Trigger, TriggerKind, Vocabulary, Who,
)

_FILLER = r"(?:(?:will|must|shall|also|immediately|then) )*"
_SUBJECT = r"(?:(?:he|she|they|he or she|that player|the player|this player) )?"
#: what may stand before a condition on what the player owns or holds
_LEAD = r"(?:and )?(?:who |if (?:they|he|she) |(?:they|he|she) )?"
_SQUARE_NUMBER = r"(?:square (?:number |no\. ?|#)?|#)(?P<sq>\d+)"

_SQUARES: tuple[tuple[str, SquareKind], ...] = (
    (_SQUARE_NUMBER, "number"),
    (r"the (?:lowest[- ]numbered|first|lowest) square", "lowest"),
    (r"the (?:highest[- ]numbered|last|highest) square", "highest"),
    (r"the end of the board", "end"),
    (r"(?:a|any) square (?:that is )?owned by (?:another|a different|an other|some other) player"
     r"|(?:a|any) square owned by an opponent|an opponent'?s square|another player'?s square"
     r"|(?:a|any) square (?:that )?another player owns", "owned_by_other"),
    (r"(?:a|any) square (?:that )?(?:they|he|she) owns?|(?:one|any) of (?:their|his|her) (?:own )?squares"
     r"|(?:their|his|her) own square", "owned_by_self"),
    (r"an unowned square|(?:a|any) square (?:that is )?not owned by anyone|(?:a|any) square nobody owns",
     "unowned"),
    (r"(?:a|any) square", "any"),
)

_COMPARE: tuple[tuple[str, Op], ...] = (
    (r"less than|fewer than|under|below", "<"),
    (r"more than|greater than|over|above", ">"),
    (r"at least|no less than", ">="),
    (r"at most|no more than", "<="),
    (r"exactly", "=="),
)


@dataclass
class _Reader:
    """A cursor over the rule's text: ``take`` matches a pattern where reading stands (case
    folded; spaces and commas before it skipped) and moves past it."""

    text: str
    pos: int = 0

    def __post_init__(self) -> None:
        self.folded = self.text.lower()

    def take(self, pattern: str, *, whole_word: bool = True) -> re.Match[str] | None:
        end = r"(?![\w$])" if whole_word else ""
        m = re.compile(r"[\s,;:]*(?:" + pattern + r")" + end, re.IGNORECASE).match(self.folded, self.pos)
        if m:
            self.pos = m.end()
        return m

    def done(self) -> bool:
        return not self.folded[self.pos:].strip(" \t\n.!")

    def fail(self, expected: str) -> NotUnderstood:
        rest = self.text[self.pos:].strip(" \t\n,;:")
        words = rest.split()
        return NotUnderstood(" ".join(words[:8]) + (" ..." if len(words) > 8 else "") or "(the end)", expected)


class _Stop(Exception):
    def __init__(self, why: NotUnderstood) -> None:
        self.why = why


def parse_rule(text: str, vocab: Vocabulary | None = None) -> Rule | NotUnderstood:
    """The rule ``text`` means, or where and why it could not be read."""
    vocab = vocab or Vocabulary()
    if len(text) > 2000:
        return NotUnderstood(text[:40] + " ...", "a rule of at most 2,000 characters")
    r = _Reader(" ".join(text.split()))
    try:
        rule = _rule(r, vocab)
    except _Stop as stop:
        return stop.why
    if not r.done():
        return r.fail("the end of the rule, or 'and' and another effect")
    return rule


def _rule(r: _Reader, vocab: Vocabulary) -> Rule:
    m = r.take(r"at the (?P<edge>start|beginning|end) of (?:each|every) (?P<span>week|update)")
    if m:
        start = m.group("edge") in ("start", "beginning")
        kind: TriggerKind = (("week_start" if start else "week_end") if m.group("span") == "week"
                             else "update_start" if start else "update_end")
        trigger = Trigger(kind)
        before = _conditions(r, vocab)  # "..., if the Admin Bank Account has more than $5000: ..."
        who: Who
        if r.take(r"(?:every|each) other player|all other players"):
            who = "every_other_player"
        elif r.take(r"(?:every|each) player|all players|everyone|each of the players"):
            who = "every_player"
        else:
            raise _Stop(r.fail("who it is for: 'every player' or 'every other player'"))
        conditions = before + _conditions(r, vocab)
        return Rule(who, trigger, conditions, _effects(r, vocab))
    if r.take(r"(?:a|any|each|every) player who"):
        trigger = _trigger(r, vocab)
        conditions = _conditions(r, vocab)
        return Rule("player", trigger, conditions, _effects(r, vocab))
    if r.take(r"(?:when|whenever|if|every time|each time|any time) (?:a|any) player"):
        trigger = _trigger(r, vocab)
        conditions = _conditions(r, vocab)
        return Rule("player", trigger, conditions, _effects(r, vocab))
    raise _Stop(r.fail("a rule that starts 'A player who ...', 'When a player ...' or 'At the end of each "
                       "week, every player ...'"))


def _square(r: _Reader, vocab: Vocabulary, *, end_allowed: bool = True) -> SquareRef:
    if not vocab.squares:
        raise _Stop(r.fail("words this game has: it has no board of squares"))
    for pattern, kind in _SQUARES:
        if kind == "end" and not end_allowed:
            continue
        m = r.take(pattern)
        if m:
            number = _number(r, m.group("sq"), MAX_SQUARE, "a square number") if kind == "number" else None
            return SquareRef(kind, number)
    raise _Stop(r.fail("a square: 'square 10', 'the lowest numbered square', 'a square owned by another "
                       "player', 'a square they own', 'an unowned square' or 'any square'"))


def _trigger(r: _Reader, vocab: Vocabulary) -> Trigger:
    if r.take(r"lands on or passes(?: over| by)?|passes(?: over| by)? or lands on"):
        return Trigger("lands_or_passes", _square(r, vocab))
    if r.take(r"lands on"):
        return Trigger("lands", _square(r, vocab, end_allowed=False))
    if r.take(r"passes(?: over| by)?"):
        return Trigger("passes", _square(r, vocab))
    if r.take(r"rolls (?:doubles|a double)"):
        return Trigger("doubles")
    m = r.take(r"rolls (?:a total of |a )?(?P<n>\d+)")
    if m:
        return Trigger("total", total=_number(r, m.group("n"), MAX_TOTAL, "a dice total"))
    if r.take(r"pays rent"):
        return Trigger("pays_rent")
    if r.take(r"buys (?:a|an|any) (?:unowned )?square"):
        return Trigger("buys")
    if r.take(r"draws (?:a|any) card"):
        return Trigger("draws")
    raise _Stop(r.fail("what the player does: 'lands on', 'passes', 'lands on or passes' a square, 'rolls "
                       "doubles', 'rolls a total of N', 'pays rent', 'buys a square' or 'draws a card'"))


def _compare(r: _Reader) -> Op | None:
    for pattern, op in _COMPARE:
        if r.take(pattern):
            return op
    return None


def _conditions(r: _Reader, vocab: Vocabulary) -> tuple[Condition, ...]:
    found: list[Condition] = []
    while True:
        start = r.pos
        condition = _condition(r, vocab)
        if condition is None:
            r.pos = start
            return tuple(found)
        found.append(condition)


def _condition(r: _Reader, vocab: Vocabulary) -> Condition | None:
    money = vocab.money_pattern()
    if r.take(r"(?:and )?(?:if |who )?(?:the admin bank account|the bank) has"):
        op = _compare(r) or _fail(r, "a comparison: 'more than', 'less than', 'at least', 'at most'")
        return Condition("bank", op, _amount(r, r.take(money), vocab))
    if r.take(r"(?:and )?(?:if )?the square'?s number is"):
        op = _compare(r) or _fail(r, "a comparison: 'greater than', 'less than', 'at least', 'at most'")
        number = r.take(r"(?P<n>\d+)") or _fail(r, "a number")
        return Condition("number", op, _number(r, number.group("n"), MAX_SQUARE, "a square number"))
    m = r.take(_LEAD + r"(?:owns?|holds?) (?P<n>\d+) or more (?P<what>squares?|cards?)")
    if m:
        return _count(r, vocab, m.group("what"), ">=", m.group("n"))
    m = r.take(_LEAD + r"(?:owns?|holds?) no (?P<what>squares|cards)")
    if m:
        return _count(r, vocab, m.group("what"), "==", "0")
    if r.take(_LEAD + r"(?:owns?|holds?)"):
        how = _compare(r)
        m = r.take(r"(?P<n>\d+) (?P<what>squares?|cards?)") if how else None
        if how is None or m is None:
            return None
        return _count(r, vocab, m.group("what"), how, m.group("n"))
    if r.take(r"(?:and )?(?:with|who has|who have|has|have|(?:if )?(?:they|he|she) (?:has|have))"):
        op = _compare(r) or _fail(r, "a comparison: 'less than', 'more than', 'at least', 'at most', 'exactly'")
        m = r.take(money)
        if m:
            return Condition("money", op, _amount(r, m, vocab))
        start = r.pos
        m = r.take(r"(?P<n>\d+) health")
        if m:
            if not vocab.health:
                r.pos = start
                raise _Stop(r.fail("an effect or condition this game has: it keeps no health"))
            return Condition("health", op, _number(r, m.group("n"), MAX_AMOUNT, "an amount of health"))
        _fail(r, f"an amount of money ({vocab.money(100)}) or of health (50 health)")
    return None


def _count(r: _Reader, vocab: Vocabulary, what: str, op: Op, n: str) -> Condition:
    if what.startswith("card") and not vocab.cards:
        raise _Stop(r.fail("an effect or condition this game has: it has no cards"))
    if what.startswith("square") and not vocab.squares:
        raise _Stop(r.fail("words this game has: it has no board of squares"))
    return Condition("cards" if what.startswith("card") else "squares", op, _number(r, n, MAX_SQUARE, "a count"))


def _effects(r: _Reader, vocab: Vocabulary) -> tuple[Effect, ...]:
    found = [_effect(r, vocab)]
    while r.take(r"and|,"):
        found.append(_effect(r, vocab))
    return tuple(found)


def _effect(r: _Reader, vocab: Vocabulary) -> Effect:
    r.take(_SUBJECT + _FILLER, whole_word=False)
    money = vocab.money_pattern()
    m = r.take(r"(?:receives?|gets?|is paid|collects?) " + money)
    if m:
        amount = _amount(r, m, vocab)
        party: Party = "bank"
        each = _per_square(r)
        if r.take(r"from (?:each|every|all) other players?|from (?:each|every) of the other players"):
            party = "each_other"
        else:
            r.take(r"from the admin bank account|from the bank|from the admin")
        return Effect("money", amount, party, _per_square(r) or each)
    m = r.take(r"(?:pays?|gives?) " + money)
    if m:
        amount = _amount(r, m, vocab)
        party = "bank"
        each = _per_square(r)
        if r.take(r"to the (?:square'?s )?owner(?: of (?:the|that) square)?|to (?:its|the square's) owner"):
            party = "owner"
        elif r.take(r"to (?:each|every|all) other players?|to (?:each|every) of the other players"):
            party = "each_other"
        else:
            r.take(r"to the admin bank account|to the bank|to the admin")
        return Effect("money", -amount, party, _per_square(r) or each)
    start = r.pos
    m = r.take(r"(?P<verb>gains?|loses?|receives?) (?P<n>\d+) (?:points? of )?health")
    if m:
        if not vocab.health:
            r.pos = start
            raise _Stop(r.fail("an effect or condition this game has: it keeps no health"))
        n = _number(r, m.group("n"), MAX_AMOUNT, "an amount of health")
        return Effect("health", -n if m.group("verb").startswith("lose") else n)
    m = r.take(r"(?:moves?|goes|is moved) (?P<way>back|backwards|forward|forwards|ahead) (?P<n>\d+) squares?")
    if m:
        n = _number(r, m.group("n"), MAX_SQUARE, "a number of squares")
        return Effect("move_by", -n if m.group("way").startswith("back") else n)
    if r.take(r"(?:moves?|goes|is moved) to"):
        square = _square(r, vocab, end_allowed=False)
        if square.kind not in ("number", "lowest", "highest"):
            raise _Stop(r.fail("a square to move to: 'square 10', 'the lowest numbered square' or 'the highest "
                               "numbered square'"))
        return Effect("move_to", square.number or (0 if square.kind == "lowest" else -1))
    start = r.pos
    if r.take(r"draws? (?:a|one) card"):
        if not vocab.cards:
            r.pos = start
            raise _Stop(r.fail("an effect or condition this game has: it has no cards"))
        return Effect("draw", 1)
    if r.take(r"loses? (?:a|one|their next|his next|her next|the next) turn|misses? (?:a|their next|the next) turn"):
        return Effect("lose_turn", 1)
    raise _Stop(r.fail(f"what happens: 'receives {vocab.money(100)} from the Admin Bank Account', 'pays "
                       f"{vocab.money(10)} to the owner', 'loses 5 health', 'moves back 3 squares', 'moves to "
                       "square 1', 'draws a card' or 'loses a turn'"))


def _per_square(r: _Reader) -> bool:
    return bool(r.take(r"for each square (?:they|he|she) owns?|for every square (?:they|he|she) owns?"))


def _amount(r: _Reader, m: re.Match[str] | None, vocab: Vocabulary) -> int:
    if m is None:
        _fail(r, f"an amount of money, like {vocab.money(100)}")
    digits = next(g for g in (m.groupdict().get(k) for k in ("n", "n2", "n3")) if g)
    return _number(r, digits, MAX_AMOUNT, "an amount of money")


def _number(r: _Reader, digits: str, most: int, what: str) -> int:
    text = digits.replace(",", "")
    if len(text) > 9 or int(text) > most:
        raise _Stop(NotUnderstood(digits, f"{what} of at most {most:,}"))
    return int(text)


def _fail(r: _Reader, expected: str) -> NoReturn:
    raise _Stop(r.fail(expected))
