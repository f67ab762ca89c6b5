"""An optional public randomness beacon (docs/fairness.md), off by default.

With ``[dice] beacon = true`` in ``nomopoly.toml``, every update mixes into its digest the value a
public beacon published *after* the update's cut-off, so that nobody, the Admin included, can know
a roll before the mail closes. The round is fixed by the update's scheduled deadline (the first
round after it; the cut-off only in a game with no schedule), so running the update at another
cut-off cannot draw another value. By default the beacon is drand's mainnet
(``https://api.drand.sh/public/<round>``: a round every 30 seconds since 1595431050); a game may
name another with ``beacon_url`` (``{round}`` in it), ``beacon_genesis`` and ``beacon_period``.
The value used is recorded in the update's inputs and its public record, and replay and verify use
it from there. ``nomopoly update --beacon VALUE`` gives the value by hand (a recorded one, or when
the beacon cannot be reached from the Admin's machine).
"""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from admin.engine.errors import StateError, TemporaryError

DRAND = "https://api.drand.sh/public/{round}"
DRAND_GENESIS = 1595431050
DRAND_PERIOD = 30


@dataclass(frozen=True)
class BeaconSettings:
    on: bool = False
    url: str = DRAND
    genesis: int = DRAND_GENESIS
    period: int = DRAND_PERIOD

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "BeaconSettings":
        on = raw.get("beacon", False)
        if not isinstance(on, bool):
            raise StateError(f"nomopoly.toml [dice] beacon = {on!r}: write true or false")
        try:
            settings = cls(on, str(raw.get("beacon_url", DRAND)), int(raw.get("beacon_genesis", DRAND_GENESIS)),
                           int(raw.get("beacon_period", DRAND_PERIOD)))
        except (TypeError, ValueError):
            raise StateError("nomopoly.toml [dice] beacon_genesis and beacon_period must be whole numbers "
                             f"of seconds, not {raw.get('beacon_genesis')!r} and {raw.get('beacon_period')!r}") from None
        if settings.period < 1 or "{round}" not in settings.url:
            raise StateError("nomopoly.toml [dice]: beacon_period must be at least 1 and beacon_url must hold "
                             f"{{round}} (it is {settings.url!r})")
        return settings

    def round_after(self, cutoff: datetime) -> int:
        """The first round published after ``cutoff``."""
        return max(1, int(cutoff.timestamp() - self.genesis) // self.period + 2)


def parse_value(text: str) -> str:
    """A beacon value given by hand: hex, 32 to 128 digits."""
    value = text.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{32,128}", value):
        raise StateError(f"--beacon {text!r} is not a beacon value: give its randomness in hex (32 to 128 "
                         "digits), as the beacon published it for the round after the cut-off")
    return value


def fetch(settings: BeaconSettings, round_: int, timeout: float = 20.0) -> str:
    """The beacon's randomness for ``round_`` (a network call at the edge of the update job)."""
    url = settings.url.format(round=round_)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            data = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise TemporaryError(f"the beacon {url} could not be read ({exc}); run the update again later, or "
                             "give the round's value with --beacon") from None
    if not isinstance(data, dict) or str(data.get("round", round_)) != str(round_):
        raise StateError(f"the beacon {url} did not answer with round {round_}'s randomness")
    return parse_value(str(data.get("randomness", "")))


def beacon_input(settings: BeaconSettings, cutoff: datetime, given: str | None) -> dict[str, Any] | None:
    """What the update records of the beacon: its round and value (None: the game uses none).
    ``cutoff`` is the update's scheduled deadline where it has one."""
    if given is not None and not settings.on:
        raise StateError("--beacon was given, but this game mixes no beacon into its dice "
                         "(set [dice] beacon = true in nomopoly.toml before its first update to use one)")
    if not settings.on:
        return None
    round_ = settings.round_after(cutoff)
    return {"round": round_, "value": parse_value(given) if given is not None else fetch(settings, round_)}
