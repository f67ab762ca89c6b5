"""Nomopoly II XVII: railroads. An owner builds one on a square they own ($25); a player standing
on a railroad rides it to any square joined to theirs by a chain of railroads (north, south, east
or west steps, XVII.3), paying a toll to the owner of each square on the way, and lands nowhere.

Standing rulings (docs/rulings.md): the path is the shortest chain (ties: the one through lower
numbered squares first); the toll is paid for every square after the start, the destination
included (``toll_start``, ``toll_end``); nobody pays themselves, and an unowned square takes no
toll. A railroad stays on its square when the square changes hands, and goes with a destroyed
square."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from admin.engine.board import neighbours
from admin.engine.commands import LATER
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.syntax import parse_square
from admin.engine.errors import IllegalAction
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square
    from admin.engine.module import CommandSpec


def _square_after(word: str) -> Callable[[str, object], int]:
    """A parser for ``[word] <square>``: the preposition is optional (ON 14, or just 14)."""
    def parse(rest: str, line: object) -> int:
        return parse_square(re.sub(rf"^{word}\s+", "", rest.strip(), flags=re.IGNORECASE))
    return parse


def _parse_build(rest: str, line: object) -> BuildRailroad:
    from admin.library.payment import split_on_credit

    rest, on_credit = split_on_credit(rest)
    return BuildRailroad(_square_after("on")(rest, line), on_credit)


def _parse_ride(rest: str, line: object) -> RideRailroad:
    return RideRailroad(_square_after("to")(rest, line))


def _parse_remove(rest: str, line: object) -> RemoveRailroad:
    return RemoveRailroad(_square_after("from")(rest, line))


@command("BUILD RAILROAD ON <square>", keyword="BUILD RAILROAD", parse=_parse_build, listing=110,
         summary="build a railroad station on a square you own", example="BUILD RAILROAD ON 14",
         rules=("XVII.1",))
class BuildRailroad:
    """``BUILD RAILROAD ON <square>`` (XVII.1)."""

    square: int
    #: ``... ON CREDIT``: on the player's credit card (Nomopoly II XXVIII.1)
    on_credit: bool = field(default=False, metadata=LATER)


@command("RIDE RAILROAD TO <square>", keyword="RIDE RAILROAD", parse=_parse_ride, listing=111,
         summary="from a station you stand on, ride to another station instead of your next roll",
         example="RIDE RAILROAD TO 25", rules=("XVII.3",))
class RideRailroad:
    """``RIDE RAILROAD TO <square>`` (XVII.2)."""

    square: int


@command("REMOVE RAILROAD FROM <square>", keyword="REMOVE RAILROAD", parse=_parse_remove, listing=112,
         summary="take down a station on a square you own", example="REMOVE RAILROAD FROM 14",
         rules=("XVII.4",))
class RemoveRailroad:
    """``REMOVE RAILROAD FROM <square>`` (XVII.4)."""

    square: int


@dataclass
class RailroadsState:
    #: the squares with a railroad, in order
    squares: list[int] = field(default_factory=list)


class RailroadsModule(Mechanic[RailroadsState, None]):
    name = "railroads"
    rules = ("XVII.1", "XVII.2", "XVII.3", "XVII.4")
    stated = {"XVII.1": {"build_cost": ("a square they own, for ${}",)}}
    defaults = {"build_cost": 25, "toll": 5, "toll_start": False, "toll_end": True}
    summary = "Build a railroad on a square you own ($25); ride a chain of railroads, $5 a square to its owners."
    State = RailroadsState
    requires = ("board", "ownership")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuildRailroad, build), (RideRailroad, ride), (RemoveRailroad, remove))

    def on_square_added(self, state: GameState, square: Square) -> None:
        rs = self.of(state)
        rs.squares = [n for n in rs.squares if n != square.number]

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "railroad":
            return False
        rs = self.of(state)
        rs.squares = sorted((set(rs.squares) | {square.number}) if value else (set(rs.squares) - {square.number}))
        return True

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("railroad", square.number in self.of(state).squares)]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if square.number not in self.of(state).squares:
            return None
        return SquareLook(notes=((50, "a railroad"),), flags=((50, "RR", "railroad"),))

    def panels(self, state: GameState) -> list[Panel]:
        params = {**self.defaults, **state.params(self.name)}
        columns = int(state.params("board").get("columns", 10))
        rows = tuple((n, sq.name or "", owner_of(state, n) or "nobody",
                      ", ".join(str(m) for m in _joined(state, n, self.of(state).squares, columns)) or "none")
                     for n in self.of(state).squares if (sq := state.square(n)) is not None)
        intro = (f"A railroad costs {state.money(params['build_cost'])} to build on a square you own "
                 f"(XVII.1). From a railroad you may ride to any square joined to it by a chain of "
                 f"railroads, paying {state.money(params['toll'])} to the owner of each square on the "
                 "way (XVII.2–XVII.3).")
        return [Panel("railroads", "Railroads", intro,
                      (Table("Every railroad", ("Square", "Name", "Owner", "Next to railroads on"), rows),),
                      order=17)]


def _owned_square(ctx: UpdateContext, player: Player, number: int, verb: str) -> None:
    square = ctx.state.square(number)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {number} on the board")
    owner = owner_of(ctx.state, number)
    if owner != player.name:
        raise IllegalAction(f"you may {verb} a railroad only on a square you own (XVII.1, XVII.4); "
                            f"square {number} is owned by {owner or 'nobody'}")


def build(ctx: UpdateContext, player: Player, cmd: BuildRailroad) -> str:
    _owned_square(ctx, player, cmd.square, "build")
    rs = RailroadsModule.of(ctx.state)
    if cmd.square in rs.squares:
        raise IllegalAction(f"square {cmd.square} has a railroad already; a square holds one at most (XVII.1)")
    cost = int(ctx.params("railroads")["build_cost"])
    from admin.library.payment import charge

    charge(ctx, player.name, BANK, cost, rule="XVII.1", reason=f"a railroad on square {cmd.square}",
           on_credit=cmd.on_credit)
    rs.squares = sorted(rs.squares + [cmd.square])
    return f"{player.name} built a railroad on square {cmd.square} for ${cost}."


def remove(ctx: UpdateContext, player: Player, cmd: RemoveRailroad) -> str:
    _owned_square(ctx, player, cmd.square, "remove")
    rs = RailroadsModule.of(ctx.state)
    if cmd.square not in rs.squares:
        raise IllegalAction(f"square {cmd.square} has no railroad to remove")
    rs.squares = [n for n in rs.squares if n != cmd.square]
    return f"{player.name} removed the railroad from square {cmd.square}."


def path(state: GameState, start: int, end: int, columns: int = 10) -> list[int] | None:
    """The shortest chain of railroad squares from ``start`` to ``end`` (both included), by
    north, south, east and west steps (XVII.2-3); ties go through lower numbers first. None: not
    connected."""
    rails = set(RailroadsModule.of(state).squares)
    if start not in rails or end not in rails:
        return None
    came: dict[int, int | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == end:
            out = [here]
            while came[out[-1]] is not None:
                out.append(came[out[-1]])  # type: ignore[arg-type]
            return out[::-1]
        for n in sorted(neighbours(state, here, columns)):
            if n in rails and n not in came:
                came[n] = here
                queue.append(n)
    return None


def ride(ctx: UpdateContext, player: Player, cmd: RideRailroad) -> str:
    here = player.square
    if here not in RailroadsModule.of(ctx.state).squares:
        raise IllegalAction(f"you are on square {here}, which has no railroad; a ride starts on a "
                            "railroad square (XVII.2)")
    if cmd.square == here:
        raise IllegalAction(f"you are on square {here} already")
    columns = int(ctx.params("board").get("columns", 10))
    route = path(ctx.state, here, cmd.square, columns)
    if route is None:
        raise IllegalAction(f"square {cmd.square} is not joined to square {here} by railroads "
                            "(north, south, east or west steps over railroad squares, XVII.2)")
    p = ctx.params("railroads")
    paying = route[(0 if p["toll_start"] else 1):(None if p["toll_end"] else -1)]
    tolls: dict[str, int] = {}
    for number in paying:
        owner = owner_of(ctx.state, number)
        if owner is not None and owner != player.name and ctx.state.players[owner].active:
            tolls[owner] = tolls.get(owner, 0) + int(p["toll"])
    total = sum(tolls.values())
    if player.money - total < 0:
        raise IllegalAction(f"the ride costs ${total} in tolls and you have ${player.money}; no "
                            "voluntary action may make a player bankrupt (IV.3)")
    for owner, amount in sorted(tolls.items()):
        ctx.transfer(player.name, owner, amount, rule="XVII.2",
                     reason=f"railroad tolls from square {here} to square {cmd.square}", voluntary=True,
                     kind="rent")
    player.square = cmd.square  # a ride lands on no square (XVII.2): no rent, no right to buy
    paid = f", paying ${total} in tolls" if total else ""
    return (f"{player.name} rode the railroad from square {here} to square {cmd.square} via "
            f"{', '.join(map(str, route[1:-1])) or 'no other square'}{paid}.")


def _joined(state: GameState, number: int, rails: list[int], columns: int) -> list[int]:
    """The railroad squares next to ``number`` (north, south, east or west, XVII.3)."""
    return sorted(m for m in neighbours(state, number, columns) if m in rails and m != number)
