"""Hidden draws and face-down piles (docs/fairness.md, issue 29): the public record lists a hash
of every hidden draw when it is made, so once the game ends ``verify --hidden`` catches one dropped,
relabelled or moved to another player's key, even when its value recomputes."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from admin.jobs import update as jobs
from admin.jobs.demo import fresh_maildir, run_demo
from admin.jobs.replay import verify_hidden
from admin.engine.dice import derive, player_key
from admin.engine.events import Ruling
from admin.store.gamedir import GameDir
from admin.store.fileio import dump_json, load_json


@pytest.fixture(scope="module")
def ended_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hidden") / "demo"
    run_demo(root, echo=lambda _: None)
    game = GameDir(root)
    jobs.queue_ruling(game, Ruling("end-game", {}, "the demo is over"))
    fresh_maildir(root / "none")
    jobs.run_update_job(game, at=datetime.fromisoformat("2026-11-18T23:59:59+00:00"), maildir=root / "none")
    return root


@pytest.fixture
def ended(ended_dir, tmp_path) -> GameDir:
    return GameDir(shutil.copytree(ended_dir, tmp_path / "demo", symlinks=True))


def _tamper(game: GameDir, how: str) -> None:
    revealed = load_json(game.hidden_seeds_path)
    record = revealed["updates"]["2"]
    draws, hidden = record["hidden_rolls"], bytes.fromhex(record["hidden_seed"])
    digest = load_json(game.results_path(2))["dice"]["digest"]
    k = next(i for i, d in enumerate(draws) if len(d) > 3)
    label, sides, _, player = draws[k]
    if how == "drop":
        del draws[k]
    elif how == "relabel":  # a new label, its value recomputed: each draw still "recomputes"
        label = label + "#2"
        draws[k] = [label, sides, derive(player_key(hidden, player), digest, label, sides), player]
    elif how == "move":  # the same card told to another player, with their key
        other = next(p for p in ("alice", "bob", "carol", "dave", "erin") if p != player)
        draws[k] = [label, sides, derive(player_key(hidden, other), digest, label, sides), other]
    game.hidden_seeds_path.write_text(dump_json(revealed), encoding="utf-8")


@pytest.mark.parametrize("how", ["drop", "relabel", "move"])
def test_verify_hidden_catches_a_hidden_draw_dropped_relabelled_or_moved(ended, how):
    assert verify_hidden(ended) == []
    _tamper(ended, how)
    problems = verify_hidden(ended)
    assert any(p.startswith("update 2: ") and "public record listed" in p for p in problems), problems


def test_the_public_record_lists_a_hash_of_each_hidden_draw_and_never_its_card(ended):
    log = load_json(ended.update_logs()[2])["dice"]
    record = load_json(ended.results_path(2))["dice"]
    assert len(record["hidden_draws"]) == len(log["hidden_rolls"]) > 0
    text = ended.results_path(2).read_text()
    assert "card/" not in text and all(d[0] not in text for d in log["hidden_rolls"])


# -- face-down piles --------------------------------------------------------------------------------
def _timopoly_to(root: Path, last: int) -> GameDir:
    """The Timopoly demo, played as ``nomopoly demo`` plays it, up to update ``last``."""
    from admin.games import catalog
    from admin.jobs.demo import SETTINGS, queue_rulings

    spec = catalog.spec("timopoly")
    settings = SETTINGS.format(title="t", start=spec.demo.get("start", "2026-11-02"))
    game = jobs.init_game(root, "timopoly", "t", settings_text=settings)
    for name, address in dict(spec.demo.get("players") or {}).items():
        jobs.add_player(game, name, address)
    shutil.copytree(spec.demo_maildir, root / "mail" / "inbox", dirs_exist_ok=True)
    for update, cutoff in enumerate(spec.demo.get("cutoffs") or [], 1):
        if update > last:
            break
        queue_rulings(game, spec.demo, update)
        jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
    return game


def _next(game: GameDir) -> None:
    from admin.games import catalog
    from admin.jobs.demo import queue_rulings

    spec = catalog.spec("timopoly")
    update = game.load().update + 1
    cutoffs = [datetime.fromisoformat(c) for c in spec.demo["cutoffs"]]
    queue_rulings(game, spec.demo, update)  # past the demo's weeks: a week after its last cutoff each
    at = cutoffs[update - 1] if update <= len(cutoffs) else cutoffs[-1] + timedelta(days=7 * (update - len(cutoffs)))
    jobs.run_update_job(game, at=at)


@pytest.fixture(scope="module")
def timo4(tmp_path_factory) -> Path:
    """The Timopoly demo played through: its next update (5) draws a Crowd Fund card face up."""
    root = tmp_path_factory.mktemp("timo") / "game"
    _timopoly_to(root, 4)
    return root


def test_a_face_down_pile_commits_to_its_order_and_each_card_drawn_face_up_is_checked_against_it(timo4, tmp_path):
    game = GameDir(shutil.copytree(timo4, tmp_path / "game"))
    _next(game)
    five = load_json(game.results_path(5))
    assert len(load_json(game.results_path(4))["pile_commitments"]["crowd"]) == 16  # the order, a salted hash per place
    checked = [d for d in five["pile_draws"] if d[1] is not None]
    assert checked and checked[0][:2] == ["crowd", 0]
    assert jobs.verify(game) == [] and jobs.replay_check(game) == []


def test_a_pile_reordered_between_updates_is_caught_by_verify_from_the_public_record_alone(timo4, tmp_path):
    import yaml

    game = GameDir(shutil.copytree(timo4, tmp_path / "game"))
    path = game.state_dir / "private" / "timo-cards.yaml"
    data = yaml.safe_load(path.read_text())
    data["piles"]["crowd"]["pile"].reverse()  # the Admin reverses the face-down pile
    path.write_text(yaml.safe_dump(data))
    _next(game)
    shutil.rmtree(game.log_dir)  # what players hold: the public record only
    problems = jobs.verify(game)
    assert any(p.startswith("update 5: ") and "drew card" in p and "the pile was changed" in p for p in problems), problems


def test_a_player_checks_the_card_they_took_face_down_from_their_results_mail_and_the_record(tmp_path):
    import email
    import email.policy
    import hashlib
    import re

    root = tmp_path / "techno"
    run_demo(root, echo=lambda _: None, game_name="technopoly")
    game = GameDir(root)
    checked = 0
    for path in sorted((game.state_dir / "outbox" / "sent").glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",)).get_content()
        update = re.search(r"Update (\d+) results", str(message["subject"]))
        for deck, card, place, salt in re.findall(
                r"From the (\S+) pile: (.+?), place (\d+) of the order committed .*?salt ([0-9a-f]{64})", text):
            before = load_json(game.results_path(int(update.group(1)) - 1))["pile_commitments"][deck]
            assert hashlib.sha256(bytes.fromhex(salt) + card.encode()).hexdigest() == before[int(place) - 1]
            assert card in text.split("What happened to you")[1]  # the card the mail says they drew
            checked += 1
    assert checked >= 1


def test_once_the_game_is_over_the_site_publishes_the_hidden_seeds_and_the_players_script_checks_every_draw(ended):
    import subprocess
    import sys

    from admin.site.build import build_site

    site = build_site(ended)
    assert (site / "records" / "hidden-seeds.json").is_file()
    script = Path(__file__).resolve().parents[1] / "site_templates" / "static" / "check.py"
    ok = subprocess.run([sys.executable, "-I", str(script), str(site / "records")], capture_output=True, text=True)
    assert ok.returncode == 0 and "every hidden draw" in ok.stdout, ok.stdout
    revealed = load_json(site / "records" / "hidden-seeds.json")
    del revealed["updates"]["2"]["hidden_rolls"][0]
    (site / "records" / "hidden-seeds.json").write_text(dump_json(revealed), encoding="utf-8")
    bad = subprocess.run([sys.executable, "-I", str(script), str(site / "records")], capture_output=True, text=True)
    assert bad.returncode == 1 and "update 2: the hidden draws published at the end are not those" in bad.stdout
