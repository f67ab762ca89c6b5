"""The first Nomopoly's XXIII: chili from the Chili Marts (squares 16, 20 and 24), fed to the Big
Fart, which erupts at the week's end on a random square, harming everyone from there forward over
a range that grows with the week's pounds of chili; the biggest eruption lets those caught recolour
themselves or their square (RECOLOUR)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Sequence

from admin.engine.board import successor
from admin.engine.context import BANK
from admin.engine.declare import As, command, handled
from admin.engine.inventory import Inventory
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly1 import api
from admin.library.health import change_health
from admin.games.nomopoly1.mechanics.grease import fresh
from admin.games.nomopoly1.mechanics.store import COLOURS
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square

#: size -> (pounds, price)
SIZES = {"small": (2, 25), "medium": (4, 50), "large": (6, 75), "xl": (8, 100)}
#: (up to this many pounds, damage, range, name)
ERUPTIONS = [(10, 2, 3, "Infuriating stench"), (20, 5, 5, "Who cut the cheese?"), (40, 7, 7, "The blue flame"),
             (60, 10, 9, "Radioactive fumes"), (10**9, 12, 12, "The atomic bomb")]


_SIZES = "say the size: SMALL (2 lb, $25), MEDIUM (4 lb, $50), LARGE (6 lb, $75) or XL (8 lb, $100)"


def _size(word: str) -> str:
    word = word.lower().replace("extra large", "xl").replace("extra-large", "xl")
    if word not in SIZES:
        raise CommandError(_SIZES)
    return word


def _parse_buy(rest: str, _line: object) -> BuyChili:
    words = rest.split()
    count = 1
    if words and words[-1].lower().lstrip("x").isdecimal():
        count = int(words.pop().lower().lstrip("x"))
    if not 1 <= count <= 10:
        raise CommandError("buy 1 to 10 chilis at a time (you may hold 10)")
    return BuyChili(_size(" ".join(words)), count)


@command("BUY CHILI <size> [count]", keyword="BUY CHILI", usage="BUY CHILI SMALL|MEDIUM|LARGE|XL [xN]",
         parse=_parse_buy, listing=190,
         rules=("XXIII.1",), summary="after passing a Chili Mart (16, 20, 24): chili of 2, 4, 6 or 8 pounds "
                                     "for $25, $50, $75 or $100; 10 at most",
         example="BUY CHILI XL x2")
class BuyChili:
    """``BUY CHILI SMALL|MEDIUM|LARGE|XL [xN]`` (XXIII.1)."""

    size: str
    count: int = 1


@command("FEED FART <size>", keyword="FEED FART", usage="FEED FART SMALL|MEDIUM|LARGE|XL", hint=_SIZES,
         listing=191, rules=("XXIII.3",), summary="feed the Big Fart a chili you hold (two a week at most)",
         example="FEED FART XL")
class FeedFart:
    """``FEED FART SMALL|MEDIUM|LARGE|XL`` (XXIII.3)."""

    size: Annotated[str, As(_size, rest=True)]


def _parse_recolour(rest: str, _line: object) -> Recolour:
    words = rest.lower().split()
    if len(words) != 2 or words[0] not in ("me", "square") or words[1] not in COLOURS:
        raise CommandError(f"write RECOLOUR ME <colour> or RECOLOUR SQUARE <colour> ({', '.join(COLOURS)})")
    return Recolour(words[0], words[1])


@command("RECOLOUR ME|SQUARE <colour>", parse=_parse_recolour, listing=192, rules=("XXIII.4",),
         summary="caught in the atomic bomb: take any colour for yourself or your square, free",
         example="RECOLOUR ME GREEN")
class Recolour:
    """``RECOLOUR ME|SQUARE <colour>`` after the atomic bomb (XXIII.4)."""

    target: str
    colour: str


@dataclass
class ChiliState:
    chilis: Inventory = field(default_factory=Inventory)
    #: pounds fed to the Big Fart this week, and chilis each player fed it
    pounds: int = 0
    fed: dict[str, int] = field(default_factory=dict)
    #: the update in which a player passed or landed on a Chili Mart: they may buy until their next move
    offers: dict[str, int] = field(default_factory=dict)
    #: players the atomic bomb caught, who may recolour themselves or their square once
    recolour: list[str] = field(default_factory=list)


class ChiliModule(Mechanic[ChiliState, None]):
    name = "chili"
    rules = ("XXIII.1", "XXIII.2", "XXIII.3", "XXIII.4")
    stated = {"XXIII.3": {"feed_per_week": ("up to {} chilis a week",)}}
    defaults = {"marts": [16, 20, 24], "max_held": 10, "feed_per_week": 2,
                # standing ruling: the range counts the squares after the one chosen (range 3:
                # the chosen square and the next 3)
                "range_after_start": True}
    summary = "Chili from the Chili Marts feeds the Big Fart, which harms everyone near where it erupts."
    State = ChiliState
    requires = ("health",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuyChili, buy_chili), (FeedFart, feed_fart), (Recolour, recolour))

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        self.on_pass_over(ctx, player, square.number)

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        if number in [int(n) for n in ctx.params(self.name)["marts"]]:
            self.of(ctx.state).offers[player.name] = ctx.state.update

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        offers = self.of(ctx.state).offers
        if offers.get(player.name, ctx.state.update) < ctx.state.update:
            del offers[player.name]

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end: the eruption (XXIII.4)."""
        if not ctx.slot.week_end:
            return
        cs = self.of(ctx.state)
        pounds, cs.pounds, cs.fed = cs.pounds, 0, {}
        cs.recolour = []
        if pounds <= 0 or not ctx.state.live_squares():
            return
        _, damage, reach, what = next(e for e in ERUPTIONS if pounds <= e[0])
        squares = [s.number for s in ctx.state.live_squares()]
        start = squares[ctx.dice.roll("fart/square", len(squares)) - 1]
        hit = [start]
        extra = reach if ctx.params(self.name)["range_after_start"] else reach - 1
        for _ in range(min(extra, len(squares) - 1)):
            hit.append(successor(ctx.state, hit[-1]))
        ctx.emit("fart", f"The Big Fart ({pounds} lb of chili this week) erupted on square {start}: "
                         f"\u201c{what}\u201d, {damage} damage over squares {', '.join(map(str, hit))}.",
                 rule="XXIII.4", data={"square": start, "squares": hit, "damage": damage})
        sheltered = _sheltered(ctx.state)
        for p in sorted(ctx.state.active_players(), key=lambda p: p.name):
            if p.square in hit and p.square not in sheltered:
                change_health(ctx, p, -damage, rule="XXIII.4", reason="the Big Fart")
                if pounds > ERUPTIONS[3][0] and p.active:
                    cs.recolour.append(p.name)

    def worth(self, state: GameState, player: Player) -> int:  # III.5: an item is worth its price
        return sum(SIZES[size][1] * n for size, n in self.of(state).chilis.items(player.name).items())

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.of(ctx.state).chilis.clear(player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        cs = self.of(state)
        cs.chilis.clear(player.name)
        cs.offers.pop(player.name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "chilis":
            return False
        inv = self.of(state).chilis
        inv.clear(player.name)
        for size, n in dict(value).items():
            if int(n):
                inv.give(player.name, str(size), int(n))
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("chilis", self.of(state).chilis.items(player.name))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if square.number not in [int(n) for n in state.params(self.name).get("marts", self.defaults["marts"])]:
            return None
        return SquareLook(notes=((56, "a Chili Mart"),), flags=((56, "CM", "Chili Mart"),))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        held = self.of(state).chilis.items(player.name)
        lines = [(68, "  Chili: " + (", ".join(f"{s} x{n}" for s, n in held.items()) or "none"))]
        if player.name in self.of(state).recolour:
            lines.append((69, "  The atomic bomb caught you: you may RECOLOUR ME or RECOLOUR SQUARE, once"))
        return lines


def _sheltered(state: GameState) -> set[int]:
    """Air-freshened squares (XVII.3) shelter their players from the Big Fart."""
    if not api.GREASE.on(state):
        return set()
    return {s.number for s in state.live_squares() if fresh(state, s.number)}


def feed_pounds(state: GameState, pounds: int) -> None:
    """Feed the Big Fart without a player (the Blob on a yellow square, XXXI.7)."""
    ChiliModule.of(state).pounds += pounds


def buy_chili(ctx: UpdateContext, player: Player, cmd: BuyChili) -> str:
    cs = ChiliModule.of(ctx.state)
    p = ctx.params("chili")
    if player.name not in cs.offers:
        raise IllegalAction("you have not passed a Chili Mart (squares 16, 20, 24) since your last move (XXIII.1)")
    held = sum(cs.chilis.items(player.name).values())
    if held + cmd.count > int(p["max_held"]):
        raise IllegalAction(f"you hold {held} chilis; 10 at most (XXIII.2)")
    pounds, price = SIZES[cmd.size]
    ctx.transfer(player.name, BANK, price * cmd.count, rule="XXIII.1", reason=f"{cmd.count} {cmd.size} chili",
                 voluntary=True, kind="purchase")
    cs.chilis.give(player.name, cmd.size, cmd.count)
    return f"{player.name} bought {cmd.count} {cmd.size} chili for {ctx.state.money(price * cmd.count)}."


def feed_fart(ctx: UpdateContext, player: Player, cmd: FeedFart) -> str:
    cs = ChiliModule.of(ctx.state)
    if cs.fed.get(player.name, 0) >= int(ctx.params("chili")["feed_per_week"]):
        raise IllegalAction("you fed the Big Fart two chilis this week already (XXIII.3)")
    if not cs.chilis.count(player.name, cmd.size):
        raise IllegalAction(f"you hold no {cmd.size} chili")
    cs.chilis.take(player.name, cmd.size)
    cs.fed[player.name] = cs.fed.get(player.name, 0) + 1
    cs.pounds += SIZES[cmd.size][0]
    return f"{player.name} fed the Big Fart a {cmd.size} chili ({SIZES[cmd.size][0]} lb)."


def recolour(ctx: UpdateContext, player: Player, cmd: Recolour) -> str:
    cs = ChiliModule.of(ctx.state)
    if player.name not in cs.recolour:
        raise IllegalAction("only a player the atomic bomb caught this week may recolour for free (XXIII.4)")
    ps = api.PAINT.get(ctx.state)
    if ps is None:
        raise IllegalAction("there are no colours in this game")
    cs.recolour.remove(player.name)
    if cmd.target == "me":
        ps.players[player.name] = cmd.colour
        return f"{player.name} turned {cmd.colour}."
    ps.squares[player.square] = cmd.colour
    return f"{player.name} turned square {player.square} {cmd.colour}."
