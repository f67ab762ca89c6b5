"""The rules page says what is not in force or not run (issue 31): a section whose mechanic a
DISABLE switched off reads as switched off, not as in force; a rule a proposal added that nothing
runs says the Admin applies it."""

from __future__ import annotations

import re

from admin.games.registry import REGISTRY
from admin.jobs import update as jobs
from admin.nomic.amendments import carry_out, parse_directives
from admin.site.build import build_site
from admin.store.fileio import Transaction

SONG = "A player who lands on the lowest numbered square sings a song for the Admin."


def _article(html: str, rule_id: str) -> str:
    anchor = "rule-" + rule_id.replace(".", "-")
    return re.search(rf'<article class="rule-item" id="{anchor}">(.*?)</article>', html, re.S).group(1)


def _section(html: str, numeral: str) -> str:
    return re.search(rf'<section class="rule-section" id="section-{numeral}"(.*?)</section>', html, re.S).group(1)


def test_a_disabled_section_and_a_text_only_rule_say_so_on_the_rules_page(tmp_path):
    game = jobs.init_game(tmp_path / "g", "nomopoly2-full")
    with game.lock():
        state = game.load()
        state.update = 2
        carry_out(state, 3, parse_directives(f"DISABLE zoo\nADD RULE VI: {SONG}"), REGISTRY)
        tx = Transaction(game.state_dir)
        game.stage_state(tx, state)
        tx.commit()
    html = (build_site(game, tmp_path / "site") / "rules.html").read_text(encoding="utf-8")
    zoo = _section(html, "XIX")
    assert '<span class="badge off">switched off</span>' in zoo
    assert "Not in force: the zoo module that carries this section is switched off (disabled)" in zoo
    assert "switched off" not in _section(html, "XVII")  # railroads: still in force
    song = _article(html, "VI.19")
    assert SONG in song and "not carried out automatically: the Admin applies it" in song
    assert "not carried out automatically" not in _article(html, "VI.9")  # automated by ownership
