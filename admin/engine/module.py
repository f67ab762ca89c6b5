"""The mechanic-module protocol (the registry of mechanics is :mod:`admin.engine.registry`).

A mechanic module implements one mechanic of one or more games. It

- names the rule ids it automates (``rules``) and declares its parameters with defaults;
- **owns its state**: ``State`` (public) and ``Private`` (admin-only) are dataclasses stored under
  the module's own key (``state.mods[name]`` / ``state.private.mods[name]``), saved in the update's
  one transaction to ``state/modules/<name>.yaml`` and ``state/private/<name>.yaml``;
- registers its commands (grammar, typed command, handler, usage line) with ``commands()``;
- hooks into the update (``on_land``, ``on_pass_end``, ``on_doubles`` ...) and into the lives of
  players and squares (``on_player_added``, ``on_player_reset``, ``on_player_removed`` ...);
- says how it shows: public facts about a player or a square (the site, the JSON export) and the
  lines it adds to a player's results mail (private parts allowed there).

The game's state lists the enabled modules with their parameters; that list's order is
precedence: hooks run in that order. The core imports no module: it calls these hooks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Sequence, TypeVar

from admin.engine.errors import RuleError
from admin.engine.shows import Fact, Panel, SquareLook

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.inventory import Inventory
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player, Square

Handler = Callable[["UpdateContext", "Player", Any], str]
#: what carries out one kind of the Admin's rulings (``nomopoly ruling KIND``): its message
RulingHandler = Callable[["UpdateContext", "Ruling"], str]
S = TypeVar("S")
P = TypeVar("P")
C = TypeVar("C")


@dataclass(frozen=True)
class CommandSpec:
    """One player command a module adds: its keyword, typed command, parser, handler, usage."""

    keyword: str
    command: type
    handler: Handler
    parse: Callable[..., Any]
    usage: str
    #: a multi-line command running to a line END (PROPOSE)
    block: bool = False
    #: when it runs among an update's actions: lower first; ties round-robin in a random order
    phase: int = 50
    #: the result is told to its player only (burying a card)
    private: bool = False
    #: it is not a voluntary action (III.5 counts only those)
    voluntary: bool = True
    #: its place in a "Valid commands" list (lower first; the core's STATUS, JOIN, TOKEN: 70-90)
    listing: int = 100
    #: what it does, in one sentence (the how-to-play page and HELP)
    summary: str = ""
    #: a line a player could send (the how-to-play page and HELP)
    example: str = ""
    #: the rules it comes from, as the module numbers them (a game that numbers them its own way
    #: is cited by its module's rules instead)
    rules: tuple[str, ...] = ()


class Mechanic(Generic[S, P]):
    #: the module's name in the game's configuration
    name: ClassVar[str] = ""
    #: the rule ids it automates, e.g. ("XIII.1", "XIII.3")
    rules: ClassVar[tuple[str, ...]] = ()
    #: parameters and their defaults; the game's config overrides them
    defaults: ClassVar[dict[str, Any]] = {}
    #: the least value a whole-number parameter may take (a board of 0 columns is no board)
    minimums: ClassVar[dict[str, int]] = {}
    #: the values a text parameter may take ("instead" or "add" ...)
    choices: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the most a whole-number parameter may be (admin/engine/params.py: 10^9 when not named here)
    maximums: ClassVar[dict[str, int]] = {}
    #: checks of the inside of a list or mapping parameter (dice, slots), raising RuleError
    validators: ClassVar[dict[str, Callable[[Any], None]]] = {}
    summary: ClassVar[str] = ""
    #: the numbers its rules' texts state that are its parameters: rule id (as ``rules`` numbers
    #: it) -> parameter -> the phrases that state it, ``{}`` marking the number ("{} times the
    #: square's number"); the rule's text and the parameter are kept one (admin/nomic/stated.py)
    stated: ClassVar[dict[str, dict[str, tuple[str, ...]]]] = {}
    #: the dataclass of the state it owns (public), or None
    State: ClassVar[type | None] = None
    #: the dataclass of its private state, or None
    Private: ClassVar[type | None] = None
    #: the version of its state's shape (a migration bumps it)
    version: ClassVar[int] = 1
    #: the modules it needs (enabling it enables them first, in this order)
    requires: ClassVar[tuple[str, ...]] = ()
    #: the modules whose hooks must run before this one's (precedence the sections' order alone
    #: would not give): enabling either module places this one after the other
    runs_after: ClassVar[tuple[str, ...]] = ()
    #: a failed action leaves the game as it was before it, money and all (the Teams variant's
    #: XXII.4: what a failed action cost or gained is refunded or rescinded); when any enabled
    #: module says so, the core keeps a copy of the state before each action
    undo_failed_actions: ClassVar[bool] = False

    @classmethod
    def describe(cls, params: dict[str, Any]) -> str:
        """Its summary for a game with these parameters (the rules page): :attr:`summary`, unless
        the parameters switch off a part the summary names."""
        return cls.summary

    # -- its state -------------------------------------------------------------------------
    @classmethod
    def of(cls, state: GameState) -> S:
        """This module's public state in ``state`` (raises if the game does not have it)."""
        try:
            mine: S = state.mods[cls.name]
            return mine
        except KeyError:
            raise RuleError(f"the {cls.name} module is not part of this game; enable it first "
                            f"(nomopoly ruling enable {cls.name})") from None

    @classmethod
    def private_of(cls, state: GameState) -> P:
        try:
            secret: P = state.private.mods[cls.name]
            return secret
        except KeyError:
            raise RuleError(f"the {cls.name} module's private state is missing; enable it first "
                            f"(nomopoly ruling enable {cls.name})") from None

    def new_state(self) -> tuple[Any, Any]:
        """Fresh (public, private) state: what ``setup`` starts from."""
        return (self.State() if self.State else None, self.Private() if self.Private else None)

    def setup(self, state: GameState) -> None:
        """Give the module its state in ``state`` (a new game, or enabled mid-game): a fresh
        state, then ``on_player_added`` for every player already in the game."""
        public, private = self.new_state()
        if public is not None:
            state.mods.setdefault(self.name, public)
        if private is not None:
            state.private.mods.setdefault(self.name, private)
        for player in state.players.values():
            if player.active:
                self.on_player_added(state, player)

    # -- commands --------------------------------------------------------------------------
    def commands(self) -> Sequence[CommandSpec]:
        return ()

    # -- lives of players and squares (pure: no update context) ------------------------------
    def on_player_added(self, state: GameState, player: Player) -> None: ...
    def on_player_removed(self, state: GameState, player: Player) -> None: ...
    def on_square_added(self, state: GameState, square: Square) -> None:
        """The square is new, brought back, or destroyed: forget what was kept about it."""
    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        """Square ``old`` now has the number ``new`` (a destroyed square's, the Teams variant's
        XVIII.2): move what was kept under ``old`` to ``new``; ``old`` no longer exists."""

    # -- update hooks; each does nothing unless a module overrides it -----------------------
    def on_update_start(self, ctx: UpdateContext) -> None: ...
    def on_turns(self, ctx: UpdateContext) -> None:
        """The turns of an update (a module that runs turns: every player's, or the next one's)."""
    def on_action(self, ctx: UpdateContext, player: Player, command: Any) -> None: ...
    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None: ...
    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None: ...
    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        """The player passed over square ``number`` in a move (left behind, not landed on)."""
    def misses_turn(self, ctx: UpdateContext, player: Player) -> str | None:
        return None

    def move_instead(self, ctx: UpdateContext, player: Player, steps: int) -> bool | int:
        """Carry out the player's move of ``steps`` if it is this module's to make (a player off the
        board, on a track of its own); True if it made it, or, for a move along a path of its own
        that went past its end (a helicopter flying along the columns back to square 1), how many
        times it did (an int of 1 or more: the move's pass bonuses); False if it did not."""
        return False

    def redirect_landing(self, ctx: UpdateContext, player: Player, square: Square) -> int | None:
        """Where a player about to land on ``square`` lands instead (grease slides them on), or None."""
        return None

    def moves_backwards(self, ctx: UpdateContext, player: Player) -> bool:
        """True if this module sends the player's next move backwards (a poison donut ...)."""
        return False
    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None: ...
    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None: ...
    def on_doubles(self, ctx: UpdateContext, player: Player, turn: int) -> None: ...
    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None: ...
    def on_update_end(self, ctx: UpdateContext) -> None: ...

    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        return rent

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: Square, rent: int) -> int:
        """The rent ``payer`` owes after every ``adjust_rent``: what depends on who pays (the
        first Nomopoly's discount for landing on one's own colour)."""
        return rent

    def on_rent_paid(self, ctx: UpdateContext, payer: Player, owner: Player, square: Square, amount: int) -> None:
        """``payer`` has just paid ``amount`` rent to ``owner`` for ``square`` (a tax on collected
        rent, a point for the square ...)."""

    def on_square_bought(self, ctx: UpdateContext, player: Player, square: Square) -> None: ...
    def on_card_drawn(self, ctx: UpdateContext, player: Player, card: str) -> None: ...

    def on_payment(self, ctx: UpdateContext, payer: str, payee: str, amount: int, kind: str) -> None:
        """``payer`` has just paid ``amount`` (more than 0) to ``payee`` (a player, ``BANK`` or a
        party a module keeps); ``kind`` says what for: ``rent``, ``tax``, ``purchase``, ``fine``,
        ``wage``, ``bonus``, ``other`` ... (every move of money: ``UpdateContext.transfer``)."""

    def account(self, state: GameState, party: str) -> dict[str, int] | None:
        """The balances (name -> money, a mutable part of the module's state) that hold the money
        of ``party``, a party this module keeps that is not a player (the Teams variant's
        pseudoplayers, the Free Parking pot), or None. ``UpdateContext.transfer`` pays to and from
        them by name."""
        return None

    def trade_inventory(self, state: GameState, player: str, item: str) -> Inventory | None:
        """The inventory of this module in which ``player`` holds ``item`` (at least one), for a
        trade to give it from (XX.1); None when they hold none here."""
        return None

    # -- interactions this module opened (admin/engine/interactions.py) ---------------------
    def check_answer(self, ctx: UpdateContext, interaction: Any, player: Player, value: Any) -> Any:
        """An answer to one of this module's interactions, as it will be kept; raise IllegalAction
        to refuse it (a bid over the bidder's money ...)."""
        return value

    def resolve_interaction(self, ctx: UpdateContext, interaction: Any, answers: dict[str, Any]) -> str:
        """Carry out one of this module's interactions at its deadline (every party's answer
        given, silence applied); return what came of it, in words."""
        return "closed"

    def rulings(self) -> dict[str, RulingHandler]:
        """The Admin's rulings this module adds: kind -> apply(ctx, ruling) -> what was done."""
        return {}

    def dice_for(self, state: GameState, player: Player) -> str | None:
        """The dice this player rolls for a turn, if this module decides it (VII.4)."""
        return None

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        """React to a turn's roll before the move; return other faces to move by instead (a rocket
        sled that blows up: the move is made on foot), or None."""
        return None

    def extra_proposals(self, state: GameState, player: str) -> int:
        """Proposals a week ``player`` may make beyond the proposals module's ``per_week`` (the
        Governor's second, XXXV.3)."""
        return 0

    def worth(self, state: GameState, player: Player) -> int:
        """What this module adds to the player's net worth (VI.16)."""
        return 0

    def can_own(self, state: GameState, square: Square) -> bool:
        """False if this module forbids buying the square (it is contaminated ...)."""
        return True

    # -- how it shows ----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return []

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return []

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        return None

    def panels(self, state: GameState) -> list[Panel]:
        """Pages this module adds to the site (public state only)."""
        return []

    def face_down_piles(self, state: GameState) -> dict[str, Any]:
        """The module's face-down piles (deck name -> :class:`~admin.engine.decks.DeckState`): each
        update's record commits to their order (docs/fairness.md)."""
        return {}

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        """(order, line) for "Where you stand" in this player's results mail; private allowed."""
        return []

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        """(order, phrase) for the reply to STATUS; private allowed."""
        return []

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        """What only the player and the Admin may know (a hand ...): ``status --json --private``."""
        return []

    # -- setting up a scenario or a test -----------------------------------------------------
    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        """Set a player's ``key`` (health, hand ...) if this module keeps it; True if it did."""
        return False

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        """Set a square's ``key`` (owner, card ...) if this module keeps it; True if it did."""
        return False
