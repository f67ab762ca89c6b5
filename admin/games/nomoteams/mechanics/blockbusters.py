"""XIX.4 and XIX.5: Blockbusters and Jumpgates. ``PLACE BLOCKBUSTER ON <square>`` delivers one in
secret (the Team whose base holds it is told), ``DISARM BLOCKBUSTER ON <square>`` pays toward
disarming it, and a week later it destroys its square and the square's block; ``BUILD JUMPGATE
<a> <b>`` joins two squares. The other Products' uses are in :mod:`product_uses`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from admin.engine.declare import command
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams.mechanics.board import base
from admin.games.nomoteams.mechanics.ownership.mechanic import block_owner
from admin.games.nomoteams.mechanics.ownership.state import destroy
from admin.games.nomoteams.mechanics.products.state import (NAME, Blockbuster, find_product, of, pay_for, private_of,
                                                     target_square, used_up)
from admin.games.nomoteams.mechanics.shared import (CORPORATION, TEAMS, add_mark, colour_of, jumpgate_pairs, owner_of,
                                              set_owner, team_of)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.games.nomoteams.mechanics.products.state import Product


def parse_jumpgate(rest: str, line: object) -> BuildJumpgate:
    m = re.match(r"^jumpgates?\s+#?(\d+)\s+(?:(?:and|to)\s+)?#?(\d+)$", " ".join(rest.split()), re.IGNORECASE)
    if not m:
        raise CommandError(f"say BUILD JUMPGATE <your square> <other square>, like BUILD JUMPGATE 3 17; "
                           f"found BUILD {rest.strip()!r}.")
    return BuildJumpgate(int(m.group(1)), int(m.group(2)))


def parse_disarm(rest: str, line: object) -> DisarmBlockbuster:
    m = re.match(r"^(?:blockbuster\s+)?(?:on\s+)?(.+)$", " ".join(rest.split()), re.IGNORECASE)
    return DisarmBlockbuster(parse_square(m.group(1) if m else rest))


@command("BUILD JUMPGATE <a> <b>", parse=parse_jumpgate, cmd="teams-jumpgate", listing=165,
         summary="$500 to The Corporation: a Jumpgate between your square and another of yours or an "
                 "unowned one (which becomes yours)", example="BUILD JUMPGATE 3 17", rules=("XIX.5",))
class BuildJumpgate:
    """``BUILD JUMPGATE <a> <b>`` (XIX.5)."""

    a: int
    b: int


@command("DISARM BLOCKBUSTER ON <square>", parse=parse_disarm, cmd="teams-disarm", listing=164,
         summary="pay $50 toward disarming a Blockbuster in your Team's base", example="DISARM BLOCKBUSTER ON 3",
         rules=("XIX.4",))
class DisarmBlockbuster:
    """``DISARM BLOCKBUSTER ON <square>`` (XIX.4)."""

    square: int


def place_blockbuster(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.4: delivered to a square in secret; a Team whose base it is in is told."""
    number = target_square(ctx, target, f"PLACE {product.name.upper()} ON <square>")
    used_up(ctx, player, product)
    priv = private_of(ctx.state)
    bomb = Blockbuster(priv.next_id, number, player.name, ctx.state.update, product.name)
    priv.next_id += 1
    priv.blockbusters.append(bomb)
    for team in TEAMS:
        if number in base(ctx.state, team):
            need = int(ctx.params(NAME)["disarm_payers"])
            for member in _members(ctx.state, team):
                ctx.emit("blockbuster", None, player=member, rule="XIX.4",
                         private=f"A {product.name} was placed on square {number}, in the {team} Team's base: it "
                                 f"destroys the square in a week unless someone lands there, or {need} of your Team "
                                 f"(all, if fewer) each pay $"
                                 f"{ctx.params(NAME)['disarm_payment']}: DISARM BLOCKBUSTER ON {number} "
                                 "(XIX.4).")
    return f"{player.name} placed a {product.name} on square {number}; it stays secret (XIX.4)."


def _members(state: GameState, team: str | None) -> list[str]:
    return [p.name for p in state.active_players() if team_of(state, p.name) == team]


def disarm(ctx: UpdateContext, player: Player, cmd: DisarmBlockbuster) -> str:
    """XIX.4: at least three members of the Team whose base holds it (all, if fewer) pay $50."""
    team = team_of(ctx.state, player.name)
    priv = private_of(ctx.state)
    bombs = [b for b in priv.blockbusters if b.square == cmd.square and team and cmd.square in base(ctx.state, team)]
    if not bombs:
        raise IllegalAction(f"your Team was told of no Blockbuster on square {cmd.square}; only a Team told of one "
                            "in its base may pay to disarm it (XIX.4)")
    bomb = bombs[0]
    if player.name in bomb.paid:
        raise IllegalAction("you have paid to disarm it already")
    p = ctx.params(NAME)
    ctx.transfer(player.name, CORPORATION, int(p["disarm_payment"]), rule="XIX.4",
                 reason="disarming a Blockbuster", voluntary=True)
    bomb.paid.append(player.name)
    need = min(int(p["disarm_payers"]), len(_members(ctx.state, team)))
    if len(bomb.paid) >= need:
        priv.blockbusters.remove(bomb)
        ctx.emit("blockbuster", f"The {team} Team disarmed a {bomb.product} on square {bomb.square} (XIX.4).",
                 rule="XIX.4", data={"square": bomb.square})
        return f"{player.name} paid; the {bomb.product} on square {bomb.square} is disarmed (XIX.4)."
    return f"{player.name} paid to disarm it: {len(bomb.paid)} of {need} (XIX.4)."


def detonate(ctx: UpdateContext, bomb: Blockbuster) -> None:
    """XIX.4: the square is destroyed, and every square of its block."""
    owner = owner_of(ctx.state, bomb.square)
    colour = colour_of(ctx.state, bomb.square)
    block = []
    if owner and block_owner(ctx.state, colour) == owner:
        block = [s.number for s in ctx.state.live_squares()
                 if owner_of(ctx.state, s.number) == owner and colour_of(ctx.state, s.number) == colour]
    for number in [bomb.square] + [n for n in block if n != bomb.square]:
        square = ctx.state.square(number)
        if square is not None and not square.destroyed:
            destroy(ctx, number, f"a {bomb.product} went off" + (" in its block" if number != bomb.square else ""),
                    "XIX.4")


def build_jumpgate(ctx: UpdateContext, player: Player, cmd: BuildJumpgate) -> str:
    """XIX.5: $500 to The Corporation for a Jumpgate between two squares she owns, or one she owns and
    an unowned one (which becomes hers); used as it is bought."""
    ps = of(ctx.state)
    product = find_product(ctx.state, "Jumpgate Builder")
    for n in (cmd.a, cmd.b):
        target_square(ctx, str(n), "BUILD JUMPGATE <a> <b>")
    if cmd.a == cmd.b:
        raise IllegalAction("a Jumpgate joins two different squares")
    owners = (owner_of(ctx.state, cmd.a), owner_of(ctx.state, cmd.b))
    if player.name not in owners or any(o not in (player.name, None) for o in owners):
        raise IllegalAction(f"a Jumpgate joins two squares you own, or one you own and an unowned one; square "
                            f"{cmd.a} is {owners[0] or 'unowned'}'s, square {cmd.b} {owners[1] or 'unowned'} (XIX.5)")
    if player.money < product.price:
        raise IllegalAction(f"a Jumpgate Builder costs {ctx.state.money(product.price)} and you have "
                            f"{ctx.state.money(player.money)}")
    pay_for(ctx, player.name, product)
    product.bought += 1
    gained = [n for n, o in zip((cmd.a, cmd.b), owners) if o is None]
    for n in gained:
        set_owner(ctx.state, n, player.name)
    ps.jumpgates.append(sorted([cmd.a, cmd.b]))
    extra = f"; square {gained[0]} is now {player.name}'s" if gained else ""
    return f"{player.name} built a Jumpgate between squares {cmd.a} and {cmd.b}{extra} (XIX.5)."


def _on_a_jumpgate(state: GameState, number: int) -> bool:
    return any(number in pair for pair in jumpgate_pairs(state))


add_mark("jumpgate", _on_a_jumpgate)  # XXVIII.5: the WETHA spares a Jumpgate's square
