"""The hook specs and their one dispatcher.

A hook is a method of :class:`~admin.engine.module.Mechanic` that several mechanics implement and
the core (or another mechanic) calls on every enabled one, in precedence order (the game's list
of modules). Each spec below says, once, what the hook is for (its one-line doc), which concern
it belongs to, and how the answers of the mechanics combine (:class:`Combine`). Code never loops
over the enabled mechanics itself: it asks the dispatcher,

    hooks.call(ctx).can_own(ctx.state, square)          # in an update
    hooks.call(state, REGISTRY).player_facts(state, p)  # outside one (the site, the mail)

which calls only the mechanics that override the hook (a default does nothing and answers the
neutral value, so leaving it out changes nothing) and combines their answers as declared: the
same calls in the same order, with the same short cuts, as a hand-written loop would make.

What only one mechanic does is not a hook but a capability of that mechanic
(:mod:`admin.engine.capabilities`), reached through the registry by its class. ``docs/
architecture.md``'s table of hooks is tested against :data:`SPECS` (tests/test_hooks.py).
"""

# mypy: disable-error-code="empty-body"
# (a spec's body is never run: the decorator puts the dispatcher's runner in its place)
from __future__ import annotations

import inspect
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from admin.engine.model import GameState
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.inventory import Inventory
    from admin.engine.model import GameState, Player, Square
    from admin.engine.module import RulingHandler
    from admin.engine.registry import Registry


class Combine(Enum):
    """How the answers of the mechanics that implement a hook make its result."""

    EACH = "call each"              # every one is called, in order; no answer
    EACH_WHILE = "call each while"  # every one in order, stopping once ``stop`` holds
    FIRST = "first answer"          # the first truthy answer (later ones are not called); else None
    FIRST_SET = "first not None"    # the first answer that is not None; else None
    ALL = "all"                     # True unless one says False (the rest are then not called)
    ANY = "any"                     # False unless one says True (the rest are then not called)
    SUM = "sum"                     # the answers added up, from 0
    FOLD = "fold"                   # each gets the previous one's answer as its ``fold`` argument
    PIPE = "pipe"                   # like fold, but a falsy answer (None) leaves the value as it was
    CONCAT = "concatenate"          # the lists answered, one after another
    GATHER = "gather"               # the answers that are not None, in order
    MERGE = "merge"                 # the dicts answered, merged: the first to name a key keeps it


CONCERNS = {
    "lifecycle": "The lives of players and squares, and the phases of an update",
    "movement": "Turns, dice and moves",
    "rules": "Reactions of the rules: rent, money, what may be owned, proposals",
    "show": "What the site, the export and the mail show",
    "scenario": "Setting up a scenario or a test",
}


@dataclass(frozen=True)
class HookSpec:
    name: str
    concern: str
    combine: Combine
    doc: str
    #: FOLD / PIPE: the argument each mechanic's answer replaces
    fold: str | None = None
    #: EACH_WHILE: called with the hook's arguments before each call; true stops the calls
    stop: Callable[..., bool] | None = None
    #: the mechanics that do not override it are called too (its default does something)
    every: bool = False


#: every hook, by name, in the order declared (the documentation's order)
SPECS: dict[str, HookSpec] = {}

F = TypeVar("F", bound=Callable[..., Any])


def _runner(spec: HookSpec, position: int) -> Callable[..., Any]:
    """The function that calls ``spec`` on a :class:`Hooks`' mechanics and combines the answers."""
    name, how = spec.name, spec.combine

    def run(self: Hooks, *args: Any) -> Any:
        mods = self._implementers(name, spec.every)
        if how is Combine.EACH:
            for m in mods:
                getattr(m, name)(*args)
            return None
        if how is Combine.EACH_WHILE:
            assert spec.stop is not None
            for m in mods:
                if spec.stop(*args):
                    break
                getattr(m, name)(*args)
            return None
        if how is Combine.FIRST:
            for m in mods:
                r = getattr(m, name)(*args)
                if r:
                    return r
            return None
        if how is Combine.FIRST_SET:
            for m in mods:
                r = getattr(m, name)(*args)
                if r is not None:
                    return r
            return None
        if how is Combine.ALL:
            return all(getattr(m, name)(*args) for m in mods)
        if how is Combine.ANY:
            return any(getattr(m, name)(*args) for m in mods)
        if how is Combine.SUM:
            return sum(getattr(m, name)(*args) for m in mods)
        if how is Combine.FOLD or how is Combine.PIPE:
            values = list(args)
            for m in mods:
                r = getattr(m, name)(*values)
                if how is Combine.FOLD:
                    values[position] = r
                else:
                    values[position] = r or values[position]
            return values[position]
        if how is Combine.CONCAT:
            out: list[Any] = []
            for m in mods:
                out += getattr(m, name)(*args)
            return out
        if how is Combine.GATHER:
            return [r for m in mods if (r := getattr(m, name)(*args)) is not None]
        merged: dict[Any, Any] = {}
        for m in mods:
            for key, value in getattr(m, name)(*args).items():
                merged.setdefault(key, value)
        return merged

    run.__name__ = name
    run.__doc__ = spec.doc
    return run


def spec(concern: str, combine: Combine, *, fold: str | None = None, stop: Callable[..., bool] | None = None,
         every: bool = False) -> Callable[[F], F]:
    """Declare the hook the decorated method names (its signature is the mechanics' method's,
    without ``self``; its docstring's first line is the hook's doc). Arguments are passed by
    position."""
    assert concern in CONCERNS, concern

    def declare(fn: F) -> F:
        doc = (fn.__doc__ or "").strip().splitlines()[0]
        s = HookSpec(fn.__name__, concern, combine, doc, fold, stop, every)
        assert fn.__name__ not in SPECS and callable(getattr(Mechanic, fn.__name__, None)), fn.__name__
        params = list(inspect.signature(fn).parameters)[1:]
        position = params.index(fold) if fold else -1
        assert (fold is not None) == (combine in (Combine.FOLD, Combine.PIPE)), fn.__name__
        SPECS[s.name] = s
        return _runner(s, position)  # type: ignore[return-value]  # takes and answers what fn declares

    return declare


def _inactive(ctx: Any, player: Player, *_: Any) -> bool:
    return not player.active


class Hooks:
    """The enabled mechanics of one game, to call a hook on (see the module's doc)."""

    __slots__ = ("_registry", "_state", "_mods")

    def __init__(self, registry: Registry | None, state: GameState | None,
                 mechanics: Sequence[Mechanic[Any, Any]] | None = None) -> None:
        self._registry, self._state = registry, state
        #: an explicit list (a filtered one): used as given, not through the registry's cache
        self._mods = mechanics

    def _implementers(self, name: str, every: bool) -> Sequence[Mechanic[Any, Any]]:
        if self._mods is not None:
            return self._mods if every else [m for m in self._mods if overrides(m, name)]
        if self._registry is None or self._state is None:
            return ()
        return self._registry.implementers(self._state, name, every)

    # -- lifecycle -----------------------------------------------------------------------------
    @spec("lifecycle", Combine.EACH, every=True)
    def setup(self, state: GameState) -> None:
        """Give the module its state (a new game, or enabled mid-game)."""

    @spec("lifecycle", Combine.EACH)
    def on_player_added(self, state: GameState, player: Player) -> None:
        """A player joined: set up the module's part of them."""

    @spec("lifecycle", Combine.EACH)
    def on_player_removed(self, state: GameState, player: Player) -> None:
        """A player left the game: forget or hand on what the module kept about them."""

    @spec("lifecycle", Combine.EACH)
    def on_square_added(self, state: GameState, square: Square) -> None:
        """A square is new, brought back or destroyed: forget what was kept about it."""

    @spec("lifecycle", Combine.EACH)
    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        """Square ``old`` now has the number ``new``: move what was kept under ``old``."""

    @spec("lifecycle", Combine.EACH)
    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        """A player's user was reset (XII.1): put back the module's part of them."""

    @spec("lifecycle", Combine.EACH)
    def on_update_start(self, ctx: UpdateContext) -> None:
        """An update begins, before any action."""

    @spec("lifecycle", Combine.EACH)
    def on_action(self, ctx: UpdateContext, player: Player, command: Any) -> None:
        """A player's action was carried out."""

    @spec("lifecycle", Combine.EACH)
    def on_turns(self, ctx: UpdateContext) -> None:
        """The turns of an update (a module that runs turns)."""

    @spec("lifecycle", Combine.EACH)
    def on_update_end(self, ctx: UpdateContext) -> None:
        """An update ends, after the turns."""

    # -- movement ------------------------------------------------------------------------------
    @spec("movement", Combine.EACH)
    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        """A player's turn begins, before the roll."""

    @spec("movement", Combine.FIRST)
    def dice_for(self, state: GameState, player: Player) -> str | None:
        """The dice the player rolls for a turn, if the module decides it (VII.4)."""

    @spec("movement", Combine.PIPE, fold="faces")
    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int]:
        """React to a turn's roll before the move; other faces to move by instead, or None."""

    @spec("movement", Combine.ANY)
    def moves_backwards(self, ctx: UpdateContext, player: Player) -> bool:
        """True if the module sends the player's next move backwards."""

    @spec("movement", Combine.FIRST_SET)
    def misses_turn(self, ctx: UpdateContext, player: Player) -> str | None:
        """Why the player misses this move (a rule made them lose a turn), or None."""

    @spec("movement", Combine.FIRST)
    def move_instead(self, ctx: UpdateContext, player: Player, steps: int) -> bool | int | None:
        """Make the move if it is the module's to make: True, or how many times it passed the end."""

    @spec("movement", Combine.EACH)
    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None:
        """The player's move went from the last square of the board on to the first."""

    @spec("movement", Combine.EACH)
    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        """The player passed over square ``number`` in a move (left behind, not landed on)."""

    @spec("movement", Combine.FIRST_SET)
    def redirect_landing(self, ctx: UpdateContext, player: Player, square: Square) -> int | None:
        """Where a player about to land on ``square`` lands instead, or None."""

    @spec("movement", Combine.EACH_WHILE, stop=_inactive)
    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        """The player landed on ``square`` (no more modules are asked once they left the game)."""

    @spec("movement", Combine.EACH)
    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        """A player's turn (its move) ended; ``wrapped``: times it passed the end."""

    @spec("movement", Combine.EACH)
    def on_doubles(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        """The player rolled doubles and rolls again (a card, VII.2; a rule a proposal wrote)."""

    # -- rules reactions -----------------------------------------------------------------------
    @spec("rules", Combine.FOLD, fold="rent")
    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        """The rent of ``square``, changed by each module in turn (buildings, pollution ...)."""

    @spec("rules", Combine.FOLD, fold="rent")
    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: Square, rent: int) -> int:
        """The rent ``payer`` owes after every adjust_rent: what depends on who pays."""

    @spec("rules", Combine.EACH)
    def on_rent_paid(self, ctx: UpdateContext, payer: Player, owner: Player, square: Square, amount: int) -> None:
        """``payer`` has just paid ``amount`` rent to ``owner`` for ``square``."""

    @spec("rules", Combine.EACH)
    def on_payment(self, ctx: UpdateContext, payer: str, payee: str, amount: int, kind: str) -> None:
        """Money moved: ``payer`` paid ``amount`` (over 0) to ``payee``; ``kind``: rent, tax, purchase, fine ..."""

    @spec("rules", Combine.EACH)
    def on_square_bought(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        """``player`` has just bought ``square``."""

    @spec("rules", Combine.EACH)
    def on_card_drawn(self, ctx: UpdateContext, player: Player, card: str) -> None:
        """``player`` has just drawn ``card`` (dealt to their hand, or buried over the limit)."""

    @spec("rules", Combine.FIRST_SET)
    def account(self, state: GameState, party: str) -> dict[str, int] | None:
        """The balances that hold the money of ``party``, a party that is not a player, or None."""

    @spec("rules", Combine.FIRST_SET)
    def trade_inventory(self, state: GameState, player: str, item: str) -> Inventory | None:
        """The inventory in which ``player`` holds ``item``, for a trade to give it from, or None."""

    @spec("rules", Combine.ALL)
    def can_own(self, state: GameState, square: Square) -> bool:
        """False if the module forbids buying the square (it is contaminated ...)."""

    @spec("rules", Combine.SUM)
    def worth(self, state: GameState, player: Player) -> int:
        """What the module adds to the player's net worth (VI.16)."""

    @spec("rules", Combine.SUM)
    def extra_proposals(self, state: GameState, player: str) -> int:
        """Proposals a week the player may make beyond the usual number."""

    @spec("rules", Combine.MERGE)
    def rulings(self) -> dict[str, RulingHandler]:
        """The Admin's rulings the module adds: kind -> apply (the first module to name a kind wins)."""

    # -- what the site, the export and the mail show --------------------------------------------
    @spec("show", Combine.CONCAT)
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        """Public facts about a player (the site, the JSON export)."""

    @spec("show", Combine.CONCAT)
    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        """Public facts about a square (the site, the JSON export)."""

    @spec("show", Combine.GATHER)
    def square_look(self, state: GameState, square: Square) -> list[SquareLook]:
        """An overlay on the square in the board picture (owner colour, notes, flags ...)."""

    @spec("show", Combine.CONCAT)
    def panels(self, state: GameState) -> list[Panel]:
        """Pages the module adds to the site (public state only)."""

    @spec("show", Combine.CONCAT)
    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        """(order, line) for "Where you stand" in the player's results mail; private allowed."""

    @spec("show", Combine.CONCAT)
    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        """(order, phrase) for the reply to STATUS; private allowed."""

    @spec("show", Combine.CONCAT)
    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        """What only the player and the Admin may know (``status --json --private``)."""

    @spec("show", Combine.MERGE)
    def face_down_piles(self, state: GameState) -> dict[str, Any]:
        """Its face-down piles, deck name -> DeckState: each update's record commits to their order."""

    # -- setting up a scenario or a test -------------------------------------------------------
    @spec("scenario", Combine.ANY)
    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        """Set a player's ``key`` if the module keeps it; True if it did."""

    @spec("scenario", Combine.ANY)
    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        """Set a square's ``key`` if the module keeps it; True if it did."""


#: methods of a mechanic called only on the mechanic concerned (the one that opened an
#: interaction), not on every enabled one: no combination
OWN = {
    "check_answer": "An answer to one of the module's interactions, as it will be kept (or refused).",
    "resolve_interaction": "Carry out one of the module's interactions at its deadline.",
}


def overrides(mechanic: Mechanic[Any, Any], name: str) -> bool:
    """Whether ``mechanic`` implements hook ``name`` (its class overrides Mechanic's default)."""
    return getattr(type(mechanic), name) is not getattr(Mechanic, name)


def call(where: UpdateContext | GameState, registry: Registry | None = None, *,
         skip: Mechanic[Any, Any] | None = None, only: Callable[[Mechanic[Any, Any]], bool] | None = None) -> Hooks:
    """The hooks of the mechanics enabled in ``where`` (an update's context, or a state with the
    ``registry`` that resolves it), in precedence order; ``skip`` leaves one out (a module asking
    the others), ``only`` keeps those it accepts."""
    if isinstance(where, GameState):
        assert registry is not None, "a state needs the registry that resolves it"
        state = where
    else:
        registry, state = where.registry, where.state
    if skip is None and only is None:
        return Hooks(registry, state)
    mods = [m for m in registry.enabled(state) if m is not skip and (only is None or only(m))]
    return Hooks(registry, state, mods)
