"""The first Nomopoly's XII: donut places on squares ending in 0, antidote shops on squares ending
in 8, and what the three donuts do (poison hurts and turns every second week's moves backwards;
a lucky donut is worth $500 or a gift; sprinkles do nothing here, but feed the Dirty Bubble)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.inventory import Inventory
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import name_arg, no_args
from admin.engine.errors import IllegalAction
from admin.library.health import change_health
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square

#: the three donuts, in the order of the d3 that picks one (XII.2)
DONUTS = ("poison donut", "lucky donut", "sprinkles donut")
ANTIDOTE = "antidote"


def _bare(keyword: str, make: Callable[[], object]) -> Callable[[str, object], object]:
    def parse(rest: str, _line: object) -> object:
        no_args(keyword, rest)
        return make()
    return parse


@command("BUY ANTIDOTE", keyword="BUY ANTIDOTE", parse=_bare("BUY ANTIDOTE", lambda: BuyAntidote()), listing=120,
         rules=("XII.4",), summary="after passing an antidote shop (a square ending in 8), buy an antidote for $150",
         example="BUY ANTIDOTE")
class BuyAntidote:
    """``BUY ANTIDOTE`` after passing an antidote shop (XII.4)."""


@command("USE ANTIDOTE", keyword="USE ANTIDOTE", parse=_bare("USE ANTIDOTE", lambda: UseAntidote()), listing=121,
         rules=("XII.4",), summary="cure one poison donut you hold", example="USE ANTIDOTE")
class UseAntidote:
    """``USE ANTIDOTE``: cures one poison donut (XII.4)."""


@command("CASH DONUT", keyword="CASH DONUT", parse=_bare("CASH DONUT", lambda: CashDonut()), listing=122,
         rules=("XII.5",), summary="cash in a lucky donut for $500", example="CASH DONUT")
class CashDonut:
    """``CASH DONUT``: a lucky donut for $500 (XII.5)."""


def _parse_give(rest: str, _line: object) -> GiveDonut:
    return GiveDonut(name_arg(rest, "the player to give it to", "GIVE DONUT bob"))


@command("GIVE DONUT <player>", keyword="GIVE DONUT", parse=_parse_give, listing=123, rules=("XII.5",),
         summary="give a lucky donut to another player", example="GIVE DONUT bob")
class GiveDonut:
    """``GIVE DONUT <player>``: a lucky donut to another player (XII.5)."""

    to: str


@dataclass
class DonutsState:
    #: the donuts and antidotes each player holds (public: III.2 asks who holds a poison donut)
    held: Inventory = field(default_factory=Inventory)
    #: weeks that ended while the player held a poison donut (the second, fourth ... go backwards)
    poisoned_weeks: dict[str, int] = field(default_factory=dict)
    #: the update in which a player passed an antidote shop: they may buy one until their next move
    antidote_offer: dict[str, int] = field(default_factory=dict)


class DonutsModule(Mechanic[DonutsState, None]):
    name = "donuts"
    rules = ("XII.1", "XII.2", "XII.3", "XII.4", "XII.5", "XII.6")
    stated = {"XII.3": {"poison_health_loss": ("Poison Donut loses {} health each turn",)},
              "XII.4": {"shop_digit": ("whose number ends in {} has an antidote shop",),
                        "antidote_price": ("buy an antidote for ${}",)},
              "XII.5": {"lucky_cash": ("may be cashed in for ${}",)}}
    defaults = {"place_digit": 0, "shop_digit": 8, "antidote_price": 150, "lucky_cash": 500,
                "poison_health_loss": 5,
                # standing ruling: does landing on an antidote shop count as passing it? (XII.4
                # says "passes over")
                "antidote_on_landing": False}
    summary = "Donut places on squares ending in 0, antidote shops on squares ending in 8."
    State = DonutsState
    requires = ("health",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuyAntidote, buy_antidote), (UseAntidote, use_antidote), (CashDonut, cash_donut),
                       (GiveDonut, give_donut))

    # -- the board -------------------------------------------------------------------------
    def _digit(self, state: GameState, key: str, number: int) -> bool:
        return number % 10 == int(state.params(self.name).get(key, self.defaults[key]))

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if self._digit(ctx.state, "place_digit", square.number):
            face = ctx.dice.roll(f"donut/{player.name}/{ctx.landing_order}", len(DONUTS))
            donut = DONUTS[face - 1]
            self.of(ctx.state).held.give(player.name, donut)
            ctx.emit("donut", f"{player.name} took a {donut} at the donut place on square "
                              f"{square.number}.", player=player.name, rule="XII.2", native=True,
                     data={"donut": donut, "square": square.number})
        if ctx.params(self.name)["antidote_on_landing"]:
            self.on_pass_over(ctx, player, square.number)

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        if self._digit(ctx.state, "shop_digit", number):
            self.of(ctx.state).antidote_offer[player.name] = ctx.state.update

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        offers = self.of(ctx.state).antidote_offer
        if offers.get(player.name, ctx.state.update) < ctx.state.update:  # lapses at the next move
            del offers[player.name]

    def moves_backwards(self, ctx: UpdateContext, player: Player) -> bool:
        return poisoned_backwards(ctx.state, player.name)

    def on_turns(self, ctx: UpdateContext) -> None:
        """At the end of each week, before the next week's moves: poison hurts (XII.3)."""
        if not ctx.slot.week_end:
            return
        ds = self.of(ctx.state)
        loss = int(ctx.params(self.name)["poison_health_loss"])
        for name in sorted(ds.held.held):
            player = ctx.state.players.get(name)
            poisons = ds.held.count(name, DONUTS[0])
            if player is None or not player.active or not poisons:
                continue
            ds.poisoned_weeks[name] = ds.poisoned_weeks.get(name, 0) + 1
            change_health(ctx, player, -loss * poisons, rule="XII.3",
                          reason=f"{poisons} poison donut{'s' if poisons > 1 else ''}")

    def trade_inventory(self, state: GameState, player: str, item: str) -> Inventory | None:
        # XX.1: a trade gives donuts and antidotes from here
        inv = self.of(state).held
        return inv if inv.count(player, item) > 0 else None

    def worth(self, state: GameState, player: Player) -> int:
        """III.5: a lucky donut is worth what it cashes for, an antidote its price; the others nothing."""
        p = {**self.defaults, **state.params(self.name)}
        held = self.of(state).held
        return (held.count(player.name, DONUTS[1]) * int(p["lucky_cash"])
                + held.count(player.name, ANTIDOTE) * int(p["antidote_price"]))

    # -- lives -----------------------------------------------------------------------------
    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self._forget(ctx.state, player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self._forget(state, player.name)

    def _forget(self, state: GameState, name: str) -> None:
        ds = self.of(state)
        ds.held.clear(name)
        ds.poisoned_weeks.pop(name, None)
        ds.antidote_offer.pop(name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        ds = self.of(state)
        if key == "donuts":  # {"poison donut": 1, ...}
            ds.held.clear(player.name)
            for item, n in dict(value).items():
                if int(n):
                    ds.held.give(player.name, str(item), int(n))
        elif key == "poisoned_weeks":
            ds.poisoned_weeks[player.name] = int(value)
        else:
            return False
        return True

    # -- how it shows ----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        held = self.of(state).held.items(player.name)
        text = ", ".join(f"{n} {item}{'s' if n > 1 else ''}" for item, n in held.items()) or "none"
        return [Fact("donuts", held),
                Fact("donuts_text", text, label="Donuts and antidotes", column="Donuts", order=70, kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if self._digit(state, "place_digit", square.number):
            return SquareLook(notes=((60, "a donut place"),), flags=((60, "DN", "donut place"),))
        if self._digit(state, "shop_digit", square.number):
            return SquareLook(notes=((60, "an antidote shop"),), flags=((60, "AN", "antidote shop"),))
        return None

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        ds = self.of(state)
        held = ds.held.items(player.name)
        lines = [(60, "  Donuts: " + (", ".join(f"{item} x{n}" for item, n in held.items()) or "none"))]
        if player.name in ds.antidote_offer:
            lines.append((61, "  You passed an antidote shop: you may BUY ANTIDOTE until your next move"))
        if poisoned_backwards(state, player.name):
            lines.append((62, "  Your poison donut sends your next week's moves backwards"))
        return lines


def poisoned_backwards(state: GameState, name: str) -> bool:
    """XII.3: a poison donut held for an odd number of finished weeks turns this week's moves back
    (the week after it was taken, then every second week)."""
    ds = DonutsModule.of(state)
    return bool(ds.held.count(name, DONUTS[0])) and ds.poisoned_weeks.get(name, 0) % 2 == 1


def buy_antidote(ctx: UpdateContext, player: Player, cmd: BuyAntidote) -> str:
    ds = DonutsModule.of(ctx.state)
    if player.name not in ds.antidote_offer:
        raise IllegalAction("you have not passed an antidote shop (a square ending in 8) since your "
                            "last move (XII.4)")
    price = int(ctx.params("donuts")["antidote_price"])
    ctx.transfer(player.name, BANK, price, rule="XII.4", reason="an antidote", voluntary=True, kind="purchase")
    ds.held.give(player.name, ANTIDOTE)
    return f"{player.name} bought an antidote for {ctx.state.money(price)}."


def use_antidote(ctx: UpdateContext, player: Player, cmd: UseAntidote) -> str:
    ds = DonutsModule.of(ctx.state)
    if not ds.held.count(player.name, ANTIDOTE):
        raise IllegalAction("you have no antidote; buy one after passing an antidote shop (BUY ANTIDOTE)")
    if not ds.held.count(player.name, DONUTS[0]):
        raise IllegalAction("you hold no poison donut to cure")
    ds.held.take(player.name, ANTIDOTE)
    ds.held.take(player.name, DONUTS[0])
    if not ds.held.count(player.name, DONUTS[0]):
        ds.poisoned_weeks.pop(player.name, None)
    return f"{player.name} used an antidote and is cured of a poison donut."


def cash_donut(ctx: UpdateContext, player: Player, cmd: CashDonut) -> str:
    ds = DonutsModule.of(ctx.state)
    if not ds.held.count(player.name, DONUTS[1]):
        raise IllegalAction("you hold no lucky donut")
    ds.held.take(player.name, DONUTS[1])
    amount = int(ctx.params("donuts")["lucky_cash"])
    ctx.transfer(BANK, player.name, amount, rule="XII.5", reason="a lucky donut cashed in", kind="bonus")
    return f"{player.name} cashed in a lucky donut for {ctx.state.money(amount)}."


def give_donut(ctx: UpdateContext, player: Player, cmd: GiveDonut) -> str:
    ds = DonutsModule.of(ctx.state)
    target = ctx.state.players.get(cmd.to)
    if target is None or not target.active:
        raise IllegalAction(f"there is no player {cmd.to!r} in the game")
    if target.name == player.name:
        raise IllegalAction("give it to another player, or CASH DONUT")
    if not ds.held.count(player.name, DONUTS[1]):
        raise IllegalAction("you hold no lucky donut (only a lucky donut may be given, XII.5)")
    ds.held.transfer(player.name, target.name, DONUTS[1])
    return f"{player.name} gave a lucky donut to {target.name}."
