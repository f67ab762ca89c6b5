"""Nomopoly II's typed links (admin/games/nomopoly2/api.py): each capability one section offers
the others is had by exactly one of the game's mechanics, which writes every method of it; asked
of a game where that section is off, it is not there."""

from __future__ import annotations

import inspect

import pytest

from admin.engine.links import Note
from admin.games.nomopoly2 import api
from admin.games.registry import REGISTRY
from admin.jobs import update as jobs

CAPABILITIES = sorted((obj for name, obj in vars(api).items()
                       if inspect.isclass(obj) and obj.__module__ == api.__name__
                       and obj is not api.StandsOnASquare), key=lambda c: c.__name__)


def _methods(cls: type) -> list[str]:
    return [n for n, f in vars(cls).items() if inspect.isfunction(f)] or \
        [n for base in cls.__mro__[1:] for n, f in vars(base).items() if inspect.isfunction(f)]


def test_the_api_declares_the_capabilities_the_sections_offer_each_other():
    assert [c.__name__ for c in CAPABILITIES] == [
        "BankSquare", "Builds", "DealsBingoCards", "FiresMissiles", "GivesJokers", "HouseOfCardsSquare",
        "KeepsCreatures", "KeepsCreditCards", "MakesBlocks", "RollsByMethod"]


@pytest.mark.parametrize("capability", CAPABILITIES, ids=lambda c: c.__name__)
def test_each_capability_is_one_mechanics_and_it_writes_every_method(capability):
    having = [cls for cls in REGISTRY.known.values() if issubclass(cls, capability)]
    assert len(having) == 1, f"{capability.__name__} is had by {[c.name for c in having]}"
    mechanic = having[0]
    assert mechanic.__module__.startswith("admin.games.nomopoly2.mechanics.")
    for method in _methods(capability):
        assert getattr(mechanic, method) is not getattr(capability, method), \
            f"{mechanic.__name__} does not write {capability.__name__}.{method}"
        ours = inspect.signature(getattr(capability, method))
        theirs = inspect.signature(getattr(mechanic, method))
        assert list(ours.parameters) == list(theirs.parameters), (mechanic.__name__, method)


def test_a_capability_of_a_section_not_in_force_is_not_there(tmp_path):
    state = jobs.init_game(tmp_path / "g", "nomopoly2-full").load()
    on = {c.__name__: REGISTRY.provider(state, c) for c in CAPABILITIES}
    assert all(found is not None for found in on.values()), on
    assert REGISTRY.provider(state, api.FiresMissiles).name == "missiles"
    assert api.offered(state, api.BankSquare).its_square(state) == 30
    assert api.offered(state, api.HouseOfCardsSquare).its_square(state) == 42
    state.modules = [m for m in state.modules if m.name not in ("missiles", "bank")]
    assert REGISTRY.provider(state, api.FiresMissiles) is None
    assert api.offered(state, api.BankSquare) is None
    assert api.offered(state, api.HouseOfCardsSquare) is not None


def test_a_section_switched_off_still_keeps_its_state_but_its_link_is_off(tmp_path):
    state = jobs.init_game(tmp_path / "g", "nomopoly2-full").load()
    assert api.MISSILES.get(state) is state.mods["missiles"] is api.kept(state, api.MISSILES)
    state.modules = [m for m in state.modules if m.name != "missiles"]
    assert api.MISSILES.get(state) is None
    assert api.kept(state, api.MISSILES) is state.mods["missiles"]


def test_the_games_notes_keep_the_scratch_keys_the_update_snapshots():
    notes = {v.name for v in vars(api).values() if isinstance(v, Note)}
    assert notes == {"missile-rolls", "zoo-rolls", "zoo-rides", "bingo-turn", "hoc-masked", "springboard-chain",
                     "buildings-built", "casino-plays", "auto-shuffler", "transport-move", "transport-reached",
                     "transport-drives", "transport-burnt"}
