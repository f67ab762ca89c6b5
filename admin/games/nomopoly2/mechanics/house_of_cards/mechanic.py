"""Nomopoly II XXIV: the House of Cards. Square 42 (a parameter) belongs to nobody; a player
standing on it trades combinations of the cards in their hand (XIV) for items (EXCHANGE <cards> FOR
<item>), or $50 for a shovel; each item is used by a command of its own (``hoc_items.py``).

Standing rulings (docs/rulings.md): the cards a player names must be exactly the
combination (no extra cards); the same card twice in a hand (cards are drawn from a full deck each
time, XIV.1) is "same rank and suit"; two pairs are of two different ranks; a straight flush is
also a straight and a flush, identical cards also a pair, and the player names the item they want;
the card limits: 12 to draw (XIV.5), 25 to dig with a shovel, 30 for the Governor's shovel
(XXXV.3's "30 instead of 25")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine import hooks
from admin.engine.playingcards import card_name
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.capabilities import StopsMoves
from admin.engine.syntax import parse_card, quote
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly2.api import DealsBingoCards, HouseOfCardsSquare, RollsByMethod
from admin.games.nomopoly2.mechanics.house_of_cards import effects as fx
from admin.games.nomopoly2.mechanics.house_of_cards import items as it
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.house_of_cards.combos import ALIASES, ITEMS, buys, fits
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.inventory import Inventory
    from admin.engine.model import GameState, Square


def _item(text: str) -> str:
    words = [w for w in text.lower().replace("-", " ").split() if w not in ("a", "an", "some", "one")]
    name = " ".join(words)
    if name not in ALIASES:
        raise CommandError(f"{quote(text)} is not an item of the House of Cards; the items are "
                           f"{', '.join(ITEMS)} (XXIV.2)")
    return ALIASES[name]


def parse_exchange(rest: str, _line: object) -> Exchange:
    rest, credit = shared.split_on_credit(rest)
    m = re.match(r"^(.*?)\s+for\s+(.+)$", rest.strip().rstrip(".!"), re.IGNORECASE)
    if not m:
        raise CommandError("write EXCHANGE <cards> FOR <item>, like EXCHANGE 7S 7H FOR MEDICINE, or "
                           "EXCHANGE $50 FOR SHOVEL")
    item = _item(m.group(2))
    given = m.group(1).replace(",", " ").split()
    if [g.lower() for g in given] in (["$50"], ["50"], ["$50.00"]):
        return Exchange(item, (), credit)
    cards = []
    for word in given:
        card = parse_card(word)
        if card is None:
            raise CommandError(f"{quote(word)} is not a card; write cards as rank and suit, like 7S 7H "
                               f"(or $50 for a shovel)")
        cards.append(card)
    return Exchange(item, tuple(cards), credit)


def parse_buy_shovel(rest: str, _line: object) -> Exchange:
    rest, credit = shared.split_on_credit(rest)
    if rest.strip():
        raise CommandError("write BUY SHOVEL (or BUY SHOVEL ON CREDIT)")
    return Exchange("shovel", (), credit)


@command("EXCHANGE <cards> FOR <item>", parse=parse_exchange, cmd="hoc-exchange", listing=240,
         rules=("XXIV.1", "XXIV.2"), example="EXCHANGE 7S 7H FOR MEDICINE",
         summary="on the House of Cards, trade cards from your hand for an item: one "
                 "spade a jetpack, a pair medicine or a bingo card, a flush glue ...")
@command("BUY SHOVEL [ON CREDIT]", keyword="BUY SHOVEL", parse=parse_buy_shovel, listing=241, rules=("XXIV.2",),
         summary="on the House of Cards, a shovel for $50", example="BUY SHOVEL")
class Exchange:
    """``EXCHANGE <card> [<card> ...] FOR <item>``, ``EXCHANGE $50 FOR SHOVEL`` or ``BUY SHOVEL``
    (XXIV.1-2), ``ON CREDIT`` for the shovel's $50 (XXVIII.1)."""

    item: str
    cards: tuple[str, ...] = ()
    on_credit: bool = False


class HouseOfCardsModule(Mechanic[it.HouseOfCardsState, it.HouseOfCardsPrivate], StopsMoves, HouseOfCardsSquare):
    name = it.NAME
    rules = ("XXIV.1", "XXIV.2")
    stated = {"XXIV.1": {"square": ("Square {} is the House of Cards",)},
              "XXIV.2": {"shovel_price": ("**Shovel**, for ${}",),
                         "medicine_health": ("When used, the player gains {} health",),
                         "hammer_health": ("it takes {} health from them",),
                         "time_bomb_health": ("sets it off and loses {} health",),
                         "anthrax_weekly_health": ("An infected player loses {} health",),
                         "shovel_max_cards": ("more than {} cards, they receive",)}}
    # removed_card: what becomes of a card a card remover takes off a square ("discard": it leaves
    # the game; "hand": back to the user's hand); the card limits: see the module's docstring
    defaults = {"square": 42, "shovel_price": 50, "medicine_health": 15, "time_bomb_health": 20,
                "hammer_health": 15, "anthrax_weekly_health": 5,
                "jetpack_die_sides": 0, "shovel_max_cards": 25, "governor_max_cards": 30,
                "removed_card": "discard"}
    choices = {"removed_card": ("discard", "hand")}
    summary = ("The House of Cards (square 42): trade card combinations for jetpacks, medicine, time "
               "bombs, warp bubbles, hammers, glue, anthrax, masks and more.")
    State = it.HouseOfCardsState
    Private = it.HouseOfCardsPrivate
    requires = ("board", "ownership", "cards", "health", "conditions")
    #: a helicopter's or springy shoes' move is not a mask's (move_instead; docs/rulings.md)
    runs_after = ("transport",)

    def its_square(self, state: GameState) -> int:
        return int({**self.defaults, **state.params(self.name)}["square"])

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Exchange, exchange), (it.UseItem, it.use_item), (it.PlaceTimeBomb, it.use_item))

    # -- the square, and what happens on it ------------------------------------------------
    # XX.1: a trade gives items from here
    def trade_inventory(self, state: GameState, player: str, item: str) -> Inventory | None:
        inv = self.of(state).items
        return inv if inv.count(player, item) > 0 else None

    def can_own(self, state: GameState, square: Square) -> bool:
        return square.number != int(state.params(self.name).get("square", self.defaults["square"]))

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        fx.bomb_on_landing(ctx, player, square.number)
        if player.active:
            why = fx.cures_here(ctx, player, square.number)
            if why:
                fx.cure(ctx, player, why)

    def stops_on(self, ctx: UpdateContext, player: Player, number: int) -> bool:
        return fx.glue_stops(ctx, player, number)

    def move_instead(self, ctx: UpdateContext, player: Player, steps: int) -> bool:
        return fx.masked_move(ctx, player, steps)

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        state = it.hs(ctx.state)
        if player.name not in state.jetpacks:
            return None
        state.jetpacks.remove(player.name)
        sides = int(ctx.params(self.name)["jetpack_die_sides"])
        method = ctx.registry.provider(ctx.state, RollsByMethod)  # None while XXIX is not in force
        shown = [] if sides or method is None else method.die_faces(ctx.state, player.name)
        extra = ctx.dice.roll(f"turn/{player.name}/{turn}/d{len(faces)}",
                              sides or len(shown) or _own_sides(ctx, player, self))
        extra = shown[extra - 1] if shown else extra  # a die like the player's own: a pogo stick's shows 1 or 6
        ctx.emit("jetpack", f"{player.name}'s jetpack adds a die: {extra}.", player=player.name, rule="XXIV.2")
        return [*faces, extra]

    def on_update_start(self, ctx: UpdateContext) -> None:
        if ctx.slot.index != 0:  # the first update of a week is its beginning
            return
        loss = int(ctx.params(self.name)["anthrax_weekly_health"])
        for player in sorted(ctx.state.active_players(), key=lambda p: p.name):
            if shared.has_condition(ctx.state, player.name, "infected"):
                from admin.library.health import change_health

                change_health(ctx, player, -loss, rule="XXIV.2", reason="anthrax, at the start of the week")

    def on_update_end(self, ctx: UpdateContext) -> None:
        it.hs(ctx.state).masks.clear()  # a mask lasts one update (XXIV.2)

    # -- lives of players and squares ------------------------------------------------------
    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        if shared.has_condition(ctx.state, player.name, "infected"):  # back as at week 1 (XII.2)
            from admin.games.nomopoly2.mechanics.conditions import clear

            clear(ctx.state, player.name, "infected")
        state = it.hs(ctx.state)
        state.items.clear(player.name)
        state.jetpacks = [n for n in state.jetpacks if n != player.name]

    def on_player_removed(self, state: GameState, player: Player) -> None:
        hs = it.hs(state)
        hs.items.clear(player.name)
        hs.jetpacks = [n for n in hs.jetpacks if n != player.name]
        hs.masks.pop(player.name, None)

    def on_square_added(self, state: GameState, square: Square) -> None:
        hs = it.hs(state)
        hs.glued = [n for n in hs.glued if n != square.number]
        it.hp(state).bombs.pop(square.number, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "hoc_items":
            return False
        inv = it.hs(state).items
        inv.clear(player.name)
        for item, n in dict(value or {}).items():
            if int(n):
                inv.give(player.name, str(item), int(n))
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key == "glue":
            hs = it.hs(state)
            hs.glued = sorted((set(hs.glued) | {square.number}) if value else (set(hs.glued) - {square.number}))
        elif key == "time_bomb":
            bombs = it.hp(state).bombs
            if value:
                bombs[square.number] = str(value)
            else:
                bombs.pop(square.number, None)
        else:
            return False
        return True

    # -- how it shows ----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        held = it.hs(state).items.items(player.name)
        shown = ", ".join(f"{item} x{n}" for item, n in held.items()) or "none"
        return [Fact("hoc_items", held),  # the JSON export's; the page shows the line below
                Fact("hoc_items_shown", shown, label="House of Cards items", kind="text", order=65)]

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("time_bombs", sorted(n for n, who in it.hp(state).bombs.items() if who == player.name))]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("glue", square.number in it.hs(state).glued)]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        notes, flags = [], []
        if square.number == int(state.params(self.name).get("square", self.defaults["square"])):
            notes.append((58, "the House of Cards"))
            flags.append((58, "HC", "the House of Cards"))
        if square.number in it.hs(state).glued:
            notes.append((82, "glue on it"))
            flags.append((82, "GL", "glue"))
        return SquareLook(notes=tuple(notes), flags=tuple(flags)) if flags else None

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        held = it.hs(state).items.items(player.name)
        return [(65, "; items: " + ", ".join(f"{i} x{n}" for i, n in held.items()))] if held else []

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        lines = []
        held = it.hs(state).items.items(player.name)
        if held:
            lines.append((68, "  House of Cards items: " + ", ".join(f"{i} x{n}" for i, n in held.items())))
        bombs = sorted(n for n, who in it.hp(state).bombs.items() if who == player.name)
        if bombs:
            lines.append((69, "  Your time bombs (only you see them) on square(s): " + ", ".join(map(str, bombs))))
        return lines


def _own_sides(ctx: UpdateContext, player: Player, me: Mechanic[Any, Any]) -> int:
    """How many sides the player's own dice have (what the jetpack's extra die is like)."""
    from admin.library.turns import parse_dice, transport_of

    spec = hooks.call(ctx, skip=me).dice_for(ctx.state, player)
    return parse_dice(spec or ctx.params("turns")["dice"].get(transport_of(ctx.state, player.name), "2d6"))[1]


def exchange(ctx: UpdateContext, player: Player, cmd: Exchange) -> str:
    p = ctx.params(HouseOfCardsModule.name)
    house = int(p["square"])
    if player.square != house:
        raise IllegalAction(f"you are on square {player.square}; items are traded on the House of Cards, "
                            f"square {house} (XXIV.1)")
    if cmd.item in ("time bomb", "hammer") and shared.governor(ctx.state) == player.name:
        raise IllegalAction(f"the Governor may not buy or use {cmd.item}s (XXXV.3)")
    bingo = ctx.registry.provider(ctx.state, DealsBingoCards)
    if cmd.item == "bingo card" and bingo is None:
        raise IllegalAction("there are no bingo cards in this game (XXXI is not in force)")
    if cmd.item == "shovel":
        if cmd.cards:
            raise IllegalAction(f"a shovel costs ${p['shovel_price']}, not cards: write EXCHANGE "
                                f"${p['shovel_price']} FOR SHOVEL or BUY SHOVEL (XXIV.2)")
        price = int(p["shovel_price"])
        shared.charge(ctx, player.name, BANK, price, rule="XXIV.2", reason="a shovel at the House of Cards",
                      on_credit=cmd.on_credit)
        it.hs(ctx.state).items.give(player.name, "shovel")
        return (f"{player.name} bought a shovel at the House of Cards for {ctx.state.money(price)}"
                + (" on credit." if cmd.on_credit else "."))
    cards = list(cmd.cards)
    if not cards:
        raise IllegalAction(f"a {cmd.item} costs cards ({ITEMS[cmd.item]}), not money (XXIV.2)")
    if cmd.on_credit:
        raise IllegalAction("ON CREDIT is for purchases with money; an item bought with cards needs none")
    if not fits(cmd.item, cards):
        other = buys(cards)
        hint = f"; those cards would buy {' or '.join(other)}" if other else ""
        raise IllegalAction(f"{' '.join(cards)} is not {ITEMS[cmd.item]}, the price of {it.a(cmd.item)} "
                            f"(XXIV.2){hint}")
    from admin.library import cards as hands

    held = hands.hand(ctx.state, player.name)
    for card in cards:
        if card not in held:
            mine = ", ".join(hands.hand(ctx.state, player.name)) or "no cards"
            raise IllegalAction(f"you do not hold {'another' if cards.count(card) > 1 else 'the'} "
                                f"{card_name(card)} ({card}); you hold {mine}")
        held.remove(card)
    for card in cards:
        hands.take(ctx.state, player.name, card)
    ctx.emit("exchange", None, player=player.name, rule="XXIV.2",
             private=f"You traded {', '.join(cards)} for {it.a(cmd.item)}.")
    if bingo is not None and cmd.item == "bingo card":
        number = bingo.new_bingo_card(ctx, player)
        return f"{player.name} traded {len(cards)} cards at the House of Cards for bingo card {number}."
    it.hs(ctx.state).items.give(player.name, cmd.item)
    return (f"{player.name} traded {len(cards)} card{'s' if len(cards) > 1 else ''} at the House of Cards "
            f"for {it.a(cmd.item)}.")

