"""What the Teams variant's modules share: the pseudoplayers' names, the Teams, rounding (IV.4),
market and rent value, the squares the rules mention, who owns a square and its colour.

Every other section of this variant builds on these helpers, so each piece of logic lives in one
place: a square's owner is :func:`owner_of`, its value :func:`market_value`, an amount of money is
rounded by :func:`dollars`."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable

from admin.engine.errors import IllegalAction
from admin.games.nomoteams import api

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square

#: the pseudoplayers that hold money and squares (X.1, XXXIII): names no player can take (a
#: player's name has no spaces)
GOVERNMENT = "The Government"
CORPORATION = "The Corporation"
PSEUDOPLAYERS = (GOVERNMENT, CORPORATION)
#: the four geographical Teams (II.3); a player in none of them is a Freemason
TEAMS = ("North", "South", "East", "West")
FREEMASON = "Freemason"
#: the Wide Eyed Tree Hugging Anarckists (XXVIII): an organisation that holds money and squares
WETHA = "The WETHA"
#: the squares XXVIII.4 names for the WETHA's Lodges (the 83rd only once the board reaches it)
LODGE_SQUARES = (28, 53, 83)
#: a square's colour until it is painted (XIII.2), and XIII.1's two families of colours
WHITE = "White"
CORPORATE_COLOURS = ("Red", "Orange", "Yellow", "Green", "Blue", "Indigo")
GOVERNMENT_COLOURS = ("Maroon", "Khaki", "Navy", "Teal", "Lime", "Fuschia")


def dollars(amount: Fraction | float | int) -> int:
    """An amount rounded to the nearest dollar, a half dollar up (IV.4)."""
    value = Fraction(str(amount)) if isinstance(amount, float) else Fraction(amount)
    return math.floor(value + Fraction(1, 2))


def params(state: GameState, module: str, key: str, default: Any) -> Any:
    """One parameter of an enabled module as the game sets it, else its default (pure code
    without an update context)."""
    return state.params(module).get(key, default)


def market_value(state: GameState, number: int) -> int:
    """A square's market value: the seed never defines it; a standing ruling makes it
    ``market_value_per_number`` x its number ($10 x n)."""
    return number * int(params(state, "teams-ownership", "market_value_per_number", 10))


def rent_value(state: GameState, number: int) -> int:
    """A square's rent value (VIII.5; undefined by the seed, a standing ruling: $2 x n)."""
    return number * int(params(state, "teams-ownership", "rent_per_number", 2))


def is_public_property(number: int) -> bool:
    """X.2: every square whose number is a multiple of 10."""
    return number % 10 == 0


def is_national_park(number: int) -> bool:
    """X.3: every square above 20 that is an odd multiple of 5 (25, 35, 45 ...)."""
    return number > 20 and number % 10 == 5


def is_zoo(state: GameState, number: int) -> bool:
    """X.7: the 45th square."""
    return number == 45


def mentioned_squares(state: GameState) -> set[int]:
    """The squares the rules mention (II.7), as a standing ruling reads it: the first square
    (VI.2, VI.5), Public Property (X.2), National Parks (X.3) and the Zoo (X.7), up to the board's
    highest number, and any the Admin lists (``teams-board.mentioned``)."""
    top = max((s.number for s in state.squares), default=0)
    listed = frozenset(int(n) for n in params(state, "teams-board", "mentioned", []) or [])
    return set(_mentioned(top, api.WETHA.on(state), listed))


@functools.lru_cache(maxsize=64)
def _mentioned(top: int, wetha: bool, listed: frozenset[int]) -> frozenset[int]:
    """:func:`mentioned_squares` from what it depends on (the site asks once per square)."""
    found = {1} | {n for n in range(1, top + 1) if is_public_property(n) or is_national_park(n)}
    found |= {45} & set(range(1, top + 1))
    if wetha:  # XXVIII.4 names the Lodges' squares
        found |= set(LODGE_SQUARES) & set(range(1, top + 1))
    return frozenset(found | listed)


def owner_of(state: GameState, number: int) -> str | None:
    """Who owns square ``number``: a player, a pseudoplayer, or None."""
    return api.OWNERSHIP.of(state).owners.get(number)


def set_owner(state: GameState, number: int, name: str | None) -> None:
    """Make ``name`` (a player, a pseudoplayer, Charity; None: nobody) the owner of ``number``."""
    owners = api.OWNERSHIP.of(state).owners
    if name is None:
        owners.pop(number, None)
    else:
        owners[number] = str(name)


def check_square(ctx: UpdateContext, number: int) -> Square:
    """The live square ``number``, or an error naming the board's squares."""
    square = ctx.state.square(number)
    if square is None or square.destroyed:
        live = [s.number for s in ctx.state.live_squares()]
        raise IllegalAction(f"there is no square {number} on the board (squares {live[0]}-{live[-1]})")
    return square


# -- colours: the board section's ``colours`` (XIII.2: every square is White until painted) -------
def colour_of(state: GameState, number: int) -> str:
    """A square's colour (XIII.2: White until coloured otherwise)."""
    return api.BOARD.of(state).colours.get(number, WHITE)


def set_colour(state: GameState, number: int, colour: str) -> None:
    colours = api.BOARD.of(state).colours
    if colour == WHITE:
        colours.pop(number, None)
    else:
        colours[number] = colour


def any_white(state: GameState) -> bool:
    """VII.1: whether any square of the board is White (stops at the first)."""
    colours = api.BOARD.of(state).colours
    return any(s.number not in colours for s in state.squares if not s.destroyed)


def squares_of(state: GameState, name: str) -> list[int]:
    """The live squares ``name`` owns, in board order."""
    owners = api.OWNERSHIP.of(state).owners
    return [s.number for s in state.squares if not s.destroyed and owners.get(s.number) == name]


def balance(state: GameState, name: str) -> int:
    """The money of a player or a pseudoplayer."""
    if name in state.players:
        return state.players[name].money
    return api.PSEUDO.of(state).money.get(name, 0)


def team_of(state: GameState, name: str) -> str | None:
    """The Team of a player (None: a Freemason, or not yet drawn)."""
    return api.TEAMS.of(state).teams.team_of(name)


def is_freemason(state: GameState, name: str) -> bool:
    return name in api.TEAMS.of(state).freemasons


def best_friend(state: GameState, name: str) -> str | None:
    return api.TEAMS.of(state).best_friends.get(name)


# -- objects (VIII.1, II.8): a module that keeps players' objects has the ``api.KeepsObjects``
# capability; GIVE and LEAVE find every such module among the enabled ones, in precedence order, so
# a new section's objects are given and left like the rest.
def object_keepers(state: GameState) -> list[api.KeepsObjects]:
    from admin.games.registry import REGISTRY

    return [m for m in REGISTRY.enabled(state) if isinstance(m, api.KeepsObjects)]


def objects_of(state: GameState, name: str) -> dict[str, int]:
    """Every object ``name`` holds, over every module that keeps objects."""
    out: dict[str, int] = {}
    for keeper in object_keepers(state):
        for item, n in keeper.objects_of(state, name).items():
            out[item] = out.get(item, 0) + n
    return out


def move_object(state: GameState, giver: str, receiver: str, item: str, n: int = 1) -> None:
    """``n`` of ``item`` pass from ``giver`` to ``receiver`` (a player or a pseudoplayer)."""
    for keeper in object_keepers(state):
        have = keeper.objects_of(state, giver).get(item, 0)
        if have:
            take = min(have, n)
            keeper.move_object(state, giver, receiver, item, take)
            n -= take
        if n <= 0:
            return
    held = ", ".join(f"{k} x{v}" for k, v in objects_of(state, giver).items()) or "nothing"
    raise IllegalAction(f"{giver} has no {item} to give; {giver} holds {held}")


def fine(ctx: UpdateContext, player: Player, amount: int, *, rule: str, reason: str) -> None:
    """A player "is fined" or "loses" money: it goes to The Government (IV.2)."""
    ctx.transfer(player.name, GOVERNMENT, amount, rule=rule, reason=reason)


def live_player(ctx: UpdateContext, name: str) -> Player:
    """An active player by name, or an error naming the players there are."""
    player = ctx.state.players.get(name)
    if player is None or not player.active:
        others = ", ".join(sorted(p.name for p in ctx.state.active_players())) or "none"
        raise IllegalAction(f"there is no player named {name!r}; players: {others}")
    return player


# -- things other sections keep on squares (XIX's products), read by their attribute names --------
def _kept(state: GameState, attr: str) -> list[Any]:
    """Every enabled module state's ``attr`` (a section that keeps Blockbusters, Jumpgates or Stores
    names its field so: ``blockbusters``, ``jumpgates``, ``stores``)."""
    return [v for mod in state.mods.values() if (v := getattr(mod, attr, None))]


def blockbuster_squares(state: GameState) -> set[int]:
    """The squares holding a Blockbuster (XIX.4). Their places are secret (the products section's
    private state): a Taxi or a delivery truck goes round them without saying where they are."""
    products = api.PRODUCTS_PRIVATE.get(state)
    return {b.square for b in products.blockbusters} if products is not None else set()


def jumpgate_pairs(state: GameState) -> list[tuple[int, int]]:
    """The Jumpgates (XIX.5) as pairs of sister squares."""
    products = api.PRODUCTS.get(state)
    return [(int(a), int(b)) for a, b in products.jumpgates] if products is not None else []


def store_owners(state: GameState) -> dict[int, str]:
    """The Stores: square -> who owns the Store (a module's ``stores``, a mapping square -> owner,
    or squares whose owner owns the Store)."""
    found: dict[int, str] = {}
    for kept in _kept(state, "stores"):
        if isinstance(kept, dict):
            found.update({int(n): str(o) for n, o in kept.items()})
        else:
            found.update({int(n): o for n in kept if (o := owner_of(state, int(n)))})
    return found


def make_sick(ctx: UpdateContext, name: str, *, rule: str, why: str) -> None:
    """``name`` becomes Sick: the health section's ``teams-health.sick`` (VII.1 reads it); without
    that section the Admin is told to record it."""
    health = api.HEALTH.get(ctx.state)
    if health is not None:
        if name not in health.sick:
            health.sick.append(name)
        ctx.emit("sick", f"{name} became Sick: {why} ({rule}).", player=name, rule=rule)
    else:
        ctx.emit("admin", f"{name} became Sick: {why} ({rule}); no health section is in play to keep it: "
                          "record it by a ruling.", player=name, rule=rule)
#: What the sections mark on a square, for the others to read: mark -> predicates (state, number)
#: -> bool, each section adding its own (like ``leaving.ITEM_KEEPERS``). Marks read so far:
#: ``tree`` (XXVIII.8), ``lodge`` (XXVIII.4), ``pollutant`` (a Lodge; XXVIII.8 keeps trees off),
#: ``store`` and ``tefflon`` (XIII.9, XIX: trees keep off them; no section of the rulebook makes a
#: Store), ``jumpgate`` (XIX.5: XXVIII.5 spares it), ``indestructible`` (a Lodge: ``ownership.destroy``
#: refuses). The coatings refuse a Lodge and a tree's square (XXVIII.4, XXVIII.8) by ``lodge`` and
#: ``tree``.
SQUARE_MARKS: dict[str, list[Callable[[GameState, int], bool]]] = {}


def add_mark(mark: str, predicate: Callable[[GameState, int], bool]) -> None:
    """A section says which squares carry ``mark`` (once, at import)."""
    if predicate not in SQUARE_MARKS.setdefault(mark, []):
        SQUARE_MARKS[mark].append(predicate)


def marked(state: GameState, number: int, mark: str) -> bool:
    """Whether square ``number`` carries ``mark`` by any section's say."""
    return any(pred(state, number) for pred in SQUARE_MARKS.get(mark, ()))
