"""Questions put to players that span updates (admin/engine/interactions.py): the answers by mail
(``ACCEPT 3``, ``DECLINE 3``, ``BID 3 250``, ``ANSWER 3 <text>``), a reminder in each party's
results, and the resolution by the mechanic that asked, at the deadline. Other mechanics open
them (a trade, an auction, a consent request ...); this module keeps them, in its own state, with
sealed answers in its private part."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from admin.engine.declare import command, handled
from admin.engine.interactions import (
    Interaction, InteractionsState, SealedAnswers, answer, close, due, find, open_interaction, settle_answers, withdraw,
)
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.errors import CommandError, IllegalAction
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState


def _number(word: str, keyword: str, example: str) -> int:
    m = re.fullmatch(r"#?(\d{1,9})", word.strip())
    if not m:
        raise CommandError(f"{keyword} needs the number of the question, like {example}.")
    return int(m.group(1))


def _accept(rest: str, line: object) -> Answer:
    return Answer(_number(rest, "ACCEPT", "ACCEPT 3"), "accept")


def _decline(rest: str, line: object) -> Answer:
    return Answer(_number(rest, "DECLINE", "DECLINE 3"), "decline")


def _bid(rest: str, line: object) -> Answer:
    words = rest.split()
    if len(words) != 2 or not re.fullmatch(r"\$?\d{1,9}", words[1]):
        raise CommandError("BID needs the auction's number and a whole amount, like BID 3 250.")
    return Answer(_number(words[0], "BID", "BID 3 250"), int(words[1].lstrip("$")))


def _answer(rest: str, line: object) -> Answer:
    words = rest.split(None, 1)
    if len(words) != 2:
        raise CommandError("ANSWER needs the question's number and your answer, like ANSWER 3 HIT.")
    return Answer(_number(words[0], "ANSWER", "ANSWER 3 HIT"), words[1].strip())


@command("ACCEPT <number>", parse=_accept, listing=200,
         summary="say yes to an offer the game put to you (its number is in your results)", example="ACCEPT 12")
@command("DECLINE <number>", parse=_decline, listing=201, summary="say no to an offer the game put to you",
         example="DECLINE 12")
@command("BID <number> <amount>", parse=_bid, listing=202,
         summary="a sealed bid in an open auction (nobody sees it until it closes)", example="BID 12 150")
@command("ANSWER <number> <text>", parse=_answer, listing=203, summary="answer a question the game put to you",
         example="ANSWER 12 hit")
class Answer:
    """``ACCEPT <n>``, ``DECLINE <n>``, ``BID <n> <amount>``, ``ANSWER <n> <text>``."""

    number: int
    value: Any


class InteractionsModule(Mechanic[InteractionsState, SealedAnswers]):
    name = "interactions"
    rules = ()
    defaults: ClassVar[dict[str, Any]] = {}
    summary = "Questions to players that span updates: offers, auctions, consents, responses, games by mail."
    State = InteractionsState
    Private = SealedAnswers

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Answer, give_answer))

    def on_update_end(self, ctx: UpdateContext) -> None:
        state, sealed = self.of(ctx.state), self.private_of(ctx.state)
        for inter in due(state, ctx.state.update):
            answers = settle_answers(inter, sealed)
            owner = ctx.registry.get(inter.module)
            outcome = owner.resolve_interaction(ctx, inter, answers)
            close(state, sealed, inter, outcome)
            ctx.emit("interaction", f"#{inter.id} ({inter.kind}) closed: {outcome}",
                     data={"id": inter.id, "kind": inter.kind, "answers": dict(inter.answers)})

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        sealed = self.private_of(state)
        waiting = [i for i in self.of(state).open  # a party first: most are not (each player's mail)
                   if player.name in i.parties and player.name in i.waiting_for(sealed.answers.get(i.id))]
        return [(90, f"  Waiting for your answer: #{i.id} ({i.kind}"
                     + (f" from {i.proposer}" if i.proposer else "") + f"), by update {i.deadline}")
                for i in waiting]


def give_answer(ctx: UpdateContext, player: Player, cmd: Answer) -> str:
    state, sealed = InteractionsModule.of(ctx.state), InteractionsModule.private_of(ctx.state)
    inter = find(state, cmd.number)
    value = ctx.registry.get(inter.module).check_answer(ctx, inter, player, cmd.value)
    answer(state, sealed, player.name, cmd.number, value)
    if inter.sealed:
        return f"{player.name} answered #{inter.id} ({inter.kind}); the answer stays sealed until it closes."
    return f"{player.name} answered #{inter.id} ({inter.kind}): {value}."


def replace_offer(ctx: UpdateContext, *, kind: str, module: str, parties: list[str], silence: str, proposer: str,
                  payload: dict[str, Any], same: tuple[str, ...]) -> tuple[Interaction, list[Interaction]]:
    """Open an offer as :func:`ask` does, withdrawing first every open one of ``module`` from the
    same ``proposer`` whose payload agrees on the keys ``same`` (the same deed to the same buyer):
    one open offer of a thing to a player at a time, the latest word counting, as a player expects.
    A flood of them (``SELL 16 TO ursula FOR 0`` ... ``FOR 59``) leaves one open offer. The
    withdrawn offers take no answer (an ACCEPT of one is told it was replaced); returns the new
    offer and those it replaced."""
    state, sealed = InteractionsModule.of(ctx.state), InteractionsModule.private_of(ctx.state)
    old = [i for i in state.open if i.module == module and i.proposer == proposer and i.kind == kind
           and all(i.payload.get(k) == payload.get(k) for k in same)]
    inter = ask(ctx, kind=kind, module=module, parties=parties, silence=silence, proposer=proposer,
                payload=payload)
    for prior in old:
        withdraw(state, sealed, prior, f"withdrawn: {proposer} replaced it with #{inter.id}")
        ctx.emit("interaction", f"#{prior.id} ({kind}) withdrawn: {proposer} replaced it with #{inter.id}.",
                 data={"id": prior.id, "kind": kind, "replaced_by": inter.id})
    return inter, old


def replaced_text(ctx: UpdateContext, replaced: list[Interaction]) -> str:
    """What a receipt adds when an offer replaced others: ``; it replaces your offer #12 (for
    FN58), withdrawn``; "" when it replaced none."""
    if not replaced:
        return ""
    said = ", ".join(f"#{i.id} (for {ctx.state.money(int(i.payload.get('amount', 0)))})" for i in replaced)
    return f"; it replaces your offer {said}, withdrawn: one open offer of a thing to a player at a time"


def ask(ctx: UpdateContext, *, kind: str, module: str, parties: list[str], silence: str, after: int = 1,
        proposer: str | None = None, payload: dict[str, Any] | None = None, sealed: bool = False) -> Interaction:
    """Open an interaction from a module's handler or hook; it closes ``after`` updates later."""
    if not ctx.state.enabled(InteractionsModule.name):
        raise IllegalAction("questions to players need the interactions module; the Admin enables it")
    inter = open_interaction(InteractionsModule.of(ctx.state), kind=kind, module=module,
                             update=ctx.state.update, deadline=ctx.state.update + after,
                             parties=parties, silence=silence, proposer=proposer, payload=payload,
                             sealed=sealed)
    ctx.emit("interaction", f"#{inter.id} ({kind}) is open until update {inter.deadline}: "
                            f"{', '.join(parties)} may answer.",
             data={"id": inter.id, "kind": kind, "parties": list(parties)})
    return inter
