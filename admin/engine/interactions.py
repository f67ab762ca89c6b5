"""Interactions that span updates: a question put to some players, answered by mail before a
deadline, then resolved by the mechanic that asked it.

Kinds (the mechanic decides what an answer means and what the outcome does):

- ``offer``: a trade offered to one player, who accepts or declines (silence: declined);
- ``auction``: sealed bids, private until the auction closes, then published; the highest bid
  wins, and a tie is broken as the mechanic says (:func:`auction_winner`);
- ``consent``: every named player must agree (two owners forming a block; silence: refused);
- ``response``: an announced move the others may answer (Technopoly's invention responses);
- ``game``: a card game over several mails (Blackjack: HIT or STAND each update; silence: stand).

An interaction is opened in one update with a deadline: the update whose run closes it (answers
must arrive before that update's cut-off). A party that has not answered by then gets the
interaction's silence rule. Everything is plain data, so the interactions mechanic keeps them in
its own state (sealed answers in its private part)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from admin.engine.dice import Dice
from admin.engine.settled import keep, settled, unpickled
from admin.engine.errors import IllegalAction

Status = Literal["open", "closed", "cancelled"]


@dataclass
class Interaction:
    id: int
    #: offer, auction, consent, response, game
    kind: str
    #: the mechanic that opened it and resolves it
    module: str
    opened: int
    #: the update that closes it
    deadline: int
    #: the players whose answers are asked for
    parties: list[str]
    #: what a silent party is taken to have answered ("decline", "accept", "stand" ...)
    silence: str
    proposer: str | None = None
    #: the terms, public (what is offered, the lot auctioned ...)
    payload: dict[str, Any] = field(default_factory=dict)
    #: each party's answer, public (sealed answers appear here only when it closes)
    answers: dict[str, Any] = field(default_factory=dict)
    #: answers kept private until the close (sealed bids)
    sealed: bool = False
    status: Status = "open"
    #: what came of it, in words (set when it closes)
    outcome: str | None = None

    def waiting_for(self, sealed_answers: dict[str, Any] | None = None) -> list[str]:
        given = set(self.answers) | set(sealed_answers or {})
        return [p for p in self.parties if p not in given]


@dataclass
class InteractionsState:
    open: list[Interaction] = field(default_factory=list)
    #: the last few closed ones, for the site and the mail (older ones live in the update logs)
    closed: list[Interaction] = field(default_factory=list)
    next_id: int = 1

    def __reduce__(self) -> tuple[Callable[..., InteractionsState], tuple[Any, ...]]:
        """Pickled (XXII.4's snapshot before every action) with the closed interactions, never
        changed again, as one blob pickled once and kept (admin/engine/settled.py)."""
        final, blob = settled(self, self.closed, _is_closed)
        return (_unpickle_interactions, (blob, self.closed[len(final):], self.open, self.next_id))

    def __deepcopy__(self, memo: dict[int, Any]) -> InteractionsState:
        """The copy of the state an update starts from shares the closed interactions."""
        final, blob = settled(self, self.closed, _is_closed)
        copied = InteractionsState(copy.deepcopy(self.open, memo),
                                   final + copy.deepcopy(self.closed[len(final):], memo), self.next_id)
        keep(copied, final, blob)
        memo[id(self)] = copied
        return copied


def _is_closed(inter: Interaction) -> bool:
    return inter.status != "open"


def _unpickle_interactions(final: bytes, rest: list[Interaction], open_: list[Interaction],
                           next_id: int) -> InteractionsState:
    done = unpickled(final)
    state = InteractionsState(open_, done + rest, next_id)
    keep(state, done, final)
    return state


@dataclass
class SealedAnswers:
    #: interaction id -> party -> answer, until the interaction closes
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)


KEEP_CLOSED = 20


def open_interaction(state: InteractionsState, *, kind: str, module: str, update: int, deadline: int,
                     parties: list[str], silence: str, proposer: str | None = None,
                     payload: dict[str, Any] | None = None, sealed: bool = False) -> Interaction:
    if deadline <= update:
        raise ValueError(f"an interaction opened in update {update} must close in a later one, not {deadline}")
    if not parties:
        raise IllegalAction("an interaction needs at least one player to answer it")
    inter = Interaction(id=state.next_id, kind=kind, module=module, opened=update, deadline=deadline,
                        parties=list(parties), silence=silence, proposer=proposer,
                        payload=dict(payload or {}), sealed=sealed)
    state.next_id += 1
    state.open.append(inter)
    return inter


def find(state: InteractionsState, number: int) -> Interaction:
    for inter in state.open:
        if inter.id == number:
            return inter
    closed = next((i for i in state.closed if i.id == number), None)
    if closed is not None:
        raise IllegalAction(f"#{number} is closed ({closed.outcome or closed.status}); it takes no more answers")
    raise IllegalAction(f"there is no open question #{number}; open: "
                        f"{', '.join(f'#{i.id}' for i in state.open) or 'none'}")


def answer(state: InteractionsState, sealed: SealedAnswers, player: str, number: int, value: Any) -> Interaction:
    """Record ``player``'s answer (the last one before the deadline counts)."""
    inter = find(state, number)
    if player not in inter.parties:
        raise IllegalAction(f"#{number} ({inter.kind}) is not yours to answer; it asks "
                            f"{', '.join(inter.parties)}")
    if inter.sealed:
        sealed.answers.setdefault(inter.id, {})[player] = value
    else:
        inter.answers[player] = value
    return inter


def due(state: InteractionsState, update: int) -> list[Interaction]:
    """The open interactions the ``update`` closes, oldest first."""
    return [i for i in state.open if i.deadline <= update]


def close(state: InteractionsState, sealed: SealedAnswers, inter: Interaction, outcome: str) -> None:
    """Reveal sealed answers, apply silence to the parties who did not answer, and file it."""
    revealed = sealed.answers.pop(inter.id, {})
    for party in inter.parties:
        if party in revealed:
            inter.answers[party] = revealed[party]
        elif party not in inter.answers:
            inter.answers[party] = inter.silence
    inter.status, inter.outcome = "closed", outcome
    state.open = [i for i in state.open if i.id != inter.id]
    state.closed = (state.closed + [inter])[-KEEP_CLOSED:]


def withdraw(state: InteractionsState, sealed: SealedAnswers, inter: Interaction, outcome: str) -> None:
    """File an open interaction as withdrawn by its proposer: no answer counts (sealed ones are
    dropped unread), nothing is resolved; an ACCEPT of it later is told it is closed, and why."""
    sealed.answers.pop(inter.id, None)
    inter.status, inter.outcome = "cancelled", outcome
    state.open = [i for i in state.open if i.id != inter.id]
    state.closed = (state.closed + [inter])[-KEEP_CLOSED:]


def settle_answers(inter: Interaction, sealed: SealedAnswers) -> dict[str, Any]:
    """Every party's answer as it will stand at the close (silence applied), without closing."""
    out = dict(inter.answers)
    out.update(sealed.answers.get(inter.id, {}))
    for party in inter.parties:
        out.setdefault(party, inter.silence)
    return out


def accept_or_decline(interaction: Any, value: Any) -> str:
    """The answer to an offer or a consent request: ``accept`` or ``decline``; anything else is
    refused with the two forms that are valid (a module's ``check_answer``)."""
    if value not in ("accept", "decline"):
        from admin.engine.errors import IllegalAction

        raise IllegalAction(f"answer #{interaction.id} with ACCEPT {interaction.id} or DECLINE {interaction.id}")
    return str(value)


def all_consent(answers: dict[str, Any]) -> bool:
    """A consent request passes only if every party answered yes."""
    return all(str(a).lower() in ("accept", "yes") for a in answers.values())


def auction_winner(bids: dict[str, int], *, tie: str = "dice", dice: Dice | None = None,
                   label: str = "auction", order: list[str] | None = None) -> tuple[str | None, int]:
    """The highest bid and its bidder (no bid above 0: no sale). A tie is broken by ``tie``:
    ``dice`` (a recorded roll among the tied bidders), ``first`` (the first of them in ``order``:
    the order bids were received), or ``none`` (no sale)."""
    real = {p: b for p, b in bids.items() if isinstance(b, int) and b > 0}
    if not real:
        return None, 0
    top = max(real.values())
    tied = sorted(p for p, b in real.items() if b == top)
    if len(tied) == 1:
        return tied[0], top
    if tie == "none":
        return None, 0
    if tie == "first":
        ranked = [p for p in (order or []) if p in tied] or tied
        return ranked[0], top
    if dice is None:
        raise ValueError("a tie broken by dice needs the update's dice")
    return tied[dice.roll(f"{label}/tie", len(tied)) - 1], top
