"""Free Parking, the house rule (and the worked example of ``docs/architecture.md``): every tax
paid goes into a pot, and the player who lands on the lowest-numbered square takes it all.

The whole mechanic is this module: it hears of every payment (``on_payment``: a ``tax`` paid to
the Admin Bank Account moves on into the pot), keeps the pot as an account of its own
(``account``: ``ctx.transfer`` pays to and from "Free Parking" by name) and pays it out on a
landing (``on_land``). A game offers it with one line of its ``game.yaml``
(``optional: {free-parking: sections/22-free-parking.md}``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine.board import lowest
from admin.engine.context import BANK
from admin.engine.module import Mechanic
from admin.engine.shows import Fact

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square

POT = "Free Parking"


@dataclass
class FreeParkingState:
    #: the pot's money, as an account: {"Free Parking": amount}
    pot: dict[str, int] = field(default_factory=lambda: {POT: 0})


class FreeParkingModule(Mechanic[FreeParkingState, None]):
    name = "free-parking"
    summary = "Taxes go into a pot; landing on the lowest-numbered square takes it."
    State = FreeParkingState

    def account(self, state: GameState, party: str) -> dict[str, int] | None:
        pot = self.of(state).pot
        return pot if party in pot else None

    def on_payment(self, ctx: UpdateContext, payer: str, payee: str, amount: int, kind: str) -> None:
        if kind == "tax" and payee == BANK:
            ctx.transfer(BANK, POT, amount, rule="", reason="a tax into the Free Parking pot", kind="pot")

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        held = self.of(ctx.state).pot[POT]
        if square.number != lowest(ctx.state) or held <= 0:
            return
        ctx.transfer(POT, player.name, held, rule="", reason="the Free Parking pot", kind="pot")
        ctx.emit("free-parking", f"{player.name} landed on square {square.number} and took the Free Parking "
                                 f"pot: {ctx.state.money(held)}.", player=player.name, data={"amount": held})

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        if square.number != lowest(state):
            return []
        return [Fact("free_parking", self.of(state).pot[POT], label="Free Parking pot", order=60)]
