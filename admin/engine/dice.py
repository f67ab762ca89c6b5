"""Dice anyone can verify.

Before an update the admin publishes ``SHA-256(seed)``. Every random choice of the update is
derived, never drawn from :mod:`random`: ``HMAC-SHA256(seed, inputs_digest || label || counter)``
mapped to a face by rejection sampling, where ``inputs_digest`` hashes the update's sorted inputs
and ``label`` names the update, player, purpose and index. After the update the seed is revealed
and ``nomopoly verify`` recomputes every roll from the log.

Hidden draws (the card a player receives, a card buried on a full hand) must stay secret after the
reveal, so they come from a second seed, the *hidden* seed, committed the same way before the
update but never published: the admin's ``nomopoly verify`` checks those rolls from the private
log. Anyone can check every public roll; nobody can learn a hidden card from the site.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Sequence, TypeVar

T = TypeVar("T")


def new_seed() -> bytes:
    """32 random bytes from the OS (``secrets``)."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def inputs_digest(inputs: Any) -> str:
    """SHA-256 of the canonical JSON of an update's inputs."""
    blob = json.dumps(inputs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def derive(seed: bytes, digest: str, label: str, sides: int) -> int:
    """A uniform face in ``1..sides`` for this label, by rejection sampling over HMAC output."""
    if sides < 1:
        raise ValueError(f"a die needs at least one side, not {sides}")
    if sides == 1:
        return 1
    limit = (1 << 256) - ((1 << 256) % sides)
    counter = 0
    while True:
        msg = f"{digest}|{label}|{counter}".encode("utf-8")
        value = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest(), "big")
        if value < limit:
            return value % sides + 1
        counter += 1  # pragma: no cover - happens with probability < 2**-128


@dataclass
class Roll:
    label: str
    sides: int
    value: int


@dataclass(frozen=True)
class Seeds:
    """The two seeds of one update: the public one (revealed after) and the hidden one (never)."""

    public: bytes
    hidden: bytes

    def commitments(self) -> tuple[str, str]:
        return commitment(self.public), commitment(self.hidden)

    @classmethod
    def new(cls) -> "Seeds":
        return cls(new_seed(), new_seed())


@dataclass
class Dice:
    """The update's source of randomness; records every roll for the log and ``verify``."""

    seed: bytes
    digest: str
    update: int
    #: the seed of hidden draws (see the module docstring); the public seed when not given
    hidden_seed: bytes | None = None
    rolls: list[Roll] = field(default_factory=list)
    hidden_rolls: list[Roll] = field(default_factory=list)
    _used: set[str] = field(default_factory=set, repr=False)

    def _label(self, label: str) -> str:
        full = f"u{self.update}/{label}"
        if full in self._used:
            raise ValueError(f"die label {full!r} used twice in one update")  # engine bug guard
        self._used.add(full)
        return full

    def roll(self, label: str, sides: int) -> int:
        full = self._label(label)
        value = derive(self.seed, self.digest, full, sides)
        self.rolls.append(Roll(full, sides, value))
        return value

    def roll_hidden(self, label: str, sides: int) -> int:
        """A roll whose result only its player may learn (from the hidden seed)."""
        full = self._label(label)
        value = derive(self.hidden_seed if self.hidden_seed is not None else self.seed, self.digest,
                       full, sides)
        self.hidden_rolls.append(Roll(full, sides, value))
        return value

    def shuffle(self, items: Sequence[T], label: str) -> list[T]:
        """A Fisher–Yates shuffle whose every swap is a recorded roll."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.roll(f"{label}/{i}", i + 1) - 1
            out[i], out[j] = out[j], out[i]
        return out

    def chance(self, numerator: int, denominator: int, label: str) -> bool:
        """True with probability ``numerator/denominator`` (1 when numerator >= denominator)."""
        if numerator >= denominator:
            return True
        return self.roll(label, denominator) <= numerator


def verify_rolls(seed: bytes, digest: str, rolls: list[Roll]) -> list[str]:
    """Recompute each recorded roll; return a description of every mismatch (empty: all good)."""
    problems = []
    for r in rolls:
        expected = derive(seed, digest, r.label, r.sides)
        if expected != r.value:
            problems.append(f"{r.label}: d{r.sides} recorded {r.value}, recomputed {expected}")
    return problems
