#!/usr/bin/env python3
"""Check a nomopoly game's dice and record yourself, with Python's standard library alone.

    python3 check.py RECORDS [MAIL.eml ...]

RECORDS is the game site's ``records`` folder (or its address, https://.../records), which holds
every update's public record (``NNNN.json``); each MAIL.eml is one of your results emails, saved
as you received it. The script checks, and prints every problem it finds (exit status 1):

- the record chain: every record is there, in its place, and each names the records before it as
  they stand; your mail's "Record chain to update N" is the chain as it stands now;
- the seeds: each revealed seed hashes to the commitment published before its update, and on a
  seed chain is the next update's commitment; your mail's commitments are the record's;
- every public roll recomputes from its update's seed, digest and label, and the digest is the
  hash of the players' commands the record lists (your own hash is the one your mail gives);
- every card drawn face up from a face-down pile held its place in the order committed before;
- from your mail: your key hashes to the commitment your previous results mail gave, each of your
  hidden draws recomputes with it, and each card you took face down held its committed place;
- once the game is over (``hidden-seeds.json``): every hidden draw is the one the record listed.

How each value is made: docs/fairness.md of nomopoly.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import hmac
import json
import re
import sys
import urllib.request
from pathlib import Path


def canonical(data):
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def derive(key: bytes, digest: str, label: str, sides: int) -> int:
    if sides == 1:
        return 1
    limit, n = (1 << 256) - (1 << 256) % sides, 0
    while True:
        v = int.from_bytes(hmac.new(key, f"{digest}|{label}|{n}".encode(), hashlib.sha256).digest(), "big")
        if v < limit:
            return v % sides + 1
        n += 1


def link(previous, record) -> str:
    body = {k: v for k, v in record.items() if k != "previous"}
    return sha(f"{previous or ''}|{sha(canonical(body).encode())}".encode())


def read(where: str, name: str):
    if re.match(r"https?://", where):
        try:
            with urllib.request.urlopen(f"{where.rstrip('/')}/{name}", timeout=30) as r:
                return json.loads(r.read().decode())
        except OSError:
            return None
        except ValueError as exc:
            sys.exit(f"{where}/{name}: not a record ({exc})")
    path = Path(where) / name
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        sys.exit(f"{path}: not a record ({exc}); download the site's records folder again")


def load(where: str) -> tuple[list, dict | None]:
    index = read(where, "index.json")
    if index is None:
        sys.exit(f"{where}: no index.json; give the site's records folder (or its address)")
    records = [read(where, f"{n:04d}.json") for n in range(int(index["updates"]) + 1)]
    return records, read(where, "hidden-seeds.json") if index.get("hidden") else None


def check_records(records: list, problems: list) -> list:
    chain, head = [], None
    for n, r in enumerate(records):
        if r is None or int(r.get("update", -1)) != n:
            problems.append(f"the record of update {n} is missing or out of its place")
            return chain
        if "previous" in r and n and r["previous"] != chain[-1]:
            problems.append(f"update {n}: the record names the chain before it as {r['previous']}, not {chain[-1]}")
        chain.append(link(chain[-1] if chain else None, r))
        d = r.get("dice")
        if n and d:
            if sha(bytes.fromhex(d["seed"])) != d["commitment"]:
                problems.append(f"update {n}: the seed does not hash to its commitment")
            if records[n - 1].get("next_commitment") != d["commitment"]:
                problems.append(f"update {n}: the commitment is not the one published before the update")
            if head and head[0] < n < head[0] + head[1] and r.get("next_commitment") != d["seed"]:
                problems.append(f"update {n}: the next commitment is not this seed (the seed chain is broken)")
            if head and n == head[0] + 1 and d["commitment"] != head[2]:
                problems.append(f"update {n}: the commitment is not the seed chain's head")
            if int(d.get("scheme", 1)) >= 3:
                data = {"update": n, "players": d.get("players") or {}}
                if d.get("beacon"):  # a public beacon's value, drawn after the deadline
                    data["beacon"] = d["beacon"]["value"]
                fair = sha(canonical(data).encode())
                if fair != d["digest"]:
                    problems.append(f"update {n}: the digest is not the hash of the players' commands listed")
            for label, sides, value in d["rolls"]:
                if derive(bytes.fromhex(d["seed"]), d["digest"], label, int(sides)) != int(value):
                    problems.append(f"update {n}: roll {label} does not recompute")
        for deck, place, card, salt, who in r.get("pile_draws") or []:
            before = (records[n - 1].get("pile_commitments") or {}).get(deck) if n else None
            if card is not None and place is not None and before is not None and (
                    place >= len(before) or sha(bytes.fromhex(salt) + card.encode()) != before[place]):
                problems.append(f"update {n}: {who}'s card {card} was not at place {place + 1} of the {deck} pile")
        if r.get("chain"):
            c = r["chain"]
            if head and n < head[0] + head[1]:
                problems.append(f"update {n}: a new seed chain begins before the last one ended")
            head = (n, int(c["length"]), c["head"])
    return chain


FIELDS = {"seed": r"Update \d+'s seed: (\w+)", "next_commitment": r"Commitment for update \d+: (\w+)",
          "next_hidden_commitment": r"Hidden-seed commitment for update \d+: (\w+)",
          "key_commitment": r"Your key's commitment for update \d+: (\w+)",
          "link": r"Record chain to update \d+: (\w+)", "entered": r"Your commands as they entered the dice: (\w+)"}


def mail_text(path: str) -> tuple[str, str]:
    message = email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",))
    return str(message.get("subject") or ""), body.get_content() if body else ""


def mail_update(path: str) -> int:
    m = re.search(r"Update (\d+) results", mail_text(path)[0])
    return int(m.group(1)) if m else -1


def check_mail(path: str, records: list, chain: list, keys: dict, problems: list) -> int:
    """Check one results mail against the record; 1 if it was one, 0 if skipped."""
    subject, text = mail_text(path)
    m, who = re.search(r"Update (\d+) results for (\S+)", subject), re.match(r"Hello ([^,\s]+),", text)
    if not m or not who:
        print(f"{path}: skipped, not a results email (no \"Update N results for NAME\" subject)")
        return 0
    n, name = int(m.group(1)), who.group(1)
    if n >= len(records) or n >= len(chain):
        problems.append(f"{path}: the record of update {n} is missing")
        return 1
    r, said = records[n], {k: re.search(p, text) for k, p in FIELDS.items()}
    d = r.get("dice") or {}
    stands = {"seed": d.get("seed"), "next_commitment": r.get("next_commitment"),
              "next_hidden_commitment": r.get("next_hidden_commitment"),
              "key_commitment": (r.get("next_player_commitments") or {}).get(name), "link": chain[n],
              "entered": (d.get("players") or {}).get(name) or "none"}
    for key, found in said.items():
        if found and found.group(1) != stands[key]:
            problems.append(f"{path}: {key} was mailed as {found.group(1)}; the record now gives {stands[key]}")
    keys[(n + 1, name)] = stands["key_commitment"]
    key = re.search(r"Your key for this update: ([0-9a-f]{64})", text)
    if key:
        k = bytes.fromhex(key.group(1))
        published = (keys.get((n, name)) or (records[n - 1].get("next_player_commitments") or {}).get(name)
                     or (d.get("player_commitments") or {}).get(name))  # a player who joined just before
        if sha(k) != published:
            problems.append(f"{path}: your key does not hash to the commitment published for you before update {n}")
        for label, sides, value in re.findall(r"  (u\d+/\S+): a d(\d+) gave (\d+)", text):
            if derive(k, d.get("digest", ""), label, int(sides)) != int(value):
                problems.append(f"{path}: your draw {label} does not recompute with your key")
    for deck, card, place, salt in re.findall(r"From the (\S+) pile: (.+?), place (\d+) of .*?salt (\w{64})", text):
        before = (records[n - 1].get("pile_commitments") or {}).get(deck) or []
        if int(place) > len(before) or sha(bytes.fromhex(salt) + card.encode()) != before[int(place) - 1]:
            problems.append(f"{path}: your card {card} was not at place {place} of the {deck} pile as committed")
    return 1


def check_hidden(records: list, revealed: dict, problems: list) -> None:
    for n, r in enumerate(records[1:], 1):
        got = (revealed.get("updates") or {}).get(str(n))
        listed = (r.get("dice") or {}).get("hidden_draws")
        if got is None or listed is None:
            continue
        given = [sha(canonical([x[0], int(x[1]), x[3] if len(x) > 3 else None]).encode()) for x in got["hidden_rolls"]]
        if given != listed:
            problems.append(f"update {n}: the hidden draws published at the end are not those the record listed")
        seed = bytes.fromhex(got["hidden_seed"])
        if sha(seed) != r["dice"].get("hidden_commitment"):
            problems.append(f"update {n}: the hidden seed does not hash to its commitment")
        for x in got["hidden_rolls"]:
            key = hmac.new(seed, f"player:{x[3]}".encode(), hashlib.sha256).digest() if len(x) > 3 else seed
            if derive(key, r["dice"]["digest"], x[0], int(x[1])) != int(x[2]):
                problems.append(f"update {n}: hidden draw {x[0]} does not recompute")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    records, revealed = load(argv[0])
    problems: list[str] = []
    chain = check_records(records, problems)
    keys: dict = {}
    mails = sum(check_mail(path, records, chain, keys, problems)  # oldest first: a key against the mail before
                for path in sorted(argv[1:], key=mail_update))
    if revealed:
        check_hidden(records, revealed, problems)
    for p in problems:
        print(p)
    if not problems:
        print(f"All good: {len(records) - 1} updates, {mails} results mail(s) checked"
              + (", and every hidden draw" if revealed else "") + ".")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
