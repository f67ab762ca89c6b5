"""Seeds the Admin cannot choose again, and a public record nobody can rewrite unseen
(docs/fairness.md).

**The seed chain.** A game's public seeds are a SHA-256 hash chain drawn once, when the chain
begins: a random *tail* ``c[base + length]``, and ``c[i] = SHA-256(c[i + 1])``. Update ``n``'s
seed is ``c[n]``; its commitment, ``SHA-256(c[n])``, is ``c[n - 1]``: the *head* ``c[base]`` is the
first update's commitment, published when the chain begins, and each update's revealed seed is the
next update's commitment. Re-running an update cannot offer another seed for the next one, and
anyone checks the chain with one hash per update.

**The hidden key.** Hidden draws (a card only its player may see) need seeds that are not
revealed after the update, so they come from a secret *hidden key* committed when the chain
begins: update ``n``'s hidden seed is ``HMAC-SHA256(hidden key, "hidden/<n>")``. The key is
published when the game ends, and every hidden seed of the game is then checked against it.

**The record chain.** Each update's public record (its results file) is linked to all before it:
``link[n] = SHA-256(link[n - 1] | SHA-256(record n, canonical, without its "previous"))``, and
record ``n`` carries ``link[n - 1]`` as ``previous``; ``link[n]`` goes to every player in their
results mail, so a record edited, dropped or reordered afterwards no longer gives the link they hold.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from admin.engine.dice import Seeds, canonical

#: how many updates one chain serves (a new chain, committed in the update it begins at, follows)
CHAIN_LENGTH = 10_000


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def hidden_seed_of(hidden_key: bytes, update: int) -> bytes:
    return hmac.new(hidden_key, f"hidden/{update}".encode("utf-8"), hashlib.sha256).digest()


@dataclass(frozen=True)
class SeedChain:
    """The secret that fixes every seed of updates ``base + 1`` to ``base + length``."""

    tail: bytes
    base: int
    length: int
    hidden_key: bytes

    @classmethod
    def new(cls, base: int, key: str | None = None, length: int | None = None) -> "SeedChain":
        """A fresh chain from the OS's randomness, or (the demo: insecure) from a public ``key``."""
        length = CHAIN_LENGTH if length is None else length
        if key:
            return cls(sha256(f"{key}/chain/{base}".encode()), base, length,
                       sha256(f"{key}/chain/{base}/hidden".encode()))
        return cls(secrets.token_bytes(32), base, length, secrets.token_bytes(32))

    def covers(self, update: int) -> bool:
        return self.base < update <= self.base + self.length

    def seed(self, update: int) -> bytes:
        """``c[update]``; ``c[base]`` (the head) for ``update == base``."""
        if not self.base <= update <= self.base + self.length:
            raise ValueError(f"update {update} is outside this seed chain ({self.base + 1} to "
                             f"{self.base + self.length})")
        value = self.tail
        for _ in range(self.base + self.length - update):
            value = sha256(value)
        return value

    @property
    def head(self) -> str:
        return self.seed(self.base).hex()

    @property
    def hidden_key_commitment(self) -> str:
        return sha256(self.hidden_key).hex()

    def seeds(self, update: int) -> Seeds:
        if not self.covers(update):
            raise ValueError(f"update {update} is outside this seed chain")
        return Seeds(self.seed(update), hidden_seed_of(self.hidden_key, update))

    def announcement(self) -> dict[str, Any]:
        """What is published when the chain begins: where, how long, its head, the hidden key's hash."""
        return {"base": self.base, "length": self.length, "head": self.head,
                "hidden_key_commitment": self.hidden_key_commitment}

    def to_secret(self) -> dict[str, Any]:
        return {"chain_tail": self.tail.hex(), "chain_base": self.base, "chain_length": self.length,
                "hidden_key": self.hidden_key.hex()}

    @classmethod
    def from_secret(cls, data: dict[str, Any]) -> "SeedChain | None":
        if "chain_tail" not in data:
            return None
        return cls(bytes.fromhex(data["chain_tail"]), int(data["chain_base"]), int(data["chain_length"]),
                   bytes.fromhex(data["hidden_key"]))


# -- face-down piles ---------------------------------------------------------------------------------
def pile_salt(hidden_seed: bytes, deck: str, place: int) -> bytes:
    """The salt of one place of a face-down pile, from the hidden seed of the update that draws
    from it next (so a drawn card's salt is told without telling the others')."""
    return hmac.new(hidden_seed, f"pile/{deck}/{place}".encode("utf-8"), hashlib.sha256).digest()


def pile_hash(salt: bytes, card: str) -> str:
    return hashlib.sha256(salt + str(card).encode("utf-8")).hexdigest()


def pile_commitments(hidden_seed: bytes, piles: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each face-down pile's order as the record commits to it: a salted hash per place, top first."""
    return {deck: [pile_hash(pile_salt(hidden_seed, deck, i), card) for i, card in enumerate(cards)]
            for deck, cards in sorted(piles.items())}


# -- the record chain --------------------------------------------------------------------------------
def ruling_hash(ruling: dict[str, Any]) -> str:
    """A ruling as the public record holds it: the SHA-256 of its canonical JSON (its words and
    arguments may be private; what it did is in the record's events)."""
    return hashlib.sha256(canonical(ruling).encode("utf-8")).hexdigest()


def hidden_draw_hash(draw: list[Any]) -> str:
    """A hidden draw as the public record holds it before the game ends: the SHA-256 of its label,
    sides and player (never its value), so that none can later be dropped, added, relabelled or
    moved to another player's key unseen."""
    label, sides = draw[0], int(draw[1])
    player = draw[3] if len(draw) > 3 else None
    return hashlib.sha256(canonical([label, sides, player]).encode("utf-8")).hexdigest()


def record_digest(record: dict[str, Any]) -> str:
    """SHA-256 of a public record's canonical JSON, its ``previous`` left out."""
    body = {k: v for k, v in record.items() if k != "previous"}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def next_link(previous: str | None, record: dict[str, Any]) -> str:
    """The link of a record: what follows ``previous`` (None before the first record)."""
    return hashlib.sha256(f"{previous or ''}|{record_digest(record)}".encode("utf-8")).hexdigest()


def links(records: list[dict[str, Any]]) -> list[str]:
    """Each record's link, in order (the last is the chain's head)."""
    out: list[str] = []
    for record in records:
        out.append(next_link(out[-1] if out else None, record))
    return out
