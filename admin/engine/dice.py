"""Dice anyone can verify (docs/fairness.md).

Every random choice of an update is derived, never drawn from :mod:`random`:
``HMAC-SHA256(seed, digest || label || counter)`` mapped to a face by rejection sampling. The seed
comes from the game's seed chain (admin/engine/seedchain.py): its commitment was fixed when the
chain began, and it is revealed after the update. The ``digest`` (scheme 3) is a hash of each
registered player's accepted commands in a canonical form, and of nothing else the Admin could vary
(scheme 2 hashed each email's raw bytes too; scheme 1 every logged input). ``label`` names the
update, player, purpose and index.

Hidden draws (the card a player receives) stay secret after the reveal, so they come from a second
seed, the *hidden* seed; each player's hidden draws use their own key,
``HMAC-SHA256(hidden seed, "player:" + name)``, whose SHA-256 is published before the update and
sent to them in their results mail, so they can check their own draws at once. The hidden seeds
are published when the game ends (``nomopoly verify --hidden``).
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


#: the way an update's dice are derived: 1, the digest of every logged input (games begun before
#: 2026-11-24); 2, the digest of what the players sent, and a key of its own for each player's
#: hidden draws; 3 (since 2026-11-28), the digest of each registered player's accepted commands in
#: a canonical form only (no mail hash, header, stranger's mail, chatter or empty email)
SCHEME = 3


def inputs_digest(inputs: Any) -> str:
    """SHA-256 of the canonical JSON of an update's inputs (scheme 1)."""
    blob = json.dumps(inputs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def play_digest(inputs: Any) -> str:
    """SHA-256 of what the players sent (scheme 2): each email acted on (its hash, its sender's
    player name, its parsed commands, TOKEN lines left out), in the order of their hashes. The
    cut-off, the times, the verdicts' wording and the Admin's rulings are not in it, so none of
    them can steer a roll while the same mail is included."""
    mails = sorted([m["hash"], m["player"], [line["command"] for line in m["lines"]
                                              if line.get("command") and line["command"].get("cmd") != "token"]]
                   for m in inputs.get("messages") or [] if m.get("status") == "applied")
    return inputs_digest({"update": inputs.get("update"), "mail": mails})


def canonical(data: Any) -> str:
    """The canonical JSON of ``data``: sorted keys, no spaces, UTF-8 text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def player_inputs(inputs: Any) -> dict[str, str]:
    """What enters the dice of an update (scheme 3), by registered player: the SHA-256 of the
    canonical JSON of the sorted list of their accepted commands (each as canonical JSON), over all
    their emails the update acted on. A player whose emails held no command is not in it; neither
    is a stranger (a JOIN from an unknown address), a TOKEN line, a header, the mail's bytes, its
    time or the order in which the emails came."""
    by_player: dict[str, list[str]] = {}
    for m in inputs.get("messages") or []:
        if m.get("status") != "applied" or not m.get("player"):
            continue
        for line in m.get("lines") or []:
            command = line.get("command")
            if command and command.get("cmd") != "token":
                by_player.setdefault(m["player"], []).append(canonical(command))
    return {name: hashlib.sha256(canonical(sorted(cmds)).encode("utf-8")).hexdigest()
            for name, cmds in sorted(by_player.items())}


def fair_digest(update: int, players: dict[str, str], beacon: str | None = None) -> str:
    """The digest of scheme 3: SHA-256 of ``{"update": n, "players": player_inputs}``, with
    ``"beacon": value`` in it when the game mixes in a public beacon (admin/jobs/beacon.py)."""
    data: dict[str, Any] = {"update": update, "players": players}
    if beacon is not None:
        data["beacon"] = beacon
    return hashlib.sha256(canonical(data).encode("utf-8")).hexdigest()


def digest_for(inputs: Any, scheme: int) -> str:
    if scheme >= 3:
        beacon = (inputs.get("beacon") or {}).get("value")
        return fair_digest(int(inputs.get("update") or 0), player_inputs(inputs), beacon)
    return play_digest(inputs) if scheme == 2 else inputs_digest(inputs)


def player_key(hidden_seed: bytes, player: str) -> bytes:
    """The key of ``player``'s hidden draws in one update (scheme 2)."""
    return hmac.new(hidden_seed, f"player:{player}".encode("utf-8"), hashlib.sha256).digest()


def player_commitments(hidden_seed: bytes, players: Sequence[str]) -> dict[str, str]:
    """What is published before an update so each player can check their hidden draws after it."""
    return {name: commitment(player_key(hidden_seed, name)) for name in sorted(players)}


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
    #: whose key a hidden draw used (scheme 2), if it was a player's own
    player: str | None = None


@dataclass(frozen=True)
class PileDraw:
    """A card taken from the top of a face-down pile: at ``position`` of the pile as the last
    update left it (and committed to it), or None for a pile shuffled in this update."""

    deck: str
    position: int | None
    card: str
    player: str | None
    #: whether everyone sees the card (Timopoly's cards) or only its drawer (a hand's card)
    public: bool


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
    #: scheme 2: a player's hidden draws use their own key (player_key)
    player_keys: bool = False
    rolls: list[Roll] = field(default_factory=list)
    hidden_rolls: list[Roll] = field(default_factory=list)
    #: the cards taken from face-down piles, in order (admin/engine/decks.py)
    pile_draws: list[PileDraw] = field(default_factory=list)
    _used: set[str] = field(default_factory=set, repr=False)
    _taken: dict[str, int] = field(default_factory=dict, repr=False)

    def note_shuffle(self, deck: str) -> None:
        """A face-down pile was made anew: its draws in this update have no earlier commitment."""
        self._taken[deck] = -1

    def note_draw(self, deck: str, card: str, player: str | None, public: bool) -> None:
        taken = self._taken.get(deck, 0)
        self.pile_draws.append(PileDraw(deck, taken if taken >= 0 else None, card, player, public))
        if taken >= 0:
            self._taken[deck] = taken + 1

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

    def roll_hidden(self, label: str, sides: int, player: str | None = None) -> int:
        """A roll whose result only its player may learn (from the hidden seed; with
        ``player_keys``, from that player's own key, so they can check it)."""
        full = self._label(label)
        seed = self.hidden_seed if self.hidden_seed is not None else self.seed
        own = player if (player and self.player_keys) else None
        value = derive(player_key(seed, own) if own else seed, self.digest, full, sides)
        self.hidden_rolls.append(Roll(full, sides, value, own))
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
