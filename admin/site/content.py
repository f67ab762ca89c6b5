"""What the site shows, made safe: player-written markdown (sanitised with nh3), page slugs for
any player name, and the per-update results files (``state/results/NNNN.yaml``, public)."""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markdown
import nh3
import yaml
from markupsafe import Markup, escape

from admin.errors import StateError
from admin.store import load_json

# -- player-written markdown -----------------------------------------------------------------
#: Tags a player's text may use. No images (nothing is ever loaded from elsewhere), no image maps.
ALLOWED_TAGS = frozenset(nh3.ALLOWED_TAGS) - {"img", "map", "area"}
_SAFE_HREF = re.compile(r"^(https?:|mailto:|#)", re.IGNORECASE)


def _attribute_filter(tag: str, attr: str, value: str) -> str | None:
    if attr in ("href", "src", "cite") and not _SAFE_HREF.match(value.strip()):
        return None  # no javascript:, data:, or relative links into the site from player text
    return value


def render_markdown(text: str | None) -> Markup:
    """A player's markdown as sanitised HTML: raw HTML is cleaned, scripts and handlers dropped."""
    if not text:
        return Markup("")
    html = markdown.markdown(str(text), extensions=["tables", "fenced_code", "sane_lists"],
                             output_format="html")
    clean = nh3.clean(html, tags=set(ALLOWED_TAGS), attribute_filter=_attribute_filter,
                      url_schemes={"http", "https", "mailto"},
                      link_rel="nofollow noopener noreferrer")
    return Markup(clean)


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


# -- results files ---------------------------------------------------------------------------
@dataclass
class Roll:
    label: str
    sides: int
    value: int


@dataclass
class UpdateResults:
    """One update's public results (``state/results/NNNN.yaml``)."""

    number: int
    week: int | None
    slot: str
    cutoff: str
    events: list[dict[str, Any]] = field(default_factory=list)
    seed: str = ""
    commitment: str = ""
    digest: str = ""
    rolls: list[Roll] = field(default_factory=list)
    next_commitment: str = ""
    #: the commitment of this update's hidden seed (cards and other hidden draws; never revealed)
    hidden_commitment: str = ""
    next_hidden_commitment: str = ""
    money: dict[str, int] = field(default_factory=dict)
    net_worth: dict[str, int] = field(default_factory=dict)

    @property
    def page(self) -> str:
        return f"updates/{self.number:04d}.html"

    @property
    def failed(self) -> int:
        return sum(1 for e in self.events if e.get("ok") is False)

    @property
    def seed_checks(self) -> bool | None:
        """Whether SHA-256 of the revealed seed is the published commitment (None: nothing to check)."""
        if not self.seed or not self.commitment:
            return None
        try:
            return hashlib.sha256(bytes.fromhex(self.seed)).hexdigest() == self.commitment.lower()
        except ValueError:
            return False


def _str(value: Any) -> str:
    return "" if value is None else str(value)


def _ints(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): int(v) for k, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def _event(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict) or raw.get("text") is None:
        return None  # bookkeeping, or a private-only event: never shown
    kind = re.sub(r"[^a-z0-9-]", "", _str(raw.get("kind")).lower()) or "event"
    return {"kind": kind, "text": _str(raw.get("text")), "player": raw.get("player"),
            "rule": raw.get("rule"), "ok": raw.get("ok") is not False,
            "data": raw.get("data") if isinstance(raw.get("data"), dict) else {}}


def parse_results(data: dict[str, Any], number: int) -> UpdateResults:
    dice = data.get("dice") if isinstance(data.get("dice"), dict) else {}
    rolls = []
    for item in dice.get("rolls") or []:
        if isinstance(item, (list, tuple)) and len(item) == 3:
            rolls.append(Roll(_str(item[0]), int(item[1]), int(item[2])))
        elif isinstance(item, dict):
            rolls.append(Roll(_str(item.get("label")), int(item.get("sides", 0)), int(item.get("value", 0))))
    week = data.get("week")
    return UpdateResults(
        number=int(data.get("update", number)), week=int(week) if isinstance(week, int) else None,
        slot=_str(data.get("slot")), cutoff=_str(data.get("cutoff")),
        events=[e for e in map(_event, data.get("events") or []) if e is not None],
        seed=_str(dice.get("seed")), commitment=_str(dice.get("commitment")),
        digest=_str(dice.get("digest")), rolls=rolls,
        next_commitment=_str(data.get("next_commitment")),
        hidden_commitment=_str(dice.get("hidden_commitment")),
        next_hidden_commitment=_str(data.get("next_hidden_commitment")),
        money=_ints(data.get("money")), net_worth=_ints(data.get("net_worth")))


def load_results(files: list[Path], cache: dict[str, Any] | None = None) -> list[UpdateResults]:
    """Every update's public results, oldest first.

    ``cache`` (see :func:`results_cache`) maps a file's name to the SHA-256 of its bytes and its
    parsed fields: a file whose bytes have not changed is not parsed again. It is filled in place."""
    out = []
    fresh: dict[str, Any] = {}
    for path in files:
        raw = path.read_bytes()
        sha = hashlib.sha256(raw).hexdigest()
        hit = (cache or {}).get(path.name)
        if isinstance(hit, dict) and hit.get("sha") == sha:
            try:
                out.append(_from_fields(hit["fields"]))
                fresh[path.name] = hit
                continue
            except (KeyError, TypeError, ValueError):
                pass
        data = load_json(path) or {}
        if not isinstance(data, dict):
            raise StateError(f"{path}: expected a mapping (update, week, events, dice ...); "
                             "rebuild it with the update job or restore it with git")
        try:
            results = parse_results(data, int(path.stem))
        except (TypeError, ValueError) as exc:
            raise StateError(f"{path}: not a results file the site can read ({exc}); "
                             "rebuild it with the update job or restore it with git") from None
        out.append(results)
        fields = _to_fields(results)
        if fields is not None:
            fresh[path.name] = {"sha": sha, "fields": fields}
    if cache is not None:
        cache.clear()
        cache.update(fresh)
    return sorted(out, key=lambda r: r.number)


def _to_fields(r: UpdateResults) -> dict[str, Any] | None:
    """The parsed results as JSON, or None when JSON would not give them back exactly."""
    fields = {f: getattr(r, f) for f in r.__dataclass_fields__ if f != "rolls"}
    fields["rolls"] = [[x.label, x.sides, x.value] for x in r.rolls]
    try:
        text = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    back = json.loads(text)
    return back if _from_fields(back) == r else None


def _from_fields(fields: dict[str, Any]) -> UpdateResults:
    data = dict(fields)
    data["rolls"] = [Roll(str(a), int(b), int(c)) for a, b, c in data.get("rolls", [])]
    return UpdateResults(**data)


def _parser_version() -> str:
    """Changes whenever the code that parses a results file does: a cache from older code is void."""
    return hashlib.sha256(Path(__file__).read_bytes() + yaml.__version__.encode()).hexdigest()


def read_results_cache(path: Path) -> dict[str, Any]:
    """The parsed results a previous build left (JSON); {} when none, unreadable, or written by
    another version of this parser."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("parser") != _parser_version():
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def results_cache_bytes(cache: dict[str, Any]) -> bytes:
    """The cache as bytes: deterministic (sorted keys). Plain text, so the privacy tests read it."""
    text = json.dumps({"parser": _parser_version(), "files": cache}, sort_keys=True,
                      ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8")


#: event kinds that are routine (every turn has them): left out of the news on the home page
ROUTINE = frozenset({"update", "order", "roll", "move", "jump", "land", "rent", "pass-bonus", "card",
                     "health"})


def highlights(events: list[dict[str, Any]], limit: int = 12) -> list[dict[str, Any]]:
    """The news of an update: what is not routine (no rolls, moves or votes), in order."""
    picked = [e for e in events
              if not e["ok"] or (e["kind"] not in ROUTINE
                                 and not (e["kind"] == "action" and e["data"].get("cmd") == "vote"))]
    return picked[:limit]


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
