"""The pages of the site: what each one shows, and what decides whether it must be rendered again.

Pages about the present (home, board, players, proposals, rules, the lists) are cheap to key; pages
about the past are keyed on the files they show (an update's results file, a week's proposal
archive), read in full only when rendered, so an update's build does not grow with the history.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
import json
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from markupsafe import Markup

from admin.nomic.proposals import ProposalsModule
from admin.engine.howto import commands_in_force
from admin.games.registry import REGISTRY
from admin.library.talk import TalkModule
from admin.engine.model import Proposal
from admin.nomic.ruleset import rule_anchor
from admin.site.calendar import deadlines_ics
from admin.site.content import diff_words, highlights, history_block, history_blocks, history_window
from admin.site.export import next_phase, public_status
from admin.site.history import UpdateSummary
from admin.store.fileio import dump_json
from admin.engine.layouts import layout
from admin.site.charts import draw_chart
from admin.site.svg import board_svg, square_look
from admin.site.writer import Writer

if TYPE_CHECKING:
    from admin.site.sitedata import Site

#: a player's page lists what happened to them in this many recent updates (three weeks of a
#: twice-weekly game; older ones are on the update pages). Every update re-renders every player
#: page (money changes), so this bounds the work of an update's build.
PLAYER_HISTORY = 6
#: the players page charts the net worth of this many players, the richest first
CHART_PLAYERS = 10


def _light(s: UpdateSummary, published: dict[int, str], hidden: dict[int, str]) -> dict[str, Any]:
    """An update as the lists (updates, verify) show it: no events, no rolls."""
    return {"number": s.number, "page": s.page, "week": s.week, "slot": s.slot, "cutoff": s.cutoff,
            "events": s.event_count, "failed": s.failed, "seed": s.seed, "commitment": s.commitment,
            "seed_checks": s.seed_checks, "published": published.get(s.number, ""),
            "hidden_commitment": s.hidden_commitment, "published_hidden": hidden.get(s.number, "")}


def _update_pages(w: Writer) -> None:
    """One page per update. Its inputs are the hash of its own results file, its neighbours'
    numbers and the commitments published before it: never the current week, so old pages stay
    as they are, and only a page being rendered reads its file."""
    site, history = w.site, w.site.history
    updates = history.updates

    def results(number: int) -> dict[str, Any]:
        return {"u": history.full(number)}

    for i, s in enumerate(updates):
        prev_s = updates[i - 1] if i else None
        next_s = updates[i + 1] if i + 1 < len(updates) else None
        published = history.published.get(s.number, "")
        hidden = history.published_hidden.get(s.number, "")
        w.page("update.html", s.page,
               inputs=[s.sha, prev_s and prev_s.number, next_s and next_s.number, published, hidden,
                       site.banner()],
               lazy=partial(results, s.number),
               prev=prev_s and {"number": prev_s.number, "page": prev_s.page},
               next=next_s and {"number": next_s.number, "page": next_s.page},
               published=published, published_hidden=hidden)


def _player_pages(w: Writer) -> None:
    """Each player's page: their facts, their chart, and what happened to them in the last
    :data:`PLAYER_HISTORY` updates, newest first. Every page is rendered again each update (money
    changes), but the blocks of the updates it showed already are taken from the page as it was
    (see :func:`history_blocks`): only the new update's results are read and its events rendered."""
    site = w.site
    window: list[dict[str, Any]] = [{"number": s.number, "page": s.page, "week": s.week, "slot": s.slot, "sha": s.sha}
              for s in reversed(site.history.updates[-PLAYER_HISTORY:])]
    shown = [(u["number"], u["sha"]) for u in window]
    older = len(site.history.updates) > PLAYER_HISTORY
    grouped: dict[int, dict[str, list[dict[str, Any]]]] = {}  # update -> player -> their events

    def events_of(number: int, name: str) -> list[dict[str, Any]]:
        if number not in grouped:
            by_player: dict[str, list[dict[str, Any]]] = {}
            for e in site.history.full(number).events:
                if isinstance(e.get("player"), str):
                    by_player.setdefault(e["player"], []).append(e)
            grouped[number] = by_player
        return grouped[number].get(name, [])

    def history(path: str, name: str) -> dict[str, Any]:
        made_from, blocks = history_blocks(w.previous_page(path))
        assert w.lookups is not None
        out = []
        for u in window:
            key = (u["number"], u["sha"])
            if key in made_from:  # the page showed this update: its block, or none
                block = blocks.get(key)
            else:
                events = events_of(u["number"], name)
                block = history_block(u, events, "../" * path.count("/"), w.lookups.rule_href) if events else None
            if block:
                out.append(Markup(block))
        return {"history": out, "window": Markup(history_window(shown))}

    def page(data: Any, path: str, name: str) -> dict[str, Any]:
        return {"chart": draw_chart(data), **history(path, name)}

    for row in site.standings():
        name = row["name"]
        path = site.player_href(name)
        chart = site.chart_data([name], worth=True, money_too=True, title=f"{name}: money and net worth")
        # keyed by the results files its events come from (a hash each) and the chart's data by
        # its repr: the same key, without json-encoding every event shown
        w.page("player.html", path, inputs=[row, shown, older, repr(chart)],
               lazy=partial(page, chart, path, name),
               p=row, older=older)


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
    """Every module of this game, on or dormant: its rules, summary and parameters."""
    enabled = [m.name for m in site.state.modules]
    dormant = sorted(n for n in set(site.state.mods) - set(enabled) if n in REGISTRY.known)
    out = []
    for name in enabled + dormant:  # switched on, then switched off with their state kept
        cls = REGISTRY.known.get(name)
        if cls is None:
            continue
        params = REGISTRY.params(site.state, name)
        overridden = set(site.state.params(name))
        out.append({"name": name, "anchor": f"module-{name}", "summary": cls.describe(params),
                    "enabled": name in enabled, "rules": list(REGISTRY.rules_of(site.state, name)),
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
    from admin.nomic.review import SETTLED, decision, words_not_run

    enabled = {m.name for m in site.state.modules}
    # switched off by a DISABLE (their state kept, dormant): their sections are not in force
    dormant = (set(site.state.mods) | set(site.state.private.mods)) - enabled
    # text only: undecided, or settled by the Admin's ruling (flavour, or applied by hand)
    made = {rule_id: decision(site.state, rule_id) for rule_id, (_, _, module)
            in words_not_run(site.state, undecided=False).items() if module is None}
    text_only = {rule_id for rule_id, d in made.items() if d is None}
    settled = {rule_id: SETTLED[d.kind] for rule_id, d in made.items() if d is not None}
    out = []
    for section in site.ruleset.sections:
        rules = []
        for rule in section.rules:
            module = REGISTRY.module_for_rule(rule.id, site.state)
            summary = REGISTRY.known[module].describe(REGISTRY.params(site.state, module)) if module else ""
            history = _revisions(site, rule.id)
            changed = any(h["in_update"] or h["proposal"] for h in history)
            rules.append({"id": rule.id, "anchor": rule_anchor(rule.id), "text": rule.text,
                          "module": module, "enabled": module in enabled, "summary": summary,
                          "text_only": rule.id in text_only, "settled": settled.get(rule.id, ""),
                          "history": history if changed or len(history) > 1 else []})
        off = sorted({str(r["module"]) for r in rules}) if rules and all(r["module"] in dormant for r in rules) else []
        out.append({"numeral": section.numeral, "title": section.title,
                    "anchor": f"section-{section.numeral}", "rules": rules, "off": off})
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
    talk = REGISTRY.provider(site.state, TalkModule)  # players' comments (a capability of its own)
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
            "preview": list(p.preview) if p.status in ("open", "voting") else [],
            "remarks": talk.proposal_remarks(site.state, p.number) if talk is not None else [],
            "not_voted": [n for n in active if n not in p.votes] if p.status == "voting" else []}


def _proposal_groups(site: Site, proposals: list[Proposal], *, live: bool) -> list[dict[str, Any]]:
    """Proposals by status, newest first; an archive week's page has only the decided group."""
    active = sorted(pl.name for pl in site.state.active_players())
    views = [_proposal_view(site, p, active if live else []) for p in sorted(proposals, key=lambda p: -p.number)]
    groups: tuple[tuple[str, str, Callable[[dict[str, Any]], bool]], ...] = (
        ("voting", "Being voted on", lambda v: v["status"] == "voting"),
        ("open", "Waiting for the vote", lambda v: v["status"] == "open"),
        ("awaiting", "Accepted, waiting for the Admin", lambda v: v["badge"] == "awaiting"),
        ("decided", "Decided", lambda v: v["status"] not in ("voting", "open") and v["badge"] != "awaiting"))
    return [{"key": key, "title": title, "proposals": [v for v in views if test(v)]}
            for key, title, test in groups if live or key == "decided"]


def _proposal_pages(w: Writer) -> None:
    """The live proposals on ``proposals.html``; each archived week on its own page, rendered
    only when its archive file changes."""
    site = w.site
    archives = site.archives
    if not site.state.enabled(ProposalsModule.name) and not archives.paths:
        return  # a game without proposals (Technopoly, Timopoly) has no proposals page
    weeks = [{"week": week, "href": f"proposals/week-{week:04d}.html",
              "count": len(archives.numbers(week))}
             for week in sorted(archives.paths, reverse=True)]
    w.page("proposals.html", "proposals.html", active="proposals", live=_live(site),
           groups=_proposal_groups(site, site.state.proposals, live=True),
           params=REGISTRY.params(site.state, "proposals"), weeks=weeks, week=None)
    def archived(week: int) -> dict[str, Any]:
        return {"groups": _proposal_groups(site, archives.proposals(week), live=False)}

    for week in sorted(archives.paths):
        w.page("proposals.html", f"proposals/week-{week:04d}.html", active="proposals",
               inputs=[archives.sha(week), site.banner()],
               lazy=partial(archived, week),
               live=None, params=REGISTRY.params(site.state, "proposals"), weeks=[], week=week)


def _live(site: Site) -> dict[str, Any]:
    """What only the pages about the present show: the week, the next update and its deadline,
    and the commitments of its seeds. Update pages never show it, so they stay as they were."""
    state = site.state
    return {"week": state.week, "updates_run": state.update, "phase": next_phase(state),
            "deadline": site.deadline, "commitment": state.next_commitment,
            "hidden_commitment": getattr(state, "next_hidden_commitment", None),
            "player_commitments": sorted(getattr(state, "next_player_commitments", {}).items()),
            "admin_bank": state.admin_bank}


def _rules_page(w: Writer) -> None:
    """The rules with their history and word diffs: keyed on the ruleset's files and the
    modules' parameters, computed only when one of them changed. (It shows no ``live`` footer,
    which changes every update: at 200 amendments its diffs are the costliest part of a page.)"""
    site = w.site
    modules = _modules(site)
    digest = hashlib.sha256()
    for path in [site.game.state_dir / "rules_history.yaml", *sorted(site.game.rules_dir.glob("*.md"))]:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())

    def content() -> dict[str, Any]:
        sections, repealed = _rules(site)
        return {"sections": sections, "repealed": repealed}

    w.page("rules.html", "rules.html", inputs=[digest.hexdigest(), modules, site.banner()],
           lazy=content, active="rules", live=None, modules=modules)


def board_lede(state: Any) -> str:
    """The board page's first sentence: the board's shape, as its layout makes it."""
    count = len(state.squares)
    if state.layout == "snake":
        columns = int(REGISTRY.params(state, "board").get("columns", 10))
        cite = state.rule_aliases.get("VI.5", "VI.5")
        return f"{count} squares, {columns} to a row, snaking up from square 1 in the bottom-left corner ({cite})."
    return layout(state.layout).describe(count).capitalize() + "."


def render_all(w: Writer) -> None:
    site, state = w.site, w.site.state
    live = _live(site)
    standings = site.standings()
    others = site.others()  # pseudoplayers, marked as such, below the players
    board = board_svg(state, site.colours)
    here: dict[int, list[str]] = {}
    for p in state.players.values():
        if p.active:
            here.setdefault(p.square, []).append(p.name)
    squares = [{"sq": s, "here": sorted(here.get(s.number, [])),
                "facts": [f for f in site.facts.square(s) if f.column],
                "flags": [long for _, _, long in square_look(state, s).flags]}
               for s in state.squares]
    news = site.history.last(1)[0] if site.history.updates else None
    w.page("index.html", "index.html", active="home", live=live, standings=standings, others=others,
           board=board, news=news, highlights=highlights(news.events) if news else [])
    if state.layout != "none":  # a game with no board (Technopoly) has no board page
        w.page("board.html", "board.html", active="board", live=live, board=board, squares=squares,
               standings=standings, board_lede=board_lede(state))
    _rules_page(w)
    commands = commands_in_force(state, REGISTRY)
    w.page("howto.html", "howto.html", active="howto", live=live, commands=commands, upcoming=site.upcoming,
           proposals=any(h.keyword == "PROPOSE" for h in commands))
    _proposal_pages(w)
    for panel in site.panels:
        w.page("panel.html", f"{panel.slug}.html", active=panel.slug, live=live, panel=panel)
    charted = [r["name"] for r in standings if r["active"]][:CHART_PLAYERS]
    title = ("Net worth of every player, update by update" if len(charted) == len(standings)
             else f"Net worth of the {len(charted)} richest players, update by update")
    w.page("players.html", "players.html", active="players", live=live, standings=standings, others=others,
           chart=site.chart(charted, worth=True, money_too=False, title=title))
    _player_pages(w)
    _update_pages(w)
    history = site.history
    lights = [_light(s, history.published, history.published_hidden) for s in history.updates]
    w.page("updates.html", "updates.html", active="updates", live=live, updates=lights[::-1])
    w.page("verify.html", "verify.html", active="verify", live=live, updates=lights)
    # served for any missing path, so its links are absolute when the site has a URL
    w.page("404.html", "404.html", listed=False, live=live,
           root=f"{site.url}/" if site.url else "")
    w.write("state.json", dump_json(public_status(state, site.facts)))
    w.write("deadlines.ics", deadlines_ics(site.title, site.url, site.upcoming,
                                           site.state.enabled(ProposalsModule.name), _made(site)))
    if site.url:
        feed = [{"number": s.number, "page": s.page, "week": s.week, "slot": s.slot,
                 "cutoff": s.cutoff, "summary": s.headlines} for s in reversed(history.updates[-50:])]
        w.page("feed.atom", "feed.atom", listed=False, updates=feed)
        w.page("sitemap.xml", "sitemap.xml", listed=False, pages=list(w.pages))


def _made(site: Site) -> datetime | None:
    """When the state the site shows was made: its last update's cutoff, else the game's start
    (midnight in its timezone); None when neither is known. The calendar's DTSTAMP, read from the
    state rather than the clock so that the same state builds the same file."""
    from admin.jobs.deadlines import game_zone

    cutoff = next((u.cutoff for u in reversed(site.history.updates) if u.cutoff), "")
    if cutoff:
        return datetime.fromisoformat(cutoff)
    start = site.game.settings().section("game").get("start")
    return datetime.fromisoformat(str(start)).replace(tzinfo=game_zone(site.game)) if start else None
