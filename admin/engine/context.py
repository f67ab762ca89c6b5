"""The update context: the state being changed, the dice, the events, the registry of mechanics,
and the money helper every mechanic uses, so the rules of payment are written once."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine import hooks
from admin.engine.dice import Dice
from admin.engine.events import Event
from admin.engine.errors import IllegalAction
from admin.engine.schedule import Slot
from admin.engine.model import GameState, Proposal

if TYPE_CHECKING:
    from admin.engine.registry import Registry

BANK = "@bank"  #: the Admin Bank Account (XV) as a party to a payment
#: a rule cited in an event's text: "(XIII.3)", "(IX.2: the last one counts)", "(VI.17, ..."
#: a rule cited in an event's text: "(XIII.3)", ", XIII.3;" ... and a game's own rule whose number
#: the library also uses for another, written with the game's prefix ("(teams:VIII.4)"), which its
#: aliases map to the number its players read
_CITATION = re.compile(r"(?:(?<=\()|(?<=, ))(?P<id>(?:[a-z][a-z0-9-]*:)?[IVXLC]+\.\d+)(?=[):;,])")


def cite(text: str, aliases: dict[str, str]) -> str:
    """``text`` with the rules it cites in parentheses renumbered by ``aliases`` (the library's
    number -> this game's), in one pass."""
    return _CITATION.sub(lambda m: aliases.get(m.group("id"), m.group("id")), text)


@dataclass
class UpdateContext:
    state: GameState
    dice: Dice
    slot: Slot
    events: list[Event] = field(default_factory=list)
    landing_order: int = 0
    #: players who may take no voluntary action this update (none in the core rules)
    barred: set[str] = field(default_factory=set)
    #: always given by the update (run_update); None only in a bare context a test builds
    registry: Registry = None  # type: ignore[assignment]
    #: proposals closed before this update, taken out of the live state to be archived
    archived: list[Proposal] = field(default_factory=list)
    #: what modules note for the rest of this update only (never saved): who has had a bonus ...
    scratch: dict[str, Any] = field(default_factory=dict)

    @property
    def received(self) -> str:
        """When the email being carried out arrived (ISO text); "" outside an email's actions."""
        return str(self.scratch.get("received") or "")

    # -- events ----------------------------------------------------------------------------
    def emit(self, kind: str, text: str | None, **kw: Any) -> Event:
        """An event. In a game whose ``rule_aliases`` renumber the library's rules, the rule it
        cites (``rule``, and "(XIII.3)" in its texts) is given this game's number, unless the
        emitter says with ``native=True`` that it already cites this game's rulebook."""
        aliases = self.state.rule_aliases
        if aliases and not kw.pop("native", False):  # cite the rule by this game's number
            if kw.get("rule"):
                kw["rule"] = aliases.get(kw["rule"], kw["rule"])
            text = cite(text, aliases) if text else text
            if kw.get("private"):
                kw["private"] = cite(kw["private"], aliases)
        kw.pop("native", None)
        ev = Event(kind=kind, text=text, **kw)
        self.events.append(ev)
        return ev

    def params(self, module: str) -> dict[str, Any]:
        """A module's parameters: the game's values over the module's defaults."""
        return self.registry.params(self.state, module)

    # -- money (IV, XV) --------------------------------------------------------------------
    def transfer(self, payer: str, payee: str, amount: int, *, rule: str, reason: str,
                 voluntary: bool = False, kind: str = "other") -> None:
        """Move money between players, the Admin Bank Account (``BANK``) and the parties modules
        keep (``Mechanic.account``): every payment of the game passes here, and every enabled
        module then hears of it (``on_payment``, with its ``kind``: rent, tax, purchase, fine,
        wage, bonus ... or other).

        A voluntary payment that would make the payer bankrupt, or any voluntary loss by a
        bankrupt player, raises :class:`IllegalAction` and moves nothing (IV.3).
        """
        if amount < 0:
            payer, payee, amount = payee, payer, -amount
        if amount == 0:
            return
        payer_book, payee_book = self._book(payer), self._book(payee)
        if payer_book is not None:  # a pseudoplayer's account (the Teams variant's Government)
            if voluntary and payer_book[payer] - amount < 0:
                raise IllegalAction(f"that costs {self.state.money(amount)} and {payer} has "
                                    f"{self.state.money(payer_book[payer])}")
            payer_book[payer] -= amount
        elif payer != BANK:
            p = self.state.players[payer]
            if voluntary and p.money < 0:
                raise IllegalAction(f"{payer} is bankrupt ({self.state.money(p.money)}) and may not pay "
                                    f"{self.state.money(amount)} (IV.3)")
            if voluntary and p.money - amount < 0:
                raise IllegalAction(
                    f"that costs {self.state.money(amount)} and {payer} has {self.state.money(p.money)}; "
                    "no voluntary action may make a player bankrupt (IV.3)")
            p.money -= amount
        else:
            self.state.admin_bank -= amount
        if payee_book is not None:
            payee_book[payee] += amount
        elif payee != BANK:
            self.state.players[payee].money += amount
        else:
            self.state.admin_bank += amount
        def who(party: str) -> str:
            return "the Admin Bank Account" if party == BANK else party
        self.emit("money", None, rule=rule,
                  data={"from": payer, "to": payee, "amount": amount, "reason": reason,
                        "summary": f"{who(payer)} paid {self.state.money(amount)} to {who(payee)}: {reason}"})
        hooks.call(self).on_payment(self, payer, payee, amount, kind)

    def _book(self, party: str) -> dict[str, int] | None:
        """The balances that hold ``party``'s money if it is no player and not the bank: a
        module's pseudoplayers (``Mechanic.account``); None for a player or the bank."""
        if party == BANK or party in self.state.players or self.registry is None:
            return None
        return hooks.call(self).account(self.state, party)
