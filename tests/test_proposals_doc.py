"""docs/proposals.md's examples are true (issue 33, item 4): each rule in a ```rules GAME``` block
is read in that game's words and, where the game runs written rules, is one it runs; each rule in a
```refused GAME``` block is refused there; every game that takes proposals has examples; and the
restatements and messages the page quotes are the ones the tool gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from admin.games import catalog as games
from admin.games.registry import REGISTRY
from admin.nomic.rulelang.model import NotUnderstood, Rule
from admin.nomic.rulelang.words import rule_words
from admin.nomic.written import WrittenRulesModule, read_rule, runnable, vocabulary

DOC = Path(__file__).resolve().parents[1] / "docs" / "proposals.md"
_BLOCK = re.compile(r"^```(rules|refused) ([\w-]+)\n(.*?)^```$", re.M | re.S)


def _examples(kind: str) -> list[tuple[str, str]]:
    """(game, rule text) of every line of the doc's blocks of ``kind``."""
    return [(game, line.strip()) for k, game, body in _BLOCK.findall(DOC.read_text(encoding="utf-8"))
            if k == kind for line in body.splitlines() if line.strip()]


def _state(game: str):
    return games.initial_state(game, "doc")


def _takes_proposals(game: str) -> bool:
    return any("propose" in name for name in REGISTRY.command_table(_state(game)))


def test_the_doc_has_examples_for_every_game_that_takes_proposals_and_none_for_the_others():
    shown = {game for game, _ in _examples("rules")}
    assert shown <= set(games.available()), "an example names a game that is not bundled"
    assert shown == {g for g in games.available() if _takes_proposals(g)}
    assert len(_examples("rules")) >= 15


@pytest.mark.parametrize("game, text", _examples("rules"))
def test_each_example_is_read_in_its_games_words_and_runs_where_written_rules_run(game, text):
    state = _state(game)
    read = read_rule(text, vocabulary(state))
    assert isinstance(read, Rule), f"{game}: {text!r} is not understood: {read}"
    if state.enabled(WrittenRulesModule.name):
        assert runnable(read)


@pytest.mark.parametrize("game, text", _examples("refused"))
def test_each_refused_example_is_refused_with_its_reason_in_the_doc(game, text):
    read = read_rule(text, vocabulary(_state(game)))
    assert isinstance(read, NotUnderstood)
    doc = " ".join(DOC.read_text(encoding="utf-8").split())
    reason = str(read).split(": expected")[0]
    assert f"*{reason}" in doc, f"the doc does not quote {reason!r}"


def test_the_restatement_the_doc_quotes_is_the_tools():
    doc = " ".join(DOC.read_text(encoding="utf-8").split())
    third = [text for game, text in _examples("rules") if game == "nomopoly2"][2]
    vocab = vocabulary(_state("nomopoly2"))
    read = read_rule(third, vocab)
    assert isinstance(read, Rule)
    assert f"*{rule_words(read, vocab)}*" in doc
