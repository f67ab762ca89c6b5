"""XIX.3-XIX.14: what Products do when used. ``USE <product> [TO <square> | ON <square or player>]``
(also said ``DRINK``, ``PLACE``, ``DROP``, ``RELEASE``), ``BUILD JUMPGATE <a> <b>`` and ``DISARM
BLOCKBUSTER ON <square>``. A Repackaged Product does what its Original does; a new Product whose
effect no module carries out is used up and its effect is the Admin's (a to-do line). Placing,
disarming and building (XIX.4, XIX.5) are in :mod:`blockbusters`; the Hot Spring Bath's check is
offered to the health section as the :class:`~admin.games.nomoteams.api.SettlesBaths` capability."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from admin.engine.declare import command, handled
from admin.engine.movement import jump
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.blockbusters import (BuildJumpgate, DisarmBlockbuster, build_jumpgate, detonate,
                                                    disarm, place_blockbuster)
from admin.games.nomoteams.mechanics.health import cure, is_sick, make_sick
from admin.games.nomoteams.mechanics.products.state import (NAME, Product, find_product, of, private_of, roll_label,
                                                     target_square, used_up)
from admin.games.nomoteams.mechanics.shared import live_player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Player, Square


_TARGET = re.compile(r"^(.*?)\s+(?:to|on)\s+(.+)$", re.IGNORECASE)


def _parser(verb: str) -> Callable[[str, object], UseProduct]:
    def parse(rest: str, line: object) -> UseProduct:
        text = " ".join(rest.split())
        if not text:
            raise CommandError(f"{verb} needs a Product you hold, like {verb} WARP BUBBLE TO 12.")
        m = _TARGET.match(text)
        kind = VERBS[verb]
        return kind(m.group(1), m.group(2), verb) if m else kind(text, "", verb)
    return parse


@command("USE <product> [TO|ON <target:square or player>]", parse=_parser("USE"), cmd="teams-use-product",
         listing=161,
         summary="use a Product you hold (a Warp Bubble TO a square, a Disguise Kit ON a player ...)",
         example="USE WARP BUBBLE TO 12", rules=("XIX.3", "XIX.11", "XIX.12"))
class UseProduct:
    """``USE <product> [TO|ON <target>]`` and its synonyms (XIX.3-XIX.14)."""

    product: str
    target: str = ""
    verb: str = "USE"


# the same command said with other verbs: a type of its own each, so each keeps its own phase and
# privacy (an update orders and shows commands by their type)
@command("DRINK <product:beverage>", parse=_parser("DRINK"), cmd="teams-drink-product", listing=162, phase=5,
         summary="drink an Eye Opener, an All-Nighter or a V-8 you hold (before your PROPOSE)",
         example="DRINK ALL-NIGHTER", rules=("XIX.7", "XIX.8", "XIX.9"))
class DrinkProduct(UseProduct):
    pass


@command("PLACE BLOCKBUSTER ON <target:square>", parse=_parser("PLACE"), cmd="teams-place-product", listing=163,
         private=True, summary="place a Blockbuster in secret: it destroys the square (and its block) in a "
                               "week unless disarmed", example="PLACE BLOCKBUSTER ON 12", rules=("XIX.4",))
class PlaceProduct(UseProduct):
    pass


@command("DROP FAKE VOMIT", parse=_parser("DROP"), cmd="teams-drop-product", listing=166,
         summary="drop Fake Vomit on your square: whoever comes there later becomes Sick",
         example="DROP FAKE VOMIT", rules=("XIX.13",))
class DropProduct(UseProduct):
    pass


@command("RELEASE GREMLINS", parse=_parser("RELEASE"), cmd="teams-release-product", listing=167,
         summary="release Gremlins on your square: its Jumpgates and Blockbusters, and the Blockbusters and "
                 "Warp Bubbles of players there, disappear", example="RELEASE GREMLINS", rules=("XIX.14",))
class ReleaseProduct(UseProduct):
    pass


VERBS = {"USE": UseProduct, "DRINK": DrinkProduct, "PLACE": PlaceProduct, "DROP": DropProduct,
         "RELEASE": ReleaseProduct}


def _take(ctx: UpdateContext, player: Player, cmd: UseProduct) -> Product:
    ps = of(ctx.state)
    held = list(ps.held.items(player.name))
    if not held:
        raise IllegalAction("you hold no Products; PURCHASE one first (the Products page lists them)")
    return find_product(ctx.state, cmd.product, among=held)


def use(ctx: UpdateContext, player: Player, cmd: UseProduct) -> str:
    product = _take(ctx, player, cmd)
    effect = EFFECTS.get(product.effect)
    if effect is None:  # a Product the rules made whose effect no module carries out
        of(ctx.state).held.take(player.name, product.name)
        ctx.emit("admin", f"{player.name} used a {product.name} ({cmd.target or 'no target'}): carry out its "
                          "effect (nomopoly ruling adjust ...).", rule=product.rule)
        return f"{player.name} used a {product.name}; the Admin carries out its effect ({product.rule})."
    return effect(ctx, player, product, cmd.target)



def warp(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.3: transported to any square, landing on it; then the Warp Bubble is gone."""
    number = target_square(ctx, target, f"USE {product.name.upper()} TO <square>")
    used_up(ctx, player, product)
    jump(ctx, player, number, rule="XIX.3", reason=f"a {product.name}")
    return f"{player.name} used a {product.name} and landed on square {number} (XIX.3)."



def settle_bath(ctx: UpdateContext, name: str) -> str:
    """XIX.6: a Sick owner of a Hot Spring Bath is cured; Chains that are not Rusty become Rusty; a
    bath whose owner is neither Sick nor in non-Rusty Chains disappears."""
    ps = of(ctx.state)
    baths = [p for p, _ in ps.held.items(name).items() if find_product(ctx.state, p).effect == "bath"]
    if not baths or api.BATH.peek(ctx) == name:
        return ""
    api.BATH.put(ctx, name)
    said = []
    try:
        if is_sick(ctx.state, name):
            cure(ctx, name, rule="XIX.6", why="a Hot Spring Bath")
            said.append(" The Hot Spring Bath cured the Sickness")
        if ps.chains.get(name) == "non-Rusty":
            ps.chains[name] = "Rusty"
            said.append(" The Hot Spring Bath made the Chains Rusty")
        if not is_sick(ctx.state, name) and ps.chains.get(name) != "non-Rusty":
            for bath in baths:
                ps.held.take(name, bath, ps.held.count(name, bath))
            ctx.emit("product", f"{name}'s Hot Spring Bath disappeared (XIX.6).", player=name, rule="XIX.6")
            said.append(" and the Bath disappeared (XIX.6).")
    finally:
        api.BATH.clear(ctx)
    return ";".join(said)


def eye_opener(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.7: drunk, her mail this week counts as arriving before everyone else's without one."""
    used_up(ctx, player, product)
    of(ctx.state).eye_opener[player.name] = ctx.state.week
    return f"{player.name} drank an {product.name}: this week her mail counts as arriving first (XIX.7)."


def all_nighter(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.8: at most one a week; one extra proposal this week, with all its perks."""
    ps = of(ctx.state)
    if ps.all_nighter.get(player.name) == ctx.state.week:
        raise IllegalAction("you drank an All-Nighter this week already: at most one a week (XIX.8)")
    used_up(ctx, player, product)
    ps.all_nighter[player.name] = ctx.state.week
    return f"{player.name} drank an {product.name}: one extra proposal this week (XIX.8)."


def v8(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.9: she becomes non-Sick and another player, drawn with the dice, becomes Sick."""
    used_up(ctx, player, product)
    cure(ctx, player.name, rule="XIX.9", why=f"a {product.name}")
    others = sorted(p.name for p in ctx.state.active_players() if p.name != player.name)
    if not others:
        return f"{player.name} drank a {product.name}; there is nobody else to become Sick (XIX.9)."
    victim = others[ctx.dice.roll(roll_label(ctx, f"v8/{player.name}"), len(others)) - 1] if len(others) > 1 \
        else others[0]
    make_sick(ctx, victim, rule="XIX.9", why=f"{player.name}'s {product.name}")
    return f"{player.name} drank a {product.name}: she is not Sick, and {victim} is (XIX.9)."


def disguise(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.11, XIX.12: the Victim bears her landings' and passages' effects (Disguise Kit) or every
    action but her moves (Impersonator) until the week's end; the Admin carries them out."""
    if not target:
        raise IllegalAction(f"say whom: USE {product.name.upper()} ON <player>")
    victim = live_player(ctx, target).name
    if victim == player.name:
        raise IllegalAction("the Victim is another player")
    used_up(ctx, player, product)
    rule, limit = ("XIX.12", 1000) if product.effect == "impersonate" else ("XIX.11", 500)
    of(ctx.state).disguises[player.name] = [victim, product.name, ctx.state.update]
    ctx.emit("admin", f"{player.name} used a {product.name} on {victim} ({rule}): until this week's end or until "
                      f"{victim} has lost {ctx.state.money(limit)}, "
                      + ("the effects of her landings and passages fall on the Victim"
                         if rule == "XIX.11" else "every action but those that move her falls on the Victim")
                      + ": move the money with nomopoly ruling adjust ...", rule=rule)
    return f"{player.name} used a {product.name} on {victim} until the week's end ({rule})."


def vomit(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.13: dropped on her square; any other player who comes there later becomes Sick."""
    used_up(ctx, player, product)
    of(ctx.state).vomit[player.square] = player.name
    return f"{player.name} dropped {product.name} on square {player.square} (XIX.13)."


def gremlins(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    """XIX.14: on her square, Jumpgates and Blockbusters disappear, and players there lose their
    Blockbusters and Warp Bubbles (the other items it names are never defined here)."""
    ps, priv = of(ctx.state), private_of(ctx.state)
    used_up(ctx, player, product)
    here = player.square
    lost = [f"{len([g for g in ps.jumpgates if here in g])} Jumpgate(s)"]
    ps.jumpgates = [g for g in ps.jumpgates if here not in g]
    bombs = [b for b in priv.blockbusters if b.square == here]
    priv.blockbusters = [b for b in priv.blockbusters if b.square != here]
    lost.append(f"{len(bombs)} Blockbuster(s)")
    for other in ctx.state.active_players():
        if other.square != here:
            continue
        for item in list(ps.held.items(other.name)):
            if find_product(ctx.state, item).effect in ("blockbuster", "warp"):
                ps.held.take(other.name, item, ps.held.count(other.name, item))
                lost.append(f"{other.name}'s {item}")
    ctx.emit("product", f"{player.name} released Gremlins on square {here}: gone are {', '.join(lost)} (XIX.14).",
             rule="XIX.14", data={"square": here})
    return f"{player.name} released Gremlins on square {here} (XIX.14)."


def passive(ctx: UpdateContext, player: Player, product: Product, target: str) -> str:
    raise IllegalAction(f"a {product.name} works by itself ({product.rule}); it is not used by a command")


EFFECTS = {"warp": warp, "blockbuster": place_blockbuster, "eye-opener": eye_opener, "all-nighter": all_nighter,
           "v8": v8, "disguise": disguise, "impersonate": disguise, "vomit": vomit, "gremlins": gremlins,
           "bot": passive, "bath": passive}


def on_land(ctx: UpdateContext, player: Player, square: Square) -> None:
    """XIX.4: landing on a Blockbuster disarms it; XIX.13: Fake Vomit makes her Sick."""
    ps, priv = of(ctx.state), private_of(ctx.state)
    for bomb in [b for b in priv.blockbusters if b.square == square.number]:
        priv.blockbusters.remove(bomb)
        ctx.emit("blockbuster", f"{player.name} landed on square {square.number} and disarmed a {bomb.product} "
                                "(XIX.4).", player=player.name, rule="XIX.4")
    dropper = ps.vomit.get(square.number)
    if dropper and dropper != player.name:
        make_sick(ctx, player.name, rule="XIX.13", why=f"Fake Vomit on square {square.number}")


def update_end(ctx: UpdateContext) -> None:
    """Blockbusters a week old go off (XIX.4); Disguises and Impersonations end with the week."""
    ps, priv = of(ctx.state), private_of(ctx.state)
    fuse = int(ctx.params(NAME)["fuse_updates"])
    for bomb in [b for b in priv.blockbusters if ctx.state.update >= b.update + fuse]:
        priv.blockbusters.remove(bomb)
        detonate(ctx, bomb)
    if ctx.slot.week_end:
        for user, (victim, name, _) in list(ps.disguises.items()):
            del ps.disguises[user]
            rule = next((p.rule for p in ps.products if p.name == name), "XIX.11")
            ctx.emit("product", f"{user}'s {name} on {victim} wore off at the week's end ({rule}).", rule=rule)


COMMANDS = handled((UseProduct, use), (DrinkProduct, use), (PlaceProduct, use), (DisarmBlockbuster, disarm),
                   (BuildJumpgate, build_jumpgate), (DropProduct, use), (ReleaseProduct, use))
