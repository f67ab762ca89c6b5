"""The built site in a real browser (Debian's headless chromium): every page from file:// and over
http, no console error, no broken link, nothing loaded from elsewhere, screenshots at desktop and
phone widths, and hostile player input that neither runs nor breaks the layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote

import pytest
from fixtures.browser import ARTIFACTS, make_game, write_state

from admin.library.talk import CommentItem, PressItem, QuestionItem, TalkModule
from admin.store.gamedir import GameDir
from admin.engine.model import Proposal, Vote
from admin.site.build import build_site
from admin.site.content import player_slugs
from admin.store.fileio import dump_json, load_json

pytestmark = pytest.mark.browser

PHONE, DESKTOP = 390, 1280

#: Player-written text that tries to run script, escape its markup, or break the layout.
HOSTILE: list[str] = [
    "<script>window.__pwned=1;alert(1)</script>",
    '<img src=x onerror="window.__pwned=1;alert(2)">',
    '"><svg onload="window.__pwned=1">',
    "[click me](javascript:window.__pwned=1)",
    '<a href="javascript:alert(3)">a link</a>',
    '<a href="jav&#x09;ascript:alert(4)">tabbed scheme</a>',
    '<iframe src="javascript:alert(5)"></iframe>',
    "</textarea></title></style><script>alert(6)</script>",
    "<b><i>broken <u>markup <table><tr><td>never closed",
    "'; alert(7); //",
    "{{ 7*7 }} {% raw %} ${alert(8)}",
    "<style>body{display:none!important}</style>",
    '<div style="position:fixed;top:0;left:0;width:9999px;height:9999px;background:red">cover</div>',
    "A" * 500,
    "https://example.com/" + "b" * 500,
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(9)>",
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>',
    '<object data="javascript:alert(10)"></object><embed src="javascript:alert(11)">',
    "<details open ontoggle=alert(12)><summary>x</summary></details>",
    "<body onload=alert(13)>",
    "<input autofocus onfocus=alert(14)>",
    '<meta http-equiv="refresh" content="0;url=javascript:alert(15)">',
    '<base href="javascript:alert(16)//">',
    '<link rel=stylesheet href="//evil.invalid/x.css">',
    "&lt;script&gt;alert(17)&lt;/script&gt; &amp;",
    "<!-- an unterminated comment",
    "<![CDATA[<script>alert(18)</script>]]>",
    "\u202eright-to-left override\u202c and zero\u200bwidth",
    "<svg><script>alert(19)</script></svg>",
    '<form action="javascript:alert(20)"><button>go</button></form>',
    "[x](  javascript:alert(21)  ) [y](JaVaScRiPt:alert(22))",
    "| a | b |\n|---|---|\n| " + "c" * 500 + " | d |",
    "```\n" + "code" * 150 + "\n```",
    "<img src=//evil.invalid/pixel.png> ![tracking pixel](https://evil.invalid/track.png)",
    '<p style="background:url(javascript:alert(23))">styled</p>',
]
HOSTILE_NAMES = [HOSTILE[0], HOSTILE[1], HOSTILE[2], "javascript:alert(1)", "N" * 500, "日本語の名前"]


# -- fixtures --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(make_game(tmp_path_factory.mktemp("browser") / "game"))


def _hostile_game(root: Path) -> GameDir:
    texts = [(h[:90], h) for h in HOSTILE]
    game = make_game(root, players=HOSTILE_NAMES, texts=texts, updates=4)
    state = game.load()
    names = sorted(state.players)
    for i, text in enumerate(HOSTILE):
        number = state.next_proposal + i
        votes = {n: Vote(player=n, choice=("yes", "no", "abstain")[(i + j) % 3], update=4)
                 for j, n in enumerate(names)}
        state.proposals.append(Proposal(number=number, proposer=names[i % len(names)], title=text,
                                        text=text, week=2, update=4, status="voting", votes=votes,
                                        note=text))
    talk = TalkModule.of(state)  # press, comments and questions in hostile words (issue 34)
    for i, text in enumerate(HOSTILE):
        who = names[i % len(names)]
        talk.press.append(PressItem(i + 1, 4, "2026-11-12", who, f"{text}\n{text}"))
        talk.comments.append(CommentItem(state.next_proposal + i, who, 4, "2026-11-12", text))
        talk.questions.append(QuestionItem(i + 1, who, 4, "2026-11-12", text, ["VI.11"],
                                           answer=text if i % 2 else None, standing=bool(i % 4 == 1)))
    for i, sq in enumerate(state.squares):
        if not sq.destroyed:
            sq.name = f"{HOSTILE[i % len(HOSTILE)]} {sq.number}"
            sq.owner = names[i % len(names)]
    write_state(game.root, state)
    results = game.state_dir / "results" / "0004.json"
    data = load_json(results)
    data["events"] += [{"kind": text[:30], "text": text, "player": names[i % len(names)],
                        "rule": text[:20], "ok": i % 2 == 0, "data": {}} for i, text in enumerate(HOSTILE)]
    results.write_text(dump_json(data), encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(_hostile_game(tmp_path_factory.mktemp("hostile") / "game"))


# -- helpers ---------------------------------------------------------------------------------
def _pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def _page_kinds(site: Path) -> list[str]:
    """One page of each template, and the first and last of a folder of pages made from one
    (updates/0001 ... 0008, players/alice ... erin): what axe-core checks of a whole site. The
    pages between differ from those only in the game's data, which the first and last show."""
    chosen: dict[str, list[str]] = {}
    for rel in _pages(site):
        chosen.setdefault(rel.rsplit("/", 1)[0] if "/" in rel else rel, []).append(rel)
    return sorted({p for group in chosen.values() for p in (group[0], group[-1])})


class PageWatch:
    """Collects what went wrong while a page loaded: console errors, failed or foreign requests."""

    def __init__(self, page: Any, base: str) -> None:
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # a request cut short by the next navigation (a late favicon) is not a failure; a missing
        # file still is (ERR_FILE_NOT_FOUND, or an HTTP status below), and links are checked apart
        page.on("requestfailed", lambda r: None if r.failure == "net::ERR_ABORTED"
                else self.problems.append(f"request failed: {r.url} ({r.failure})"))
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400 else None)
        page.on("request", lambda r: None if r.url.startswith(base) or r.url.startswith("data:")
                else self.problems.append(f"request outside the site: {r.url}"))

        def on_dialog(dialog: Any) -> None:
            self.dialogs.append(dialog.message)
            dialog.dismiss()
        page.on("dialog", on_dialog)


def _link_target_exists(link: str, base: str, site: Path, page: Any) -> bool:
    rel = unquote(link[len(base):].split("#", 1)[0].split("?", 1)[0])
    if base.startswith("file:"):
        return (site / rel).is_file()
    return page.context.request.get(base + rel).status == 200


def _visit_every_page(browser: Any, site: Path, base: str) -> list[str]:
    context = browser.new_context(viewport={"width": DESKTOP, "height": 900})
    page = context.new_page()
    watch = PageWatch(page, base)
    checked: dict[str, bool] = {}
    problems: list[str] = []
    for rel in _pages(site):
        page.goto(base + rel, wait_until="load")
        links = page.eval_on_selector_all("a[href], link[href]", "els => els.map(e => e.href)")
        for link in links:
            if not link.startswith(base):
                continue
            key = link.split("#", 1)[0]
            if key not in checked:
                checked[key] = _link_target_exists(link, base, site, page)
            if not checked[key]:
                problems.append(f"{rel}: broken link {link}")
        broken_images = page.evaluate(
            "[...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
        problems += [f"{rel}: broken image {src}" for src in broken_images]
        problems += [f"{rel}: {p}" for p in watch.problems]
        watch.problems.clear()
    context.close()
    assert len(checked) > 10
    return problems


# -- tests -----------------------------------------------------------------------------------
def test_every_page_opens_from_file_with_no_error_or_broken_link(chromium_browser: Any, site: Path) -> None:
    assert _visit_every_page(chromium_browser, site, site.as_uri() + "/") == []


def test_every_page_opens_over_http_with_no_error_or_broken_link(chromium_browser: Any, site: Path,
                                                               serve_dir: Any) -> None:
    assert _visit_every_page(chromium_browser, site, serve_dir(site)) == []


def test_a_missing_page_over_http_can_show_the_404_page(chromium_browser: Any, site: Path,
                                                        serve_dir: Any) -> None:
    page = chromium_browser.new_page()
    base = serve_dir(site)
    page.goto(base + "404.html")
    assert page.locator("h1").inner_text() == "Not found"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    page.close()


def test_rule_anchor_scrolls_to_the_rule(chromium_browser: Any, site: Path) -> None:
    page = chromium_browser.new_page(viewport={"width": DESKTOP, "height": 800})
    page.goto(site.as_uri() + "/rules.html#rule-VI-11")
    box = page.locator("#rule-VI-11").bounding_box()
    assert box is not None and 0 <= box["y"] < 200
    assert "VI.11" in page.locator("#rule-VI-11 .rule-id").inner_text()
    page.close()


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_screenshots_of_the_board_and_a_player_page(chromium_browser: Any, site: Path, width: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium_browser.new_page(viewport={"width": width, "height": 900})
    slug = player_slugs(["alice"])["alice"]
    for name, rel in (("board", "board.html"), ("player", f"players/{slug}.html"),
                      ("home", "index.html"), ("update", "updates/0002.html")):
        page.goto(site.as_uri() + "/" + rel)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, rel
        shot = ARTIFACTS / f"{name}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
    board = page.locator("svg.board-svg")
    page.goto(site.as_uri() + "/board.html")
    assert board.get_attribute("role") == "img" and board.bounding_box()["width"] > 300
    page.close()


def test_print_stylesheet_hides_the_navigation(chromium_browser: Any, site: Path) -> None:
    page = chromium_browser.new_page()
    page.goto(site.as_uri() + "/players.html")
    assert page.locator(".site-header nav").is_visible()
    page.emulate_media(media="print")
    assert not page.locator(".site-header nav").is_visible()
    page.close()


def test_hostile_input_runs_no_script_and_fits_a_phone(chromium_browser: Any, hostile_site: Path) -> None:
    assert len(HOSTILE) >= 30
    state = json.loads((hostile_site / "state.json").read_text(encoding="utf-8"))
    assert len(state["proposals"]) >= len(HOSTILE)
    base = hostile_site.as_uri() + "/"
    page = chromium_browser.new_page(viewport={"width": PHONE, "height": 800})
    watch = PageWatch(page, base)
    pages = _pages(hostile_site)
    assert len([p for p in pages if p.startswith("players/")]) == len(HOSTILE_NAMES)
    overflow = {}
    for rel in pages:
        page.goto(base + rel)
        assert page.evaluate("window.__pwned") is None, rel
        assert page.evaluate("document.scripts.length") == 0, rel
        handlers = page.evaluate("""[...document.querySelectorAll('*')].flatMap(el =>
            [...el.attributes].filter(a => a.name.startsWith('on')
              || (/^(href|src|action|formaction|data|xlink:href|background|poster|style)$/.test(a.name)
                  && /(javascript|data):/i.test(a.value))).map(a => el.tagName + ' ' + a.name))""")
        assert handlers == [], rel
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE:
            overflow[rel] = width
    assert watch.dialogs == []
    assert watch.problems == []
    assert overflow == {}
    page.goto(base + "proposals.html")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"hostile-proposals-{PHONE}.png"), full_page=False)
    assert page.locator("article.proposal").count() >= len(HOSTILE)
    page.close()


def test_the_demo_site_opens_cleanly_and_is_photographed(chromium_browser: Any, demo_site: Callable[[str], Path]) -> None:
    out = demo_site("nomopoly2")
    assert _visit_every_page(chromium_browser, out, out.as_uri() + "/") == []
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (DESKTOP, PHONE):
        page = chromium_browser.new_page(viewport={"width": width, "height": 900})
        for name, rel in (("board", "board.html"), ("player", "players/alice.html"), ("howto", "howto.html"),
                          ("home", "index.html"), ("proposals", "proposals.html"),
                          ("verify", "verify.html"), ("rules", "rules.html")):
            page.goto(out.as_uri() + "/" + rel)
            page.evaluate("document.querySelectorAll('details.history').forEach(d => d.open = true)")
            assert page.evaluate("document.documentElement.scrollWidth") <= width, rel
            page.screenshot(path=str(ARTIFACTS / f"demo-{name}-{width}.png"), full_page=True)
        page.goto(out.as_uri() + "/rules.html#rule-VI-9")
        page.evaluate("document.querySelectorAll('details.history').forEach(d => d.open = true)")
        diff = page.locator("#rule-VI-9 .diff")
        assert diff.locator("del").count() >= 1 and diff.locator("ins").count() >= 1
        page.locator("#rule-VI-9").screenshot(path=str(ARTIFACTS / f"demo-rule-diff-{width}.png"))
        page.close()


def test_the_how_to_play_page_shows_the_commands_in_force_before_and_after_an_enable(
        chromium_browser: Any, game_dir: GameDir) -> None:
    from datetime import datetime

    from admin.engine.events import Ruling
    from admin.engine.howto import commands_in_force
    from admin.jobs.update import queue_ruling, run_update_job
    from admin.games.registry import REGISTRY

    game = game_dir
    page = chromium_browser.new_page(viewport={"width": PHONE, "height": 900})

    def shown() -> list[str]:
        site = build_site(game)
        page.goto((site / "howto.html").as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
        return page.locator("table.commands tbody th code").all_inner_texts()

    before = shown()
    assert before == [h.usage for h in commands_in_force(game.load(), REGISTRY)]
    queue_ruling(game, Ruling("enable", {"module": "railroads"}, "browser test"))
    run_update_job(game, at=datetime.fromisoformat("2026-11-07T23:59:59+00:00"))
    after = shown()
    assert after == [h.usage for h in commands_in_force(game.load(), REGISTRY)]
    assert [u for u in after if u not in before] == [
        "BUILD RAILROAD ON <square>", "RIDE RAILROAD TO <square>", "REMOVE RAILROAD FROM <square>"]
    page.close()


#: the axe-core rules whose outcome can change with the colour scheme or the viewport's size: what a
#: page's second pass (phone size, dark mode) checks again after the first ran every rule
SCHEME_AND_SIZE_RULES = ["color-contrast", "link-in-text-block", "target-size", "meta-viewport",
                         "scrollable-region-focusable", "region", "landmark-one-main"]


def _axe_problems(page: Any, axe_js: Path, rel: str, only: list[str] | None = None) -> list[str]:
    """Serious and critical axe-core violations of the loaded page, one line each (of the rules
    ``only`` names, when given)."""
    page.add_script_tag(path=str(axe_js))
    violations = page.evaluate("""async (only) => {
        const options = {resultTypes: ['violations']};
        if (only) options.runOnly = {type: 'rule', values: only};
        const r = await axe.run(document, options);
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""", only)
    return [f"{rel}: {v['impact']} {v['id']} ({v['help']}) at {', '.join(v['nodes'])}"
            for v in violations if v["impact"] in ("serious", "critical")]


def test_the_hostile_site_has_no_serious_accessibility_violation(chromium_browser: Any, axe_js: Path,
                                                                 hostile_site: Path) -> None:
    page = chromium_browser.new_page(viewport={"width": DESKTOP, "height": 900})
    problems: list[str] = []
    for rel in ("index.html", "proposals.html", "board.html", "players.html", "updates/0004.html",
                "press.html", "judgements.html"):
        page.goto(hostile_site.as_uri() + "/" + rel)
        problems += _axe_problems(page, axe_js, rel)
    page.close()
    assert problems == []


def _other_demos() -> list[str]:
    from admin.games.catalog import DEFAULT, available, spec

    return [g for g in available() if g != DEFAULT and spec(g).demo]


@pytest.mark.parametrize("game_name", _other_demos())
def test_every_other_bundled_demo_site_opens_cleanly(chromium_browser: Any, demo_site: Callable[[str], Path],
                                                     game_name: str) -> None:
    """Each other bundled game's demo site (Timopoly's loop board, deeds, Noms and mortgages; the
    whole Nomopoly II rulebook's railroads and the rest): every page opens with no error or broken
    link and fits a phone."""
    out = demo_site(game_name)
    assert _visit_every_page(chromium_browser, out, out.as_uri() + "/") == []


def _demos() -> list[str]:
    from admin.games.catalog import available, spec

    return [g for g in available() if spec(g).demo]


@pytest.mark.parametrize("game_name", _demos())
@pytest.mark.parametrize("width, scheme", [(DESKTOP, "light"), (PHONE, "dark")], ids=["desktop-light", "phone-dark"])
def test_every_demo_site_has_no_serious_accessibility_violation(
        chromium_browser: Any, axe_js: Path, demo_site: Callable[[str], Path], game_name: str, width: int,
        scheme: str) -> None:
    """axe-core on one page of each kind of each bundled demo: every rule at desktop width in
    light mode, and at a phone's in dark mode the rules the scheme or the size can change."""
    out = demo_site(game_name)
    problems: list[str] = []
    checked = 0
    ARTIFACTS.mkdir(exist_ok=True)
    context = chromium_browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    for rel in _page_kinds(out):
        page.goto(out.as_uri() + "/" + rel)
        only = None if width == DESKTOP else SCHEME_AND_SIZE_RULES
        problems += [f"{width}px {scheme}: {p}" for p in _axe_problems(page, axe_js, rel, only)]
        checked += 1
    if (out / "board.html").exists():  # Technopoly has no board, and no board page
        page.goto(out.as_uri() + "/board.html")
        page.screenshot(path=str(ARTIFACTS / f"{game_name}-board-{width}.png"), full_page=True)
    context.close()
    assert checked >= (15 if game_name == "nomopoly2" else 12)  # (a kind of page left out would show)
    assert problems == []
