"""Build the static site of a game: read the public state, render the templates, swap it in whole.

``build_site(GameDir(root))`` writes ``<root>/site``. It reads only public files (``load_public``,
``state/results/``, ``rules_md/``); every link is relative, so the site works from ``file://`` and
from any sub-path of any host. Templates come from the game's ``site_templates/`` first, then the
bundled ones; a game's template may extend the bundled one of the same name as
``{% extends "bundled/board.html" %}``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

import admin
from admin.engine.registry import REGISTRY
from admin.errors import StateError
from admin.game import GameDir
from admin.model import GameState, Player
from admin.nomic.ruleset import Ruleset, load_ruleset, rule_anchor
from admin.site.content import (UpdateResults, highlights, load_results, player_slugs,
                                render_markdown, results_files, split_failure)
from admin.site.export import next_phase, player_worth, public_hands, public_status
from admin.site.svg import Series, board_svg, initials, ink_on, line_chart, player_colours

MANIFEST = ".nomopoly-build.json"
NAV = (("home", "Home", "index.html"), ("board", "Board", "board.html"),
       ("players", "Players", "players.html"), ("proposals", "Proposals", "proposals.html"),
       ("rules", "Rules", "rules.html"), ("updates", "Updates", "updates.html"),
       ("verify", "Verify", "verify.html"))


def bundled_templates() -> Path:
    """The templates shipped with nomopoly: the repo's ``site_templates/`` or the wheel's copy."""
    package = Path(admin.__file__).parent
    for candidate in (package.parent / "site_templates", package / "_bundled" / "site_templates"):
        if candidate.is_dir():
            return candidate
    raise StateError(f"no bundled site_templates next to {package}; reinstall nomopoly")


def make_env(game: GameDir) -> jinja2.Environment:
    bundled = jinja2.FileSystemLoader(str(bundled_templates()))
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(str(game.root / "site_templates")), bundled,
                                  jinja2.PrefixLoader({"bundled": bundled})])
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["md"] = render_markdown
    env.filters["money"] = money
    env.filters["split_failure"] = split_failure
    env.filters["initials"] = initials
    env.filters["when"] = when
    return env


def when(value: Any) -> str:
    """An ISO 8601 time for people: ``Sat 14 Nov 2026, 23:59 UTC`` (as given if it is not one)."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return moment.strftime("%a %-d %b %Y, %H:%M") + (f" {moment.tzname()}" if moment.tzinfo else "")


def money(value: Any) -> str:
    try:
        v = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"−${-v:,}" if v < 0 else f"${v:,}"


@dataclass
class Site:
    """Everything the pages share; built once per build."""

    game: GameDir
    state: GameState
    title: str
    url: str
    results: list[UpdateResults]
    ruleset: Ruleset | None
    colours: dict[str, str] = field(default_factory=dict)
    slugs: dict[str, str] = field(default_factory=dict)
    #: update number -> the seed commitment published before it (from the previous results file)
    published: dict[int, str] = field(default_factory=dict)
    #: when mail for the next update must arrive by, as (ISO 8601, for people), or None
    deadline: tuple[str, str] | None = None

    def repealed(self) -> set[str]:
        """Ids of rules whose last revision is a repeal."""
        history = getattr(self.state, "rule_history", None) or {}
        return {rid for rid, revs in history.items()
                if revs and getattr(revs[-1], "action", "") == "repealed"}

    def rule_href(self, rule_id: Any) -> str:
        if not self.ruleset or not isinstance(rule_id, str):
            return ""
        try:
            anchor = rule_anchor(rule_id)
        except Exception:  # not a rule id at all: no link
            return ""
        try:
            self.ruleset.rule(rule_id)
        except Exception:  # no such rule now: link only if it was repealed (its entry stays)
            if rule_id not in self.repealed():
                return ""
        return "rules.html#" + anchor

    def player_href(self, name: Any) -> str:
        slug = self.slugs.get(name) if isinstance(name, str) else None
        return f"players/{slug}.html" if slug else ""

    def standings(self) -> list[dict[str, Any]]:
        rows = [self.player_row(p) for p in self.state.players.values()]
        return sorted(rows, key=lambda r: (not r["active"], -r["net_worth"], r["name"]))

    def player_row(self, p: Player) -> dict[str, Any]:
        owned = [s for s in self.state.squares if s.owner == p.name and not s.destroyed]
        colour = self.colours.get(p.name, "#777777")
        return {"name": p.name, "player": p, "money": p.money, "health": p.health, "square": p.square,
                "squares": owned, "net_worth": player_worth(self.state, p), "active": p.active,
                "bankrupt": p.money < 0, "cards_held": len(p.cards), "colour": colour,
                "ink": ink_on(colour), "href": self.player_href(p.name), "slug": self.slugs[p.name]}

    def chart(self, names: list[str], *, worth: bool, money_too: bool, title: str) -> dict[str, Markup] | None:
        """The chart twice: wide for screens, narrow for phones (CSS shows one; no JavaScript)."""
        points = [r for r in self.results if r.money or r.net_worth]
        if not points:
            return None
        xs = [r.number for r in points]
        series = []
        for name in names:
            colour = self.colours.get(name, "#777777")
            if money_too:
                series.append(Series(f"{name}: money", colour, [r.money.get(name) for r in points]))
            if worth:
                label = f"{name}: net worth" if money_too else name
                series.append(Series(label, colour, [r.net_worth.get(name) for r in points],
                                     dashed=money_too))
        return {"wide": line_chart(series, xs, title),
                "narrow": line_chart(series, xs, title, width=380, height=280)}


# -- pages -------------------------------------------------------------------------------------
class Writer:
    def __init__(self, env: jinja2.Environment, site: Site, into: Path) -> None:
        self.env, self.site, self.into = env, site, into
        self.pages: list[str] = []

    def common(self, path: str) -> dict[str, Any]:
        depth = path.count("/")
        s = self.site
        return {"root": "../" * depth, "path": path, "site_title": s.title, "site_url": s.url,
                "state": s.state, "phase": next_phase(s.state), "commitment": s.state.next_commitment,
                "nav": NAV, "rule_href": s.rule_href, "player_href": s.player_href,
                "colours": s.colours, "last": s.results[-1] if s.results else None,
                "deadline": s.deadline}

    def render(self, template: str, path: str, **context: Any) -> str:
        ctx = self.common(path)
        ctx.update(context)
        return self.env.get_template(template).render(ctx)

    def page(self, template: str, path: str, *, listed: bool = True, **context: Any) -> None:
        self.write(path, self.render(template, path, **context))
        if listed:
            self.pages.append(path)

    def write(self, path: str, text: str | bytes) -> None:
        target = self.into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, str):
            target.write_text(text, encoding="utf-8")
        else:
            target.write_bytes(text)


def _fingerprint(game: GameDir, site: Site) -> str:
    """What every update page depends on besides its own results file: the templates, and what
    every page shows (the footer's week and commitment, the banners, links to players and rules)."""
    h = hashlib.sha256()
    h.update(admin.__version__.encode())
    for folder in (bundled_templates(), game.root / "site_templates"):
        if folder.is_dir():
            for p in sorted(folder.rglob("*")):
                if p.is_file():
                    h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes())
    state = site.state
    h.update(json.dumps([site.title, site.url, site.slugs, site.colours, site.deadline,
                         [r.id for r in site.ruleset.rules()] if site.ruleset else [],
                         sorted(site.repealed()), next_phase(state), state.week, state.update,
                         state.next_commitment, state.paused, state.ended, state.winner,
                         state.end_reason], sort_keys=True, default=str).encode())
    return h.hexdigest()


def _update_pages(w: Writer, game: GameDir, old: Path | None, full: bool) -> dict[str, str]:
    """One page per update; unchanged ones are copied from the old site unless ``full``."""
    site = w.site
    base = _fingerprint(game, site)
    previous: dict[str, str] = {}
    if old is not None and not full:
        try:
            previous = json.loads((old / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            previous = {}
    raw = {int(p.stem): p.read_bytes() for p in results_files(game.state_dir)}
    keys: dict[str, str] = {}
    for i, r in enumerate(site.results):
        prev_r = site.results[i - 1] if i else None
        next_r = site.results[i + 1] if i + 1 < len(site.results) else None
        key = hashlib.sha256(base.encode() + raw.get(r.number, b"") + repr(
            (prev_r and prev_r.number, next_r and next_r.number,
             site.published.get(r.number))).encode()).hexdigest()
        keys[r.page] = key
        if old is not None and previous.get(r.page) == key and (old / r.page).is_file():
            w.write(r.page, (old / r.page).read_bytes())
            w.pages.append(r.page)
            continue
        w.page("update.html", r.page, u=r, prev=prev_r, next=next_r,
               published=site.published.get(r.number, ""))
    return keys


def _player_pages(w: Writer) -> None:
    site = w.site
    for row in site.standings():
        name = row["name"]
        history = [(r, events) for r in reversed(site.results)
                   if (events := [e for e in r.events if e.get("player") == name])]
        chart = site.chart([name], worth=True, money_too=True, title=f"{name}: money and net worth")
        w.page("player.html", site.player_href(name), p=row, history=history,
               chart=chart, hands=public_hands(site.state))


def _history(site: Site, rule_id: str) -> list[Any]:
    """A rule's revisions, oldest first (empty when the state keeps no history)."""
    history = getattr(site.state, "rule_history", None) or {}
    return list(history.get(rule_id, []))


def _rules(site: Site) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The sections with their rules, and the rules repealed since (kept so old links resolve)."""
    if not site.ruleset:
        return [], []
    enabled = {m.name for m in site.state.modules}
    out = []
    for section in site.ruleset.sections:
        rules = []
        for rule in section.rules:
            module = REGISTRY.module_for_rule(rule.id)
            summary = REGISTRY.known[module].summary if module else ""
            history = _history(site, rule.id)
            rules.append({"id": rule.id, "anchor": rule_anchor(rule.id), "text": rule.text,
                          "module": module, "enabled": module in enabled, "summary": summary,
                          "history": history if len(history) > 1 else []})
        out.append({"numeral": section.numeral, "title": section.title,
                    "anchor": f"section-{section.numeral}", "rules": rules})
    live = {r.id for r in site.ruleset.rules()}
    repealed = []
    for rule_id in sorted(site.repealed()):
        if rule_id not in live:
            history = _history(site, rule_id)
            repealed.append({"id": rule_id, "anchor": rule_anchor(rule_id), "history": history,
                             "text": next((h.old_text or h.text for h in reversed(history)
                                           if (h.old_text or h.text)), "")})
    return out, repealed


def _render_all(w: Writer, game: GameDir, old: Path | None, full: bool) -> dict[str, str]:
    site, state = w.site, w.site.state
    status = public_status(state)
    standings = site.standings()
    board = board_svg(state, site.colours)
    squares = [{"sq": s, "here": sorted(p.name for p in state.players.values()
                                        if p.active and p.square == s.number)}
               for s in state.squares]
    w.page("index.html", "index.html", active="home", standings=standings, board=board,
           news=site.results[-1] if site.results else None, status=status,
           highlights=highlights(site.results[-1].events) if site.results else [])
    w.page("board.html", "board.html", active="board", board=board, squares=squares,
           standings=standings)
    sections, repealed = _rules(site)
    w.page("rules.html", "rules.html", active="rules", sections=sections, repealed=repealed)
    w.page("proposals.html", "proposals.html", active="proposals",
           proposals=sorted(state.proposals, key=lambda p: -p.number))
    w.page("players.html", "players.html", active="players", standings=standings,
           chart=site.chart([r["name"] for r in standings], worth=True, money_too=False,
                            title="Net worth of every player, update by update"))
    _player_pages(w)
    keys = _update_pages(w, game, old, full)
    w.page("updates.html", "updates.html", active="updates", updates=list(reversed(site.results)))
    w.page("verify.html", "verify.html", active="verify", updates=site.results,
           published=site.published)
    # served for any missing path, so its links are absolute when the site has a URL
    w.write("404.html", w.render("404.html", "404.html", root=f"{site.url}/" if site.url else ""))
    w.write("state.json", json.dumps(status, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    if site.url:
        w.write("feed.atom", w.render("feed.atom", "feed.atom",
                                      updates=list(reversed(site.results))[:50]))
        w.write("sitemap.xml", w.render("sitemap.xml", "sitemap.xml", pages=w.pages))
    return keys


def _deadline(game: GameDir, state: GameState) -> tuple[str, str] | None:
    """The next update's deadline from the schedule (the one place that computes it: jobs)."""
    if state.ended:
        return None
    from admin.jobs import deadline

    due = deadline(game, state)
    if due is None:
        return None
    return due.isoformat(), when(due.isoformat())


def _copy_static(game: GameDir, into: Path) -> None:
    for folder in (bundled_templates() / "static", game.root / "site_templates" / "static"):
        if folder.is_dir():
            shutil.copytree(folder, into / "static", dirs_exist_ok=True)


def build_site(game: GameDir, out: Path | None = None, *, full: bool = False) -> Path:
    """Build the site into ``out`` (default ``<game>/site``), replacing it whole; return ``out``.

    Unless ``full``, update pages whose inputs have not changed are copied from the old site."""
    out = Path(out) if out is not None else game.root / "site"
    state = game.load_public()
    settings = game.settings()
    ruleset = load_ruleset(game.rules_dir) if game.rules_dir.is_dir() else None
    results = load_results(game.state_dir)
    site = Site(game=game, state=state, title=settings.title or state.name or "Nomopoly",
                url=settings.site_url, results=[r for r in results if r.number > 0],
                ruleset=ruleset, colours=player_colours(state), slugs=player_slugs(list(state.players)),
                published={r.number + 1: r.next_commitment for r in results if r.next_commitment})
    site.deadline = _deadline(game, state)
    env = make_env(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        os.chmod(tmp, 0o755)
        w = Writer(env, site, tmp)
        keys = _render_all(w, game, out if out.is_dir() else None, full)
        _copy_static(game, tmp)
        (tmp / MANIFEST).write_text(json.dumps(keys, indent=1, sort_keys=True), encoding="utf-8")
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out


def _swap_in(new: Path, out: Path) -> None:
    """Replace ``out`` by ``new``: rename the old away, rename the new in, remove the old."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.rename(out, old / "site")
    try:
        os.rename(new, out)
    except OSError:
        if old is not None:
            os.rename(old / "site", out)
            shutil.rmtree(old, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
