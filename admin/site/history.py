"""The game's past as the site needs it, read so that a build's cost does not grow with history.

Every update leaves a public results file (``state/results/NNNN.json``: every event and roll). Most
pages need only a few numbers of each update (the lists, the charts, the verify page): those are
its :class:`UpdateSummary`. The full :class:`UpdateResults` are read only for the pages that show
events (an update page being rendered, the news, the recent history on player pages).

Summaries are kept between builds in a cache (:meth:`History.cache_data`), keyed by each file's
size and modification time, as make and ninja do: an incremental build reads only the files that
are new or were touched. A full build (``--full``) reads every file again. The same is done for
the weekly proposal archives (:class:`Archives`): which proposals each holds, and its hash.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from admin.engine.errors import StateError
from admin.store.fileio import load_json, parse_json


@dataclass
class Roll:
    label: str
    sides: int
    value: int


@dataclass
class UpdateSummary:
    """What the lists, charts and the verify page show of one update: no events, no rolls."""

    number: int
    week: int | None
    slot: str
    cutoff: str
    event_count: int = 0
    failed: int = 0
    seed: str = ""
    commitment: str = ""
    digest: str = ""
    #: the commitment of this update's hidden seed (cards and other hidden draws; never revealed)
    hidden_commitment: str = ""
    next_commitment: str = ""
    next_hidden_commitment: str = ""
    money: dict[str, int] = field(default_factory=dict)
    net_worth: dict[str, int] = field(default_factory=dict)
    #: the first few texts that are not rolls, moves or the order (the feed's summary)
    headlines: list[str] = field(default_factory=list)
    #: SHA-256 of the results file: an update page is rendered again only when it changes
    sha: str = ""

    @property
    def page(self) -> str:
        return f"updates/{self.number:04d}.html"

    @property
    def seed_checks(self) -> bool | None:
        """Whether SHA-256 of the revealed seed is the published commitment (None: nothing to check)."""
        if not self.seed or not self.commitment:
            return None
        try:
            return hashlib.sha256(bytes.fromhex(self.seed)).hexdigest() == self.commitment.lower()
        except ValueError:
            return False


@dataclass
class UpdateResults(UpdateSummary):
    """One update's public results in full: the summary's fields, and every event and roll."""

    events: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)

    def summary(self) -> UpdateSummary:
        fields = {f: getattr(self, f) for f in UpdateSummary.__dataclass_fields__}
        return UpdateSummary(**fields)


def _str(value: Any) -> str:
    return "" if value is None else str(value)


def _ints(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): int(v) for k, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


_KINDS: dict[Any, str] = {}


def _kind(raw: Any) -> str:
    """An event kind as a CSS class: lowercase letters, digits and hyphens (memoised: a game has a
    few dozen kinds and a full build meets half a million events)."""
    key = raw if raw is None or isinstance(raw, str) else str(raw)  # a list or dict is no key
    if key not in _KINDS:
        _KINDS[key] = re.sub(r"[^a-z0-9-]", "", _str(key).lower()) or "event"
    return _KINDS[key]


def _event(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict) or raw.get("text") is None:
        return None  # bookkeeping, or a private-only event: never shown
    return {"kind": _kind(raw.get("kind")), "text": _str(raw.get("text")), "player": raw.get("player"),
            "rule": raw.get("rule"), "ok": raw.get("ok") is not False,
            "data": raw.get("data") if isinstance(raw.get("data"), dict) else {}}


#: event kinds left out of the feed's summary of an update
_NOT_HEADLINES = ("roll", "move", "order")


def parse_results(data: dict[str, Any], number: int, sha: str = "", *,
                  full: bool = True) -> UpdateResults | UpdateSummary:
    """A results file's data as the site reads it: in full, or (``full=False``) only the
    summary, which skips building the ~800 events and ~400 rolls of a big update."""
    raw_dice = data.get("dice")
    dice: dict[str, Any] = raw_dice if isinstance(raw_dice, dict) else {}
    week = data.get("week")
    raw_events = data.get("events") or []
    if full:
        events = [e for e in map(_event, raw_events) if e is not None]
        shown = [(e["kind"], e["text"], e["ok"]) for e in events]
    else:
        shown = [(_kind(e.get("kind")), _str(e["text"]), e.get("ok") is not False)
                 for e in raw_events if isinstance(e, dict) and e.get("text") is not None]
    summary: dict[str, Any] = dict(  # the fields of an UpdateSummary (and so of an UpdateResults)
        number=int(data.get("update", number)), week=int(week) if isinstance(week, int) else None,
        slot=_str(data.get("slot")), cutoff=_str(data.get("cutoff")),
        event_count=len(shown), failed=sum(1 for _, _, ok in shown if not ok),
        seed=_str(dice.get("seed")), commitment=_str(dice.get("commitment")),
        digest=_str(dice.get("digest")),
        hidden_commitment=_str(dice.get("hidden_commitment")),
        next_commitment=_str(data.get("next_commitment")),
        next_hidden_commitment=_str(data.get("next_hidden_commitment")),
        money=_ints(data.get("money")), net_worth=_ints(data.get("net_worth")),
        headlines=[text for kind, text, _ in shown if kind not in _NOT_HEADLINES][:8], sha=sha)
    if not full:
        return UpdateSummary(**summary)
    rolls = []
    for item in dice.get("rolls") or []:
        if isinstance(item, (list, tuple)) and len(item) == 3:
            rolls.append(Roll(_str(item[0]), int(item[1]), int(item[2])))
        elif isinstance(item, dict):
            rolls.append(Roll(_str(item.get("label")), int(item.get("sides", 0)), int(item.get("value", 0))))
    return UpdateResults(**summary, events=events, rolls=rolls)


def read_results(path: Path, *, full: bool = True) -> Any:
    """Parse one results file (in full, or only its summary); a damaged one is a clear error
    naming it."""
    raw = path.read_bytes()
    data = parse_json(raw, path)
    if not isinstance(data, dict):
        raise StateError(f"{path}: expected a mapping (update, week, events, dice ...); "
                         "rebuild it with the update job or restore it with git")
    try:
        return parse_results(data, int(path.stem), hashlib.sha256(raw).hexdigest(), full=full)
    except (TypeError, ValueError) as exc:
        raise StateError(f"{path}: not a results file the site can read ({exc}); "
                         "rebuild it with the update job or restore it with git") from None


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


class History:
    """Every update's summary, oldest first (cached between builds); full results on demand.

    ``recent`` full results are kept in memory once read (the news and the player pages use the
    last few); any other is read again when asked for, so a full build holds one at a time."""

    def __init__(self, files: list[Path], cache: dict[str, Any] | None = None, recent: int = 20) -> None:
        self._paths = {int(p.stem): p for p in files}
        self._full: dict[int, UpdateResults] = {}
        #: the numbers of the updates whose events pages show (kept in memory once read)
        self._recent = set(sorted(n for n in self._paths if n > 0)[-recent:]) if recent else set()
        self.entries: dict[str, Any] = {}
        summaries = []
        for number, path in sorted(self._paths.items()):
            stamp = _stamp(path)
            hit = (cache or {}).get(path.name)
            if isinstance(hit, dict) and hit.get("stamp") == stamp:
                try:
                    summary = _summary_from(hit["summary"])
                    summaries.append(summary)
                    self.entries[path.name] = hit
                    continue
                except (KeyError, TypeError, ValueError):
                    pass
            if number in self._recent:  # its events will be shown: read it in full once
                summary = self.full(number).summary()
            else:
                summary = read_results(path, full=False)
            summaries.append(summary)
            self.entries[path.name] = {"stamp": stamp, "summary": _summary_to(summary)}
        self.all = summaries
        #: update number -> the seed commitments published before it (by the previous update)
        self.published = {s.number + 1: s.next_commitment for s in summaries if s.next_commitment}
        self.published_hidden = {s.number + 1: s.next_hidden_commitment for s in summaries
                                 if s.next_hidden_commitment}
        #: the updates that have run (update 0 only publishes the first commitments)
        self.updates = [s for s in summaries if s.number > 0]

    def full(self, number: int) -> UpdateResults:
        if number in self._full:
            return self._full[number]
        full: UpdateResults = read_results(self._paths[number])
        if number in self._recent:
            self._full[number] = full
        return full

    def last(self, count: int) -> list[UpdateResults]:
        """The last ``count`` updates in full, newest first."""
        return [self.full(s.number) for s in reversed(self.updates[-count:])] if count else []


def _summary_to(s: UpdateSummary) -> dict[str, Any]:
    return {f: getattr(s, f) for f in UpdateSummary.__dataclass_fields__}


def _summary_from(data: dict[str, Any]) -> UpdateSummary:
    summary = UpdateSummary(**data)
    if not isinstance(summary.number, int) or not isinstance(summary.money, dict):
        raise ValueError("not a summary")
    return summary


def _numbers(path: Path) -> list[int]:
    """The numbers of the proposals in an archive file (without building every vote)."""
    data = load_json(path)
    try:
        return [int(p["number"]) for p in data["proposals"]]
    except (KeyError, TypeError, ValueError):
        raise StateError(f"{path}: expected a list of proposals, each with a number; restore the "
                         "file with git") from None


class Archives:
    """The weekly proposal archives (``state/proposals/week-NNNN.json``): which proposals each
    holds and its hash, from the cache when the file is unchanged; the proposals themselves are
    read only for the week pages being rendered."""

    def __init__(self, files: list[Path], cache: dict[str, Any] | None,
                 read: Callable[[Path], list[Any]]) -> None:
        self._read = read
        self.paths = {int(p.stem.split("-", 1)[1]): p for p in files}
        self.entries: dict[str, Any] = {}
        #: proposal number -> the week of the archive that holds it
        self.week_of: dict[int, int] = {}
        for week, path in sorted(self.paths.items()):
            stamp = _stamp(path)
            hit = (cache or {}).get(path.name)
            if not (isinstance(hit, dict) and hit.get("stamp") == stamp
                    and isinstance(hit.get("numbers"), list) and isinstance(hit.get("sha"), str)):
                raw = path.read_bytes()
                hit = {"stamp": stamp, "sha": hashlib.sha256(raw).hexdigest(), "numbers": _numbers(path)}
            self.entries[path.name] = hit
            for number in hit["numbers"]:
                self.week_of[int(number)] = week

    def numbers(self, week: int) -> list[int]:
        """The numbers of the proposals archived in ``week``."""
        return list(self.entries[self.paths[week].name]["numbers"])

    def sha(self, week: int) -> str:
        return str(self.entries[self.paths[week].name]["sha"])

    def proposals(self, week: int) -> list[Any]:
        return self._read(self.paths[week])
