"""Every bundled demo's site measured in a real browser at a phone's size (390 x 844) and at a
desktop's (1280): the navigation is one short row, nothing scrolls the page sideways, the board's
smallest text stays readable, no legend label is cut, the home page puts the news and standings
before the seed commitments, and the how-to-play table keeps its Rule column on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

pytestmark = pytest.mark.browser

PHONE, DESKTOP = (390, 844), (1280, 900)

#: the smallest board text, and the smallest text of each, in CSS px as drawn on screen
BOARD_TEXT_PX = """() => [...document.querySelectorAll('svg.board-svg text')]
  .filter(t => t.getBoundingClientRect().width > 0)
  .map(t => { const svg = t.ownerSVGElement;
              const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
              return [parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent]; })"""


def _demos() -> list[str]:
    from admin.games.catalog import available, spec

    return [g for g in available() if spec(g).demo]


@pytest.fixture(scope="module")
def demo_sites(demo_site: Callable[[str], Path]) -> dict[str, Path]:
    return {g: demo_site(g) for g in _demos()}


def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


@pytest.mark.parametrize("game", _demos())
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_of_every_demo_has_a_one_row_navigation_and_no_sideways_scroll(
        chromium_browser: Any, demo_site: Callable[[str], Path], game: str, size: tuple[int, int]) -> None:
    width, height = size
    page = chromium_browser.new_page(viewport={"width": width, "height": height})
    tall: dict[str, float] = {}
    wide: dict[str, int] = {}
    checked = 0
    site = demo_site(game)  # (one test a game, so the parallel workers share them out)
    for rel in _pages(site):
        page.goto(site.as_uri() + "/" + rel)
        header = page.locator(".site-header").bounding_box()
        if header["height"] > 64:
            tall[f"{game}/{rel}"] = header["height"]
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            wide[f"{game}/{rel}"] = scroll
        checked += 1
    page.close()
    assert checked >= 10
    assert tall == {}
    assert wide == {}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_board_text_is_at_least_11_px_and_no_legend_label_is_cut(
        chromium_browser: Any, demo_sites: dict[str, Path], size: tuple[int, int]) -> None:
    width, height = size
    page = chromium_browser.new_page(viewport={"width": width, "height": height})
    small: dict[str, tuple[float, str]] = {}
    cut: dict[str, list[str]] = {}
    boards = 0
    for game, site in demo_sites.items():
        if not (site / "board.html").exists():  # a game with no board (Technopoly) has no board page
            continue
        page.goto((site / "board.html").as_uri())
        if page.locator("svg.board-svg").count() == 0:
            continue
        boards += 1
        sizes = page.evaluate(BOARD_TEXT_PX)
        smallest = min(sizes)
        if smallest[0] < 11 - 0.05:
            small[game] = (round(smallest[0], 1), smallest[1])
        # a legend label (class lg) ends inside the drawing and is written out in full
        labels = page.evaluate("""() => [...document.querySelectorAll('svg.board-svg text.lg')].map(t => {
            const s = t.ownerSVGElement.getBoundingClientRect(), r = t.getBoundingClientRect();
            return [t.textContent, r.right <= s.right + 0.5]; })""")
        bad = [text for text, inside in labels if not inside or text.endswith("…")]
        if bad:
            cut[game] = bad
        # the board scrolls inside its own box, never the page
        assert page.evaluate("document.documentElement.scrollWidth") <= width, game
    page.close()
    assert boards >= 4
    assert small == {}
    assert cut == {}


def test_timopolys_loop_is_drawn_at_full_size_in_its_own_scrolling_box_on_a_phone(
        chromium_browser: Any, demo_sites: dict[str, Path]) -> None:
    page = chromium_browser.new_page(viewport={"width": PHONE[0], "height": PHONE[1]})
    page.goto((demo_sites["timopoly"] / "board.html").as_uri())
    box = page.locator(".board-scroll")
    svg = page.locator("svg.board-svg")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    assert svg.evaluate("s => s.getBoundingClientRect().width >= s.viewBox.baseVal.width - 0.5")
    assert min(page.evaluate(BOARD_TEXT_PX))[0] >= 11 - 0.05
    page.close()


def test_the_home_page_shows_news_and_standings_before_the_seed_commitments(
        chromium_browser: Any, demo_sites: dict[str, Path]) -> None:
    page = chromium_browser.new_page(viewport={"width": PHONE[0], "height": PHONE[1]})
    for game, site in demo_sites.items():
        page.goto((site / "index.html").as_uri())
        news = page.locator("#news-h").bounding_box()["y"]
        standings = page.locator("#stand-h").bounding_box()["y"]
        commit = page.locator("#commit-h").bounding_box()["y"]
        assert news < standings < commit, game
        assert news < PHONE[1], game  # the news starts on the first screen
    page.close()


def test_the_how_to_play_table_keeps_its_rule_column_on_a_phone(
        chromium_browser: Any, demo_sites: dict[str, Path]) -> None:
    page = chromium_browser.new_page(viewport={"width": PHONE[0], "height": PHONE[1]})
    for game, site in demo_sites.items():
        page.goto((site / "howto.html").as_uri())
        rows = page.locator("table.commands tbody tr")
        assert rows.count() > 3, game
        rules = page.evaluate("""() => [...document.querySelectorAll('table.commands tbody tr')].map(tr => {
            const r = tr.lastElementChild.getBoundingClientRect();
            return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth; })""")
        assert all(rules), game
        assert "Rule" in page.locator("table.commands tbody tr td").last.evaluate(
            "td => getComputedStyle(td, '::before').content"), game
    page.close()


@pytest.mark.parametrize("game", _demos())
@pytest.mark.parametrize("size, scheme", [(PHONE, "light"), (DESKTOP, "dark")], ids=["phone-light", "desktop-dark"])
def test_every_page_of_every_demo_passes_axe_at_a_phones_size_in_light_and_a_desktops_in_dark(
        chromium_browser: Any, axe_js: Path, demo_site: Callable[[str], Path], game: str, size: tuple[int, int],
        scheme: str) -> None:
    """The other two of the four: tests/test_site_browser.py runs axe-core at desktop size in light
    mode and at phone size in dark mode; here the phone in light mode and the desktop in dark mode,
    over one page of each kind of every bundled demo (the rules the scheme or the size can change:
    the other pass ran every rule): no serious or critical violation."""
    from test_site_browser import SCHEME_AND_SIZE_RULES, _axe_problems, _page_kinds

    width, height = size
    context = chromium_browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    page = context.new_page()
    problems: list[str] = []
    checked = 0
    site = demo_site(game)  # (one test a game, so the parallel workers share them out)
    for rel in _page_kinds(site):
        page.goto(site.as_uri() + "/" + rel)
        problems += [f"{game} {p}" for p in _axe_problems(page, axe_js, rel, SCHEME_AND_SIZE_RULES)]
        checked += 1
    context.close()
    assert checked >= 12
    assert problems == []
