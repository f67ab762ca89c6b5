"""Build the static site of a game: read the public state, render the templates, swap it in whole.

``build_site(GameDir(root))`` writes ``<root>/site``. It reads only public files (``load_public``,
``state/results/``, ``rules_md/``); every link is relative, so the site works from ``file://`` and
from any sub-path of any host. Templates come from the game's ``site_templates/`` first, then the
bundled ones; a game's template may extend the bundled one of the same name as
``{% extends "bundled/board.html" %}``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

import admin
from admin.engine.registry import REGISTRY
from admin.errors import StateError
from admin.game import GameDir
from admin.model import GameState, Player, Proposal
from admin.nomic.ruleset import Ruleset, load_ruleset, rule_anchor
from admin.site.content import (UpdateResults, diff_words, highlights, load_results, player_slugs,
                                read_results_cache, render_markdown, results_cache_bytes,
                                split_failure)
from admin.site.export import next_phase, player_worth, public_hands, public_status
from admin.site.svg import Series, board_svg, initials, ink_on, line_chart, player_colours

MANIFEST = ".nomopoly-build.json"
MANIFEST_FORMAT = 2
#: the parsed results files, so an incremental build parses only the new one (public data only)
RESULTS_CACHE = ".nomopoly-results.cache"
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
    #: update number -> the hidden seed's commitment published before it
    published_hidden: dict[int, str] = field(default_factory=dict)
    #: when mail for the next update must arrive by, as (ISO 8601, for people), or None
    deadline: tuple[str, str] | None = None

    def banner(self) -> dict[str, Any]:
        """What the banner on every page says: won, over, or paused."""
        st = self.state
        return {"winner": st.winner, "ended": st.ended, "end_reason": st.end_reason,
                "paused": st.paused}

    def repealed(self) -> set[str]:
        """Ids of rules whose last revision is a repeal."""
        history = getattr(self.state, "rule_history", None) or {}
        return {rid for rid, revs in history.items()
                if revs and getattr(revs[-1], "action", "") == "repealed"}

    def rule_href(self, rule_id: Any) -> str:
        if not isinstance(rule_id, str):
            return ""
        memo = self.__dict__.setdefault("_rule_hrefs", {})
        if rule_id not in memo:
            memo[rule_id] = self._rule_href(rule_id)
        return memo[rule_id]

    def _rule_href(self, rule_id: str) -> str:
        if not self.ruleset:
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


# -- pages -----------------------------------------------------------------------------------
def _plain(obj: Any) -> Any:
    """JSON for what a page renders: dataclasses by their fields, sets sorted."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=str)
    if isinstance(obj, tuple):
        return list(obj)
    if callable(obj):
        return getattr(obj, "__name__", type(obj).__name__)
    return repr(obj)


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=_plain, sort_keys=True, ensure_ascii=False,
                                     separators=(",", ":")).encode("utf-8")).hexdigest()


class Lookups:
    """The links and colours a page looked up while it rendered, with what it got.

    A page's key covers the data passed to it; what it looks up on the side (does rule VI.9 still
    have an anchor? what is bob's page called?) is recorded here, and a page is only reused when
    every look-up still gives the same answer."""

    KINDS = ("colour", "player", "rule")

    def __init__(self, site: "Site") -> None:
        self.site = site
        self.seen: dict[tuple[str, str], Any] = {}

    def answer(self, kind: str, arg: Any) -> Any:
        if kind == "rule":
            return self.site.rule_href(arg)
        if kind == "player":
            return self.site.player_href(arg)
        return self.site.colours.get(arg) if isinstance(arg, str) else None

    def ask(self, kind: str, arg: Any) -> Any:
        value = self.answer(kind, arg)
        if isinstance(arg, str):
            self.seen[(kind, arg)] = value
        return value

    def rule_href(self, rule_id: Any) -> str:
        return self.ask("rule", rule_id)

    def player_href(self, name: Any) -> str:
        return self.ask("player", name)

    def get(self, name: Any, default: Any = None) -> Any:  # ``colours.get(name, "#777")``
        value = self.ask("colour", name)
        return default if value is None else value

    def __getitem__(self, name: Any) -> Any:
        value = self.ask("colour", name)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: Any) -> bool:
        return self.ask("colour", name) is not None

    def record(self) -> list[list[Any]]:
        return [[k, a, v] for (k, a), v in sorted(self.seen.items())]

    def still(self, record: Any) -> bool:
        try:
            return all(self.answer(k, a) == v for k, a, v in record)
        except (TypeError, ValueError):
            return False


@dataclass
class BuildReport:
    """What a build did: ``rendered`` pages ran their template (their inputs changed, or ``full``);
    ``written`` files got new content; the rest were kept from the previous site as they were."""

    out: Path
    files: int = 0
    rendered: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def kept(self) -> int:
        return self.files - len(self.written)

    def summary(self) -> str:
        return (f"{len(self.rendered)} of {self.files} pages rendered, {len(self.written)} rewritten, "
                f"{self.kept} kept as they were ({self.seconds:.2f} s)")


class Writer:
    """Writes the pages into the new site; a page whose inputs match the previous build's manifest
    is not rendered: its file is kept (hard-linked) from the previous site."""

    def __init__(self, env: jinja2.Environment, site: Site, into: Path, old: Path | None,
                 base: str, full: bool) -> None:
        self.env, self.site, self.into, self.old, self.base, self.full = env, site, into, old, base, full
        self.pages: list[str] = []
        self.manifest: dict[str, Any] = {}
        self.report = BuildReport(out=into)
        self.previous: dict[str, Any] = {}
        if old is not None and not full:
            try:
                data = json.loads((old / MANIFEST).read_text(encoding="utf-8"))
                self.previous = data.get("pages", {}) if data.get("format") == MANIFEST_FORMAT else {}
            except (OSError, ValueError, AttributeError):
                self.previous = {}

    def common(self, path: str, lookups: Lookups) -> dict[str, Any]:
        s = self.site
        return {"root": "../" * path.count("/"), "path": path, "site_title": s.title,
                "site_url": s.url, "nav": NAV, "rule_href": lookups.rule_href,
                "player_href": lookups.player_href, "colours": lookups, "game": s.banner(),
                "live": None}

    def page(self, template: str, path: str, *, listed: bool = True, inputs: Any = None,
             **context: Any) -> None:
        """Render ``template`` to ``path`` unless its inputs are what they were last time.

        The key is the templates and code (``base``), the path, and the page's own data:
        ``inputs`` when given (e.g. the raw results file an update page shows), else ``context``."""
        if listed:
            self.pages.append(path)
        s = self.site
        key = _digest(self.base, template, path, s.title, s.url, s.banner(),
                      context if inputs is None else inputs)
        before = self.previous.get(path)
        if (isinstance(before, dict) and before.get("key") == key and self.old is not None
                and self.site_lookups_still(before.get("deps", []))
                and self._keep(path)):
            self.manifest[path] = before
            return
        lookups = Lookups(self.site)
        ctx = self.common(path, lookups)
        ctx.update(context)
        text = self.env.get_template(template).render(ctx)
        self.report.rendered.append(path)
        self.manifest[path] = {"key": key, "deps": lookups.record()}
        self.write(path, text)

    def site_lookups_still(self, record: Any) -> bool:
        return isinstance(record, list) and Lookups(self.site).still(record)

    def _keep(self, path: str) -> bool:
        """Put the previous site's file in the new one, untouched (same inode, same mtime)."""
        assert self.old is not None
        source, target = self.old / path, self.into / path
        if not source.is_file():
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)
        self.report.files += 1
        return True

    def write(self, path: str, text: str | bytes) -> None:
        """Write a file; one whose bytes equal the previous site's is kept instead of rewritten."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        if self.old is not None and not self.full:
            try:
                same = (self.old / path).read_bytes() == data
            except OSError:
                same = False
            if same and self._keep(path):
                return
        target = self.into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        self.report.files += 1
        self.report.written.append(path)


def _sources(game: GameDir) -> str:
    """What every page depends on: the templates (bundled and the game's), the code that renders
    them, and the versions of the libraries that turn markdown into HTML."""
    h = hashlib.sha256()
    h.update(admin.__version__.encode())
    for dist in ("jinja2", "markdown", "nh3"):
        try:
            h.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            pass
    for code in sorted(Path(__file__).parent.glob("*.py")):
        h.update(code.name.encode() + b"\0" + code.read_bytes())
    for folder in (bundled_templates(), game.root / "site_templates"):
        h.update(b"\1" + str(folder.name).encode())
        if folder.is_dir():
            for p in sorted(folder.rglob("*")):
                if p.is_file() and "static" not in p.relative_to(folder).parts:
                    h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _light(r: UpdateResults, published: dict[int, str], hidden: dict[int, str]) -> dict[str, Any]:
    """An update as the lists (updates, verify) show it: no events, no rolls."""
    return {"number": r.number, "page": r.page, "week": r.week, "slot": r.slot, "cutoff": r.cutoff,
            "events": len(r.events), "failed": r.failed, "seed": r.seed, "commitment": r.commitment,
            "seed_checks": r.seed_checks, "published": published.get(r.number, ""),
            "hidden_commitment": r.hidden_commitment, "published_hidden": hidden.get(r.number, "")}


def _update_pages(w: Writer, game: GameDir) -> None:
    """One page per update. Its inputs are its own results file, its neighbours' numbers and the
    commitments published before it: never the current week, so old pages stay as they are."""
    site = w.site
    raw = {int(p.stem): p.read_bytes() for p in game.results_files()}
    for i, r in enumerate(site.results):
        prev_r = site.results[i - 1] if i else None
        next_r = site.results[i + 1] if i + 1 < len(site.results) else None
        published = site.published.get(r.number, "")
        hidden = site.published_hidden.get(r.number, "")
        w.page("update.html", r.page, inputs=[hashlib.sha256(raw.get(r.number, b"")).hexdigest(),
                                               prev_r and prev_r.number, next_r and next_r.number,
                                               published, hidden, site.banner()],
               u=r, prev=prev_r and {"number": prev_r.number, "page": prev_r.page},
               next=next_r and {"number": next_r.number, "page": next_r.page},
               published=published, published_hidden=hidden)


#: a player's page lists what happened to them in this many recent updates (older: the archive)
PLAYER_HISTORY = 20


def _player_pages(w: Writer) -> None:
    site = w.site
    hands = public_hands(site.state)
    mine: dict[str, list[dict[str, Any]]] = {}  # player -> their updates, newest first
    for r in list(reversed(site.results))[:PLAYER_HISTORY]:
        by_player: dict[str, list[dict[str, Any]]] = {}
        for e in r.events:
            if isinstance(e.get("player"), str):
                by_player.setdefault(e["player"], []).append(e)
        for name, events in by_player.items():
            mine.setdefault(name, []).append({"number": r.number, "page": r.page, "week": r.week,
                                              "slot": r.slot, "events": events})
    for row in site.standings():
        name = row["name"]
        history = mine.get(name, [])
        chart = site.chart([name], worth=True, money_too=True, title=f"{name}: money and net worth")
        w.page("player.html", site.player_href(name), p=row, history=history,
               chart=chart, hands=hands, older=len(site.results) > PLAYER_HISTORY)


def _history(site: Site, rule_id: str) -> list[Any]:
    """A rule's revisions, oldest first (empty when the state keeps no history)."""
    history = getattr(site.state, "rule_history", None) or {}
    return list(history.get(rule_id, []))


def _revisions(site: Site, rule_id: str) -> list[dict[str, Any]]:
    """A rule's revisions as the rules page shows them, each amendment with its word diff."""
    out = []
    for h in _history(site, rule_id):
        diff = diff_words(h.old_text, h.text) if h.action == "amended" else None
        out.append({"rev": h.rev, "action": h.action, "in_update": h.update, "week": h.week,
                    "proposal": h.proposal, "old_id": h.old_id, "text": h.text,
                    "old_text": h.old_text, "diff": diff})
    return out


def _modules(site: Site) -> list[dict[str, Any]]:
    """Every module that automates a rule of this game: its rules, summary and parameters."""
    enabled = [m.name for m in site.state.modules]
    out = []
    for name in enabled + sorted(set(REGISTRY.known) - set(enabled)):
        cls = REGISTRY.known.get(name)
        if cls is None:
            continue
        params = REGISTRY.params(site.state, name)
        overridden = set(site.state.params(name))
        out.append({"name": name, "anchor": f"module-{name}", "summary": cls.summary,
                    "enabled": name in enabled, "rules": list(cls.rules),
                    "params": [{"key": k, "value": _param(v), "changed": k in overridden}
                               for k, v in sorted(params.items())]})
    return out


def _param(value: Any) -> str:
    """A parameter's value as the game's YAML would show it, short."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, dict)):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
        return text if len(text) <= 160 else text[:157] + "…"
    return str(value)


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
            history = _revisions(site, rule.id)
            changed = any(h["in_update"] or h["proposal"] for h in history)
            rules.append({"id": rule.id, "anchor": rule_anchor(rule.id), "text": rule.text,
                          "module": module, "enabled": module in enabled, "summary": summary,
                          "history": history if changed or len(history) > 1 else []})
        out.append({"numeral": section.numeral, "title": section.title,
                    "anchor": f"section-{section.numeral}", "rules": rules})
    live = {r.id for r in site.ruleset.rules()}
    repealed = []
    for rule_id in sorted(site.repealed()):
        if rule_id not in live:
            raw = _history(site, rule_id)
            repealed.append({"id": rule_id, "anchor": rule_anchor(rule_id),
                             "history": _revisions(site, rule_id),
                             "text": next((h.old_text or h.text for h in reversed(raw)
                                           if (h.old_text or h.text)), "")})
    return out, repealed


def _proposal_view(site: Site, p: Proposal, active: list[str]) -> dict[str, Any]:
    """A proposal as the proposals page shows it (the cards a result dealt: counts, never which)."""
    status = "accepted, awaiting the Admin" if p.status == "accepted" and p.awaiting_admin else p.status
    votes: dict[str, list[dict[str, Any]]] = {"yes": [], "no": [], "abstain": []}
    for name, v in sorted(p.votes.items()):
        votes.setdefault(v.choice, []).append({"name": name, "weight": v.weight,
                                               "changed_from": list(v.changed_from)})
    tally = None
    if p.tally is not None:
        t = p.tally
        cards: dict[str, int] = {}
        for name in t.cards_to:
            cards[name] = cards.get(name, 0) + 1
        tally = {"yes": t.yes, "no": t.no, "abstain": t.abstain, "missing": list(t.missing),
                 "fines": dict(sorted(t.fines.items())), "note": t.note,
                 "money": sorted(t.money.items(), key=lambda kv: (-kv[1], kv[0])),
                 "cards": sorted(cards.items()), "card_total": len(t.cards_to)}
    return {"number": p.number, "title": p.title, "text": p.text, "proposer": p.proposer,
            "week": p.week, "received": p.update, "status": status,
            "badge": "awaiting" if status != p.status else p.status.replace(" ", "-"),
            "note": p.note, "awaiting_admin": p.awaiting_admin, "closed_update": p.closed_update,
            "votes": [(choice, votes[choice]) for choice in ("yes", "no", "abstain") if votes.get(choice)],
            "voters": len(p.votes), "tally": tally, "changed_rules": list(p.changed_rules),
            "directives": len(p.directives),
            "not_voted": [n for n in active if n not in p.votes] if p.status == "voting" else []}


def _proposal_groups(site: Site) -> list[dict[str, Any]]:
    state = site.state
    active = sorted(pl.name for pl in state.active_players())
    views = [_proposal_view(site, p, active) for p in sorted(state.proposals, key=lambda p: -p.number)]
    groups = (("voting", "Being voted on", lambda v: v["status"] == "voting"),
              ("open", "Waiting for the vote", lambda v: v["status"] == "open"),
              ("awaiting", "Accepted, waiting for the Admin", lambda v: v["badge"] == "awaiting"),
              ("decided", "Decided", lambda v: v["status"] not in ("voting", "open")
               and v["badge"] != "awaiting"))
    return [{"key": key, "title": title, "proposals": [v for v in views if test(v)]}
            for key, title, test in groups]


def _live(site: Site) -> dict[str, Any]:
    """What only the pages about the present show: the week, the next update and its deadline,
    and the commitments of its seeds. Update pages never show it, so they stay as they were."""
    state = site.state
    return {"week": state.week, "updates_run": state.update, "phase": next_phase(state),
            "deadline": site.deadline, "commitment": state.next_commitment,
            "hidden_commitment": getattr(state, "next_hidden_commitment", None),
            "admin_bank": state.admin_bank}


def _render_all(w: Writer, game: GameDir) -> None:
    site, state = w.site, w.site.state
    live = _live(site)
    standings = site.standings()
    board = board_svg(state, site.colours)
    squares = [{"sq": s, "here": sorted(p.name for p in state.players.values()
                                        if p.active and p.square == s.number)}
               for s in state.squares]
    news = site.results[-1] if site.results else None
    w.page("index.html", "index.html", active="home", live=live, standings=standings, board=board,
           news=news, highlights=highlights(news.events) if news else [])
    w.page("board.html", "board.html", active="board", live=live, board=board, squares=squares,
           standings=standings)
    sections, repealed = _rules(site)
    w.page("rules.html", "rules.html", active="rules", live=live, sections=sections,
           repealed=repealed, modules=_modules(site))
    w.page("proposals.html", "proposals.html", active="proposals", live=live,
           groups=_proposal_groups(site), params=REGISTRY.params(state, "proposals"))
    w.page("players.html", "players.html", active="players", live=live, standings=standings,
           chart=site.chart([r["name"] for r in standings], worth=True, money_too=False,
                            title="Net worth of every player, update by update"))
    _player_pages(w)
    _update_pages(w, game)
    lights = [_light(r, site.published, site.published_hidden) for r in site.results]
    w.page("updates.html", "updates.html", active="updates", live=live, updates=lights[::-1])
    w.page("verify.html", "verify.html", active="verify", live=live, updates=lights)
    # served for any missing path, so its links are absolute when the site has a URL
    w.page("404.html", "404.html", listed=False, live=live,
           root=f"{site.url}/" if site.url else "")
    w.write("state.json", json.dumps(public_status(state), indent=2, sort_keys=True,
                                     ensure_ascii=False) + "\n")
    if site.url:
        feed = [{"number": r.number, "page": r.page, "week": r.week, "slot": r.slot,
                 "cutoff": r.cutoff, "summary": [e["text"] for e in r.events
                                                 if e["kind"] not in ("roll", "move", "order")][:8]}
                for r in list(reversed(site.results))[:50]]
        w.page("feed.atom", "feed.atom", listed=False, updates=feed)
        w.page("sitemap.xml", "sitemap.xml", listed=False, pages=list(w.pages))


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

    Unless ``full``, pages whose inputs have not changed are kept from the old site."""
    return build(game, out, full=full).out


def build(game: GameDir, out: Path | None = None, *, full: bool = False) -> BuildReport:
    """:func:`build_site`, returning what it rendered, rewrote and kept."""
    started = time.perf_counter()
    out = Path(out) if out is not None else game.root / "site"
    state = game.load_public()
    settings = game.settings()
    ruleset = load_ruleset(game.rules_dir) if game.rules_dir.is_dir() else None
    cache = {} if full else read_results_cache(out / RESULTS_CACHE)
    results = load_results(game.results_files(), cache)
    site = Site(game=game, state=state, title=settings.title or state.name or "Nomopoly",
                url=settings.site_url, results=[r for r in results if r.number > 0],
                ruleset=ruleset, colours=player_colours(state), slugs=player_slugs(list(state.players)),
                published={r.number + 1: r.next_commitment for r in results if r.next_commitment},
                published_hidden={r.number + 1: r.next_hidden_commitment for r in results
                                  if r.next_hidden_commitment})
    site.deadline = _deadline(game, state)
    env = make_env(game)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        os.chmod(tmp, 0o755)
        w = Writer(env, site, tmp, out if out.is_dir() else None, _sources(game), full)
        _render_all(w, game)
        _copy_static(game, tmp)
        (tmp / RESULTS_CACHE).write_bytes(results_cache_bytes(cache))
        manifest = {"format": MANIFEST_FORMAT, "pages": w.manifest}
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False)
                                    + "\n", encoding="utf-8")
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    report = w.report
    report.out, report.seconds = out, time.perf_counter() - started
    return report


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
