"""Which module automates a rule (Registry.module_for_rule): a module the game has, never a library
module the game lacks that another game numbers the same way. (The type checker found the old
fall-back to the library's modules unreachable: these pin what the function does.)"""

from __future__ import annotations

from admin.games.catalog import initial_state
from admin.games.registry import REGISTRY


def test_a_rule_is_automated_by_a_module_the_game_has():
    state = initial_state("nomopoly2", "n2")
    assert REGISTRY.module_for_rule("VI.9", state) == "ownership"
    assert REGISTRY.module_for_rule("XIII.1", state) == "ownership"


def test_a_library_module_the_game_lacks_automates_none_of_its_rules():
    state = initial_state("timopoly", "timo")
    assert "ownership" not in [m.name for m in state.modules]
    assert REGISTRY.module_for_rule("VI.9", state) is None  # Nomopoly II's rent rule, not Timopoly's
    assert REGISTRY.module_for_rule("XIII.1", state) == "timo-building"  # Timopoly's own XIII.1


def test_a_dormant_module_still_answers_for_its_rules():
    state = initial_state("nomopoly2", "n2")
    state.modules = [m for m in state.modules if m.name != "ownership"]  # switched off, state kept
    assert "ownership" in state.mods
    assert REGISTRY.module_for_rule("VI.9", state) == "ownership"


def test_without_a_game_the_library_modules_answer():
    assert REGISTRY.module_for_rule("XIII.1") == "ownership"
    assert REGISTRY.module_for_rule("no such rule") is None
