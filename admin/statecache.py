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

from admin.store import dump_yaml, load_yaml

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
        parsed as YAML (errors as :func:`admin.store.load_yaml` gives them)."""
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
        holds exactly this data and was written by a dump, else :func:`admin.store.dump_yaml`."""
        canonical = _canonical(data)
        known = self._known.get(name)
        if canonical is not None and known is not None and known[1] == canonical and known[2]:
            return known[0]
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
