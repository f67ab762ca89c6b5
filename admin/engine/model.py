"""The game's state as typed dataclasses.

:class:`GameState` is everything the engine reads and writes. Its :attr:`GameState.private` part
(player addresses, token hashes, buried cards, join requests) is stored in its own file and is
never read by the site build. Dice seeds are not engine state: they live at the edge
(:mod:`admin.store.gamedir`), and the engine receives a :class:`admin.engine.dice.Dice`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from admin.nomic.ruleset import Ruleset

PlayerStatus = Literal["active", "removed"]
ProposalStatus = Literal[
    "open", "replaced", "voting", "accepted", "rejected", "vetoed", "withdrawn", "sent back"
]


@dataclass
class Square:
    """A square of the board. What mechanics add to a square (its owner, a placed card, a
    pollution ...) is their own state, keyed by the square's number."""

    number: int
    name: str | None = None
    #: a destroyed square keeps its place on the board; movement skips it
    destroyed: bool = False


@dataclass
class Player:
    """A player. What mechanics add to a player (health, a hand of cards ...) is their own
    state, keyed by the player's name."""

    name: str
    money: int
    #: where the player stands (0 in a game without a board)
    square: int
    status: PlayerStatus = "active"
    joined_week: int = 1

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass
class Vote:
    player: str
    choice: Literal["yes", "no", "abstain"]
    update: int
    #: the choices this vote replaced, oldest first (a changed vote is recorded, not lost)
    changed_from: list[str] = field(default_factory=list)
    #: how many votes it counts for (extra votes granted by a rule, capped by VIII.4)
    weight: int = 1


@dataclass
class VoteGrant:
    """Extra votes a rule or the Admin granted a player for one week (e.g. a lottery prize)."""

    player: str
    extra: int
    week: int
    reason: str = ""


@dataclass
class Directive:
    """A change to the ruleset that a proposal carries out when accepted."""

    kind: Literal["add-rule", "amend", "repeal", "add-section", "renumber", "enable", "disable", "set"]
    #: a section numeral (add-rule), a rule id (amend, repeal), a title (add-section), "" (renumber),
    #: a module's name (enable, disable), ``module.parameter`` (set)
    target: str
    text: str = ""


@dataclass
class RuleRevision:
    """One step of a rule's history."""

    rev: int
    action: Literal["created", "amended", "repealed", "renumbered"]
    update: int
    week: int
    proposal: int | None = None
    text: str | None = None
    old_text: str | None = None
    #: for "renumbered": the id it had before
    old_id: str | None = None


@dataclass
class RuleDecision:
    """The Admin's decision on a rule whose words no mechanic runs (``nomopoly ruling settle``):
    ``flavour`` (no effect in play) or ``by-hand`` (the Admin applies it by rulings). It holds for
    the revision of the rule it was made on: an amendment's new words are undecided again."""

    kind: Literal["flavour", "by-hand"]
    reason: str
    #: the update whose ruling made it
    update: int
    #: the rule's revision it settled (``RuleRevision.rev``), and that revision's update
    rev: int
    rev_update: int


@dataclass
class Tally:
    yes: int
    no: int
    abstain: int
    #: players counted as Abstain because they did not vote (and were fined)
    missing: list[str] = field(default_factory=list)
    fines: dict[str, int] = field(default_factory=dict)
    #: players who received a card because of the result (the card itself is private)
    cards_to: list[str] = field(default_factory=list)
    #: money the result moved, per player (+ received, - paid)
    money: dict[str, int] = field(default_factory=dict)
    #: why the usual consequences did not apply, if they did not
    note: str | None = None


@dataclass
class Proposal:
    number: int
    proposer: str
    title: str
    text: str
    week: int
    #: the update in which the proposal was received
    update: int
    status: ProposalStatus = "open"
    votes: dict[str, Vote] = field(default_factory=dict)
    tally: Tally | None = None
    #: the admin's comment (send back, veto) or the number of the proposal that replaced it
    note: str | None = None
    directives: list[Directive] = field(default_factory=list)
    #: accepted, but the Admin must still carry it out (free-form, or a directive that failed)
    awaiting_admin: bool = False
    #: the rule ids it changed when it was carried out
    changed_rules: list[str] = field(default_factory=list)
    #: the update in which it reached a final status (it is archived after that update)
    closed_update: int | None = None
    #: what it would have done to each player in the last update, had it been in force
    #: (admin/jobs/preview.py): only a proposal that changes what runs has one
    preview: list[str] = field(default_factory=list)

    def close(self, status: ProposalStatus, update: int, note: str | None = None) -> None:
        self.status, self.closed_update = status, update
        if note is not None:
            self.note = note


@dataclass
class JoinRequest:
    name: str
    email: str
    update: int


@dataclass
class PrivateState:
    """What only the admin (and, for their own part, each player) may see."""

    emails: dict[str, str] = field(default_factory=dict)
    token_hashes: dict[str, str] = field(default_factory=dict)
    join_requests: list[JoinRequest] = field(default_factory=list)
    #: each mechanic's private state, by module name (state/private/<module>.yaml)
    mods: dict[str, Any] = field(default_factory=dict)


@dataclass
class ModuleConfig:
    """One enabled rule module and its parameters; the list order is precedence."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    #: the rule ids it automates in this game's ruleset, where they are not the module's own
    #: (its ``rules``, numbered as in Nomopoly II): None keeps the module's
    rules: list[str] | None = None


@dataclass
class GameState:
    name: str
    ruleset: str
    #: how the board's squares are laid out (admin/engine/layouts.py): snake, sqrt-snake, loop, none
    layout: str = "snake"
    #: how an amount of the game's money is written: "${}" ($150), "Fn {}" (Fn 150 fans) ...
    currency: str = "${}"
    #: the game's own number for a rule the library's mechanics cite by another game's number
    #: (the first Nomopoly's pass bonus is V.7 where Nomopoly II's is VI.11): events cite these
    rule_aliases: dict[str, str] = field(default_factory=dict)
    #: how many updates have run; update ``n`` is the ``n``-th of the game
    update: int = 0
    week: int = 1
    paused: bool = False
    winner: str | None = None
    ended: bool = False
    end_reason: str | None = None
    admin_bank: int = 0
    #: the seed commitment (SHA-256, hex) for the next update, published before its deadline
    next_commitment: str | None = None
    #: the commitment of the next update's hidden seed (for hidden draws; revealed when the game ends)
    next_hidden_commitment: str | None = None
    #: each player's commitment to their key for the next update's hidden draws (scheme 2)
    next_player_commitments: dict[str, str] = field(default_factory=dict)
    next_proposal: int = 1
    squares: list[Square] = field(default_factory=list)
    players: dict[str, Player] = field(default_factory=dict)
    #: the live proposals: open, voting, closed this update, or accepted and awaiting the Admin
    proposals: list[Proposal] = field(default_factory=list)
    #: the final status of every archived proposal (state/proposals/week-NNNN.json hold them)
    archived: dict[int, str] = field(default_factory=dict)
    #: the enabled modules in precedence order; replaced, never changed in place (the registry
    #: knows it by identity and length: admin/engine/registry.py)
    modules: list[ModuleConfig] = field(default_factory=list)
    vote_grants: list[VoteGrant] = field(default_factory=list)
    #: the live ruleset (stored as rules_md/) and every rule's history (state/rules_history.yaml)
    rules: Ruleset = field(default_factory=lambda: Ruleset(sections=[]))
    rule_history: dict[str, list[RuleRevision]] = field(default_factory=dict)
    #: the Admin's decisions on text-only rules, by rule id (state/game.yaml, when there is one)
    rule_decisions: dict[str, RuleDecision] = field(default_factory=dict)
    #: each mechanic's public state, by module name (state/modules/<module>.yaml)
    mods: dict[str, Any] = field(default_factory=dict)
    private: PrivateState = field(default_factory=PrivateState)

    # -- look-ups used everywhere -------------------------------------------------------------
    def square(self, number: int) -> Square | None:
        """The square with this number, destroyed or not; None if it never existed."""
        if 1 <= number <= len(self.squares) and self.squares[number - 1].number == number:
            return self.squares[number - 1]
        for sq in self.squares:
            if sq.number == number:
                return sq
        return None

    def live_squares(self) -> list[Square]:
        return [s for s in self.squares if not s.destroyed]

    def public_copy(self) -> "GameState":
        """This state with an empty private part: what the site may be given. A shallow copy
        (it shares everything public with this state), for reading only."""
        return dataclasses.replace(self, private=PrivateState())

    def money(self, amount: int) -> str:
        """An amount in the game's currency: ``$150``, ``Fn 150``."""
        return self.currency.format(amount)

    def player(self, name: str) -> Player | None:
        return self.players.get(name)

    def active_players(self) -> list[Player]:
        return [p for p in self.players.values() if p.active]

    def proposal(self, number: int) -> Proposal | None:
        for p in self.proposals:
            if p.number == number:
                return p
        return None

    def params(self, module: str) -> dict[str, Any]:
        for m in self.modules:
            if m.name == module:
                return m.params
        return {}

    def enabled(self, module: str) -> bool:
        return any(m.name == module for m in self.modules)
