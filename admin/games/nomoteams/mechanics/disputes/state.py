"""XXVII's commands, a dispute and the section's state, and reading a Penalty (XXVII.4-XXVII.6)."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.declare import command
from admin.engine.settled import keep, settled, unpickled
from admin.engine.errors import CommandError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, WETHA

if TYPE_CHECKING:
    from admin.engine.model import GameState

#: the module's name
NAME = "teams-disputes"

COURT, TRIAL = "Court", "Trial"
MECHANISMS = {"COURT": COURT, "GOVERNMENT": COURT, "TRIAL": TRIAL, "CORPORATE": TRIAL}


_ACCUSE = re.compile(r"^(\S+)\s+PENALTY\s+(.+?)\s*:\s*(.+)$", re.IGNORECASE | re.DOTALL)


def _parse_penalty(text: str) -> tuple[str, int, str | None]:
    words = text.split()
    up = [w.upper() for w in words]
    if up and up[0] == "PAY" and len(words) >= 2 and re.fullmatch(r"\$?\d{1,9}", words[1]):
        amount = int(words[1].lstrip("$"))
        if len(words) == 2:
            return "pay", amount, None
        if up[2] == "TO" and len(words) >= 4:
            target = " ".join(words[3:])
            named = {"GOVERNMENT": GOVERNMENT, "THE GOVERNMENT": GOVERNMENT, "CORPORATION": CORPORATION,
                     "THE CORPORATION": CORPORATION, "WETHA": WETHA, "THE WETHA": WETHA}
            return "pay", amount, named.get(target.upper(), target)
    if up and up[0] == "CHAINS" and len(words) == 2 and words[1].isdecimal():
        return "chains", int(words[1]), None
    if up == ["UNREGISTER"]:
        return "unregister", 0, None
    raise CommandError(f"{text!r} is not a recognised Penalty; say PAY <amount> [TO <player>|GOVERNMENT|CORPORATION] "
                       "(XXVII.4), CHAINS <pounds, at most 100> (XXVII.5) or UNREGISTER (XXVII.6).")


def _parse_accuse(rest: str, line: object) -> Accuse:
    m = _ACCUSE.match(rest.strip())
    if not m:
        raise CommandError("ACCUSE needs a player, a Penalty and the charge with its facts, like ACCUSE bob "
                           "PENALTY PAY 100: he took my hat on square 12 in week 3.")
    kind, amount, payee = _parse_penalty(m.group(2))
    return Accuse(m.group(1), kind, amount, payee, " ".join(m.group(3).split()))


def _parse_dispute(rest: str, line: object) -> DisputeAction:
    m = re.match(r"^#?(\d{1,6})\s+(.*)$", rest.strip(), re.DOTALL)
    usage = ("DISPUTE <n> COURT, DISPUTE <n> TRIAL, DISPUTE <n> ARGUE <text>, DISPUTE <n> BUY <k> EXTRA DICE or "
             "DISPUTE <n> REFUSE TO PAY")
    if not m:
        raise CommandError(f"DISPUTE needs the dispute's number and what to do: {usage}; found {rest.strip()!r}.")
    number, tail = int(m.group(1)), m.group(2).strip()
    words = tail.upper().split()
    if len(words) == 1 and words[0] in MECHANISMS:
        return DisputeAction(number, "choose", MECHANISMS[words[0]])
    if words[:1] == ["ARGUE"] and len(words) > 1:
        return DisputeAction(number, "argue", " ".join(tail.split()[1:]))
    dice = re.fullmatch(r"BUY\s+(\d{1,3})\s+(?:EXTRA\s+)?(?:DICE|DIE)", " ".join(words))
    if dice:
        return DisputeAction(number, "dice", dice.group(1))
    if " ".join(words) in ("REFUSE", "REFUSE TO PAY"):
        return DisputeAction(number, "refuse")
    raise CommandError(f"say {usage}; found DISPUTE {rest.strip()!r}.")


@command("ACCUSE <defendant:player> PENALTY <penalty> <charge>", usage="ACCUSE <player> PENALTY <penalty>: <charge>",
         parse=_parse_accuse, cmd="teams-accuse", listing=160,
         summary="start a dispute: the charge and its facts, and a Penalty for the "
                 "loser: PAY <amount> [TO <whom>], CHAINS <pounds> or UNREGISTER",
         example="ACCUSE bob PENALTY PAY 100: he sold me square 12 and kept it",
         rules=("XXVII.1", "XXVII.4", "XXVII.5", "XXVII.6"))
class Accuse:
    """``ACCUSE <player> PENALTY <penalty>: <charge and facts>`` (XXVII.1)."""

    defendant: str
    penalty: str
    amount: int
    payee: str | None
    charge: str


@command("DISPUTE <number:n> <action>", usage="DISPUTE <n> COURT|TRIAL|ARGUE <text>|BUY <k> EXTRA DICE|REFUSE TO PAY",
         parse=_parse_dispute, cmd="teams-dispute", listing=161,
         summary="in a dispute of yours: choose a Government Court or a Corporate Trial, argue "
                 "for the Court, allot Extra Dice ($50 each) for a Trial, refuse to pay",
         example="DISPUTE 1 TRIAL", rules=("XXVII.1", "XXVII.3", "XXVII.4"))
class DisputeAction:
    """``DISPUTE <n> COURT|TRIAL``, ``DISPUTE <n> ARGUE <text>``, ``DISPUTE <n> BUY <k> EXTRA DICE``,
    ``DISPUTE <n> REFUSE TO PAY`` (XXVII.1, XXVII.3, XXVII.4)."""

    number: int
    action: str
    value: str = ""


@dataclass
class Dispute:
    number: int
    accuser: str
    defendant: str
    charge: str
    #: "pay", "chains" or "unregister"
    penalty: str
    amount: int = 0
    #: who a payment goes to (None: the winner)
    payee: str | None = None
    update: int = 0
    #: party -> Court or Trial (XXVII.1)
    choices: dict[str, str] = field(default_factory=dict)
    #: party -> her arguments for a Court
    arguments: dict[str, list[str]] = field(default_factory=dict)
    #: party -> Extra Dice allotted for a Trial (XXVII.3)
    extra_dice: dict[str, int] = field(default_factory=dict)
    #: parties who said they refuse to pay a payment Penalty (XXVII.4)
    refuses: list[str] = field(default_factory=list)
    mechanism: str | None = None
    #: open (the week to choose), court (waiting for the Admin), settled, lapsed
    status: str = "open"
    winner: str | None = None
    outcome: str = ""


#: a dispute in one of these is never changed again
FINAL = ("settled", "lapsed")


@dataclass
class DisputesState:
    disputes: list[Dispute] = field(default_factory=list)
    next_number: int = 1
    #: player -> pounds of Chains (XXVII.4, XXVII.5)
    chains: dict[str, int] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (XXII.4's snapshot before every action) with the disputes already settled or
        lapsed, which are never changed again and are most of them (hundreds in a long game), as
        one blob pickled once and kept (admin/engine/settled.py), so that each snapshot does not
        pickle them again."""
        final, blob = settled(self, self.disputes, _is_final)
        return (_unpickle_disputes, (blob, self.disputes[len(final):], self.next_number, self.chains))

    def __deepcopy__(self, memo: dict[int, Any]) -> DisputesState:
        """The copy of the state an update starts from shares the settled disputes (as it shares
        buried cards), instead of unpickling them all from their blob, and copies the rest."""
        final, blob = settled(self, self.disputes, _is_final)
        copied = DisputesState(final + copy.deepcopy(self.disputes[len(final):], memo), self.next_number,
                               copy.deepcopy(self.chains, memo))
        keep(copied, final, blob)
        memo[id(self)] = copied
        return copied


def _is_final(dispute: Dispute) -> bool:
    return dispute.status in FINAL


def _unpickle_disputes(final: bytes, rest: list[Dispute], next_number: int, chains: dict[str, int]) -> DisputesState:
    done = unpickled(final)
    ds = DisputesState(done + rest, next_number, chains)
    keep(ds, done, final)
    return ds


def _dice(k: int) -> str:
    return "Die" if k == 1 else "Dice"


def penalty_text(state: GameState, d: Dispute) -> str:
    if d.penalty == "pay":
        return f"pay {state.money(d.amount)} to {d.payee or 'the winner'}"
    if d.penalty == "chains":
        return f"{d.amount} lb of Chains"
    return "loses Registered Voter status"


def of(state: GameState) -> DisputesState:
    """The section's state (``DisputesModule.of``)."""
    return api.DISPUTES.of(state)
