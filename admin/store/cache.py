"""The state files' parsed data, kept beside them, so a command reads JSON instead of parsing YAML.

PyYAML builds its objects in Python even with libyaml: a large game's 0.8 MB of state YAML takes
about 0.3 s to parse and 0.25 s to write, where json reads and writes the same data in 0.01 s.
So, after each commit, ``state/.cache/parsed.json`` records, for every YAML state file, the
sha256 of its bytes and the data it holds:

- a read whose file has the recorded hash takes the data from there; any other file (edited by
  hand, checked out from git, or a cache that is missing, damaged or from another version) is
  parsed as YAML, as always;
- a write whose data is what the file already holds keeps the file's text instead of dumping it
  again (most of a state's files do not change in an update), when that text is known to be what
  dumping gives (it was written by nomopoly, not edited by hand), so the bytes are the same.

The cache is never the state: delete the folder and nothing changes but speed. It is written
after the state is committed, without fsync (a crash leaves an old cache, whose hashes no longer
match), and it is private like the state folder (``.cache/.gitignore`` keeps it out of git).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import orjson

from admin.store.fileio import dump_yaml, load_yaml

CACHE_DIR = ".cache"
CACHE_FILE = "parsed.json"
FORMAT = 1


def _canonical(data: Any) -> str | None:
    """``data`` as canonical JSON text, or None when it is not plain JSON data (a date parsed from
    a hand-edited file, a key that is not text): such a file is never cached."""
    try:
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None


def _entry_key(data: Any) -> bytes | str | None:
    """What :func:`dump_by_entries` compares an entry by: its sorted JSON by orjson (json's
    encoder took 0.1 s a large update over ~10,000 entries). Only called on data whose whole file
    :func:`_canonical` accepted (no NaN, which orjson would write as null; no date; text keys),
    so the two agree on what is equal; what orjson refuses (an integer beyond 64 bits) falls
    back to :func:`_canonical`."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _canonical(data)


def _sha(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


class StateCache:
    """Reads and writes a game's YAML state files through the cache (see the module docstring).

    ``read`` and ``dump`` take paths relative to the state folder (``players.yaml``,
    ``modules/cards.yaml``); ``save`` records what was read and written since the last save."""

    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.folder = state_dir / CACHE_DIR
        #: name -> (sha of its bytes, its data as JSON, whether its text is a dump of the data)
        self._recorded: dict[str, tuple[str, str, bool]] | None = None
        #: what this process read or wrote: name -> (text, data as JSON, text is a dump)
        self._known: dict[str, tuple[str, str, bool]] = {}

    def _recorded_entries(self) -> dict[str, tuple[str, str, bool]]:
        if self._recorded is None:
            self._recorded = {}
            try:
                data = json.loads((self.folder / CACHE_FILE).read_bytes())
            except (OSError, ValueError):
                return self._recorded
            if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("files"), dict):
                for name, entry in data["files"].items():
                    if (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
                            and isinstance(entry[1], str) and isinstance(entry[2], bool)):
                        self._recorded[name] = (entry[0], entry[1], entry[2])
        return self._recorded

    def read(self, name: str) -> Any:
        """The data of ``state/<name>``: from the cache when the file is the one recorded, else
        parsed as YAML (errors as :func:`admin.store.fileio.load_yaml` gives them)."""
        path = self.state_dir / name
        try:
            raw = path.read_bytes()
        except OSError:
            return load_yaml(path)  # the missing-file error, worded once
        hit = self._recorded_entries().get(name)
        if hit is not None and hit[0] == _sha(raw):
            try:
                text = raw.decode("utf-8")
                data = json.loads(hit[1])
            except ValueError:
                pass
            else:
                self._known[name] = (text, hit[1], hit[2])
                return data
        data = load_yaml(path)
        canonical = _canonical(data)
        if canonical is not None:
            self._known[name] = (raw.decode("utf-8"), canonical, False)  # maybe written by hand
        return data

    def dump(self, name: str, data: Any) -> str:
        """``data`` as the YAML text of ``state/<name>``: the file's own text when it already
        holds exactly this data and was written by a dump, else :func:`admin.store.fileio.dump_yaml`."""
        canonical = _canonical(data)
        known = self._known.get(name)
        if canonical is not None and known is not None and known[1] == canonical and known[2]:
            return known[0]
        text = None
        if canonical is not None and known is not None and known[2] and isinstance(data, dict):
            try:
                text = dump_by_entries(data, json.loads(known[1]), known[0])
            except (TypeError, ValueError):  # keys that do not sort, and the like: dump it whole
                text = None
        if text is None:
            text = dump_yaml(data)
        if canonical is not None:
            self._known[name] = (text, canonical, True)
        return text

    def save(self) -> None:
        """Record the files read or written so far whose text is on disk now (call it after a
        commit). Best effort: a cache that cannot be written is only a slower next read."""
        files: dict[str, list[Any]] = {}
        for name, (text, canonical, dumped) in sorted(self._known.items()):
            raw = text.encode("utf-8")
            try:
                if (self.state_dir / name).read_bytes() != raw:
                    continue
            except OSError:
                continue
            files[name] = [_sha(raw), canonical, dumped]
        payload = json.dumps({"format": FORMAT, "files": files}, sort_keys=True, ensure_ascii=False,
                             separators=(",", ":")).encode("utf-8")
        try:
            self.folder.mkdir(exist_ok=True)
            ignore = self.folder / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# nomopoly's cache of the parsed state files: never commit it\n*\n",
                                  encoding="utf-8")
            tmp = self.folder / f".{CACHE_FILE}.tmp"
            tmp.write_bytes(payload)
            os.replace(tmp, self.folder / CACHE_FILE)
        except OSError:
            return
        self._recorded = {name: (sha, canonical, dumped) for name, (sha, canonical, dumped) in files.items()}


# -- a big file written entry by entry ------------------------------------------------------------
def _split(lines: list[str], starts: Any) -> list[list[str]]:
    """``lines`` cut before each line for which ``starts(line)`` holds (the first always starts)."""
    out: list[list[str]] = []
    for line in lines:
        if not out or starts(line):
            out.append([line])
        else:
            out[-1].append(line)
    return out


def _top(line: str) -> bool:  # a key of the top mapping (a sequence under it is "- " at column 0;
    # an empty line is inside a quoted text that runs over several lines)
    return not line.startswith((" ", "- ", "\n")) and line != "-\n"


def _entry(line: str) -> bool:  # a key of a mapping under a top key
    return line.startswith("  ") and not line.startswith(("   ", "  - ")) and line != "  -\n"


def _item(line: str) -> bool:  # an item of a sequence under a top key
    return line.startswith(("- ", "-\n"))


def dump_by_entries(data: dict[str, Any], old: Any, old_text: str) -> str | None:
    """``dump_yaml(data)``, made from the text of the same file as it was (``old_text``, the dump
    of ``old``): a top key whose value has not changed keeps its lines, and in a list or mapping
    under a top key (the disputes of a game, the bingo cards of every player) each item or entry
    that has not changed keeps its lines; only what changed is dumped. (PyYAML writes a block
    mapping or sequence as its entries' texts one after the other, each as it would be alone:
    ``tests/test_statecache.py`` holds it to that.) None when the old text does not cut into as
    many pieces as the old data has entries: then the caller dumps the whole. ``data`` holds no
    object twice, as :func:`admin.store.plain.to_data` makes it (PyYAML would write a shared one once,
    with an anchor)."""
    if not isinstance(old, dict) or not data or not old or not old_text.endswith("\n"):
        return None
    keys, old_keys = sorted(data), sorted(old)
    pieces = _split(old_text.splitlines(keepends=True), _top)
    if len(pieces) != len(old_keys) or any(not p[0].startswith(f"{k}:") for k, p in zip(old_keys, pieces)
                                           if isinstance(k, str) and k.isidentifier()):
        return None
    before = dict(zip(old_keys, pieces))
    out: list[str] = []
    for key in keys:
        value = data[key]
        lines = before.get(key)
        was = old.get(key) if lines is not None else None
        if lines is not None and _entry_key(value) == _entry_key(was):
            out.extend(lines)
            continue
        if lines is not None and len(lines) > 1 and value and isinstance(value, (list, dict)) \
                and was and type(value) is type(was):
            made = _by_parts(key, value, was, lines)
            if made is not None:
                out.append(made)
                continue
        out.append(dump_yaml({key: value}))
    text = "".join(out)
    return None if "&id" in text else text  # an anchor (a shared object) is numbered per document


def _by_parts(key: str, value: list[Any] | dict[str, Any], was: list[Any] | dict[str, Any],
              lines: list[str]) -> str | None:
    head, body = lines[0], lines[1:]
    parts = _split(body, _item if isinstance(value, list) else _entry)
    old_entries = list(was) if isinstance(was, list) else sorted(was.items())
    if len(parts) != len(old_entries) or (not isinstance(value, list) and len(parts) and
                                          any(not p[0].startswith("  ") for p in parts)):
        return None
    texts: dict[bytes | str | None, str] = {}
    for entry, part in zip(old_entries, parts):
        texts.setdefault(_entry_key(entry), "".join(part))
    new_entries = list(value) if isinstance(value, list) else sorted(value.items())
    out = [head]
    for entry in new_entries:
        text = texts.get(_entry_key(entry))
        if text is None:
            alone = dump_yaml({key: [entry]} if isinstance(value, list) else {key: dict([entry])})
            if not alone.startswith(head):
                return None
            text = alone[len(head):]
        out.append(text)
    return "".join(out)
