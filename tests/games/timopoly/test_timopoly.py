"""Timopoly as a bundled game: its demo (replay, verify, nothing private on the site), its
coverage, and the by-email turn rules not covered by the scenarios (tests/games/timopoly/scenarios)."""

import json
import subprocess
import sys

import pytest

from admin.jobs import update as jobs
from admin.jobs.demo import run_demo
from admin.store.gamedir import GameDir
from admin.library.interactions import InteractionsModule
from admin.games.timopoly.mechanics.deeds import TimoDeedsModule


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> GameDir:
    root = tmp_path_factory.mktemp("timopoly") / "demo"
    run_demo(root, echo=lambda _: None, game_name="timopoly")
    return GameDir(root)


def test_the_demo_plays_two_weeks_of_mail_with_purchases_and_an_auction(demo):
    state = demo.load()
    assert (state.update, state.week, state.currency, state.layout) == (4, 2, "Fn {}", "loop")
    assert len(state.squares) == 40 and state.square(40).name == "Best Novel"
    owners = {d.owner for d in TimoDeedsModule.of(state).deeds.values()}
    assert owners == {"tim", "ursula", "vera", "walt"}
    closed = InteractionsModule.of(state).closed
    assert any(i.kind == "auction" for i in closed) and any(i.kind == "offer" for i in closed)


def test_replay_and_verify_pass_on_the_demo(demo):
    assert jobs.replay_check(demo) == []
    assert jobs.verify(demo) == []


def test_the_demo_site_and_export_hold_no_address_and_no_deck_order(demo):
    site = demo.root / "site"
    for path in site.rglob("*"):
        if path.is_file():
            text = path.read_text(errors="replace")
            assert "@example" not in text, path
            assert "piles" not in text, path
    status = json.loads((site / "state.json").read_text())
    assert {p["name"] for p in status["players"]} == {"tim", "ursula", "vera", "walt"}
    assert all("Fn" in (site / "players.html").read_text() for _ in [0])


def test_every_rule_of_timopoly_is_automated_or_routed():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", "timopoly", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    data = json.loads(out.stdout)
    assert data["counts"]["missing"] == 0 and len(data["rules"]) == 91
    assert {r["module"] for r in data["rules"] if r["status"] == "automated"} == {
        "money", "timo-board", "timo-deeds", "timo-building", "timo-cards"}


def test_games_lists_every_bundled_game():
    from admin.games.catalog import available

    out = subprocess.run([sys.executable, "-m", "admin", "games"], capture_output=True, text=True, check=True)
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == available() and {"nomopoly2", "nomopoly2-full", "timopoly"} <= set(names)


def test_the_demo_mail_script_writes_the_shipped_maildir(tmp_path) -> None:
    """scripts/demo_mail/timopoly.py plays the demo as it writes its mail (answers to what the game
    asked, a Nom and a mortgage on what the players hold by then): the shipped Maildir is its output."""
    from admin.games.catalog import spec
    from fixtures.games import demo_mail_script, maildir_files

    assert demo_mail_script("timopoly", "timopoly").write(tmp_path / "maildir") == 13
    assert maildir_files(tmp_path / "maildir") == maildir_files(spec("timopoly").demo_maildir)
