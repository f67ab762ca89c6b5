"""No private value of a game ever reaches its built site."""

from __future__ import annotations

import re
import shutil
from typing import Callable
from pathlib import Path

import pytest
from fixtures.browser import BURIED_CARD, PLAYERS, make_game, private_markers

from admin.store.gamedir import GameDir
from admin.games.catalog import DEFAULT, available, spec
from admin.library.cards import CardsModule, buried_cards, hand, placed_on
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
    from admin.engine.playingcards import card_name

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
def test_no_address_hand_or_seed_of_a_bundled_demo_reaches_its_site(demo_site: Callable[[str], Path], game_name: str) -> None:
    """The demos of the other bundled games: no player's address and neither unrevealed seed
    appears in any file of the site (hands: the fixture game's tests above)."""
    import yaml

    site = demo_site(game_name)
    game = GameDir(site.parent)
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

    from admin.jobs.scenario import run
    from admin.site.export import public_status

    outcome = run({"game": "nomopoly1", "players": {"alice": {"square": 8, "weapons": {"time bomb": 1}}, "bob": {}},
                   "updates": [{"mail": {"alice": "PLANT TIME BOMB"}}]}, "test")
    assert any("planted a time bomb on square 8" in (e.private or "") for e in outcome.events)
    assert not any("time bomb" in (e.text or "") for e in outcome.events)
    assert "time bomb" not in json.dumps(public_status(outcome.state)).replace('"time bomb": 0', "")


def _public_text(site: Path) -> dict[str, str]:
    """Each file of the site as a reader sees it: entities decoded, and without the board
    picture's SVG (its corner badges, like AC for an abandoned car, are labels, not cards)."""
    import html

    out = {}
    for path, text in _all_output(site).items():
        text = re.sub(r"<svg\b.*?</svg>", " ", text, flags=re.S) if path.endswith(".html") else text
        out[path] = html.unescape(text)
    return out


def test_no_hidden_value_of_nomopoly_ii_s_sections_reaches_the_full_demos_site(demo_site: Callable[[str], Path]) -> None:
    """The whole rulebook's demo holds every kind of secret its sections keep: bank balances, a
    credit card's balance and limit, lottery tickets, a bingo card, an open Blackjack hand's hole
    card, sealed bids while open, time bombs. None reaches any file of its site."""
    import json

    from admin.engine.playingcards import card_name
    from admin.library.interactions import InteractionsModule
    from admin.games.nomopoly2.mechanics.bank import BankModule
    from admin.games.nomopoly2.mechanics.bingo import BingoModule
    from admin.games.nomopoly2.mechanics.casinos.mechanic import CasinosModule
    from admin.games.nomopoly2.mechanics.credit import CreditModule
    from admin.games.nomopoly2.mechanics.house_of_cards.mechanic import HouseOfCardsModule
    from admin.games.nomopoly2.mechanics.lottery import LotteryModule

    site = demo_site("nomopoly2-full")
    game = GameDir(site.parent)
    state = game.load()
    files = _public_text(site)
    secrets: dict[str, str] = {}
    for name, balance in BankModule.private_of(state).balances.items():
        secrets[f"{name}'s bank balance"] = f"${balance}"
    for name, acct in CreditModule.private_of(state).accounts.items():
        secrets[f"{name}'s credit limit"] = f"${acct.limit}"
        if acct.balance:
            secrets[f"{name}'s card balance"] = f"${acct.balance}"
    for name, cards in BingoModule.private_of(state).cards.items():
        for card in cards:
            for i, column in enumerate(card.columns):
                row = [c[i] for c in card.columns]
                for sep in (" ", ", "):
                    secrets[f"{name}'s bingo card {card.number} column {i + 1} {sep!r}"] = sep.join(map(str, column))
                    secrets[f"{name}'s bingo card {card.number} row {i + 1} {sep!r}"] = sep.join(map(str, row))
    # the lottery's tickets: those still waiting for a draw, and every line a player was told of
    lines = [ln for t in LotteryModule.private_of(state).tickets for ln in t.lines]
    for path in sorted(game.log_dir.glob("*-update-*.json")):
        for event in json.loads(path.read_text(encoding="utf-8"))["events"]:
            lines += [[int(n) for n in m.split()]
                      for m in re.findall(r"line \d+: ([\d ]+\d)", event.get("private") or "")]
    for k, line in enumerate(lines):
        for sep in (" ", ", "):
            secrets[f"lottery line {k} {sep!r}"] = sep.join(map(str, line))
    # sealed answers (bids) of questions still open
    for answers in InteractionsModule.private_of(state).answers.values():
        for who, answer in dict(answers).items():
            secrets[f"{who}'s sealed answer"] = str(answer)
    holes = CasinosModule.private_of(state).hole
    bombs = HouseOfCardsModule.private_of(state).bombs
    # the demo really holds these secrets (so the checks below can fail)
    assert {k: v for k, v in secrets.items() if "bank" in k or "credit" in k} == {
        "alice's bank balance": "$1592", "bob's bank balance": "$510", "dave's bank balance": "$2297",
        "dave's credit limit": "$1006"}
    assert sum("bingo" in k for k in secrets) == 20 and len(lines) == 15  # 3 + 5 + 7 lines
    assert holes == {9: "2D"} and bombs == {}
    for path, text in files.items():
        for label, value in secrets.items():
            assert not re.search(rf"(?<![\d$]){re.escape(value)}(?!\d)", text), f"{label} ({value}) in {path}"
        for card in holes.values():
            assert card_name(card) not in text and not re.search(rf"(?<![\w-]){card}(?![\w-])", text), \
                f"the hole card {card} in {path}"
        assert not bombs or "time bomb" not in text.lower(), f"a time bomb in {path}"


def test_the_net_worth_the_results_publish_counts_no_private_value(demo_site: Callable[[str], Path]) -> None:
    """The public results (the site's net-worth chart) give each player's net worth as the public
    state has it, as the standings do: not with a private bank balance, credit limit or hand,
    which the difference would publish (XXVII.1)."""
    import json

    from admin.games.registry import REGISTRY

    game = GameDir(demo_site("nomopoly2-full").parent)
    state = game.load()
    published = json.loads((game.state_dir / "results" / "0008.json").read_text(encoding="utf-8"))["net_worth"]
    dave = state.players["dave"]
    # dave's private part: $2297 in the bank, 10% of his card's $1006 limit less its $0 balance ($101,
    # rounded), and QC JD 6H in hand ($10 x 26)
    assert REGISTRY.net_worth(state, dave) - published["dave"] == 2297 + 101 + 260
    public = game.load_public()
    assert published == {n: REGISTRY.net_worth(public, p) for n, p in sorted(public.players.items())}
