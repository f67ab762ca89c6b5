"""Build the static site of a game: read the public state, render the templates, swap it in whole.

``build_site(GameDir(root))`` writes ``<root>/site``. It reads only public files (``load_public``,
``state/results/``, ``state/proposals/``, ``rules_md/``); every link is relative, so the site works from ``file://`` and
from any sub-path of any host. Templates come from the game's ``site_templates/`` first, then the
bundled ones; a game's template may extend the bundled one of the same name as
``{% extends "bundled/board.html" %}``. A rebuild replaces only what the last build wrote: what the
user put beside it (``.git/``, ``CNAME``) stays (:mod:`admin.site.userfiles`).
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime, tzinfo
from importlib import metadata
from pathlib import Path
from typing import Any, Iterator

import jinja2

import admin
from admin.engine import hooks
from admin.runtime.gcpause import few_collections
from admin.engine.errors import StateError
from admin.engine.plaintext import xml_text
from admin.store.gamedir import GameDir, read_archive
from admin.games.registry import REGISTRY
from admin.engine.model import GameState
from admin.site.content import (event_item, event_items, player_link, player_slugs, render_markdown,
                                split_failure)
from admin.site.export import parts
from admin.site.history import Archives, History
from admin.site.pages import PLAYER_HISTORY, render_all
from admin.site.sitedata import Site
from admin.site.svg import initials, player_colours
from admin.site.userfiles import carry_over, written_files
from admin.site.writer import MANIFEST, MANIFEST_FORMAT, BuildReport, Writer, read_manifest

#: what a build keeps for the next (public data only): each results file's summary and each
#: proposal archive's numbers, keyed by the file's size and mtime
BUILD_CACHE = ".nomopoly-cache.json"


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
    # compiled templates are kept in the user's temp folder (keyed by each template's source), so
    # a build does not spend its first 0.3 s compiling the same templates again
    env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             bytecode_cache=jinja2.FileSystemBytecodeCache())
    env.filters["md"] = render_markdown
    env.filters["xml"] = xml_text  # feed.atom: what XML 1.0 cannot hold would make the feed unreadable
    env.filters["money"] = money
    env.globals["rule"] = str  # a rule's number; a build gives the game's own (a function, not a
    # filter: jinja2 folds a filter of a constant into the cached bytecode)
    env.filters["split_failure"] = split_failure
    env.globals["event_item"] = event_item
    env.globals["event_items"] = event_items
    env.globals["player_link"] = player_link
    env.filters["initials"] = initials
    from admin.jobs.deadlines import game_zone

    zone = game_zone(game)
    env.filters["when"] = lambda value: when(value, zone)  # every time in the game's timezone
    return env


def when(value: Any, zone: tzinfo | None = None) -> str:
    """An ISO 8601 time (or a datetime) for people, in ``zone`` (the game's timezone) when given:
    ``Sat 14 Nov 2026, 23:59 UTC`` (as given if it is not one)."""
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if zone is not None and moment.tzinfo is not None:
        moment = moment.astimezone(zone)
    return moment.strftime("%a %-d %b %Y, %H:%M") + (f" {moment.tzname()}" if moment.tzinfo else "")


def money(value: Any, currency: str = "${}") -> str:
    """An amount as the site shows it: thousands separated, a true minus, the game's currency."""
    try:
        v = int(value)
    except (TypeError, ValueError):
        return str(value)
    return ("−" if v < 0 else "") + currency.format(f"{abs(v):,}")


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


def _deadline(game: GameDir, state: GameState) -> tuple[str, str] | None:
    """The next update's deadline from the schedule (the one place that computes it: jobs)."""
    if state.ended:
        return None
    from admin.jobs.deadlines import deadline

    due = deadline(game, state)
    if due is None:
        return None
    return due.isoformat(), when(due)


def _upcoming(game: GameDir, state: GameState) -> list[tuple[int, int, str, str, str]]:
    from admin.jobs.deadlines import upcoming

    return [(d.update, d.week, d.slot, d.when.isoformat(), when(d.when))
            for d in upcoming(game, state, UPCOMING)]


#: how many coming deadlines the how-to-play page and the calendar list
UPCOMING = 6


def _copy_static(game: GameDir, into: Path) -> None:
    for folder in (bundled_templates() / "static", game.root / "site_templates" / "static"):
        if folder.is_dir():
            shutil.copytree(folder, into / "static", dirs_exist_ok=True)


def _copy_records(game: GameDir, into: Path, old: Path) -> None:
    """The public record (every update's results file, and the hidden seeds once the game is over),
    for a player's own check (static/check.py, docs/fairness.md). A copy, never a link to the
    state's file; a record the last build copied already (same size and time) is kept from it."""
    folder = into / "records"
    folder.mkdir()
    files = game.results_files()
    for path in files + ([game.hidden_seeds_path] if game.hidden_seeds_path.exists() else []):
        before, mine = old / "records" / path.name, path.stat()
        try:
            kept = before.stat()
            if (kept.st_size, kept.st_mtime_ns) == (mine.st_size, mine.st_mtime_ns):
                os.link(before, folder / path.name)
                continue
        except OSError:
            pass
        shutil.copy2(path, folder / path.name)
    (folder / "index.json").write_text(json.dumps({"updates": len(files) - 1,
                                                   "hidden": game.hidden_seeds_path.exists()}) + "\n")


def build_site(game: GameDir, out: Path | None = None, *, full: bool = False,
               state: GameState | None = None) -> Path:
    """Build the site into ``out`` (default ``<game>/site``), replacing what the last build wrote there; return ``out``.

    Unless ``full``, pages whose inputs have not changed are kept from the old site. ``state`` is
    the state the update job just saved, when the caller has it (it saves reading the state
    files again); only its public copy is used. Without it, only the public files are read."""
    return build(game, out, full=full, state=state).out


@few_collections
def build(game: GameDir, out: Path | None = None, *, full: bool = False,
          state: GameState | None = None) -> BuildReport:
    """:func:`build_site`, returning what it rendered, rewrote and kept."""
    started = time.perf_counter()
    out = Path(out) if out is not None else game.root / "site"
    check_out(game, out)
    state = state.public_copy() if state is not None else game.load_public(archive=False)
    settings = game.settings()
    ruleset = state.rules if game.rules_dir.is_dir() else None
    cache = {} if full else read_cache(out / BUILD_CACHE)
    history = History(game.results_files(), cache.get("results"), recent=PLAYER_HISTORY)
    archives = Archives(game.archive_files(),
                        cache.get("archives"), read_archive)
    site = Site(game=game, state=state, title=settings.title or state.name or "Nomopoly",
                url=settings.site_url, history=history, archives=archives, ruleset=ruleset,
                colours=player_colours(state), slugs=player_slugs(list(state.players)))
    site.deadline = _deadline(game, state)
    site.upcoming = _upcoming(game, state)
    site.panels = sorted(hooks.call(state, REGISTRY).panels(state), key=lambda p: p.order)
    env = make_env(game)
    env.globals["square_facts"] = site.square_fact_values
    env.globals.update(parts(state))  # the board, money, Admin Bank Account and proposals it has
    env.filters["money"] = lambda value: money(value, state.currency)
    env.globals["rule"] = lambda rule_id: state.rule_aliases.get(rule_id, rule_id)  # this game's numbering
    with _build_lock(out):
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
        except OSError as exc:
            raise _not_built(out, exc) from exc
        try:
            os.chmod(tmp, 0o755)
            old_manifest = read_manifest(out / MANIFEST) if out.is_dir() else None
            w = Writer(env, site, tmp, out if out.is_dir() else None, _sources(game), full, old_manifest)
            render_all(w)
            w.finish()
            _copy_static(game, tmp)
            _copy_records(game, tmp, out)
            (tmp / BUILD_CACHE).write_bytes(cache_bytes(history, archives))
            manifest = {"format": MANIFEST_FORMAT, "base": w.base, "pages": w.manifest,
                        "other": written_files(tmp, w.manifest)}
            # compact: json's C encoder (indented, the pure-Python one took 0.16 s at 600 pages)
            (tmp / MANIFEST).write_text(json.dumps(manifest, sort_keys=True, ensure_ascii=False,
                                                   separators=(",", ":")) + "\n", encoding="utf-8")
            if out.is_dir():
                carry_over(out, tmp, MANIFEST, old_manifest)  # what the user put beside the last build's files
            _swap_in(tmp, out)
        except OSError as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            raise _not_built(out, exc) from exc
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    report = w.report
    report.out, report.seconds = out, time.perf_counter() - started
    return report


def _not_built(out: Path, exc: OSError) -> StateError:
    return StateError(f"could not build the site into {out} ({exc.strerror or exc}); the game's state "
                      "is not affected and the old site is still there; free some disk space or fix "
                      "permissions, then run `nomopoly build`")


@contextmanager
def _build_lock(out: Path) -> Iterator[None]:
    """One build into ``out``'s folder at a time (a second waits for the first; the lock is on
    the folder itself, so no lock file is left beside the site). Under the lock no other build
    is running, so what a killed build left next to ``out`` is removed: its unfinished
    ``.site.new-*`` folder, and a ``.site.old-*`` one (put back first if ``out`` was taken away
    and not yet replaced)."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(out.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise _not_built(out, exc) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        for left in sorted(out.parent.glob(f".{glob.escape(out.name)}.old-*")):
            if not out.exists() and (left / "site").is_dir():
                os.rename(left / "site", out)
            shutil.rmtree(left, ignore_errors=True)
        for left in out.parent.glob(f".{glob.escape(out.name)}.new-*"):
            shutil.rmtree(left, ignore_errors=True)
        yield
    finally:
        os.close(fd)  # releases the lock


def read_cache(path: Path) -> dict[str, Any]:
    """What the previous build left (see :data:`BUILD_CACHE`); {} when none, unreadable, or
    written by another version of the code."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("code") != _code_version():
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)}


def cache_bytes(history: History, archives: Archives) -> bytes:
    """The cache as plain JSON (sorted keys), so the privacy tests read it like any page."""
    return json.dumps({"code": _code_version(), "results": history.entries, "archives": archives.entries},
                      sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _code_version() -> str:
    """Changes whenever the code that reads the files does: a cache from older code is void."""
    here = Path(__file__).parent
    return hashlib.sha256(b"".join((here / n).read_bytes() for n in ("history.py", "content.py"))).hexdigest()


def check_out(game: GameDir, out: Path) -> None:
    """Refuse to build into a folder the build would destroy: the game folder, a folder holding it,
    one of the game's own folders, or a folder with files that no nomopoly build wrote (a built
    site holds the build's manifest)."""
    root, target = game.root.resolve(), out.resolve()
    mine = [root / name for name in ("state", "rules_md", "mail", "site_templates")]
    if target == root or target in root.parents or any(target == m or m in target.parents for m in mine):
        raise StateError(f"{out}: refusing to build the site there: it is (or holds, or is inside) the "
                         "game's own files, which the build would replace; use --out with a new folder, "
                         "or leave it out to build into the game's site/")
    if target.is_dir() and any(target.iterdir()) and not (target / MANIFEST).is_file():
        raise StateError(f"{out}: refusing to build the site there: the folder holds files that no "
                         "nomopoly build wrote (a folder no build made is not the build's to write into); choose "
                         "an empty or new folder")


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
