"""Paying for a voluntary purchase: from the player's money, or on a credit card where a game has
them (Nomopoly II XXVIII: a purchase line ending ``ON CREDIT``). Every purchase command of the
library pays through :func:`charge`, so ON CREDIT works for all of them in one place."""

from __future__ import annotations
from typing import TYPE_CHECKING

from admin.engine.capabilities import TakesCredit
from admin.engine.errors import IllegalAction

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


def split_on_credit(rest: str) -> tuple[str, bool]:
    """A purchase line's text without a trailing ``ON CREDIT`` (XXVIII.1), and whether it had one:
    ``"HOUSE ON 14 ON CREDIT"`` -> ``("HOUSE ON 14", True)``."""
    words = rest.rstrip().rstrip(".!").split()
    if len(words) >= 2 and [w.upper() for w in words[-2:]] == ["ON", "CREDIT"]:
        return " ".join(words[:-2]), True
    return rest, False


def charge(ctx: UpdateContext, player: str, payee: str, amount: int, *, rule: str, reason: str,
           on_credit: bool = False) -> None:
    """A voluntary purchase of ``amount`` paid to ``payee`` (a player, or the Admin Bank Account):
    from the player's money (refused if it would bankrupt them, IV.3), or, with ``on_credit``,
    added to their credit card's balance (XXVIII.1; refused over the limit, XXVIII.2)."""
    if on_credit:
        credit = ctx.registry.provider(ctx.state, TakesCredit)
        if credit is None:
            raise IllegalAction("there are no credit cards in this game (XXVIII is not in force); "
                                "leave out ON CREDIT")
        credit.put_on_credit(ctx, player, payee, amount, rule=rule, reason=reason)
        return
    ctx.transfer(player, payee, amount, rule=rule, reason=reason, voluntary=True, kind="purchase")
