"""No private value of a game ever reaches its built site."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fixtures.browser import BURIED_CARD, PLAYERS, make_game, private_markers

from admin.game import GameDir
from admin.games import DEFAULT, available, spec
from admin.mechanics.cards import CardsModule, buried_cards, hand, placed_on
from admin.site.build import build_site

PRIVATE_FILES = ("private.yaml", "private/cards.yaml", "private/cards.buried.tsv", "secrets.yaml",
                 "ledger.yaml")
#: each module's private state (``state/private/<module>.yaml`` and its tables), whatever the game enables
PRIVATE_FOLDERS = ("private",)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    return make_game(tmp_path_factory.mktemp("privacy") / "game",
                     site_url="https://games.example.org/private-test")


def _all_output(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_bytes().decode("utf-8", "replace")
            for p in sorted(site.rglob("*")) if p.is_file()}


def test_the_fixture_really_holds_the_private_values(game: GameDir) -> None:
    private = (game.state_dir / "private.yaml").read_text(encoding="utf-8")
    buried = (game.state_dir / "private" / "cards.buried.tsv").read_text(encoding="utf-8")
    for name in PLAYERS:
        assert private_markers(PLAYERS)[f"email:{name}"] in private
        assert private_markers(PLAYERS)[f"token:{name}"] in private
    assert f"\t{BURIED_CARD}\n" in buried
    assert private_markers(PLAYERS)["next_seed"] in (game.state_dir / "secrets.yaml").read_text(encoding="utf-8")
    assert len(buried.splitlines()) >= 3  # the header, the fixture's card, and one the engine buried


def test_no_private_value_appears_in_any_file_of_the_site(game: GameDir) -> None:
    files = _all_output(build_site(game))
    assert len(files) > 15
    markers = private_markers(PLAYERS)
    for path, text in files.items():
        for label, value in markers.items():
            assert value not in text, f"{label} leaked into {path}"
            assert value.upper() not in text.upper(), f"{label} leaked into {path} (case changed)"


def test_buried_cards_and_private_event_texts_stay_off_the_site(game: GameDir) -> None:
    from admin.cards import card_name

    state = game.load()
    buried = {b.card for b in buried_cards(state)}
    held = {c for name in state.players for c in hand(state, name)}
    placed = {c for s in state.squares if (c := placed_on(state, s.number))}
    secret_cards = buried - held - placed
    assert BURIED_CARD in secret_cards
    for path, text in _all_output(build_site(game)).items():
        for card in secret_cards:
            assert card_name(card) not in text, f"buried {card} named in {path}"
            assert not re.search(rf"(?<![\w-]){card}(?![\w-])", text), f"buried {card} in {path}"
        # the private part of an event (a drawn card, a burial) is for its player's email only
        assert "You received the" not in text and "You buried the" not in text, path


def test_hands_are_not_shown_unless_the_game_makes_them_public(game: GameDir) -> None:
    files = _all_output(build_site(game))
    state = game.load_public()
    held = CardsModule.of(state).held
    holder = max(state.players.values(), key=lambda p: held.get(p.name, 0))
    assert held[holder.name]
    assert '"cards"' not in files["state.json"]
    page = next(t for p, t in files.items() if p.startswith("players/") and f">{holder.name}<" in t)
    assert "Cards in hand" not in page


def test_the_build_never_reads_the_private_files(game: GameDir, tmp_path: Path) -> None:
    """Turn every private file into garbage that no YAML reader accepts: the build still works."""
    game = GameDir(shutil.copytree(game.root, tmp_path / "game"))
    for name in PRIVATE_FILES:
        (game.state_dir / name).write_bytes(b"\xff\xfe: [unclosed\n\t- {")
    for folder in PRIVATE_FOLDERS:
        for p in (game.state_dir / folder).iterdir():
            p.write_bytes(b"\xff\xfe: [unclosed\n\t- {")
    for folder in ("log", "mail"):
        for p in (game.state_dir / folder).iterdir():
            p.write_bytes(b"\xff\xfe: [unclosed\n")
    out = build_site(game, tmp_path / "site")
    assert (out / "index.html").is_file()


@pytest.mark.parametrize("game_name", [g for g in available() if g != DEFAULT and spec(g).demo])
def test_no_address_hand_or_seed_of_a_bundled_demo_reaches_its_site(tmp_path: Path, game_name: str) -> None:
    """The demos of the other bundled games: no player's address and neither unrevealed seed
    appears in any file of the site (hands: the fixture game's tests above)."""
    import yaml

    from admin.demo import run_demo

    site = run_demo(tmp_path / game_name, echo=lambda *_: None, game_name=game_name)
    game = GameDir(tmp_path / game_name)
    state = game.load()
    secrets = yaml.safe_load((game.state_dir / "secrets.yaml").read_text(encoding="utf-8"))
    private = [*state.private.emails.values(), secrets["next_seed"], secrets["next_hidden_seed"]]
    files = _all_output(site)
    for path, text in files.items():
        for value in private:
            assert value.lower() not in text.lower(), f"{value} leaked into {path}"


def test_a_planted_time_bomb_is_told_to_its_planter_only() -> None:
    """XXXII.2: a time bomb is placed in secret: not in the public events or the public export."""
    import json

    from admin.scenario import run
    from admin.site.export import public_status

    outcome = run({"game": "nomopoly1", "players": {"alice": {"square": 8, "weapons": {"time bomb": 1}}, "bob": {}},
                   "updates": [{"mail": {"alice": "PLANT TIME BOMB"}}]}, "test")
    assert any("planted a time bomb on square 8" in (e.private or "") for e in outcome.events)
    assert not any("time bomb" in (e.text or "") for e in outcome.events)
    assert "time bomb" not in json.dumps(public_status(outcome.state)).replace('"time bomb": 0', "")
