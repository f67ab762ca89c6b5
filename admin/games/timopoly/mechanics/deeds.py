"""Timopoly's deeds (CONTROLING CATEGORIES, PAYING, the CATEGORY TABLE, FANDOMRUPTCY): who
controls each category, web presence and publisher; buying by email; auctions; rants; paying
what one owes, and going Fandomrupt when one cannot.

Buying by email: landing on an unowned deed asks its lander (an ``offer`` interaction) until the
next update: ``BUY`` (or ``ACCEPT n``) buys it at its price; silence or ``DECLINE n`` puts it up for
auction, sealed bids (``BID n amount``) from every player until the update after, the highest bid
winning (a tie: a die among the tied). A standing order buys at once without asking:
``ORDER BUY UNDER 20`` (any deed priced 20 or less), ``ORDER BUY ALL``, ``ORDER BUY NONE`` (always
auction), ``ORDER ASK`` (the default: ask each time)."""

from __future__ import annotations

import re
from typing import Any

from admin.engine.context import BANK, UpdateContext
from admin.engine.declare import command, handled
from admin.engine.interactions import Interaction, auction_winner, close
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.library.api import INTERACTIONS, SEALED_ANSWERS
from admin.library.interactions import ask
from admin.games.timopoly.mechanics.holdings import (  # noqa: F401 - settle and Deed are used from here too
    Deed, TimoDeedsState, auction, board_of, fandomrupt, owns_group, settle,
)
from admin.games.timopoly.mechanics.spaces import Space, group, space
from admin.engine.model import GameState, Player, Square


def _parse_order(rest: str, line: object) -> BuyOrder:
    text = " ".join(rest.upper().split())
    m = re.fullmatch(r"BUY (?:ANY )?UNDER (?:FN ?)?(\d{1,6})", text)
    if m:
        return BuyOrder("under", int(m.group(1)))
    if text in ("BUY ALL", "BUY NONE", "ASK", "PAY JAIL FINE", "USE JAIL CARD"):
        return BuyOrder(text.lower().replace(" ", "-"))
    raise CommandError("write a standing order like ORDER BUY UNDER 20, ORDER BUY ALL, ORDER BUY NONE, "
                       "ORDER ASK, ORDER PAY JAIL FINE or ORDER USE JAIL CARD.")


def check_colours(value: dict[str, object]) -> None:
    """Each group's band is a colour (``#6ec6ea`` or a name like ``teal``): it goes into the board
    picture's style, so nothing else may (a proposal setting ``red;background:url(...)``)."""
    for name, band in value.items():
        if not isinstance(band, str) or not re.fullmatch(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?|[a-z]{3,20}", band):
            raise RuleError(f"the band of {name!r} is a colour like #6ec6ea or teal, not {band!r}")


@command("BUY", hint="BUY takes nothing after it: it buys the deed you landed on. To build, write BUY NOM ON "
                     "<space> or BUY ROCKET ON <space>.", cmd="timo-buy", phase=0, listing=10,
         summary="buy the deed the game offered you (you stopped on it)", example="BUY", rules=("VII.1",))
class BuyDeed:
    """``BUY``: buy the deed you were offered for landing on it."""


@command("ORDER BUY UNDER <n> | BUY ALL | BUY NONE | ASK | PAY JAIL FINE | USE JAIL CARD", parse=_parse_order,
         cmd="timo-order", listing=11, summary="a standing order the game follows for you between updates "
                                               "(deeds to buy, jail)", example="ORDER BUY UNDER 20",
         rules=("VII.1",))
class BuyOrder:
    """``ORDER BUY UNDER n`` / ``ORDER BUY ALL`` / ``ORDER BUY NONE`` / ``ORDER ASK`` (also
    ``ORDER PAY JAIL FINE`` / ``ORDER USE JAIL CARD`` for jail)."""

    what: str
    limit: int = 0


class TimoDeedsModule(Mechanic[TimoDeedsState, None]):
    name = "timo-deeds"
    rules = ("IV.1", "IV.2", "VII.1", "VII.2", "VIII.1", "VIII.2", "VIII.3", "VIII.4", "XVII.1",
             "XVII.2", "XVII.3", "XVII.4", "XVIII.1", "XIX.1", "XIX.2", "XIX.3", "XIX.4", "XIX.5")
    stated = {"XIX.2": {"web_rent": ("is Fn {} for each web presence",)},
              "XIX.3": {"publisher_rent": ("{} times the lander's last throw",)}}
    defaults = {"web_rent": 2, "publisher_rent": 5, "auction_tie": "dice", "colours": {}}
    #: each colour group's band on the board picture: a colour, never markup
    validators = {"colours": check_colours}
    summary = "Buying deeds (by email, or at auction), rants by the Category Table, Fandomruptcy."
    State = TimoDeedsState
    requires = ("interactions", "timo-board")

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((BuyDeed, buy_offered), (BuyOrder, set_order))

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        spec = space(ctx.state, square.number)
        if spec.is_deed:
            land_on_deed(ctx, player, spec)

    def check_answer(self, ctx: UpdateContext, inter: Interaction, player: Player, value: Any) -> Any:
        if inter.kind == "auction" and not (isinstance(value, int) and value >= 0):
            raise IllegalAction("an auction takes BID <number> <amount>, a whole number of fans")
        if inter.kind == "auction" and value > player.money:
            raise IllegalAction(f"you bid {ctx.state.money(value)} and have {ctx.state.money(player.money)}")
        return value

    def resolve_interaction(self, ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
        spec = space(ctx.state, int(inter.payload["space"]))
        if inter.kind == "offer":
            who = inter.parties[0]
            if answers[who] == "accept" and _buy(ctx, ctx.state.players[who], spec):
                return f"{who} bought {spec.name}"
            deed = self.of(ctx.state).deeds.get(spec.number)
            if deed is not None:  # another lander bought it first: the Fandom no longer holds it (IV.1)
                return f"{who} did not buy {spec.name}; {deed.owner} controls it, so it is not auctioned"
            auction(ctx, spec, f"{who} did not buy it")
            return f"{who} did not buy {spec.name}: it goes to auction"
        bids = {p: b for p, b in answers.items() if isinstance(b, int) and ctx.state.players[p].active
                and b <= ctx.state.players[p].money}
        winner, price = auction_winner(bids, tie=str(ctx.params(self.name)["auction_tie"]), dice=ctx.dice,
                                       label=f"auction{inter.id}")
        held = self.of(ctx.state).deeds.get(spec.number)
        if held is not None:
            return f"{held.owner} already controls {spec.name}: no sale"
        if winner is None:
            return f"no bid for {spec.name}: the Fandom keeps it"
        ctx.transfer(winner, BANK, price, rule="VII.2", reason=f"{spec.name} at auction", kind="purchase")
        self.of(ctx.state).deeds[spec.number] = Deed(owner=winner)
        return f"{winner} bought {spec.name} at auction for {ctx.state.money(price)}"

    def worth(self, state: GameState, player: Player) -> int:
        return sum(space(state, n).price for n, d in self.of(state).deeds.items() if d.owner == player.name)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        mine = [n for n, d in sorted(self.of(state).deeds.items()) if d.owner == player.name]
        return [Fact("squares", mine, column="Deeds", order=30, kind="squares")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        deed = self.of(state).deeds.get(square.number)
        return [Fact("owner", deed.owner if deed else None, column="Controlled by", order=10, kind="player"),
                Fact("noms", deed.noms if deed else 0, column="Noms", order=20),
                Fact("rocket", bool(deed and deed.rocket)),
                Fact("mortgaged", bool(deed and deed.mortgaged))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        deed = self.of(state).deeds.get(square.number)
        spec = space(state, square.number)
        notes = [(5, spec.group)] if spec.group else []
        band = (state.params(self.name).get("colours") or {}).get(spec.group or "")
        if deed is None:
            return SquareLook(notes=tuple(notes + ([(10, f"for sale: {state.money(spec.price)}")]
                                                   if spec.is_deed else [])), band=band)
        flags = []
        if deed.rocket:
            flags.append((40, "RKT", "a Rocket"))
        elif deed.noms:
            flags.append((40, f"N{deed.noms}", f"{deed.noms} Nom(s)"))
        if deed.mortgaged:
            flags.append((45, "MTG", "mortgaged"))
        return SquareLook(owner=deed.owner, notes=tuple(notes + [(10, f"controlled by {deed.owner}")]
                                                        + [(o, long) for o, _, long in flags]),
                          flags=tuple(flags), band=band)

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        mine = [f"{space(state, n).name}" + (" (mortgaged)" if d.mortgaged else "")
                + (f" ({d.noms} Noms)" if d.noms else "") + (" (a Rocket)" if d.rocket else "")
                for n, d in sorted(self.of(state).deeds.items()) if d.owner == player.name]
        return [(40, f"  Deeds: {', '.join(mine) or 'none'}")]

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        deeds = self.of(state).deeds
        if key == "owner":
            if value is None:
                deeds.pop(square.number, None)
            else:
                deeds.setdefault(square.number, Deed(owner=str(value))).owner = str(value)
            return True
        if key in ("noms", "rocket", "mortgaged") and square.number in deeds:
            setattr(deeds[square.number], key, int(value) if key == "noms" else bool(value))
            return True
        return False

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "buy_under":
            return False
        self.of(state).buy_under[player.name] = int(value)
        return True

    def on_update_end(self, ctx: UpdateContext) -> None:
        alive = ctx.state.active_players()
        if len(alive) == 1 and not ctx.state.ended and len(ctx.state.players) > 1:
            ctx.state.ended, ctx.state.winner = True, alive[0].name
            ctx.state.end_reason = "the last player left in the game (XVII.4)"
            ctx.emit("winner", f"{alive[0].name} wins: the last player left in the game (XVII.4).",
                     player=alive[0].name, rule="XVII.4")


def land_on_deed(ctx: UpdateContext, player: Player, spec: Space, *, multiplier: int = 1,
                 throw_times: int | None = None) -> None:
    """Landing on a deed: offered to buy if nobody controls it, else the rant to its owner (none
    while it is mortgaged). A card may double a web presence's rant (``multiplier``) or make a
    publisher's ``throw_times`` a fresh throw (IX, XX)."""
    deed = TimoDeedsModule.of(ctx.state).deeds.get(spec.number)
    if deed is None:
        offer(ctx, player, spec)
        return
    owner = ctx.state.players.get(deed.owner)
    if deed.owner == player.name or deed.mortgaged or owner is None or not owner.active:
        return
    throw = None
    if spec.kind == "publisher" and throw_times is not None:
        n = len(ctx.dice.rolls)
        throw = (ctx.dice.roll(f"turn/{player.name}/publisher{n}/d0", 6)
                 + ctx.dice.roll(f"turn/{player.name}/publisher{n}/d1", 6))
    amount = rant(ctx, spec, deed, player.name, multiplier=multiplier, throw=throw, times=throw_times)
    settle(ctx, player, owner.name, amount, rule="VIII.1", reason=f"rant for {spec.name}", kind="rent")
    if player.active:
        ctx.emit("rent", f"{player.name} paid {ctx.state.money(amount)} rant to {owner.name} for {spec.name}.",
                 player=player.name, rule="VIII.1",
                 data={"square": spec.number, "amount": amount, "owner": owner.name})


def _controlled(state: GameState, spec: Space, owner: str) -> int:
    deeds = TimoDeedsModule.of(state).deeds
    return sum(1 for s in group(state, spec.group)
               if s.number in deeds and deeds[s.number].owner == owner and not deeds[s.number].mortgaged)


def rant(ctx: UpdateContext, spec: Space, deed: Deed, lander: str, *, multiplier: int = 1, throw: int | None = None,
         times: int | None = None) -> int:
    """What landing on ``spec`` costs (the Category Table): by Noms and Rocket; double for an
    unimproved category of a complete colour group; 2 per web site the owner controls; 5 times
    the lander's last throw per publisher the owner controls (or ``times`` a fresh ``throw``)."""
    state, p = ctx.state, ctx.params(TimoDeedsModule.name)
    if spec.kind == "web":
        return int(p["web_rent"]) * _controlled(state, spec, deed.owner) * multiplier
    if spec.kind == "publisher":
        if throw is not None and times is not None:
            return times * throw
        last = board_of(state).last_roll.get(lander, 0)
        return int(p["publisher_rent"]) * last * _controlled(state, spec, deed.owner)
    if deed.rocket:
        return spec.rents[6]
    if deed.noms:
        return spec.rents[deed.noms]
    return spec.rents[0] * (2 if owns_group(state, deed.owner, spec) else 1)


def _open_on(state: GameState, number: int) -> Interaction | None:
    """The offer or auction still open for the deed on square ``number``, if any."""
    return next((i for i in INTERACTIONS.of(state).open
                 if i.module == TimoDeedsModule.name and int(i.payload.get("space", -1)) == number), None)


def offer(ctx: UpdateContext, player: Player, spec: Space) -> None:
    pending = _open_on(ctx.state, spec.number)
    if pending is not None:
        # VII.1: the first lander has the right to buy it until the offer ends (and then the
        # auction runs); a later lander's standing order or offer waits for that.
        whose = (f"on offer to {pending.parties[0]}" if pending.kind == "offer" else "up for auction")
        ctx.emit("land", f"{player.name} landed on {spec.name}, which is {whose} until the next update "
                         f"(#{pending.id}).", player=player.name, rule="VII.1", data={"square": spec.number})
        return
    limit = TimoDeedsModule.of(ctx.state).buy_under.get(player.name)
    if limit is not None and limit >= 0 and spec.price <= limit and player.money >= spec.price:
        _buy(ctx, player, spec, standing=True)
        return
    if limit == -1:
        auction(ctx, spec, f"{player.name}'s standing order is to buy nothing")
        return
    ask(ctx, kind="offer", module=TimoDeedsModule.name, parties=[player.name], silence="decline",
        payload={"space": spec.number, "price": spec.price})
    ctx.emit("land", f"{player.name} landed on {spec.name}, which nobody controls: {player.name} may "
                     f"BUY it for {ctx.state.money(spec.price)} before the next update, or it goes to auction.",
             player=player.name, rule="VII.1", data={"square": spec.number})


def _buy(ctx: UpdateContext, player: Player, spec: Space, standing: bool = False, *, say: bool = True) -> bool:
    deeds = TimoDeedsModule.of(ctx.state).deeds
    if spec.number in deeds or player.money < spec.price:
        return False
    ctx.transfer(player.name, BANK, spec.price, rule="VII.1", reason=f"buying {spec.name}", kind="purchase")
    deeds[spec.number] = Deed(owner=player.name)
    how = " (a standing order)" if standing else ""
    if say:  # BUY by email says it once, as the command's own result
        ctx.emit("buy", f"{player.name} bought {spec.name} for {ctx.state.money(spec.price)}{how}.",
                 player=player.name, rule="VII.1", data={"square": spec.number})
    return True


def buy_offered(ctx: UpdateContext, player: Player, cmd: BuyDeed) -> str:
    inters = INTERACTIONS.of(ctx.state)
    mine = [i for i in inters.open if i.module == TimoDeedsModule.name and i.kind == "offer"
            and i.parties == [player.name]]
    if not mine:
        raise IllegalAction("you have no deed to buy: BUY answers the offer made when you land on a "
                            "deed nobody controls")
    inter = mine[-1]
    spec = space(ctx.state, int(inter.payload["space"]))
    if player.money < spec.price:
        raise IllegalAction(f"{spec.name} costs {ctx.state.money(spec.price)} and you have "
                            f"{ctx.state.money(player.money)}")
    deed = TimoDeedsModule.of(ctx.state).deeds.get(spec.number)
    if deed is not None:
        raise IllegalAction(f"{deed.owner} has bought {spec.name} already: the Fandom no longer holds it (IV.1)")
    _buy(ctx, player, spec, say=False)
    close(inters, SEALED_ANSWERS.of(ctx.state), inter, f"{player.name} bought {spec.name}")
    return f"{player.name} bought {spec.name} for {ctx.state.money(spec.price)}."


def set_order(ctx: UpdateContext, player: Player, cmd: BuyOrder) -> str:
    if cmd.what in ("pay-jail-fine", "use-jail-card"):
        board_of(ctx.state).standing[player.name] = "fine" if cmd.what == "pay-jail-fine" else "card"
        return f"{player.name}'s standing order: {cmd.what.replace('-', ' ')} whenever in jail."
    orders = TimoDeedsModule.of(ctx.state).buy_under
    if cmd.what == "ask":
        orders.pop(player.name, None)
        return f"{player.name} will be asked before each purchase."
    orders[player.name] = {"under": cmd.limit, "buy-all": 10**9, "buy-none": -1}[cmd.what]
    said = {"under": f"buy any deed priced {ctx.state.money(cmd.limit)} or less", "buy-all": "buy every deed",
            "buy-none": "buy nothing (every deed goes to auction)"}[cmd.what]
    return f"{player.name}'s standing order: {said}."
