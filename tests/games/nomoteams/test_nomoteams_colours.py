"""The Teams variant's colours (XIII): what its scenario files (tests/games/nomoteams/scenarios/xiii*) do not
reach well: the palette and its refusals (XIII.1, XIII.3, XIII.4), new squares White and uncoated
(XIII.2), coatings refused (XIII.9, XIII.11, XIII.13), glue's lost pip short of the glued square and
its owner's immunity (XIII.11, through the core's ``pips_lost``), grease under a piece the Admin
moves (XIII.12), paint cans passing to an heir (II.8), and the colours on the site."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.browser import write_state

from admin.jobs import update as jobs
from admin.engine.errors import CommandError
from admin.games.catalog import initial_state
from admin.games.nomoteams.mechanics.board import colour_of, new_square
from admin.games.nomoteams.mechanics.coatings import coating_of
from admin.games.nomoteams.mechanics.colours.state import parse_colour
from admin.jobs.scenario import run
from admin.site.build import build_site

GAME = "nomoteams"
TWO = {"alice": {"team": "North"}, "bob": {"team": "South"}}


def _said(out, player: str) -> list[str]:
    return [e.private or e.text or "" for e in out.events if e.player == player]


def _has(said: list[str], text: str) -> None:
    assert any(text in t for t in said), said


def test_xiii1_the_thirteen_colours_and_both_spellings_of_fuschia():
    assert parse_colour("red") == "Red"
    assert parse_colour("FUCHSIA") == "Fuschia" and parse_colour("Fuschia") == "Fuschia"
    with pytest.raises(CommandError, match=r"'Purple' is not a colour of this game \(XIII.1\); a colour is one of "
                                           r"Red, Orange, Yellow, Green, Blue, Indigo, Maroon, .*, White"):
        parse_colour("Purple")


def test_xiii3_xiii4_refusals_say_what_is_valid():
    out = run({"game": GAME, "players": {"alice": {"team": "North", "square": 2}, "bob": {"team": "South"}},
               "paused": True,
               "updates": [{"mail": {"alice": "PAINT 2 Navy\nPAINT 3 Blue\nBUY PAINT Red\nPOUR PAINT\n"
                                              "POUR PAINT Teal\nGIPPER PAINT 3 Navy\nGIPPER PAINT ELEPHANT Navy"}}]},
              "refusals")
    said = _said(out, "alice")
    _has(said, "Navy is not a Corporate Colour (XIII.1); a Corporate Colour is one of Red, Orange, Yellow, Green, "
               "Blue, Indigo.")
    _has(said, "you do not own square 3; only its owner may paint it (XIII.3)")
    _has(said, "Red is not a Government Colour (XIII.1)")
    _has(said, "you hold no paint (BUY PAINT Navy first)")
    _has(said, "you hold no can of Teal (BUY PAINT Teal first)")
    _has(said, "you do not own square 3; the GIPPer pours only on squares you own (XIII.5)")
    _has(said, "there is no Elephant in play to paint (XIII.6)")
    assert out.state.players["alice"].money == 950  # nothing paid; the White fine on square 2


def test_xiii2_squares_are_white_and_uncoated_until_changed_even_new_ones():
    state = initial_state(GAME, "t")
    assert {colour_of(state, s.number) for s in state.squares} == {"White"}
    state.mods["teams-coatings"].coatings[21] = "glue"  # left from a square that was destroyed and replaced
    state.mods["teams-board"].colours[21] = "Red"
    number = new_square(state)
    assert number == 21 and colour_of(state, 21) == "White" and coating_of(state, 21) is None


def test_xiii9_xiii11_xiii13_coatings_refused_cost_nothing():
    out = run({"game": GAME, "players": {"alice": {"team": "North", "square": 5}, "bob": {"team": "South"}},
               "paused": True, "squares": {7: {"owner": "alice", "coating": "glue"}},
               "updates": [{"mail": {"alice": "TEFFLON 3\nGREASE 5\nGLUE 7\nTEFFLON 7\nDETEFFLON 2\nGLUE 5\n"
                                              "TEFFLON"}}]}, "coatings")
    said = _said(out, "alice")
    _has(said, "you do not own square 3 (bob does); Tefflon goes on a square you own (XIII.9)")
    _has(said, "you do not own square 5 (nobody does); grease goes on a square you own (XIII.12)")
    _has(said, "square 7 already has a coat of glue; it takes one at a time (XIII.9, XIII.13)")
    _has(said, "square 7 is coated with glue, so a coat of Tefflon fails (XIII.13)")
    _has(said, "square 2 has no Tefflon to remove (XIII.10)")
    _has(said, "TEFFLON needs a square you own, like TEFFLON 14.")
    # GLUE 5: the square she occupies, not hers: $10 x 5; then the week's $50 White fine on square 2 and on 7
    assert coating_of(out.state, 5) == "glue" and out.state.players["alice"].money == 1000 - 50 - 100


def test_xiii11_a_lost_pip_short_of_the_glue_and_the_owner_passes_freely():
    """bob from 5 rolls 1 and 5: 6, then 7 (alice's glue: a pip lost, the glue used up), 8, 9, 10: square
    10, not 11. alice glues 7 again; its owner, she passes it freely: from 4 a 6 takes her to 10."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "square": 4},
                                         "bob": {"team": "South", "square": 5}},
               "squares": {7: {"owner": "alice", "coating": "glue"}},
               "updates": [{"mail": {"bob": "PROPOSE B\nb\nEND"}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 1, "verdict": "accept"}}],
                            "dice": [1, 5]},
                           {"mail": {"alice": "GLUE 7\nPROPOSE A\na\nEND"}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 2, "verdict": "accept"}}],
                            "dice": [2, 4]}]}, "glue")
    state = out.state
    assert state.players["bob"].square == 10
    assert state.players["alice"].square == 10 and coating_of(state, 7) == "glue"  # 4 + 6: the owner's own glue
    _has(_said(out, "bob"), "bob passes through it and loses one pip of her move: square 7 was glued")


def test_xiii12_a_piece_moved_onto_grease_slides_on_but_the_phantom_only_occupies():
    out = run({"game": GAME, "players": TWO, "paused": True,
               "squares": {8: {"owner": "alice", "coating": "grease"}, 9: {"owner": "alice", "coating": "grease"}},
               "updates": [{"rulings": [{"kind": "piece", "args": {"name": "Elephant", "kind": "elephant",
                                                                  "square": 4}},
                                        {"kind": "piece", "args": {"name": "Phantom", "kind": "phantom",
                                                                  "square": 4}}]},
                           {"rulings": [{"kind": "piece", "args": {"name": "Elephant", "square": 8}},
                                        {"kind": "piece", "args": {"name": "Phantom", "square": 8}}]}]}, "pieces")
    pieces = out.state.mods["teams-pseudo"].pieces
    assert pieces["Elephant"].square == 10 and pieces["Phantom"].square == 8


def test_ii8_paint_cans_go_to_the_heir_and_hats_stay_hats():
    out = run({"game": GAME, "players": TWO, "paused": True,
               "state": {"teams-government": {"hats": {"alice": 1}}},
               "updates": [{"mail": {"alice": "BUY PAINT Navy\nBUY PAINT Navy\nLEAVE TO bob"}}]}, "heir")
    state = out.state
    assert state.mods["teams-colours"].cans == {"bob": {"Navy": 2}}
    assert state.mods["teams-government"].hats == {"bob": 1}


def test_the_admin_is_told_each_week_the_elephant_may_recolour():
    out = run({"game": GAME, "players": TWO, "paused": True,
               "updates": [{"rulings": [{"kind": "piece", "args": {"name": "Elephant", "kind": "elephant",
                                                                  "square": 4}}]}]}, "todo")
    admin = [e.text for e in out.events if e.kind == "admin"]
    assert any("nomopoly ruling decide colour square=N elephant=true" in t for t in admin), admin


def test_colours_and_coatings_on_the_site(tmp_path: Path):
    out = run({"game": GAME, "players": TWO, "paused": True,
               "squares": {5: {"owner": "alice", "colour": "Red"}, 6: {"owner": "alice", "colour": "Red"},
                           7: {"owner": "alice", "colour": "Red", "coating": "Tefflon"}},
               "updates": [{"mail": {"bob": "BUY PAINT Teal"}}]}, "site")
    game = jobs.init_game(tmp_path / "g", GAME, "Teams")
    write_state(game.root, out.state)
    site = build_site(game)
    page = (site / "colours.html").read_text(encoding="utf-8")
    assert "Protected colours (blocks, XIII.7)" in page and "Elephant Skin Color is White" in page
    assert "GIPPER PAINT ELEPHANT" in page
    pages = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    assert "coated in Tefflon" in pages and "1 Teal" in pages  # the square's flag; bob's paint cans


def test_every_rule_of_xiii_is_automated_and_tested_or_the_admins():
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", GAME, "--json"],
                         capture_output=True, text=True)
    rules = {r["rule"]: r for r in json.loads(out.stdout)["rules"] if r["rule"].startswith("XIII.")}
    assert len(rules) == 13
    assert {n for n, r in rules.items() if r["status"] == "admin"} == {"XIII.8"}
    assert all(r["status"] == "automated" and r["tests"] for n, r in rules.items() if n != "XIII.8"), rules
    assert {r["module"] for n, r in rules.items() if n != "XIII.8"} == {"teams-colours", "teams-coatings"}


def test_the_admin_sets_the_elephant_skin_and_a_bad_colour_ruling_says_what_is_valid():
    out = run({"game": GAME, "players": TWO, "paused": True,
               "updates": [{"rulings": [{"kind": "colour", "args": {"skin": "teal"}},
                                        {"kind": "colour", "args": {"square": 4, "colour": "Purple"}},
                                        {"kind": "colour", "args": {"colour": "Red"}}]}]}, "skin")
    assert out.state.mods["teams-colours"].elephant_skin == "Teal"
    failed = [e.text for e in out.events if e.kind == "ruling" and not e.ok]
    _has(failed, "'Purple' is not a colour of this game (XIII.1)")
    _has(failed, "colour needs square=N and colour=C (or elephant=true), or skin=C")
