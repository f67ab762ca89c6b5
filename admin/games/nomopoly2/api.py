"""Typed links between Nomopoly II's sections (:mod:`admin.engine.links`): the sections whose
state others read, what one section does for another (a capability: a class here the section's
mechanic derives from, asked of the registry and None while that section is off), and the notes
the sections keep for one update. The library's links are in :mod:`admin.library.api`.

A section that acts through another asks for its capability::

    missiles = ctx.registry.provider(ctx.state, FiresMissiles)
    if missiles is not None:  # the Missiles section is in force
        missiles.fire_random_missile(ctx, number, "XIX.3")

Code that has the state but no update (a net worth, a square's price) asks :func:`offered`."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from admin.engine.links import Link, Note

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.games.nomopoly2.mechanics.bank import BankState
    from admin.games.nomopoly2.mechanics.casinos.state import CasinosState
    from admin.games.nomopoly2.mechanics.conditions import ConditionsState
    from admin.games.nomopoly2.mechanics.credit import CreditState
    from admin.games.nomopoly2.mechanics.governor import GovernorState
    from admin.games.nomopoly2.mechanics.house_of_cards.items import HouseOfCardsState
    from admin.games.nomopoly2.mechanics.missiles import MissilesState
    from admin.games.nomopoly2.mechanics.railroads import RailroadsState
    from admin.games.nomopoly2.mechanics.shared import BlocksState, BuildingsState
    from admin.games.nomopoly2.mechanics.transport.state import TransportState
    from admin.games.nomopoly2.mechanics.zoo.state import ZooState

C = TypeVar("C")

# -- the sections whose state others read ---------------------------------------------------
BANK_OF_NOMOPOLY: Link[BankState] = Link("bank")
BLOCKS: Link[BlocksState] = Link("blocks")
BUILDINGS: Link[BuildingsState] = Link("buildings")
CASINOS: Link[CasinosState] = Link("casinos")
CONDITIONS: Link[ConditionsState] = Link("conditions")
CREDIT: Link[CreditState] = Link("credit-cards")
GOVERNOR: Link[GovernorState] = Link("governor")
HOUSE_OF_CARDS: Link[HouseOfCardsState] = Link("house-of-cards")
MISSILES: Link[MissilesState] = Link("missiles")
RAILROADS: Link[RailroadsState] = Link("railroads")
TERRORISM: Link[None] = Link("terrorism")
TRANSPORT: Link[TransportState] = Link("transport")
ZOO: Link[ZooState] = Link("zoo")


def offered(state: GameState, capability: type[C]) -> C | None:
    """The mechanic in force in ``state`` that has ``capability`` (None while it is off), for code
    with the state but no update (``ctx.registry.provider`` inside one)."""
    from admin.games.registry import REGISTRY  # the registry imports every section: asked late

    return REGISTRY.provider(state, capability)


def kept(state: GameState, link: Link[C]) -> C | None:
    """The state a section keeps whether or not it is in force now (a section switched off keeps
    its state until it is switched on again); None if it never was."""
    found: C | None = (state.private.mods if link.private else state.mods).get(link.name)
    return found


# -- what one section does for another --------------------------------------------------------
class FiresMissiles:
    """The Missiles section (XXVI)."""

    def fire_random_missile(self, ctx: UpdateContext, origin: int, rule: str) -> None:
        """A random missile type, made on the spot, fired from ``origin`` at a random square
        within its range (the Skunk on a Missile Silo, XIX.3)."""
        raise NotImplementedError


class GivesJokers:
    """The Jokers section (XXV)."""

    def give_joker(self, ctx: UpdateContext, player: str, rule: str) -> None:
        """Give ``player`` an undeclared Joker (the Skunk on the House of Cards, XIX.3; one bought
        at a Casino, XXXIII.5); told to the player only."""
        raise NotImplementedError


class MakesBlocks:
    """The Blocks section (XXI)."""

    def make_free_block(self, ctx: UpdateContext, rule: str) -> None:
        """A random block type; of the groups of owned squares that could make one, a random group
        becomes a block of that type, free to its owners (the Skunk on a Mall, XIX.3)."""
        raise NotImplementedError


class KeepsCreditCards:
    """The Credit Cards section (XXVIII)."""

    def issue_card(self, ctx: UpdateContext, player: Player) -> str:
        """``TAKE CREDIT CARD`` at the Bank (XXVII.1): what happened, in words."""
        raise NotImplementedError

    def raise_limits(self, ctx: UpdateContext, percent: int, rule: str) -> None:
        """Every card's limit grows by ``percent``% (the Skunk on the Bank, XIX.3)."""
        raise NotImplementedError


class KeepsCreatures:
    """The Zoo (XIX)."""

    def move_random_creature(self, ctx: UpdateContext, square: int, rule: str) -> str | None:
        """A Pokeball (XXIV.2): a random creature jumps to ``square`` and lands there; its name as
        the Zoo writes it ("the Elephant", "Skunk 2"), or None when there is none."""
        raise NotImplementedError

    def hurt_creatures_on(self, ctx: UpdateContext, square: int, delta: int, *, rule: str,
                          reason: str) -> list[str]:
        """What happens to players on ``square`` happens to its creatures (XIX.4): their health
        changes by ``delta``; their names."""
        raise NotImplementedError

    def infect_creature(self, ctx: UpdateContext, text: str) -> str | None:
        """Anthrax used on the creature named ``text`` (XXIV.2): its name, or None when there is no
        such creature."""
        raise NotImplementedError


class DealsBingoCards:
    """The Bingo section (XXXI)."""

    def new_bingo_card(self, ctx: UpdateContext, player: Player) -> int:
        """Give ``player`` a new bingo card (XXXI.1); its number."""
        raise NotImplementedError


class Builds:
    """The Buildings section (XXII)."""

    def government_buildings(self, state: GameState) -> list[str]:
        """The buildings the Government may build on its squares (XXI.6)."""
        raise NotImplementedError

    def build_free(self, ctx: UpdateContext, square: int, building: str, rule: str) -> None:
        """Put ``building`` on ``square`` free of charge to its owner (the Government, XXI.6; the
        Governor, XXXV.3); IllegalAction when the square may not have it."""
        raise NotImplementedError

    def destroy_all_on(self, ctx: UpdateContext, squares: list[int], *, rule: str) -> str:
        """Every building on ``squares`` destroyed, half its price refunded to the owner (XXII.2);
        what was refunded, in words."""
        raise NotImplementedError

    def fuel_price(self, state: GameState, number: int) -> int:
        """What 100 fuel costs at the Gas Station on square ``number`` (XXII.4)."""
        raise NotImplementedError

    def building_price(self, state: GameState, name: str) -> int:
        """What building ``name`` costs, as the section's parameters say (XXII.4)."""
        raise NotImplementedError


class RollsByMethod:
    """The Methods of Transportation (XXIX)."""

    def die_faces(self, state: GameState, player: str) -> list[int]:
        """The numbers one die of ``player``'s method can show (a Weighted Die, XXXIII.5)."""
        raise NotImplementedError


class StandsOnASquare:
    """A section that stands on one square of the board, its ``square`` parameter."""

    def its_square(self, state: GameState) -> int:
        """The square it stands on in ``state``."""
        raise NotImplementedError


class BankSquare(StandsOnASquare):
    """The Bank of Nomopoly (XXVII.1)."""


class HouseOfCardsSquare(StandsOnASquare):
    """The House of Cards (XXIV.1)."""


# -- what the sections note for one update ------------------------------------------------------
#: how many rolls the Missiles section made in this update (its dice labels number on)
MISSILE_ROLLS: Note[int] = Note("missile-rolls", int)
#: how many rolls the Zoo made in this update (its dice labels number on)
ZOO_ROLLS: Note[int] = Note("zoo-rolls", int)
#: the players who rode a creature in this update (XIX.5)
ZOO_RIDES: Note[set[str]] = Note("zoo-rides", set)
#: the players whose turn is under way, whose landing marks their bingo cards (XXXI.2)
BINGO_TURN: Note[set[str]] = Note("bingo-turn", set)
#: the players a mask hides in this update (XXIV.2)
MASKED: Note[set[str]] = Note("hoc-masked", set)
#: the Springboards each player jumped from in the chain of landings under way (XXII.4)
SPRINGBOARD_CHAIN: Note[dict[str, set[int]]] = Note("springboard-chain", dict)
#: the squares that had a building built in this update (XXII.1: one a square an update)
BUILT: Note[set[int]] = Note("buildings-built", set)
#: how many casino games each player played in this update (XXXIII)
CASINO_PLAYS: Note[dict[str, int]] = Note("casino-plays", dict)
#: how many times each player's Auto-Shuffler was used in this update (XXXIII.5)
AUTO_SHUFFLES: Note[dict[str, int]] = Note("auto-shuffler", dict)
#: the players whose next move is their turn's move on their method (XXIX)
TRANSPORT_MOVE: Note[set[str]] = Note("transport-move", set)
#: the players whose squares reached have been cleared in this update (XXIX)
TRANSPORT_CLEARED: Note[set[str]] = Note("transport-reached", set)
#: the drives each player made in this update (XXIX.3: a car)
DRIVES: Note[dict[str, int]] = Note("transport-drives", dict)
#: what each player's car's roll burnt, told as the move starts (XXIX.3)
BURNT: Note[dict[str, tuple[str, dict[str, int]]]] = Note("transport-burnt", dict)
