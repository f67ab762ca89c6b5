"""A game made from another (``base:``) with optional sections in force from the start
(``enable: all``): Nomopoly II's whole rulebook, ``nomopoly2-full``."""

from __future__ import annotations

import pytest

from admin import jobs
from admin.errors import RuleError
from admin.games import initial_state, spec


def test_the_full_rulebook_has_every_optional_section_of_the_core_game_in_force():
    core, full = spec("nomopoly2"), spec("nomopoly2-full")
    assert full.base == "nomopoly2" and full.enabled_optional == list(core.optional)
    state = initial_state("nomopoly2-full", "g")
    names = [m.name for m in state.modules]
    assert names[:len(core.modules)] == [m.name for m in core.modules]
    assert all(state.enabled(m) for m in core.optional)
    core_sections = [s.numeral for s in initial_state("nomopoly2", "g").rules.sections]
    added = [s.numeral for s in state.rules.sections if s.numeral not in core_sections]
    assert "XVII" in added and len(added) == len(core.optional)
    assert state.rule_history["XVII.1"][0].action == "created" and state.rule_history["XVII.1"][0].update == 0


def test_a_full_game_on_disk_writes_its_whole_ruleset_and_replays(tmp_path):
    game = jobs.init_game(tmp_path / "g", "nomopoly2-full", "Full")
    files = sorted(p.name for p in game.rules_dir.glob("*.md"))
    assert files == sorted(s.filename for s in initial_state("nomopoly2-full", "g").rules.sections)
    assert "17-railroads.md" in files
    assert game.load().enabled("railroads")
    assert jobs.replay_check(game) == []


def test_enable_names_only_what_the_game_offers(tmp_path, monkeypatch):
    import admin.games as games

    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "game.yaml").write_text("title: Bad\noptional:\n  railroads: r.md\nenable: [zeppelins]\n")
    monkeypatch.setattr(games, "HERE", tmp_path)
    with pytest.raises(RuleError, match=r"enable names zeppelins, which the game does not offer "
                                        r"\(its optional mechanics: railroads\)"):
        games.spec("bad")
