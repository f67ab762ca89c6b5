"""Nomopoly II XXVII: the Bank of Nomopoly on square 30, and the ATM building (XXII.4).

A player standing on the Bank's square may deposit into and withdraw from a private account that
earns 2% an update (3% for the Governor, XXXV.3), mortgage a square they own for half its net
worth (VI.16) and pay it back with 10% more, and take out a credit card (XXVIII, the
``credit-cards`` module). A player standing on a square with an ATM may deposit and withdraw
there, paying the square's owner $5 a transaction.

Standing rulings (docs/rulings.md): the Bank keeps its money in the Admin Bank
Account (a deposit is paid into it, a withdrawal, a mortgage and interest come out of it, XV);
percentages round to the nearest dollar, half a dollar up (IV.1; ``rounding``); interest is added
at the end of every update that is not paused, on the balance as it then stands; a mortgage stays
with its square when the square changes hands and lapses when the square has no owner or is
destroyed; a reset (XII.2) empties the player's account into the Admin Bank Account."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from admin.engine.context import BANK
from admin.engine.declare import Square, command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.games.nomopoly2.api import CREDIT, BankSquare, KeepsCreditCards
from admin.games.nomopoly2.mechanics import shared
from admin.library.ownership import owner_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square as BoardSquare
    from admin.engine.module import CommandSpec


@dataclass
class BankState:
    #: mortgaged square -> what its owner received for it (XXVII.1); public
    mortgages: dict[int, int] = field(default_factory=dict)


@dataclass
class BankPrivate:
    #: each player's account balance (XXVII.1); each sees only their own
    balances: dict[str, int] = field(default_factory=dict)


_AMOUNT = re.compile(r"^(?:money\s+|cash\s+)?\$?\s*([\d,]{1,12})(?:\s*dollars)?$", re.IGNORECASE)


def _amount(how: str) -> Callable[[str, object], int]:
    def parse(rest: str, _line: object) -> int:
        m = _AMOUNT.match(rest.strip().rstrip("."))
        value = int(m.group(1).replace(",", "")) if m and m.group(1).replace(",", "").isdecimal() else 0
        if not 1 <= value <= 10**9:
            raise CommandError(f"write {how}: a whole number of dollars, 1 or more")
        return value
    return parse


def _move(act: str, atm: bool, how: str) -> Callable[[str, object], BankMove]:
    amount = _amount(how)
    return lambda rest, line: BankMove(act, amount(rest, line), atm)


@command("DEPOSIT <amount>", parse=_move("deposit", False, "DEPOSIT <amount>, e.g. DEPOSIT 500"), private=True,
         listing=270, rules=("XXVII.1",), example="DEPOSIT 500",
         summary="on the Bank's square: pay money into your bank account, which earns "
                 "2% an update (only you see the balance)")
@command("WITHDRAW MONEY <amount>", keyword="WITHDRAW MONEY",
         parse=_move("withdraw", False, "WITHDRAW MONEY <amount>, e.g. WITHDRAW MONEY 200"), private=True,
         listing=271, rules=("XXVII.1",), example="WITHDRAW MONEY 200",
         summary="on the Bank's square: take money out of your bank account, no more "
                 "than its balance (WITHDRAW <n> alone withdraws a proposal)")
@command("ATM DEPOSIT <amount>", keyword="ATM DEPOSIT", parse=_move("deposit", True, "ATM DEPOSIT <amount>"),
         private=True, listing=272, rules=("XXII.4",), example="ATM DEPOSIT 300",
         summary="on a square with an ATM: pay money into your bank account; $5 to the square's owner")
@command("ATM WITHDRAW <amount>", keyword="ATM WITHDRAW", parse=_move("withdraw", True, "ATM WITHDRAW <amount>"),
         private=True, listing=273, rules=("XXII.4",), example="ATM WITHDRAW 300",
         summary="on a square with an ATM: take money out of your bank account; $5 to the square's owner")
class BankMove:
    """``DEPOSIT <amount>``, ``WITHDRAW MONEY <amount>`` (XXVII.1); ``ATM DEPOSIT <amount>``,
    ``ATM WITHDRAW <amount>`` (XXII.4)."""

    act: str
    amount: int
    atm: bool = False


@command("MORTGAGE <square>", fixed={"act": "mortgage"}, hint="MORTGAGE needs the square, like MORTGAGE 14",
         listing=274, rules=("XXVII.1",), example="MORTGAGE 14",
         summary="on the Bank's square: mortgage a square you own for half its net "
                 "worth; it takes no rent until un-mortgaged")
@command("UNMORTGAGE <square>", fixed={"act": "unmortgage"}, hint="UNMORTGAGE needs the square, like UNMORTGAGE 14",
         listing=275, rules=("XXVII.1",), example="UNMORTGAGE 14",
         summary="on the Bank's square: pay back what a mortgage gave you, plus 10%")
class Mortgage:
    """``MORTGAGE <square>``, ``UNMORTGAGE <square>`` (XXVII.1)."""

    act: str
    square: Square


def _take_card(rest: str, _line: object) -> TakeCreditCard:
    if rest.strip().rstrip(".").upper() not in ("CARD", "A CARD", ""):
        raise CommandError("write TAKE CREDIT CARD")
    return TakeCreditCard()


@command("TAKE CREDIT CARD", keyword="TAKE CREDIT", parse=_take_card, listing=276, rules=("XXVII.1",),
         summary="on the Bank's square: take out a credit card, free, one a player", example="TAKE CREDIT CARD")
class TakeCreditCard:
    """``TAKE CREDIT CARD`` (XXVII.1)."""


class BankModule(Mechanic[BankState, BankPrivate], BankSquare):
    name = "bank"
    rules = ("XXVII.1",)
    stated = {"XXVII.1": {"square": ("stands on square {}",),
                          "interest_percent": ("grows by {}% every update",),
                          "governor_interest_percent": ("({}% for the Governor)",)}}
    defaults = {"square": 30, "interest_percent": 2, "governor_interest_percent": 3,
                "mortgage_percent": 50, "unmortgage_percent": 10, "atm_fee": 5, "rounding": "nearest"}
    choices = {"rounding": ("nearest", "down", "up")}
    minimums = {"square": 1, "interest_percent": 0, "governor_interest_percent": 0, "mortgage_percent": 0,
                "unmortgage_percent": 0, "atm_fee": 0}
    summary = ("The Bank of Nomopoly on square 30: a private account at 2% an update, mortgages at half a "
               "square's net worth, credit cards; ATMs ($5 a transaction).")
    State = BankState
    Private = BankPrivate
    requires = ("board", "ownership")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BankMove, move), (Mortgage, mortgage), (TakeCreditCard, take_card))

    def _params(self, state: GameState) -> dict[str, Any]:
        return {**self.defaults, **state.params(self.name)}

    def its_square(self, state: GameState) -> int:
        return int(self._params(state)["square"])

    # -- interest -------------------------------------------------------------------------
    def on_update_end(self, ctx: UpdateContext) -> None:
        """Every update's interest (XXVII.1: 2%, the Governor 3%, XXXV.3); and mortgages on squares
        nobody owns any more lapse."""
        state, p = ctx.state, ctx.params(self.name)
        bs = self.of(state)
        for number in sorted(bs.mortgages):
            square = state.square(number)
            if square is None or square.destroyed or owner_of(state, number) is None:
                del bs.mortgages[number]
        if state.paused:
            return
        governor = shared.governor(state)
        balances = self.private_of(state).balances
        for name in sorted(balances):
            balance = balances[name]
            player = state.players.get(name)
            if balance <= 0 or player is None or not player.active:
                continue
            rate = int(p["governor_interest_percent"] if name == governor else p["interest_percent"])
            interest = percent_of(balance, rate, str(p["rounding"]))
            if not interest:
                continue
            balances[name] = balance + interest
            ctx.emit("bank", None, player=name, rule="XXVII.1",
                     private=f"Your bank account earned {state.money(interest)} interest ({rate}%); its "
                             f"balance is {state.money(balance + interest)}.")

    # -- lives of players and squares ------------------------------------------------------
    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.private_of(state).balances.pop(player.name, None)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        """XII.2: back to the start of week 1, when nobody had a bank account."""
        if self.private_of(ctx.state).balances.pop(player.name, 0):
            ctx.emit("bank", None, player=player.name, rule="XII.2",
                     private="Your bank account was closed by your reset (XII.2).")

    def on_square_added(self, state: GameState, square: BoardSquare) -> None:
        self.of(state).mortgages.pop(square.number, None)

    # -- the rules' effects on other things ------------------------------------------------
    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: BoardSquare, rent: int) -> int:
        """No rent on a mortgaged square (XXVII.1), whatever else changed it."""
        return 0 if square.number in self.of(ctx.state).mortgages else rent

    def worth(self, state: GameState, player: Player) -> int:
        """XXX.1: the bank account's balance."""
        return self.private_of(state).balances.get(player.name, 0) if self.name in state.private.mods else 0

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "bank_balance":
            return False
        balances = self.private_of(state).balances
        if int(value):
            balances[player.name] = int(value)
        else:
            balances.pop(player.name, None)
        return True

    def set_square(self, state: GameState, square: BoardSquare, key: str, value: Any) -> bool:
        if key != "mortgaged":
            return False
        mortgages = self.of(state).mortgages
        if value in (None, False, 0):
            mortgages.pop(square.number, None)
        else:
            p = self._params(state)
            mortgages[square.number] = (int(value) if value is not True else
                                        percent_of(shared.square_net_worth(state, square.number),
                                                   int(p["mortgage_percent"]), str(p["rounding"])))
        return True

    # -- how it shows ----------------------------------------------------------------------
    def square_facts(self, state: GameState, square: BoardSquare) -> list[Fact]:
        return [Fact("mortgaged", square.number in self.of(state).mortgages)]

    def square_look(self, state: GameState, square: BoardSquare) -> SquareLook | None:
        notes, flags = [], []
        if square.number == int(self._params(state)["square"]):
            notes.append((57, "the Bank of Nomopoly"))
            flags.append((57, "BANK", "the Bank of Nomopoly"))
        if square.number in self.of(state).mortgages:
            notes.append((58, "mortgaged"))
            flags.append((58, "MTG", "mortgaged"))
        return SquareLook(notes=tuple(notes), flags=tuple(flags)) if notes else None

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("bank_balance", self.private_of(state).balances.get(player.name, 0))]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        balance = self.private_of(state).balances.get(player.name, 0)
        return [(65, f"  Your bank account (only you see it): {state.money(balance)}")] if balance else []

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        balance = self.private_of(state).balances.get(player.name, 0)
        return [(65, f"; bank account: {state.money(balance)}")] if balance else []

    def panels(self, state: GameState) -> list[Panel]:
        p = self._params(state)
        rows = tuple((n, sq.name or "" if (sq := state.square(n)) else "", owner_of(state, n) or "nobody",
                      state.money(received),
                      state.money(received + percent_of(received, int(p["unmortgage_percent"]), str(p["rounding"]))))
                     for n, received in sorted(self.of(state).mortgages.items()))
        tables = [Table("Mortgaged squares (they take no rent)",
                        ("Square", "Name", "Owner", "Received", "To un-mortgage"), rows)]
        cs = CREDIT.get(state)  # who holds a card is public (balances are not)
        if cs is not None:
            tables.append(Table("Credit cards (balances and limits are private)", ("Player", "Card"),
                                tuple((n, "holds one") for n in cs.holders)
                                + tuple((n, "never again (XXVIII.5)") for n in cs.banned)))
        atms = shared.squares_with(state, "atm")
        if atms:
            tables.append(Table(f"ATMs ({state.money(int(p['atm_fee']))} a transaction to the square's owner, "
                                "XXII.4)", ("Square", "Owner"),
                                tuple((n, owner_of(state, n) or "nobody") for n in atms)))
        intro = (f"The Bank of Nomopoly stands on square {p['square']}. A player on that square may deposit "
                 f"money into a private account that earns {p['interest_percent']}% an update "
                 f"({p['governor_interest_percent']}% for the Governor), withdraw it, mortgage a square they own "
                 f"for {p['mortgage_percent']}% of its net worth, pay a mortgage back with "
                 f"{p['unmortgage_percent']}% more, and take out a credit card (XXVII.1). Account balances "
                 "are private: each player finds theirs in their results.")
        return [Panel("bank", "The Bank", intro, tuple(tables), order=27)]


# -- the handlers ----------------------------------------------------------------------------
def _at_bank(ctx: UpdateContext, player: Player, what: str) -> None:
    square = int(ctx.params(BankModule.name)["square"])
    if player.square != square:
        raise IllegalAction(f"you are on square {player.square}; only a player on the Bank's square "
                            f"({square}) may {what} (XXVII.1)")


def move(ctx: UpdateContext, player: Player, cmd: BankMove) -> str:
    p = ctx.params(BankModule.name)
    balances = BankModule.private_of(ctx.state).balances
    balance = balances.get(player.name, 0)
    fee, owner = 0, None
    if cmd.atm:
        if not shared.has_building(ctx.state, player.square, "atm"):
            raise IllegalAction(f"there is no ATM on square {player.square}, where you are; use one on a "
                                "square with an ATM (XXII.4), or the Bank on its square (XXVII.1)")
        owner = owner_of(ctx.state, player.square)
        fee = 0 if owner == player.name else int(p["atm_fee"])  # nobody pays themselves
        if owner is None or not ctx.state.players[owner].active:
            owner = BANK  # an unowned square's fee goes to the Admin Bank Account (XV.1)
    else:
        _at_bank(ctx, player, "deposit" if cmd.act == "deposit" else "withdraw")
    if cmd.act == "withdraw" and cmd.amount > balance:
        raise IllegalAction(f"your bank account holds {ctx.state.money(balance)}; you may not withdraw more "
                            f"than that (XXVII.1), so not {ctx.state.money(cmd.amount)}")
    if cmd.act == "deposit" and cmd.amount + fee > player.money:
        cost = ctx.state.money(cmd.amount) + (f" and the {ctx.state.money(fee)} fee" if fee else "")
        raise IllegalAction(f"you have {ctx.state.money(player.money)}, not {cost}; no voluntary action may "
                            "make a player bankrupt (IV.3)")
    where = f"the ATM on square {player.square}" if cmd.atm else "the Bank"
    if cmd.act == "deposit":
        ctx.transfer(player.name, BANK, cmd.amount, rule="XXVII.1", reason=f"a deposit at {where}", voluntary=True)
        balance += cmd.amount
    else:
        ctx.transfer(BANK, player.name, cmd.amount, rule="XXVII.1", reason=f"a withdrawal at {where}")
        balance -= cmd.amount
    if balance:
        balances[player.name] = balance
    else:
        balances.pop(player.name, None)
    paid = ""
    if fee and owner is not None and owner != player.name:  # an ATM's fee: owner is set (BANK if nobody)
        ctx.transfer(player.name, owner, fee, rule="XXII.4", reason=f"the ATM fee on square {player.square}",
                     voluntary=True)
        paid = f", paying the {ctx.state.money(fee)} fee to {owner if owner != BANK else 'the Admin Bank Account'}"
    verb = "deposited" if cmd.act == "deposit" else "withdrew"
    return (f"{player.name} {verb} {ctx.state.money(cmd.amount)} at {where}{paid}; "
            f"the account's balance is {ctx.state.money(balance)}.")


def mortgage(ctx: UpdateContext, player: Player, cmd: Mortgage) -> str:
    _at_bank(ctx, player, cmd.act)
    p = ctx.params(BankModule.name)
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    owner = owner_of(ctx.state, cmd.square)
    if owner != player.name:
        raise IllegalAction(f"you may {cmd.act} only a square you own (XXVII.1); square {cmd.square} is "
                            f"owned by {owner or 'nobody'}")
    mortgages = BankModule.of(ctx.state).mortgages
    rounding = str(p["rounding"])
    if cmd.act == "mortgage":
        if cmd.square in mortgages:
            raise IllegalAction(f"square {cmd.square} is mortgaged already; UNMORTGAGE {cmd.square} first (XXVII.1)")
        worth = shared.square_net_worth(ctx.state, cmd.square)
        received = percent_of(worth, int(p["mortgage_percent"]), rounding)
        ctx.transfer(BANK, player.name, received, rule="XXVII.1", reason=f"mortgaging square {cmd.square}")
        mortgages[cmd.square] = received
        return (f"{player.name} mortgaged square {cmd.square} for {ctx.state.money(received)} "
                f"({p['mortgage_percent']}% of its net worth, {ctx.state.money(worth)}); it takes no rent "
                "until it is un-mortgaged.")
    if cmd.square not in mortgages:
        raise IllegalAction(f"square {cmd.square} is not mortgaged; MORTGAGE {cmd.square} mortgages it")
    received = mortgages[cmd.square]
    cost = received + percent_of(received, int(p["unmortgage_percent"]), rounding)
    ctx.transfer(player.name, BANK, cost, rule="XXVII.1", reason=f"un-mortgaging square {cmd.square}",
                 voluntary=True)
    del mortgages[cmd.square]
    return (f"{player.name} un-mortgaged square {cmd.square} for {ctx.state.money(cost)} "
            f"({ctx.state.money(received)} received plus {p['unmortgage_percent']}%).")


def take_card(ctx: UpdateContext, player: Player, cmd: TakeCreditCard) -> str:
    _at_bank(ctx, player, "take out a credit card")
    credit = ctx.registry.provider(ctx.state, KeepsCreditCards)
    if credit is None:
        raise IllegalAction("there are no credit cards in this game (XXVIII is not in force)")
    return credit.issue_card(ctx, player)


def balance_of(state: GameState, name: str) -> int:
    """``name``'s bank account balance (private)."""
    return BankModule.private_of(state).balances.get(name, 0)


def params(state: GameState) -> dict[str, Any]:
    """The bank module's parameters in ``state`` (its defaults under the game's values)."""
    return {**BankModule.defaults, **state.params(BankModule.name)}
