"""The public record of an update (its results file), as the update job writes it: the events
anyone may see, the dice, what went in, and its link to the records before it (docs/fairness.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from admin.engine.dice import Roll
from admin.engine.model import GameState
from admin.engine.schedule import slot_of
from admin.engine.seedchain import pile_commitments, pile_salt, ruling_hash
from admin.games.registry import REGISTRY
from admin.store.fileio import load_json
from admin.store.gamedir import GameDir


def record_link(game: GameDir, update: int) -> str | None:
    """The record chain's link of ``update`` (admin/engine/seedchain.py): from its record's own
    ``previous``, or, for records written before the chain, from every record before it."""
    from admin.engine.seedchain import next_link

    back = update
    while back > 0 and "previous" not in (load_json(game.results_path(back)) or {}):
        back -= 1
    link = None
    for n in range(back, update + 1):
        path = game.results_path(n)
        if not path.exists():
            return link
        record = load_json(path)
        link = next_link(record.get("previous", link) if n == back else link, record)
    return link


def hidden_roll_record(r: Roll) -> list[Any]:
    """A hidden draw as the private log keeps it: label, sides, value (and the player whose key drew it)."""
    return [r.label, r.sides, r.value] + ([r.player] if r.player else [])


def public_results(state: GameState, events: list[dict[str, Any]], inputs: dict[str, Any],
                   dice_record: dict[str, Any]) -> dict[str, Any]:
    """The update's public record; ``events`` are its events as data (``to_data``), all of them."""
    slots = REGISTRY.params(state, "schedule")["slots"]
    _, slot = slot_of(slots, state.update)
    public = [{k: v for k, v in e.items() if k not in ("private", "ref")}
              for e in events if e["text"] is not None]
    public_state = state.public_copy()
    mail = sorted([m["player"], m["received"]] for m in inputs.get("messages") or []
                  if m.get("status") == "applied" and m.get("player"))
    return {"update": state.update, "week": state.week, "slot": slot.name, "cutoff": inputs["cutoff"],
            # what went in: the received times of the players' mail acted on, and each ruling's hash
            "mail": mail, "rulings": [ruling_hash(r) for r in inputs.get("rulings") or []],
            "events": public, "dice": dice_record, "next_commitment": state.next_commitment,
            "next_hidden_commitment": state.next_hidden_commitment,
            "next_player_commitments": state.next_player_commitments,
            "money": {n: p.money for n, p in sorted(state.players.items()) if p.active},
            # from the public state only: a bank balance, a card's limit, a hand are private (XXVII.1),
            # and a net worth counting them would publish them in the difference
            "net_worth": {n: REGISTRY.net_worth(public_state, p)
                          for n, p in sorted(public_state.players.items()) if p.active}}




@dataclass
class PileRecord:
    """What an update's record says of the face-down piles: their order after it (committed, a
    salted hash per place, salts from the next update's hidden seed), and the cards taken from
    them, each with the place it held in the pile the last update committed to and that place's
    salt (a public card: in the record; a card only its drawer sees: in the private log, told to
    the drawer in their results mail, and published when the game ends)."""

    piles: dict[str, list[str]] = field(default_factory=dict)
    draws: list[list[Any]] = field(default_factory=list)
    private_draws: list[list[Any]] = field(default_factory=list)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.piles:
            out["pile_commitments"] = self.piles
        if self.draws:
            out["pile_draws"] = self.draws
        return out


def pile_record(face_down: dict[str, Any], hidden: bytes, next_hidden: bytes, draws: list[Any]) -> PileRecord:
    """The record of the game's face-down piles (deck name -> DeckState, the hook
    ``face_down_piles``) and of this update's draws from them."""
    piles = {name: list(pile.pile) for name, pile in face_down.items()}
    out = PileRecord(piles=pile_commitments(next_hidden, piles))
    for d in draws:
        salt = pile_salt(hidden, d.deck, d.position).hex() if d.position is not None else None
        full = [d.deck, d.position, d.card, salt, d.player]
        out.draws.append(full if d.public else [d.deck, d.position, None, None, d.player])
        if not d.public:
            out.private_draws.append(full)
    return out
