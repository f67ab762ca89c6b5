"""The items a Casino sells (Nomopoly II XXXIII.5): a Flower to give, a Weighted Die, a Salad,
an Auto-Shuffler, Grease and a Joker. They are bought only while standing on a Casino; the price
goes to the casino (its net profit, XXXIII.6); they are used anywhere."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from admin.engine import hooks
from admin.engine.playingcards import card_name
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec
from admin.engine.syntax import parse_card_arg
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly2.api import AUTO_SHUFFLES, GivesJokers, RollsByMethod
from admin.games.nomopoly2.mechanics.casinos.state import NAME, casino_here, of, take_in
from admin.games.nomopoly2.mechanics.shared import charge, split_on_credit
from admin.library.ownership import owner_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

#: the item's name in commands and in the inventory -> how a player writes it after BUY
_WORDS = {"flower": "FLOWER", "weighted-die": "WEIGHTED DIE", "salad": "SALAD", "auto-shuffler": "AUTO-SHUFFLER",
          "grease": "GREASE", "joker": "JOKER"}


def _parse_buy(item: str) -> Callable[[str, object], BuyCasinoItem]:
    tail = _WORDS[item].split()[1:]  # BUY WEIGHTED DIE: the keyword is BUY WEIGHTED, then DIE

    def parse(rest: str, _line: object) -> BuyCasinoItem:
        rest, credit = split_on_credit(rest)
        words = rest.split()
        if tail:
            if not words or words[0].upper() not in ("DIE", "DICE"):
                raise CommandError(f"write BUY {_WORDS[item]}, or BUY {_WORDS[item]} 2 for two")
            words = words[1:]
        if not words:
            return BuyCasinoItem(item, 1, credit)
        m = re.fullmatch(r"x?(\d{1,3})", words[0].lower()) if len(words) == 1 else None
        if not m or int(m.group(1)) < 1:
            raise CommandError(f"BUY {_WORDS[item]} takes at most a count after it, like BUY {_WORDS[item]} 2")
        return BuyCasinoItem(item, int(m.group(1)), credit)
    return parse


@command("BUY FLOWER [n]", keyword="BUY FLOWER", parse=_parse_buy("flower"), cmd="casino-buy", listing=340,
         rules=("XXXIII.5",), summary="at a Casino: a flower to give another player ($10)", example="BUY FLOWER")
@command("BUY WEIGHTED DIE [n]", keyword="BUY WEIGHTED", parse=_parse_buy("weighted-die"), listing=341,
         rules=("XXXIII.5",), summary="at a Casino: a die that shows the number you choose on your next turn ($100)",
         example="BUY WEIGHTED DIE")
@command("BUY SALAD [n]", keyword="BUY SALAD", parse=_parse_buy("salad"), listing=342, rules=("XXXIII.5",),
         summary="at a Casino: eat it for 5 health, one an update ($200)", example="BUY SALAD")
@command("BUY AUTO-SHUFFLER [n]", keyword="BUY AUTO-SHUFFLER", parse=_parse_buy("auto-shuffler"), listing=343,
         rules=("XXXIII.5",), summary="at a Casino: swap cards you hold for new ones ($250)",
         example="BUY AUTO-SHUFFLER")
@command("BUY GREASE [n]", keyword="BUY GREASE", parse=_parse_buy("grease"), listing=344, rules=("XXXIII.5",),
         summary="at a Casino: grease a square you own and stand on: whoever lands there loses 3 health "
                 "and slides on ($500)", example="BUY GREASE")
@command("BUY JOKER [n]", keyword="BUY JOKER", parse=_parse_buy("joker"), listing=345, rules=("XXXIII.5",),
         summary="at a Casino: a Joker, as the Skunk gives ($1250)", example="BUY JOKER")
class BuyCasinoItem:
    """``BUY FLOWER``, ``BUY WEIGHTED DIE``, ``BUY SALAD``, ``BUY AUTO-SHUFFLER``, ``BUY GREASE``,
    ``BUY JOKER``, each with an optional count (XXXIII.5)."""

    item: str
    count: int = 1
    on_credit: bool = False


@command("GIVE FLOWER [TO] <to:player>", keyword="GIVE FLOWER", usage="GIVE FLOWER TO <player>",
         hint="write GIVE FLOWER TO <player>, like GIVE FLOWER TO bob", listing=347, rules=("XXXIII.5",),
         summary="give a flower you bought, in friendship", example="GIVE FLOWER TO bob")
class GiveFlower:
    """``GIVE FLOWER TO <player>`` (XXXIII.5)."""

    to: str


def _parse_weighted(rest: str, _line: object) -> UseWeightedDie:
    m = re.fullmatch(r"die\s+(\d{1,3})", rest.strip(), re.IGNORECASE)
    if not m:
        raise CommandError("write USE WEIGHTED DIE <number>, like USE WEIGHTED DIE 6: the number one of "
                           "your next turn's dice will show")
    return UseWeightedDie(int(m.group(1)))


@command("USE WEIGHTED DIE <face:number>", keyword="USE WEIGHTED", parse=_parse_weighted, listing=348,
         rules=("XXXIII.5",), summary="one die of your next turn shows this number (one a turn)",
         example="USE WEIGHTED DIE 6")
class UseWeightedDie:
    """``USE WEIGHTED DIE <face>`` (XXXIII.5)."""

    face: int


@command("EAT SALAD", keyword="EAT SALAD", hint="EAT SALAD takes nothing after it", listing=349,
         rules=("XXXIII.5",), summary="gain 5 health (one salad an update)", example="EAT SALAD")
class EatSalad:
    """``EAT SALAD`` (XXXIII.5)."""


def _parse_shuffler(rest: str, _line: object) -> UseAutoShuffler:
    words = [w for w in re.split(r"[\s,]+", rest.strip()) if w]
    if not words:
        raise CommandError("write USE AUTO-SHUFFLER ALL, or the cards to swap, like USE AUTO-SHUFFLER 2H 7S")
    if len(words) == 1 and words[0].lower() == "all":
        return UseAutoShuffler("all")
    return UseAutoShuffler(" ".join(parse_card_arg(w) for w in words))


@command("USE AUTO-SHUFFLER <cards>", keyword="USE AUTO-SHUFFLER", usage="USE AUTO-SHUFFLER ALL|<cards>",
         parse=_parse_shuffler, listing=350, rules=("XXXIII.5",), private=True,
         summary="give up these cards of your hand and draw as many new ones", example="USE AUTO-SHUFFLER 2H 7S")
class UseAutoShuffler:
    """``USE AUTO-SHUFFLER ALL`` or ``USE AUTO-SHUFFLER <card> <card> ...`` (XXXIII.5): space
    separated canonical cards, or "all"."""

    cards: str


@command("PLACE GREASE", keyword="PLACE GREASE",
         hint="PLACE GREASE takes nothing after it: the grease goes on the square you are on", listing=351,
         rules=("XXXIII.5",), summary="grease the square you stand on, if you own it", example="PLACE GREASE")
class PlaceGrease:
    """``PLACE GREASE``: on the square one stands on and owns (XXXIII.5)."""


def item_commands() -> tuple[CommandSpec, ...]:
    return handled((BuyCasinoItem, buy), (GiveFlower, give_flower), (UseWeightedDie, use_weighted_die),
                   (EatSalad, eat_salad), (UseAutoShuffler, use_auto_shuffler), (PlaceGrease, place_grease))


def _take(ctx: UpdateContext, player: Player, item: str) -> None:
    items = of(ctx.state).items
    if not items.count(player.name, item):
        raise IllegalAction(f"you have no {item.replace('-', ' ')}; buy one at a Casino "
                            f"(BUY {_WORDS[item]}, XXXIII.5)")
    items.take(player.name, item)


def buy(ctx: UpdateContext, player: Player, cmd: BuyCasinoItem) -> str:
    square = casino_here(ctx.state, player, f"buy {_WORDS[cmd.item].lower()}")
    jokers = ctx.registry.provider(ctx.state, GivesJokers)  # None while XIX's Joker is not in force
    if cmd.item == "joker" and jokers is None:
        raise IllegalAction("there are no Jokers in this game (the Skunk's Joker, XIX, is not in force); "
                            "the casino cannot sell one")
    price = int(dict(ctx.params(NAME)["prices"])[cmd.item])
    total = price * cmd.count
    what = f"{cmd.count} {_WORDS[cmd.item].lower()}{'s' if cmd.count > 1 else ''}"
    charge(ctx, player.name, BANK, total, rule="XXXIII.5", on_credit=cmd.on_credit,
           reason=f"{what} at the Casino on square {square}")
    take_in(ctx.state, square, total)
    if jokers is not None and cmd.item == "joker":
        for _ in range(cmd.count):
            jokers.give_joker(ctx, player.name, "XXXIII.5")
    else:
        of(ctx.state).items.give(player.name, cmd.item, cmd.count)
    return f"{player.name} bought {what} at the Casino on square {square} for {ctx.state.money(total)}."


def give_flower(ctx: UpdateContext, player: Player, cmd: GiveFlower) -> str:
    target = next((p for p in ctx.state.players.values() if p.name.lower() == cmd.to.lower()), None)
    if target is None or not target.active:
        raise IllegalAction(f"there is no player {cmd.to!r}; players: "
                            f"{', '.join(sorted(p.name for p in ctx.state.active_players()))}")
    if target.name == player.name:
        raise IllegalAction("a flower is given to another player (XXXIII.5), not to oneself")
    _take(ctx, player, "flower")
    of(ctx.state).items.give(target.name, "flower")
    return f"{player.name} gave a flower to {target.name} as an act of friendship."


def die_faces(ctx: UpdateContext, player: Player) -> list[int]:
    """The faces one die of the player's method of transportation can show (XXIX; 1-6 on foot)."""
    method = ctx.registry.provider(ctx.state, RollsByMethod)  # None while XXIX is not in force
    if method is not None:
        return list(method.die_faces(ctx.state, player.name))
    from admin.library.turns import parse_dice, transport_of

    spec = hooks.call(ctx).dice_for(ctx.state, player)
    spec = spec or dict(ctx.params("turns")["dice"]).get(transport_of(ctx.state, player.name), "2d6")
    return list(range(1, parse_dice(spec)[1] + 1))


def use_weighted_die(ctx: UpdateContext, player: Player, cmd: UseWeightedDie) -> str:
    cs = of(ctx.state)
    if player.name in cs.weighted:
        raise IllegalAction(f"a weighted die ({cs.weighted[player.name]}) is set for your next turn already; "
                            "a player may use only one a turn (XXXIII.5)")
    faces = die_faces(ctx, player)
    if cmd.face not in faces:
        raise IllegalAction(f"one of your dice cannot show {cmd.face}; it shows "
                            f"{', '.join(map(str, faces))} (XXXIII.5)")
    _take(ctx, player, "weighted-die")
    cs.weighted[player.name] = cmd.face
    return f"{player.name} used a weighted die: one die of their next turn will show {cmd.face}."


def eat_salad(ctx: UpdateContext, player: Player, cmd: EatSalad) -> str:
    cs = of(ctx.state)
    if cs.salad.get(player.name) == ctx.state.update:
        raise IllegalAction("you ate a salad in this update already; one salad an update at most (XXXIII.5)")
    _take(ctx, player, "salad")
    cs.salad[player.name] = ctx.state.update
    gain = int(ctx.params(NAME)["salad_health"])
    change_health(ctx, player, gain, rule="XXXIII.5", reason="a salad")
    return f"{player.name} ate a salad."


def use_auto_shuffler(ctx: UpdateContext, player: Player, cmd: UseAutoShuffler) -> str:
    from admin.library.cards import draw_card, hand, take

    held = hand(ctx.state, player.name)
    cards = held if cmd.cards == "all" else cmd.cards.split()
    if not cards:
        raise IllegalAction("you hold no cards to shuffle away (XXXIII.5)")
    for card in cards:
        if held.count(card) < cards.count(card):
            raise IllegalAction(f"you do not hold the {card_name(card)} ({card}); you hold "
                                f"{', '.join(held) or 'no cards'}")
    _take(ctx, player, "auto-shuffler")
    for card in cards:
        take(ctx.state, player.name, card)
    shuffles = AUTO_SHUFFLES.of(ctx)
    n = shuffles.get(player.name, 0)
    shuffles[player.name] = n + 1
    new = [draw_card(ctx, player, f"{player.name}/auto-shuffler/{n}/{i}", "an Auto-Shuffler")
           for i in range(len(cards))]
    return (f"You used an Auto-Shuffler: gave up {', '.join(cards)} and drew {', '.join(new)}.")


def place_grease(ctx: UpdateContext, player: Player, cmd: PlaceGrease) -> str:
    cs = of(ctx.state)
    here = player.square
    owner = owner_of(ctx.state, here)
    if owner != player.name:
        raise IllegalAction(f"you are on square {here}, owned by {owner or 'nobody'}; grease goes only on the "
                            "square you occupy, and only if you own it (XXXIII.5)")
    if here in cs.greased:
        raise IllegalAction(f"square {here} is greased already")
    _take(ctx, player, "grease")
    cs.greased = sorted(cs.greased + [here])
    return f"{player.name} greased square {here}."
