"""The first Nomopoly's XI (items) and XVII (the General Store): stores on every second square
ending in 9 (19, 39, 59 ...), nobody's to own; a player who lands on or passes one may buy its
items until their next move. The items everybody holds are kept here (one inventory, public);
the simple ones are used here too: first aid kits, gifts, jetpacks. Paint, grease and the rest are
used through their own mechanics, which take them from this inventory."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar, cast

from admin.engine.board import lowest
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.inventory import Inventory
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.movement import jump
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health, health_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square

COLOURS = ("red", "blue", "yellow", "green", "orange", "purple", "brown", "pink", "grey")
GIFTS = ("rose", "chocolate bar", "big mac")

#: item -> (the BUY keyword's second word, what follows it, price, what it is for)
ITEMS: dict[str, tuple[str, str, int, str]] = {
    "paint thinner": ("PAINT", "thinner", 500, "takes the colour off a square or a player (THIN)"),
    "paint gun": ("PAINT", "gun", 200, "fires a can of paint at a player (SHOOT)"),
    "first aid kit": ("FIRST", "aid kit", 250, "20 health to you or a player on your square, up to 100"),
    "grease": ("GREASE", "", 500, "makes a square slippery (GREASE SQUARE)"),
    "de-greaser": ("DEGREASER", "", 750, "takes grease off a square (DEGREASE)"),
    "air freshener": ("AIR", "freshener", 450, "freshens your square for three weeks (USE AIR FRESHENER)"),
    "jetpack": ("JETPACK", "", 500, "jump 10 squares forward or back (USE JETPACK FORWARD|BACK)"),
    "robotic jetpack": ("ROBOTIC", "jetpack", 1000, "make a player jump 10 squares (USE ROBOTIC JETPACK ON <player> FORWARD|BACK)"),
    "quijibo": ("QUIJIBO", "", 1000, "a pet to feed (XXXIV)"),
    "latex body suit": ("LATEX", "body suit", 100, "a suit against the Dirty Bubble (XXXV)"),
    "anti-missile gun": ("ANTI-MISSILE", "gun", 500, "missile protection for a square and its neighbours"),
}
PAINT_PRICE = 400
GIFT_PRICE = 10
_COUNT = re.compile(r"^(.*?)(?:\s+(?:x\s*)?(\d{1,3}))?$", re.IGNORECASE)


def paint_item(colour: str) -> str:
    return f"paint ({colour})"


def _split_count(rest: str) -> tuple[str, int]:
    m = _COUNT.match(" ".join(rest.split()))
    text, count = (m.group(1), int(m.group(2) or 1)) if m else (rest, 1)
    if not 1 <= count <= 100:
        raise CommandError("buy between 1 and 100 of an item at a time")
    return text.strip().lower(), count


def _buy_parser(word: str) -> Callable[[str, object], BuyItem]:
    """A parser for ``BUY <word> ...``: which item the rest of the line names, and how many."""
    def parse(rest: str, _line: object) -> BuyItem:
        text, count = _split_count(rest)
        if word == "PAINT" and text in COLOURS:
            return BuyItem(paint_item(text), count)
        if word == "GIFT":
            if text in GIFTS:
                return BuyItem(text, count)
            raise CommandError(f"name the gift: BUY GIFT {' | '.join(g.upper() for g in GIFTS)}")
        for item, (w, tail, _, _) in ITEMS.items():
            if w == word and text == tail:
                return BuyItem(item, count)
        if word == "PAINT":
            raise CommandError(f"name a colour ({', '.join(COLOURS)}), THINNER or GUN: BUY PAINT RED")
        tail = next(t for w, t, _, _ in ITEMS.values() if w == word)
        raise CommandError(f"write it as BUY {word} {tail.upper()}".rstrip() + " [xN]")
    return parse


T = TypeVar("T", bound=type)


def _sold_in_stores(cls: T) -> T:
    """Declares ``BUY <word> ...`` for each item of :data:`ITEMS` but paint, in the order of their
    words (BUY AIR FRESHENER, BUY ANTI-MISSILE GUN ...)."""
    words = sorted({w for w, *_ in ITEMS.values()} - {"PAINT"})
    for word in reversed(words):  # each declaration goes before those made already (as stacked ones do)
        item, (_, tail, price, what) = next((i, v) for i, v in ITEMS.items() if v[0] == word)
        usage = f"BUY {word} {tail.upper()}".rstrip() + " [xN]"
        command(usage, keyword=f"BUY {word}", usage=usage, parse=_buy_parser(word), listing=162, rules=("XVII.2",),
                summary=f"at a General Store: {item} (${price}): {what}", example=usage.replace(" [xN]", ""))(cls)
    return cls


@command("BUY PAINT <item> [count]", keyword="BUY PAINT", usage="BUY PAINT <colour>|THINNER|GUN [xN]",
         parse=_buy_parser("PAINT"), listing=160, rules=("XVII.2",),
         summary=f"at a General Store: a can of paint ($400; {', '.join(COLOURS)}), paint thinner ($500) or a "
                 "paint gun ($200)", example="BUY PAINT RED")
@command("BUY GIFT <item> [count]", keyword="BUY GIFT", usage="BUY GIFT ROSE|CHOCOLATE BAR|BIG MAC",
         parse=_buy_parser("GIFT"), listing=161, rules=("XVII.2",), summary="at a General Store: a gift to give ($10)",
         example="BUY GIFT ROSE")
@_sold_in_stores
class BuyItem:
    """``BUY <item> [xN]`` at a General Store (XVII.2)."""

    item: str
    count: int = 1


def _words(rest: str) -> list[str]:
    return " ".join(rest.split()).lower().split(" ") if rest.strip() else []


def _parse_first_aid(rest: str, _line: object) -> UseFirstAid:
    words = _words(rest)
    if words[:2] != ["aid", "kit"]:
        raise CommandError("write USE FIRST AID KIT, or USE FIRST AID KIT ON <player>")
    if len(words) == 2:
        return UseFirstAid()
    if len(words) == 4 and words[2] == "on":
        return UseFirstAid(words[3])
    raise CommandError("write USE FIRST AID KIT, or USE FIRST AID KIT ON <player>")


@command("USE FIRST AID KIT [ON <player>]", keyword="USE FIRST", parse=_parse_first_aid, listing=165,
         rules=("XVII.3",), summary="20 health to you, or to a player on your square (up to 100)",
         example="USE FIRST AID KIT ON bob")
class UseFirstAid:
    """``USE FIRST AID KIT [ON <player>]`` (XVII.3)."""

    target: str | None = None


def _parse_gift(rest: str, _line: object) -> GiveGift:
    m = re.match(r"^(rose|chocolate bar|big mac)\s+to\s+(\S+)$", " ".join(rest.split()), re.IGNORECASE)
    if not m:
        raise CommandError("write GIVE GIFT ROSE TO <player> (or CHOCOLATE BAR, BIG MAC)")
    return GiveGift(m.group(1).lower(), m.group(2))


@command("GIVE GIFT ROSE|CHOCOLATE BAR|BIG MAC TO <player>", keyword="GIVE GIFT", parse=_parse_gift, listing=166,
         rules=("XVII.3",), summary="give a gift you bought to another player", example="GIVE GIFT ROSE TO carol")
class GiveGift:
    """``GIVE ROSE|CHOCOLATE BAR|BIG MAC TO <player>`` (XVII.3)."""

    gift: str
    to: str


def _direction(word: str) -> bool:
    if word in ("forward", "forwards", "ahead"):
        return True
    if word in ("back", "backward", "backwards"):
        return False
    raise CommandError("say FORWARD or BACK")


def _parse_jetpack(rest: str, _line: object) -> UseJetpack:
    words = _words(rest)
    if len(words) != 1:
        raise CommandError("write USE JETPACK FORWARD or USE JETPACK BACK")
    return UseJetpack(_direction(words[0]))


def _parse_robotic(rest: str, _line: object) -> UseJetpack:
    words = _words(rest)
    if len(words) != 4 or words[0] != "jetpack" or words[1] != "on":
        raise CommandError("write USE ROBOTIC JETPACK ON <player> FORWARD|BACK")
    return UseJetpack(_direction(words[3]), words[2])


@command("USE JETPACK FORWARD|BACK", keyword="USE JETPACK", parse=_parse_jetpack, listing=167, rules=("XVII.3",),
         summary="jump 10 squares forward or back", example="USE JETPACK FORWARD")
@command("USE ROBOTIC JETPACK ON <player> FORWARD|BACK", keyword="USE ROBOTIC", parse=_parse_robotic, listing=168,
         rules=("XVII.3",), summary="make another player jump 10 squares forward or back",
         example="USE ROBOTIC JETPACK ON bob BACK")
class UseJetpack:
    """``USE JETPACK FORWARD|BACK`` or ``USE ROBOTIC JETPACK ON <player> FORWARD|BACK`` (XVII.3)."""

    forward: bool
    target: str | None = None


@dataclass
class StoreState:
    #: every player's items (XI): paint by colour, grease, jetpacks ... (public)
    items: Inventory = field(default_factory=Inventory)
    #: the update in which a player landed on or passed a store: they may buy until their next move
    offers: dict[str, int] = field(default_factory=dict)


class StoreModule(Mechanic[StoreState, None]):
    name = "store"
    rules = ("XI.2", "XVII.1", "XVII.2", "XVII.3")
    stated = {"XVII.3": {"paint_price": ("Paint, ${} a can",), "gift_price": ("Gifts, ${}:",),
                         "first_aid": ("First Aid Kit, $250: gives {} health",)}}
    defaults = {"paint_price": PAINT_PRICE, "gift_price": GIFT_PRICE,
                "prices": {item: price for item, (_, _, price, _) in ITEMS.items()},
                "first_aid": 20, "health_max": 100, "jetpack_squares": 10}
    summary = "General Stores on squares 19, 39, 59 ...: buy items there when you land on or pass one."
    State = StoreState
    requires = ("health",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuyItem, buy_item), (UseFirstAid, use_first_aid), (GiveGift, give_gift),
                       (UseJetpack, use_jetpack))

    # -- the stores ------------------------------------------------------------------------
    def can_own(self, state: GameState, square: Square) -> bool:
        return not is_store(square.number)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if is_store(square.number):
            self.of(ctx.state).offers[player.name] = ctx.state.update

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        self.on_land(ctx, player, cast("Square", ctx.state.square(number)))  # a square passed over is on the board

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        offers = self.of(ctx.state).offers
        if offers.get(player.name, ctx.state.update) < ctx.state.update:  # lapses at the next move
            del offers[player.name]

    # -- lives -----------------------------------------------------------------------------
    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:  # XIV.1: items go
        self.of(ctx.state).items.clear(player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        st = self.of(state)
        st.items.clear(player.name)
        st.offers.pop(player.name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "items":
            return False
        inv = self.of(state).items
        inv.clear(player.name)
        for item, n in dict(value).items():
            if int(n):
                inv.give(player.name, str(item), int(n))
        return True

    def trade_inventory(self, state: GameState, player: str, item: str) -> Inventory | None:
        # XX.1: a trade gives items from here
        inv = self.of(state).items
        return inv if inv.count(player, item) > 0 else None

    def worth(self, state: GameState, player: Player) -> int:  # III.5: an item is worth its price
        p = {**self.defaults, **state.params(self.name)}
        return sum(price_of(p, item) * n for item, n in self.of(state).items.items(player.name).items())

    # -- how it shows ----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        held = self.of(state).items.items(player.name)
        return [Fact("items", held),
                Fact("items_text", ", ".join(f"{item} x{n}" for item, n in held.items()) or "none",
                     label="Items", order=72, kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if not is_store(square.number):
            return None
        return SquareLook(notes=((55, "a General Store"),), flags=((55, "GS", "General Store"),))

    def panels(self, state: GameState) -> list[Panel]:
        p = {**self.defaults, **state.params(self.name)}
        rows = [(f"paint ({', '.join(COLOURS)})", state.money(int(p["paint_price"])), "colours a square or a player"),
                (f"a gift ({', '.join(GIFTS)})", state.money(int(p["gift_price"])), "to give to another player")]
        rows += [(item, state.money(int(p["prices"].get(item, price))), what)
                 for item, (_, _, price, what) in ITEMS.items()]
        stores = ", ".join(str(n) for n in range(19, max(len(state.squares), 19) + 1, 20))
        intro = (f"General Stores stand on squares {stores} (every second square ending in 9). A player who "
                 "lands on or passes one may buy there until their next move: BUY PAINT RED, BUY JETPACK ...")
        return [Panel("store", "The General Store", intro, (Table("What it sells", ("Item", "Price", "What for"),
                                                                  tuple(rows)),), order=17)]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        st = self.of(state)
        held = st.items.items(player.name)
        lines = [(63, "  Items: " + (", ".join(f"{item} x{n}" for item, n in held.items()) or "none"))]
        if player.name in st.offers:
            lines.append((64, "  You are at or passed a General Store: you may BUY items until your next move"))
        return lines


def is_store(number: int) -> bool:
    """XVII.1: every second square ending in 9 (19, 39, 59 ...)."""
    return number % 20 == 19


def price_of(params: dict[str, Any], item: str) -> int:
    """An item's price at the store (its value in a net worth, III.5)."""
    if item.startswith("paint ("):
        return int(params["paint_price"])
    if item in GIFTS:
        return int(params["gift_price"])
    return int(params["prices"].get(item, 0))


def items_of(state: GameState) -> Inventory:
    return StoreModule.of(state).items


def take_item(ctx: UpdateContext, player: Player, item: str, how: str) -> None:
    """Use up one of the player's ``item`` (XI.2), or refuse saying how to get one."""
    inv = items_of(ctx.state)
    if not inv.count(player.name, item):
        raise IllegalAction(f"you have no {item}; {how}")
    inv.take(player.name, item)


def _player(ctx: UpdateContext, name: str) -> Player:
    target = ctx.state.players.get(name)
    if target is None or not target.active:
        raise IllegalAction(f"there is no player {name!r} in the game")
    return target


def buy_item(ctx: UpdateContext, player: Player, cmd: BuyItem) -> str:
    st = StoreModule.of(ctx.state)
    if player.name not in st.offers:
        raise IllegalAction("you have not landed on or passed a General Store (squares 19, 39, 59 ...) "
                            "since your last move (XVII.2)")
    price = price_of(ctx.params("store"), cmd.item)
    ctx.transfer(player.name, BANK, price * cmd.count, rule="XVII.2",
                 reason=f"{cmd.count} x {cmd.item} at the General Store", voluntary=True, kind="purchase")
    st.items.give(player.name, cmd.item, cmd.count)
    return f"{player.name} bought {cmd.count} x {cmd.item} for {ctx.state.money(price * cmd.count)}."


def use_first_aid(ctx: UpdateContext, player: Player, cmd: UseFirstAid) -> str:
    target = _player(ctx, cmd.target) if cmd.target else player
    if target.square != player.square:
        raise IllegalAction(f"{target.name} is on square {target.square} and you on {player.square}; "
                            "a first aid kit helps a player on your square (XVII.3)")
    take_item(ctx, player, "first aid kit", "buy one at a General Store (BUY FIRST AID KIT)")
    p = ctx.params("store")
    gain = max(0, min(int(p["first_aid"]), int(p["health_max"]) - health_of(ctx.state, target.name)))
    if gain:
        change_health(ctx, target, gain, rule="XVII.3", reason=f"a first aid kit from {player.name}")
    return f"{player.name} used a first aid kit on {target.name} (+{gain} health)."


def give_gift(ctx: UpdateContext, player: Player, cmd: GiveGift) -> str:
    target = _player(ctx, cmd.to)
    if target.name == player.name:
        raise IllegalAction("a gift is for another player")
    take_item(ctx, player, cmd.gift, f"buy one at a General Store (BUY GIFT {cmd.gift.upper()})")
    items_of(ctx.state).give(target.name, cmd.gift)
    return f"{player.name} gave {target.name} a {cmd.gift}."


def use_jetpack(ctx: UpdateContext, player: Player, cmd: UseJetpack) -> str:
    item = "robotic jetpack" if cmd.target else "jetpack"
    target = _player(ctx, cmd.target) if cmd.target else player
    take_item(ctx, player, item, f"buy one at a General Store (BUY {item.upper()})")
    steps = int(ctx.params("store")["jetpack_squares"])
    squares = [s.number for s in ctx.state.live_squares()]
    i = squares.index(target.square) if target.square in squares else 0
    dest = squares[(i + (steps if cmd.forward else -steps)) % len(squares)] if squares else lowest(ctx.state)
    jump(ctx, target, dest, rule="XVII.3", reason=f"{player.name}'s {item}")
    return (f"{player.name} used a {item}: {target.name} jumped {steps} squares "
            f"{'forward' if cmd.forward else 'back'} to square {dest}.")
