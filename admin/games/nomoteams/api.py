"""Typed links between the Teams variant's mechanics (:mod:`admin.engine.links`): the sections
whose state the others read, the notes they keep for one update, and what one section does for
another (a capability: the mechanic derives from its class; ask
``ctx.registry.provider(ctx.state, DestroysSquares)``, None while that section is off).

This module imports no mechanic (their state classes only for the type checker), so every
section may import it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.links import Link, Note

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState
    from admin.games.nomoteams.mechanics.actions import ActionsState
    from admin.games.nomoteams.mechanics.board import TeamsBoardState
    from admin.games.nomoteams.mechanics.coatings import CoatingsState
    from admin.games.nomoteams.mechanics.colours.state import ColoursState
    from admin.games.nomoteams.mechanics.destruction import DestructionState
    from admin.games.nomoteams.mechanics.disputes.state import DisputesState
    from admin.games.nomoteams.mechanics.government import GovernmentState
    from admin.games.nomoteams.mechanics.health import HealthState
    from admin.games.nomoteams.mechanics.ownership.state import TeamsOwnershipState
    from admin.games.nomoteams.mechanics.products.state import ProductsPrivate, ProductsState
    from admin.games.nomoteams.mechanics.pseudo import PseudoState
    from admin.games.nomoteams.mechanics.teams import TeamsState
    from admin.games.nomoteams.mechanics.wetha import WethaState

#: the Teams, the Freemasons and the Best Friends (II.3-II.6)
TEAMS: Link[TeamsState] = Link("teams")
#: The Government's and The Corporation's money, and the pieces that are no players (X.1, XXXIII)
PSEUDO: Link[PseudoState] = Link("teams-pseudo")
#: who owns each square (VIII)
OWNERSHIP: Link[TeamsOwnershipState] = Link("teams-ownership")
#: the board section: the squares' colours (XIII.2)
BOARD: Link[TeamsBoardState] = Link("teams-board")
#: the Registered Voters (X.4), the Zoo's Souvenir Hats, The Government's auctions (X.5)
GOVERNMENT: Link[GovernmentState] = Link("teams-government")
#: who is Sick and who is Hurt (VII.1)
HEALTH: Link[HealthState] = Link("teams-health")
#: the cans of Government Issue Paint players hold, the Elephant Skin Color (XIII.4, XIII.6)
COLOURING: Link[ColoursState] = Link("teams-colours")
#: the coatings on squares: Tefflon, glue, grease (XIII.9-XIII.13)
COATINGS: Link[CoatingsState] = Link("teams-coatings")
#: who holds Explosive Insurance (XVIII.4)
DESTRUCTION: Link[DestructionState] = Link("teams-destruction")
#: where involuntary actions put players in this update (XXII.8)
ACTIONS: Link[ActionsState] = Link("teams-actions")
#: the disputes and the Chains they award (XXVII)
DISPUTES: Link[DisputesState] = Link("teams-disputes")
#: the Products: the catalogue, who holds which, the Chains (XIX); privately the Blockbusters' squares
PRODUCTS: Link[ProductsState] = Link("teams-products")
PRODUCTS_PRIVATE: Link[ProductsPrivate] = Link("teams-products", private=True)
#: the WETHA: its Dues payers, Lodges and trees (XXVIII)
WETHA: Link[WethaState] = Link("teams-wetha")

#: the players who move In Reverse for the rest of this turn (VII.6's 7 or 11 while speeding)
REVERSE: Note[set[str]] = Note("teams-reverse", set)
#: the players taking a normal turn of VII right now (not a move by another rule)
TURNING: Note[set[str]] = Note("teams-turn", set)
#: player -> how many turns the library had counted when her earned turn began (VII.4's speeding)
TURN_BASE: Note[dict[str, int]] = Note("teams-turn-base", dict)
#: player -> the glued square she started this turn on (XIII.11)
GLUED: Note[dict[str, int]] = Note("teams-glue", dict)
#: the players whose glue left them no dice this turn: they stay where they are (XIII.11)
GLUED_STILL: Note[set[str]] = Note("teams-glue-still", set)
#: how many times each Product's effect has rolled in this update (its dice labels number on)
PRODUCT_ROLLS: Note[dict[str, int]] = Note("teams-product-rolls", dict)
#: the player whose Hot Spring Bath is being settled (XIX.6; curing her settles it again)
BATH: Note[str] = Note("teams-bath", str)
#: "payer/square" -> how many times a Dues payer has rolled against its rent in this update (XXVIII.3)
WETHA_RENT: Note[dict[str, int]] = Note("wetha-rent", dict)


class DestroysSquares:
    """Squares are destroyed as XVIII says (the destruction section): its protected squares, the
    renumbering, Explosive Insurance."""

    def destroy(self, ctx: UpdateContext, number: int, *, reason: str, rule: str, by: str | None = None) -> bool:
        """Destroy square ``number``: True if it was destroyed, False if Explosive Insurance averted
        it; an IllegalAction if the rules name it (XVIII.1)."""
        raise NotImplementedError


class KeepsObjects:
    """The section keeps objects players (and pseudoplayers) hold: GIVE (VIII.1) and LEAVE (II.8)
    hand them over whichever section keeps them (``shared.objects_of``, ``shared.move_object``)."""

    def objects_of(self, state: GameState, name: str) -> dict[str, int]:
        """What ``name`` holds of this section's objects: item -> how many (none left out as 0)."""
        raise NotImplementedError

    def move_object(self, state: GameState, giver: str, receiver: str, item: str, n: int) -> None:
        """``n`` of ``item`` (the giver holds that many) pass from ``giver`` to ``receiver``."""
        raise NotImplementedError


class SettlesBaths:
    """A Hot Spring Bath acts when its owner's health changes (the Products section, XIX.6)."""

    def settle_bath(self, ctx: UpdateContext, name: str) -> str:
        """Cure ``name`` and rust her Chains if she owns a Hot Spring Bath, which then may
        disappear; what happened, as a sentence to add to a verdict ("" if nothing did)."""
        raise NotImplementedError
