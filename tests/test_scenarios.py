"""Rule scenarios through the real CLI (`nomopoly scenario run`), and the runner's own errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCENARIOS = sorted((Path(__file__).parent / "games").glob("*/scenarios/*.yaml"))


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "admin", *args], capture_output=True, text=True)


def test_every_bundled_rule_scenario_comes_out_as_expected():
    assert len(SCENARIOS) >= 10
    out = _run("scenario", "run", *map(str, SCENARIOS))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{len(SCENARIOS)} of {len(SCENARIOS)} scenario(s) as expected" in out.stdout


def test_a_scenario_expecting_a_wrong_value_fails_naming_the_path_the_expected_and_the_got(tmp_path):
    text = (Path(__file__).parent / "games" / "nomopoly2" / "scenarios" / "vi9-rent.yaml").read_text()
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("money: 9982", "money: 9999").replace("for square 6.", "for square 7."))
    out = _run("scenario", "run", str(wrong))
    assert out.returncode == 1
    assert "players.alice.money: expected 9999, got 9982" in out.stdout
    assert "events: expected 'alice paid $18 rent to bob for square 7.', not said" in out.stdout


@pytest.mark.parametrize("body, message", [
    ("players: [alice]\nupdates:\n  - dice: [1]\n", "forced rolls ran out at u1/turn/alice/0/d1 (a d6)"),
    ("players: [alice]\nupdates:\n  - dice: [1, 2, 3]\n", "unused: 1 forced dice ([3])"),
    ("players: [alice]\nupdates:\n  - dice: [7, 1]\n", "the forced value 7 for u1/turn/alice/0/d0 does not fit a d6"),
    ("players: [alice]\nsquares: {3: {colour: red}}\n", "squares.3.colour: no module of this game keeps a square's colour"),
    ("players: {alice: {mood: happy}}\n", "players.alice.mood: no module of this game keeps a player's mood"),
    ("game: chess\n", "game: 'chess' is not a bundled game"),
    ("players: [alice]\nsquares: {carol: {}}\n", "squares.carol: a square is a number"),
    ("players: [alice]\nexpectt: {}\n", "unknown key(s) expectt"),
])
def test_a_wrong_scenario_file_is_refused_with_the_key_and_what_is_valid(tmp_path, body, message):
    path = tmp_path / "s.yaml"
    path.write_text(body)
    out = _run("scenario", "run", str(path))
    assert out.returncode == 1
    assert message in out.stderr and str(path) in out.stderr


def test_status_private_holds_hands_and_addresses_and_every_modules_state(tmp_path):
    from admin.jobs import update as jobs

    game = jobs.init_game(tmp_path / "g")
    jobs.add_player(game, "alice", "alice@example.org")
    public = json.loads(_run("--game", str(game.root), "status", "--json").stdout)
    private = json.loads(_run("--game", str(game.root), "status", "--json", "--private").stdout)
    assert "hand" not in public["players"][0] and "@" not in json.dumps(public)
    [alice] = private["players"]
    assert (alice["hand"], alice["email"], alice["buried"]) == ([], "alice@example.org", [])
    assert private["mods"]["health"]["health"] == {"alice": 100}
    assert private["private_mods"]["cards"]["hands"] == {"alice": []}


def test_an_unquoted_expected_event_with_a_colon_is_named_not_a_crash(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("players: [alice]\npaused: true\nupdates: [{}]\nexpect_events:\n  - alice received $30: a gift\n")
    out = _run("scenario", "run", str(path))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "is not a text; quote a line that holds ': '" in out.stdout


def test_an_empty_mapping_expects_nothing_held(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("game: nomopoly1\nplayers:\n  alice: {items: {jetpack: 1}}\nupdates: [{}]\n"
                    "expect:\n  players:\n    alice: {items: {}}\n")
    out = _run("scenario", "run", str(path))
    assert out.returncode == 1
    assert "players.alice.items: expected nothing, got {'jetpack': 1}" in out.stdout


@pytest.mark.parametrize("expect, message", [
    ("expect_receipts:\n  alice: {VOTE 9 YES: done}\n",
     "receipts.alice.VOTE 9 YES: expected 'done', got 'not done'"),
    ("expect_receipts:\n  alice: {BUY: done}\n", "receipts.alice.BUY: expected 'done', got None (lines sent: "),
    ("expect_receipts: [alice]\n", "expect_receipts: ['alice'] is not player -> {line: verdict}"),
    ("expect_receipts:\n  alice: done\n", "is not player -> {line: verdict}"),
])
def test_a_receipt_verdict_that_differs_or_a_badly_written_expectation_is_named(tmp_path, expect, message):
    path = tmp_path / "s.yaml"
    path.write_text("players: [alice, bob]\npaused: true\nupdates:\n  - mail: {alice: \"VOTE 9 YES\\nhello\"}\n"
                    + expect)
    out = _run("scenario", "run", str(path))
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stdout + out.stderr
    assert message in out.stdout


def test_a_receipt_verdict_that_matches_passes(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("players: [alice, bob]\npaused: true\nupdates:\n  - mail: {alice: \"VOTE 9 YES\"}\n"
                    "expect_receipts:\n  alice: {VOTE 9 YES: not done}\n")
    out = _run("scenario", "run", str(path))
    assert out.returncode == 0, out.stdout + out.stderr


def test_status_private_as_text_shows_the_private_parts_and_plain_status_does_not(tmp_path):
    from admin.jobs import update as jobs

    game = jobs.init_game(tmp_path / "g")
    jobs.add_player(game, "alice", "alice@example.org")
    public = _run("--game", str(game.root), "status").stdout
    private = _run("--game", str(game.root), "status", "--private").stdout
    assert "alice@example.org" not in public
    assert "private: alice@example.org; hand: no cards" in private
    assert "nomopoly status --private --json" in private


def test_expect_public_and_null_fail_naming_the_path(tmp_path):
    """Issue 31: what the site shows (expect_public) and what no longer exists (null) can be expected,
    and a wrong one fails like any other expectation."""
    text = (Path(__file__).parent / "games" / "nomopoly2" / "scenarios"
            / "vi4-xiv2-a-destroyed-square-is-no-step-and-a-hand-is-its-holders.yaml").read_text()
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("    alice: {square: 9, cards_held: 1, hand: null}",
                                  "    alice: {square: 9, cards_held: 2, hand: null}")
                     .replace("    5: null                     # no such square on the board", "    6: null")
                     .replace("    bob: {square: 4, hand: []}", "    bob: {square: 4, hand: []}\n    carol: null"))
    out = _run("scenario", "run", str(wrong))
    assert out.returncode == 1
    assert "public.players.alice.cards_held: expected 2, got 1" in out.stdout, out.stdout
    assert "squares.6: expected none, got {" in out.stdout
    assert "carol" not in out.stdout  # null: carol is in no list, as expected


def test_a_square_marked_destroyed_is_not_on_the_board_and_a_player_is_not_put_off_it(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("players: {alice: {square: 25}}\n")
    out = _run("scenario", "run", str(path))
    assert out.returncode == 1 and "square 25 is not on the board, which has squares 1 to 20" in out.stderr


def test_decks_stacks_a_face_down_pile_as_its_first_shuffle_leaves_it(tmp_path):
    """Issue 31: a deck's first shuffle can be forced with `decks:` (the pile from the top), in every
    game with a face-down deck; a deck the game does not have is refused, naming those it has."""
    text = (Path(__file__).parent / "games" / "timopoly" / "scenarios" / "xx10-go-back-3-spaces.yaml").read_text()
    stacked = tmp_path / "stacked.yaml"
    stacked.write_text(text.replace('private:\n  timo-cards: {piles: {stuff: {pile: ["9"], discard: []}}}   # the top card\n',
                                    'decks: {stuff: ["9"]}\n'))
    assert "decks:" in stacked.read_text()
    out = _run("scenario", "run", str(stacked))
    assert out.returncode == 0, out.stdout + out.stderr
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("game: technopoly\nplayers: [alice]\ndecks: {chance: [Noisy]}\n")
    out = _run("scenario", "run", str(wrong))
    assert out.returncode == 1 and "this game has no face-down deck 'chance'; its decks: attributes" in out.stderr
