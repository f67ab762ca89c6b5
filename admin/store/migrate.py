"""Reading games saved by older versions of nomopoly.

Schema 1 kept every mechanic's data in the shared records: a player's health, hand, transport and
last action week in ``players.yaml``; a square's owner, price paid, placed card, pollution and
contamination in ``board.yaml``; the rights to buy in ``game.yaml``; buried cards in
``state/buried.tsv``. Schema 2 gives each mechanic its own state. :func:`migrate_v1` moves the data
(as parsed from the files, before any of it is typed) to where each module keeps it now; the next
update writes the new files and removes the old one, and ``replay --check`` passes through it
because a log's init entry of schema 1 is migrated the same way.
"""

from __future__ import annotations

from typing import Any

BURIED_V1 = "buried.tsv"
_BURIED_COLUMNS = ("update", "square", "player", "card")


def migrate_v1(files: dict[str, Any]) -> dict[str, Any]:
    """Schema-1 files' data -> schema-2 files' data (``game.yaml``, ``modules/<m>.yaml`` ...)."""
    game = dict(files["game.yaml"])
    enabled = {m["name"]: dict(m.get("params") or {}) for m in game.get("modules", [])}
    players = {n: dict(p) for n, p in (files["players.yaml"].get("players") or {}).items()}
    squares = [dict(s) for s in files["board.yaml"].get("squares") or []]
    buy_rights = game.pop("buy_rights", []) or []
    private = dict(files.get("private.yaml") or {})
    buried_rows = private.pop("buried", None)
    game["schema"] = 2
    out: dict[str, Any] = {k: v for k, v in files.items() if k != BURIED_V1}
    out["game.yaml"] = game
    out["private.yaml"] = private

    health: dict[str, Any] = {"version": 1, "health": {}, "resets": {}}
    turns: dict[str, Any] = {"version": 1, "transport": {}}
    players_mod: dict[str, Any] = {"version": 1, "last_action": {}}
    held, shown, hands = {}, {}, {}
    public_hands = bool(enabled.get("cards", {}).get("public_hands", False))
    for name, p in players.items():
        health["health"][name] = p.pop("health", 100)
        health["resets"][name] = p.pop("resets", 0)
        turns["transport"][name] = p.pop("transport", "foot")
        players_mod["last_action"][name] = p.pop("last_action_week", 0)
        cards = list(p.pop("cards", []) or [])
        hands[name], held[name] = cards, len(cards)
        if public_hands:
            shown[name] = list(cards)
    ownership: dict[str, Any] = {"version": 1, "owners": {}, "paid": {}, "buy_rights": buy_rights}
    board: dict[str, Any] = {"version": 1, "polluted": [], "contaminated": []}
    placed = {}
    for s in squares:
        n = s["number"]
        owner, paid, card = s.pop("owner", None), s.pop("price_paid", None), s.pop("card", None)
        if owner is not None:
            ownership["owners"][n] = owner
        if paid is not None:
            ownership["paid"][n] = paid
        if card is not None:
            placed[n] = card
        if s.pop("polluted", False):
            board["polluted"].append(n)
        if s.pop("contaminated", False):
            board["contaminated"].append(n)
    if buried_rows is None:
        buried_rows = _buried_rows(files.get(BURIED_V1, ""))
    out["players.yaml"] = {"players": players}
    out["board.yaml"] = {"squares": squares}
    new = {
        "modules/health.yaml": health, "modules/turns.yaml": turns,
        "modules/players.yaml": players_mod, "modules/ownership.yaml": ownership,
        "modules/board.yaml": board,
        "modules/cards.yaml": {"version": 1, "held": held, "shown": shown, "placed": placed},
        "private/cards.yaml": {"version": 1, "hands": hands, "buried": buried_rows},
    }
    for key, data in new.items():
        if key.split("/")[1].split(".")[0] in enabled:
            out[key] = data
    return out


def _buried_rows(text: str) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if number == 1 or not line.strip():
            continue
        update, square, player, card = line.split("\t")
        rows.append({"update": int(update), "square": int(square), "player": player, "card": card})
    return rows


def split_v1_state(data: dict[str, Any]) -> dict[str, Any]:
    """A whole schema-1 state (a log's init entry) -> its schema-1 files' data."""
    data = dict(data)
    files = {
        "board.yaml": {"squares": data.pop("squares", [])},
        "players.yaml": {"players": data.pop("players", {})},
        "proposals.yaml": {"proposals": data.pop("proposals", [])},
        "rules_history.yaml": {"rules": data.pop("rule_history", {})},
        "private.yaml": dict(data.pop("private", {}) or {}),
    }
    data.pop("rules", None)
    files["game.yaml"] = {**data, "schema": 1}
    return files
