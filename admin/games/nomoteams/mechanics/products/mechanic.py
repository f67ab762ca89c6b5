"""XIX: Products, original and repackaged.

A Product is an object for sale with a price and a patent holder (XIX.3-XIX.14 are the
rulebook's own, each "Passed Testing"). A Repackaged Product (XIX.2) duplicates an Original
Product's effects: it is sold by its maker, and its royalty goes to the Original's patent holder.
A player buys one with ``PURCHASE <product>`` and uses it with ``USE`` (``DRINK``, ``PLACE``,
``DROP``, ``RELEASE``, ``BUILD JUMPGATE``): the effects are in :mod:`product_uses` (Blockbusters
and Jumpgates in :mod:`blockbusters`), the state, the catalogue and the payments in
:mod:`product_state`.

The Admin creates new Products (an accepted proposal) with the ruling ``product``; a new Product
nobody has bought two weeks after its creation is removed (XIX.1). Who receives money:
:func:`payee` (a patent holder or maker who is neither a player nor a pseudoplayer, like Geppetto
or Vynd, takes no money: it leaves the game, a standing ruling)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import Text, command, handled
from admin.engine.module import CommandSpec, Mechanic, RulingHandler
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.capabilities import MailFirst
from admin.engine.errors import IllegalAction, RuleError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.products.state import (  # noqa: F401 - part of the Products interface
    CATALOGUE, DUPLICATES, NAME, Blockbuster, Product, ProductsPrivate, ProductsState, find_product, norm, pay_for,
    pay_patent, payee, roll_label)
from admin.games.nomoteams.mechanics.products.uses import COMMANDS, UseProduct, on_land, settle_bath, update_end
from admin.games.nomoteams.mechanics.shared import GOVERNMENT

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player, Square


@command("PURCHASE <product>", cmd="teams-purchase", listing=160, phase=5,
         hint="PURCHASE needs a Product, like PURCHASE WARP BUBBLE (the Products page lists them).",
         summary="buy a Product (the Products page lists them, their prices and patent holders)",
         example="PURCHASE WARP BUBBLE", rules=("XIX.2",))
class Purchase:
    """``PURCHASE <product>`` (XIX)."""

    product: Text


def purchase(ctx: UpdateContext, player: Player, cmd: Purchase) -> str:
    ps = ProductsModule.of(ctx.state)
    product = find_product(ctx.state, cmd.product)
    if not product.sold:
        raise IllegalAction(f"the {product.name} is not sold on the market ({product.rule}); on sale: "
                            + ", ".join(p.name for p in ps.products if p.sold))
    if product.effect == "jumpgate":
        raise IllegalAction("a Jumpgate Builder is used as it is bought (XIX.5): say BUILD JUMPGATE <yours> <other>")
    if player.money < product.price:
        raise IllegalAction(f"the {product.name} costs {ctx.state.money(product.price)} and you have "
                            f"{ctx.state.money(player.money)}")
    pay_for(ctx, player.name, product)
    ps.held.give(player.name, product.name)
    product.bought += 1
    text = f"{player.name} bought a {product.name} for {ctx.state.money(product.price)} ({product.rule})."
    if product.effect == "bath":
        text += settle_bath(ctx, player.name)
    return text


def expire(ctx: UpdateContext) -> None:
    """XIX.1: a Product created by a rule (not the rulebook's own) that nobody bought within
    ``expire_weeks`` weeks of its creation is removed."""
    ps = ProductsModule.of(ctx.state)
    weeks = int(ctx.params(ProductsModule.name)["expire_weeks"])
    for product in list(ps.products):
        if product.created and not product.bought and ctx.state.update >= product.created + weeks:
            ps.products.remove(product)
            ctx.emit("product", f"Nobody bought the {product.name} within {weeks} weeks of its creation: it is "
                                "removed from the rules (XIX.1).", rule="XIX.1", data={"product": product.name})


def _product_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``product name="..." price=N [kind=...] [patent=NAME] [duplicates=<Original or kind>]
    [royalty=N] [maker=NAME] [sold=false]``: a new Product (an accepted proposal made it); one that
    duplicates another's effects is Repackaged and its Original's patent holder is XIX.2's."""
    ps = ProductsModule.of(ctx.state)
    name = str(r.args.get("name", "")).strip()
    if not name or "price" not in r.args:
        raise RuleError('product needs name="..." and price=N (and duplicates=, royalty=, maker=, patent=)')
    if any(norm(p.name) == norm(name) for p in ps.products):
        raise RuleError(f"there is a Product named {name!r} already")
    price, royalty = int(r.args["price"]), int(r.args.get("royalty", 0))
    dup = str(r.args.get("duplicates", "")).strip()
    original = next((p for p in ps.products if dup and norm(p.name) == norm(dup)), None)
    if dup and original is None and dup not in DUPLICATES:
        raise RuleError(f"duplicates={dup!r}: name a Product ({', '.join(p.name for p in ps.products)}) or one "
                        f"of {', '.join(DUPLICATES)}")
    patent = (original.patent if original else DUPLICATES[dup]) if dup else str(r.args.get("patent", GOVERNMENT))
    product = Product(name, str(r.args.get("kind", "Product")), price, patent,
                      original.effect if original else "", original.rule if original else "XIX.2",
                      original=(original.name if original else dup), royalty=royalty if dup else 0,
                      maker=str(r.args.get("maker", "")) if dup else "", created=ctx.state.update,
                      sold=str(r.args.get("sold", "true")).lower() not in ("false", "no"))
    ps.products.append(product)
    ctx.emit("product", f"A new Product: the {name}, {ctx.state.money(price)}" +
             (f", a Repackaged Product of {product.original} (patent: {patent}, royalty "
              f"{ctx.state.money(royalty)})" if dup else f", patent held by {patent}") + " (XIX.2).",
             rule="XIX.2", data={"product": name})
    return f"The {name} is on the market: {r.note}"


def _chains_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``chains player=NAME state=non-Rusty|Rusty|none``: Chains are never defined by this rulebook."""
    ps = ProductsModule.of(ctx.state)
    name, value = str(r.args.get("player", "")), str(r.args.get("state", "")).lower()
    if name not in ctx.state.players or value not in ("non-rusty", "rusty", "none"):
        raise RuleError("chains needs player=NAME and state=non-Rusty, Rusty or none")
    if value == "none":
        ps.chains.pop(name, None)
    else:
        ps.chains[name] = "Rusty" if value == "rusty" else "non-Rusty"
    return f"{name}'s Chains: {value}: {r.note}"


class ProductsModule(Mechanic[ProductsState, ProductsPrivate], MailFirst, api.KeepsObjects, api.SettlesBaths):
    name = NAME
    rules = ("XIX.1", "XIX.2", "XIX.3", "XIX.4", "XIX.5", "XIX.6", "XIX.7", "XIX.8", "XIX.9", "XIX.10",
             "XIX.13", "XIX.14")
    stated = {"XIX.1": {"expire_weeks": ("within {} weeks of its creation",)},
              "XIX.4": {"disarm_payment": ("pay ${}, it is disarmed",)},
              "XIX.10": {"bot_absorptions": ("After absorbing {} payments",),
                         "bot_explodes_at": ("a total of {} or fewer",)}}
    requires = ("teams-health",)
    defaults = {"expire_weeks": 2, "disarm_payment": 50, "disarm_payers": 3, "fuse_updates": 1,
                "bot_absorptions": 3, "bot_explodes_at": 3}
    summary = "Products, original and repackaged: buying them, their patent holders and royalties, their effects."
    State = ProductsState
    Private = ProductsPrivate

    def settle_bath(self, ctx: UpdateContext, name: str) -> str:
        return settle_bath(ctx, name)

    def setup(self, state: GameState) -> None:
        super().setup(state)
        ps = self.of(state)
        if not ps.products:
            ps.products = [Product(**vars(p)) for p in CATALOGUE]

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Purchase, purchase)) + COMMANDS

    def rulings(self) -> dict[str, RulingHandler]:
        return {"product": _product_ruling, "chains": _chains_ruling}

    def on_update_start(self, ctx: UpdateContext) -> None:
        expire(ctx)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        on_land(ctx, player, square)

    def on_update_end(self, ctx: UpdateContext) -> None:
        update_end(ctx)

    def mail_first(self, ctx: UpdateContext, player: str, commands: Sequence[Any]) -> bool:
        """XIX.7: an Eye Opener drunk this week (or in this very mail, if she holds one) puts her mail
        before everyone's who drank none."""
        ps = self.of(ctx.state)
        if ps.eye_opener.get(player) == ctx.state.week:
            return True
        held = list(ps.held.items(player))
        for cmd in commands:
            if isinstance(cmd, UseProduct) and held:
                try:
                    if find_product(ctx.state, cmd.product, among=held).effect == "eye-opener":
                        return True
                except IllegalAction:
                    continue
        return False

    def extra_proposals(self, state: GameState, player: str) -> int:
        return 1 if self.of(state).all_nighter.get(player) == state.week else 0

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ps = self.of(state)
        ps.disguises.pop(player.name, None)
        ps.chains.pop(player.name, None)

    def on_square_added(self, state: GameState, square: Square) -> None:
        ps = self.of(state)
        if square.destroyed:  # a destroyed square's Jumpgates, Vomit and Blockbusters go with it
            ps.jumpgates = [g for g in ps.jumpgates if square.number not in g]
            ps.vomit.pop(square.number, None)
            priv = self.private_of(state)
            priv.blockbusters = [b for b in priv.blockbusters if b.square != square.number]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        ps = self.of(state)
        if key == "products":
            ps.held.clear(player.name)
            for item, n in dict(value or {}).items():
                ps.held.give(player.name, find_product(state, item).name, int(n))
            return True
        if key == "chains":
            ps.chains[player.name] = str(value)
            return True
        return False

    # -- objects (shared.objects_of): a player's Products go with her objects (GIVE, LEAVE, II.8) ------
    def objects_of(self, state: GameState, name: str) -> dict[str, int]:
        return dict(self.of(state).held.items(name))

    def move_object(self, state: GameState, giver: str, receiver: str, item: str, n: int) -> None:
        if any(p.name == item for p in self.of(state).products):
            self.of(state).held.transfer(giver, receiver, item, n)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        items = self.of(state).held.items(player.name)
        shown = ", ".join(f"{k}" + (f" x{v}" if v > 1 else "") for k, v in items.items())
        return [Fact("products", items, order=47, kind="text"),  # the export's (item -> count)
                Fact("products_held", shown or None, label="Products", order=47, kind="text")]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        items = self.of(state).held.items(player.name)
        bombs = [b.square for b in self.private_of(state).blockbusters if b.placer == player.name]
        parts = [(60, "Products: " + ", ".join(f"{k} x{v}" for k, v in items.items()))] if items else []
        if bombs:
            parts.append((61, "your Blockbusters wait on square(s) " + ", ".join(map(str, bombs))))
        return parts

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        bombs = [b.square for b in self.private_of(state).blockbusters if b.placer == player.name]
        return [Fact("blockbusters_placed", bombs, label="Your Blockbusters (secret)", kind="squares")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        ps = self.of(state)
        flags = []
        gates = [g for g in ps.jumpgates if square.number in g]
        for g in gates:
            other = g[1] if g[0] == square.number else g[0]
            flags.append((60, "JG", f"a Jumpgate to square {other} (XIX.5)"))
        if square.number in ps.vomit:
            flags.append((61, "FV", "Fake Vomit: whoever comes here becomes Sick (XIX.13)"))
        return SquareLook(flags=tuple(flags)) if flags else None

    def panels(self, state: GameState) -> list[Panel]:
        ps = self.of(state)
        rows = tuple((p.name, p.kind, state.money(p.price) if p.sold else "not sold", p.patent,
                      f"of {p.original}, {state.money(p.royalty)} royalty" + (f", by {p.maker}" if p.maker else "")
                      if p.original else "Original", p.rule) for p in ps.products)
        gates = tuple((a, b) for a, b in ps.jumpgates)
        return [Panel("products", "Products",
                      "Products for sale (XIX): PURCHASE <product>; the price goes to the patent holder, or, "
                      "for a Repackaged Product, its royalty to the Original's patent holder and the rest to "
                      "its maker. A patent holder who is not in the game receives nothing. A new Product nobody "
                      "buys within two weeks is removed. Blockbusters are placed in secret.",
                      (Table("Products", ("Product", "Kind", "Price", "Patent holder", "Repackaged", "Rule"), rows),
                       Table("Jumpgates", ("Square", "Square"), gates)), order=30)]
