"""What the site shows, made safe: player-written markdown (sanitised with nh3), page slugs for
any player name, an update's news, and word diffs of amended rules. (The results files are read
by :mod:`admin.site.history`.)"""

from __future__ import annotations

import difflib
import functools
import hashlib
import re
import unicodedata
from typing import Any

import markdown
import nh3
from jinja2 import pass_context
from markupsafe import Markup, escape


# -- player-written markdown -----------------------------------------------------------------
#: Tags a player's text may use. No images (nothing is ever loaded from elsewhere), no image maps.
ALLOWED_TAGS = frozenset(nh3.ALLOWED_TAGS) - {"img", "map", "area"}
_SAFE_HREF = re.compile(r"^(https?:|mailto:|#)", re.IGNORECASE)


def _attribute_filter(tag: str, attr: str, value: str) -> str | None:
    if attr in ("href", "src", "cite") and not _SAFE_HREF.match(value.strip()):
        return None  # no javascript:, data:, or relative links into the site from player text
    return value


@functools.lru_cache(maxsize=4096)
def render_markdown(text: str | None) -> Markup:
    """A player's markdown as sanitised HTML: raw HTML is cleaned, scripts and handlers dropped.
    (Remembered per text: the rules page shows every rule and its revisions.)"""
    if not text:
        return Markup("")
    html = _converter().reset().convert(str(text))
    clean = nh3.clean(html, tags=set(ALLOWED_TAGS), attribute_filter=_attribute_filter,
                      url_schemes={"http", "https", "mailto"},
                      link_rel="nofollow noopener noreferrer")
    return Markup(clean)


@functools.cache
def _converter() -> markdown.Markdown:
    """One converter, reset before each text: making a new one per text (``markdown.markdown``)
    costs more than converting a rule."""
    return markdown.Markdown(extensions=["tables", "fenced_code", "sane_lists"], output_format="html")


# -- slugs -----------------------------------------------------------------------------------
def _ascii_slug(name: str) -> str:
    flat = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    return "-".join(re.findall(r"[a-z0-9]+", flat))[:40].strip("-")


def player_slugs(names: list[str]) -> dict[str, str]:
    """A file-name-safe slug per player: lowercase ASCII letters, digits and hyphens.

    A name that is already such a slug keeps it (``alice`` -> ``alice``); any other gets a short
    hash of the full name appended, so different names never share a page."""
    out: dict[str, str] = {}
    for name in sorted(names):
        base = _ascii_slug(name)
        if base and base == name and base not in out.values():
            out[name] = base
            continue
        digest = hashlib.sha256(name.encode("utf-8")).hexdigest()
        size = 8
        slug = f"{base or 'player'}-{digest[:size]}"
        while slug in out.values():
            size += 4
            slug = f"{base or 'player'}-{digest[:size]}"
        out[name] = slug
    # a plain name that collides with an earlier hashed one cannot happen: hashed slugs contain
    # a hyphen and 8+ hex digits that the plain name would have had to contain verbatim
    return out


# -- news ------------------------------------------------------------------------------------
#: event kinds that are routine (every turn has them): left out of the news on the home page
ROUTINE = frozenset({"update", "order", "roll", "move", "jump", "land", "rent", "pass-bonus", "card",
                     "health"})


def highlights(events: list[dict[str, Any]], limit: int = 12) -> list[dict[str, Any]]:
    """The news of an update: what is not routine (no rolls, moves or votes), in order."""
    picked = [e for e in events
              if not e["ok"] or (e["kind"] not in ROUTINE
                                 and not (e["kind"] == "action" and e["data"].get("cmd") == "vote"))]
    return picked[:limit]


#: what markupsafe.escape does to text, as a translation table: the same bytes, without making a
#: Markup object per piece (the pieces are joined into one Markup below)
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


def _esc(value: Any) -> str:
    return str(value).translate(_ESCAPES)


@pass_context
def event_item(ctx: Any, e: dict[str, Any]) -> Markup:
    """One event as a list item, in Python: an update page holds ~800 events and a jinja macro
    call costs ~40 µs, this ~4 µs. Links go through the page's ``rule_href`` (so the build
    records what the page looked up)."""
    return Markup(_event_html(e, ctx["root"], ctx["rule_href"]))


@pass_context
def event_items(ctx: Any, events: list[dict[str, Any]]) -> Markup:
    """Every event of a list as :func:`event_item` writes it, one per line, in one call."""
    root, rule_href = ctx["root"], ctx["rule_href"]
    return Markup("".join([f"  {_event_html(e, root, rule_href)}\n" for e in events]))


def _event_html(e: dict[str, Any], root: str, rule_href: Any) -> str:
    ok, kind, esc = e["ok"], str(e["kind"]), _esc
    if ok:
        what = [esc(e["text"])]
    else:
        head, reason = split_failure(str(e["text"]))
        what = [esc(head)] + ([': <strong class="reason">', esc(reason), "</strong>"] if reason else [])
    rule = e.get("rule")
    link: list[str] = []
    if rule:
        href = rule_href(rule)
        link = (['<a class="rule" href="', esc(root), esc(href), '">', esc(rule), "</a>"] if href
                else ['<span class="rule">', esc(rule), "</span>"])
    label = "not done" if not ok else kind.replace("-", " ")
    return "".join(['<li class="ev ev-', esc(kind), "" if ok else " failed",
                    '">\n  <span class="kind">', esc(label), '</span>\n  <span class="what">',
                    *what, "</span>\n  ", *link, "\n</li>"])


#: a player's page marks each update's block of events with the update and its results file's
#: hash, and lists the updates it was made from, so the next build takes the blocks it still shows
#: from the page instead of reading those results and rendering their events again
_BLOCK = re.compile(r"<!-- block (\d+) ([0-9a-f]{64}) -->\n.*?<!-- /block -->\n", re.S)
_WINDOW = re.compile(r"<!-- history-of ([0-9a-f: ]*) -->")


def history_block(u: dict[str, Any], events: list[dict[str, Any]], root: str, rule_href: Any) -> str:
    """One update's events on a player's page: a heading linking the update, then the events."""
    week = "?" if u["week"] is None else u["week"]
    slot = f", {_esc(u['slot'])}" if u["slot"] else ""
    items = "".join([f"  {_event_html(e, root, rule_href)}\n" for e in events])
    return "".join([f"<!-- block {u['number']} {u['sha']} -->\n",
                    f'<h3 class="hist-h"><a href="{_esc(root)}{_esc(u["page"])}">Update {u["number"]}</a> ',
                    f'<span class="meta">week {_esc(week)}{slot}</span></h3>\n',
                    f'<ol class="events compact">\n{items}</ol>\n<!-- /block -->\n'])


def history_window(shown: list[tuple[int, str]]) -> str:
    """The marker of the updates (number and results hash) a player's page was made from."""
    return "<!-- history-of " + " ".join(f"{n}:{sha}" for n, sha in shown) + " -->"


def history_blocks(page: str) -> tuple[set[tuple[int, str]], dict[tuple[int, str], str]]:
    """What :func:`history_block` and :func:`history_window` left in a page: the updates it was
    made from, and its blocks by (update, results hash)."""
    found = _WINDOW.search(page)
    window: set[tuple[int, str]] = set()
    for item in (found[1].split() if found else []):
        number, _, sha = item.partition(":")
        if number.isdecimal() and len(sha) == 64:
            window.add((int(number), sha))
    return window, _blocks(page)


_OPEN, _CLOSE = "<!-- block ", "<!-- /block -->\n"
_HEAD = re.compile(r"(\d+) ([0-9a-f]{64}) -->\n")


def _blocks(page: str) -> dict[tuple[int, str], str]:
    """The blocks :data:`_BLOCK` matches in ``page``, found with ``str.find`` (the regular
    expression's lazy ``.*?`` walked a 50 KB page character by character: 0.3 ms a page)."""
    out: dict[tuple[int, str], str] = {}
    start = page.find(_OPEN)
    while start != -1:
        head = _HEAD.match(page, start + len(_OPEN))
        end = page.find(_CLOSE, head.end()) if head else -1
        if head is None or end == -1:
            start = page.find(_OPEN, start + 1)
            continue
        end += len(_CLOSE)
        out[(int(head[1]), head[2])] = page[start:end]
        start = page.find(_OPEN, end)
    return out


@pass_context
def player_link(ctx: Any, name: Any) -> Markup:
    """A player's name, linked to their page with their colour's dot when they have one, in
    Python like :func:`event_item`: a week of proposals names every voter (~600 a page)."""
    href = ctx["player_href"](name)
    if not href:
        return Markup("".join(['<span class="who">', _esc(name), "</span>"]))
    colour = ctx["colours"].get(name, "#777777")
    return Markup("".join(['<a class="who" href="', _esc(ctx["root"]), _esc(href),
                           '"><span class="dot" style="background:', _esc(colour),
                           '" aria-hidden="true"></span>', _esc(name), "</a>"]))


def split_failure(text: str) -> tuple[str, str]:
    """``'bob: "BUY 7" was not done: the reason'`` -> (``'bob: "BUY 7" was not done'``, the reason)."""
    head, sep, reason = text.partition(" was not done: ")
    return (head + " was not done", reason) if sep else (text, "")


# -- rule diffs ------------------------------------------------------------------------------
_TOKENS = re.compile(r"\s+|[\w'’-]+|[^\w\s]")


def diff_words(old: str | None, new: str | None) -> Markup:
    """``old`` -> ``new`` word by word: removed words in ``<del>``, added ones in ``<ins>``, every
    piece escaped (the texts are shown as written, markdown and all)."""
    a, b = _TOKENS.findall(old or ""), _TOKENS.findall(new or "")
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(str(escape("".join(a[i1:i2]))))
            continue
        if i2 > i1:
            out.append(f"<del>{escape(''.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(''.join(b[j1:j2]))}</ins>")
    return Markup("".join(out))
