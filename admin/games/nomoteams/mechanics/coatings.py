"""XIII.9-XIII.13: coatings. A square has at most one coating (XIII.13): Tefflon ($300 to put on a
square one owns, $300 to take off; nothing recolours it, XIII.9, XIII.10), glue ($10 x the
square's number, on a square one owns or occupies, XIII.11) or grease (on a square one owns,
XIII.12).

Glue affects any player but the square's owner, on a normal turn (a turn of VII, speeding ones
too), and is removed once it has: starting the turn on it she rolls one die fewer (one die
fewer than one: she does not move); passing through it costs one pip of the move (the core's
``pips_lost``); if that pip leaves her on the glued square, its owner collects no rent from her
while she stays there. Grease: whoever would land on a greased square lands on the next one
instead (the core's ``redirect_landing``, which slides on over several), players and the pieces
the Admin moves (XXXIII) alike; the grease stays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import successor
from admin.engine.declare import Square, command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.capabilities import SlowsMoves
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import GOVERNMENT, add_mark, check_square, marked, owner_of
from admin.games.nomoteams.mechanics.turns import one_die

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.engine.model import Square as BoardSquare

TEFFLON, GLUE, GREASE = "Tefflon", "glue", "grease"
_FLAGS = {TEFFLON: ("TF", "coated in Tefflon"), GLUE: ("GL", "glued"), GREASE: ("GR", "greased")}


@dataclass
class CoatingsState:
    #: square -> its one coating (XIII.13): Tefflon, glue or grease
    coatings: dict[int, str] = field(default_factory=dict)
    #: player -> the square glue stopped her on (XIII.11): no rent to its owner while she stays
    glued_in: dict[str, int] = field(default_factory=dict)
    #: player -> the dice she rolls this turn, having started it on glue (one fewer than usual)
    fewer_dice: dict[str, int] = field(default_factory=dict)


@command("TEFFLON <square:n>", fixed={"coating": TEFFLON}, hint="TEFFLON needs a square you own, like TEFFLON 14.",
         cmd="teams-coat", listing=134, rules=("XIII.9",), example="TEFFLON 14",
         summary="coat a square you own in Tefflon ($300): nothing can recolour it")
@command("DETEFFLON <square:n>", fixed={"coating": TEFFLON, "remove": True},
         hint="DETEFFLON needs a square you own, like DETEFFLON 14.", listing=135, rules=("XIII.10",),
         example="DETEFFLON 14", summary="remove the Tefflon from a square you own ($300)")
@command("GLUE [<square:n>]", usage="GLUE [n]", fixed={"coating": GLUE}, listing=136, rules=("XIII.11",),
         example="GLUE 14", summary="glue a square you own, or the one you occupy ($10 x its number): "
                                    "the next other player starting there rolls a die fewer, or passing loses a pip")
@command("GREASE <square:n>", fixed={"coating": GREASE}, hint="GREASE needs a square you own, like GREASE 14.",
         listing=137, rules=("XIII.12",), example="GREASE 14",
         summary="grease a square you own: whoever would land there lands on the next one")
class Coat:
    """``TEFFLON <n>``, ``GLUE [n]``, ``GREASE <n>`` (XIII.9, XIII.11, XIII.12); ``DETEFFLON <n>``
    (XIII.10) is ``remove``; ``square`` None: the square one occupies (glue only)."""

    coating: str
    square: Square | None = None
    remove: bool = False


class CoatingsModule(Mechanic[CoatingsState, None], SlowsMoves):
    name = "teams-coatings"
    rules = ("XIII.9", "XIII.10", "XIII.11", "XIII.12", "XIII.13")
    stated = {"XIII.9": {"tefflon_cost": ("For ${} a player may coat",)},
              "XIII.10": {"detefflon_cost": ("For ${} a player may remove",)},
              "XIII.11": {"glue_per_number": ("for ${} times the square's number",)}}
    defaults = {"tefflon_cost": 300, "detefflon_cost": 300, "glue_per_number": 10, "grease_cost": 0,
                "coating_payee": GOVERNMENT}
    minimums = {"tefflon_cost": 0, "detefflon_cost": 0, "glue_per_number": 0, "grease_cost": 0}
    summary = "Tefflon (no recolouring), glue (one die or one pip fewer, no rent) and grease (slide on)."
    State = CoatingsState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Coat, coat))

    def on_square_added(self, state: GameState, square: BoardSquare) -> None:
        self.of(state).coatings.pop(square.number, None)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).glued_in.pop(player.name, None)

    def set_square(self, state: GameState, square: BoardSquare, key: str, value: Any) -> bool:
        if key != "coating":
            return False
        if value in (None, "", "none"):
            self.of(state).coatings.pop(square.number, None)
        else:
            kinds = {k.lower(): k for k in _FLAGS}
            if str(value).lower() not in kinds:
                raise CommandError(f"coating: {value!r} is not one of {', '.join(_FLAGS)} (or none)")
            self.of(state).coatings[square.number] = kinds[str(value).lower()]
        return True

    # -- glue: starting on it (XIII.11) -------------------------------------------------------
    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        glued = api.GLUED.peek(ctx)
        if glued is not None:
            glued.pop(player.name, None)
        number = player.square
        if not _normal_turn(ctx, player) or not _affects(ctx.state, player.name, number):
            return
        usual = 1 if one_die(ctx.state, player.name) else 2
        self.of(ctx.state).fewer_dice[player.name] = usual - 1
        _unglue(ctx, number, player.name, f"starts her turn on it and rolls {usual - 1 or 'no'} "
                                          f"{'die' if usual - 1 == 1 else 'dice'} instead of {usual}"
                                          + ("" if usual > 1 else ": she does not move"))

    def dice_for(self, state: GameState, player: Player) -> str | None:
        fewer = self.of(state).fewer_dice.get(player.name)
        return None if fewer is None else f"{fewer}d6"

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        fewer = self.of(ctx.state).fewer_dice.pop(player.name, None)
        if fewer == 0:  # no dice: she stays where she is (a standing ruling)
            api.GLUED_STILL.of(ctx).add(player.name)
            return [0]
        return None

    def move_instead(self, ctx: UpdateContext, player: Player, steps: int) -> bool | int:
        still = api.GLUED_STILL.peek(ctx)
        if still is None or player.name not in still:
            return False
        still.discard(player.name)
        return True

    # -- glue: passing through (XIII.11) ---------------------------------------------------------
    def pips_lost(self, ctx: UpdateContext, player: Player, number: int) -> int:
        if not _normal_turn(ctx, player) or not _affects(ctx.state, player.name, number):
            return 0
        _unglue(ctx, number, player.name, "passes through it and loses one pip of her move")
        api.GLUED.of(ctx)[player.name] = number
        return 1

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: BoardSquare, rent: int) -> int:
        if rent and _glued_in(ctx, payer.name) == square.number:
            ctx.emit("rent", f"{payer.name} was stopped on square {square.number} by its glue: its owner may not "
                             "collect rent from her while she stays (XIII.11).", player=payer.name, rule="XIII.11",
                     data={"square": square.number, "amount": 0})
            return 0
        return rent

    def redirect_landing(self, ctx: UpdateContext, player: Player, square: BoardSquare) -> int | None:
        """XIII.12: a greased square sends whoever would land on it to the next square."""
        if self.of(ctx.state).coatings.get(square.number) != GREASE:
            return None
        nxt = successor(ctx.state, square.number)
        ctx.emit("grease", f"{player.name} would land on square {square.number}, which is greased, and lands on "
                           f"square {nxt} instead (XIII.12).", player=player.name, rule="XIII.12",
                 data={"square": square.number, "to": nxt})
        return nxt

    def on_land(self, ctx: UpdateContext, player: Player, square: BoardSquare) -> None:
        cs = self.of(ctx.state)
        if (api.GLUED.peek(ctx) or {}).get(player.name) == square.number:
            cs.glued_in[player.name] = square.number
        elif cs.glued_in.get(player.name) != square.number:
            cs.glued_in.pop(player.name, None)

    # -- the site --------------------------------------------------------------------------------
    def square_facts(self, state: GameState, square: BoardSquare) -> list[Fact]:
        return [Fact("coating", self.of(state).coatings.get(square.number), column="Coating", order=17, kind="text")]

    def square_look(self, state: GameState, square: BoardSquare) -> SquareLook | None:
        coating = self.of(state).coatings.get(square.number)
        if coating is None:
            return None
        short, long = _FLAGS[coating]
        return SquareLook(notes=((17, long),), flags=((17, short, long),))


def coating_of(state: GameState, number: int) -> str | None:
    """Square ``number``'s coating (XIII.13: at most one), or None."""
    cs = api.COATINGS.get(state)
    return cs.coatings.get(number) if cs is not None else None


def _has_tefflon(state: GameState, number: int) -> bool:
    return coating_of(state, number) == TEFFLON


add_mark("tefflon", _has_tefflon)  # XXVIII.8: no tree on a Tefflon coat


def landing_square(state: GameState, number: int) -> int:
    """Where a piece told to land on square ``number`` lands (XIII.12: past every greased square)."""
    for _ in range(len(state.squares)):
        if coating_of(state, number) != GREASE:
            break
        number = successor(state, number)
    return number


def clear_coating(ctx: UpdateContext, number: int, *, why: str) -> None:
    cs = api.COATINGS.get(ctx.state)
    if cs is not None and number in cs.coatings:
        gone = cs.coatings.pop(number)
        ctx.emit("coating", f"Square {number} lost its {gone}: {why}.", rule="XIII.13",
                 data={"square": number, "coating": None})


def _normal_turn(ctx: UpdateContext, player: Player) -> bool:
    """A normal turn: a turn of VII (the turns module marks it), not a move by another rule."""
    return player.name in (api.TURNING.peek(ctx) or ())


def _affects(state: GameState, name: str, number: int) -> bool:
    return coating_of(state, number) == GLUE and owner_of(state, number) != name


def _glued_in(ctx: UpdateContext, name: str) -> int | None:
    held = (api.GLUED.peek(ctx) or {}).get(name)
    return held if held is not None else CoatingsModule.of(ctx.state).glued_in.get(name)


def _unglue(ctx: UpdateContext, number: int, name: str, what: str) -> None:
    CoatingsModule.of(ctx.state).coatings.pop(number, None)
    ctx.emit("glue", f"{name} {what}: square {number} was glued, and its glue is used up (XIII.11).",
             player=name, rule="XIII.11", data={"square": number})


def coat(ctx: UpdateContext, player: Player, cmd: Coat) -> str:
    """TEFFLON, DETEFFLON, GLUE, GREASE: refused (nothing paid) when the square is not the player's
    to coat, or already has a coating (XIII.13: another kind fails; XIII.9: one coat at a time)."""
    number = player.square if cmd.square is None else cmd.square
    check_square(ctx, number)
    owner = owner_of(ctx.state, number)
    rule = {TEFFLON: "XIII.10" if cmd.remove else "XIII.9", GLUE: "XIII.11", GREASE: "XIII.12"}[cmd.coating]
    if owner != player.name and not (cmd.coating == GLUE and number == player.square):
        where = "a square you own or the one you occupy" if cmd.coating == GLUE else "a square you own"
        raise IllegalAction(f"you do not own square {number} ({owner or 'nobody'} does); {cmd.coating} goes on "
                            f"{where} ({rule})")
    cs = CoatingsModule.of(ctx.state)
    p = ctx.params(CoatingsModule.name)
    has = cs.coatings.get(number)
    if not cmd.remove and marked(ctx.state, number, "lodge"):
        raise IllegalAction(f"square {number} is a Lodge of the WETHA, which can be neither coated nor "
                            "destroyed (XXVIII.4)")
    if not cmd.remove and cmd.coating == TEFFLON and marked(ctx.state, number, "tree"):
        raise IllegalAction(f"square {number} has a tree, so it can take no Tefflon coat (XXVIII.8)")
    if cmd.remove:
        if has != TEFFLON:
            raise IllegalAction(f"square {number} has no Tefflon to remove (XIII.10)")
        cost = int(p["detefflon_cost"])
    else:
        if has == cmd.coating:
            raise IllegalAction(f"square {number} already has a coat of {has}; it takes one at a time "
                                "(XIII.9, XIII.13)")
        if has:
            raise IllegalAction(f"square {number} is coated with {has}, so a coat of {cmd.coating} fails (XIII.13)")
        cost = {TEFFLON: int(p["tefflon_cost"]), GLUE: int(p["glue_per_number"]) * number,
                GREASE: int(p["grease_cost"])}[cmd.coating]
    payee = str(p["coating_payee"])
    ctx.transfer(player.name, payee, cost, rule=rule, reason=f"{cmd.coating} on square {number}", voluntary=True)
    if cmd.remove:
        del cs.coatings[number]
        done = f"removed the Tefflon from square {number}"
    else:
        cs.coatings[number] = cmd.coating
        done = f"coated square {number} with {cmd.coating}"
    ctx.emit("coating", f"{player.name} {done} ({rule}).", player=player.name, rule=rule,
             data={"square": number, "coating": cs.coatings.get(number)})
    return f"{player.name} paid {ctx.state.money(cost)} to {payee} and {done}."


__all__ = ["GLUE", "GREASE", "TEFFLON", "CoatingsModule", "clear_coating", "coating_of", "landing_square"]
