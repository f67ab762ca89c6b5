"""A game made from another (``base:``) with optional sections in force from the start
(``enable:``, by name): Nomopoly II's whole rulebook, ``nomopoly2-full``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from admin.jobs import update as jobs
from admin.engine.errors import RuleError
from admin.games.catalog import HERE, available, initial_state, spec


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


def test_enable_names_only_what_the_game_offers(tmp_path):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "game.yaml").write_text("title: Bad\noptional:\n  railroads: r.md\nenable: [zeppelins]\n")
    with pytest.raises(RuleError, match=r"enable names zeppelins, which the game does not offer "
                                        r"\(its optional mechanics: railroads\)"):
        spec("bad", tmp_path)


def test_a_game_without_proposals_has_no_proposals_link(tmp_path):
    from admin.jobs.demo import run_demo

    site = run_demo(tmp_path / "timo", echo=lambda _: None, game_name="timopoly")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="proposals.html"' not in index and 'href="rules.html"' in index


def test_coverage_lists_a_rule_of_the_rulebook_that_no_section_has_yet_as_missing():
    from dataclasses import replace

    from admin.jobs.coverage import coverage

    full = spec("nomopoly2-full")
    assert full.rulebook[:3] == ["I.1", "I.2", "I.3"] and full.rulebook[-1] == "XXXV.5"
    state = initial_state("nomopoly2-full", "t")
    listed = coverage(state, replace(full, rulebook=[*full.rulebook, "XC.1"]))
    rows = {row.rule: row for row in listed}
    assert rows["XC.1"].status == "missing" and "no section" in (rows["XC.1"].how or "")
    assert rows["XVII.2"].status == "automated"  # a written, automated rule is not reported twice
    assert [row.rule for row in listed].count("XVII.2") == 1


#: the optional sections each bundled game has in force from the start: a change to any game's
#: list, or to what a game inherits, shows here
IN_FORCE = {
    "nomopoly1": [], "nomopoly2": [], "nomoteams": [], "technopoly": [], "timopoly": [],
    "nomopoly2-full": ["blackjack", "railroads", "lottery", "zoo", "trading", "blocks", "buildings",
                       "terrorism", "house-of-cards", "nonsense", "missiles", "bank", "credit-cards",
                       "transport", "net-worth", "bingo", "exploit-blocks", "casinos", "patents",
                       "governor"],
}


def test_each_bundled_game_has_exactly_the_optional_sections_it_lists_in_force():
    assert {name: spec(name).enabled_optional for name in available()} == IN_FORCE


def _games_copy(tmp_path: Path) -> Path:
    games = tmp_path / "games"
    for name in available():
        (games / name).mkdir(parents=True)
        shutil.copy(HERE / name / "game.yaml", games / name / "game.yaml")
    return games


def test_a_section_added_to_a_game_is_not_switched_on_in_a_game_made_from_it(tmp_path):
    games = _games_copy(tmp_path)
    core = games / "nomopoly2" / "game.yaml"
    data = yaml.safe_load(core.read_text())
    data["optional"]["free-parking"] = "sections/36-free-parking.md"
    core.write_text(yaml.safe_dump(data))
    assert "free-parking" in spec("nomopoly2", games).optional
    assert "free-parking" in spec("nomopoly2-full", games).optional
    assert spec("nomopoly2-full", games).enabled_optional == IN_FORCE["nomopoly2-full"]


def test_a_game_that_asks_for_all_its_sections_at_once_is_refused_naming_them(tmp_path):
    games = _games_copy(tmp_path)
    full = games / "nomopoly2-full" / "game.yaml"
    full.write_text(full.read_text().replace("enable: [", "enable: all\nwas: ["))
    with pytest.raises(RuleError, match=r"enable must list the optional mechanics .* by name \(not 'all'\); "
                                        r"the game offers blackjack, railroads"):
        spec("nomopoly2-full", games)
