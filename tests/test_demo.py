"""The bundled demo: the README's first command, replay and verify on its four updates."""

import json
import subprocess
import sys

import pytest

from admin.jobs import update as jobs
from admin.games.catalog import available, spec
from admin.jobs.demo import run_demo
from admin.store.gamedir import GameDir
from admin.library.cards import buried_cards, hand, placed_on
from admin.library.ownership import owner_of


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> GameDir:
    root = tmp_path_factory.mktemp("demo") / "demo-game"
    run_demo(root, echo=lambda _: None)
    return GameDir(root)


def test_the_demo_runs_four_updates_and_builds_the_site(demo):
    state = demo.load()
    assert (state.update, state.week) == (4, 2)
    assert (demo.root / "site" / "index.html").is_file()
    assert sorted(p.stem for p in (demo.state_dir / "results").glob("*.json")) == ["0000", "0001", "0002", "0003", "0004"]


def test_the_demo_tells_a_story_with_successes_and_failures(demo):
    state = demo.load()
    assert owner_of(state, 10) == "carol" and state.square(10).name == "Carol's Corner"
    assert owner_of(state, 15) == "bob" and state.square(15).name == "Baker Street"
    assert owner_of(state, 20) == "dave"  # dave landed there before erin, who asked too (XIII.3)
    assert placed_on(state, 15) == "9C" and placed_on(state, 13) == "KC"
    assert state.rules.rule("VI.9").text.startswith("A player who lands on a square owned by another player pays")
    assert [p.status for p in demo.load_public(archive=True).proposals] == ["accepted", "accepted", "accepted", "accepted", "replaced", "accepted"]
    assert [j.name for j in state.private.join_requests] == ["mallory"]
    buried = [(b.player, b.card) for b in buried_cards(state)]
    assert ("bob", "2D") in buried


def test_replay_check_passes_on_the_demo(demo):
    assert jobs.replay_check(demo) == []


def test_verify_recomputes_every_roll_of_the_demo(demo):
    assert jobs.verify(demo) == []
    rolls = sum(len(json.loads(p.read_text())["dice"]["rolls"])
                for p in (demo.state_dir / "results").glob("000[1-4].json"))
    assert rolls > 40


def test_the_demo_is_reproducible_byte_for_byte(demo, tmp_path):
    again = tmp_path / "again"
    run_demo(again, echo=lambda _: None)
    for path in sorted(demo.state_dir.rglob("*.yaml")) + sorted(demo.rules_dir.glob("*.md")):
        rel = path.relative_to(demo.root)
        assert (again / rel).read_bytes() == path.read_bytes(), rel


def test_the_cli_demo_prints_where_the_site_is(tmp_path):
    out = subprocess.run([sys.executable, "-m", "admin", "demo", str(tmp_path / "d")], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == f"Site: {tmp_path / 'd' / 'site' / 'index.html'}"


def test_the_readmes_first_command_prints_the_site_relative_to_where_you_are(tmp_path):
    import os
    from pathlib import Path

    repo = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-m", "admin", "demo"], capture_output=True, text=True,
                         check=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": repo})
    assert out.stdout.strip().splitlines()[-1] == "Site: demo-game/site/index.html"
    assert (tmp_path / "demo-game" / "site" / "index.html").is_file()


def test_status_json_of_the_demo_holds_nothing_private(demo):
    out = subprocess.run([sys.executable, "-m", "admin", "--game", str(demo.root), "status", "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert {p["name"] for p in data["players"]} == {"alice", "bob", "carol", "dave", "erin"}
    assert "@example" not in out.stdout and "mallory" not in out.stdout
    assert all("cards" not in p for p in data["players"])  # hands are private in Nomopoly II
    assert [p["cards_held"] for p in data["players"] if p["name"] == "bob"] == [len(hand(demo.load(), "bob"))]


def test_hidden_draws_are_never_published_but_the_admin_can_verify_them(demo, tmp_path):
    import shutil

    for path in (demo.state_dir / "results").glob("*.json"):
        assert "card/" not in path.read_text()  # no card draw, so no hidden card, in public files
    seeds = [json.loads(p.read_text())["dice"]["hidden_seed"] for p in demo.update_logs().values()]
    for path in (demo.root / "site").rglob("*"):
        if path.is_file():
            text = path.read_text(errors="replace")
            assert not any(seed in text for seed in seeds), path  # no hidden seed's value, anywhere
            if path.name != "check.py":  # the players' check script names the field it reads at the end
                assert "hidden_seed" not in text, path
    copy = tmp_path / "copy"
    shutil.copytree(demo.root, copy)
    game = GameDir(copy)
    log = game.update_logs()[1]
    data = json.loads(log.read_text())
    label, sides, value, *player = data["dice"]["hidden_rolls"][0]
    data["dice"]["hidden_rolls"][0] = [label, sides, value % sides + 1, *player]
    log.write_text(json.dumps(data))
    assert jobs.verify(game) == [
        f"update 1: hidden draw {label} (d{sides}) recorded {value % sides + 1}, recomputes {value}",
        f"update 1: hidden draw 1 is recorded as {label} d{sides}={value % sides + 1} (with {player[0]}'s key), "
        f"but the replayed update made {label} d{sides}={value} (with {player[0]}'s key)"]


def test_the_repository_is_itself_the_demo_game_before_its_first_update():
    from pathlib import Path

    repo = GameDir(Path(__file__).resolve().parents[1])
    state = repo.load()
    assert (state.update, sorted(state.players)) == (0, ["alice", "bob", "carol", "dave", "erin"])
    assert jobs.replay_check(repo) == []


@pytest.mark.parametrize("game_name", [g for g in available() if spec(g).demo])
def test_every_bundled_demo_passes_check_once_it_has_run(demo_site, game_name):
    """A demo shows a game as an Admin keeps it: once its updates have run, `nomopoly check` finds
    nothing (an accepted proposal that rewrote a rule in its own words was followed by the Admin's
    ruling that sets the number the new text states)."""
    from admin.jobs.check import check_settings, check_state

    game = GameDir(demo_site(game_name).parent)
    assert game.load().update >= 2
    assert [str(p) for p in check_settings(game, mail_folder=False) + check_state(game)] == []
