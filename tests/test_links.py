"""Typed links between mechanics (admin/engine/links.py): each declared link names a mechanic of
the library and the class of its state; a link to a mechanic not in force gives nothing."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from admin.engine.errors import RuleError
from admin.engine.links import Link, Note
from admin.games.registry import REGISTRY
from admin.jobs import update as jobs
from admin.library.api import CARDS, PASS_BONUS

ADMIN = Path(__file__).resolve().parent.parent / "admin"
API_MODULES = sorted([ADMIN / "library" / "api.py", *ADMIN.glob("games/*/api.py")])
ANNOTATION = re.compile(r"Link\[(\w+)\]")


def _declared() -> list[tuple[str, str, Link, str]]:
    """(api module, variable, link, the class its annotation names) for every link declared."""
    out = []
    for path in API_MODULES:
        dotted = ".".join(path.relative_to(ADMIN.parent).with_suffix("").parts)
        module = importlib.import_module(dotted)
        for var, annotation in module.__annotations__.items():
            link = getattr(module, var)
            if isinstance(link, Link):
                found = ANNOTATION.fullmatch(str(annotation))
                assert found, f"{dotted}.{var}: annotate it Link[<state class>], not {annotation!r}"
                out.append((dotted, var, link, found.group(1)))
    return out


def test_every_declared_link_names_a_mechanic_and_the_class_of_its_state():
    declared = _declared()
    assert len(declared) >= 10
    for where, var, link, named in declared:
        cls = REGISTRY.known.get(link.name)
        assert cls is not None, f"{where}.{var} links to {link.name!r}, which no mechanic is called"
        state = cls.Private if link.private else cls.State
        assert (state.__name__ if state is not None else "None") == named, (
            f"{where}.{var} says the {link.name} mechanic's state is {named}; it is "
            f"{state.__name__ if state is not None else 'None'}")


def test_a_link_to_a_mechanic_not_in_force_gives_nothing_and_names_the_ruling(tmp_path):
    state = jobs.init_game(tmp_path / "g", "nomopoly2").load()
    assert CARDS.on(state) and CARDS.get(state) is CARDS.of(state) is state.mods["cards"]
    state.modules = [m for m in state.modules if m.name != "cards"]  # the section repealed
    assert not CARDS.on(state)
    assert CARDS.get(state) is None  # its state is still saved, but the link is off
    with pytest.raises(RuleError, match="nomopoly ruling enable cards"):
        CARDS.of(state)


def test_a_note_lasts_one_update_and_two_notes_may_not_share_a_name():
    class Ctx:
        scratch: dict = {}

    ctx = Ctx()
    ctx.scratch = {}
    assert PASS_BONUS.peek(ctx) is None
    PASS_BONUS.of(ctx).add("alice")
    assert PASS_BONUS.of(ctx) == {"alice"} and ctx.scratch == {"pass-bonus": {"alice"}}
    PASS_BONUS.clear(ctx)
    assert PASS_BONUS.peek(ctx) is None
    with pytest.raises(ValueError, match="pass-bonus"):
        Note("pass-bonus", set)
