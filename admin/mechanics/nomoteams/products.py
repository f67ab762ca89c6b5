"""XIX: Products, original and repackaged.

A Product is an object for sale with a price and a patent holder (XIX.3-XIX.14 are the
rulebook's own, each "Passed Testing"). A Repackaged Product (XIX.2) duplicates an Original
Product's effects: it is sold by its maker, and its royalty goes to the Original's patent holder.
A player buys one with ``PURCHASE <product>`` and uses it with ``USE`` (``DRINK``, ``PLACE``,
``DROP``, ``RELEASE``, ``BUILD JUMPGATE``): the effects are in :mod:`product_uses`.

The Admin creates new Products (an accepted proposal) with the ruling ``product``; a new Product
nobody has bought two weeks after its creation is removed (XIX.1). Who receives money:
:func:`payee` (a patent holder or maker who is neither a player nor a pseudoplayer, like Geppetto
or Vynd, takes no money: it leaves the game, a standing ruling)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from admin.engine.commands import command_type
from admin.engine.context import BANK
from admin.engine.inventory import Inventory
from admin.engine.module import CommandSpec, Fact, Mechanic, Panel, SquareLook, Table
from admin.errors import CommandError, IllegalAction, RuleError
from admin.mechanics.nomoteams.shared import CORPORATION, GOVERNMENT, PSEUDOPLAYERS, dollars


@dataclass
class Product:
    """One Product on the market (or off it: ``sold`` False)."""

    name: str
    kind: str
    price: int
    #: the patent holder: who receives an Original Product's price
    patent: str
    #: what it does when used (a key of product_uses.EFFECTS), "" for the Admin to carry out
    effect: str = ""
    rule: str = "XIX.2"
    #: a Repackaged Product (XIX.2): the Original it duplicates, its royalty, who sells it
    original: str = ""
    royalty: int = 0
    maker: str = ""
    #: the update it was created (0: the rulebook's own, which "Passed Testing")
    created: int = 0
    bought: int = 0
    sold: bool = True
    #: XIX.12: the share of what its patent holder receives that goes on to another Product's
    share_to: str = ""
    share_percent: int = 0


def _p(name: str, kind: str, price: int, patent: str, effect: str, rule: str, **kw: object) -> Product:
    return Product(name, kind, price, patent, effect, rule, **kw)  # type: ignore[arg-type]


#: the rulebook's Products (XIX.3-XIX.14) and their repackagings, as the seed lists them
CATALOGUE: tuple[Product, ...] = (
    _p("Warp Bubble", "Experimental Technology", 500, CORPORATION, "warp", "XIX.3"),
    _p("Blockbuster", "Experimental Technology", 300, CORPORATION, "blockbuster", "XIX.4"),
    _p("Fake Toy Bomb", "Novelty", 325, CORPORATION, "blockbuster", "XIX.4", original="Blockbuster", royalty=275),
    _p("Jumpgate Builder", "Experimental Technology", 500, CORPORATION, "jumpgate", "XIX.5"),
    _p("Hot Spring Bath", "item", 40, "Vynd", "bath", "XIX.6"),
    _p("Eye Opener", "Caffeinity", 50, "Geppetto", "eye-opener", "XIX.7"),
    _p("Chez Caffeine's Eye Opener", "Beverage", 50, "Geppetto", "eye-opener", "XIX.7", original="Eye Opener",
       royalty=40, maker="Geppetto"),
    _p("All-Nighter", "Caffeinity", 100, "Geppetto", "all-nighter", "XIX.8"),
    _p("Chez Caffeine's All-Nighter", "Beverage", 100, "Geppetto", "all-nighter", "XIX.8", original="All-Nighter",
       royalty=75, maker="Geppetto"),
    _p("V-8", "Beverage", 50, "Geppetto", "v8", "XIX.9"),
    _p("Fancy Ketchup", "Candy", 60, "Geppetto", "v8", "XIX.9", original="V-8", royalty=10, maker="Death"),
    _p("'Bot", "Experimental Technology", 150, CORPORATION, "bot", "XIX.10"),
    _p("Disguise Kit", "Novelty", 200, "Geppetto", "disguise", "XIX.11"),
    _p("Impersonator 2000", "Experimental Technology", 600, "Pabrowil", "impersonate", "XIX.12", sold=False,
       share_to="Disguise Kit", share_percent=50),
    _p("Better Disguise Kit", "Novelty", 600, "Pabrowil", "impersonate", "XIX.12", original="Impersonator 2000",
       royalty=60),
    _p("Fake Vomit", "Novelty", 50, "Geppetto", "vomit", "XIX.13"),
    _p("Gremlins", "Novelty", 150, "Geppetto", "gremlins", "XIX.14"),
)

#: XIX.2: what a Repackaged Product may duplicate that is no Product here, and the Original's
#: patent holder ("paint" depends on the paint's colour: the Admin says which)
DUPLICATES = {"paint-government": GOVERNMENT, "paint-corporation": CORPORATION, "glue": GOVERNMENT,
              "lottery": GOVERNMENT, "extra-dice": GOVERNMENT, "tefflon": CORPORATION,
              "detefflon": CORPORATION, "new-clear-fishing": CORPORATION, "explosive-insurance": CORPORATION}


@command_type
@dataclass(frozen=True)
class Purchase:
    """``PURCHASE <product>`` (XIX)."""

    product: str
    cmd: ClassVar[str] = "teams-purchase"


@dataclass
class ProductsState:
    products: list[Product] = field(default_factory=list)
    #: who holds which Products (by name)
    held: Inventory = field(default_factory=Inventory)
    #: Jumpgates (XIX.5): pairs of squares
    jumpgates: list[list[int]] = field(default_factory=list)
    #: Fake Vomit dropped (XIX.13): square -> who dropped it
    vomit: dict[int, str] = field(default_factory=dict)
    #: Disguises and Impersonations in force (XIX.11, XIX.12): user -> [victim, product, until update]
    disguises: dict[str, list] = field(default_factory=dict)
    #: the week each player last drank an All-Nighter (XIX.8), an Eye Opener (XIX.7)
    all_nighter: dict[str, int] = field(default_factory=dict)
    eye_opener: dict[str, int] = field(default_factory=dict)
    #: 'Bots' absorbed payments so far (XIX.10): player -> count for the 'Bot she uses
    bot_uses: dict[str, int] = field(default_factory=dict)
    #: Chains (XIX.6; never defined here: the Admin records them): player -> "non-Rusty" | "Rusty"
    chains: dict[str, str] = field(default_factory=dict)


@dataclass
class Blockbuster:
    id: int
    square: int
    placer: str
    update: int
    product: str = "Blockbuster"
    #: Team members who paid to disarm it (XIX.4)
    paid: list[str] = field(default_factory=list)


@dataclass
class ProductsPrivate:
    #: Blockbusters placed and not yet disarmed or gone off (their squares are secret, XIX.4)
    blockbusters: list[Blockbuster] = field(default_factory=list)
    next_id: int = 1


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def find_product(state, text: str, among: list[str] | None = None) -> Product:
    """The Product ``text`` names (its name, or a part of it: "bubble", "V8"); ``among``: only
    those names (what a player holds)."""
    ps = ProductsModule.of(state)
    pool = [p for p in ps.products if among is None or p.name in among]
    key = norm(text)
    exact = [p for p in pool if norm(p.name) == key]
    # a part of its name, or of its Original's ("PLACE BLOCKBUSTER" with a Fake Toy Bomb)
    found = exact or [p for p in pool if key and key in norm(p.name)] or \
        [p for p in pool if key and p.original and key in norm(p.original)]
    if len(found) >= 1 and (len(found) == 1 or exact):
        return found[0]
    names = ", ".join(p.name for p in (found or pool)) or "none"
    what = "you hold" if among is not None else "are on the market"
    raise IllegalAction(f"{text!r} names {'several' if found else 'no'} Product(s); Products {what}: {names}")


def payee(state, name: str) -> str:
    """Who receives money meant for ``name``: a player in the game or a pseudoplayer; anyone else
    (a patent holder from the rulebook's history) receives nothing: it leaves the game."""
    player = state.players.get(name)
    if (player is not None and player.active) or name in PSEUDOPLAYERS:
        return name
    return BANK


def pay_patent(ctx, buyer: str, product: Product, amount: int, why: str) -> None:
    """``amount`` from ``buyer`` to ``product``'s patent holder, who passes on its share (XIX.12)."""
    ctx.transfer(buyer, payee(ctx.state, product.patent), amount, rule=product.rule, reason=why, voluntary=True)
    if product.share_to and product.share_percent:
        other = next((p for p in ProductsModule.of(ctx.state).products if p.name == product.share_to), None)
        holder = payee(ctx.state, product.patent)
        if other is not None and holder != BANK:
            ctx.transfer(holder, payee(ctx.state, other.patent), dollars(amount * product.share_percent / 100),
                         rule="XIX.12", reason=f"half of what the {product.name}'s patent holder received")


def purchase(ctx, player, cmd: Purchase) -> str:
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
        from admin.mechanics.nomoteams.product_uses import settle_bath

        text += settle_bath(ctx, player.name)
    return text


def pay_for(ctx, buyer: str, product: Product) -> None:
    """The price of ``product``: to its patent holder, or (Repackaged) the royalty to the
    Original's patent holder and the rest to its maker (XIX.2)."""
    why = f"a {product.name}"
    if not product.original:
        pay_patent(ctx, buyer, product, product.price, why)
        return
    original = next((p for p in ProductsModule.of(ctx.state).products if p.name == product.original), None)
    holder = original.patent if original else DUPLICATES.get(product.original, product.patent)
    royalty = min(product.royalty, product.price)
    if original is not None:
        pay_patent(ctx, buyer, original, royalty, f"the royalty on {why}")
    else:
        ctx.transfer(buyer, payee(ctx.state, holder), royalty, rule="XIX.2", reason=f"the royalty on {why}",
                     voluntary=True)
    ctx.transfer(buyer, payee(ctx.state, product.maker), product.price - royalty, rule="XIX.2",
                 reason=f"{why}, to its maker", voluntary=True)


def roll_label(ctx, what: str) -> str:
    """A die label unique in this update for the ``what``-th use of a Product (two V-8s drunk in
    one update roll apart)."""
    seen = ctx.scratch.setdefault("teams-product-rolls", {})
    seen[what] = seen.get(what, 0) + 1
    return f"{what}/{seen[what]}"


def expire(ctx) -> None:
    """XIX.1: a Product created by a rule (not the rulebook's own) that nobody bought within
    ``expire_weeks`` weeks of its creation is removed."""
    ps = ProductsModule.of(ctx.state)
    weeks = int(ctx.params(ProductsModule.name)["expire_weeks"])
    for product in list(ps.products):
        if product.created and not product.bought and ctx.state.update >= product.created + weeks:
            ps.products.remove(product)
            ctx.emit("product", f"Nobody bought the {product.name} within {weeks} weeks of its creation: it is "
                                "removed from the rules (XIX.1).", rule="XIX.1", data={"product": product.name})


def _product_ruling(ctx, r) -> str:
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
                      sold=not (str(r.args.get("sold", "true")).lower() in ("false", "no")))
    ps.products.append(product)
    ctx.emit("product", f"A new Product: the {name}, {ctx.state.money(price)}" +
             (f", a Repackaged Product of {product.original} (patent: {patent}, royalty "
              f"{ctx.state.money(royalty)})" if dup else f", patent held by {patent}") + " (XIX.2).",
             rule="XIX.2", data={"product": name})
    return f"The {name} is on the market: {r.note}"


def _chains_ruling(ctx, r) -> str:
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


def _parse_purchase(rest: str, line: object) -> Purchase:
    if not rest.strip():
        raise CommandError("PURCHASE needs a Product, like PURCHASE WARP BUBBLE (the Products page lists them).")
    return Purchase(rest.strip())


class ProductsModule(Mechanic[ProductsState, ProductsPrivate]):
    name = "teams-products"
    rules = ("XIX.1", "XIX.2", "XIX.3", "XIX.4", "XIX.5", "XIX.6", "XIX.7", "XIX.8", "XIX.9", "XIX.10",
             "XIX.13", "XIX.14")
    requires = ("teams-health",)
    defaults = {"expire_weeks": 2, "disarm_payment": 50, "disarm_payers": 3, "fuse_updates": 1,
                "bot_absorptions": 3, "bot_explodes_at": 3}
    summary = "Products, original and repackaged: buying them, their patent holders and royalties, their effects."
    State = ProductsState
    Private = ProductsPrivate

    def setup(self, state) -> None:
        super().setup(state)
        ps = self.of(state)
        if not ps.products:
            ps.products = [Product(**vars(p)) for p in CATALOGUE]

    def commands(self):
        from admin.mechanics.nomoteams.product_uses import COMMANDS

        return (CommandSpec("PURCHASE", Purchase, purchase, _parse_purchase, "PURCHASE <product>", listing=160,
                            phase=5, summary="buy a Product (the Products page lists them, their prices and patent "
                                             "holders)", example="PURCHASE WARP BUBBLE", rules=("XIX.2",)),
                *COMMANDS)

    def rulings(self):
        return {"product": _product_ruling, "chains": _chains_ruling}

    def on_update_start(self, ctx) -> None:
        expire(ctx)

    def on_land(self, ctx, player, square) -> None:
        from admin.mechanics.nomoteams.product_uses import on_land

        on_land(ctx, player, square)

    def on_update_end(self, ctx) -> None:
        from admin.mechanics.nomoteams.product_uses import update_end

        update_end(ctx)

    def mail_first(self, ctx, player: str, commands) -> bool:
        """XIX.7: an Eye Opener drunk this week (or in this very mail, if she holds one) puts her mail
        before everyone's who drank none."""
        from admin.mechanics.nomoteams.product_uses import UseProduct

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

    def extra_proposals(self, state, player: str) -> int:
        return 1 if self.of(state).all_nighter.get(player) == state.week else 0

    def on_player_removed(self, state, player) -> None:
        ps = self.of(state)
        ps.disguises.pop(player.name, None)
        ps.chains.pop(player.name, None)

    def on_square_added(self, state, square) -> None:
        ps = self.of(state)
        if square.destroyed:  # a destroyed square's Jumpgates, Vomit and Blockbusters go with it
            ps.jumpgates = [g for g in ps.jumpgates if square.number not in g]
            ps.vomit.pop(square.number, None)
            priv = self.private_of(state)
            priv.blockbusters = [b for b in priv.blockbusters if b.square != square.number]

    def set_player(self, state, player, key, value) -> bool:
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
    def objects_of(self, state, name: str) -> dict[str, int]:
        return dict(self.of(state).held.items(name))

    def move_object(self, state, giver: str, receiver: str, item: str, n: int) -> None:
        if any(p.name == item for p in self.of(state).products):
            self.of(state).held.transfer(giver, receiver, item, n)

    def player_facts(self, state, player) -> list[Fact]:
        items = self.of(state).held.items(player.name)
        shown = ", ".join(f"{k}" + (f" x{v}" if v > 1 else "") for k, v in items.items())
        return [Fact("products", items, order=47, kind="text"),  # the export's (item -> count)
                Fact("products_held", shown or None, label="Products", order=47, kind="text")]

    def status_parts(self, state, player) -> list[tuple[int, str]]:
        items = self.of(state).held.items(player.name)
        bombs = [b.square for b in self.private_of(state).blockbusters if b.placer == player.name]
        parts = [(60, "Products: " + ", ".join(f"{k} x{v}" for k, v in items.items()))] if items else []
        if bombs:
            parts.append((61, "your Blockbusters wait on square(s) " + ", ".join(map(str, bombs))))
        return parts

    def private_facts(self, state, player) -> list[Fact]:
        bombs = [b.square for b in self.private_of(state).blockbusters if b.placer == player.name]
        return [Fact("blockbusters_placed", bombs, label="Your Blockbusters (secret)", kind="squares")]

    def square_look(self, state, square) -> SquareLook | None:
        ps = self.of(state)
        flags = []
        gates = [g for g in ps.jumpgates if square.number in g]
        for g in gates:
            other = g[1] if g[0] == square.number else g[0]
            flags.append((60, "JG", f"a Jumpgate to square {other} (XIX.5)"))
        if square.number in ps.vomit:
            flags.append((61, "FV", "Fake Vomit: whoever comes here becomes Sick (XIX.13)"))
        return SquareLook(flags=tuple(flags)) if flags else None

    def panels(self, state) -> list[Panel]:
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
