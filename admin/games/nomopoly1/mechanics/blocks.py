"""The first Nomopoly's XXI: a block is two or more squares side by side in a row or a column of the
grid, owned by one player and painted one colour. A block's squares charge two, four or seven times
the rent (blocks of 2, 3, 4 or more); landing on one heals a point per square; a player with two
blocks of one colour must recolour a square of one, free (FIX BLOCK)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

from admin.engine.board import layout_of
from admin.engine.layouts import layout
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.api import OWNERSHIP
from admin.library.health import change_health
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.paint import PaintModule
from admin.games.nomopoly1.mechanics.store import COLOURS
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square


def _parse(rest: str, _line: object) -> FixBlock:
    words = rest.split()
    if len(words) < 2 or words[-1].lower() not in COLOURS:
        raise CommandError(f"write FIX BLOCK <square> <colour> ({', '.join(COLOURS)})")
    return FixBlock(parse_square(" ".join(words[:-1])), words[-1].lower())


@command("FIX BLOCK <square> <colour>", keyword="FIX BLOCK", parse=_parse, listing=290, rules=("XXI.4",),
         summary="with two blocks of one colour, recolour a square of one of them, free", example="FIX BLOCK 14 BLUE")
class FixBlock:
    """``FIX BLOCK <square> <colour>`` (XXI.4)."""

    square: int
    colour: str


def blocks(state: GameState) -> list[tuple[str, str, list[int]]]:
    """Every block: (owner, colour, its squares in order). A square in both a row's run and a
    column's belongs to the longer (the row's when they tie), a standing ruling."""
    columns = int(state.params("board").get("columns", 10))
    paint = api.PAINT.get(state)
    if not layout_of(state, columns).compass or paint is None:
        return []
    owners, colours = OWNERSHIP.of(state).owners, paint.squares
    # the same board, owners and colours give the same blocks: a site build asks for each square
    return _blocks(state.layout, columns, len(state.squares),
                   frozenset(s.number for s in state.squares if s.destroyed),
                   frozenset((n, o) for n, o in owners.items() if n in colours),
                   frozenset(colours.items()))


@lru_cache(maxsize=64)
def _blocks(layout_name: str, columns: int, count: int, destroyed: frozenset[int],
            owners: frozenset[tuple[int, str]], colours: frozenset[tuple[int, str]]) -> list[tuple[str, str, list[int]]]:
    lay = layout(layout_name, columns)
    owner_of_, colour_of_ = dict(owners), dict(colours)

    def key(n: int | None) -> tuple[str, str] | None:
        if n is None or n in destroyed or n not in owner_of_ or n not in colour_of_:
            return None
        return owner_of_[n], colour_of_[n]

    runs: list[list[int]] = []
    rows, cols = lay.size(count)
    for horizontal in (True, False):
        for a in range(rows if horizontal else cols):
            run: list[int] = []
            for b in range(cols if horizontal else rows):
                n = lay.number_at(a, b, count) if horizontal else lay.number_at(b, a, count)
                if run and key(n) is not None and key(n) == key(run[-1]):
                    run.append(n)  # type: ignore[arg-type]
                    continue
                if len(run) >= 2:
                    runs.append(run)
                run = [n] if key(n) is not None else []  # type: ignore[list-item]
            if len(run) >= 2:
                runs.append(run)
    taken: set[int] = set()
    out = []
    for run in sorted(runs, key=lambda r: -len(r)):  # stable: rows before columns on a tie
        if not taken & set(run):
            taken |= set(run)
            owner, colour = key(run[0])  # type: ignore[misc]
            out.append((owner, colour, sorted(run)))
    return sorted(out, key=lambda b: b[2])


def block_of(state: GameState, number: int) -> list[int]:
    return next((sq for _, _, sq in blocks(state) if number in sq), [])


class BlocksModule(Mechanic[None, None]):
    name = "colour-blocks"
    rules = ("XXI.1", "XXI.2", "XXI.3", "XXI.4", "XXI.5")
    # rent multiplier by the block's size (4 or more: the last)
    defaults = {"multipliers": [2, 4, 7]}
    summary = "Blocks of one owner's squares in one colour multiply rent by 2, 4 or 7 and heal who lands."
    requires = ("paint", "ownership")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((FixBlock, fix_block))

    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        size = len(block_of(ctx.state, square.number))
        if size < 2:
            return rent
        mult = [int(m) for m in ctx.params(self.name)["multipliers"]]
        return rent * mult[min(size, len(mult) + 1) - 2]

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        size = len(block_of(ctx.state, square.number))
        if size >= 2:
            change_health(ctx, player, size, rule="XXI.5", reason=f"landing on a block of {size}")

    def on_update_end(self, ctx: UpdateContext) -> None:
        """XXI.4: who owns two blocks of one colour must fix it."""
        seen: dict[tuple[str, str], int] = {}
        for owner, colour, _ in blocks(ctx.state):
            seen[(owner, colour)] = seen.get((owner, colour), 0) + 1
        for (owner, colour), n in sorted(seen.items()):
            if n > 1:
                ctx.emit("blocks", f"{owner} owns {n} {colour} blocks: one square of one of them must be "
                                   "recoloured (FIX BLOCK <square> <colour>, free; XXI.4).", player=owner,
                         rule="XXI.4")

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        mine = [sq for owner, _, sq in blocks(state) if owner == player.name]
        return [Fact("blocks", len(mine), label="Blocks", column="Blocks", order=35),
                Fact("largest_block", max((len(sq) for sq in mine), default=0))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        size = len(block_of(state, square.number))
        if size < 2:
            return None
        return SquareLook(notes=((16, f"in a block of {size}"),), flags=((16, f"B{size}", "a block of that size"),))


def fix_block(ctx: UpdateContext, player: Player, cmd: FixBlock) -> str:
    mine = [(colour, sq) for owner, colour, sq in blocks(ctx.state) if owner == player.name]
    colour = next((c for c, sq in mine if cmd.square in sq), None)
    if colour is None:
        raise IllegalAction(f"square {cmd.square} is in none of your blocks")
    if sum(1 for c, _ in mine if c == colour) < 2:
        raise IllegalAction(f"you have one {colour} block only; the free recolouring is for two of one colour (XXI.4)")
    PaintModule.of(ctx.state).squares[cmd.square] = cmd.colour
    return f"{player.name} recoloured square {cmd.square} {cmd.colour}, free (XXI.4)."
