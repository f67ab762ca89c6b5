"""The Products section's state (XIX) and what its module and the Products' uses share: the
rulebook's catalogue, who holds which Product, Blockbusters, Jumpgates; finding a Product by name;
paying for one (its patent holder, a Repackaged Product's royalty and maker). A leaf: the module
(:mod:`products`) and the uses (:mod:`product_uses`) read it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.context import BANK
from admin.engine.inventory import Inventory
from admin.engine.syntax import parse_square
from admin.engine.errors import IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, PSEUDOPLAYERS, dollars

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player

#: the module's name, and its state in a game
NAME = "teams-products"


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
    disguises: dict[str, list[Any]] = field(default_factory=dict)
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


def find_product(state: GameState, text: str, among: list[str] | None = None) -> Product:
    """The Product ``text`` names (its name, or a part of it: "bubble", "V8"); ``among``: only
    those names (what a player holds)."""
    ps = of(state)
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


def payee(state: GameState, name: str) -> str:
    """Who receives money meant for ``name``: a player in the game or a pseudoplayer; anyone else
    (a patent holder from the rulebook's history) receives nothing: it leaves the game."""
    player = state.players.get(name)
    if (player is not None and player.active) or name in PSEUDOPLAYERS:
        return name
    return BANK


def pay_patent(ctx: UpdateContext, buyer: str, product: Product, amount: int, why: str) -> None:
    """``amount`` from ``buyer`` to ``product``'s patent holder, who passes on its share (XIX.12)."""
    ctx.transfer(buyer, payee(ctx.state, product.patent), amount, rule=product.rule, reason=why, voluntary=True)
    if product.share_to and product.share_percent:
        other = next((p for p in of(ctx.state).products if p.name == product.share_to), None)
        holder = payee(ctx.state, product.patent)
        if other is not None and holder != BANK:
            ctx.transfer(holder, payee(ctx.state, other.patent), dollars(amount * product.share_percent / 100),
                         rule="XIX.12", reason=f"half of what the {product.name}'s patent holder received")

def pay_for(ctx: UpdateContext, buyer: str, product: Product) -> None:
    """The price of ``product``: to its patent holder, or (Repackaged) the royalty to the
    Original's patent holder and the rest to its maker (XIX.2)."""
    why = f"a {product.name}"
    if not product.original:
        pay_patent(ctx, buyer, product, product.price, why)
        return
    original = next((p for p in of(ctx.state).products if p.name == product.original), None)
    holder = original.patent if original else DUPLICATES.get(product.original, product.patent)
    royalty = min(product.royalty, product.price)
    if original is not None:
        pay_patent(ctx, buyer, original, royalty, f"the royalty on {why}")
    else:
        ctx.transfer(buyer, payee(ctx.state, holder), royalty, rule="XIX.2", reason=f"the royalty on {why}",
                     voluntary=True)
    ctx.transfer(buyer, payee(ctx.state, product.maker), product.price - royalty, rule="XIX.2",
                 reason=f"{why}, to its maker", voluntary=True)


def roll_label(ctx: UpdateContext, what: str) -> str:
    """A die label unique in this update for the ``what``-th use of a Product (two V-8s drunk in
    one update roll apart)."""
    seen = api.PRODUCT_ROLLS.of(ctx)
    seen[what] = seen.get(what, 0) + 1
    return f"{what}/{seen[what]}"



def of(state: GameState) -> ProductsState:
    """The Products section's public state (``ProductsModule.of``)."""
    return api.PRODUCTS.of(state)


def private_of(state: GameState) -> ProductsPrivate:
    """The Products section's private state: the Blockbusters' squares (``ProductsModule.private_of``)."""
    return api.PRODUCTS_PRIVATE.of(state)


def used_up(ctx: UpdateContext, player: Player, product: Product) -> None:
    """A Product ``player`` used is gone from what she holds."""
    of(ctx.state).held.take(player.name, product.name)


def target_square(ctx: UpdateContext, target: str, what: str) -> int:
    """The live square a use names (``what``: how to say it, for the error when none is named)."""
    if not target:
        raise IllegalAction(f"say which square: {what}")
    number = parse_square(target)
    square = ctx.state.square(number)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {number} on the board (squares 1-{len(ctx.state.squares)})")
    return number
