"""What Nomopoly II's later sections read of each other: one place for each shared fact.

Each owning module keeps its state under its own name (its link in ``admin/games/nomopoly2/api.py``),
some with the dataclasses below; the others read it only through these functions, which answer
"nothing" when the owner is not enabled (a section switched off, or not yet switched on, has no
effect on the rest)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.games.nomopoly2 import api
from admin.games.nomopoly2.api import (
    BANK_OF_NOMOPOLY, BLOCKS, GOVERNOR, MISSILES, TERRORISM, TRANSPORT, ZOO, BankSquare, Builds,
    HouseOfCardsSquare, kept, offered,
)
from admin.games.nomopoly2.mechanics.conditions import CONDITIONS, grant, grant_weeks  # noqa: F401
from admin.library.payment import charge as charge, split_on_credit as split_on_credit  # part of this interface

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square


# What a section does for the others is a capability in the game's api (admin/games/nomopoly2/api.py):
# a class its mechanic derives from, asked of the registry (None while the section is off).

# -- XXI Blocks (module "blocks") ---------------------------------------------------------
BLOCK_KINDS = ("residential", "industrial", "commercial", "government")


@dataclass
class Block:
    id: int
    #: one of BLOCK_KINDS
    kind: str
    squares: list[int] = field(default_factory=list)
    #: (industrial) the squares that were polluted before the block made them so: they stay
    #: polluted when the block is destroyed (added by the blocks section)
    polluted_before: list[int] = field(default_factory=list)


@dataclass
class BlocksState:
    blocks: list[Block] = field(default_factory=list)
    next_id: int = 1


def block_of(state: GameState, number: int) -> Block | None:
    """The block square ``number`` is part of (XXI.7: one at most), or None."""
    bs = BLOCKS.get(state)
    if bs is None:
        return None
    for block in bs.blocks:
        if number in block.squares:
            return block
    return None


def centre(block: Block) -> int | None:
    """The centre square of an Industrial block (the middle of its three, XXII.4's Missile Silo)."""
    return sorted(block.squares)[1] if block.kind == "industrial" and len(block.squares) == 3 else None


def blocks(state: GameState) -> list[Block]:
    bs = BLOCKS.get(state)
    return list(bs.blocks) if bs is not None else []


# -- XXII Buildings (module "buildings") --------------------------------------------------
#: every building of XXII.4, by the name players write (lower case, hyphens for spaces)
BUILDINGS = ("springboard", "house", "hospital", "mall", "store", "corporate-headquarters",
             "missile-silo", "anti-missile-battery", "legislative-building", "gas-station", "factory",
             "atm", "casino")


@dataclass
class BuildingsState:
    #: square -> the buildings on it, in the order they were built (names from BUILDINGS)
    on: dict[int, list[str]] = field(default_factory=dict)
    #: square -> its corporate power points (XXII.4, Corporate Headquarters)
    power: dict[int, int] = field(default_factory=dict)
    #: square -> the price per 100 fuel its owner set at a commercial Gas Station (XXII.4)
    fuel_price: dict[int, int] = field(default_factory=dict)


def building_label(name: str) -> str:
    """How a building is written in a sentence: "missile-silo" -> "Missile Silo"."""
    return {"anti-missile-battery": "Anti-Missile Battery", "atm": "ATM"}.get(
        name, name.replace("-", " ").title())


def a_building(name: str) -> str:
    """A building with its article: "atm" -> "an ATM", "house" -> "a House"."""
    label = building_label(name)
    return f"{'an' if label[0] in 'AEIOU' else 'a'} {label}"


def buildings_on(state: GameState, number: int) -> list[str]:
    bs = api.BUILDINGS.get(state)
    return list(bs.on.get(number, ())) if bs is not None else []


def has_building(state: GameState, number: int, name: str) -> bool:
    return name in buildings_on(state, number)


def squares_with(state: GameState, name: str) -> list[int]:
    """Every square with building ``name``, in order."""
    bs = api.BUILDINGS.get(state)
    return sorted(n for n, names in bs.on.items() if name in names) if bs is not None else []


#: XXII.4's purchase price of each building (VI.16 counts them in a square's net worth). The
#: buildings module owns the prices: while it is in force its ``Builds.building_price`` (from a
#: parameter the Admin may change) is read instead of this table.
BUILDING_PRICES = {"springboard": 100, "house": 300, "hospital": 250, "mall": 500, "store": 600,
                   "corporate-headquarters": 1000, "missile-silo": 250, "anti-missile-battery": 100,
                   "legislative-building": 500, "gas-station": 100, "factory": 500, "atm": 50,
                   "casino": 500}


def building_price(state: GameState, name: str) -> int:
    """What building ``name`` costs to build (XXII.4)."""
    builds = offered(state, Builds)
    if builds is not None:  # the section's own prices, as its parameters say
        return int(builds.building_price(state, name))
    return BUILDING_PRICES.get(name, 0)


def square_net_worth(state: GameState, number: int) -> int:
    """A square's net worth (VI.16): its purchase price plus the purchase prices of the buildings
    on it (the Bank's mortgages, XXVII.1, and the credit card's seizures, XXVIII.5, use it)."""
    from admin.library.ownership import OwnershipModule

    price = int({**OwnershipModule.defaults, **state.params("ownership")}["price_per_number"])
    return number * price + sum(building_price(state, b) for b in buildings_on(state, number))
def fuel_price_at(state: GameState, number: int) -> int | None:
    """What 100 fuel costs at the Gas Station on square ``number`` (XXII.4): a Government one's
    fixed price, a commercial one's as its owner set it (the Government price until they do);
    None when the square has no Gas Station."""
    if not has_building(state, number, "gas-station"):
        return None
    builds = offered(state, Builds)  # in force: the square has a Gas Station
    return int(builds.fuel_price(state, number)) if builds is not None else None  # the owner's rules


def destroy_building(state: GameState, number: int, name: str) -> bool:
    """Take building ``name`` off square ``number`` (a missile, a Skunk ...) with everything that
    goes with it (a Corporate Headquarters' power points, a Gas Station's price); no refund.
    False if it was not there."""
    bs = api.BUILDINGS.get(state)
    if bs is None or name not in bs.on.get(number, ()):
        return False
    bs.on[number] = [b for b in bs.on[number] if b != name]
    if not bs.on[number]:
        del bs.on[number]
    if name == "corporate-headquarters":
        bs.power.pop(number, None)
    if name == "gas-station":
        bs.fuel_price.pop(number, None)
    ms = kept(state, MISSILES)  # kept while the section is off too
    if name == "missile-silo" and ms is not None:  # its stock goes with it (XXVI.2): a missile's hit
        ms.held.pop(number, None)                  # fires it first (XXII.4, strikes.haywire)
        ms.pending.pop(number, None)
    return True


# -- XXIX Methods of Transportation (module "transport") -----------------------------------
#: the methods of XXIX.3 (lower case, hyphens for spaces); "foot" is everyone's default
METHODS = ("foot", "clogs", "pogo-stick", "krazy-carpet", "helicopter", "car", "springy-shoes")


def transport_of(state: GameState, player: str) -> str:
    """The player's method of transportation (XXIX.2), "foot" when none or the module is off."""
    ts = TRANSPORT.get(state)
    if ts is None:
        return "foot"
    return str(ts.methods.get(player, "foot"))


# What a method of transportation protects from or exposes to (XXIX.3); the sections with glue,
# time bombs, anthrax and bingo cards ask these (all False while the transport module is off).
def immune_to_glue(state: GameState, player: str) -> bool:
    """Clogs walk through glue (XXIX.3): the glue neither stops nor harms their wearer."""
    return transport_of(state, player) == "clogs"


def falls_in_glue(state: GameState, player: str) -> bool:
    """A pogo stick caught by glue falls and smashes its rider's face (XXIX.3): the glue's owner
    stops the player there as usual and gives them the "passed-out" condition (XIX.3's effect)."""
    return transport_of(state, player) == "pogo-stick"


def immune_to_time_bombs(state: GameState, player: str) -> bool:
    """A Krazy Carpet floats over time bombs (XXIX.3): landing on one does nothing to its rider."""
    return transport_of(state, player) == "krazy-carpet"


def immune_to_anthrax(state: GameState, player: str) -> bool:
    """Anthrax may not be used against a player on a Helicopter (XXIX.3)."""
    return transport_of(state, player) == "helicopter"


def marks_bingo(state: GameState, player: str) -> bool:
    """Whether landing after a turn marks the player's Bingo Cards (XXXI.2): never on Springy Shoes
    (XXIX.3), whose turn is a jump to a random square."""
    return transport_of(state, player) != "springy-shoes"


# -- XXXV The Governor (module "governor") -------------------------------------------------
def governor(state: GameState) -> str | None:
    """The player who is Governor now, or None."""
    gs = GOVERNOR.get(state)
    return gs.governor if gs is not None else None


# -- conditions (module "conditions"): timed states of a player several sections share ------


def has_condition(state: GameState, player: str, name: str) -> bool:
    """Whether ``player`` is ``name`` now (see ConditionsModule for how long a condition lasts)."""
    cs = api.CONDITIONS.get(state)
    if cs is None:
        return False
    until = cs.until.get(player, {}).get(name)
    week = cs.weeks.get(player, {}).get(name)
    return (until is not None and (until == 0 or until >= state.update)) or (week is not None and week >= state.week)


def pass_out(ctx: UpdateContext, player: Player, *, rule: str, reason: str) -> None:
    """``player`` passes out (XIX.3: sprayed by the Skunk; XXIX.3: a pogo stick caught by glue):
    no voluntary action this update (and the next ``passed_out_updates``), and the loss of
    ``spray_health_loss`` health, as the Zoo's parameters say (their defaults while it is off).
    The caller says why first."""
    from admin.library.health import change_health

    p = ctx.params(ZOO.name)  # its defaults while the Zoo is off
    if api.CONDITIONS.on(ctx.state):
        grant(ctx.state, player.name, "passed-out", ctx.state.update + int(p["passed_out_updates"]))
    ctx.barred.add(player.name)
    change_health(ctx, player, -int(p["spray_health_loss"]), rule=rule, reason=reason)


# -- XXVIII Credit Cards (module "credit-cards"): paying for a voluntary purchase ----------


# -- XXVII The Bank of Nomopoly (module "bank"): mortgaged squares ------------------------
def bank_square(state: GameState) -> int | None:
    """The square the Bank of Nomopoly stands on (XXVII.1, the bank module's ``square``), or None
    when the bank is not in force."""
    bank = offered(state, BankSquare)
    return bank.its_square(state) if bank is not None else None


def house_of_cards_square(state: GameState) -> int | None:
    """The square of the House of Cards (XXIV.1, the house-of-cards module's ``square``), or None
    when it is not in force."""
    house = offered(state, HouseOfCardsSquare)
    return house.its_square(state) if house is not None else None


def is_mortgaged(state: GameState, number: int) -> bool:
    """Whether square ``number`` is mortgaged to the Bank of Nomopoly (XXVII.1: it takes no rent)."""
    bs = BANK_OF_NOMOPOLY.get(state)
    return bs is not None and number in bs.mortgages


# -- XVI Blackjack: squares named "Blackjack" ----------------------------------------------
# The Skunk's jump to Blackjack (XIX.3), no Warp Bubble (XXIV.2) or car drive (XXIX.3) to it,
# and XVI.1's deal all ask this one question.
def is_blackjack(square: Square | None) -> bool:
    """Whether ``square`` is named "Blackjack" (any case, spaces around ignored)."""
    return square is not None and not getattr(square, "destroyed", False) \
        and (square.name or "").strip().casefold() == "blackjack"


def blackjack_squares(state: GameState) -> list[int]:
    """The live squares named "Blackjack", in order (a name is unique, XIII.4: one at most)."""
    return [s.number for s in state.squares if is_blackjack(s)]


# -- XXIII Terrorism (module "terrorism"): atrocities --------------------------------------
def is_terrorist(state: GameState, player: str) -> bool:
    """Whether ``player`` is a terrorist now (XXIII.1): no lottery tickets, trades only with
    terrorists, no $1000 for going round (XXIII.2); never while Terrorism is not in force."""
    return TERRORISM.on(state) and has_condition(state, player, "terrorist")


def may_commit_atrocity(state: GameState, player: str) -> str | None:
    """Why ``player`` may not commit an atrocity (XXXV.3: not the Governor), or None."""
    if governor(state) == player:
        return "the Governor may not commit any atrocities (XXXV.3)"
    return None


def commit_atrocity(ctx: UpdateContext, player: str, *, major: bool, rule: str, what: str) -> None:
    """``player`` consented to an action leading to a minor or major atrocity (XXIII.1): a
    terrorist for this week and the next one (minor) or the next six (major), unless they hold
    diplomatic immunity (XXXI.3). Check :func:`may_commit_atrocity` before the act."""
    if not TERRORISM.on(ctx.state) or not api.CONDITIONS.on(ctx.state):
        return
    if has_condition(ctx.state, player, "diplomatic-immunity"):
        ctx.emit("atrocity", f"{player}'s diplomatic immunity keeps them from being a terrorist for {what}.",
                 rule="XXXI.3", player=player)
        return
    weeks = int(ctx.params("terrorism")["major_weeks" if major else "minor_weeks"])
    grant_weeks(ctx.state, player, "terrorist", ctx.state.week + weeks)
    ctx.emit("atrocity", f"{player} committed a {'major' if major else 'minor'} atrocity ({what}) and is a "
             f"terrorist until the end of week {ctx.state.week + weeks}.", rule="XXIII.1", player=player)
