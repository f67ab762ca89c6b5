"""Writing the pages of a build: render a page only when its inputs changed, keep the rest.

Each page's key is a hash of the templates and code, its path and its own data; the manifest
(``.nomopoly-build.json`` in the site) records the keys of the last build and the links and
colours each page looked up (:class:`Lookups`), so a kept page is one whose render would give the
same bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from itertools import zip_longest
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import jinja2
import orjson

from admin.runtime import forking

if TYPE_CHECKING:
    from admin.site.sitedata import Site

MANIFEST = ".nomopoly-build.json"
MANIFEST_FORMAT = 2
#: a build renders its pages in two processes from this many (see :meth:`Writer.finish`)
PARALLEL_FROM = 64


def read_manifest(path: Path) -> Any:
    """A build's manifest as read: any JSON value (its readers check its shape), or None when
    there is none or it is not JSON.

    Its pages' look-ups (``deps``: a [kind, argument, answer] each) are read as tuples, each
    value once: 39,000 look-ups of 900 kinds at 560 pages, which as lists took 10 MB, a tenth of
    an update's memory. (They are written back as lists.)"""
    seen: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    def shared(obj: dict[str, Any]) -> dict[str, Any]:
        deps = obj.get("deps")
        if isinstance(deps, list):
            obj["deps"] = [seen.setdefault(t, t) if isinstance(d, list) and _hashable(t := tuple(d)) else d
                           for d in deps]
        return obj

    try:
        return json.loads(path.read_text(encoding="utf-8"), object_hook=shared)
    except (OSError, ValueError):
        return None


def _hashable(value: tuple[Any, ...]) -> bool:
    return all(isinstance(v, (str, int, float, bool)) or v is None for v in value)


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


_KEY = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _digest(*parts: Any) -> str:
    """The hash of what a page is made from, as sorted JSON (orjson: json's encoder is pure
    Python when it calls ``default``, a third of what deciding that 600 pages are unchanged cost)."""
    try:
        raw = orjson.dumps(parts, default=_plain, option=_KEY)
    except TypeError:  # what orjson refuses (an integer beyond 64 bits), json writes
        raw = json.dumps(parts, default=_plain, sort_keys=True, ensure_ascii=False,
                         separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()


class Lookups:
    """The links and colours a page looked up while it rendered, with what it got.

    A page's key covers the data passed to it; what it looks up on the side (does rule VI.9 still
    have an anchor? what is bob's page called?) is recorded here, and a page is only reused when
    every look-up still gives the same answer."""

    KINDS = ("colour", "player", "rule", "proposal")

    def __init__(self, site: "Site") -> None:
        self.site = site
        self.seen: dict[tuple[str, str | int], Any] = {}

    def answer(self, kind: str, arg: Any) -> Any:
        if kind == "rule":
            return self.site.rule_href(arg)
        if kind == "player":
            return self.site.player_href(arg)
        if kind == "proposal":
            return self.site.proposal_href(arg)
        return self.site.colours.get(arg) if isinstance(arg, str) else None

    def ask(self, kind: str, arg: Any) -> Any:
        value = self.answer(kind, arg)
        if isinstance(arg, (str, int)) and not isinstance(arg, bool):
            self.seen[(kind, arg)] = value
        return value

    def rule_href(self, rule_id: Any) -> str:
        href: str = self.ask("rule", rule_id)
        return href

    def player_href(self, name: Any) -> str:
        href: str = self.ask("player", name)
        return href

    def proposal_href(self, number: Any) -> str:
        href: str = self.ask("proposal", number)
        return href

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


@dataclass
class _Render:
    """A page :meth:`Writer.page` found changed, to render in :meth:`Writer.finish`."""

    template: str
    path: str
    key: str
    context: dict[str, Any]
    lazy: Callable[[], dict[str, Any]] | None


class Writer:
    """Writes the pages into the new site; a page whose inputs match the previous build's manifest
    is not rendered: its file is kept (hard-linked) from the previous site."""

    def __init__(self, env: jinja2.Environment, site: Site, into: Path, old: Path | None,
                 base: str, full: bool, old_manifest: Any = None) -> None:
        self.env, self.site, self.into, self.old, self.base, self.full = env, site, into, old, base, full
        self.pages: list[str] = []
        self.manifest: dict[str, Any] = {}
        self.report = BuildReport(out=into)
        self.previous: dict[str, Any] = {}
        #: the templates and code the previous build was made with
        self.previous_base = ""
        #: the look-ups of the page being rendered
        self.lookups: Lookups | None = None
        #: the pages to render (:meth:`finish`)
        self.pending: list[_Render] = []
        # the previous build's manifest, as read (read_manifest): any JSON value, a build's or not
        if (old is not None and not full and isinstance(old_manifest, dict)
                and old_manifest.get("format") == MANIFEST_FORMAT
                and isinstance(old_manifest.get("pages"), dict)):
            self.previous = old_manifest["pages"]
            self.previous_base = str(old_manifest.get("base", "")) if self.previous else ""

    def common(self, path: str, lookups: Lookups) -> dict[str, Any]:
        s = self.site
        return {"root": "../" * path.count("/"), "path": path, "site_title": s.title,
                "site_url": s.url, "nav": s.nav, "rule_href": lookups.rule_href,
                "player_href": lookups.player_href, "proposal_href": lookups.proposal_href,
                "colours": lookups, "game": s.banner(), "live": None}

    def page(self, template: str, path: str, *, listed: bool = True, inputs: Any = None,
             lazy: Callable[[], dict[str, Any]] | None = None, **context: Any) -> None:
        """Render ``template`` to ``path`` unless its inputs are what they were last time.

        The key is the templates and code (``base``), the path, and the page's own data:
        ``inputs`` when given (e.g. the hash of the results file an update page shows), else
        ``context``. ``lazy`` adds to the context only when the page is rendered (reading an
        update's full results is skipped for the pages that are kept)."""
        if listed:
            self.pages.append(path)
        s = self.site
        key = _digest(self.base, template, path, s.title, s.url, s.banner(), s.nav,
                      context if inputs is None else inputs)
        before = self.previous.get(path)
        if (isinstance(before, dict) and before.get("key") == key and self.old is not None
                and self.site_lookups_still(before.get("deps", []))
                and self._keep(path)):
            self.manifest[path] = before
            return
        self.pending.append(_Render(template, path, key, context, lazy))

    def finish(self) -> None:
        """Render the pages :meth:`page` left to render: in two processes when there are many
        (a large game's player pages) and the machine has a second CPU (:mod:`admin.runtime.forking`),
        the child taking every other page. The report lists them in the order they were asked
        for, whichever process rendered them."""
        jobs, self.pending = self.pending, []
        child = None
        if len(jobs) >= PARALLEL_FROM:
            child = forking.start(lambda: [self._render(job) for job in jobs[1::2]], "the site's pages")
        if child is None:
            done = [self._render(job) for job in jobs]
        else:
            mine = [self._render(job) for job in jobs[::2]]
            theirs = child.result()
            done = [page for pair in zip_longest(mine, theirs) for page in pair if page is not None]
        for path, entry, written in done:
            self.report.rendered.append(path)
            self.manifest[path] = entry
            self.report.files += 1
            if written:
                self.report.written.append(path)

    def _render(self, job: _Render) -> tuple[str, dict[str, Any], bool]:
        """Render and write one page: its path, its manifest entry, and whether its file was
        written (False: the bytes were the previous site's, kept)."""
        lookups = self.lookups = Lookups(self.site)
        ctx = self.common(job.path, lookups)
        ctx.update(job.context)
        if job.lazy is not None:
            ctx.update(job.lazy())
        text = self.env.get_template(job.template).render(ctx)
        return job.path, {"key": job.key, "deps": lookups.record()}, self._put(job.path, text)

    def previous_page(self, path: str) -> str:
        """The previous build's ``path``, for a page that takes parts of itself from it (called
        while it renders): only when that build had the same templates and code and every link
        and colour it looked up still answers the same, which the page being rendered then
        depends on too; else ''."""
        before = self.previous.get(path)
        if (self.old is None or self.full or self.lookups is None or self.previous_base != self.base
                or not isinstance(before, dict) or not self.site_lookups_still(before.get("deps", []))):
            return ""
        try:
            text = (self.old / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""
        for kind, arg, _ in before["deps"]:
            self.lookups.ask(kind, arg)
        return text

    def site_lookups_still(self, record: Any) -> bool:
        return isinstance(record, list) and Lookups(self.site).still(record)

    def _keep(self, path: str) -> bool:
        """Put the previous site's file in the new one, untouched (same inode, same mtime)."""
        if not self._link(path):
            return False
        self.report.files += 1
        return True

    def _link(self, path: str) -> bool:
        """:meth:`_keep` without the report."""
        assert self.old is not None
        source, target = self.old / path, self.into / path
        if not source.is_file():
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)
        return True

    def write(self, path: str, text: str | bytes) -> None:
        """Write a file; one whose bytes equal the previous site's is kept instead of rewritten."""
        self.report.files += 1
        if self._put(path, text):
            self.report.written.append(path)

    def _put(self, path: str, text: str | bytes) -> bool:
        """:meth:`write` without the report: True when the file was written, False when kept."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        if self.old is not None and not self.full:
            try:
                same = (self.old / path).read_bytes() == data
            except OSError:
                same = False
            if same and self._link(path):
                return False
        target = self.into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return True
