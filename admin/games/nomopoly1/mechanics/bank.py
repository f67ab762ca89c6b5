"""The first Nomopoly's XXXIII: the Bank of Nomopoly on square 10 lends up to $2500 at 5% a week,
compounded, and sells $100 bonds at the start of a week that pay back $103 at its end. A player
deals with it after landing on or passing its square since their last move; repaying works from
anywhere."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square


def _amount(act: str, how: str) -> Callable[[str, object], BankDeal]:
    def parse(rest: str, _line: object) -> BankDeal:
        word = rest.strip().lstrip("$").replace(",", "") or ("1" if act == "bond" else "")
        if not word.isdecimal() or int(word) < 1 or int(word) > 10**7:
            raise CommandError(f"write {how}")
        return BankDeal(act, int(word))
    return parse


@command("BORROW <amount>", parse=_amount("borrow", "BORROW <amount>, e.g. BORROW 1000"), listing=260,
         rules=("XXXIII.2",), summary="after landing on or passing the Bank (square 10): a loan, $2500 owed at most, "
                                      "5% a week compounded",
         example="BORROW 1000")
@command("REPAY <amount>", parse=_amount("repay", "REPAY <amount>, e.g. REPAY 500"), listing=261,
         rules=("XXXIII.2",), summary="pay back some or all of your loan, from anywhere", example="REPAY 500")
@command("BUY BOND [n]", keyword="BUY BOND", parse=_amount("bond", "BUY BOND or BUY BOND 3"), listing=262,
         rules=("XXXIII.3",), summary="at the start of a week (mail by Wednesday), after visiting the Bank: $100 "
                                      "bonds that pay $103 at the week's end",
         example="BUY BOND 2")
class BankDeal:
    """``BORROW <amount>``, ``REPAY <amount>``, ``BUY BOND [n]`` (XXXIII)."""

    act: str
    amount: int


@dataclass
class BankState:
    #: what each player owes the Bank
    loans: dict[str, int] = field(default_factory=dict)
    #: bonds bought this week, paid back at its end
    bonds: dict[str, int] = field(default_factory=dict)
    #: the update in which a player landed on or passed the Bank: they may deal until their next move
    visits: dict[str, int] = field(default_factory=dict)


class BankModule(Mechanic[BankState, None]):
    name = "bank-of-nomopoly"
    rules = ("XXXIII.1", "XXXIII.2", "XXXIII.3")
    stated = {"XXXIII.1": {"square": ("is on square {}",)},
              "XXXIII.2": {"max_loan": ("may borrow up to ${} from the Bank",),
                           "interest_percent": ("from the Bank at {}% interest",)},
              "XXXIII.3": {"bond_price": ("buy a bond for ${},",), "bond_return": ("which pays back ${} at",)}}
    defaults = {"square": 10, "max_loan": 2500, "interest_percent": 5, "bond_price": 100, "bond_return": 103,
                "rounding": "nearest"}
    choices = {"rounding": ("nearest", "down", "up")}
    summary = "Borrow up to $2500 at 5% a week; $100 bonds bought at the start of a week pay $103 at its end."
    State = BankState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BankDeal, deal))

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        self.on_pass_over(ctx, player, square.number)

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        if number == int(ctx.params(self.name)["square"]):
            self.of(ctx.state).visits[player.name] = ctx.state.update

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        visits = self.of(ctx.state).visits
        if visits.get(player.name, ctx.state.update) < ctx.state.update:
            del visits[player.name]

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end: bonds pay back, loans grow by 5% (XXXIII.2-3)."""
        if not ctx.slot.week_end:
            return
        bs = self.of(ctx.state)
        p = ctx.params(self.name)
        for name, count in sorted(bs.bonds.items()):
            if name in ctx.state.players and ctx.state.players[name].active:
                back = count * int(p["bond_return"])
                ctx.transfer(BANK, name, back, rule="XXXIII.3", reason=f"{count} bond(s) paid back", kind="bond")
                ctx.emit("bank", f"{name}'s {count} bond(s) paid back {ctx.state.money(back)}.", player=name,
                         rule="XXXIII.3")
        bs.bonds = {}
        for name, owed in sorted(bs.loans.items()):
            grown = owed + percent_of(owed, int(p["interest_percent"]), str(p["rounding"]))
            bs.loans[name] = grown
            ctx.emit("bank", f"{name}'s loan grew by 5% to {ctx.state.money(grown)}.", player=name, rule="XXXIII.2")

    def on_player_removed(self, state: GameState, player: Player) -> None:
        bs = self.of(state)
        for table in (bs.loans, bs.bonds, bs.visits):
            table.pop(player.name, None)

    def worth(self, state: GameState, player: Player) -> int:
        bs = self.of(state)
        price = int({**self.defaults, **state.params(self.name)}["bond_price"])
        return bs.bonds.get(player.name, 0) * price - bs.loans.get(player.name, 0)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key not in ("loan", "bonds"):
            return False
        table = self.of(state).loans if key == "loan" else self.of(state).bonds
        if int(value):
            table[player.name] = int(value)
        else:
            table.pop(player.name, None)
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        bs = self.of(state)
        return [Fact("loan", bs.loans.get(player.name, 0), label="Owes the Bank"),
                Fact("bonds", bs.bonds.get(player.name, 0), label="Bonds this week")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if square.number != int(state.params(self.name).get("square", self.defaults["square"])):
            return None
        return SquareLook(notes=((58, "the Bank of Nomopoly"),), flags=((58, "BK", "the Bank"),))


def deal(ctx: UpdateContext, player: Player, cmd: BankDeal) -> str:
    bs = BankModule.of(ctx.state)
    p = ctx.params(BankModule.name)
    owed = bs.loans.get(player.name, 0)
    if cmd.act == "repay":
        if not owed:
            raise IllegalAction("you owe the Bank nothing")
        amount = min(cmd.amount, owed)
        ctx.transfer(player.name, BANK, amount, rule="XXXIII.2", reason="repaying the Bank", voluntary=True, kind="loan")
        bs.loans[player.name] = owed - amount
        if not bs.loans[player.name]:
            del bs.loans[player.name]
        return f"{player.name} repaid {ctx.state.money(amount)}; they owe {ctx.state.money(owed - amount)}."
    if player.name not in bs.visits:
        raise IllegalAction(f"you have not landed on or passed the Bank (square {p['square']}) since your last move")
    if cmd.act == "borrow":
        if owed + cmd.amount > int(p["max_loan"]):
            raise IllegalAction(f"you owe {ctx.state.money(owed)}; the Bank lends {ctx.state.money(int(p['max_loan']))} at most")
        ctx.transfer(BANK, player.name, cmd.amount, rule="XXXIII.2", reason="a loan from the Bank", kind="loan")
        bs.loans[player.name] = owed + cmd.amount
        return f"{player.name} borrowed {ctx.state.money(cmd.amount)}; they owe {ctx.state.money(owed + cmd.amount)}."
    if not ctx.slot.takes_proposals:  # the week's first update: "at the start of the week"
        raise IllegalAction("bonds are sold at the start of a week: send BUY BOND by Wednesday (XXXIII.3)")
    price = int(p["bond_price"]) * cmd.amount
    ctx.transfer(player.name, BANK, price, rule="XXXIII.3", reason=f"{cmd.amount} bond(s)", voluntary=True, kind="bond")
    bs.bonds[player.name] = bs.bonds.get(player.name, 0) + cmd.amount
    return f"{player.name} bought {cmd.amount} bond(s) for {ctx.state.money(price)}."
