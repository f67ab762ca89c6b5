"""YAML and JSON in and out, typed, and atomic multi-file commits.

- :func:`dump_yaml` writes plain, sorted, git-friendly YAML; :func:`load_yaml` reads it with the
  safe C loader when available, and errors name the file and line. YAML is for the state a person
  may read and edit (``state/*.yaml``).
- :func:`dump_json` / :func:`load_json` are for the write-once records an update leaves (the log
  entries and the public results): the same plain data, one value per line, sorted; JSON because
  those files are large (every email and event of an update) and the json module reads and writes
  them 8-80x faster than PyYAML, whose object construction is Python even with the C parser.
- Dataclasses to plain data and back: :mod:`admin.store.plain`.
- :class:`Transaction` commits several files all or none: every file is written to a temp name and
  fsynced, a journal listing them is written and fsynced, then each is renamed into place. A crash
  before the journal leaves the old files; a crash after it is rolled forward by
  :func:`recover` on the next start.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import orjson
import yaml

from admin.runtime.crashpoints import crashpoint
from admin.engine.errors import StateError

try:  # the C implementations are several times faster
    _Loader: type = yaml.CSafeLoader
    _Dumper: type = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - libyaml missing
    _Loader = yaml.SafeLoader
    _Dumper = yaml.SafeDumper

SCHEMA_VERSION = 1
T = TypeVar("T")


# -- YAML ------------------------------------------------------------------------------------
def dump_yaml(data: Any) -> str:
    """Deterministic YAML: sorted keys, block style, unicode kept, no aliases."""
    return yaml.dump(
        data, Dumper=_Dumper, sort_keys=True, allow_unicode=True, default_flow_style=False, width=100
    )


def load_yaml(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StateError(f"{path}: file not found; is --game pointing at a game directory?") from None
    except UnicodeDecodeError as exc:
        raise StateError(f"{path}: not UTF-8 text (byte {exc.start}); restore it from git") from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        raise StateError(
            f"{where}: invalid YAML ({problem}); fix the file by hand or restore it with git; "
            "nothing was written"
        ) from None


_RECORD = orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE


def dump_json(data: Any) -> str:
    """Deterministic JSON for records: sorted keys, one value per line (two-space indents), unicode
    kept. orjson writes it: json's own encoder is pure Python once it indents, 40 ms for a large
    update's results against 1 ms. Its bytes are ``json.dumps(data, indent=2, sort_keys=True,
    ensure_ascii=False)``'s, which writes what orjson refuses (an integer beyond 64 bits).
    (Records written before 2026-11-25 are indented by one space; they read the same.)"""
    try:
        return orjson.dumps(data, option=_RECORD).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def load_json(path: Path) -> Any:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise StateError(f"{path}: file not found; is --game pointing at a game directory?") from None
    return parse_json(data, path)


def parse_json(data: bytes, path: Path) -> Any:
    """A record's bytes (read from ``path``) as data; errors name the file, line and column.
    (json reads it, not orjson: orjson reads an integer beyond 64 bits as a float.)"""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StateError(f"{path}: not UTF-8 text (byte {exc.start}); restore it from git") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON ({exc.msg}); restore the file "
                         "with git (records are written by nomopoly, never by hand); nothing was written"
                         ) from None


# -- atomic files ----------------------------------------------------------------------------
def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@functools.cache
def syncfs_function() -> Callable[[int], None] | None:
    """``syncfs(2)`` (Linux): flush every file and folder of the file system holding ``fd``, and
    report a write-back error (since Linux 5.8) as an OSError. None where it is missing."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        raw_syncfs = libc.syncfs
    except (OSError, AttributeError):
        return None
    raw_syncfs.argtypes = [ctypes.c_int]
    raw_syncfs.restype = ctypes.c_int

    def syncfs(fd: int) -> None:
        if raw_syncfs(fd) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, os.strerror(errno))

    return syncfs


def sync_files(files: list[Path], folders: Iterable[Path] = ()) -> None:
    """Make ``files`` and the entries of ``folders`` durable, as one barrier for a whole batch.

    With ``syncfs(2)``, one call per file system. Elsewhere, an fsync of each file, several at a
    time (the file system commits fsyncs that wait together in one journal commit), then of each
    folder. An OSError (a disk that failed to write) is raised for the caller to report."""
    if not files:
        return
    folders = sorted(set(folders))
    syncfs = syncfs_function()
    if syncfs is not None:
        devices = {os.stat(p).st_dev: p for p in [*files, *folders]}
        for path in devices.values():
            fd = os.open(path, os.O_RDONLY)
            try:
                syncfs(fd)
            finally:
                os.close(fd)
        return
    workers = min(_FSYNC_WORKERS, len(files))
    if workers <= 1:
        for path in files:
            _fsync_path(path)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for _ in pool.map(_fsync_path, files):  # re-raises the first failure
                pass
    for folder in folders:
        fsync_dir(folder)


_FSYNC_WORKERS = 8


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(path: Path, payload: bytes) -> Path:
    """Write ``payload`` to a temp file beside ``path`` and fsync it; return the temp path.
    A write that fails (a full disk) removes its temp file and raises the OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_failed(path: Path, exc: OSError) -> StateError:
    """The one message for a file that could not be written: what, why, and that nothing broke."""
    return StateError(f"could not write {path} ({exc.strerror or exc}); the old state is intact; "
                      "free some disk space or fix permissions and run again")


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write one file atomically: temp file in the same folder, fsync, ``os.replace``.
    A failure raises :class:`StateError` and leaves the old file as it was."""
    try:
        tmp = _write_temp(path, data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except OSError as exc:
        raise write_failed(path, exc) from exc
    fsync_dir(path.parent)


JOURNAL = ".commit-journal.json"
_REMOVE = b"\0nomopoly:remove\0"  # a marker no YAML or markdown file can contain


class Transaction:
    """Stage several files and commit them all or none (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._staged: dict[Path, bytes] = {}
        self._after: list[Callable[[], None]] = []

    def on_commit(self, action: Callable[[], None]) -> None:
        """Run ``action`` after a successful commit (a cache to refresh: it must not fail)."""
        self._after.append(action)

    def write(self, path: Path, data: bytes | str) -> None:
        self._staged[Path(path)] = data.encode("utf-8") if isinstance(data, str) else data

    def _rel(self, path: Path) -> str:
        """A path as the journal names it: relative to the folder of the commit, so a game folder
        moved or copied after a crash rolls forward in its new place, and never into the old one."""
        return os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))

    def staged(self) -> dict[Path, bytes | None]:
        """What a commit would write: each path with its bytes, or None for a removal."""
        return {path: None if payload is _REMOVE else payload for path, payload in self._staged.items()}

    def remove(self, path: Path) -> None:
        """Delete ``path`` as part of the commit (after every write is in place)."""
        self._staged[Path(path)] = _REMOVE

    def commit(self) -> list[Path]:
        """Write every staged file; return the paths whose content actually changed."""
        changed = []
        temps: list[tuple[str, str]] = []
        try:
            for path, payload in sorted(self._staged.items()):
                if payload is _REMOVE:
                    if path.exists():
                        temps.append(("", self._rel(path)))
                        changed.append(path)
                    continue
                try:
                    if path.read_bytes() == payload:
                        continue
                except FileNotFoundError:
                    pass
                tmp = _write_temp(path, payload)
                temps.append((self._rel(tmp), self._rel(path)))
                changed.append(path)
                crashpoint("commit.temp")
            if not temps:
                self._done()
                return []
            journal = _write_temp(self.root / JOURNAL, json.dumps(temps).encode("utf-8"))
        except OSError as exc:  # nothing is in place yet: the old state stands, whole
            for temp, _ in temps:
                if temp:
                    (self.root / temp).unlink(missing_ok=True)
            raise write_failed(self.root, exc) from exc
        os.replace(journal, self.root / JOURNAL)  # the commit point
        fsync_dir(self.root)
        crashpoint("commit.journal")
        _roll_forward(self.root)
        self._done()
        return changed

    def _done(self) -> None:
        for action in self._after:
            action()


#: a journal names each file of one commit: far below this, whatever the game (a bigger one is not ours)
MAX_JOURNAL_BYTES = 16 * 1024 * 1024


def _roll_forward(root: Path) -> None:
    journal = root / JOURNAL
    damaged = (f"{journal}: the journal of an interrupted commit is damaged; restore the game "
               "folder from a backup or git (the state may be half written)")
    try:
        if journal.stat().st_size > MAX_JOURNAL_BYTES:
            raise StateError(f"{damaged}; it is {journal.stat().st_size:,} bytes, more than any journal "
                             "nomopoly writes")
        pairs = json.loads(journal.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested beyond reading
        raise StateError(damaged) from None
    except OSError as exc:
        raise StateError(f"{journal}: the journal of an interrupted commit cannot be read "
                         f"({exc.strerror or exc}); make it readable, or restore the game folder from a "
                         "backup or git") from None
    pairs = _journal_pairs(root, journal, pairs)
    dirs = set()
    for tmp, final in pairs:
        try:
            if not tmp:  # a removal
                if os.path.exists(final):
                    os.unlink(final)
            elif os.path.exists(tmp):
                os.replace(tmp, final)
                crashpoint("commit.rename")
        except OSError as exc:
            raise StateError(f"{journal}: finishing the interrupted commit failed at {final} "
                             f"({exc.strerror or exc}); the files before it are in place, the rest are "
                             "not; fix the cause and run again, or restore the game folder from a "
                             "backup or git") from None
        dirs.add(os.path.dirname(final))
    for d in sorted(dirs):
        fsync_dir(Path(d))
    journal.unlink()
    fsync_dir(root)


def _journal_pairs(root: Path, journal: Path, pairs: object) -> list[tuple[str, str]]:
    """The journal's (temp file, final file) pairs as paths, each checked to lie inside the game
    folder (``root``'s parent, which holds ``state/`` and ``rules_md/``):
    a journal is a game folder's own file, and a folder received from someone else (through git,
    say) must not make any command write or delete a file outside the game."""
    fix = "remove it if no update was interrupted, or restore the game folder from a backup or git"
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
        raise StateError(f"{journal}: the journal of an interrupted commit is not a list of [temp file, file] "
                         f"pairs; {fix}")
    base = os.path.realpath(root.parent)  # the game folder: its state/ and rules_md/
    out = []
    for tmp, final in pairs:
        # paths relative to the commit's folder (an absolute one, from an older journal, as it is)
        paths = [os.path.join(root, p) if p else "" for p in (tmp, final)]
        if not final or any(p and not os.path.realpath(p).startswith(base + os.sep) for p in paths):
            raise StateError(f"{journal}: the journal of an interrupted commit names {tmp or final!r} -> "
                             f"{final!r}, outside the game folder {root.parent}; nothing was changed; {fix}")
        out.append((paths[0], paths[1]))
    return out


def recover(root: Path) -> bool:
    """Finish a commit that a crash interrupted after its journal was written. True if it did."""
    journal = Path(root) / JOURNAL
    if not journal.exists():
        return False
    _roll_forward(Path(root))
    return True
