"""Capabilities: what one mechanic does that the core or the library asks of it.

A hook is called on every enabled mechanic and their answers combined (:mod:`admin.engine.hooks`);
a capability is one mechanic's: the caller asks the registry for the enabled mechanic that has it,
by its class, and calls it if there is one::

    glue = ctx.registry.provider(ctx.state, StopsMoves)
    if glue is not None and glue.stops_on(ctx, player, number): ...

A mechanic has a capability by deriving from its class (``class HouseOfCardsModule(Mechanic,
StopsMoves)``), so the method's signature is checked where it is written. The classes live here
because the callers (the core's moves, the library's turns and rents) sit below the games whose
mechanics have them; a caller that may import the mechanic itself asks for its class instead
(``provider(state, CardsModule)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.shows import StandingRow


class StopsMoves:
    """A square that ends a move passing through it (Nomopoly II's glue, XXIV.2)."""

    def stops_on(self, ctx: UpdateContext, player: Player, number: int) -> bool:
        """True if the player's move ends on square ``number``, which it would otherwise pass
        over; the mechanic does what stopping there does. The player then lands there."""
        raise NotImplementedError


class SlowsMoves:
    """A square that costs more than one pip to pass through (the Teams variant's glue)."""

    def pips_lost(self, ctx: UpdateContext, player: Player, number: int) -> int:
        """How many pips of the move's remaining count the player loses passing through square
        ``number``; a move left with none ends, and lands, there."""
        raise NotImplementedError


class EasesHealthLoss:
    """Health lost is changed (the first Nomopoly's worriers take half, XXXVI)."""

    def adjust_health_loss(self, ctx: UpdateContext, player: Player, loss: int, reason: str) -> int:
        """The health ``player`` loses instead of ``loss``."""
        raise NotImplementedError


class DeniesBenefits:
    """A player may be refused what the rules give every player (Nomopoly II's terrorists, XXIII.2)."""

    def denies(self, ctx: UpdateContext, player: Player, benefit: str) -> str | None:
        """Why ``player`` does not get ``benefit`` (``"pass-bonus"``: VI.11's money for going round
        the board; ``"new-square"``: VI.17's chance of a new square), or None."""
        raise NotImplementedError


class OrdersActions:
    """The mechanic orders its early-phase commands itself (BUY in landing order, XIII.3)."""

    def action_order(self, ctx: UpdateContext, player: str, command: Any) -> Any:
        """The mechanic's order for one of its commands (None: the order they were received)."""
        raise NotImplementedError


class MailFirst:
    """Some players' mail counts as arriving before everyone else's (the Teams variant's Eye
    Opener, XIX.7)."""

    def mail_first(self, ctx: UpdateContext, player: str, commands: Sequence[Any]) -> bool:
        """True if ``player``'s mail this update (its typed ``commands``) counts as arriving first."""
        raise NotImplementedError


class PricesSquares:
    """The price of a square bought is changed (Nomopoly II's Governor: 5% off, XXXV.3)."""

    def adjust_price(self, ctx: UpdateContext, player: Player, square: Square, price: int) -> int:
        """What ``player`` pays to buy ``square`` listed at ``price``."""
        raise NotImplementedError


class AdjustsQuantities:
    """A quantity the Admin may adjust by ruling besides money (health)."""

    def adjust(self, ctx: UpdateContext, player: Player, key: str, amount: int, reason: str) -> bool:
        """``ruling adjust NAME --KEY AMOUNT``: True if ``key`` is the mechanic's to adjust."""
        raise NotImplementedError


class StandsInStandings:
    """Parties that are not players stand in the players' standings (the Teams variant's
    pseudoplayers)."""

    def standing_rows(self, state: GameState) -> list[StandingRow]:
        """Those parties, each marked as what it is (public state only)."""
        raise NotImplementedError


class TakesCredit:
    """A purchase may go on a credit card (Nomopoly II's XXVIII: a line ending ``ON CREDIT``)."""

    def put_on_credit(self, ctx: UpdateContext, player: str, payee: str, amount: int, *, rule: str,
                      reason: str) -> None:
        """Add ``amount``, paid to ``payee``, to ``player``'s card balance; IllegalAction when the
        player has no card or it would pass the limit."""
        raise NotImplementedError


class ChecksSettings:
    """A parameter whose new value must also fit the game as it stands (Timopoly's board keeps
    its number of spaces: deeds, Noms and tokens stand on them)."""

    def check_setting(self, state: GameState, key: str, value: Any) -> None:
        """Raise RuleError, saying why, if ``key`` may not be set to ``value`` (already checked
        against the parameter's type and bounds) in this game today."""
        raise NotImplementedError
