"""The public JSON export of a game: what the site's ``state.json`` and ``nomopoly status --json``
show. Built only from the public state; nothing in :attr:`GameState.private` is ever read here."""

from __future__ import annotations

from typing import Any

from admin.engine.shows import Fact
from admin.engine import hooks
from admin.engine.schedule import next_slot
from admin.games.registry import REGISTRY
from admin.engine.model import GameState, Player, Proposal, Square
from admin.store.gamedir import GameDir
from admin.library.api import MONEY
from admin.nomic.proposals import ProposalsModule


def next_phase(state: GameState) -> str:
    """The name of the next update's slot (``"Thursday"``), per the schedule module's slots."""
    slots = REGISTRY.params(state, "schedule").get("slots") or []
    if not slots:
        return ""
    return next_slot(state.update, slots)[1].name


def parts(state: GameState) -> dict[str, bool]:
    """The parts the game has, so that pages, mail and ``status`` speak only of those: a board
    (Technopoly has none), money (Technopoly's players hold none; they score), an Admin Bank
    Account (the Teams variant's money comes from nowhere) and proposals (Technopoly and Timopoly)."""
    money_params = REGISTRY.params(state, "money") if MONEY.on(state) else {}
    has_money = bool(money_params.get("kept", True))
    return {"has_board": state.layout != "none", "has_money": has_money,
            "has_admin_bank": has_money and bool(money_params.get("admin_bank", True)),
            "has_proposals": state.enabled(ProposalsModule.name)}


def fact_text(fact: Fact) -> str:
    """A fact's value in a line of text (``nomopoly status``): yes/no, a list joined, and "none"
    for an empty one (never the label with nothing after it)."""
    if fact.shown is not None:
        return str(fact.shown) or "none"
    v = fact.value
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    text = ", ".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)
    return text or "none"


def next_update(game: GameDir, state: GameState, data: dict[str, Any]) -> str:
    """The next update for ``status``: its slot and when its mail closes, in the game's timezone
    (``Sunday update, mail closes Sat 14 Nov 2026, 23:59 UTC``); the slot alone without a date."""
    from admin.jobs.deadlines import deadline, game_zone
    from admin.site.build import when

    due = deadline(game, state)
    slot = f"{data['phase']} update" if data["phase"] else "update"
    return f"{slot}, mail closes {when(due, game_zone(game))}" if due is not None else slot


def public_hands(state: GameState) -> bool:
    """Whether the cards in each player's hand are public (the cards module's ``public_hands``)."""
    return bool(REGISTRY.params(state, "cards").get("public_hands", False))


def player_worth(state: GameState, player: Player) -> int:
    """Net worth (VI.16): money plus what each module adds (the list price of every square owned)."""
    return REGISTRY.net_worth(state, player)


def player_facts(state: GameState, player: Player) -> list[Fact]:
    """What every enabled module says in public about a player, in their declared order."""
    facts = hooks.call(state, REGISTRY).player_facts(state, player)
    return sorted(facts, key=lambda f: f.order)


def square_facts(state: GameState, square: Square) -> list[Fact]:
    facts = hooks.call(state, REGISTRY).square_facts(state, square)
    return sorted(facts, key=lambda f: f.order)


class Facts:
    """Each player's net worth and public facts, and each square's, worked out once for one state:
    a build shows them on several pages and in state.json, and each asks every enabled module."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._worth: dict[str, int] = {}
        self._player: dict[str, list[Fact]] = {}
        self._square: dict[int, list[Fact]] = {}

    def worth(self, player: Player) -> int:
        if player.name not in self._worth:
            self._worth[player.name] = player_worth(self.state, player)
        return self._worth[player.name]

    def player(self, player: Player) -> list[Fact]:
        if player.name not in self._player:
            self._player[player.name] = player_facts(self.state, player)
        return self._player[player.name]

    def square(self, square: Square) -> list[Fact]:
        if square.number not in self._square:
            self._square[square.number] = square_facts(self.state, square)
        return self._square[square.number]


def _player(player: Player, facts: Facts) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": player.name,
        "money": player.money,
        "square": player.square,
        "net_worth": facts.worth(player),
        "status": player.status,
        "bankrupt": player.money < 0,
        "joined_week": player.joined_week,
    }
    out.update({f.key: f.value for f in facts.player(player)})
    return out


def _square(square: Square, facts: Facts) -> dict[str, Any]:
    out: dict[str, Any] = {"number": square.number, "name": square.name, "destroyed": square.destroyed}
    out.update({f.key: f.value for f in facts.square(square)})
    return out


def _proposal(proposal: Proposal) -> dict[str, Any]:
    tally = proposal.tally
    return {
        "number": proposal.number,
        "proposer": proposal.proposer,
        "title": proposal.title,
        "text": proposal.text,
        "week": proposal.week,
        "update": proposal.update,
        "status": proposal.status,
        "awaiting_admin": proposal.awaiting_admin,
        "note": proposal.note,
        "changed_rules": list(proposal.changed_rules),
        "preview": list(proposal.preview),
        "votes": {name: vote.choice for name, vote in sorted(proposal.votes.items())},
        "vote_weights": {name: vote.weight for name, vote in sorted(proposal.votes.items())
                         if vote.weight != 1},
        "tally": None if tally is None else {
            "yes": tally.yes, "no": tally.no, "abstain": tally.abstain,
            "missing": list(tally.missing), "fines": dict(tally.fines),
            "money": dict(tally.money), "cards_dealt": len(tally.cards_to), "note": tally.note,
        },
    }


def public_status(state: GameState, facts: Facts | None = None) -> dict[str, Any]:
    """The game as plain JSON-able data: players, squares, proposals, week, phase, winner ...
    (``facts``: the players' and squares' facts, when the caller has worked them out already)."""
    facts = facts if facts is not None else Facts(state)
    return {
        "name": state.name,
        "week": state.week,
        "update": state.update,
        "phase": next_phase(state),
        "paused": state.paused,
        "ended": state.ended,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "admin_bank": state.admin_bank,
        "next_commitment": state.next_commitment,
        "players": [_player(p, facts) for p in sorted(state.players.values(), key=lambda p: p.name)],
        "squares": [_square(s, facts) for s in state.squares],
        "proposals": [_proposal(p) for p in state.proposals],
    }


def private_status(state: GameState) -> dict[str, Any]:
    """Everything, for the Admin (``nomopoly status --json --private``; never on the site): the
    public export, and per player their address and what each module keeps private about them
    (a hand, buried cards ...), the join requests, and every module's whole state."""
    from admin.store.plain import to_data

    out = public_status(state)
    private = {p.name: p for p in state.players.values()}
    for row in out["players"]:
        player = private[row["name"]]
        row["email"] = state.private.emails.get(player.name)
        row.update({f.key: f.value for f in hooks.call(state, REGISTRY).private_facts(state, player)})
    out["join_requests"] = [to_data(j) for j in state.private.join_requests]
    out["mods"] = {name: to_data(value) for name, value in sorted(state.mods.items())}
    out["private_mods"] = {name: to_data(value) for name, value in sorted(state.private.mods.items())}
    return out
