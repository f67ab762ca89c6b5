"""The Zoo's state and the small helpers its parts share (XIX): the creatures, banana peels, ride
offers and Fake IDs, and the Zoo's parameters. A leaf: the module (:mod:`zoo`), the creatures'
moves (:mod:`zoo_creatures`) and the Skunk's effects (:mod:`zoo_skunk`) all read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.board import live_numbers
from admin.games.nomopoly2.api import ZOO_ROLLS

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

#: the module's name, and its state in a game
ZOO = "zoo"

#: the creatures of XIX.3, by the name the state keeps
KINDS = ("gorilla", "elephant", "bison", "skunk", "jelly-dog")
TITLES = {"gorilla": "the Gorilla", "elephant": "the Elephant", "bison": "the MTS Bison",
          "skunk": "the Skunk", "jelly-dog": "the Blinking Jelly Dog"}
#: the board picture's badge for each
BADGES = {"gorilla": "GOR", "elephant": "ELE", "bison": "BIS", "skunk": "SKU", "jelly-dog": "BJD"}
_ALIASES = {"gorilla": "gorilla", "elephant": "elephant", "bison": "bison", "mts bison": "bison",
            "skunk": "skunk", "jelly dog": "jelly-dog", "jelly-dog": "jelly-dog", "jellydog": "jelly-dog",
            "blinking jelly dog": "jelly-dog", "blinking jelly-dog": "jelly-dog"}
#: what the Blinking Jelly Dog may act as (XIX.3: any creature but itself)
JELLY_ROLES = ("gorilla", "elephant", "bison", "skunk")


@dataclass
class Creature:
    #: its name on the board: the kind, or "skunk-2" ... for a further Skunk (the Zoo's exception)
    id: str
    kind: str
    square: int
    health: int = 100
    #: infected with anthrax (XXIV.2: it may be used on a creature): loses health each week until
    #: it lands on the House of Cards
    infected: bool = False


@dataclass
class RideOffer:
    """Players a Bison (or the Jelly Dog acting as one) landed on, who may ride it next update."""

    creature: str
    square: int
    players: list[str] = field(default_factory=list)
    #: the update it landed in; the ride is taken in the next one
    update: int = 0
    #: the interactions facility's question (#n), answered by RIDE BISON TO <n> or DECLINE <n>
    interaction: int = 0


@dataclass
class ZooState:
    creatures: list[Creature] = field(default_factory=list)
    #: squares with a banana peel (one a square at most)
    peels: list[int] = field(default_factory=list)
    #: player -> the update they last landed on the Zoo (they may SPAWN in the next update's mail)
    spawn_rights: dict[str, int] = field(default_factory=dict)
    offers: list[RideOffer] = field(default_factory=list)
    #: player -> Fake IDs held, unused (the Skunk on a Legislative Building)
    fake_ids: dict[str, int] = field(default_factory=dict)
    #: player -> the proposals they used a Fake ID on (one number per ID), while voting is open
    fake_votes: dict[str, list[int]] = field(default_factory=dict)
    #: the number of the next extra Skunk (skunk-2, skunk-3 ...)
    next_skunk: int = 2


#: the Zoo's parameters and their defaults (the module's ``defaults``)
DEFAULTS: dict[str, Any] = {
    "zoo_square": 51,
    "start_health": 100,
    # the Gorilla and the Elephant move in the update of this schedule slot only (XIX.3)
    "weekly_slot": "Sunday",
    "gorilla_die": 10, "peel_percent": 50, "peel_health_loss": 10,
    "elephant_trample_loss": 15,
    # the Elephant rolls again at most this many times for a possible direction
    "elephant_rerolls": 100,
    "bison_dice": 2, "bison_sides": 6,
    "skunk_dice_sides": 3,
    # landings of one creature in a row (a slip, the Bison sending the Skunk ...) before it stops
    "max_chain": 12,
    # the Skunk's effects (zoo_skunk.py)
    "hospital_health_gain": 20, "spray_health_loss": 15,
    # a player who passes out (sprayed, or a pogo stick in glue: shared.pass_out) loses
    # spray_health_loss and stays passed out for this many updates after the current one
    "passed_out_updates": 0,
    "crazy_elephant_turns": 15, "gorilla_peels": 7, "bison_sends_loss": 20,
    "railroad_payout": 500, "credit_raise_percent": 50,
    # the Corporate Headquarters' "property tax": the sum of the numbers of one's squares, or of
    # what one paid for them (the list price, 25 x n, where nothing was paid)
    "property_tax": "numbers",
}


def zoo_of(state: GameState) -> ZooState:
    zs: ZooState = state.mods[ZOO]
    return zs


def _params(state: GameState) -> dict[str, Any]:
    return {**DEFAULTS, **state.params(ZOO)}


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def title(c: Creature) -> str:
    if c.id != c.kind and c.kind == "skunk":
        return f"Skunk {c.id.split('-')[-1]}"
    return TITLES[c.kind]


def title_of(state: GameState, cid: str) -> str:
    c = find(state, cid)
    return title(c) if c is not None else TITLES.get(cid, cid)


def find(state: GameState, cid: str) -> Creature | None:
    return next((c for c in zoo_of(state).creatures if c.id == cid), None)


def creatures_on(state: GameState, number: int) -> list[Creature]:
    if not state.enabled(ZOO):
        return []
    return [c for c in zoo_of(state).creatures if c.square == number]


def _label(ctx: UpdateContext, purpose: str) -> str:
    """``zoo/<purpose>#<n>``: n counts the Zoo's rolls in the update (a scenario forces them by
    the prefix, ``zoo/skunk/up``)."""
    n = (ZOO_ROLLS.peek(ctx) or 0) + 1
    ZOO_ROLLS.put(ctx, n)
    return f"zoo/{purpose}#{n}"


def _roll(ctx: UpdateContext, purpose: str, sides: int) -> int:
    return ctx.dice.roll(_label(ctx, purpose), sides)


def any_square(ctx: UpdateContext, purpose: str) -> int:
    """A random live square: there is always one (VI.1: the board always keeps a square)."""
    found = random_square(ctx, purpose)
    assert found is not None, "the board always keeps one square (VI.1)"
    return found


def random_square(ctx: UpdateContext, purpose: str, among: list[int] | None = None) -> int | None:
    squares = live_numbers(ctx.state) if among is None else among
    if not squares:
        return None
    return squares[_roll(ctx, purpose, len(squares)) - 1]
