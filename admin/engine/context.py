"""The update context: the state being changed, the dice, the events, and the small helpers every
rule module uses to move money, deal cards and change health, so each rule is written once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from admin.cards import DECK, card_name
from admin.engine.dice import Dice
from admin.engine.events import Event
from admin.errors import IllegalAction
from admin.model import BuriedCard, GameState, Player

BANK = "@bank"  #: the Admin Bank Account (XV) as a party to a payment


@dataclass
class Slot:
    """Where an update falls in the weekly schedule (IX)."""

    name: str
    index: int
    takes_proposals: bool = False
    opens_voting: bool = False
    closes_voting: bool = False
    week_end: bool = False


@dataclass
class UpdateContext:
    state: GameState
    dice: Dice
    slot: Slot
    events: list[Event] = field(default_factory=list)
    landing_order: int = 0
    #: players who may take no voluntary action this update (none in the core rules)
    barred: set[str] = field(default_factory=set)
    registry: Any = None

    # -- events ----------------------------------------------------------------------------
    def emit(self, kind: str, text: str | None, **kw: Any) -> Event:
        ev = Event(kind=kind, text=text, **kw)
        self.events.append(ev)
        return ev

    def params(self, module: str) -> dict[str, Any]:
        """A module's parameters: the game's values over the module's defaults."""
        return self.registry.params(self.state, module)

    # -- money (IV, XV) --------------------------------------------------------------------
    def transfer(self, payer: str, payee: str, amount: int, *, rule: str, reason: str,
                 voluntary: bool = False) -> None:
        """Move money between players and the Admin Bank Account (``BANK``).

        A voluntary payment that would make the payer bankrupt, or any voluntary loss by a
        bankrupt player, raises :class:`IllegalAction` and moves nothing (IV.3).
        """
        if amount < 0:
            payer, payee, amount = payee, payer, -amount
        if amount == 0:
            return
        if payer != BANK:
            p = self.state.players[payer]
            if voluntary and p.money < 0:
                raise IllegalAction(f"{payer} is bankrupt (${p.money}) and may not pay ${amount} (IV.3)")
            if voluntary and p.money - amount < 0:
                raise IllegalAction(
                    f"that costs ${amount} and {payer} has ${p.money}; "
                    "no voluntary action may make a player bankrupt (IV.3)")
            p.money -= amount
        else:
            self.state.admin_bank -= amount
        if payee != BANK:
            self.state.players[payee].money += amount
        else:
            self.state.admin_bank += amount
        who = lambda n: "the Admin Bank Account" if n == BANK else n  # noqa: E731
        self.emit("money", None, rule=rule,
                  data={"from": payer, "to": payee, "amount": amount, "reason": reason,
                        "summary": f"{who(payer)} paid ${amount} to {who(payee)}: {reason}"})

    # -- cards (XIV) -----------------------------------------------------------------------
    def draw_card(self, player: Player, label: str, reason: str) -> str:
        card = DECK[self.dice.roll_hidden(f"card/{label}", len(DECK)) - 1]
        limit = int(self.params("cards").get("max_cards", 12))
        if len(player.cards) >= limit:
            self.state.private.buried.append(
                BuriedCard(square=player.square, card=card, player=player.name, update=self.state.update))
            self.emit("card", f"{player.name} received a card ({reason}).", player=player.name,
                      private=f"You would have received the {card_name(card)} ({card}), but you hold "
                              f"{limit} cards already, so it was buried under square {player.square} (XIV.5).",
                      rule="XIV.5")
        else:
            player.cards.append(card)
            self.emit("card", f"{player.name} received a card ({reason}).", player=player.name,
                      private=f"You received the {card_name(card)} ({card}).", rule="XIV.2")
        return card

    # -- health (XII) ----------------------------------------------------------------------
    def change_health(self, player: Player, delta: int, *, rule: str, reason: str) -> None:
        player.health += delta
        self.emit("health", f"{player.name} {'gained' if delta > 0 else 'lost'} {abs(delta)} health "
                            f"({reason}); now {player.health}.", player=player.name, rule=rule,
                  data={"delta": delta})
        if player.health <= 0:
            self.reset_player(player, reason=f"health reached {player.health}")

    def reset_player(self, player: Player, *, reason: str) -> None:
        """XII.2: the player goes back to how they stood at the start of week 1."""
        from admin.engine.board import lowest

        start_money = int(self.params("money").get("start_money", 10000))
        self.transfer(BANK, player.name, start_money - player.money, rule="XII.2",
                      reason="reset to the starting money")
        self.release_holdings(player)
        player.health = int(self.params("health").get("start_health", 100))
        player.square = lowest(self.state)
        player.transport = "foot"
        player.resets += 1
        self.emit("reset", f"{player.name}'s user was reset ({reason}): back to square "
                           f"{player.square} with ${player.money} and {player.health} health.",
                  player=player.name, rule="XII.1")

    def release_holdings(self, player: Player) -> None:
        """Squares become unowned and held cards leave the game (reset, removal)."""
        for sq in self.state.squares:
            if sq.owner == player.name:
                sq.owner = None
                sq.price_paid = None
        player.cards.clear()
        self.state.buy_rights = [r for r in self.state.buy_rights if r.player != player.name]
