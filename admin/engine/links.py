"""Typed links between mechanics: one mechanic's state, and the per-update notes, by a declared
handle instead of a string.

A mechanic whose state others read declares a :class:`Link` to it once, in its game's (or the
library's) ``api.py``, annotated with the state's dataclass; the others import the handle, never the
mechanic's module, and a link to a mechanic that is not in force gives ``None``::

    if TYPE_CHECKING:
        from .mechanics.government import GovernmentState
    GOVERNMENT: Link[GovernmentState] = Link("teams-government")   # games/nomoteams/api.py

    gov = GOVERNMENT.get(state)          # GovernmentState | None: None when the section is off
    if GOVERNMENT.on(state): ...         # the section is in force
    GOVERNMENT.of(state)                 # GovernmentState, or a RuleError saying to enable it

A mechanic that offers others something it *does* (fire a missile, put a purchase on credit) is a
capability instead: a class in the api module the mechanic derives from, asked of the registry
(``ctx.registry.provider(ctx.state, FiresMissiles)``; :mod:`admin.engine.capabilities`).

What a mechanic notes for the rest of one update only (who has had the pass bonus, which squares
changed hands) is a :class:`Note`, declared with the factory of its value::

    PASS_BONUS: Note[set[str]] = Note("pass-bonus", set)
    if player.name in PASS_BONUS.of(ctx): ...      # the update's set, made on first use
    PASS_BONUS.peek(ctx)                           # the value, or None if nobody noted any

A test (tests/test_links.py) checks that every link an api module declares names a mechanic of the
library whose ``State`` (or ``Private``) is the class its annotation names; two notes of one name
are refused when the second is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Generic, TypeVar

from admin.engine.errors import RuleError

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

T = TypeVar("T")

#: every link declared, for the test that checks them against the library
LINKS: list[Link[Any]] = []
#: every note declared, by name
NOTES: dict[str, Note[Any]] = {}


class Link(Generic[T]):
    """A handle to the mechanic ``name``: whether it is in force, and its state (its private
    state with ``private=True``). Declare it with its type, ``CARDS: Link[CardsState] =
    Link("cards")`` (the state's class imported under TYPE_CHECKING, so an api module imports no
    mechanic); ``Link[None]`` for a mechanic that keeps no state."""

    __slots__ = ("name", "private")

    def __init__(self, name: str, *, private: bool = False) -> None:
        self.name = name
        self.private = private
        LINKS.append(self)

    def on(self, state: GameState) -> bool:
        """Whether the mechanic is in force in ``state``."""
        return state.enabled(self.name)

    def get(self, state: GameState) -> T | None:
        """The mechanic's state, or None when it is not in force."""
        if not state.enabled(self.name):
            return None
        mods = state.private.mods if self.private else state.mods
        found: T | None = mods.get(self.name)
        return found

    def of(self, state: GameState) -> T:
        """The mechanic's state; a RuleError naming the ruling that enables it when it is off."""
        found = self.get(state)
        if found is None:
            raise RuleError(f"the {self.name} module is not part of this game; enable it first "
                            f"(nomopoly ruling enable {self.name})")
        return found

    def __repr__(self) -> str:
        return f"Link({self.name!r}{', private' if self.private else ''})"


class Note(Generic[T]):
    """A value one update keeps for its own duration (never saved), made by ``factory`` on first
    use; the name is the key in the update's scratch and must be unique."""

    __slots__ = ("name", "factory")

    def __init__(self, name: str, factory: Callable[[], T]) -> None:
        if name in NOTES:
            raise ValueError(f"two notes are named {name!r}; give one another name")
        self.name = name
        self.factory = factory
        NOTES[name] = self

    def of(self, ctx: UpdateContext) -> T:
        """This update's value, made on first use."""
        found: T | None = ctx.scratch.get(self.name)
        if found is None:
            found = ctx.scratch[self.name] = self.factory()
        return found

    def peek(self, ctx: UpdateContext) -> T | None:
        """This update's value, or None if nothing was noted yet."""
        found: T | None = ctx.scratch.get(self.name)
        return found

    def put(self, ctx: UpdateContext, value: T) -> None:
        """Set this update's value."""
        ctx.scratch[self.name] = value

    def clear(self, ctx: UpdateContext) -> None:
        """Forget this update's value."""
        ctx.scratch.pop(self.name, None)

    def __repr__(self) -> str:
        return f"Note({self.name!r})"
