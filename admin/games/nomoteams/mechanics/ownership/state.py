"""The ownership section's state (VIII) and what its module and its commands share: who owns
each square, the buying rights, Homesteads, Charity; the Best Friend's half of a section VIII
payment; and :func:`destroy`, the one way a section destroys a square. A leaf: the module
(:mod:`ownership`) and its commands (:mod:`ownership_commands`) read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine import hooks
from admin.engine.board import destroy_square
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import best_friend, marked

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

#: the module's name, and its state in a game
NAME = "teams-ownership"
CHARITY = "Charity"


@dataclass
class BuyRight:
    """VIII.4: a player landed on an unowned square and may buy it until their next turn."""

    square: int
    player: str
    update: int


@dataclass
class CharityRequest:
    player: str
    square: int
    week: int


@dataclass
class Stay:
    """Where a player ended each week, to count VIII.12's three consecutive weeks."""

    square: int
    weeks: int


@dataclass
class TeamsOwnershipState:
    #: square -> its owner: a player, a pseudoplayer, or Charity
    owners: dict[int, str] = field(default_factory=dict)
    #: square -> how many times it was renamed (VIII.10)
    renamed: dict[int, int] = field(default_factory=dict)
    buy_rights: list[BuyRight] = field(default_factory=list)
    #: player -> the squares they have a Homestead on (VIII.12)
    homesteads: dict[str, list[int]] = field(default_factory=dict)
    stays: dict[str, Stay] = field(default_factory=dict)
    #: squares given to Charity, waiting for the poorest player who asks (VIII.13)
    charity: list[int] = field(default_factory=list)
    charity_requests: list[CharityRequest] = field(default_factory=list)


def of(state: GameState) -> TeamsOwnershipState:
    """The ownership section's state (``TeamsOwnershipModule.of``)."""
    return api.OWNERSHIP.of(state)


def halved_for_friend(state: GameState, payer: str, payee: str, amount: int) -> int:
    """VIII.9: what a player pays her Best Friend under a rule of section VIII: half, rounded down."""
    return amount // 2 if best_friend(state, payer) == payee else amount


def section_viii_pay(ctx: UpdateContext, payer: str, payee: str, amount: int, *, rule: str, reason: str,
                     voluntary: bool = False) -> int:
    """A payment under a rule of section VIII (VIII.9 applied); what was paid."""
    amount = halved_for_friend(ctx.state, payer, payee, amount)
    if amount > 0:
        ctx.transfer(payer, payee, amount, rule=rule, reason=reason, voluntary=voluntary)
    return amount


def destroy(ctx: UpdateContext, number: int, reason: str, rule: str, by: str | None = None) -> bool:
    """Destroy a square as XVIII says (the destruction section's ``destroy``: XVIII.1's protected
    squares, the renumbering, Explosive Insurance); without that section, the core's
    ``destroy_square`` (every module forgets it). A square a section marks ``indestructible`` (a
    WETHA Lodge, XXVIII.4) stands. False: it was not destroyed."""
    if marked(ctx.state, number, "indestructible"):
        ctx.emit("destroyed", f"Square {number} cannot be destroyed (a Lodge, XXVIII.4): {reason} left it "
                              "standing.", rule="XXVIII.4", data={"square": number, "destroyed": False})
        return False
    destruction = ctx.registry.provider(ctx.state, api.DestroysSquares)
    if destruction is not None:
        return destruction.destroy(ctx, number, reason=reason, rule=rule, by=by)
    destroy_square(ctx.state, number, hooks.call(ctx))
    ctx.emit("destroyed", f"Square {number} was destroyed: {reason}.", rule=rule, data={"square": number})
    return True

