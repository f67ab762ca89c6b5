"""A game directory: paths, settings (``nomopoly.toml``), loading and saving the state, the lock,
the update log, and the dice seeds.

Layout::

    nomopoly.toml        settings: schedule, mail, site (no secrets: those come from the environment)
    rules_md/            the live ruleset, one markdown file per section
    site_templates/      optional overrides of the bundled templates
    state/game.yaml      public: week, update, bank, modules and their parameters ...
    state/board.yaml     public: the squares
    state/players.yaml   public: players (no addresses)
    state/proposals.yaml public: the live proposals and their votes
    state/proposals/     public: closed proposals, one archive file per week (JSON, a record)
    state/rules_history.yaml public: every rule's revisions
    state/modules/       public: each mechanic's own state, one file per module (<name>.yaml)
    state/private.yaml   PRIVATE: addresses, token hashes, join requests
    state/private/       PRIVATE: each mechanic's private state (<name>.yaml), and its tables
                         (<name>.<field>.tsv: a list that grows all game long, e.g. buried cards,
                         kept as plain lines, not YAML)
    state/secrets.yaml   PRIVATE: the seed chain's tail and the hidden key (every seed follows)
    state/ledger/        PRIVATE: every message taken in, and what became of it (pending.yaml, a
                         tab-separated file per month for the settled ones)
    state/pending.yaml   the Admin's rulings waiting for the next update
    state/log/           one file per change: init, admin actions, updates (inputs, events, dice)
    state/mail/          PRIVATE: the raw archive of every message taken in
"""

from __future__ import annotations

import fcntl
import re
import tomllib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from admin.engine.dice import SCHEME, Seeds, player_commitments
from admin.engine.seedchain import SeedChain
from admin.engine.errors import StateError
from admin.engine.plaintext import first_unsafe, visible
from admin.engine.model import GameState, Proposal
from admin.store.migrate import BURIED_V1
from admin.store.cache import StateCache
from admin.store.statefiles import (  # state_files is part of this module's interface
    PUBLIC_FILES, state_files as state_files, state_from_files,
)
from admin.store.plain import from_data, to_data
from admin.store.fileio import (
    JOURNAL, Transaction, dump_json, dump_yaml, load_json, load_yaml, recover,
)


@dataclass
class Settings:
    """``nomopoly.toml``: how this game is run (not what its rules are: that is state)."""

    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def site_url(self) -> str:
        return str(self.raw.get("site", {}).get("url", "")).rstrip("/")

    @property
    def title(self) -> str:
        return str(self.raw.get("site", {}).get("title", ""))

    def section(self, name: str) -> dict[str, Any]:
        node: Any = self.raw
        for part in name.split("."):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        return node if isinstance(node, dict) else {}

    @property
    def insecure_seed_key(self) -> str | None:
        """Demo only: derive seeds from a public key so the demo replays identically."""
        value = self.section("dice").get("insecure_demo_seed_key")
        return str(value) if value else None


def _unsafe_texts(node: Any, table: str = "", key: str = "") -> Iterator[tuple[str, tuple[int, str]]]:
    """Each key or text of the settings holding an unsafe character (:mod:`admin.engine.plaintext`),
    as ``[table] key`` and where the first one is."""
    if isinstance(node, dict):
        for k, v in node.items():
            found = first_unsafe(k)
            if found:
                yield (f"[{table}] key {visible(k)!r}" if table else f"the key {visible(k)!r}"), found
            elif isinstance(v, dict):
                yield from _unsafe_texts(v, f"{table}.{k}" if table else k)
            else:
                yield from _unsafe_texts(v, table, k)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _unsafe_texts(item, table, f"{key}[{i}]")
    elif isinstance(node, str):
        found = first_unsafe(node)
        if found:
            yield (f"[{table}] {key}" if table else key), found


class GameDir:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self.state_dir = self.root / "state"
        self.log_dir = self.state_dir / "log"
        self.rules_dir = self.root / "rules_md"
        #: the YAML state files' parsed data, kept beside them (admin/store/cache.py)
        self.cache = StateCache(self.state_dir)

    # -- settings --------------------------------------------------------------------------
    @property
    def settings_path(self) -> Path:
        return self.root / "nomopoly.toml"

    def settings(self) -> Settings:
        """``nomopoly.toml``, read; a StateError naming what is wrong when it is not TOML, or when a
        key or text holds a control character, a newline or a bidi control (a setting is one line
        of plain text: a BEL or a newline in ``[site] title`` would break the feed and the pages)."""
        try:
            with open(self.settings_path, "rb") as fh:
                raw = tomllib.load(fh)
        except FileNotFoundError:
            raise StateError(f"{self.settings_path}: not found; {self.root} is not a game directory "
                             "(make one with `nomopoly init DIR`, or pass --game DIR)") from None
        except tomllib.TOMLDecodeError as exc:
            from admin.store.tomlhelp import explain

            text = self.settings_path.read_text(encoding="utf-8", errors="replace")
            raise StateError(f"{self.settings_path}: {explain(text, exc)}") from None
        wrong = [f"{where} holds {what} at character {at}" for where, (at, what) in _unsafe_texts(raw)]
        if wrong:
            raise StateError(f"{self.settings_path}: {'; '.join(wrong)}: a setting is one line of plain "
                             "text; remove the character (write a newline nowhere, a tab as a space)")
        return Settings(raw)

    def exists(self) -> bool:
        return (self.state_dir / "game.yaml").exists()

    # -- the lock --------------------------------------------------------------------------
    @contextmanager
    def lock(self, wait: bool = False) -> Iterator[None]:
        """One writer at a time; a second update fails at once with a clear error (or waits)."""
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            fh = open(self.state_dir / ".lock", "a+")
        except OSError as exc:
            raise StateError(f"cannot write in {self.state_dir} ({exc.strerror or exc}); nothing was "
                             "changed; make the folder writable (or free some space) and run again") from None
        try:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                raise StateError(f"another nomopoly command is changing {self.root} right now; "
                                 "wait for it to finish and run again") from None
            recover(self.state_dir)
            yield
        finally:
            fh.close()

    # -- state -----------------------------------------------------------------------------
    def _require(self) -> None:
        if not self.exists():
            raise StateError(f"{self.state_dir / 'game.yaml'}: not found; {self.root} is not a game "
                             "directory (make one with `nomopoly init DIR`, or pass --game DIR)")

    def load(self) -> GameState:
        self._require()
        self._settle()
        return state_from_files(self._files(private=True), self.state_dir, self.rules_dir)

    def _settle(self) -> None:
        """A commit interrupted by a crash (its journal left behind) is finished before anything
        reads the state, under the lock, so no command shows a half-written game. (Whoever holds
        the lock settled it when taking it.)"""
        if (self.state_dir / JOURNAL).exists():
            with self.lock(wait=True):
                pass

    def load_public(self, *, archive: bool = False) -> GameState:
        """The state without reading any private file (what the site build uses); with
        ``archive``, ``proposals`` also holds every archived proposal, in number order."""
        self._require()
        self._settle()
        state = state_from_files(self._files(private=False), self.state_dir, self.rules_dir)
        if archive:
            for path in self.archive_files():
                state.proposals.extend(read_archive(path))
            state.proposals.sort(key=lambda p: p.number)
        return state

    def archive_path(self, week: int) -> Path:
        return self.state_dir / "proposals" / f"week-{week:04d}.json"

    def archive_files(self) -> list[Path]:
        """The weekly archives of closed proposals, oldest week first."""
        return sorted((self.state_dir / "proposals").glob("week-*.json"))

    def stage_archive(self, tx: Transaction, archived: list[Proposal]) -> None:
        """Add closed proposals to their week's archive file."""
        by_week: dict[int, list[Proposal]] = {}
        for p in archived:
            by_week.setdefault(p.week, []).append(p)
        for week, new in sorted(by_week.items()):
            path = self.archive_path(week)
            old = read_archive(path) if path.exists() else []
            tx.write(path, archive_text(old + new))

    def _files(self, *, private: bool) -> dict[str, Any]:
        """The state's files as data (YAML parsed; tables as text), by path under state/."""
        files: dict[str, Any] = {name: self._read(name) for name in PUBLIC_FILES}
        for path in sorted((self.state_dir / "modules").glob("*.yaml")):
            files[f"modules/{path.name}"] = self._read(f"modules/{path.name}")
        for path in sorted((self.state_dir / "modules").glob("*.tsv")):
            files[f"modules/{path.name}"] = self._read_text(f"modules/{path.name}")
        files["private.yaml"] = self._read("private.yaml") if private else {}
        if private:
            for path in sorted((self.state_dir / "private").glob("*.yaml")):
                files[f"private/{path.name}"] = self._read(f"private/{path.name}")
            for path in sorted((self.state_dir / "private").glob("*.tsv")):
                files[f"private/{path.name}"] = self._read_text(f"private/{path.name}")
            files[BURIED_V1] = self._read_text(BURIED_V1)
        return files

    def _read_text(self, name: str) -> str:
        try:
            return (self.state_dir / name).read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""
        except UnicodeDecodeError as exc:
            raise StateError(f"{self.state_dir / name}: not UTF-8 text (byte {exc.start}); "
                             "restore it with git") from None

    def _read(self, name: str) -> Any:
        if name == "rules_history.yaml" and not (self.state_dir / name).exists():
            return {}
        if not (self.state_dir / name).exists():
            raise StateError(f"{self.state_dir / name}: missing: this game's state needs the file ({self.root} "
                             "is a game directory, with state/game.yaml); restore it from git or a backup, or "
                             "make the whole state again from the log with `nomopoly replay --write`")
        data = self.cache.read(name)
        if not isinstance(data, dict):
            raise StateError(f"{self.state_dir / name}: expected a mapping at the top; restore it with git")
        return data

    def stage_state(self, tx: Transaction, state: GameState) -> None:
        files = state_files(state, self.cache.dump)
        tx.on_commit(self.cache.save)
        for name, text in files.items():
            tx.write(self.root / name, text)
        # files of the state's older shape (a migrated game), and of modules without state now
        stale = [self.state_dir / BURIED_V1]
        for folder in ("modules", "private"):
            stale += (self.state_dir / folder).glob("*.yaml")
            stale += (self.state_dir / folder).glob("*.tsv")
        for path in stale:
            if path.exists() and str(path.relative_to(self.root)) not in files:
                tx.remove(path)
        if self.rules_dir.exists():  # a repealed section's file goes (by emptying is not enough)
            wanted = {s.filename for s in state.rules.sections}
            for path in self.rules_dir.glob("*.md"):
                if path.name not in wanted:
                    tx.remove(path)

    # -- secrets: the seed chain -------------------------------------------------------------
    def secrets(self) -> dict[str, Any]:
        path = self.state_dir / "secrets.yaml"
        return (load_yaml(path) or {}) if path.exists() else {}

    def next_seeds(self, update: int) -> Seeds:
        """The seeds of ``update`` (the next one): from the seed chain (admin/engine/seedchain.py),
        or, the one update after a game begun before the chain, the seeds it had committed to."""
        path = self.state_dir / "secrets.yaml"
        data = self.secrets()
        try:
            if "next_seed" in data:
                return Seeds(bytes.fromhex(data["next_seed"]), bytes.fromhex(data["next_hidden_seed"]))
            chain = SeedChain.from_secret(data)
            if chain is not None and chain.covers(update):
                return chain.seeds(update)
        except (KeyError, TypeError, ValueError):
            pass
        raise StateError(f"{path}: no valid seed chain (chain_tail, chain_base, chain_length, hidden_key) "
                         f"for update {update}, nor a valid next_seed and next_hidden_seed; the dice cannot be "
                         "rolled (restore the file from a backup)")

    def stage_seeds(self, tx: Transaction, state: GameState, update: int) -> tuple[Seeds, dict[str, Any] | None]:
        """Publish in the state the commitments of ``update`` (the next one), from the game's seed
        chain. Only when there is none yet (a new game, a game begun before the chain, or a chain
        run out) is a new one drawn: kept secret, and its announcement returned, to be published
        in the record being written (with the seeds of ``update``)."""
        key = self.settings().insecure_seed_key
        if key:  # a bundled demo: the dice it was written for (docs/fairness.md), insecure by design
            import hashlib

            seeds = Seeds(hashlib.sha256(f"{key}/{update}".encode()).digest(),
                          hashlib.sha256(f"{key}/{update}/hidden".encode()).digest())
            tx.write(self.state_dir / "secrets.yaml",
                     dump_yaml({"next_seed": seeds.public.hex(), "next_hidden_seed": seeds.hidden.hex()}))
            self._publish(state, seeds)
            return seeds, None
        chain = SeedChain.from_secret(self.secrets())
        announcement = None
        if chain is None or not chain.covers(update):
            chain = SeedChain.new(update - 1)
            tx.write(self.state_dir / "secrets.yaml", dump_yaml(chain.to_secret()))
            announcement = chain.announcement()
        seeds = chain.seeds(update)
        self._publish(state, seeds)
        return seeds, announcement

    @staticmethod
    def _publish(state: GameState, seeds: Seeds) -> None:
        state.next_commitment, state.next_hidden_commitment = seeds.commitments()
        state.next_player_commitments = player_commitments(seeds.hidden, [p.name for p in state.active_players()])

    def dice_scheme(self) -> int:
        """How this game's updates derive their dice (admin/engine/dice.py): the current scheme, or
        for a bundled demo (a public seed key) scheme 2, the dice its mail was written for."""
        return 2 if self.settings().insecure_seed_key else SCHEME

    # -- the log ---------------------------------------------------------------------------
    def log_entries(self) -> list[Path]:
        """Every log entry (``NNNNNN-<kind>.json``), oldest first."""
        return sorted(self.log_dir.glob("*.json")) if self.log_dir.exists() else []

    def next_log_path(self, kind: str) -> Path:
        entries = self.log_entries()
        seq = int(entries[-1].name.split("-", 1)[0]) + 1 if entries else 0
        return self.log_dir / f"{seq:06d}-{kind}.json"

    def results_path(self, update: int) -> Path:
        """The public results of one update (update 0: the first commitments)."""
        return self.state_dir / "results" / f"{update:04d}.json"

    @property
    def hidden_seeds_path(self) -> Path:
        """Every update's hidden seed and hidden draws, published when the game ends."""
        return self.state_dir / "results" / "hidden-seeds.json"

    def results_files(self) -> list[Path]:
        """Every results file, in update order."""
        folder = self.state_dir / "results"
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.json") if re.fullmatch(r"\d{4,}", p.stem))

    def update_logs(self) -> dict[int, Path]:
        out = {}
        for path in self.log_entries():
            if "-update-" in path.name:
                out[int(path.stem.rsplit("-", 1)[1])] = path
        return out

    # -- pending rulings ---------------------------------------------------------------------
    def pending_rulings(self) -> list[dict[str, Any]]:
        path = self.state_dir / "pending.yaml"
        if not path.exists():
            return []
        data = load_yaml(path) or {}
        return list(data.get("rulings", []))


# -- state <-> files ---------------------------------------------------------------------------
def read_archive(path: Path) -> list[Proposal]:
    data = load_json(path) or {}
    return from_data(list[Proposal], data.get("proposals", []), f"{path}: proposals")


def archive_text(proposals: list[Proposal]) -> str:
    return dump_json({"proposals": to_data(sorted(proposals, key=lambda p: p.number))})
