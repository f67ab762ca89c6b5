"""XX, Trading, in both Nomopolies: trades between two players who both agree.
``TRADE WITH bob: GIVE square 14, $200 FOR proposal 3`` offers it; bob answers ``ACCEPT n`` (or
DECLINE) in the next update, when the trade is carried out if both still hold what they offered.

What may be traded is the ``tradable`` parameter: Nomopoly II's XX.1 says squares, cards, money
and items (the default); the first Nomopoly's game sets squares, money, items and proposals. In
the first Nomopoly a trade with a proposal must arrive by Tuesday (a day before proposals are due),
a proposal changes hands once a week at most, and a traded proposal is its new holder's in every
rule about its author (its XX.2-XX.4). In Nomopoly II (``square_freeze``, XX.2) a player who
trades a square away may not change that square in the update of the trade: the trade is carried
out at the end of the update its answer arrives in, so if the giver's own action in that update
changed anything about the square (its name, card, buildings ... as the modules' square facts
show), the trade falls through. A terrorist trades only with terrorists (XXIII.2)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from admin.engine import hooks
from admin.engine.inventory import Inventory
from admin.engine.declare import command, handled
from admin.engine.interactions import accept_or_decline
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.errors import CommandError, IllegalAction
from admin.library.api import CARDS, INTERACTIONS, TRADED_CHANGED, TRADED_SQUARES
from admin.library.cards import give as give_card, hand, take as take_card
from admin.library.interactions import ask
from admin.library.ownership import OwnershipModule, owner_of, set_owner
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction

#: what one side of a trade holds: (kind, value, count), ("square", 14, 1), ("item", "jetpack", 2)
Things = tuple[tuple[str, Any, int], ...]
_TRADE = re.compile(r"^with\s+(\S+?):?\s+give\s+(.+?)\s+for\s+(.+)$", re.IGNORECASE)
_MONEY = re.compile(r"^\$(\d{1,9})$|^(\d{1,9})\s+dollars?$", re.IGNORECASE)
_THING = re.compile(r"^(square|proposal)\s+#?(\d{1,9})$", re.IGNORECASE)
_CARD = re.compile(r"^(?:card\s+)?(A|K|Q|J|10|[2-9])([SHDC])$", re.IGNORECASE)
#: the words of the ``tradable`` parameter -> the kinds of thing a trade holds
_KINDS = {"squares": "square", "cards": "card", "money": "money", "items": "item", "proposals": "proposal"}
_ITEM = re.compile(r"^(?:(\d{1,3}|an?)\s+)?(.+)$", re.IGNORECASE)


def _things(text: str) -> Things:
    """``$200, square 14 and 2 jetpack`` -> (("money", 200, 1), ("square", 14, 1), ("item", "jetpack", 2))."""
    out: list[tuple[str, Any, int]] = []
    if text.strip().lower() in ("nothing", "none"):
        return ()
    for part in re.split(r"\s*,\s*|\s+and\s+", text.strip()):
        if not part:
            continue
        m = _MONEY.match(part)
        if m:
            out.append(("money", int(m.group(1) or m.group(2)), 1))
            continue
        m = _THING.match(part)
        if m:
            out.append((m.group(1).lower(), int(m.group(2)), 1))
            continue
        m = _CARD.match(part)
        if m:
            out.append(("card", m.group(1).upper() + m.group(2).upper(), 1))
            continue
        if part.isdecimal():
            raise CommandError(f'"{part}" alone is not clear: write SQUARE {part} for a square, ${part} for '
                               f"money, or the item's name after the number (2 jetpack)")
        m = _ITEM.match(part)
        assert m is not None  # (.+) matches any part
        count = m.group(1) or "1"  # "2 flowers", "a weighted die"
        out.append(("item", m.group(2).lower().strip(), int(count) if count.isdecimal() else 1))
    return tuple(out)


def _parse(rest: str, _line: object) -> Trade:
    m = _TRADE.match(" ".join(rest.split()))
    if not m:
        raise CommandError("write TRADE WITH <player>: GIVE <things> FOR <things>, e.g. "
                           "TRADE WITH bob: GIVE square 14, $200 FOR proposal 3")
    give, take = _things(m.group(2)), _things(m.group(3))
    if not give and not take:
        raise CommandError("a trade gives or takes something")
    return Trade(m.group(1), give, take)


@command("TRADE", usage="TRADE WITH <player>: GIVE <things> FOR <things>", parse=_parse, listing=300,
         rules=("XX.1",), summary="offer a trade of squares, cards, money, items (or proposals, where the rules "
                                  "allow it); they ACCEPT or DECLINE it in the next update",
         example="TRADE WITH bob: GIVE square 14, $200 FOR square 21")
class Trade:
    """``TRADE WITH <player>: GIVE <things> FOR <things>`` (XX.1)."""

    to: str
    give: Things
    take: Things


@dataclass
class TradingState:
    #: "proposal number" -> the week it last changed hands (XX.4)
    traded: dict[str, int] = field(default_factory=dict)


class TradingModule(Mechanic[TradingState, None]):
    name = "trading"
    rules = ("XX.1", "XX.2", "XX.3", "XX.4")
    # the last weekday (0 = Monday) a trade with a proposal may arrive: a day before they are due
    defaults = {"proposal_trade_last_day": 1, "tradable": "squares, cards, money, items",
                "square_freeze": True}
    summary = "Trade squares, cards, money, items (or proposals) with another player who agrees."
    State = TradingState
    requires = ("interactions", "ownership")

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((Trade, trade))

    def on_update_start(self, ctx: UpdateContext) -> None:
        _given_squares(ctx)  # XX.2: how the squares being traded away stand before the actions

    def on_action(self, ctx: UpdateContext, player: Player, command: Any) -> None:
        """XX.2: note a giver's action that changed a square they are trading away this update."""
        given = _given_squares(ctx)
        for (giver, number), before in given.items():
            if giver == player.name and _square_look(ctx, number) != before:
                TRADED_CHANGED.of(ctx).add((giver, number))

    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> Any:
        value = accept_or_decline(interaction, value)
        giver = ctx.state.players.get(str(interaction.proposer))
        if value == "accept" and giver is not None:
            p = interaction.payload
            problem = (_lacks(ctx, player, _load(p["take"]))
                       or _lacks(ctx, giver, _public(_load(p["give"]))))
            if problem:
                raise IllegalAction(f"this trade cannot be carried out: {problem}; DECLINE {interaction.id}, "
                                    "or ACCEPT it once it can")
        return value

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        p = interaction.payload
        giver, taker = interaction.proposer, p["to"]
        if answers.get(taker) != "accept":
            return f"{taker} did not accept {giver}'s trade"
        a, b = ctx.state.players.get(giver or ""), ctx.state.players.get(taker)
        if a is None or b is None or not (a.active and b.active):
            return "a party to the trade has left the game"
        give, take = _load(p["give"]), _load(p["take"])
        problem = (_lacks(ctx, a, give) or _lacks(ctx, b, take) or _partners(ctx, a, b)
                   or _changed(ctx, a, give) or _changed(ctx, b, take))
        if problem:
            return f"the trade fell through: {problem}"
        _hand_over(ctx, a, b, give)
        _hand_over(ctx, b, a, take)
        return f"{giver} and {taker} traded: {giver} gave {_say(give)}; {taker} gave {_say(take)}"


def _load(things: list[Any]) -> Things:
    return tuple((str(k), v, int(n)) for k, v, n in things)


def _public(things: Things) -> Things:
    """What anyone may check of another player's side of a trade: squares, proposals and money
    (their cards and items are private, so those are checked only when the trade is carried out)."""
    return tuple(t for t in things if t[0] in ("square", "proposal", "money"))


def _say(things: Things) -> str:
    if not things:
        return "nothing"
    words = {"money": lambda v, n: f"${v}", "square": lambda v, n: f"square {v}",
             "proposal": lambda v, n: f"proposal {v}", "item": lambda v, n: f"{n} {v}",
             "card": lambda v, n: f"card {v}"}
    return ", ".join(words[k](v, n) for k, v, n in things)


def _inventory(ctx: UpdateContext, name: str, item: str) -> Inventory | None:
    """The inventory in which ``name`` holds ``item``: the first that a mechanic keeping items
    answers (the first Nomopoly's donuts or store, a Nomopoly II section's), or None."""
    found: Inventory | None = hooks.call(ctx).trade_inventory(ctx.state, name, item)
    return found


def _held(ctx: UpdateContext, name: str, item: str) -> int:
    inv = _inventory(ctx, name, item)
    return inv.count(name, item) if inv is not None else 0


def _as_held(ctx: UpdateContext, who: Player, things: Things) -> Things:
    """The items as ``who``'s inventory names them: "2 flowers" and "a weighted die" are the
    casino's "flower" and "weighted-die" (a name they hold none of is left as written)."""
    out = []
    for kind, value, n in things:
        if kind == "item":
            forms = [value, value.replace(" ", "-"), value.replace("-", " ")]
            forms += [f[:-2] for f in forms if f.endswith("es")] + [f[:-1] for f in forms if f.endswith("s")]
            value = next((f for f in forms if _held(ctx, who.name, f) > 0), value)
        out.append((kind, value, n))
    return tuple(out)


def _lacks(ctx: UpdateContext, who: Player, things: Things) -> str | None:
    """What ``who`` no longer has of what they offered, in words; None if they have it all."""
    state = ctx.state
    for kind, value, n in things:
        if kind == "money" and who.money < value:
            return f"{who.name} has {state.money(who.money)}, not {state.money(value)}"
        if kind == "square" and owner_of(state, value) != who.name:
            return f"{who.name} does not own square {value}"
        if kind == "proposal":
            prop = state.proposal(value)
            if prop is None or prop.proposer != who.name:
                return f"proposal {value} is not {who.name}'s"
        if kind == "item" and _held(ctx, who.name, value) < n:
            return f"{who.name} does not hold {n} {value}"
    cards = Counter(v for k, v, n in things for _ in range(n) if k == "card")
    if cards:
        short = cards - Counter(hand(state, who.name)) if CARDS.on(state) else cards
        if short:
            return f"{who.name} does not hold {', '.join(sorted(short.elements()))}"
    return None


class RefusesPartners:
    """A capability: some players may not trade with each other (Nomopoly II's terrorists trade
    only with terrorists, XXIII.2)."""

    def refuses_partners(self, state: GameState, a: str, b: str) -> str | None:
        """Why ``a`` and ``b`` may not trade with each other, or None."""
        raise NotImplementedError


def _partners(ctx: UpdateContext, a: Player, b: Player) -> str | None:
    """Why ``a`` and ``b`` may not trade with each other (a mechanic's capability), or None."""
    keeper = ctx.registry.provider(ctx.state, RefusesPartners)
    return keeper.refuses_partners(ctx.state, a.name, b.name) if keeper is not None else None


class RefusesTrade:
    """A capability: a mechanic owning a thing that may never be traded (the first Nomopoly's Hot
    Potato, XIX.1)."""

    def refuses_trade(self, state: GameState, kind: str, value: Any) -> str | None:
        """Why ``value`` (of ``kind``: "item", "card" ...) may not be traded, or None."""
        raise NotImplementedError


def _not_tradable(ctx: UpdateContext, things: Things) -> str | None:
    allowed = {_KINDS[w] for w in re.split(r"[\s,]+", str(ctx.params("trading")["tradable"]).lower()) if w in _KINDS}
    for kind, value, _n in things:
        if kind not in allowed:
            words = ", ".join(w for w, k in _KINDS.items() if k in allowed)
            return f"{kind}s may not be traded in this game (XX.1: {words})"
        if kind == "card" and not CARDS.on(ctx.state):
            return "there are no cards in this game to trade"
        keeper = ctx.registry.provider(ctx.state, RefusesTrade)  # a capability (the Hot Potato's)
        why = keeper.refuses_trade(ctx.state, kind, value) if keeper is not None else None
        if why:
            return why
    return None


def _square_look(ctx: UpdateContext, number: int) -> tuple[Any, ...]:
    """All that the modules say of square ``number``, but its owner: its "status" (XX.2)."""
    square = ctx.state.square(number)
    facts = tuple((f.key, repr(f.value)) for f in hooks.call(ctx).square_facts(ctx.state, square)
                  if f.key != "owner") if square is not None else ()
    return (getattr(square, "name", None), getattr(square, "destroyed", None), facts)


def _given_squares(ctx: UpdateContext) -> dict[tuple[str, int], Any]:
    """XX.2: the squares each party to a trade closing in this update gives away, as they stood
    when the update began (kept for this update only)."""
    out = TRADED_SQUARES.peek(ctx)
    if out is None:
        out = TRADED_SQUARES.of(ctx)
        interactions = INTERACTIONS.get(ctx.state)
        if interactions is not None and ctx.params("trading")["square_freeze"]:
            for inter in interactions.open:
                if inter.module != "trading" or inter.deadline > ctx.state.update:
                    continue
                for giver, things in ((inter.proposer, inter.payload["give"]), (inter.payload["to"], inter.payload["take"])):
                    for kind, value, _n in things:
                        if kind == "square":
                            out[(str(giver), int(value))] = _square_look(ctx, int(value))
    return out


def _changed(ctx: UpdateContext, who: Player, things: Things) -> str | None:
    changed = TRADED_CHANGED.peek(ctx) or set()
    for kind, value, _n in things:
        if kind == "square" and (who.name, int(value)) in changed:
            return (f"{who.name} changed square {value} in this update, the update of the trade; a square "
                    "traded away may not be changed in the same update (XX.2)")
    return None


def _hand_over(ctx: UpdateContext, frm: Player, to: Player, things: Things) -> None:
    state = ctx.state
    for kind, value, n in things:
        if kind == "money":
            ctx.transfer(frm.name, to.name, value, rule="XX.1", reason="a trade", kind="trade")
        elif kind == "square":
            paid = OwnershipModule.of(state).paid.get(value)
            set_owner(state, value, to.name, paid)
        elif kind == "card":
            take_card(state, frm.name, value)
            give_card(state, to.name, value)
        elif kind == "proposal":  # XX.3: the new holder is its author in every rule
            state.proposal(value).proposer = to.name  # type: ignore[union-attr]
            TradingModule.of(state).traded[str(value)] = state.week
        else:
            inv = _inventory(ctx, frm.name, value)
            assert inv is not None  # _lacks found the items before the trade was carried out
            inv.transfer(frm.name, to.name, value, n)


def trade(ctx: UpdateContext, player: Player, cmd: Trade) -> str:
    other = ctx.state.players.get(cmd.to)
    if other is None or not other.active or other.name == player.name:
        raise IllegalAction(f"there is no other player {cmd.to!r} to trade with")
    cmd = replace(cmd, give=_as_held(ctx, player, cmd.give), take=_as_held(ctx, other, cmd.take))
    problem = (_not_tradable(ctx, (*cmd.give, *cmd.take)) or _lacks(ctx, player, cmd.give)
               or _lacks(ctx, other, _public(cmd.take)) or _partners(ctx, player, other))
    if problem:
        raise IllegalAction(problem)
    proposals = [v for k, v, _ in (*cmd.give, *cmd.take) if k == "proposal"]
    if proposals:
        received = ctx.received
        last = int(ctx.params("trading")["proposal_trade_last_day"])
        if received and datetime.fromisoformat(received).weekday() > last:
            raise IllegalAction("a trade with a proposal must arrive by Tuesday, a day before proposals are "
                                "due (XX.2)")
        traded = TradingModule.of(ctx.state).traded
        for number in proposals:
            if traded.get(str(number)) == ctx.state.week:
                raise IllegalAction(f"proposal {number} changed hands this week already; once a week (XX.4)")
            if ctx.state.proposal(number) is None:
                raise IllegalAction(f"there is no live proposal {number}")
    inter = ask(ctx, kind="offer", module="trading", parties=[other.name], silence="decline",
                proposer=player.name, payload={"to": other.name, "give": [list(t) for t in cmd.give],
                                               "take": [list(t) for t in cmd.take]})
    return (f"{player.name} offered {other.name} a trade (#{inter.id}): {_say(cmd.give)} for {_say(cmd.take)}; "
            f"{other.name} may ACCEPT {inter.id} or DECLINE {inter.id} by update {inter.deadline}.")
