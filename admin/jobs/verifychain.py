"""What ``nomopoly verify`` checks of the public record as a whole (docs/fairness.md): the record
chain (no record missing, edited or out of its place), the seed chain (each update's seed is the
next update's commitment, a new chain only where the old one ends), what entered the dice, and a
player's saved results mail against the record (``nomopoly verify --mail FILE``)."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path
from typing import Any

from admin.engine.dice import fair_digest, player_inputs
from admin.engine.errors import StateError
from admin.engine.seedchain import hidden_draw_hash, links, pile_hash, pile_salt, ruling_hash, sha256
from admin.store.fileio import load_json, load_yaml
from admin.store.gamedir import GameDir


def load_records(game: GameDir) -> tuple[list[dict[str, Any]], list[str]]:
    """Every public record, in order, and the problems of their numbering: each file holds the
    update its name says, none is missing, and the last is the update the game is at."""
    problems: list[str] = []
    records: list[dict[str, Any]] = []
    for path in game.results_files():
        data = load_json(path)
        n = int(path.stem)
        if int(data.get("update", -1)) != n:
            problems.append(f"{path.name} holds the record of update {data.get('update')}, not of update {n}: "
                            "records were moved or reordered")
        if n != len(records):
            problems.append(f"the record of update {len(records)} is missing (the next one is of update {n})")
        records.append(data)
    at = int((load_yaml(game.state_dir / "game.yaml") or {}).get("update", 0))
    if records and len(records) - 1 < at:
        problems.append(f"the game is at update {at}, but the last record is of update {len(records) - 1}: "
                        f"the record of update {len(records)} is missing")
    return records, problems


def check_record_chain(records: list[dict[str, Any]]) -> list[str]:
    """Each record's ``previous`` is the link of the records before it (records written before the
    chain have none, and are covered by the first that has)."""
    out: list[str] = []
    chain = links(records)
    for n, record in enumerate(records):
        if n and "previous" in record and record["previous"] != chain[n - 1]:
            out.append(f"update {n}: its record names the record chain before it as {record['previous']}, but the "
                       f"records before it give {chain[n - 1]}: an earlier record was edited, dropped or moved")
    return out


def check_seed_chain(records: list[dict[str, Any]]) -> list[str]:
    """Updates on a seed chain: the first's commitment is the chain's head; each seed is the next
    update's commitment; a new chain is begun only where the last one ends (or where none ran)."""
    out: list[str] = []
    chain: dict[str, Any] | None = None
    for n, record in enumerate(records):
        dice = record.get("dice") or {}
        if chain is not None and chain["base"] < n <= chain["base"] + chain["length"] and dice:
            if n == chain["base"] + 1 and dice.get("commitment") != chain["head"]:
                out.append(f"update {n}: its seed's commitment is not the head of the seed chain begun at update "
                           f"{chain['base']}")
            if n < chain["base"] + chain["length"] and record.get("next_commitment") != dice.get("seed"):
                out.append(f"update {n}: the commitment for update {n + 1} is not update {n}'s seed: the seed "
                           "chain is broken (a seed was chosen again)")
        announced = record.get("chain")
        if announced:
            if chain is not None and n < chain["base"] + chain["length"]:
                out.append(f"update {n}: a new seed chain is begun while the one begun at update {chain['base']} "
                           f"runs to update {chain['base'] + chain['length']}")
            if int(announced.get("base", -1)) != n or record.get("next_commitment") != announced.get("head"):
                out.append(f"update {n}: the seed chain it begins does not start at it, or its head is not "
                           f"the commitment for update {n + 1}")
            chain = {"base": n, "length": int(announced.get("length", 0)), "head": announced.get("head")}
    return out


def check_logs_present(records: list[dict[str, Any]], logs: dict[int, Path]) -> list[str]:
    """Where the private log is (the Admin's copy), every update with a record has its log."""
    if not logs:
        return []
    return [f"update {n}: it has a record but no log in state/log (a log was deleted)"
            for n in range(1, len(records)) if n not in logs]


def check_site_records(game: GameDir) -> list[str]:
    """The site's copy of the records (what players' check.py reads) is the game's."""
    folder = game.root / "site" / "records"
    if not folder.is_dir():
        return []
    out = []
    for path in game.results_files():
        copy = folder / path.name
        if copy.exists() and copy.read_bytes() != path.read_bytes():
            out.append(f"site/records/{path.name} differs from state/results/{path.name}: rebuild the site "
                       "(nomopoly publish), or find who edited it")
    return out


def check_inputs(n: int, record: dict[str, Any]) -> list[str]:
    """Scheme 3: the digest of the rolls is the hash of the published players' inputs."""
    dice = record.get("dice") or {}
    if int(dice.get("scheme", 1)) < 3:
        return []
    beacon = (dice.get("beacon") or {}).get("value")
    if fair_digest(n, dict(dice.get("players") or {}), beacon) != dice.get("digest"):
        return [f"update {n}: the digest of its rolls is not the hash of the players' commands it publishes"]
    return []


def check_log_against_record(n: int, log: dict[str, Any], record: dict[str, Any],
                             events: list[dict[str, Any]] | None) -> list[str]:
    """With the private log: what went in (the players' commands, the received times, the
    rulings) and what came out (the public events) are those the public record holds."""
    out: list[str] = []
    inputs = log["inputs"]
    dice = record.get("dice") or {}
    if "previous" not in record:  # written before the record chain: it holds none of these
        return out
    if "players" in dice and player_inputs(inputs) != dice["players"]:
        out.append(f"update {n}: the log's commands are not those whose hashes the public record lists")
    if inputs.get("beacon") != dice.get("beacon"):
        out.append(f"update {n}: the log's beacon value is not the one the public record lists")
    if [ruling_hash(r) for r in inputs.get("rulings") or []] != list(record.get("rulings") or []):
        out.append(f"update {n}: the log's rulings are not those the public record lists (a ruling was "
                   "added, dropped or changed)")
    mail = sorted([m["player"], m["received"]] for m in inputs.get("messages") or []
                  if m.get("status") == "applied" and m.get("player"))
    if mail != [list(m) for m in record.get("mail") or []]:
        out.append(f"update {n}: the log's emails or their received times are not those the public record lists")
    if events is not None and events != list(record.get("events") or []):
        at = next((i for i, (a, b) in enumerate(zip(events, record.get("events") or [])) if a != b),
                  min(len(events), len(record.get("events") or [])))
        out.append(f"update {n}: public event {at + 1} of the record is not the one the replayed update made")
    return out


def check_pile_draws(records: list[dict[str, Any]]) -> list[str]:
    """Each card drawn face up from a face-down pile held, with its salt, the place of the pile
    that the record before committed to: a pile reordered or changed in between is caught."""
    out: list[str] = []
    for n, record in enumerate(records):
        before = records[n - 1].get("pile_commitments") if n else None
        for deck, place, card, salt, player in record.get("pile_draws") or []:
            if place is None or card is None or before is None:
                continue
            committed = before.get(deck) or []
            if place >= len(committed) or pile_hash(bytes.fromhex(salt), card) != committed[place]:
                out.append(f"update {n}: {player} drew card {card} of the {deck} pile, but place {place + 1} of the "
                           f"pile committed after update {n - 1} does not hold it: the pile was changed")
    return out


def check_hidden_pile_draws(n: int, record: dict[str, Any], before: dict[str, Any] | None,
                            hidden: bytes, draws: list[list[Any]]) -> list[str]:
    """Once the game is over: the face-down draws (published then) are those the record listed,
    each salt follows from the update's hidden seed, each card held its committed place."""
    out: list[str] = []
    listed = [d for d in record.get("pile_draws") or [] if d[2] is None]
    if [[d[0], d[1], d[4]] for d in draws] != [[d[0], d[1], d[4]] for d in listed]:
        out.append(f"update {n}: the published face-down draws are not those its record listed when it ran")
    for deck, place, card, salt, player in draws + [d for d in record.get("pile_draws") or [] if d[2] is not None]:
        if place is None or before is None:
            continue
        if salt != pile_salt(hidden, deck, place).hex():
            out.append(f"update {n}: the salt of {player}'s draw from the {deck} pile does not follow from the hidden seed")
        elif place >= len(before.get(deck) or []) or pile_hash(bytes.fromhex(salt), card) != before[deck][place]:
            out.append(f"update {n}: {player}'s face-down draw from the {deck} pile is not the card at the place "
                       f"the pile committed to after update {n - 1}")
    return out


# -- a player's saved results mail -------------------------------------------------------------------
_FIELDS = {
    "seed": r"Update (\d+)'s seed: ([0-9a-f]{64})",
    "next_commitment": r"Commitment for update (\d+): ([0-9a-f]{64})",
    "next_hidden_commitment": r"Hidden-seed commitment for update (\d+): ([0-9a-f]{64})",
    "own_key": r"Your key's commitment for update (\d+): ([0-9a-f]{64})",
    "link": r"Record chain to update (\d+): ([0-9a-f]{64})",
    "entered": r"Your commands as they entered the dice: ([0-9a-f]{64}|none)",
}


def read_results_mail(path: Path) -> dict[str, Any]:
    """What a saved results mail (an ``.eml`` file, or its text) says of the record."""
    raw = Path(path).read_bytes()
    message = email.message_from_bytes(raw, policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",))
    text = body.get_content() if body is not None else raw.decode("utf-8", "replace")
    subject = str(message.get("subject") or "")
    m = re.search(r"Update (\d+) results for (\S+)", subject) or re.search(r"update (\d+) \(week", text)
    who = re.match(r"Hello ([^,\s]+),", text)
    if not m or not who:
        raise StateError(f"{path}: not a results mail of this game (no \"Update N results\" subject or "
                         "\"Hello name,\" line); give the .eml file of a results email as you received it")
    said: dict[str, Any] = {"update": int(m.group(1)), "player": who.group(1)}
    for key, pattern in _FIELDS.items():
        found = re.search(pattern, text)
        if found:
            said[key] = found.group(found.lastindex or 1)
    if "link" not in said:
        raise StateError(f"{path}: this results mail carries no record chain (\"Record chain to update N\"); "
                         "results mailed before the record chain began cannot be checked this way")
    return said


def check_mail(game: GameDir, path: Path) -> list[str]:
    """The record as it stands against what ``path`` (a player's saved results mail) says of it."""
    said = read_results_mail(path)
    records, _ = load_records(game)
    n = said["update"]
    if n >= len(records):
        return [f"{path.name}: the results of update {n} are in your mail, but the record of update {n} is missing"]
    record = records[n]
    dice = record.get("dice") or {}
    out = []
    stands = {"link": links(records)[n], "seed": dice.get("seed"), "next_commitment": record.get("next_commitment"),
              "next_hidden_commitment": record.get("next_hidden_commitment"),
              "own_key": (record.get("next_player_commitments") or {}).get(said["player"]),
              "entered": (dice.get("players") or {}).get(said["player"]) or "none"}
    names = {"link": f"the record chain to update {n}", "seed": f"update {n}'s seed",
             "next_commitment": f"the commitment for update {n + 1}",
             "next_hidden_commitment": f"the hidden-seed commitment for update {n + 1}",
             "own_key": f"{said['player']}'s key commitment for update {n + 1}",
             "entered": f"the hash of {said['player']}'s commands in update {n}"}
    for key, name in names.items():
        if key in said and said[key] != stands[key]:
            out.append(f"{path.name}: {name} was mailed as {said[key]}, but the record now gives {stands[key]}: "
                       "the record was rewritten after the mail was sent")
    return out


def check_hidden_draws(n: int, record: dict[str, Any], draws: list[list[Any]], where: str) -> list[str]:
    """The hidden draws ``draws`` (published at the end, or the private log's) are exactly those whose
    hashes the record published when the update ran: none dropped, added, relabelled or moved."""
    published = (record.get("dice") or {}).get("hidden_draws")
    if published is None:  # a record written before these hashes
        return []
    given = [hidden_draw_hash(d) for d in draws]
    for i, (want, got) in enumerate(zip(published, given)):
        if want != got:
            return [f"update {n}: hidden draw {i + 1} in {where} ({_say(draws[i])}) is not the one the "
                    "public record listed when the update ran (relabelled, moved to another player, or one dropped)"]
    if len(published) != len(given):
        return [f"update {n}: {where} holds {len(given)} hidden draws, but the public record listed "
                f"{len(published)} when the update ran (one was dropped or added)"]
    return []


def _say(draw: list[Any]) -> str:
    return f"{draw[0]} d{draw[1]}" + (f" with {draw[3]}'s key" if len(draw) > 3 else "")


def check_hidden_keys(records: list[dict[str, Any]], revealed: dict[str, Any]) -> list[str]:
    """Once the game is over: each published hidden key hashes to the commitment its seed chain
    announced, and each update's hidden seed follows from it."""
    import hmac as _hmac
    import hashlib

    out: list[str] = []
    keys = {int(b): bytes.fromhex(k) for b, k in (revealed.get("hidden_keys") or {}).items()}
    chain: dict[str, Any] | None = None
    for n, record in enumerate(records):
        if chain is not None and chain["base"] < n <= chain["base"] + chain["length"]:
            key = keys.get(chain["base"])
            seed = (revealed.get("updates") or {}).get(str(n), {}).get("hidden_seed")
            if key is None:
                out.append(f"update {n}: the hidden key of the seed chain begun at update {chain['base']} is not published")
            elif seed != _hmac.new(key, f"hidden/{n}".encode(), hashlib.sha256).hexdigest():
                out.append(f"update {n}: its hidden seed does not follow from the chain's hidden key")
        if record.get("chain"):
            chain = {"base": n, "length": int(record["chain"]["length"])}
            key = keys.get(n)
            if key is not None and sha256(key).hex() != record["chain"]["hidden_key_commitment"]:
                out.append(f"update {n}: the published hidden key does not hash to the commitment of its seed chain")
    return out
