"""XIII.1-XIII.8: the colours. Thirteen colours exist (XIII.1): six Corporate, six Government and
White; every square is White until coloured (XIII.2, the board module's ``colour_of``). An owner
paints her square a Corporate Colour for $50 (XIII.3); Government Issue Paint comes in cans of a
Government Colour at $100, poured on the square one stands on (XIII.4), or carried by the GIPPer
to a square one owns for $50 more (XIII.5) or onto the Elephant for $1000 more, changing the
Elephant Skin Color (XIII.6). Nobody may give a square the colour of a block a player owns
(XIII.7), except the Elephant's and Sick players' involuntary colourings (XIII.8), which the Admin
carries out with a ruling. A Tefflon-coated square is never recoloured (XIII.9, the coatings
module's :func:`~admin.games.registry.nomoteams.coatings.coating_of`).

Every colouring goes through :func:`recolour`, the one place the protections are checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from admin.engine.commands import command_type
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams.mechanics.board import WHITE, colour_of, set_colour
from admin.games.nomoteams.mechanics.ownership.mechanic import CORPORATE_COLOURS, GOVERNMENT_COLOURS, block_owner, check_square
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, owner_of

#: XIII.1: the only colours there are (XXXIII.3 spells the last Government Colour "Fuchsia": both
#: spellings are read as the one colour)
COLOURS = (*CORPORATE_COLOURS, *GOVERNMENT_COLOURS, WHITE)
_SPELLINGS = {c.upper(): c for c in COLOURS} | {"FUCHSIA": "Fuschia"}
ELEPHANT_KIND = "elephant"


def parse_colour(text: str, allowed: tuple[str, ...] = COLOURS, what: str = "a colour") -> str:
    """One of XIII.1's colours by name (any case); else an error listing the valid ones."""
    colour = _SPELLINGS.get(text.strip().upper())
    if colour is None:
        raise CommandError(f"{text.strip()!r} is not a colour of this game (XIII.1); {what} is one of "
                           f"{', '.join(allowed)}.")
    if colour not in allowed:
        raise CommandError(f"{colour} is not {what} (XIII.1); {what} is one of {', '.join(allowed)}.")
    return colour


@command_type
@dataclass(frozen=True)
class Paint:
    """``PAINT <n> <Corporate Colour>`` (XIII.3)."""

    square: int
    colour: str
    cmd: ClassVar[str] = "teams-paint"


@command_type
@dataclass(frozen=True)
class BuyPaint:
    """``BUY PAINT <Government Colour>`` (XIII.4): one can."""

    colour: str
    cmd: ClassVar[str] = "teams-buy-paint"


@command_type
@dataclass(frozen=True)
class PourPaint:
    """``POUR PAINT <colour>`` on the square one occupies (XIII.4)."""

    colour: str | None = None
    cmd: ClassVar[str] = "teams-pour-paint"


@command_type
@dataclass(frozen=True)
class Gipper:
    """``GIPPER PAINT <n> <colour>`` (XIII.5) or ``GIPPER PAINT ELEPHANT <colour>`` (XIII.6);
    ``square`` 0 is the Elephant."""

    square: int
    colour: str
    cmd: ClassVar[str] = "teams-gipper"


@dataclass
class ColoursState:
    #: player -> Government Colour -> cans of Government Issue Paint held (XIII.4)
    cans: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the Elephant Skin Color (XIII.6, XXXIII.2); a standing ruling: White until painted
    elephant_skin: str = WHITE


def _parse_paint(rest: str, line: object) -> Paint:
    words = rest.split()
    if len(words) < 2:
        raise CommandError(f"PAINT needs a square you own and a Corporate Colour, like PAINT 14 Red; found "
                           f"{rest.strip()!r}.")
    return Paint(parse_square(" ".join(words[:-1])),
                 parse_colour(words[-1], CORPORATE_COLOURS, "a Corporate Colour"))


def _parse_buy_paint(rest: str, line: object) -> BuyPaint:
    if not rest.strip():
        raise CommandError(f"BUY PAINT needs a Government Colour, like BUY PAINT Navy; one of "
                           f"{', '.join(GOVERNMENT_COLOURS)}.")
    return BuyPaint(parse_colour(rest, GOVERNMENT_COLOURS, "a Government Colour"))


def _parse_pour(rest: str, line: object) -> PourPaint:
    return PourPaint(parse_colour(rest, GOVERNMENT_COLOURS, "a Government Colour") if rest.strip() else None)


def _parse_gipper(rest: str, line: object) -> Gipper:
    words = rest.split()
    if len(words) < 3 or words[0].upper() != "PAINT":
        raise CommandError(f"write GIPPER PAINT <square> <colour> or GIPPER PAINT ELEPHANT <colour>, like "
                           f"GIPPER PAINT 14 Navy; found GIPPER {rest.strip()!r}.")
    colour = parse_colour(words[-1], GOVERNMENT_COLOURS, "a Government Colour")
    target = " ".join(words[1:-1])
    return Gipper(0 if target.upper() in ("ELEPHANT", "THE ELEPHANT") else parse_square(target), colour)


class ColoursModule(Mechanic[ColoursState, None]):
    name = "teams-colours"
    #: XIII.8 (the involuntary colourings) is the Admin's: the ``colour`` ruling (game.yaml's coverage)
    rules = ("XIII.1", "XIII.2", "XIII.3", "XIII.4", "XIII.5", "XIII.6", "XIII.7")
    defaults = {"paint_cost": 50, "paint_payee": CORPORATION, "can_cost": 100, "gipper_fee": 50,
                "elephant_fee": 1000}
    minimums = {"paint_cost": 0, "can_cost": 0, "gipper_fee": 0, "elephant_fee": 0}
    summary = "Corporate paint, Government Issue Paint and the GIPPer, the Elephant Skin Color, block colours."
    State = ColoursState

    def commands(self):
        return (
            CommandSpec("PAINT", Paint, paint, _parse_paint, "PAINT <n> <Corporate Colour>", listing=130,
                        rules=("XIII.3",), example="PAINT 14 Red",
                        summary="paint a square you own a Corporate Colour ($50 to The Corporation)"),
            CommandSpec("BUY PAINT", BuyPaint, buy_paint, _parse_buy_paint, "BUY PAINT <Government Colour>",
                        listing=131, rules=("XIII.4",), example="BUY PAINT Navy",
                        summary="buy a can of Government Issue Paint ($100 to The Government)"),
            CommandSpec("POUR PAINT", PourPaint, pour, _parse_pour, "POUR PAINT [colour]", listing=132,
                        rules=("XIII.4",), example="POUR PAINT Navy",
                        summary="pour a can you hold on the square you occupy"),
            CommandSpec("GIPPER", Gipper, gipper, _parse_gipper,
                        "GIPPER PAINT <n> <colour> | GIPPER PAINT ELEPHANT <colour>", listing=133,
                        rules=("XIII.5", "XIII.6"), example="GIPPER PAINT 14 Navy",
                        summary="the GIPPer pours a can on a square you own ($50) or on the Elephant "
                                "($1000); a can you hold, or one bought with the service"),
        )

    def rulings(self):
        return {"colour": _colour_ruling}

    def on_player_removed(self, state, player) -> None:
        self.of(state).cans.pop(player.name, None)

    def on_update_end(self, ctx) -> None:
        elephant = elephant_piece(ctx.state)
        if ctx.slot.week_end and elephant:
            ctx.emit("admin", f"{elephant} is in play: when it recolours its square (XXXIII.2; Elephant Skin Color "
                              f"{self.of(ctx.state).elephant_skin}), or a Sick player colours one involuntarily, "
                              "colour it: nomopoly ruling decide colour square=N elephant=true (or colour=C "
                              "involuntary=true) --reason ... (XIII.8 lets them break a block's protection)",
                     rule="XIII.8")

    def set_player(self, state, player, key, value) -> bool:
        if key != "paint":
            return False
        self.of(state).cans[player.name] = {parse_colour(c, GOVERNMENT_COLOURS): int(n) for c, n in dict(value).items()}
        return True

    # -- objects (shared.objects_of): paint cans go with a player's objects (GIVE, LEAVE, II.8) --------
    def objects_of(self, state, name: str) -> dict[str, int]:
        return {f"can of {c} paint": n for c, n in self.of(state).cans.get(name, {}).items() if n}

    def move_object(self, state, giver: str, receiver: str, item: str, n: int) -> None:
        if not (item.startswith("can of ") and item.endswith(" paint")):
            return
        colour = item[len("can of "):-len(" paint")]
        held = self.of(state).cans.get(giver, {})
        held[colour] = held.get(colour, 0) - n
        if held[colour] <= 0:
            held.pop(colour, None)
        if not held:
            self.of(state).cans.pop(giver, None)
        _give_can(state, receiver, colour, n)

    def player_facts(self, state, player) -> list[Fact]:
        return [Fact("paint", dict(self.of(state).cans.get(player.name, {})))] + (
            [Fact("paint_cans", cans_text(state, player.name), label="Paint cans", order=62, kind="text")]
            if self.of(state).cans.get(player.name) else [])

    def results_lines(self, state, player) -> list[tuple[int, str]]:
        held = cans_text(state, player.name)
        return [(32, f"  Paint cans: {held}")] if held else []

    def panels(self, state) -> list[Panel]:
        p = {**self.defaults, **state.params(self.name)}
        blocks = tuple((c, block_owner(state, c)) for c in COLOURS if block_owner(state, c))
        painted = tuple((n, colour_of(state, n), owner_of(state, n) or "-")
                        for n in (s.number for s in state.live_squares()) if colour_of(state, n) != WHITE)
        prices = (("PAINT <n> <Corporate Colour> (XIII.3)", state.money(int(p["paint_cost"])), str(p["paint_payee"])),
                  ("BUY PAINT <Government Colour> (XIII.4)", state.money(int(p["can_cost"])), GOVERNMENT),
                  ("GIPPER PAINT <n> <colour> (XIII.5)", f"{state.money(int(p['gipper_fee']))} + the paint",
                   GOVERNMENT),
                  ("GIPPER PAINT ELEPHANT <colour> (XIII.6)", f"{state.money(int(p['elephant_fee']))} + the paint",
                   GOVERNMENT))
        return [Panel("colours", "Colours",
                      f"Corporate Colours: {', '.join(CORPORATE_COLOURS)}. Government Colours: "
                      f"{', '.join(GOVERNMENT_COLOURS)}. White is the Non-Profit-Organization Color, and every "
                      "square is White until coloured (XIII.1, XIII.2). Nobody may colour a square the colour "
                      "of a block a player owns (XIII.7), and a Tefflon-coated square cannot be recoloured "
                      f"(XIII.9). The Elephant Skin Color is {self.of(state).elephant_skin} (XIII.6).",
                      (Table("Prices", ("Command", "Cost", "Paid to"), prices),
                       Table("Protected colours (blocks, XIII.7)", ("Colour", "Block owner"), blocks),
                       Table("Painted squares", ("Square", "Colour", "Owner"), painted)), order=30)]


# -- the one place a square changes colour -------------------------------------------------------
def why_not_recolour(state, number: int, colour: str, *, involuntary: bool = False) -> str | None:
    """Why square ``number`` cannot be coloured ``colour`` now, or None: Tefflon (XIII.9), a block
    of that colour (XIII.7; an involuntary colouring may break it, XIII.8)."""
    from admin.games.nomoteams.mechanics.coatings import TEFFLON, coating_of

    if coating_of(state, number) == TEFFLON:
        return f"square {number} is coated in Tefflon and cannot be recoloured (XIII.9)"
    holder = block_owner(state, colour)
    if holder and not involuntary:
        return f"{holder} owns a block of {colour}, so no square may be coloured {colour} (XIII.7)"
    return None


def recolour(ctx, number: int, colour: str, *, by: str, rule: str, involuntary: bool = False) -> str:
    """Colour square ``number`` (raising :class:`IllegalAction` if XIII.7 or XIII.9 forbids it)."""
    why = why_not_recolour(ctx.state, number, colour, involuntary=involuntary)
    if why:
        raise IllegalAction(why)
    before = colour_of(ctx.state, number)
    set_colour(ctx.state, number, colour)
    ctx.emit("colour", f"Square {number} is now {colour} (was {before}): {by}.", rule=rule,
             data={"square": number, "colour": colour, "was": before})
    return f"square {number} is now {colour} (was {before})"


def cans_text(state, name: str) -> str:
    held = ColoursModule.of(state).cans.get(name, {})
    return ", ".join(f"{n} {c}" for c, n in sorted(held.items()) if n)


def _take_can(state, name: str, colour: str) -> bool:
    held = ColoursModule.of(state).cans.get(name, {})
    if held.get(colour, 0) <= 0:
        return False
    held[colour] -= 1
    if not held[colour]:
        del held[colour]
    if not held:
        del ColoursModule.of(state).cans[name]
    return True


def _give_can(state, name: str, colour: str, n: int = 1) -> None:
    held = ColoursModule.of(state).cans.setdefault(name, {})
    held[colour] = held.get(colour, 0) + n


# -- commands --------------------------------------------------------------------------------------
def paint(ctx, player, cmd: Paint) -> str:
    """XIII.3: the owner paints her square a Corporate Colour."""
    check_square(ctx, cmd.square)
    if owner_of(ctx.state, cmd.square) != player.name:
        raise IllegalAction(f"you do not own square {cmd.square}; only its owner may paint it (XIII.3)")
    why = why_not_recolour(ctx.state, cmd.square, cmd.colour)
    if why:
        raise IllegalAction(why)
    p = ctx.params(ColoursModule.name)
    cost = int(p["paint_cost"])
    ctx.transfer(player.name, str(p["paint_payee"]), cost, rule="XIII.3", reason=f"painting square {cmd.square}",
                 voluntary=True)
    done = recolour(ctx, cmd.square, cmd.colour, by=f"{player.name} painted it", rule="XIII.3")
    return f"{player.name} paid {ctx.state.money(cost)} to {p['paint_payee']}: {done}."


def buy_paint(ctx, player, cmd: BuyPaint) -> str:
    """XIII.4: a can of Government Issue Paint."""
    cost = int(ctx.params(ColoursModule.name)["can_cost"])
    ctx.transfer(player.name, GOVERNMENT, cost, rule="XIII.4", reason=f"a can of {cmd.colour} paint", voluntary=True)
    _give_can(ctx.state, player.name, cmd.colour)
    return (f"{player.name} bought a can of {cmd.colour} Government Issue Paint for {ctx.state.money(cost)}; "
            f"holds {cans_text(ctx.state, player.name)}.")


def _which_can(state, name: str, colour: str | None) -> str:
    held = sorted(c for c, n in ColoursModule.of(state).cans.get(name, {}).items() if n)
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


def pour(ctx, player, cmd: PourPaint) -> str:
    """XIII.4: pour a can on the square one occupies, expending it."""
    colour = _which_can(ctx.state, player.name, cmd.colour)
    why = why_not_recolour(ctx.state, player.square, colour)
    if why:
        raise IllegalAction(why)
    _take_can(ctx.state, player.name, colour)
    done = recolour(ctx, player.square, colour, by=f"{player.name} poured a can of paint on it", rule="XIII.4")
    return f"{player.name} poured a can of {colour} paint: {done}."


def gipper(ctx, player, cmd: Gipper) -> str:
    """XIII.5, XIII.6: the GIPPer takes a can to a square the player owns, or to the Elephant. The
    can is one she holds; if she holds none of that colour she buys it with the service (a standing
    ruling: "the cost of the paint" is $100 more)."""
    p = ctx.params(ColoursModule.name)
    cs = ColoursModule.of(ctx.state)
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


def elephant_piece(state) -> str | None:
    """The Elephant in play (XXXIII.2), by name, or None."""
    pseudo = state.mods.get("teams-pseudo")
    for piece in getattr(pseudo, "pieces", {}).values():
        if piece.kind == ELEPHANT_KIND and not piece.gone:
            return piece.name
    return None




# -- the Admin's colourings (XIII.8: the Elephant's and Sick players') --------------------------------
def _colour_ruling(ctx, r) -> str:
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
        cs = ColoursModule.of(ctx.state)
        before, cs.elephant_skin = cs.elephant_skin, skin
        ctx.emit("colour", f"The Elephant Skin Color is now {skin} (was {before}): the Admin's ruling.", rule="XIII.6",
                 data={"elephant_skin": skin, "was": before})
        return f"The Admin made the Elephant Skin Color {skin}: {r.note}"
    if "square" not in r.args:
        raise RuleError("colour needs square=N and colour=C (or elephant=true), or skin=C for the Elephant Skin "
                        "Color; colours: " + ", ".join(COLOURS))
    number = int(r.args["square"])
    if ctx.state.square(number) is None or ctx.state.square(number).destroyed:
        raise RuleError(f"square={number}: there is no such square on the board")
    yes = (True, "true", "yes")
    elephant = r.args.get("elephant") in yes
    raw = r.args.get("colour") or (ColoursModule.of(ctx.state).elephant_skin if elephant else None)
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


__all__ = ["COLOURS", "ColoursModule", "elephant_piece", "parse_colour", "recolour", "why_not_recolour"]
