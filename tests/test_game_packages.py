"""A game made from another (``base:``) with optional sections in force from the start
(``enable: all``): Nomopoly II's whole rulebook, ``nomopoly2-full``."""

from __future__ import annotations

import pytest

from admin import jobs
from admin.errors import RuleError
from admin.game import GameDir
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


@pytest.fixture(scope="module")
def full_demo(tmp_path_factory):
    from admin.demo import run_demo

    out = tmp_path_factory.mktemp("full") / "demo"
    run_demo(out, echo=lambda _: None, game_name="nomopoly2-full")
    return GameDir(out)


def test_the_full_demo_replays_and_verifies(full_demo):
    assert jobs.replay_check(full_demo) == []
    assert jobs.verify(full_demo) == []


def test_the_full_demo_plays_the_sections_commands_and_its_site_shows_them(full_demo):
    from admin.mechanics.railroads import RailroadsModule

    state = full_demo.load()
    assert RailroadsModule.of(state).squares == [2, 3, 8, 12, 16]  # dave's second (on 16) was refused
    board = (full_demo.root / "site" / "board.html").read_text(encoding="utf-8")
    assert all(f"Square {n}; owned by {who}; a railroad" in board
               for n, who in ((2, "bob"), (3, "alice"), (8, "dave"), (12, "alice"), (16, "bob")))
    howto = (full_demo.root / "site" / "howto.html").read_text(encoding="utf-8")
    assert "BUILD RAILROAD ON &lt;square&gt;" in howto


def test_a_modules_page_joins_the_site_and_its_navigation(full_demo):
    from bs4 import BeautifulSoup

    site = full_demo.root / "site"
    soup = BeautifulSoup((site / "railroads.html").read_text(encoding="utf-8"), "html.parser")
    rows = [[c.get_text() for c in tr.find_all(["th", "td"])] for tr in soup.select("table.panel tbody tr")]
    # 2 and 3 are east-west neighbours on the 10-wide snake; 8, 12 and 16 touch no other railroad
    assert rows == [["2", "", "bob", "3"], ["3", "", "alice", "2"], ["8", "", "dave", "none"],
                    ["12", "", "alice", "none"], ["16", "", "bob", "none"]]
    nav = [a.get_text() for a in BeautifulSoup((site / "index.html").read_text(encoding="utf-8"),
                                               "html.parser").select("nav a")]
    # the sections' own pages sit between Rules and Updates, in their order (Railroads, XVII, first)
    pages = nav[nav.index("Rules") + 1:nav.index("Updates")]
    assert pages[0] == "Railroads" and pages.index("Blocks") < pages.index("Buildings")
    assert all(p in pages for p in ("Transport", "The Bank", "The Zoo", "Casinos", "Patents", "The Lottery"))


def test_a_game_without_proposals_has_no_proposals_link(tmp_path):
    from admin.demo import run_demo

    site = run_demo(tmp_path / "timo", echo=lambda _: None, game_name="timopoly")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="proposals.html"' not in index and 'href="rules.html"' in index


def test_coverage_lists_a_rule_of_the_rulebook_that_no_section_has_yet_as_missing():
    from dataclasses import replace

    from admin.coverage import coverage

    full = spec("nomopoly2-full")
    assert full.rulebook[:3] == ["I.1", "I.2", "I.3"] and full.rulebook[-1] == "XXXV.5"
    state = initial_state("nomopoly2-full", "t")
    listed = coverage(state, replace(full, rulebook=[*full.rulebook, "XC.1"]))
    rows = {row.rule: row for row in listed}
    assert rows["XC.1"].status == "missing" and "no section" in (rows["XC.1"].how or "")
    assert rows["XVII.2"].status == "automated"  # a written, automated rule is not reported twice
    assert [row.rule for row in listed].count("XVII.2") == 1
