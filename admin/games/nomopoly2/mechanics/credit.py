"""Nomopoly II XXVIII: credit cards. A player takes one out at the Bank of Nomopoly (XXVII.1,
``TAKE CREDIT CARD``); a voluntary purchase written with ``ON CREDIT`` (any section's, through
``shared.charge``) is paid to the seller by the card and added to its balance, up to the limit
($1000 to start); ``PAY CREDIT <amount>`` pays some of it back and raises the limit by 10% of the
payment. A card with a balance at a week's start grows by 10% and owes a minimum payment that
week ($50 or 5% of the balance, the greater); a week that ends without it is an infraction, each
worse than the last (XXVIII.5).

Standing rulings (docs/rulings.md): XXVIII.2 and XXVIII.3 say the same thing and
are one rule here; a week starts with its first update (Thursday) and ends with its last (Sunday),
and a paused update does neither; the minimum is 5% of the balance after the interest, never more
than the balance, and is met by payments made in that week's updates (or by a balance brought to
0); a square the card takes back becomes unowned, and a deduction larger than the balance leaves it
at 0; percentages round to the nearest dollar (IV.1); the seller of a purchase on credit is paid
from the Admin Bank Account (XV.2), and payments go into it (XV.1); a reset (XII.2) clears the card
and its balance (a player barred from cards stays barred)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Sequence

from admin.engine.capabilities import TakesCredit
from admin.engine.context import BANK
from admin.engine.declare import As, command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.games.nomopoly2.api import BANK_OF_NOMOPOLY, KeepsCreditCards
from admin.games.nomopoly2.mechanics import shared
from admin.library.ownership import OwnershipModule, set_owner
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState
    from admin.engine.module import CommandSpec


@dataclass
class CreditAccount:
    balance: int = 0
    limit: int = 1000
    #: the weeks that ended without the minimum payment (XXVIII.5)
    infractions: int = 0
    #: the minimum payment owed this week (0: none)
    due: int = 0
    #: what was paid this week
    paid: int = 0


@dataclass
class CreditState:
    #: who holds a credit card (public: the Bank's page lists them)
    holders: list[str] = field(default_factory=list)
    #: who had their card taken away and may never hold one again (XXVIII.5)
    banned: list[str] = field(default_factory=list)


@dataclass
class CreditPrivate:
    #: each holder's card: balance, limit, infractions (each sees only their own)
    accounts: dict[str, CreditAccount] = field(default_factory=dict)


_AMOUNT = re.compile(r"^\$?\s*([\d,]{1,12})(?:\s*dollars)?\.?$", re.IGNORECASE)
_PAY_HINT = "write PAY CREDIT <amount>, e.g. PAY CREDIT 100: a whole number of dollars"


def _amount(text: str) -> int:
    m = _AMOUNT.match(text.strip())
    digits = m.group(1).replace(",", "") if m else ""
    if not digits.isdecimal() or not 1 <= int(digits) <= 10**9:
        raise CommandError(_PAY_HINT)
    return int(digits)


@command("PAY CREDIT <amount>", keyword="PAY CREDIT", hint=_PAY_HINT, private=True, listing=277,
         rules=("XXVIII.4",), example="PAY CREDIT 100",
         summary="from anywhere: pay towards your credit card's balance; 10% of the payment "
                 "is added to your limit")
class PayCredit:
    """``PAY CREDIT <amount>`` (XXVIII.4)."""

    #: ``100``, ``$100``, ``$ 1,000``, ``100 dollars``
    amount: Annotated[int, As(_amount, words=3)]


class CreditModule(Mechanic[CreditState, CreditPrivate], TakesCredit, KeepsCreditCards):
    name = "credit-cards"
    rules = ("XXVIII.1", "XXVIII.2", "XXVIII.3", "XXVIII.4", "XXVIII.5")
    stated = {"XXVIII.2": {"start_limit": ("starts with a limit of ${}",)},
              "XXVIII.3": {"start_limit": ("starts with a ${} limit",)},
              "XXVIII.5": {"interest_percent": ("has {}% interest added",),
                           "minimum_payment": ("during that week: ${} or",),
                           "minimum_percent": ("or {}% of the balance",)}}
    defaults = {"start_limit": 1000, "limit_raise_percent": 10, "interest_percent": 10, "minimum_payment": 50,
                "minimum_percent": 5, "seize_percent": 75, "rounding": "nearest",
                # XXX.1: a card holder's net worth counts this share of the credit limit
                "worth_limit_percent": 10}
    choices = {"rounding": ("nearest", "down", "up")}
    minimums = {"start_limit": 0, "limit_raise_percent": 0, "interest_percent": 0, "minimum_payment": 0,
                "minimum_percent": 0, "seize_percent": 0, "worth_limit_percent": 0}
    summary = ("Credit cards from the Bank: put a purchase ON CREDIT up to the limit ($1000), pay it back; "
               "10% interest a week and a minimum payment, or escalating penalties.")
    State = CreditState
    Private = CreditPrivate
    requires = ("ownership",)

    def put_on_credit(self, ctx: UpdateContext, player: str, payee: str, amount: int, *, rule: str,
                      reason: str) -> None:
        put_on_credit(ctx, player, payee, amount, rule=rule, reason=reason)

    def issue_card(self, ctx: UpdateContext, player: Player) -> str:
        return issue_card(ctx, player)

    def raise_limits(self, ctx: UpdateContext, percent: int, rule: str) -> None:
        raise_limits(ctx, percent, rule)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((PayCredit, pay))

    # -- the week ---------------------------------------------------------------------------
    def on_update_start(self, ctx: UpdateContext) -> None:
        """A week's start: 10% interest on a positive balance, and that week's minimum payment
        (XXVIII.5)."""
        if ctx.slot.index != 0 or ctx.state.paused:
            return
        p = ctx.params(self.name)
        rounding = str(p["rounding"])
        for name, acct in sorted(self.private_of(ctx.state).accounts.items()):
            acct.paid, acct.due = 0, 0
            if acct.balance <= 0:
                continue
            interest = percent_of(acct.balance, int(p["interest_percent"]), rounding)
            acct.balance += interest
            acct.due = min(acct.balance, max(int(p["minimum_payment"]),
                                             percent_of(acct.balance, int(p["minimum_percent"]), rounding)))
            ctx.emit("credit", None, player=name, rule="XXVIII.5",
                     private=f"Your credit card's balance grew by {ctx.state.money(interest)} of interest "
                             f"({p['interest_percent']}%) to {ctx.state.money(acct.balance)}. Pay at least "
                             f"{ctx.state.money(acct.due)} this week (PAY CREDIT {acct.due}), or the Bank "
                             "takes action (XXVIII.5).")

    def on_update_end(self, ctx: UpdateContext) -> None:
        """A week's end: each card whose minimum payment was not made takes its next infraction."""
        if not ctx.slot.week_end or ctx.state.paused:
            return
        for name, acct in sorted(self.private_of(ctx.state).accounts.items()):
            due, acct.due = acct.due, 0
            player = ctx.state.players.get(name)
            if not due or acct.paid >= due or acct.balance <= 0 or player is None or not player.active:
                continue
            acct.infractions += 1
            _infraction(ctx, player, acct, due)

    # -- lives of players ------------------------------------------------------------------
    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.private_of(state).accounts.pop(player.name, None)
        cs = self.of(state)
        cs.holders = [n for n in cs.holders if n != player.name]

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        """XII.2: back to the start of week 1, before any card (a barred player stays barred)."""
        if player.name in self.of(ctx.state).holders:
            self.on_player_removed(ctx.state, player)
            ctx.emit("credit", None, player=player.name, rule="XII.2",
                     private="Your credit card and its balance were cleared by your reset (XII.2).")

    # -- net worth (XXX.1) -----------------------------------------------------------------
    def worth(self, state: GameState, player: Player) -> int:
        """XXX.1: 10% of the credit limit while holding a card, less the card's balance."""
        if self.name not in state.private.mods:
            return 0
        acct = self.private_of(state).accounts.get(player.name)
        if acct is None:
            return 0
        p = {**self.defaults, **state.params(self.name)}
        return percent_of(acct.limit, int(p["worth_limit_percent"]), str(p["rounding"])) - acct.balance

    # -- setting up a scenario or a test ---------------------------------------------------
    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        fields = {"credit_card": None, "credit_balance": "balance", "credit_limit": "limit",
                  "credit_infractions": "infractions", "credit_due": "due", "credit_paid": "paid"}
        if key not in fields:
            return False
        if key == "credit_card":
            if value:
                _open(state, player.name)
            else:
                self.on_player_removed(state, player)
            return True
        setattr(_open(state, player.name), str(fields[key]), int(value))
        return True

    # -- how it shows ----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("credit_card", player.name in self.of(state).holders, label="Credit card", kind="text",
                     order=66)]

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        acct = self.private_of(state).accounts.get(player.name)
        if acct is None:
            return [Fact("credit_balance", 0)]
        return [Fact("credit_balance", acct.balance), Fact("credit_limit", acct.limit),
                Fact("credit_infractions", acct.infractions), Fact("credit_due", acct.due),
                Fact("credit_paid", acct.paid)]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        acct = self.private_of(state).accounts.get(player.name)
        if acct is None:
            return []
        due = (f"; minimum payment this week {state.money(acct.due)}, paid {state.money(acct.paid)}"
               if acct.due else "")
        return [(66, f"  Your credit card (only you see it): balance {state.money(acct.balance)} of a "
                     f"{state.money(acct.limit)} limit{due}; infractions {acct.infractions}")]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        acct = self.private_of(state).accounts.get(player.name)
        if acct is None:
            return []
        return [(66, f"; credit card: {state.money(acct.balance)} of {state.money(acct.limit)}")]


def _open(state: GameState, name: str) -> CreditAccount:
    cs, accounts = CreditModule.of(state), CreditModule.private_of(state).accounts
    if name not in accounts:
        start = int({**CreditModule.defaults, **state.params(CreditModule.name)}["start_limit"])
        accounts[name] = CreditAccount(limit=start)
    if name not in cs.holders:
        cs.holders = sorted(cs.holders + [name])
    return accounts[name]


# -- what the Bank and other sections call ----------------------------------------------------
def issue_card(ctx: UpdateContext, player: Player) -> str:
    """``TAKE CREDIT CARD`` at the Bank (XXVII.1): free, one a player, never again after a sixth
    infraction (XXVIII.5)."""
    cs = CreditModule.of(ctx.state)
    if player.name in cs.banned:
        raise IllegalAction("the Bank took your credit card away after your sixth missed minimum payment, "
                            "and you may never hold one again (XXVIII.5)")
    if player.name in cs.holders:
        raise IllegalAction("you hold a credit card already; a player may hold one at most (XXVII.1)")
    acct = _open(ctx.state, player.name)
    return (f"{player.name} took out a credit card at the Bank of Nomopoly, free; its limit is "
            f"{ctx.state.money(acct.limit)}.")


def put_on_credit(ctx: UpdateContext, player: str, payee: str, amount: int, *, rule: str, reason: str) -> None:
    """A voluntary purchase placed on ``player``'s credit card (XXVIII.1): ``payee`` is paid (from
    the Admin Bank Account; nothing moves when the payee is that account) and the balance grows;
    refused when it would leave the balance above the limit (XXVIII.2-3)."""
    acct = CreditModule.private_of(ctx.state).accounts.get(player)
    if acct is None or player not in CreditModule.of(ctx.state).holders:
        bank = shared.bank_square(ctx.state)
        square = bank if bank is not None else 30
        raise IllegalAction(f"you have no credit card to put {reason} on; take one out at the Bank (TAKE "
                            f"CREDIT CARD on square {square}, XXVII.1), or leave out ON CREDIT")
    if amount > 0 and acct.balance + amount > acct.limit:
        raise IllegalAction(f"{reason} costs {ctx.state.money(amount)}; your card's balance is "
                            f"{ctx.state.money(acct.balance)} and its limit {ctx.state.money(acct.limit)}, so "
                            f"at most {ctx.state.money(max(0, acct.limit - acct.balance))} more may go on it "
                            "(XXVIII.2)")
    if amount <= 0:
        return
    if payee != BANK:
        ctx.transfer(BANK, payee, amount, rule=rule, reason=f"{reason}, on {player}'s credit card",
                     kind="purchase")
    acct.balance += amount
    ctx.emit("credit", None, player=player, rule="XXVIII.1",
             private=f"{ctx.state.money(amount)} for {reason} went on your credit card; its balance is "
                     f"{ctx.state.money(acct.balance)} of {ctx.state.money(acct.limit)}.")


def raise_limits(ctx: UpdateContext, percent: int, rule: str) -> None:
    """Every card's limit grows by ``percent``% (the Skunk on the Bank, XIX.3)."""
    p = ctx.params(CreditModule.name)
    accounts = CreditModule.private_of(ctx.state).accounts
    for name in sorted(accounts):
        raised = percent_of(accounts[name].limit, percent, str(p["rounding"]))
        accounts[name].limit += raised
        ctx.emit("credit", None, player=name, rule=rule,
                 private=f"Your credit limit rose by {percent}% to {ctx.state.money(accounts[name].limit)}.")
    if accounts:
        ctx.emit("credit", f"Every credit card's limit rose by {percent}%.", rule=rule)


def credit_balance(state: GameState, name: str) -> int:
    acct = CreditModule.private_of(state).accounts.get(name) if state.enabled(CreditModule.name) else None
    return acct.balance if acct is not None else 0


# -- the handler ------------------------------------------------------------------------------
def pay(ctx: UpdateContext, player: Player, cmd: PayCredit) -> str:
    acct = CreditModule.private_of(ctx.state).accounts.get(player.name)
    if acct is None or acct.balance <= 0:
        raise IllegalAction("your credit card has no balance to pay" if acct is not None
                            else "you have no credit card (TAKE CREDIT CARD at the Bank, XXVII.1)")
    if cmd.amount > acct.balance:
        raise IllegalAction(f"your credit card's balance is {ctx.state.money(acct.balance)}; pay at most that "
                            f"(PAY CREDIT {acct.balance}), not {ctx.state.money(cmd.amount)}")
    p = ctx.params(CreditModule.name)
    ctx.transfer(player.name, BANK, cmd.amount, rule="XXVIII.4", reason="a credit card payment", voluntary=True)
    raised = percent_of(cmd.amount, int(p["limit_raise_percent"]), str(p["rounding"]))
    acct.balance -= cmd.amount
    acct.limit += raised
    acct.paid += cmd.amount
    return (f"{player.name} paid {ctx.state.money(cmd.amount)} towards their credit card; its balance is "
            f"{ctx.state.money(acct.balance)} and its limit {ctx.state.money(acct.limit)} (up "
            f"{ctx.state.money(raised)}).")


def _infraction(ctx: UpdateContext, player: Player, acct: CreditAccount, due: int) -> None:
    """XXVIII.5's ladder, for the ``acct.infractions``-th missed minimum payment."""
    n, state = acct.infractions, ctx.state
    p = ctx.params(CreditModule.name)
    # the amount due is the holder's to know (it tells of the balance); the infraction is public
    missed = f"{player.name} missed their credit card's minimum payment this week (infraction {n}, XXVIII.5)"
    short = f"You paid {state.money(acct.paid)} of the {state.money(due)} minimum this week."
    if n == 1:
        ctx.emit("credit", f"{missed}: a stern warning from the Admin.", player=player.name, rule="XXVIII.5",
                 private=f"{short} The Bank of Nomopoly warns you, sternly: pay your credit card's minimum "
                         "every week. Next time it takes your lowest-numbered square; after that, worse.")
        return
    if n in (2, 3, 4):
        owned = [s.number for s in OwnershipModule.of(state).owned_by(state, player.name)]
        taken = owned[:1] if n == 2 else owned[-1:] if n == 3 else owned
        worth = sum(shared.square_net_worth(state, number) for number in taken)
        off = min(acct.balance, percent_of(worth, int(p["seize_percent"]), str(p["rounding"])))
        for number in taken:
            set_owner(state, number, None)
            bank = BANK_OF_NOMOPOLY.get(state)
            if bank is not None:  # the Bank takes the square back, and its mortgage with it
                bank.mortgages.pop(number, None)
        acct.balance -= off
        what = (f"the Bank took square{'s' if len(taken) > 1 else ''} {', '.join(map(str, taken))} and "
                f"{state.money(off)} came off the balance" if taken else "they own no square for the Bank to take")
        ctx.emit("credit", f"{missed}: {what}.", player=player.name, rule="XXVIII.5",
                 data={"squares": taken},
                 private=f"{short} Your credit card's balance is now {state.money(acct.balance)}.")
        return
    owed, acct.balance = acct.balance, 0
    ctx.transfer(player.name, BANK, owed, rule="XXVIII.5", reason="a credit card balance collected by the Bank")
    if n == 5:
        ctx.emit("credit", f"{missed}: the Bank took the balance, {state.money(owed)}, from their money.",
                 player=player.name, rule="XXVIII.5", private=short)
        return
    cs = CreditModule.of(state)
    cs.holders = [h for h in cs.holders if h != player.name]
    cs.banned = sorted(set(cs.banned) | {player.name})
    CreditModule.private_of(state).accounts.pop(player.name, None)
    ctx.emit("credit", f"{missed}: the Bank took the balance, {state.money(owed)}, from their money, and took "
                       "their credit card away for good.", player=player.name, rule="XXVIII.5", private=short)
