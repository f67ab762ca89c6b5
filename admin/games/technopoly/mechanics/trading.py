"""The ``techno-trading`` mechanic (VI): trades of Objects, Technology and Mining Rights (shared
or surrendered) and Attribute cards (shown, announced, or face down), offered by mail and
settled through the interactions facility: ``TRADE WITH bob: GIVE 3 Titanium, CARD Fragile FOR
MINING RIGHTS Coal SOLE``; bob answers ``ACCEPT <n>`` or ``DECLINE <n>`` before the next update,
when the trade is carried out if both sides still hold what they trade. A promise
(``PROMISE <words>``) is recorded with the trade and left to the players (VI.4)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, cast

from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.errors import CommandError, IllegalAction
from admin.library.interactions import ask
from admin.games.technopoly.mechanics.objects import (
    TRADING, add_units, card_name, enforce_unique, find_object, give_card, held, private, take_cards, world,
)
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction


@dataclass(frozen=True)
class Item:
    #: units, technology, mining, card, promise
    what: str
    name: str = ""
    count: int = 0
    #: SHARED or SOLE for rights; shown, announced or face-down for cards
    how: str = ""


@dataclass
class TradingPrivate:
    #: trade number -> the cards offered announced or face down (told to nobody else)
    hidden: dict[int, list[str]] = field(default_factory=dict)


def parse_item(text: str, side: str) -> Item:
    t = text.strip()
    if re.fullmatch(r"nothing", t, re.IGNORECASE):
        return Item("nothing")
    m = re.fullmatch(r"promise\s+(.+)", t, re.IGNORECASE)
    if m:
        return Item("promise", m.group(1).strip().strip('"'))
    m = re.fullmatch(r"(technology|mining\s+rights)\s+(?:for\s+)?(.+?)\s+(shared|sole)", t, re.IGNORECASE)
    if m:
        return Item("technology" if m.group(1).lower() == "technology" else "mining", m.group(2).strip(),
                    how=m.group(3).upper())
    m = re.fullmatch(r"(announced\s+|face-?down\s+|shown\s+)?card(?:\s+(.+))?", t, re.IGNORECASE)
    if m:
        how = (m.group(1) or "shown").strip().lower().replace("facedown", "face-down")
        if m.group(2):
            return Item("card", card_name(m.group(2)), how=how)
        if how == "face-down" and side == "FOR":
            return Item("card", "", how="any")  # any one of theirs, drawn unseen when settled
        raise CommandError("a card in a trade is named: CARD <card>, ANNOUNCED CARD <card>, FACE-DOWN CARD <card> "
                           "(asked FOR: CARD <card> or FACE-DOWN CARD, any one of theirs)")
    m = re.fullmatch(r"(\d{1,5})\s+(.+)", t)
    if m and int(m.group(1)) > 0:
        return Item("units", m.group(2).strip(), count=int(m.group(1)))
    raise CommandError(f"{t!r} is not something to trade; write <k> <object>, TECHNOLOGY <machine> SHARED|SOLE, "
                       "MINING RIGHTS <fuel> SHARED|SOLE, CARD <card>, ANNOUNCED CARD <card>, FACE-DOWN CARD "
                       "<card>, PROMISE <words> or NOTHING")


@dataclass(frozen=True)
class Terms:
    partner: str
    give: tuple[Item, ...]
    get: tuple[Item, ...]


def _parse_trade(rest: str, line: object) -> Trade:
    terms(rest)
    return Trade(rest.strip())


@command("TRADE", usage="TRADE WITH <player>: GIVE <things> FOR <things>", parse=_parse_trade, cmd="techno-trade",
         listing=40, private=True, summary="offer a trade of objects, Technology, Mining Rights, cards and "
                                           "promises; the other player answers ACCEPT <n> or DECLINE <n>",
         example="TRADE WITH bob: GIVE 3 Titanium FOR MINING RIGHTS Coal SHARED", rules=("VI.1", "VI.2", "VI.3"))
class Trade:
    """``TRADE WITH <player>: GIVE <items> FOR <items>``."""

    #: what follows TRADE, as written (read again when carried out)
    text: str


def terms(rest: str) -> Terms:
    """A promise may be quoted (``PROMISE "no attacks, for now"``): its commas and FOR are its own;
    the GIVE side ends at the first FOR in capitals, or else at the first "for" outside quotes."""
    quoted: list[str] = []

    def mask(q: re.Match[str]) -> str:
        quoted.append(q.group(1))
        return f"\x00{len(quoted) - 1}\x00"

    masked = re.sub(r'"([^"]*)"', mask, rest.strip())
    m = (re.fullmatch(r"(?i:with)\s+(\S+?)\s*:?\s+(?i:give)\s+(.+?)\s+FOR\s+(.+)", masked)
         or re.fullmatch(r"with\s+(\S+?)\s*:?\s+give\s+(.+?)\s+for\s+(.+)", masked, re.IGNORECASE))
    if not m:
        raise CommandError("write TRADE WITH <player>: GIVE <things> FOR <things>, like "
                           "TRADE WITH bob: GIVE 3 Titanium FOR MINING RIGHTS Coal SHARED")
    unmask: Callable[[str], str] = lambda s: re.sub(r"\x00(\d+)\x00", lambda q: quoted[int(q.group(1))], s)  # noqa: E731
    split: Callable[[str], list[str]] = lambda s: [unmask(x) for x in re.split(r"\s*,\s*", s) if x.strip()]  # noqa: E731
    give = tuple(i for i in (parse_item(x, "GIVE") for x in split(m.group(2))) if i.what != "nothing")
    get = tuple(i for i in (parse_item(x, "FOR") for x in split(m.group(3))) if i.what != "nothing")
    return Terms(m.group(1), give, get)


def shown(item: Item) -> str:
    """An item as everyone may read it (announced and face-down cards unnamed)."""
    if item.what == "units":
        return f"{item.count} {item.name}"
    if item.what in ("technology", "mining"):
        return f"{'Technology' if item.what == 'technology' else 'Mining Rights'} {item.name} ({item.how.lower()})"
    if item.what == "card":
        return (f"the card {item.name}" if item.how == "shown" else
                "an announced card" if item.how == "announced" else
                "any one of their cards, face down" if item.how == "any" else "a face-down card")
    return f"a promise: {item.name}"


def check(ctx: UpdateContext, giver: str, items: list[Item], hidden: list[str]) -> None:
    """``giver`` holds everything they would give (raises with what is missing)."""
    st, priv = world(ctx.state), private(ctx.state)
    need: dict[str, int] = {}
    for item in items:
        if item.what == "units":
            obj = find_object(st, item.name)
            if obj.has("Fixed"):
                raise IllegalAction(f"{obj.name} is Fixed: it cannot be traded (IX.1)")
            need[obj.name] = need.get(obj.name, 0) + item.count
        elif item.what in ("technology", "mining"):
            obj = find_object(st, item.name)
            kind = "technology" if obj.kind in ("machine", "robot") else "mining"
            if kind != item.what:
                raise IllegalAction(f"{obj.name} is a {obj.kind}: trade its {obj.rights_name}")
            if obj.kind == "robot":
                raise IllegalAction("everyone holds the Technology for Robots")
            if giver not in obj.rights:
                raise IllegalAction(f"{giver} does not hold the {obj.rights_name} for {obj.name}")
    for name, n in need.items():
        if held(st, giver, name) < n:
            raise IllegalAction(f"{giver} has {held(st, giver, name)} {name}, not {n}")
    cards = [i.name for i in items if i.what == "card" and i.name] + hidden
    take_cards(priv, st, giver, cards, check=True)


class TechnoTradingModule(Mechanic[None, TradingPrivate]):
    name = TRADING
    rules = ("VI.1", "VI.2", "VI.3")
    defaults = {}
    summary = "Trades of objects, Technology, Mining Rights and Attribute cards, by offer and ACCEPT."
    Private = TradingPrivate
    requires = ("interactions", "techno")

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((Trade, offer))

    def resolve_interaction(self, ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
        hidden = self.private_of(ctx.state).hidden.pop(inter.id, [])
        # the trade's proposer: offer() opens every trade with one
        giver, taker = cast(str, inter.proposer), inter.parties[0]
        if answers.get(taker) != "accept":
            return f"{taker} declined {giver}'s trade"
        give = [Item(**i) for i in inter.payload["give_items"]]
        get = [Item(**i) for i in inter.payload["get_items"]]
        priv = private(ctx.state)
        try:
            check(ctx, giver, [i for i in give if i.how in ("shown", "SHARED", "SOLE", "")], hidden)
            check(ctx, taker, [i for i in get if i.how != "any"], [])
            if any(i.how == "any" for i in get) and not priv.hands.get(taker):
                raise IllegalAction(f"{taker} holds no card to give face down")
        except IllegalAction as exc:
            return f"the trade between {giver} and {taker} could not be carried out: {exc}"
        _carry(ctx, giver, taker, give, hidden)
        _carry(ctx, taker, giver, get, [])
        ctx.emit("techno", f"{giver} and {taker} traded: {giver} gave {', '.join(map(shown, give)) or 'nothing'} "
                           f"for {', '.join(map(shown, get)) or 'nothing'}.", player=giver, rule="VI.1")
        return f"{taker} accepted {giver}'s trade"


def _carry(ctx: UpdateContext, giver: str, taker: str, items: list[Item], hidden: list[str]) -> None:
    st, priv = world(ctx.state), private(ctx.state)
    for item in items:
        if item.what == "units":
            obj = find_object(st, item.name)
            add_units(st, giver, obj.name, -item.count)
            add_units(st, taker, obj.name, item.count)
        elif item.what in ("technology", "mining"):
            obj = find_object(st, item.name)
            if item.how == "SOLE":
                obj.rights = [r for r in obj.rights if r != giver]
            if taker not in obj.rights:
                obj.rights.append(taker)
        elif item.what == "card" and item.how == "shown" and item.name:
            take_cards(priv, st, giver, [item.name])
            give_card(priv, st, taker, item.name)
        elif item.what == "card" and item.how == "any":  # any one of the giver's cards, face down
            hand = priv.hands.get(giver, [])
            card = hand[ctx.dice.roll_hidden(f"trade/{giver}/{taker}", len(hand)) - 1]
            hidden = hidden + [card]
    for card in hidden:
        take_cards(priv, st, giver, [card])
        give_card(priv, st, taker, card)
        ctx.emit("techno", None, player=taker, rule="VI.3", private=f"You received the card {card} from {giver}.")
    enforce_unique(ctx, taker)


def offer(ctx: UpdateContext, player: Player, trade: Trade) -> str:
    st = world(ctx.state)
    cmd = terms(trade.text)
    partner = ctx.state.players.get(cmd.partner)
    if partner is None or not partner.active or partner.name == player.name or partner.name not in st.seats:
        raise IllegalAction(f"{cmd.partner!r} is not another player; players: "
                            f"{', '.join(p for p in st.seats if p != player.name)}")
    if not cmd.give and not cmd.get:
        raise IllegalAction("a trade gives or asks for something")
    hidden = [i.name for i in cmd.give if i.what == "card" and i.how in ("announced", "face-down")]
    check(ctx, player.name, [i for i in cmd.give if not (i.what == "card" and i.how != "shown")], hidden)
    for item in cmd.get:  # what is asked for must at least exist
        if item.what in ("units", "technology", "mining"):
            find_object(st, item.name)
    strip: Callable[[Item], dict[str, Any]] = lambda i: {"what": i.what, "name": "" if i.what == "card" and i.how != "shown" else i.name,  # noqa: E731
                       "count": i.count, "how": i.how}
    inter = ask(ctx, kind="offer", module=TRADING, parties=[partner.name], silence="decline",
                proposer=player.name,
                payload={"give": [shown(i) for i in cmd.give], "get": [shown(i) for i in cmd.get],
                         "give_items": [strip(i) for i in cmd.give], "get_items": [strip(i) for i in cmd.get]})
    if hidden:
        TechnoTradingModule.private_of(ctx.state).hidden[inter.id] = hidden
    announced = [i.name for i in cmd.give if i.what == "card" and i.how == "announced"]
    if announced:
        ctx.emit("techno", None, player=partner.name, rule="VI.3",
                 private=f"{player.name} announces that the card offered in trade #{inter.id} is "
                         f"{', '.join(announced)}.")
    ctx.emit("techno", f"{player.name} offers {partner.name} a trade (#{inter.id}): "
                       f"{', '.join(map(shown, cmd.give)) or 'nothing'} for {', '.join(map(shown, cmd.get)) or 'nothing'}"
                       f"; {partner.name} answers ACCEPT {inter.id} or DECLINE {inter.id} before the next update.",
             player=player.name, rule="VI.1")
    return f"{player.name} offered trade #{inter.id} to {partner.name}."
