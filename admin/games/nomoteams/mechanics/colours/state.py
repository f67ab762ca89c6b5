"""XIII.1's colours by name, the section's commands and state, the cans of paint a player holds,
and the Elephant in play."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from admin.engine.declare import As, command
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.ownership.mechanic import CORPORATE_COLOURS, GOVERNMENT_COLOURS
from admin.games.nomoteams.mechanics.shared import WHITE

if TYPE_CHECKING:
    from admin.engine.model import GameState

#: the module's name
NAME = "teams-colours"
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


def _parse_paint(rest: str, line: object) -> Paint:
    words = rest.split()
    if len(words) < 2:
        raise CommandError(f"PAINT needs a square you own and a Corporate Colour, like PAINT 14 Red; found "
                           f"{rest.strip()!r}.")
    return Paint(parse_square(" ".join(words[:-1])),
                 parse_colour(words[-1], CORPORATE_COLOURS, "a Corporate Colour"))


def _government_colour(text: str) -> str:
    return parse_colour(text, GOVERNMENT_COLOURS, "a Government Colour")


#: a Government Colour, read from the rest of the line (``'navy x' is not a colour``)
GovernmentColour = Annotated[str, As(_government_colour, rest=True)]


def _parse_gipper(rest: str, line: object) -> Gipper:
    words = rest.split()
    if len(words) < 3 or words[0].upper() != "PAINT":
        raise CommandError(f"write GIPPER PAINT <square> <colour> or GIPPER PAINT ELEPHANT <colour>, like "
                           f"GIPPER PAINT 14 Navy; found GIPPER {rest.strip()!r}.")
    colour = parse_colour(words[-1], GOVERNMENT_COLOURS, "a Government Colour")
    target = " ".join(words[1:-1])
    return Gipper(0 if target.upper() in ("ELEPHANT", "THE ELEPHANT") else parse_square(target), colour)


@command("PAINT <square:n> <colour:Corporate Colour>", parse=_parse_paint, cmd="teams-paint", listing=130,
         rules=("XIII.3",), example="PAINT 14 Red",
         summary="paint a square you own a Corporate Colour ($50 to The Corporation)")
class Paint:
    """``PAINT <n> <Corporate Colour>`` (XIII.3)."""

    square: int
    colour: str


@command("BUY PAINT <colour:Government Colour>", keyword="BUY PAINT", cmd="teams-buy-paint",
         hint=f"BUY PAINT needs a Government Colour, like BUY PAINT Navy; one of {', '.join(GOVERNMENT_COLOURS)}.",
         listing=131, rules=("XIII.4",), example="BUY PAINT Navy",
         summary="buy a can of Government Issue Paint ($100 to The Government)")
class BuyPaint:
    """``BUY PAINT <Government Colour>`` (XIII.4): one can."""

    colour: GovernmentColour


@command("POUR PAINT [colour]", keyword="POUR PAINT", cmd="teams-pour-paint", listing=132,
         rules=("XIII.4",), example="POUR PAINT Navy", summary="pour a can you hold on the square you occupy")
class PourPaint:
    """``POUR PAINT <colour>`` on the square one occupies (XIII.4)."""

    colour: GovernmentColour | None = None


@command("GIPPER PAINT <square:n> <colour>", usage="GIPPER PAINT <n> <colour> | GIPPER PAINT ELEPHANT <colour>",
         parse=_parse_gipper, cmd="teams-gipper", listing=133, rules=("XIII.5", "XIII.6"),
         example="GIPPER PAINT 14 Navy",
         summary="the GIPPer pours a can on a square you own ($50) or on the Elephant "
                 "($1000); a can you hold, or one bought with the service")
class Gipper:
    """``GIPPER PAINT <n> <colour>`` (XIII.5) or ``GIPPER PAINT ELEPHANT <colour>`` (XIII.6);
    ``square`` 0 is the Elephant."""

    square: int
    colour: str


@dataclass
class ColoursState:
    #: player -> Government Colour -> cans of Government Issue Paint held (XIII.4)
    cans: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the Elephant Skin Color (XIII.6, XXXIII.2); a standing ruling: White until painted
    elephant_skin: str = WHITE


def of(state: GameState) -> ColoursState:
    """The section's state (``ColoursModule.of``)."""
    return api.COLOURING.of(state)


def cans_text(state: GameState, name: str) -> str:
    held = of(state).cans.get(name, {})
    return ", ".join(f"{n} {c}" for c, n in sorted(held.items()) if n)


def _take_can(state: GameState, name: str, colour: str) -> bool:
    held = of(state).cans.get(name, {})
    if held.get(colour, 0) <= 0:
        return False
    held[colour] -= 1
    if not held[colour]:
        del held[colour]
    if not held:
        del of(state).cans[name]
    return True


def _give_can(state: GameState, name: str, colour: str, n: int = 1) -> None:
    held = of(state).cans.setdefault(name, {})
    held[colour] = held.get(colour, 0) + n


def elephant_piece(state: GameState) -> str | None:
    """The Elephant in play (XXXIII.2), by name, or None."""
    pseudo = api.PSEUDO.get(state)
    for piece in (pseudo.pieces if pseudo is not None else {}).values():
        if piece.kind == ELEPHANT_KIND and not piece.gone:
            return piece.name
    return None
