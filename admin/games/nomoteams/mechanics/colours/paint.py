"""The one place a square changes colour (:func:`recolour`: XIII.7's blocks, XIII.9's Tefflon), the
commands that paint (PAINT, BUY PAINT, POUR PAINT, GIPPER) and the Admin's colourings (XIII.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams.mechanics.colours.state import (COLOURS, NAME, BuyPaint, Gipper, Paint, PourPaint,
                                                           _give_can, _take_can, cans_text, elephant_piece, of,
                                                           parse_colour)
from admin.games.nomoteams.mechanics.ownership.mechanic import block_owner, check_square
from admin.games.nomoteams.mechanics.shared import GOVERNMENT, colour_of, owner_of, set_colour

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player


# -- the one place a square changes colour -------------------------------------------------------
def why_not_recolour(state: GameState, number: int, colour: str, *, involuntary: bool = False) -> str | None:
    """Why square ``number`` cannot be coloured ``colour`` now, or None: Tefflon (XIII.9), a block
    of that colour (XIII.7; an involuntary colouring may break it, XIII.8)."""
    from admin.games.nomoteams.mechanics.coatings import TEFFLON, coating_of

    if coating_of(state, number) == TEFFLON:
        return f"square {number} is coated in Tefflon and cannot be recoloured (XIII.9)"
    holder = block_owner(state, colour)
    if holder and not involuntary:
        return f"{holder} owns a block of {colour}, so no square may be coloured {colour} (XIII.7)"
    return None


def recolour(ctx: UpdateContext, number: int, colour: str, *, by: str, rule: str, involuntary: bool = False) -> str:
    """Colour square ``number`` (raising :class:`IllegalAction` if XIII.7 or XIII.9 forbids it)."""
    why = why_not_recolour(ctx.state, number, colour, involuntary=involuntary)
    if why:
        raise IllegalAction(why)
    before = colour_of(ctx.state, number)
    set_colour(ctx.state, number, colour)
    ctx.emit("colour", f"Square {number} is now {colour} (was {before}): {by}.", rule=rule,
             data={"square": number, "colour": colour, "was": before})
    return f"square {number} is now {colour} (was {before})"


# -- commands --------------------------------------------------------------------------------------
def paint(ctx: UpdateContext, player: Player, cmd: Paint) -> str:
    """XIII.3: the owner paints her square a Corporate Colour."""
    check_square(ctx, cmd.square)
    if owner_of(ctx.state, cmd.square) != player.name:
        raise IllegalAction(f"you do not own square {cmd.square}; only its owner may paint it (XIII.3)")
    why = why_not_recolour(ctx.state, cmd.square, cmd.colour)
    if why:
        raise IllegalAction(why)
    p = ctx.params(NAME)
    cost = int(p["paint_cost"])
    ctx.transfer(player.name, str(p["paint_payee"]), cost, rule="XIII.3", reason=f"painting square {cmd.square}",
                 voluntary=True)
    done = recolour(ctx, cmd.square, cmd.colour, by=f"{player.name} painted it", rule="XIII.3")
    return f"{player.name} paid {ctx.state.money(cost)} to {p['paint_payee']}: {done}."


def buy_paint(ctx: UpdateContext, player: Player, cmd: BuyPaint) -> str:
    """XIII.4: a can of Government Issue Paint."""
    cost = int(ctx.params(NAME)["can_cost"])
    ctx.transfer(player.name, GOVERNMENT, cost, rule="XIII.4", reason=f"a can of {cmd.colour} paint", voluntary=True)
    _give_can(ctx.state, player.name, cmd.colour)
    return (f"{player.name} bought a can of {cmd.colour} Government Issue Paint for {ctx.state.money(cost)}; "
            f"holds {cans_text(ctx.state, player.name)}.")


def _which_can(state: GameState, name: str, colour: str | None) -> str:
    held = sorted(c for c, n in of(state).cans.get(name, {}).items() if n)
    if colour is None:
        if len(held) != 1:
            raise IllegalAction("you hold no paint (BUY PAINT Navy first)" if not held else
                                f"you hold paint of {len(held)} colours ({', '.join(held)}): say which, like "
                                f"POUR PAINT {held[0]}")
        return held[0]
    if colour not in held:
        raise IllegalAction(f"you hold no can of {colour}" + (f"; you hold {', '.join(held)}" if held else
                                                              f" (BUY PAINT {colour} first)"))
    return colour


def pour(ctx: UpdateContext, player: Player, cmd: PourPaint) -> str:
    """XIII.4: pour a can on the square one occupies, expending it."""
    colour = _which_can(ctx.state, player.name, cmd.colour)
    why = why_not_recolour(ctx.state, player.square, colour)
    if why:
        raise IllegalAction(why)
    _take_can(ctx.state, player.name, colour)
    done = recolour(ctx, player.square, colour, by=f"{player.name} poured a can of paint on it", rule="XIII.4")
    return f"{player.name} poured a can of {colour} paint: {done}."


def gipper(ctx: UpdateContext, player: Player, cmd: Gipper) -> str:
    """XIII.5, XIII.6: the GIPPer takes a can to a square the player owns, or to the Elephant. The
    can is one she holds; if she holds none of that colour she buys it with the service (a standing
    ruling: "the cost of the paint" is $100 more)."""
    p = ctx.params(NAME)
    cs = of(ctx.state)
    if cmd.square == 0:
        elephant = elephant_piece(ctx.state)
        if elephant is None:
            raise IllegalAction("there is no Elephant in play to paint (XIII.6)")
        fee, rule, target = int(p["elephant_fee"]), "XIII.6", elephant
    else:
        check_square(ctx, cmd.square)
        if owner_of(ctx.state, cmd.square) != player.name:
            raise IllegalAction(f"you do not own square {cmd.square}; the GIPPer pours only on squares you own "
                                "(XIII.5)")
        why = why_not_recolour(ctx.state, cmd.square, cmd.colour)
        if why:
            raise IllegalAction(why)
        fee, rule, target = int(p["gipper_fee"]), "XIII.5", f"square {cmd.square}"
    own_can = cs.cans.get(player.name, {}).get(cmd.colour, 0) > 0
    cost = fee + (0 if own_can else int(p["can_cost"]))
    ctx.transfer(player.name, GOVERNMENT, cost, rule=rule, reason=f"the GIPPer's {cmd.colour} paint on {target}",
                 voluntary=True)
    if own_can:
        _take_can(ctx.state, player.name, cmd.colour)
    paid = f"{player.name} paid the GIPPer {ctx.state.money(cost)}" + ("" if own_can else " (the can included)")
    if cmd.square == 0:
        before, cs.elephant_skin = cs.elephant_skin, cmd.colour
        ctx.emit("colour", f"The GIPPer poured {cmd.colour} paint on {target}: the Elephant Skin Color is now "
                           f"{cmd.colour} (was {before}).", player=player.name, rule="XIII.6",
                 data={"elephant_skin": cmd.colour, "was": before})
        return f"{paid}: the Elephant Skin Color is now {cmd.colour}."
    done = recolour(ctx, cmd.square, cmd.colour, by=f"the GIPPer poured {player.name}'s paint on it", rule="XIII.5")
    return f"{paid}: {done}."


# -- the Admin's colourings (XIII.8: the Elephant's and Sick players') --------------------------------
def _colour_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``colour square=N colour=C [involuntary=true] [elephant=true]`` (or ``colour skin=C``: the
    Elephant Skin Color, say after its Expulsion, XXXIII.2): the Admin colours a square
    (a rule's effect the rulebook leaves to her: the Elephant recolouring its square to its skin,
    its Expulsion Color, a Sick player's involuntary colouring). ``involuntary=true`` may break a
    block's protection (XIII.8); ``elephant=true`` first removes every coating of the square and
    takes the Elephant Skin Color when no ``colour`` is given (XXXIII.2). Tefflon stops any other."""
    from admin.games.nomoteams.mechanics.coatings import clear_coating

    if "skin" in r.args and "square" not in r.args:  # the Elephant Skin Color set by the Admin
        try:
            skin = parse_colour(str(r.args["skin"]))
        except CommandError as e:
            raise RuleError(str(e)) from None
        cs = of(ctx.state)
        before, cs.elephant_skin = cs.elephant_skin, skin
        ctx.emit("colour", f"The Elephant Skin Color is now {skin} (was {before}): the Admin's ruling.", rule="XIII.6",
                 data={"elephant_skin": skin, "was": before})
        return f"The Admin made the Elephant Skin Color {skin}: {r.note}"
    if "square" not in r.args:
        raise RuleError("colour needs square=N and colour=C (or elephant=true), or skin=C for the Elephant Skin "
                        "Color; colours: " + ", ".join(COLOURS))
    number = int(r.args["square"])
    square = ctx.state.square(number)
    if square is None or square.destroyed:
        raise RuleError(f"square={number}: there is no such square on the board")
    yes = (True, "true", "yes")
    elephant = r.args.get("elephant") in yes
    raw = r.args.get("colour") or (of(ctx.state).elephant_skin if elephant else None)
    if raw is None:
        raise RuleError("colour needs colour=C (one of " + ", ".join(COLOURS) + ")")
    try:
        colour = parse_colour(str(raw))
    except CommandError as e:
        raise RuleError(str(e)) from None
    if elephant:
        clear_coating(ctx, number, why="the Elephant removes every coating of its square (XXXIII.2)")
    involuntary = elephant or r.args.get("involuntary") in yes
    try:
        by = "the Admin's ruling" + (" (involuntary, XIII.8)" if involuntary else "")
        done = recolour(ctx, number, colour, by=by,
                        rule="XIII.8" if involuntary else "XIII.7", involuntary=involuntary)
    except IllegalAction as e:
        return f"The colouring of square {number} failed: {e}: {r.note}"
    return f"The Admin coloured {done}: {r.note}"
