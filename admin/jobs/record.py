"""The public record of an update (its results file), as the update job writes it: the events
anyone may see, the dice, what went in, and its link to the records before it (docs/fairness.md)."""

from __future__ import annotations

from typing import Any

from admin.engine.model import GameState
from admin.engine.schedule import slot_of
from admin.engine.seedchain import ruling_hash
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


def hidden_roll_record(r) -> list:
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


