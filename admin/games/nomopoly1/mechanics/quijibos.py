"""The first Nomopoly's XXXIV: Quijibos, bought at the General Store, must be fed every week
(FEED QUIJIBO <food>) or they die; what they eat decides what happens: a lucky donut may pay, a
poison donut turns them rabid (they bite, run and die), sprinkles warp their owner between the
board and the Parallel Universe, a banana does nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import lowest, step
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.donuts import DONUTS, DonutsModule
from admin.games.nomopoly1.mechanics.parallel import Traveller, warp_in
from admin.games.nomopoly1.mechanics.store import items_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

QUIJIBO = "quijibo"
FOODS = {"banana": "banana", "lucky donut": DONUTS[1], "poison donut": DONUTS[0],
         "sprinkles": DONUTS[2], "donut with sprinkles": DONUTS[2], "sprinkles donut": DONUTS[2]}


def _parse_feed(rest: str, _line: object) -> FeedQuijibo:
    food = " ".join(rest.lower().split())
    if food not in FOODS:
        raise CommandError("write FEED QUIJIBO BANANA, LUCKY DONUT, POISON DONUT or SPRINKLES")
    return FeedQuijibo(FOODS[food])


def _parse_bananas(rest: str, _line: object) -> BuyBananas:
    word = rest.strip().lower().lstrip("x")
    if not word.isdecimal() or not 1 <= int(word) <= 100:
        raise CommandError("write BUY BANANAS <how many> (1 to 100, $5 each)")
    return BuyBananas(int(word))


@command("FEED QUIJIBO <food:BANANA|LUCKY DONUT|POISON DONUT|SPRINKLES>", keyword="FEED QUIJIBO", parse=_parse_feed,
         listing=230, rules=("XXXIV.2",), summary="feed one of your Quijibos this week (unfed, it dies at the week's end)",
         example="FEED QUIJIBO LUCKY DONUT")
class FeedQuijibo:
    """``FEED QUIJIBO BANANA|LUCKY DONUT|POISON DONUT|SPRINKLES`` (XXXIV.2)."""

    food: str


@command("BUY BANANAS <count:n>", keyword="BUY BANANAS", parse=_parse_bananas, listing=231, rules=("XXXIV.2",),
         summary="bananas for a Quijibo (or the monkey), $5 each", example="BUY BANANAS 3")
class BuyBananas:
    """``BUY BANANAS <n>`` (XXXIV.2, XXIV.2)."""

    count: int


@dataclass
class QuijiboState:
    #: how many of each player's Quijibos have eaten this week
    fed: dict[str, int] = field(default_factory=dict)


class QuijiboModule(Mechanic[QuijiboState, None]):
    name = "quijibos"
    rules = ("XXXIV.1", "XXXIV.2", "XXXIV.3", "XXXIV.4", "XXXIV.5", "XXXIV.6", "XXXIV.7")
    stated = {"XXXIV.4": {"rabid_bite": ("it bites its owner ({} health)",),
                          "rabid_harm": ("on those squares loses {} health",)}}
    defaults = {"banana_price": 5, "lucky": [0, 500, 500, 1000], "rabid_bite": 10, "rabid_run": 4,
                "rabid_harm": 5}
    #: the sides of the die a rabid Quijibo's run is rolled on: squares stepped (issue 30)
    maximums = {"rabid_run": 1000}
    minimums = {"rabid_run": 1}
    summary = "Quijibos must be fed each week; a donut may pay, poison turns them rabid."
    State = QuijiboState
    requires = ("store", "donuts")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((FeedQuijibo, feed), (BuyBananas, buy_bananas))

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end: every Quijibo that did not eat dies (XXXIV.7)."""
        if not ctx.slot.week_end:
            return
        qs = self.of(ctx.state)
        inv = items_of(ctx.state)
        for player in sorted(ctx.state.active_players(), key=lambda p: p.name):
            hungry = inv.count(player.name, QUIJIBO) - qs.fed.get(player.name, 0)
            if hungry > 0:
                inv.take(player.name, QUIJIBO, hungry)
                ctx.emit("quijibo", f"{player.name}'s {hungry} unfed Quijibo{'s' if hungry > 1 else ''} died.",
                         player=player.name, rule="XXXIV.7")
        qs.fed = {}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).fed.pop(player.name, None)


def buy_bananas(ctx: UpdateContext, player: Player, cmd: BuyBananas) -> str:
    price = int(ctx.params("quijibos")["banana_price"]) * cmd.count
    ctx.transfer(player.name, BANK, price, rule="XXXIV.2", reason="bananas", voluntary=True, kind="purchase")
    items_of(ctx.state).give(player.name, "banana", cmd.count)
    return f"{player.name} bought {cmd.count} banana{'s' if cmd.count > 1 else ''} for {ctx.state.money(price)}."


def feed(ctx: UpdateContext, player: Player, cmd: FeedQuijibo) -> str:
    qs = QuijiboModule.of(ctx.state)
    inv = items_of(ctx.state)
    if inv.count(player.name, QUIJIBO) <= qs.fed.get(player.name, 0):
        raise IllegalAction("you have no hungry Quijibo (buy one at a General Store: BUY QUIJIBO)")
    held = inv if cmd.food == "banana" else DonutsModule.of(ctx.state).held
    if not held.count(player.name, cmd.food):
        raise IllegalAction(f"you have no {cmd.food} to feed it")
    held.take(player.name, cmd.food)
    qs.fed[player.name] = qs.fed.get(player.name, 0) + 1
    p = ctx.params("quijibos")
    if cmd.food == DONUTS[1]:  # XXXIV.3
        won = int(p["lucky"][ctx.dice.roll(f"quijibo/{player.name}/lucky", len(p["lucky"])) - 1])
        if won:
            ctx.transfer(BANK, player.name, won, rule="XXXIV.3", reason="a Quijibo fed a lucky donut", kind="prize")
        return f"{player.name} fed their Quijibo a lucky donut: " + (f"it brought {ctx.state.money(won)}." if won
                                                                     else "nothing came of it.")
    if cmd.food == DONUTS[0]:  # XXXIV.4
        return _rabid(ctx, player, p)
    if cmd.food == DONUTS[2]:  # XXXIV.5: between the board and the Parallel Universe, not landing
        pu = api.PARALLEL.get(ctx.state)
        if pu is None:
            raise IllegalAction("this game has no Parallel Universe for the sprinkles to send you to")
        if player.name in pu.inside:
            del pu.inside[player.name]
            player.square = lowest(ctx.state)
            return f"{player.name} fed their Quijibo a Donut with Sprinkles and is back on square {player.square}."
        warp_in(ctx, player, Traveller("square", lowest(ctx.state)), "a Quijibo fed sprinkles")
        return f"{player.name} fed their Quijibo a Donut with Sprinkles."
    return f"{player.name} fed their Quijibo a banana."  # XXXIV.6


def _rabid(ctx: UpdateContext, player: Player, p: dict[str, Any]) -> str:
    change_health(ctx, player, -int(p["rabid_bite"]), rule="XXXIV.4", reason="bitten by their rabid Quijibo")
    directions = ("north", "south", "east", "west")
    direction = directions[ctx.dice.roll(f"quijibo/{player.name}/direction", 4) - 1]
    run = ctx.dice.roll(f"quijibo/{player.name}/run", int(p["rabid_run"]))
    columns = int(ctx.params("board").get("columns", 10))
    path = [player.square]
    for _ in range(run):
        nxt = step(ctx.state, path[-1], direction, columns)  # type: ignore[arg-type]
        if nxt is None:
            break  # the edge of the board stops it
        path.append(nxt)
    for victim in sorted(ctx.state.active_players(), key=lambda pl: pl.name):
        if victim.name != player.name and victim.square in path:
            change_health(ctx, victim, -int(p["rabid_harm"]), rule="XXXIV.4", reason="bitten by a rabid Quijibo")
    items_of(ctx.state).take(player.name, QUIJIBO)
    QuijiboModule.of(ctx.state).fed[player.name] -= 1
    return (f"{player.name}'s Quijibo ate a poison donut, went rabid, ran {run} {direction} over squares "
            f"{', '.join(map(str, path))} and died.")
