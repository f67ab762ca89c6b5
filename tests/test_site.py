"""The static site: pages, relative links, anchors, escaping, the JSON export, the swap-in."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from typing import Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import jinja2
import pytest
from fixtures.browser import PLAYERS, make_game, write_state

from admin.store.gamedir import GameDir
from admin.library.cards import hand
from admin.engine.model import ModuleConfig
from admin.nomic.ruleset import load_ruleset, rule_anchor
from admin.site.build import build, build_site
from admin.site.content import player_slugs, render_markdown
from admin.site.export import public_status
from admin.site.svg import board_svg, player_colours
from admin.site.writer import MANIFEST


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    return make_game(tmp_path_factory.mktemp("site") / "game")


@pytest.fixture(scope="module")
def site(game: GameDir) -> Path:
    return build_site(game)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name == "id" and value:
                self.ids.add(value)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


# -- pages -----------------------------------------------------------------------------------
def test_build_writes_every_page_of_the_site(site: Path, game: GameDir) -> None:
    expected = ["index.html", "board.html", "rules.html", "proposals.html", "updates.html",
                "players.html", "verify.html", "404.html", "state.json", "static/style.css"]
    expected += [f"updates/{n:04d}.html" for n in range(1, 5)]
    expected += [f"players/{slug}.html" for slug in player_slugs(PLAYERS).values()]
    missing = [p for p in expected if not (site / p).is_file()]
    assert missing == []
    assert site == game.root / "site"


def test_feed_and_sitemap_are_written_only_when_the_site_has_a_url(site: Path) -> None:
    assert not (site / "feed.atom").exists()
    assert not (site / "sitemap.xml").exists()


def test_feed_and_sitemap_use_absolute_urls_that_map_to_pages(tmp_path: Path) -> None:
    url = "https://games.example.org/nomopoly"
    out = build_site(make_game(tmp_path / "g", site_url=url + "/", updates=3))
    ns = {"a": "http://www.w3.org/2005/Atom"}
    feed = ET.parse(out / "feed.atom").getroot()
    ids = [e.findtext("a:id", namespaces=ns) for e in feed.findall("a:entry", ns)]
    assert ids == [f"{url}/updates/{n:04d}.html" for n in (3, 2, 1)]
    locs = [e.text for e in ET.parse(out / "sitemap.xml").getroot()
            .findall("{http://www.sitemaps.org/schemas/sitemap/0.9}url/"
                     "{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert f"{url}/rules.html" in locs and len(locs) > 10
    for loc in locs:
        assert loc.startswith(url + "/")
        assert (out / loc[len(url) + 1:]).is_file(), loc
    assert f'href="{url}/static/style.css"' in (out / "404.html").read_text(encoding="utf-8")


def _broken_links(site: Path) -> list[str]:
    broken = []
    for page in _html_pages(site):
        for link in _parse(page).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_file():
                broken.append(f"{page.relative_to(site)} -> {link}")
                continue
            if parts.fragment and target.suffix == ".html" and parts.fragment not in _parse(target).ids:
                broken.append(f"{page.relative_to(site)} -> {link} (no such anchor)")
    return broken


def test_every_relative_link_and_anchor_resolves_on_disk(site: Path) -> None:
    assert _broken_links(site) == []


def test_no_link_is_absolute_to_the_host_or_the_disk(site: Path) -> None:
    for page in _html_pages(site):
        for link in _parse(page).links:
            assert not link.startswith("/"), f"{page.name}: {link}"
            assert "file:" not in link


def test_rules_page_has_an_anchor_for_every_rule_and_names_the_module(site: Path, game: GameDir) -> None:
    ids = _parse(site / "rules.html").ids
    rules = [r.id for r in load_ruleset(game.rules_dir).rules()]
    assert "rule-VI-11" in ids
    assert [r for r in rules if rule_anchor(r) not in ids] == []
    html = (site / "rules.html").read_text(encoding="utf-8")
    vi11 = html[html.index('id="rule-VI-11"'):html.index('id="rule-VI-12"')]
    assert "automated by module turns" in vi11


def test_update_page_shows_failed_actions_with_their_reason_and_the_dice(site: Path) -> None:
    html = (site / "updates/0002.html").read_text(encoding="utf-8")
    assert 'class="ev ev-action failed"' in html
    assert "you can only buy a square you landed on" in html
    assert "equals the commitment" in html
    assert "hashlib.sha256(bytes.fromhex(" in html


def test_event_rule_ids_link_to_rule_anchors(site: Path) -> None:
    html = (site / "updates/0001.html").read_text(encoding="utf-8")
    assert 'href="../rules.html#rule-VII-1"' in html


# -- escaping and sanitising -----------------------------------------------------------------
def test_player_names_and_titles_are_escaped_everywhere(tmp_path: Path) -> None:
    evil = '<b id="evil">x</b>'
    texts = [('<script>alert("t")</script>', '<img src=x onerror="alert(1)"> *hi*')]
    out = build_site(make_game(tmp_path / "g", players=["alice", evil], texts=texts, updates=3))
    for page in _html_pages(out):
        html = page.read_text(encoding="utf-8")
        assert evil not in html, page
        assert "<script>" not in html, page
        assert "onerror" not in html, page
    players = (out / "players.html").read_text(encoding="utf-8")
    assert "&lt;b id=&#34;evil&#34;&gt;x&lt;/b&gt;" in players
    proposals = (out / "proposals.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt;" in proposals
    assert "<em>hi</em>" in proposals


def test_markdown_keeps_formatting_and_drops_scripts_handlers_and_bad_links() -> None:
    html = str(render_markdown("**bold** [ok](https://example.org) [bad](javascript:alert(1)) "
                               "<a href='data:text/html,x'>d</a> <script>x()</script>"
                               "<img src=x onerror=alert(1)> [rel](../state/private.yaml)"))
    assert "<strong>bold</strong>" in html
    assert 'href="https://example.org"' in html
    for bad in ("javascript:", "data:", "<script", "<img", "onerror", "private.yaml"):
        assert bad not in html


# -- the JSON export -------------------------------------------------------------------------
def test_state_json_is_the_public_status_export(site: Path, game: GameDir) -> None:
    data = json.loads((site / "state.json").read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(public_status(game.load_public())))
    assert {"week", "update", "phase", "paused", "winner", "admin_bank", "players", "squares",
            "proposals"} <= set(data)
    assert data["phase"] == "Thursday" and data["update"] == 4
    alice = next(p for p in data["players"] if p["name"] == "alice")
    assert {"name", "money", "health", "square", "cards_held", "squares", "status",
            "bankrupt"} <= set(alice)
    assert "cards" not in alice  # hands are private unless the cards module says otherwise
    assert {"number", "name", "owner", "card", "destroyed"} <= set(data["squares"][0])
    assert data["squares"][16]["destroyed"] is True
    voted = [p for p in data["proposals"] if p["votes"]]
    assert voted and all(set(p["votes"]) <= set(PLAYERS) for p in voted)
    assert set(voted[0]["votes"].values()) <= {"yes", "no", "abstain"}


def test_public_status_lists_hands_only_when_the_cards_module_makes_them_public(game: GameDir) -> None:
    assert all("cards" not in p for p in public_status(game.load_public())["players"])
    state = game.load()  # hands are private state now: the admin's full state holds them
    assert all("cards" not in p for p in public_status(state)["players"])
    state.modules = [m if m.name != "cards" else ModuleConfig("cards", {"public_hands": True})
                     for m in state.modules]
    players = public_status(state)["players"]
    assert all(p["cards"] == hand(state, p["name"]) for p in players)
    assert any(p["cards"] for p in players)


def test_public_hands_reach_the_public_state_the_site_reads(game: GameDir, tmp_path: Path) -> None:
    """The site reads only the public state: once a ruling makes hands public, the public state
    holds each player's hand and the export lists it (the test above, through the site's path)."""
    from fixtures.games import play

    from admin.engine.events import Ruling
    from admin.store.fileio import Transaction

    copy = GameDir(shutil.copytree(game.root, tmp_path / "game"))
    ruling = Ruling(kind="set-param", args={"module": "cards", "key": "public_hands", "value": True},
                    note="hands are public from now on")
    state = play(copy.load(), rulings=[ruling], seed=b"hands").state
    with copy.lock():
        tx = Transaction(copy.state_dir)
        copy.stage_state(tx, state)
        tx.commit()
    players = public_status(copy.load_public())["players"]
    assert all(p["cards"] == hand(state, p["name"]) for p in players)
    assert any(p["cards"] for p in players)


# -- building and swapping -------------------------------------------------------------------
def test_rebuilding_swaps_the_site_in_whole_and_leaves_no_temporary_folders(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=2)
    out = tmp_path / "public" / "site"
    build_site(game, out)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["other"].append("stale.html")  # a file the last build wrote, this one does not
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (out / "stale.html").write_text("old", encoding="utf-8")
    build_site(game, out)
    assert not (out / "stale.html").exists()
    assert sorted(p.name for p in out.parent.iterdir()) == ["site"]


def test_a_failed_build_keeps_the_old_site_and_leaves_no_temporary_folders(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=2)
    out = build_site(game)
    before = (out / "index.html").read_text(encoding="utf-8")
    (game.root / "site_templates").mkdir()
    (game.root / "site_templates" / "board.html").write_text("{% extends 'nope.html' %}", encoding="utf-8")
    with pytest.raises(Exception, match="nope.html"):
        build_site(game)
    assert (out / "index.html").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in game.root.iterdir() if p.name.startswith(".")) == []


def test_a_game_template_overrides_and_extends_the_bundled_one(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=1)
    (game.root / "site_templates" / "static").mkdir(parents=True)
    (game.root / "site_templates" / "board.html").write_text(
        '{% extends "bundled/board.html" %}{% block squares %}<p id="house-note">House rule: '
        '{{ "<b>" }}</p>{{ super() }}{% endblock %}', encoding="utf-8")
    (game.root / "site_templates" / "static" / "extra.css").write_text("p{}", encoding="utf-8")
    out = build_site(game)
    html = (out / "board.html").read_text(encoding="utf-8")
    assert '<p id="house-note">House rule: &lt;b&gt;</p>' in html
    assert 'class="board-svg"' in html and 'id="square-1"' in html
    assert (out / "static" / "extra.css").is_file() and (out / "static" / "style.css").is_file()


def test_an_unchanged_update_page_is_reused_unless_a_full_build_is_asked(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=3)
    out = build_site(game)
    page = out / "updates" / "0001.html"
    page.write_text(page.read_text(encoding="utf-8") + "<!-- kept -->", encoding="utf-8")
    build_site(game)
    assert page.read_text(encoding="utf-8").endswith("<!-- kept -->")
    results = game.state_dir / "results" / "0001.json"
    results.write_text(results.read_text(encoding="utf-8").replace("Thursday", "Thursday "), encoding="utf-8")
    build_site(game)
    assert not page.read_text(encoding="utf-8").endswith("<!-- kept -->")
    page.write_text(page.read_text(encoding="utf-8") + "<!-- kept -->", encoding="utf-8")
    build_site(game, full=True)
    assert not page.read_text(encoding="utf-8").endswith("<!-- kept -->")


def test_a_new_game_with_no_updates_builds_a_site(tmp_path: Path) -> None:
    out = build_site(make_game(tmp_path / "g", updates=0))
    assert "No update has run yet" in (out / "updates.html").read_text(encoding="utf-8")
    assert json.loads((out / "state.json").read_text(encoding="utf-8"))["update"] == 0


# -- slugs, colours and the board ------------------------------------------------------------
def test_player_slugs_are_safe_distinct_and_plain_when_they_can_be() -> None:
    names = ["alice", "Alice", "a l i c e", "<script>", "../../etc/passwd", "Élodie", "", "日本",
             "x" * 300, "alice-1", "CON", ".hidden"]
    slugs = player_slugs(names)
    assert slugs["alice"] == "alice"
    assert len(set(slugs.values())) == len(names)
    for slug in slugs.values():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) and len(slug) <= 60, slug


def test_board_snakes_up_from_the_bottom_left(game: GameDir) -> None:
    svg = str(board_svg(game.load_public()))
    pos = {int(n): (float(x), float(y)) for n, x, y in re.findall(
        r'<g class="sq"><title>Square (\d+)[^<]*</title><rect x="([\d.]+)" y="([\d.]+)"', svg)}
    assert pos[1][0] < pos[2][0] < pos[10][0]                  # row 0: left to right
    assert pos[11][0] == pos[10][0] and pos[11][1] < pos[10][1]  # 11 sits above 10
    assert pos[20][0] == pos[1][0] and pos[20][1] == pos[11][1]  # row 1: right to left
    assert pos[1][1] == max(y for _, y in pos.values())          # square 1 on the bottom row
    assert 'role="img"' in svg and "<title" in svg
    assert re.search(r'Square 17: destroyed[^<]*</title><rect[^>]*fill="url\(#hatch\)"', svg)


def test_player_colours_do_not_change_when_someone_joins(game: GameDir) -> None:
    state = game.load_public()
    before = player_colours(state)
    newcomer = state.players["alice"].__class__(name="aaron", money=1, square=1, joined_week=9)
    state.players["aaron"] = newcomer
    after = player_colours(state)
    assert {n: after[n] for n in before} == before
    assert len(set(after.values())) == len(after)


def test_rules_page_shows_a_rules_history_and_keeps_repealed_rules_linkable(tmp_path: Path) -> None:
    from admin.engine.model import RuleRevision

    game = make_game(tmp_path / "g", updates=2)
    state = game.load()
    state.rule_history["VI.11"] = [
        RuleRevision(rev=1, action="created", update=0, week=0, text="old"),
        RuleRevision(rev=2, action="amended", update=2, week=1, proposal=2, text="new", old_text="old")]
    state.rule_history["II.99"] = [
        RuleRevision(rev=1, action="created", update=0, week=0, text="The *old* rule."),
        RuleRevision(rev=2, action="repealed", update=2, week=1, proposal=1, old_text="The *old* rule.")]
    write_state(game.root, state)
    out = build_site(game)
    html = (out / "rules.html").read_text(encoding="utf-8")
    vi11 = html[html.index('id="rule-VI-11"'):html.index('id="rule-VI-12"')]
    assert "History: 2 revisions" in vi11 and 'href="proposals.html#proposal-2"' in vi11
    repealed = html[html.index('id="rule-II-99"'):]
    assert "repealed" in repealed and "<em>old</em>" in repealed
    assert "rule-VI-12" in html and "History" not in html[html.index('id="rule-VI-12"'):html.index('id="rule-VI-13"')]


def test_the_demo_game_builds_a_site_whose_links_resolve(demo_site: Callable[[str], Path]) -> None:
    out = demo_site("nomopoly2")
    pages = _html_pages(out)
    assert len([p for p in pages if p.parent.name == "updates"]) == 4
    assert not (out / "updates" / "0000.html").exists()  # update 0 only carries the first commitment
    assert _broken_links(out) == []
    verify = (out / "verify.html").read_text(encoding="utf-8")
    assert verify.count('<span class="ok">✓</span>') == 4
    home = (out / "index.html").read_text(encoding="utf-8")
    assert re.search(r'mail by <time datetime="2026-11-\d\dT23:59:59\+00:00">\w{3} \d+ Nov 2026, 23:59 UTC', home)


def test_a_broken_results_file_fails_the_build_naming_the_file(tmp_path: Path) -> None:
    from admin.engine.errors import StateError

    game = make_game(tmp_path / "g", updates=2)
    out = build_site(game)
    (game.state_dir / "results" / "0002.json").write_text(
        '{"update": 2, "dice": {"rolls": [["a", "six", 1]]}}\n', encoding="utf-8")
    with pytest.raises(StateError, match=r"results/0002\.json"):
        build_site(game)
    assert (out / "updates" / "0002.html").is_file()  # the old site is still there


def test_player_pages_carry_a_chart_for_screens_and_one_for_phones(site: Path) -> None:
    html = (site / "players" / "alice.html").read_text(encoding="utf-8")
    assert html.count('class="chart"') == 2
    assert 'viewBox="0 0 380 ' in html and 'viewBox="0 0 720 ' in html
    assert "alice: money" in html and "alice: net worth" in html


def test_square_names_fit_their_cell_in_two_short_lines() -> None:
    from admin.site.svg import name_lines

    assert name_lines("Park Lane") == ["Park Lane"]
    assert name_lines("Double rent on Sundays") == ["Double rent", "on Sundays"]
    for name in ("A" * 500, "word " * 40, "<script>alert(1)</script> and more words here"):
        lines = name_lines(name)
        assert 1 <= len(lines) <= 2 and all(len(line) <= 13 for line in lines)
        assert lines[-1].endswith("…")


def test_update_pages_show_nothing_of_the_present_so_they_stay_as_they_were(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=2)
    out = build_site(game)
    page = out / "updates" / "0001.html"
    before = page.read_bytes()
    state = game.load()
    state.next_commitment, state.week, state.admin_bank = "ab" * 32, 7, 12345
    write_state(game.root, state)
    report = build(game)
    assert page.read_bytes() == before and "ab" * 32 not in before.decode()
    assert "updates/0001.html" not in report.rendered and "index.html" in report.rendered
    for live in ("index.html", "verify.html", "proposals.html"):
        assert "ab" * 32 in (out / live).read_text(encoding="utf-8"), live
    assert "Week 7 · update" in (out / "index.html").read_text(encoding="utf-8")


def test_an_incremental_build_after_another_update_equals_a_full_one(tmp_path: Path) -> None:
    """The site of a 3-update game, then the game one update later: built incrementally over the
    old site and built in full, the two are the same byte for byte; old update pages were kept."""
    build_site(make_game(tmp_path / "three", updates=3), tmp_path / "site")
    game = make_game(tmp_path / "four", updates=4)
    inc = build(game, tmp_path / "site")
    full = build(game, tmp_path / "full", full=True)

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}

    a, b = files(inc.out), files(full.out)
    assert sorted(a) == sorted(b)
    assert [k for k in a if a[k] != b[k]] == []
    assert {"updates/0001.html", "updates/0002.html"}.isdisjoint(inc.rendered)
    assert {"updates/0003.html", "updates/0004.html", "index.html"} <= set(inc.rendered)
    assert len(inc.rendered) < len(full.rendered)
    assert len(full.written) == full.files and inc.kept >= 2


def test_player_pages_taking_their_older_updates_from_the_last_build_equal_a_full_build(tmp_path: Path) -> None:
    """Past the player pages' window: each incremental build takes the blocks of updates it
    showed already from the old page, drops the oldest and renders the new one; the pages are
    byte for byte what a full build makes."""
    from admin.site.pages import PLAYER_HISTORY

    last = PLAYER_HISTORY + 2
    build_site(make_game(tmp_path / "before", updates=last - 1), tmp_path / "site")
    game = make_game(tmp_path / "after", updates=last)
    inc = build(game, tmp_path / "site")
    full = build(game, tmp_path / "full", full=True)
    players = sorted(p.relative_to(full.out).as_posix() for p in (full.out / "players").glob("*.html"))
    assert players and set(players) <= set(inc.rendered)
    for page in players:
        html = (inc.out / page).read_text(encoding="utf-8")
        assert html == (full.out / page).read_text(encoding="utf-8"), page
    assert f"<!-- block {last - PLAYER_HISTORY} " not in html and f"<!-- block {last - PLAYER_HISTORY + 1} " in html


def test_a_kept_page_is_rendered_again_when_a_link_it_shows_changes(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=2)
    out = build_site(game)
    assert 'href="../rules.html#rule-VII-1"' in (out / "updates/0001.html").read_text(encoding="utf-8")
    section = game.rules_dir / "07-turns.md"
    text = section.read_text(encoding="utf-8")
    start, end = text.index("## VII.1\n"), text.index("## VII.2\n")
    section.write_text(text[:start] + text[end:], encoding="utf-8")  # VII.1 is gone
    report = build(game)
    assert "updates/0001.html" in report.rendered
    assert 'href="../rules.html#rule-VII-1"' not in (out / "updates/0001.html").read_text(encoding="utf-8")


def test_a_won_game_names_its_winner_on_every_page(tmp_path: Path) -> None:
    game = make_game(tmp_path / "g", updates=2)
    state = game.load()
    state.winner, state.ended, state.end_reason = "carol", True, "a net worth above all others' (XI.4)"
    state.players["bob"].status = "removed"
    state.players["alice"].money = -250
    write_state(game.root, state)
    out = build_site(game)
    for page in _html_pages(out):
        assert "carol has won the game." in page.read_text(encoding="utf-8"), page
    players = (out / "players.html").read_text(encoding="utf-8")
    assert "−$250" in players and "bankrupt" in players and "removed" in players
    assert json.loads((out / "state.json").read_text(encoding="utf-8"))["winner"] == "carol"


def test_a_paused_game_without_a_ruleset_folder_still_builds(tmp_path: Path) -> None:
    import shutil

    game = make_game(tmp_path / "g", updates=1)
    state = game.load()
    state.paused = True
    write_state(game.root, state)
    shutil.rmtree(game.rules_dir)
    out = build_site(game)
    assert "The game is paused" in (out / "index.html").read_text(encoding="utf-8")
    assert "no ruleset files" in (out / "rules.html").read_text(encoding="utf-8")


# -- proposals, rules, verify (issue 4) ------------------------------------------------------
def _proposal_html(html: str, number: int) -> str:
    start = html.index(f'id="proposal-{number}"')
    end = html.find("</article>", start)
    return html[start:end]


def test_proposals_page_shows_every_status_vote_tally_and_what_a_result_moved(tmp_path: Path) -> None:
    from admin.engine.model import Proposal, Tally, Vote

    game = make_game(tmp_path / "g", updates=2)
    state = game.load()
    active = sorted(p.name for p in state.active_players())
    statuses = ["open", "replaced", "voting", "accepted", "rejected", "vetoed", "withdrawn", "sent back"]
    base = 100
    for i, status in enumerate(statuses):
        state.proposals.append(Proposal(number=base + i, proposer="alice", title=f"P {status}",
                                        text=f"Text of *{status}*", week=1, update=1, status=status,
                                        note=f"note for {status}" if status in ("vetoed", "sent back") else None))
    voting = state.proposals[-6]
    voting.votes = {"bob": Vote("bob", "yes", 2, changed_from=["no"], weight=2),
                    "carol": Vote("carol", "no", 2)}
    accepted = state.proposals[-5]
    accepted.votes = {"alice": Vote("alice", "yes", 2), "bob": Vote("bob", "abstain", 2)}
    accepted.tally = Tally(yes=1, no=0, abstain=4, missing=["dmitri"], fines={"dmitri": 100},
                           cards_to=["alice", "alice", "bob"], money={"dmitri": -100, "alice": 50},
                           note="a note on the tally")
    accepted.changed_rules = ["VI.11"]
    waiting = Proposal(number=base + 20, proposer="bob", title="Free-form", text="Do a thing.", week=1,
                       update=1, status="accepted", awaiting_admin=True)
    state.proposals.append(waiting)
    write_state(game.root, state)
    html = (build_site(game) / "proposals.html").read_text(encoding="utf-8")
    for i, status in enumerate(statuses):
        block = _proposal_html(html, base + i)
        assert f'>{status}</span>' in block and f"<em>{status}</em>" in block, status
    assert "note for vetoed" in _proposal_html(html, base + 5)
    assert "accepted, awaiting the Admin" in _proposal_html(html, base + 20)
    v = _proposal_html(html, voting.number)
    assert "×2" in v and "(was no)" in v and ">bob</a>" in v and ">carol</a>" in v
    not_voted = v[v.index("Not voted yet"):]
    assert [n for n in active if f">{n}</a>" in not_voted] == [n for n in active if n not in ("bob", "carol")]
    a = _proposal_html(html, accepted.number)
    assert "1 Yes, 0 No, 4 Abstain" in a and "a note on the tally" in a
    assert "+$50" in a and "−$100" in a and "($100)" in a
    assert "Cards it dealt (3, face down)" in a and re.search(r">alice</a> 2, .*>bob</a> 1", a)
    assert 'href="rules.html#rule-VI-11"' in a
    assert "Not voted yet" not in a
    assert re.search(r"mail \(proposals, votes, actions\) must arrive by <time", html) or "Next update" in html


def test_archived_proposals_have_a_page_per_week_that_the_rules_page_links_to(demo_site: Callable[[str], Path]) -> None:
    from admin.store.gamedir import read_archive

    out = demo_site("nomopoly2")
    html = (out / "proposals.html").read_text(encoding="utf-8")
    archived = sorted((out.parent / "state" / "proposals").glob("week-*.json"))
    assert archived
    game = GameDir(out.parent)
    for p in game.load_public().proposals:  # the live ones
        assert f'id="proposal-{p.number}"' in html
    rules = (out / "rules.html").read_text(encoding="utf-8")
    for path in archived:
        page = f"proposals/{path.stem}.html"
        assert f'href="{page}"' in html
        week_html = (out / page).read_text(encoding="utf-8")
        for p in read_archive(path):
            assert f'id="proposal-{p.number}"' in week_html and f'id="proposal-{p.number}"' not in html
            if p.changed_rules:
                assert f'href="{page}#proposal-{p.number}"' in rules
    assert "accepted, awaiting the Admin" in html + "".join(
        (out / f"proposals/{path.stem}.html").read_text(encoding="utf-8") for path in archived)


def test_rules_page_shows_each_amendment_as_a_word_diff_and_the_modules_parameters(tmp_path: Path) -> None:
    from admin.engine.model import RuleRevision

    game = make_game(tmp_path / "g", updates=2)
    state = game.load()
    state.rule_history["VI.11"] = [
        RuleRevision(rev=1, action="created", update=0, week=0, text="Rent is <b>three</b> times."),
        RuleRevision(rev=2, action="amended", update=2, week=1, proposal=2,
                     old_text="Rent is <b>three</b> times.", text="Rent is <b>twice</b> the number.")]
    write_state(game.root, state)
    html = (build_site(game) / "rules.html").read_text(encoding="utf-8")
    vi11 = html[html.index('id="rule-VI-11"'):html.index('id="rule-VI-12"')]
    assert "<del>three</del><ins>twice</ins>" in vi11
    assert "<del> times</del>" in vi11 or "<del>times</del>" in vi11
    assert "&lt;b&gt;" in vi11 and "<b>three" not in vi11
    assert 'href="proposals.html#proposal-2"' in vi11 and "rev 2" in vi11
    assert 'href="#module-turns"' in vi11
    modules = html[html.index('id="modules"'):]
    assert 'id="module-proposals"' in modules and "missed_vote_fine" in modules
    assert 'href="rules.html#rule-VIII-3"' in modules or 'href="#rule-VIII-3"' in modules or "rule-VIII-3" in modules


def test_verify_and_home_show_both_commitments_and_explain_hidden_draws(demo_site: Callable[[str], Path]) -> None:
    out = demo_site("nomopoly2")
    state = GameDir(out.parent).load_public()
    assert state.next_hidden_commitment
    for page in ("index.html", "verify.html"):
        html = (out / page).read_text(encoding="utf-8")
        assert state.next_commitment in html and state.next_hidden_commitment in html, page
        assert "nomopoly verify" in html
    verify = (out / "verify.html").read_text(encoding="utf-8")
    assert "published when the game ends" in verify and "nomopoly verify --hidden" in verify
    for name, key_hash in state.next_player_commitments.items():  # each player's key, before the update
        assert f"{name}’s key for hidden draws" in verify and key_hash in verify
    assert state.next_player_commitments and "✗" not in verify


def test_an_incremental_build_reads_only_changed_and_recent_results_files(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import admin.site.history as history
    from admin.site.pages import PLAYER_HISTORY

    last = PLAYER_HISTORY + 5
    game = make_game(tmp_path / "g", updates=last)
    build_site(game)
    read: list[int] = []
    real = history.read_results
    monkeypatch.setattr(history, "read_results",
                        lambda path, **kw: read.append(int(path.stem)) or real(path, **kw))
    results = game.state_dir / "results" / "0002.json"
    results.write_text(results.read_text(encoding="utf-8").replace("Sunday", "Sunday "), encoding="utf-8")
    report = build(game)
    # the player pages list the last PLAYER_HISTORY updates but take their blocks from themselves;
    # only the newest is read in full (the home page's news)
    assert sorted(set(read)) == [2, last]
    assert "updates/0002.html" in report.rendered
    assert not {"updates/0001.html", "updates/0003.html"} & set(report.rendered)
    read.clear()
    build(game, full=True)
    assert sorted(set(read)) == list(range(0, last + 1))


def test_an_event_item_escapes_its_text_splits_a_failure_and_links_its_rule() -> None:
    from admin.site.content import event_item

    env = jinja2.Environment(autoescape=True)
    env.globals["event_item"] = event_item
    page = env.from_string("{{ event_item(e) }}")
    links = {"VI.9": "rules.html#rule-VI-9"}
    render = lambda e: page.render(e=e, root="../", rule_href=lambda r: links.get(r, ""))  # noqa: E731
    done = render({"kind": "buy", "text": "<b>bob</b> & 'co'", "ok": True, "rule": "VI.9"})
    assert done == ('<li class="ev ev-buy">\n  <span class="kind">buy</span>\n  <span class="what">'
                    "&lt;b&gt;bob&lt;/b&gt; &amp; &#39;co&#39;</span>\n"
                    '  <a class="rule" href="../rules.html#rule-VI-9">VI.9</a>\n</li>')
    failed = render({"kind": "action", "text": 'bob: "BUY 7" was not done: <no> money', "ok": False,
                     "rule": "XX.1"})
    assert '<li class="ev ev-action failed">' in failed and '<span class="kind">not done</span>' in failed
    assert 'bob: &#34;BUY 7&#34; was not done: <strong class="reason">&lt;no&gt; money</strong>' in failed
    assert '<span class="rule">XX.1</span>' in failed  # no such rule: no link


def test_a_site_built_from_the_updated_state_is_the_one_built_from_the_files(tmp_path: Path) -> None:
    from admin.site.build import build_site

    game = make_game(tmp_path / "g", updates=3)
    given = build_site(game, tmp_path / "given", state=game.load())  # what `nomopoly update` hands over
    read = build_site(game, tmp_path / "read")
    files = lambda root: {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))  # noqa: E731
                          if p.is_file() and not p.name.startswith(".")}
    assert files(given) == files(read) and len(files(read)) > 15
    assert game.load().private.emails  # the state handed over had private parts: none reached the site
    assert not any(email.encode() in data for email in game.load().private.emails.values()
                   for data in files(given).values())


def test_a_player_link_has_their_colour_and_page_and_a_stranger_gets_plain_escaped_text() -> None:
    from admin.site.content import player_link

    env = jinja2.Environment(autoescape=True)
    env.globals["player_link"] = player_link
    page = env.from_string("{{ player_link(n) }}")
    render = lambda n: page.render(n=n, root="../", player_href=lambda x: "players/bob.html" if x == "bob" else "",  # noqa: E731
                                   colours={"bob": "#0072b2"})
    assert render("bob") == ('<a class="who" href="../players/bob.html"><span class="dot" '
                             'style="background:#0072b2" aria-hidden="true"></span>bob</a>')
    assert render("<eve>") == '<span class="who">&lt;eve&gt;</span>'


def test_a_results_files_summary_read_alone_is_the_summary_of_reading_it_in_full(tmp_path: Path) -> None:
    from admin.site.history import read_results

    game = make_game(tmp_path / "g", updates=4)
    for path in game.results_files():
        assert read_results(path, full=False) == read_results(path).summary(), path.name


def test_the_board_legend_explains_every_badge_and_a_crowded_square_shows_how_many_more() -> None:
    from admin.games.catalog import initial_state
    from admin.library.board import BoardModule
    from admin.games.nomopoly2.mechanics.railroads import RailroadsModule

    state = initial_state("nomopoly2-full", "t")
    BoardModule.of(state).polluted.append(3)
    BoardModule.of(state).contaminated.append(3)
    RailroadsModule.of(state).squares.extend([3, 5])
    svg = str(board_svg(state))
    legend = svg[svg.rindex('class="lg">unowned'):]
    for short, long in (("POL", "polluted"), ("CON", "contaminated"), ("RR", "railroad")):
        assert re.search(rf'class="flag"[^>]*>{short}</text><text[^>]*class="lg">{long}</text>', legend)
    cell3 = re.search(r'<g class="sq"><title>Square 3(.*?)</g>', svg).group(0)
    badges = re.findall(r'class="flag"[^>]*>([^<]+)</text>', cell3)
    assert badges == ["POL", "+2"]                          # two badges fit; the rest are counted
    assert "polluted; contaminated; a railroad" in cell3      # and named in the square's title
    cell5 = re.search(r'<g class="sq"><title>Square 5(.*?)</g>', svg).group(0)
    assert re.findall(r'class="flag"[^>]*>([^<]+)</text>', cell5) == ["RR"]


def test_a_long_chart_draws_at_most_its_width_in_points_keeping_the_first_and_last() -> None:
    from admin.site.charts import MAX_POINTS, Series, thin

    xs = list(range(1, 521))
    series, kept = thin([Series("a", "#000000", [x * 10 for x in xs])], xs)
    assert len(kept) == MAX_POINTS and kept[0] == 1 and kept[-1] == 520
    assert series[0].values == [x * 10 for x in kept]
    assert thin([Series("a", "#000000", [1, 2])], [1, 2]) == ([Series("a", "#000000", [1, 2])], [1, 2])


def test_a_control_character_in_an_events_text_leaves_the_feed_readable_xml(tmp_path: Path) -> None:
    """An event's text carries what a player wrote (a proposal's title); a BEL in it made feed.atom
    XML no reader parses."""
    game = make_game(tmp_path / "g", site_url="https://games.example.org/g/", updates=1)
    path = game.results_files()[-1]
    record = json.loads(path.read_text(encoding="utf-8"))
    record["events"].insert(1, {"data": {}, "kind": "action", "ok": True, "player": None, "rule": None,
                                "text": "alice made proposal 9: Ring\x07 the \x1b[31mbell\x0b."})
    path.write_text(json.dumps(record), encoding="utf-8")
    out = build_site(game, full=True)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    feed = ET.parse(out / "feed.atom").getroot()
    summary = feed.find("a:entry", ns).findtext("a:summary", namespaces=ns)
    assert "alice made proposal 9: Ring the [31mbell." in summary
