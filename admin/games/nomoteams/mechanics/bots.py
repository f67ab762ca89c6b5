"""XIX.10: the 'Bot. A player with a 'Bot pays nothing for an action whose payment would partly go
to a job holder (:func:`labor.pay_for_service` asks :func:`absorbs`). Each absorption rolls three
dice: three pips or fewer and the 'Bot explodes, destroying the destroyable square closest to its
owner's, and is gone; after three absorptions it is gone anyway."""

from __future__ import annotations

from typing import TYPE_CHECKING
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.products.state import NAME, find_product, roll_label

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player


def bot_of(state: GameState, name: str) -> str | None:
    """The 'Bot (or a Product that repackages it) ``name`` holds, if any."""
    ps = api.PRODUCTS.get(state)
    if ps is None:
        return None
    held = ps.held.items(name)
    return next((item for item in held if find_product(state, item).effect == "bot"), None)


def closest_destroyable(state: GameState, here: int) -> int | None:
    """The live square nearest ``here`` by number that no player stands on (a standing ruling: a
    square with a player on it is not destroyable, so nobody is left on a destroyed square); the
    lower of two equally near."""
    occupied = {p.square for p in state.active_players()}
    live = [s.number for s in state.live_squares() if s.number not in occupied]
    return min(live, key=lambda n: (abs(n - here), n)) if live else None


def absorbs(ctx: UpdateContext, player: Player) -> bool:
    """True if ``player``'s 'Bot absorbs a payment (XIX.10): it may explode, and wears out."""
    from admin.games.nomoteams.mechanics.ownership.state import destroy

    item = bot_of(ctx.state, player.name)
    if item is None:
        return False
    ps = api.PRODUCTS.of(ctx.state)
    p = ctx.params(NAME)
    uses = ps.bot_uses.get(player.name, 0) + 1
    ps.bot_uses[player.name] = uses
    label = roll_label(ctx, f"bot/{player.name}")
    pips = sum(ctx.dice.roll(f"{label}/d{i}", 6) for i in (1, 2, 3))
    ctx.emit("bot", f"{player.name}'s {item} absorbed the payment (XIX.10); it rolled {pips}.",
             player=player.name, rule="XIX.10", data={"pips": pips})
    if pips <= int(p["bot_explodes_at"]):
        ps.held.take(player.name, item)
        ps.bot_uses.pop(player.name, None)
        target = closest_destroyable(ctx.state, player.square)
        if target is not None:
            destroy(ctx, target, f"{player.name}'s {item} exploded", "XIX.10")
        ctx.emit("bot", f"{player.name}'s {item} exploded and is gone (XIX.10).", player=player.name, rule="XIX.10")
    elif uses >= int(p["bot_absorptions"]):
        ps.held.take(player.name, item)
        ps.bot_uses.pop(player.name, None)
        ctx.emit("bot", f"{player.name}'s {item} absorbed its third payment and is gone (XIX.10).",
                 player=player.name, rule="XIX.10")
    return True
