"""Talk through the game: press between players, comments on proposals, and questions to the
Admin (calls for judgement) answered in public.

- ``PRESS TO <player>`` / ``PRESS TO ALL`` ... ``END``: relayed in the addressees' next results
  mail, signed with the sender's player name (never an address); ``PRESS GREY TO ...`` unsigned,
  where the game allows it (``grey``; the Admin always knows the sender: the private state keeps
  it). Press to one player stays private; press to all is also on the site's Press page.
  ``PRESS OFF`` / ``PRESS ON``: stop or resume receiving press to all.
- ``COMMENT <proposal>`` ... ``END``: shown under the proposal on the site, and (``comments``:
  ``results``) in everyone's next results mail.
- ``QUESTION`` ... ``END``: numbered, on the Admin's to-do; answered by ``nomopoly ruling answer
  N "..."`` (``--standing`` makes it a standing ruling), published on the Judgements page.

Every text is bounded (``max_chars``) and so is the count per player per update (``max_per_update``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence, TypedDict

from admin.engine.declare import command, handled
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.engine.module import CommandSpec, Mechanic, RulingHandler
from admin.engine.shows import Panel, Remark, Table
from admin.engine.syntax import PLAYER_NAME, check_text, no_args, parse_proposal, quote

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player

ALL = "ALL"
GREY_NAME = "Anonymous"
#: a rule id cited in a question ("VI.11", "XIII.3")
_RULE_ID = re.compile(r"\b([IVXLC]+\.\d+)\b")


def _block_text(block: Sequence[Any], what: str, example: str, first: str = "") -> str:
    texts = ([first] if first.strip() else []) + [b.text.rstrip().replace("\t", "    ") for b in block]
    while texts and not texts[-1].strip():
        texts.pop()
    while texts and not texts[0].strip():
        texts.pop(0)
    if not texts:
        raise CommandError(f"the {what} has no text; write it on the lines below, then a line END, "
                           f"like {example}.")
    return check_text("\n".join(texts), f"the {what}")


def _parse_press(rest: str, line: object, block: Sequence[Any]) -> Press:
    words = rest.split()
    grey = bool(words) and words[0].upper() == "GREY"
    if grey:
        words = words[1:]
    if len(words) != 2 or words[0].upper() != "TO":
        raise CommandError("write PRESS TO <player> or PRESS TO ALL, then your text on the lines "
                           "below, then a line END.")
    to = words[1]
    if to.upper() == ALL:
        to = ALL
    elif not PLAYER_NAME.fullmatch(to):
        raise CommandError(f"{quote(to)} is not a player's name; write PRESS TO <player> or PRESS TO ALL.")
    return Press(to, _block_text(block, "press", "PRESS TO bob / Shall we vote together? / END"), grey)


def _parse_switch(on: bool) -> Callable[[str, object], PressSwitch]:
    def parse(rest: str, line: object) -> PressSwitch:
        no_args("PRESS ON" if on else "PRESS OFF", rest)
        return PressSwitch(on)
    return parse


def _parse_comment(rest: str, line: object, block: Sequence[Any]) -> Comment:
    if not rest.strip():
        raise CommandError("COMMENT needs a proposal number, like COMMENT 7, then your text, then END.")
    return Comment(parse_proposal(rest), _block_text(block, "comment", "COMMENT 7 / I like it. / END"))


def _parse_question(rest: str, line: object, block: Sequence[Any]) -> Question:
    return Question(_block_text(block, "question", "QUESTION / Does VI.11 pay for landing on square 1? / END",
                                first=rest.strip()))


class _Written(TypedDict):
    """What the commands written over several lines (PRESS, COMMENT, QUESTION) share."""
    block: bool
    phase: int
    voluntary: bool


# by order of receipt, after PROPOSE (a comment may follow the proposal it is on), before the
# round-robin actions; PRESS OFF and ON before all, so a switch holds for the whole update
_WRITTEN = _Written(block=True, phase=40, voluntary=False)


@command("PRESS", usage="PRESS TO <player>|ALL ... END", parse=_parse_press, private=True, listing=200,
         summary="send a message to one player, or to all, signed with your name (never your address): the "
                 "text on the lines below, then a line END",
         example="PRESS TO bob / Shall we vote together on 7? / END", **_WRITTEN)
class Press:
    """``PRESS [GREY] TO <player>|ALL`` then the text up to ``END``."""

    to: str
    text: str
    grey: bool = False


@command("PRESS OFF", keyword="PRESS OFF", parse=_parse_switch(False), listing=201, private=True, phase=1,
         voluntary=False, summary="stop receiving press to all (PRESS ON resumes it)", example="PRESS OFF")
@command("PRESS ON", keyword="PRESS ON", parse=_parse_switch(True), listing=202, private=True, phase=1,
         voluntary=False, summary="receive press to all again", example="PRESS ON")
class PressSwitch:
    """``PRESS OFF`` / ``PRESS ON``: stop or resume receiving press to all."""

    on: bool


@command("COMMENT <proposal> ... END", parse=_parse_comment, listing=203,
         summary="comment on a proposal, shown under it on the site: the text on the lines below, then a "
                 "line END", example="COMMENT 7 / It breaks VI.11. / END", **_WRITTEN)
class Comment:
    """``COMMENT <proposal>`` then the text up to ``END``."""

    proposal: int
    text: str


@command("QUESTION ... END", parse=_parse_question, listing=204,
         summary="ask the Admin to judge (a rule, an event): numbered, answered in public on the Judgements "
                 "page", example="QUESTION / Does VI.11 pay when I land on 1? / END", **_WRITTEN)
class Question:
    """``QUESTION`` then the question up to ``END`` (a call for judgement)."""

    text: str


@dataclass
class PressItem:
    """Press to all, as the Press page shows it (``sender`` is the grey name for grey press)."""

    number: int
    update: int
    date: str
    sender: str
    text: str


@dataclass
class CommentItem:
    proposal: int
    player: str
    update: int
    date: str
    text: str


@dataclass
class QuestionItem:
    number: int
    player: str
    update: int
    date: str
    text: str
    rules: list[str] = field(default_factory=list)
    answer: str | None = None
    answered_update: int | None = None
    standing: bool = False


@dataclass
class TalkState:
    press: list[PressItem] = field(default_factory=list)
    comments: list[CommentItem] = field(default_factory=list)
    questions: list[QuestionItem] = field(default_factory=list)
    next_press: int = 1


@dataclass
class TalkPrivate:
    #: the sender of each grey press to all, by its number (the Admin knows who sent it)
    grey_senders: dict[int, str] = field(default_factory=dict)
    #: how many talk messages each player sent in ``counted_update``
    sent: dict[str, int] = field(default_factory=dict)
    counted_update: int = 0
    #: players who receive no press to all (PRESS OFF): their choice, not shown on the site
    muted: list[str] = field(default_factory=list)


class TalkModule(Mechanic[TalkState, TalkPrivate]):
    name = "talk"
    rules = ()
    defaults: ClassVar[dict[str, Any]] = {
        "max_chars": 2000,       # the longest press, comment or question, in characters
        "max_per_update": 5,     # press, comments and questions per player per update
        "grey": False,           # unsigned (grey) press allowed
        "comments": "results",   # comments also in everyone's next results mail ("results"), or on the site only ("site")
    }
    minimums = {"max_chars": 1, "max_per_update": 0}
    choices = {"comments": ("results", "site")}
    summary = "Press between players, comments on proposals, and questions to the Admin."
    State = TalkState
    Private = TalkPrivate

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Press, _press), (PressSwitch, _switch), (Comment, _comment), (Question, _question))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"answer": _answer}

    def panels(self, state: GameState) -> list[Panel]:
        talk = state.mods.get(self.name)
        if talk is None:
            return []
        press = Table("Press to all, newest first", ("Date", "From", "Update", "Text"),
                      tuple((p.date, p.sender, p.update, p.text) for p in reversed(talk.press)))
        asked = Table("Questions to the Admin, newest first",
                      ("Number", "Asked by", "Date", "Question", "Rules cited", "Answer"),
                      tuple((q.number, q.player, q.date, q.text, ", ".join(q.rules) or "—",
                             q.answer if q.answer is not None else "not answered yet")
                            for q in reversed(talk.questions)))
        standing = Table("Standing rulings made by answers", ("Number", "Rules cited", "Ruling"),
                         tuple((q.number, ", ".join(q.rules) or "—", q.answer)
                               for q in talk.questions if q.standing and q.answer))
        return [Panel("press", "Press", "Messages the players sent to everyone (PRESS TO ALL), newest "
                      "first. Press to one player is never shown here.", (press,), order=80),
                Panel("judgements", "Judgements", "Questions the players asked the Admin (QUESTION), "
                      "and the Admin's answers; an answer made a standing ruling is listed again "
                      "below.", (asked, standing), order=81)]

    def proposal_remarks(self, state: GameState, number: int) -> list[Remark]:
        talk = state.mods.get(self.name)
        return [Remark(c.player, c.update, c.date, c.text)
                for c in (talk.comments if talk else ()) if c.proposal == number]

    def on_player_removed(self, state: GameState, player: Player) -> None:
        private = state.private.mods.get(self.name)
        if private is not None and player.name in private.muted:
            private.muted.remove(player.name)


# -- handlers -----------------------------------------------------------------------------------
def _count(ctx: UpdateContext, player: Player, text: str) -> tuple[TalkState, TalkPrivate, str]:
    """Check the limits, count the message; the state, the private state and the date."""
    p = ctx.params(TalkModule.name)
    talk, private = TalkModule.of(ctx.state), TalkModule.private_of(ctx.state)
    limit, longest = int(p["max_per_update"]), int(p["max_chars"])
    if len(text) > longest:
        raise IllegalAction(f"the text is {len(text):,} characters long; at most {longest:,} are "
                            "allowed: shorten it and send it again")
    if private.counted_update != ctx.state.update:
        private.sent, private.counted_update = {}, ctx.state.update
    if private.sent.get(player.name, 0) >= limit:
        raise IllegalAction(f"you have sent {limit} press, comments and questions this update, the "
                            "most allowed; send the rest after the next update")
    private.sent[player.name] = private.sent.get(player.name, 0) + 1
    return talk, private, ctx.received[:10]


def _press(ctx: UpdateContext, player: Player, cmd: Press) -> str:
    if cmd.grey and not ctx.params(TalkModule.name)["grey"]:
        raise IllegalAction("grey (unsigned) press is not allowed in this game; send it signed: "
                            "PRESS TO ...")
    if cmd.to != ALL:
        target = ctx.state.players.get(cmd.to)
        if target is None or not target.active:
            raise IllegalAction(f"{quote(cmd.to)} is not a player of this game; press goes to a "
                                "player by name, or TO ALL")
        if target.name == player.name:
            raise IllegalAction("press to yourself is not sent")
    talk, private, date = _count(ctx, player, cmd.text)
    signed = GREY_NAME if cmd.grey else player.name
    if cmd.to == ALL:
        item = PressItem(talk.next_press, ctx.state.update, date, signed, cmd.text)
        talk.next_press += 1
        talk.press.append(item)
        if cmd.grey:
            private.grey_senders[item.number] = player.name
        readers = [p.name for p in ctx.state.active_players()
                   if p.name != player.name and p.name not in private.muted]
    else:
        readers = [cmd.to]
    for name in sorted(readers):
        ctx.emit("press", None, player=name,
                 private=f"From {signed} to {'everyone' if cmd.to == ALL else 'you'}:\n{cmd.text}",
                 data={"from": signed, "to": cmd.to})
    kind = "grey press" if cmd.grey else "press"
    where = "to everyone (and the Press page)" if cmd.to == ALL else f"to {cmd.to}"
    return f"Your {kind} was sent {where}: {len(readers)} reader(s)."


def _switch(ctx: UpdateContext, player: Player, cmd: PressSwitch) -> str:
    talk = TalkModule.private_of(ctx.state)
    if cmd.on and player.name in talk.muted:
        talk.muted.remove(player.name)
    elif not cmd.on and player.name not in talk.muted:
        talk.muted.append(player.name)
        talk.muted.sort()
    return f"{player.name} {'receives' if cmd.on else 'no longer receives'} press to all."


def _comment(ctx: UpdateContext, player: Player, cmd: Comment) -> str:
    proposal = ctx.state.proposal(cmd.proposal)
    if proposal is None:
        closed = ctx.state.archived.get(cmd.proposal)
        raise IllegalAction(f"proposal {cmd.proposal} is {closed} and archived; comment on a live proposal"
                            if closed else f"there is no proposal {cmd.proposal} to comment on")
    talk, _, date = _count(ctx, player, cmd.text)
    talk.comments.append(CommentItem(cmd.proposal, player.name, ctx.state.update, date, cmd.text))
    flat = " ".join(cmd.text.split())
    if ctx.params(TalkModule.name)["comments"] == "results":
        return f"{player.name} commented on proposal {cmd.proposal}: “{flat}”"
    return f"{player.name} commented on proposal {cmd.proposal} (on the proposals page)."


def _question(ctx: UpdateContext, player: Player, cmd: Question) -> str:
    talk, _, date = _count(ctx, player, cmd.text)
    known = {r.id for r in ctx.state.rules.rules()} if ctx.state.rules else set()
    cited = list(dict.fromkeys(r for r in _RULE_ID.findall(cmd.text) if not known or r in known))
    number = len(talk.questions) + 1
    talk.questions.append(QuestionItem(number, player.name, ctx.state.update, date, cmd.text, cited))
    return f"{player.name} asked the Admin question {number}; the answer will be on the Judgements page."


def _answer(ctx: UpdateContext, r: Ruling) -> str:
    talk = TalkModule.of(ctx.state)
    try:
        number = int(r.args.get("question", 0))
    except (TypeError, ValueError):
        raise RuleError(f"ruling answer names question {r.args.get('question')!r}, which is not a number") from None
    question = next((q for q in talk.questions if q.number == number), None)
    if question is None:
        raise RuleError(f"ruling answer names question {number}, which does not exist; "
                        f"{len(talk.questions)} question(s) were asked (nomopoly todo lists the open ones)")
    text = str(r.args.get("text") or "").strip()
    if not text:
        raise RuleError("ruling answer needs the answer's text")
    question.answer, question.answered_update = text, ctx.state.update
    question.standing = bool(r.args.get("standing"))
    kind = "a standing ruling" if question.standing else "an answer"
    ctx.emit("answer", None, player=question.player,
             private=f"The Admin answered your question {number}: {text}",
             data={"question": number})
    return f"The Admin answered question {number} (by {question.player}) with {kind}: {text}"


def open_questions(state: GameState) -> list[QuestionItem]:
    """The questions still waiting for the Admin's answer (the to-do)."""
    talk = state.mods.get(TalkModule.name)
    return [q for q in (talk.questions if talk else ()) if q.answer is None]
