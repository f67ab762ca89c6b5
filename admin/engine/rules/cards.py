"""XIV: cards on doubles, placing cards on squares, card rent, burying."""

from __future__ import annotations

from admin.cards import card_name, card_value
from admin.engine.commands import Bury, Place
from admin.engine.rules.base import RuleModule
from admin.errors import IllegalAction
from admin.model import BuriedCard


class CardsModule(RuleModule):
    name = "cards"
    rules = ("XIV.1", "XIV.2", "XIV.3", "XIV.4", "XIV.5", "XIV.6")
    # card_rent: "instead" of the 3 × n rent, or "add" to it: XIV.4 does not say (a standing ruling)
    defaults = {"max_cards": 12, "ace_value": 11, "face_value": 10, "card_rent": "instead",
                "public_hands": False}
    summary = "A card on doubles; place cards on squares for card rent; more than 12 and it is buried."

    def handlers(self):
        return {"place": place, "bury": bury}

    def on_doubles(self, ctx, player, turn) -> None:
        ctx.draw_card(player, f"{player.name}/doubles/{turn}", "rolled doubles")

    def adjust_rent(self, ctx, square, rent: int) -> int:
        if square.card is None:
            return rent
        p = ctx.params("cards")
        card_rent = square.number * card_value(square.card, ace=int(p["ace_value"]), face=int(p["face_value"]))
        return rent + card_rent if p["card_rent"] == "add" else card_rent


def _take(player, card: str) -> None:
    if card not in player.cards:
        held = ", ".join(player.cards) or "no cards"
        raise IllegalAction(f"you do not hold the {card_name(card)} ({card}); you hold {held}")
    player.cards.remove(card)


def place(ctx, player, cmd: Place) -> str:
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    if square.card is not None:
        raise IllegalAction(f"square {square.number} already holds the {card_name(square.card)}; "
                            "a square holds one card at most (XIV.3)")
    _take(player, cmd.card)
    square.card = cmd.card
    return f"{player.name} placed the {card_name(cmd.card)} ({cmd.card}) on square {square.number}."


def bury(ctx, player, cmd: Bury) -> str:
    _take(player, cmd.card)
    ctx.state.private.buried.append(BuriedCard(square=player.square, card=cmd.card,
                                               player=player.name, update=ctx.state.update))
    # The fact of burying is private (XIV.5): the public result says nothing of which card.
    return f"You buried the {card_name(cmd.card)} ({cmd.card}) under square {player.square}."
