"""Nomopoly II XXX: a player's net worth. The engine's net worth is the player's money plus what
every enabled module adds (``worth``); each term of XXX.1 is counted in one place:

- money: the engine; the purchase price of the player's squares: ``ownership``; the bank account:
  ``bank``; 10% of the credit limit less the card's balance: ``credit-cards``; blocks, buildings,
  railroads, missiles, the method of transportation and corporate power: their own sections;
- here, the terms that belong to no other section (and $25 a railroad square while the railroads
  module, older than XXX, does not count it itself): $10 a point of health, $10 times the value of
  each card held, the player's proposals ($10 a Yes vote, $100 accepted, $100 more if no one voted
  No, $25 in the Nonsense section), $-100 a polluted square they own, $-1000 passed out, $-1000
  infected, $-1500 a reset, $-2500 a terrorist.

A proposal counts from the update its votes are counted (its tally); the record of each one is
kept here, since closed proposals leave the live state. Which proposals made it into Nonsense
(XXV) is the Admin's word: ``nomopoly ruling nonsense <proposal>``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine.playingcards import DECK, card_value
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import RuleError
from admin.engine.model import GameState, Player, Proposal
from admin.games.nomopoly2.api import RAILROADS
from admin.library.api import BOARD, CARDS_PRIVATE, HEALTH, OWNERSHIP

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.module import RulingHandler


@dataclass
class ProposalRecord:
    proposer: str
    yes: int = 0
    accepted: bool = False
    unanimous: bool = False
    nonsense: bool = False


@dataclass
class NetWorthState:
    #: every proposal whose votes were counted, by number: what it adds to its proposer's net worth
    proposals: dict[int, ProposalRecord] = field(default_factory=dict)
    #: proposals the Admin placed in Nonsense before their votes were counted
    nonsense: list[int] = field(default_factory=list)


class NetWorthModule(Mechanic[NetWorthState, None]):
    name = "net-worth"
    rules = ("XXX.1",)
    stated = {"XXX.1": {"per_health": ("${} for each point of health",),
                        "per_yes_vote": ("${} for each Yes vote",),
                        "per_accepted": ("${} for each of their proposals that was accepted",),
                        "per_nonsense": ("${} for each of their proposals that ended up",),
                        "per_railroad": ("${} for each of their squares with a railroad",),
                        "per_card_value": ("${} times the value of each card",)}}
    defaults = {"per_health": 10, "per_card_value": 10, "per_yes_vote": 10, "per_accepted": 100,
                "per_unanimous": 100, "per_nonsense": 25, "per_polluted_square": -100, "passed_out": -1000,
                "infected": -1000, "per_reset": -1500, "terrorist": -2500,
                # XVII's term, counted here only while the railroads module has no ``worth`` of its own
                "per_railroad": 25}
    summary = ("Net worth as XXX.1 lists it: health, cards, proposals made, less polluted squares, "
               "conditions and resets (the other terms are their sections').")
    State = NetWorthState

    def rulings(self) -> dict[str, RulingHandler]:
        return {"nonsense": _nonsense}

    def on_update_end(self, ctx: UpdateContext) -> None:
        """Record the proposals whose votes were counted (before they leave the live state)."""
        ns = self.of(ctx.state)
        for proposal in [*ctx.archived, *ctx.state.proposals]:
            if proposal.number not in ns.proposals and proposal.tally is not None:
                ns.proposals[proposal.number] = _record(proposal, ns)
        ns.nonsense = [n for n in ns.nonsense if n not in ns.proposals]

    def worth(self, state: GameState, player: Player) -> int:
        return sum(v for _, v in terms(state, player))

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("net_worth_terms", {k: v for k, v in terms(state, player) if v})]


def _record(proposal: Proposal, ns: NetWorthState) -> ProposalRecord:
    tally = proposal.tally
    accepted = proposal.status == "accepted"
    return ProposalRecord(proposer=proposal.proposer, yes=tally.yes if tally else 0, accepted=accepted,
                          unanimous=accepted and tally is not None and tally.no == 0,
                          nonsense=proposal.number in ns.nonsense)


def _records(state: GameState) -> list[ProposalRecord]:
    """Every counted proposal: those recorded, and any counted in this update not recorded yet."""
    ns = NetWorthModule.of(state)
    live = [_record(p, ns) for p in state.proposals if p.tally is not None and p.number not in ns.proposals]
    return [*ns.proposals.values(), *live]


def terms(state: GameState, player: Player) -> list[tuple[str, int]]:
    """This module's terms of XXX.1 for ``player``, by name."""
    p = {**NetWorthModule.defaults, **state.params(NetWorthModule.name)}
    out: list[tuple[str, int]] = []
    if HEALTH.on(state):
        from admin.library.health import health_of, resets_of

        out.append(("health", int(p["per_health"]) * health_of(state, player.name)))
        out.append(("resets", int(p["per_reset"]) * resets_of(state, player.name)))
    if CARDS_PRIVATE.get(state) is not None:
        from admin.library.cards import CardsModule, hand

        cp = {**CardsModule.defaults, **state.params(CardsModule.name)}
        values = sum(card_value(c, ace=int(cp["ace_value"]), face=int(cp["face_value"]))
                     for c in hand(state, player.name) if c in DECK)  # a Joker has no value (a ruling)
        out.append(("cards", int(p["per_card_value"]) * values))
    mine = [r for r in _records(state) if r.proposer == player.name]
    out += [("yes_votes", int(p["per_yes_vote"]) * sum(r.yes for r in mine)),
            ("accepted", int(p["per_accepted"]) * sum(r.accepted for r in mine)),
            ("unanimous", int(p["per_unanimous"]) * sum(r.unanimous for r in mine)),
            ("nonsense", int(p["per_nonsense"]) * sum(r.nonsense for r in mine))]
    from admin.library.ownership import squares_owned

    owned = squares_owned(state, player.name) if OWNERSHIP.on(state) else set()
    board = BOARD.get(state)
    if board is not None and OWNERSHIP.on(state):
        polluted = sum(1 for n in board.polluted if n in owned)
        out.append(("polluted", int(p["per_polluted_square"]) * polluted))
    railroads = RAILROADS.get(state)
    if railroads is not None and OWNERSHIP.on(state):
        from admin.engine.module import Mechanic
        from admin.games.nomopoly2.mechanics.railroads import RailroadsModule

        if RailroadsModule.worth is Mechanic.worth:  # counted here until railroads counts it itself
            rails = sum(1 for n in railroads.squares if n in owned)
            out.append(("railroads", int(p["per_railroad"]) * rails))
    from admin.games.nomopoly2.mechanics.shared import has_condition

    for condition, key in (("passed-out", "passed_out"), ("infected", "infected"), ("terrorist", "terrorist")):
        out.append((key, int(p[key]) if has_condition(state, player.name, condition) else 0))
    return out


def _nonsense(ctx: UpdateContext, r: Ruling) -> str:
    """``nomopoly ruling nonsense N [--undo]``: proposal N made it into the Nonsense section (XXV),
    worth $25 to its proposer (XXX.1)."""
    ns = NetWorthModule.of(ctx.state)
    try:
        number = int(r.args.get("proposal", 0))
    except (TypeError, ValueError):
        raise RuleError(f"ruling nonsense names proposal {r.args.get('proposal')!r}; give its number") from None
    undo = bool(r.args.get("undo"))
    record = ns.proposals.get(number)
    live = next((p for p in ctx.state.proposals if p.number == number), None)
    if record is None and live is None:
        raise RuleError(f"there is no proposal {number} whose votes were counted or that is open; "
                        "name a proposal of this game")
    if record is not None:
        if record.nonsense != undo:
            raise RuleError(f"proposal {number} is {'not ' if undo else ''}in Nonsense already")
        record.nonsense = not undo
        proposer = record.proposer
    else:
        if (number in ns.nonsense) != undo:
            raise RuleError(f"proposal {number} is {'not ' if undo else ''}in Nonsense already")
        ns.nonsense = sorted(set(ns.nonsense) - {number}) if undo else sorted(set(ns.nonsense) | {number})
        proposer = live.proposer  # type: ignore[union-attr]
    verb = "is no longer in" if undo else "made it into"
    worth = ctx.state.money(int(ctx.params(NetWorthModule.name)["per_nonsense"]))
    ctx.emit("net-worth", f"Proposal {number} by {proposer} {verb} the Nonsense section (XXV), worth "
                          f"{worth} to its proposer's net worth (XXX.1).", rule="XXX.1", player=proposer)
    return f"Proposal {number} {verb} Nonsense ({r.note})" if r.note else f"Proposal {number} {verb} Nonsense."
