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
from typing import Any, ClassVar, Protocol, runtime_checkable

from admin.engine import hooks
from admin.engine.commands import command_type
from admin.engine.interactions import accept_or_decline
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.errors import CommandError, IllegalAction
from admin.library.api import CARDS, INTERACTIONS, TRADED_CHANGED, TRADED_SQUARES
from admin.library.cards import give as give_card, hand, take as take_card
from admin.library.interactions import ask
from admin.games.nomopoly1.mechanics.donuts import DonutsModule
from admin.games.nomopoly1.mechanics.store import items_of
from admin.library.ownership import OwnershipModule, owner_of, set_owner
from admin.engine.model import GameState, Player

_TRADE = re.compile(r"^with\s+(\S+?):?\s+give\s+(.+?)\s+for\s+(.+)$", re.IGNORECASE)
_MONEY = re.compile(r"^\$(\d{1,9})$|^(\d{1,9})\s+dollars?$", re.IGNORECASE)
_THING = re.compile(r"^(square|proposal)\s+#?(\d{1,9})$", re.IGNORECASE)
_CARD = re.compile(r"^(?:card\s+)?(A|K|Q|J|10|[2-9])([SHDC])$", re.IGNORECASE)
#: the words of the ``tradable`` parameter -> the kinds of thing a trade holds
_KINDS = {"squares": "square", "cards": "card", "money": "money", "items": "item", "proposals": "proposal"}
_ITEM = re.compile(r"^(?:(\d{1,3}|an?)\s+)?(.+)$", re.IGNORECASE)


@command_type
@dataclass(frozen=True)
class Trade:
    """``TRADE WITH <player>: GIVE <things> FOR <things>`` (XX.1)."""

    to: str
    give: tuple[tuple[str, Any, int], ...]
    take: tuple[tuple[str, Any, int], ...]
    cmd: ClassVar[str] = "trade"


def _things(text: str) -> tuple[tuple[str, Any, int], ...]:
    """``$200, square 14 and 2 jetpack`` -> (("money", 200, 1), ("square", 14, 1), ("item", "jetpack", 2))."""
    out = []
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
        if part.isdigit():
            raise CommandError(f'"{part}" alone is not clear: write SQUARE {part} for a square, ${part} for '
                               f"money, or the item's name after the number (2 jetpack)")
        m = _ITEM.match(part)
        assert m is not None  # (.+) matches any part
        count = m.group(1) or "1"  # "2 flowers", "a weighted die"
        out.append(("item", m.group(2).lower().strip(), int(count) if count.isdigit() else 1))
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

    def commands(self):
        return (CommandSpec("TRADE", Trade, trade, _parse, "TRADE WITH <player>: GIVE <things> FOR <things>",
                            listing=300, rules=("XX.1",), summary="offer a trade of squares, cards, money, items "
                            "(or proposals, where the rules allow it); they ACCEPT or DECLINE it in the next update",
                            example="TRADE WITH bob: GIVE square 14, $200 FOR square 21"),)

    def on_update_start(self, ctx) -> None:
        _given_squares(ctx)  # XX.2: how the squares being traded away stand before the actions

    def on_action(self, ctx, player, command) -> None:
        """XX.2: note a giver's action that changed a square they are trading away this update."""
        given = _given_squares(ctx)
        for (giver, number), before in given.items():
            if giver == player.name and _square_look(ctx, number) != before:
                TRADED_CHANGED.of(ctx).add((giver, number))

    def check_answer(self, ctx, interaction, player, value) -> Any:
        value = accept_or_decline(interaction, value)
        giver = ctx.state.players.get(str(interaction.proposer))
        if value == "accept" and giver is not None:
            p = interaction.payload
            problem = (_lacks(ctx.state, player, _load(p["take"]))
                       or _lacks(ctx.state, giver, _public(_load(p["give"]))))
            if problem:
                raise IllegalAction(f"this trade cannot be carried out: {problem}; DECLINE {interaction.id}, "
                                    "or ACCEPT it once it can")
        return value

    def resolve_interaction(self, ctx, interaction, answers) -> str:
        p = interaction.payload
        giver, taker = interaction.proposer, p["to"]
        if answers.get(taker) != "accept":
            return f"{taker} did not accept {giver}'s trade"
        a, b = ctx.state.players.get(giver), ctx.state.players.get(taker)
        if a is None or b is None or not (a.active and b.active):
            return "a party to the trade has left the game"
        give, take = _load(p["give"]), _load(p["take"])
        problem = (_lacks(ctx.state, a, give) or _lacks(ctx.state, b, take) or _terrorists(ctx.state, a, b)
                   or _changed(ctx, a, give) or _changed(ctx, b, take))
        if problem:
            return f"the trade fell through: {problem}"
        _hand_over(ctx, a, b, give)
        _hand_over(ctx, b, a, take)
        return f"{giver} and {taker} traded: {giver} gave {_say(give)}; {taker} gave {_say(take)}"


def _load(things: list) -> tuple[tuple[str, Any, int], ...]:
    return tuple((str(k), v, int(n)) for k, v, n in things)


def _public(things) -> tuple[tuple[str, Any, int], ...]:
    """What anyone may check of another player's side of a trade: squares, proposals and money
    (their cards and items are private, so those are checked only when the trade is carried out)."""
    return tuple(t for t in things if t[0] in ("square", "proposal", "money"))


def _say(things) -> str:
    if not things:
        return "nothing"
    words = {"money": lambda v, n: f"${v}", "square": lambda v, n: f"square {v}",
             "proposal": lambda v, n: f"proposal {v}", "item": lambda v, n: f"{n} {v}",
             "card": lambda v, n: f"card {v}"}
    return ", ".join(words[k](v, n) for k, v, n in things)


def _inventory(state: GameState, name: str, item: str):
    """The inventory that keeps ``name``'s ``item``s: the first Nomopoly's donuts or store, or a
    Nomopoly II section's (shared.item_inventory), or None."""
    if item in ("poison donut", "lucky donut", "sprinkles donut", "antidote") and state.enabled("donuts"):
        return DonutsModule.of(state).held
    if state.enabled("store"):
        return items_of(state)
    from admin.games.nomopoly2.mechanics.shared import item_inventory

    return item_inventory(state, name, item)


def _held(state: GameState, name: str, item: str) -> int:
    inv = _inventory(state, name, item)
    return inv.count(name, item) if inv is not None else 0


def _as_held(state: GameState, who: Player, things) -> tuple[tuple[str, Any, int], ...]:
    """The items as ``who``'s inventory names them: "2 flowers" and "a weighted die" are the
    casino's "flower" and "weighted-die" (a name they hold none of is left as written)."""
    out = []
    for kind, value, n in things:
        if kind == "item":
            forms = [value, value.replace(" ", "-"), value.replace("-", " ")]
            forms += [f[:-2] for f in forms if f.endswith("es")] + [f[:-1] for f in forms if f.endswith("s")]
            value = next((f for f in forms if _held(state, who.name, f) > 0), value)
        out.append((kind, value, n))
    return tuple(out)


def _lacks(state: GameState, who: Player, things) -> str | None:
    """What ``who`` no longer has of what they offered, in words; None if they have it all."""
    for kind, value, n in things:
        if kind == "money" and who.money < value:
            return f"{who.name} has {state.money(who.money)}, not {state.money(value)}"
        if kind == "square" and owner_of(state, value) != who.name:
            return f"{who.name} does not own square {value}"
        if kind == "proposal":
            prop = state.proposal(value)
            if prop is None or prop.proposer != who.name:
                return f"proposal {value} is not {who.name}'s"
        if kind == "item" and _held(state, who.name, value) < n:
            return f"{who.name} does not hold {n} {value}"
    cards = Counter(v for k, v, n in things for _ in range(n) if k == "card")
    if cards:
        short = cards - Counter(hand(state, who.name)) if CARDS.on(state) else cards
        if short:
            return f"{who.name} does not hold {', '.join(sorted(short.elements()))}"
    return None


def _terrorists(state: GameState, a: Player, b: Player) -> str | None:
    """XXIII.2: a terrorist may not trade with a player who is not one."""
    from admin.games.nomopoly2.mechanics.shared import is_terrorist

    ta, tb = is_terrorist(state, a.name), is_terrorist(state, b.name)
    if ta == tb:
        return None
    terrorist, other = (a, b) if ta else (b, a)
    return f"{terrorist.name} is a terrorist and {other.name} is not; a terrorist trades only with terrorists (XXIII.2)"


@runtime_checkable
class RefusesTrade(Protocol):
    """A mechanic owning a thing that may never be traded (the first Nomopoly's Hot Potato, XIX.1)."""

    def refuses_trade(self, state: GameState, kind: str, value: Any) -> str | None:
        """Why ``value`` (of ``kind``: "item", "card" ...) may not be traded, or None."""


def _not_tradable(ctx, things) -> str | None:
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


def _square_look(ctx, number: int) -> tuple:
    """All that the modules say of square ``number``, but its owner: its "status" (XX.2)."""
    square = ctx.state.square(number)
    facts = tuple((f.key, repr(f.value)) for f in hooks.call(ctx).square_facts(ctx.state, square)
                  if f.key != "owner") if square is not None else ()
    return (getattr(square, "name", None), getattr(square, "destroyed", None), facts)


def _given_squares(ctx) -> dict[tuple[str, int], tuple]:
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


def _changed(ctx, who: Player, things) -> str | None:
    changed = TRADED_CHANGED.peek(ctx) or set()
    for kind, value, _n in things:
        if kind == "square" and (who.name, int(value)) in changed:
            return (f"{who.name} changed square {value} in this update, the update of the trade; a square "
                    "traded away may not be changed in the same update (XX.2)")
    return None


def _hand_over(ctx, frm: Player, to: Player, things) -> None:
    state = ctx.state
    for kind, value, n in things:
        if kind == "money":
            ctx.transfer(frm.name, to.name, value, rule="XX.1", reason="a trade")
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
            _inventory(state, frm.name, value).transfer(frm.name, to.name, value, n)


def trade(ctx, player: Player, cmd: Trade) -> str:
    other = ctx.state.players.get(cmd.to)
    if other is None or not other.active or other.name == player.name:
        raise IllegalAction(f"there is no other player {cmd.to!r} to trade with")
    cmd = replace(cmd, give=_as_held(ctx.state, player, cmd.give), take=_as_held(ctx.state, other, cmd.take))
    problem = (_not_tradable(ctx, (*cmd.give, *cmd.take)) or _lacks(ctx.state, player, cmd.give)
               or _lacks(ctx.state, other, _public(cmd.take)) or _terrorists(ctx.state, player, other))
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
