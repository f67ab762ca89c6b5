"""The first Nomopoly's XVI and VI.4: the Yellow Bus Company drives a player, after the week's
moves, to a square another player owns or to a Wormhole. A drive lands without passing over
anything and owes no rent there; the rider pays the owner half the rent and the Admin Bank
Account the larger of $500 less that half, and that half."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from admin.engine.context import BANK
from admin.engine.declare import Square, command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.movement import drive
from admin.engine.errors import IllegalAction
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.games.nomopoly1.mechanics.parallel import wormholes
from admin.library.ownership import owner_of, rent_due
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


@command("YBC DRIVE TO <square>", cmd="ybc-drive", listing=280, rules=("XVI.1",),
         summary="by Wednesday, after the week's moves: be driven to a square another player owns (half its "
                 "rent to them, and $500 less that, or that, whichever is more, to the Admin Bank Account) or "
                 "to a Wormhole; no rent on arrival",
         example="YBC DRIVE TO 14")
class Ride:
    """``YBC DRIVE TO <square>`` (XVI.1)."""

    square: Square


class BusModule(Mechanic[None, None]):
    name = "yellow-bus"
    rules = ("XVI.1", "XVI.2", "XVI.3", "VI.4")
    defaults = {"fee": 500, "owner_share_percent": 50, "rounding": "nearest"}
    summary = "The Yellow Bus Company drives you to another player's square or a Wormhole, for a fare."

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Ride, ride))


def ride(ctx: UpdateContext, player: Player, cmd: Ride) -> str:
    if not ctx.slot.takes_proposals:
        raise IllegalAction("ask the Yellow Bus Company by Wednesday, before the proposal deadline (XVI.1)")
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    if cmd.square == player.square:
        raise IllegalAction(f"you are on square {cmd.square} already")
    owner = owner_of(ctx.state, cmd.square)
    hole = cmd.square in wormholes(ctx.state)
    if not hole and (owner is None or owner == player.name):
        raise IllegalAction(f"the bus goes to a square another player owns, or to a Wormhole (XVI.2); square "
                            f"{cmd.square} is {'yours' if owner == player.name else 'nobody' + chr(39) + 's'}")
    p = ctx.params("yellow-bus")
    half = 0
    if owner is not None and owner != player.name:
        half = percent_of(rent_due(ctx, player, square), int(p["owner_share_percent"]), str(p["rounding"]))
    fare = max(int(p["fee"]) - half, half)
    if player.money < half + fare:
        raise IllegalAction(f"the ride costs {ctx.state.money(half + fare)} and you have "
                            f"{ctx.state.money(player.money)}")
    if half and owner is not None:  # half is 0 unless another player owns the square
        ctx.transfer(player.name, owner, half, rule="XVI.3", reason=f"the bus to square {cmd.square}", voluntary=True, kind="purchase")
    ctx.transfer(player.name, BANK, fare, rule="XVI.3", reason="the Yellow Bus Company's fare", voluntary=True, kind="purchase")
    drive(ctx, player, cmd.square, rule="VI.4", reason="the Yellow Bus Company")
    paid = f"{ctx.state.money(half)} to {owner} and " if half else ""
    return f"{player.name} rode the Yellow Bus to square {cmd.square}, paying {paid}{ctx.state.money(fare)} fare."
