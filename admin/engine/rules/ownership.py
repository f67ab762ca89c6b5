"""XIII and VI.9: buying squares, rent, and naming squares."""

from __future__ import annotations

from admin.engine.commands import Buy, Name
from admin.engine.context import BANK
from admin.engine.rules.base import RuleModule
from admin.errors import IllegalAction
from admin.model import BuyRight


class OwnershipModule(RuleModule):
    name = "ownership"
    rules = ("XIII.1", "XIII.2", "XIII.3", "XIII.4", "XIII.5", "VI.9")
    defaults = {"price_per_number": 25, "rent_per_number": 3, "rename_cost": 50, "name_max_length": 100}
    summary = "Buy the square you landed on for $25 × n; rent 3 × n to the owner; name squares."

    def handlers(self):
        return {"buy": buy, "name": name_square}

    def on_turn_start(self, ctx, player, turn) -> None:
        if turn == 0:  # a right to buy lasts until the player's next turn (XIII.3)
            ctx.state.buy_rights = [r for r in ctx.state.buy_rights
                                    if r.player != player.name or r.update == ctx.state.update]

    def on_land(self, ctx, player, square) -> None:
        if square.owner is None:
            if not square.contaminated:
                ctx.state.buy_rights.append(BuyRight(square=square.number, player=player.name,
                                                     order=ctx.landing_order, update=ctx.state.update))
                price = square.number * int(ctx.params("ownership")["price_per_number"])
                ctx.emit("land", f"{player.name} landed on unowned square {square.number}; "
                                 f"it can be bought for ${price} before their next turn.",
                         player=player.name, rule="XIII.1", data={"square": square.number})
            return
        if square.owner == player.name:
            return
        owner = ctx.state.players.get(square.owner)
        if owner is None or not owner.active:
            return
        rent = square.number * int(ctx.params("ownership")["rent_per_number"])
        for module in ctx.registry.enabled(ctx.state):
            rent = module.adjust_rent(ctx, square, rent)
        ctx.transfer(player.name, owner.name, rent, rule="VI.9", reason=f"rent on square {square.number}")
        ctx.emit("rent", f"{player.name} paid ${rent} rent to {owner.name} for square {square.number}.",
                 player=player.name, rule="VI.9",
                 data={"square": square.number, "amount": rent, "owner": owner.name})


def buy(ctx, player, cmd: Buy) -> str:
    rights = [r for r in ctx.state.buy_rights if r.player == player.name]
    if cmd.square is None:
        if not rights:
            raise IllegalAction("you have not landed on an unowned square since your last turn, so "
                                "there is nothing to buy (XIII.1)")
        right = max(rights, key=lambda r: r.order)
    else:
        matching = [r for r in rights if r.square == cmd.square]
        if not matching:
            landed = ", ".join(str(r.square) for r in rights) or "none"
            raise IllegalAction(f"you can only buy a square you landed on since your last turn "
                                f"(XIII.1); yours: {landed}")
        right = matching[0]
    square = ctx.state.square(right.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"square {right.square} is no longer on the board")
    if square.owner == player.name:
        raise IllegalAction(f"you already own square {square.number}")
    if square.owner is not None:
        raise IllegalAction(f"square {square.number} was bought by {square.owner}, who landed "
                            "there first (XIII.3)")
    if square.contaminated:
        raise IllegalAction(f"square {square.number} is contaminated and cannot be bought (XIII.5)")
    price = square.number * int(ctx.params("ownership")["price_per_number"])
    ctx.transfer(player.name, BANK, price, rule="XIII.1", reason=f"buying square {square.number}",
                 voluntary=True)
    square.owner = player.name
    square.price_paid = price
    # the others' rights stay until their next turn, so their BUY gets the reason it failed
    ctx.state.buy_rights = [r for r in ctx.state.buy_rights
                            if not (r.square == square.number and r.player == player.name)]
    return f"{player.name} bought square {square.number} for ${price}."


def name_square(ctx, player, cmd: Name) -> str:
    params = ctx.params("ownership")
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    if square.owner != player.name:
        raise IllegalAction(f"only the owner may name square {cmd.square} (XIII.4); "
                            f"its owner is {square.owner or 'nobody'}")
    new = " ".join(cmd.name.split())
    limit = int(params["name_max_length"])
    if not new or len(new) > limit:
        raise IllegalAction(f"a square's name must be 1 to {limit} characters; this one has {len(new)}")
    for other in ctx.state.squares:
        if other.name and other.name.casefold() == new.casefold() and other.number != square.number:
            raise IllegalAction(f'square {other.number} is already named "{other.name}"; names are unique (XIII.4)')
    if square.name == new:
        raise IllegalAction(f'square {square.number} is already named "{new}"')
    if square.name is not None:
        cost = int(params["rename_cost"])
        ctx.transfer(player.name, BANK, cost, rule="XIII.4", reason=f"renaming square {square.number}",
                     voluntary=True)
        old, square.name = square.name, new
        return f'{player.name} renamed square {square.number} from "{old}" to "{new}" for ${cost}.'
    square.name = new
    return f'{player.name} named square {square.number} "{new}".'
