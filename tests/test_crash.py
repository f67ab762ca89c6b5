"""Crash injection: the intake and update jobs are killed with a real SIGKILL at every crash point
an uninterrupted run passes through (admin/runtime/crashpoints.py), then run again to completion. The
final game (every file under state/ except .lock, and rules_md/) must be byte-identical to the
uninterrupted run's, and the ledger and update logs must show every message acted on exactly once.

The jobs run in their own processes (tests/crash_driver.py). The Maildir scenario is killed at
every point; the Dovecot scenario at the points that touch the server (after the fetch, between
moves, between COPY and EXPUNGE) and everywhere in a fetch. Dice come from the demo seed key, so
runs are comparable.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from pathlib import Path
from typing import Callable, Sequence

import pytest
from fixtures.games import DIR_SETTINGS

from admin.jobs import update as jobs
from admin.store.gamedir import GameDir
from admin.mail.inbound.ledger import Ledger
from admin.store.fileio import load_yaml
from admin.runtime.dovecot import DovecotServer, Message

pytestmark = [pytest.mark.reliability, pytest.mark.slow]

DRIVER = Path(__file__).with_name("crash_driver.py")
WED = "2026-11-04T23:59:59+00:00"
FRI = "2026-11-06T23:00:00+00:00"
SAT = "2026-11-07T23:59:59+00:00"
#: the game's week: Wednesday's update, a cron fetch on Friday, Saturday's update
STEPS = (f"update:{WED}", f"fetch:{FRI}", f"update:{SAT}")
#: over IMAP the admin's cron also fetched before Wednesday's update
IMAP_STEPS = (f"fetch:{WED}", *STEPS)
WORKERS = max(2, min(6, (os.cpu_count() or 2) + 1))


def _mail(n: int, sender: str, body: str, when: str, *, message_id: str | None = None,
          headers: Sequence[tuple[str, str]] = ()) -> tuple[bytes, datetime]:
    t = datetime.fromisoformat(when).replace(tzinfo=timezone.utc)
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "admin@example.org", f"moves {n}"
    m["Date"] = format_datetime(t)
    m["Message-ID"] = message_id or f"<crash-{n}@example.org>"
    for name, value in headers:
        m[name] = value
    m.set_content(body)
    return m.as_bytes(policy=SMTP), t


#: the game's mail: proposals, purchases, votes, a duplicate delivery, a stranger, an auto-reply;
#: six messages before Wednesday's cut-off and three for Saturday's
MAIL = [
    _mail(1, "Alice <alice@example.org>", "PROPOSE Free parking\nLanding on square 1 pays $50.\nEND\nBUY",
          "2026-11-03T09:00"),
    _mail(2, "bob@example.org", "BUY\nSTATUS", "2026-11-03T10:00"),
    _mail(3, "Carol <CAROL@example.org>", "PROPOSE Tax\nEvery player pays $10 a week.\nEND",
          "2026-11-03T11:00"),
    _mail(4, "Alice <alice@example.org>", "PROPOSE Free parking\nLanding on square 1 pays $50.\nEND\nBUY",
          "2026-11-03T12:00", message_id="<crash-1@example.org>",
          headers=[("Received", "from relay2.example.org")]),  # delivered twice
    _mail(5, "mallory@evil.example", "BUY\nVOTE 1 YES", "2026-11-03T13:00"),
    _mail(6, "bob@example.org", "PROPOSE Out of office\nI am away.\nEND", "2026-11-04T08:00",
          headers=[("Auto-Submitted", "auto-replied")]),
    _mail(7, "bob@example.org", "VOTE 1 YES\nVOTE 2 NO", "2026-11-06T10:00"),
    _mail(8, "carol@example.org", "VOTE 1 NO\nVOTE 2 YES\nBUY", "2026-11-06T11:00"),
    _mail(9, "alice@example.org", "VOTE 1 YES\nVOTE 2 YES", "2026-11-06T12:00"),
]


# -- running the driver --------------------------------------------------------------------------
def drive(game: Path, steps: Sequence[str], env: dict[str, str] | None = None) -> int:
    environ = {**os.environ, **(env or {})}
    environ.pop("NOMOPOLY_CRASH_AT", None)
    environ.pop("NOMOPOLY_CRASH_TRACE", None)
    result = subprocess.run([sys.executable, str(DRIVER), str(game), *steps], env=environ,
                            capture_output=True, text=True, timeout=300)
    if result.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(f"driver {' '.join(steps)} exited {result.returncode}:\n{result.stderr}")
    return result.returncode


def snapshot(game: Path) -> dict[str, bytes]:
    """Every file under state/ (but the lock and the parsed-state cache, which is not state) and
    rules_md/, by relative path."""
    files = [p for d in ("state", "rules_md") for p in (game / d).rglob("*")
             if p.is_file() and p.name != ".lock" and ".cache" not in p.relative_to(game).parts]
    return {str(p.relative_to(game)): p.read_bytes() for p in files}


def differences(got: dict[str, bytes], want: dict[str, bytes]) -> list[str]:
    out = [f"missing {n}" for n in sorted(set(want) - set(got))]
    out += [f"extra {n}" for n in sorted(set(got) - set(want))]
    out += [f"differs {n}" for n in sorted(set(got) & set(want)) if got[n] != want[n]]
    return out


def exactly_once_problems(game: Path) -> list[str]:
    """Every message settled; each non-duplicate in exactly one update log (with the ledger's
    status and update number); duplicates in none."""
    gd = GameDir(game)
    ledger = Ledger.load(gd.state_dir).messages
    seen: Counter[str] = Counter()
    for n, path in gd.update_logs().items():
        for m in load_yaml(path)["inputs"]["messages"]:
            seen[m["hash"]] += 1
            entry = ledger.get(m["hash"])
            if entry is None or entry.status != m["status"] or entry.update != n:
                seen[m["hash"]] += 100
    problems = []
    if len(ledger) != len(MAIL):
        problems.append(f"the ledger holds {len(ledger)} messages, not {len(MAIL)}")
    for digest, entry in ledger.items():
        want = 0 if entry.status == "duplicate" else 1
        if entry.status == "pending" or seen[digest] != want:
            problems.append(f"{digest[:12]} is {entry.status} and in {seen[digest]} update log(s)")
    return problems


@dataclass(frozen=True)
class Kill:
    step: int  #: index of the step killed
    points: tuple[str, ...]  #: killed at the first; each re-run is killed at the next (in recovery)
    steps: tuple[str, ...] = STEPS
    options: tuple[str, ...] = ()  #: driver steps given to every process (e.g. copy-expunge)

    def __str__(self) -> str:
        return f"{' '.join(self.options)} {self.steps[self.step]} killed at {' then '.join(self.points)}".strip()


def points_of(trace: Path) -> list[str]:
    """``name#k`` for every call of every crash point in a trace, in order."""
    if not trace.exists():
        return []
    counts: Counter[str] = Counter()
    out = []
    for name in trace.read_text().split():
        counts[name] += 1
        out.append(f"{name}#{counts[name]}")
    return out


def run_with_kill(game: Path, kill: Kill, env: dict[str, str] | None = None) -> list[str]:
    """The steps before, the killed step (and killed re-runs), then the rest; problems found."""
    steps, at, opts = kill.steps, kill.step, list(kill.options)
    if drive(game, [*opts, *steps[:at], f"crash:{kill.points[0]}", steps[at]], env) != -signal.SIGKILL:
        return [f"{kill}: the process was not killed at {kill.points[0]}"]
    problems = []
    for point in kill.points[1:]:
        if drive(game, [*opts, f"crash:{point}", steps[at]], env) != -signal.SIGKILL:
            problems.append(f"{kill}: the re-run was not killed at {point}")
    if drive(game, [*opts, *steps[at:]], env) != 0:
        problems.append(f"{kill}: the re-run did not finish")
    return problems


GameMaker = Callable[[], tuple[Path, dict[str, str]]]


def run_all(kills: Sequence[Kill], make_game: GameMaker, check: Callable[[Path], list[str]]) -> list[str]:
    def one(kill: Kill) -> list[str]:
        game, env = make_game()
        problems = run_with_kill(game, kill, env)
        return problems or [f"{kill}: {p}" for p in check(game)]

    with ThreadPoolExecutor(WORKERS) as pool:
        return [p for found in pool.map(one, kills) for p in found]


def baseline(game: Path, env: dict[str, str], steps: Sequence[str] = STEPS,
             options: Sequence[str] = ()) -> tuple[dict[str, bytes], list[list[str]]]:
    """The uninterrupted run: its final files and the crash points each step passed through."""
    traces = [game.parent / f"{game.name}-trace-{i}.txt" for i in range(len(steps))]
    driven = list(options)
    for step, trace in zip(steps, traces):
        driven += [f"trace:{trace}", step, "trace:"]
    assert drive(game, driven, env) == 0
    return snapshot(game), [points_of(t) for t in traces]


def new_template(root: Path, settings: str = DIR_SETTINGS) -> GameDir:
    game = jobs.init_game(root, "nomopoly2", "Crash test", settings_text=settings)
    for name in ("alice", "bob", "carol"):
        jobs.add_player(game, name, f"{name}@example.org")
    return game


def copies(template: Path, where: Path) -> Callable[[], Path]:
    numbers = iter(range(10**6))
    return lambda: Path(shutil.copytree(template, where / f"run-{next(numbers)}"))


# -- the Maildir scenario: every point ----------------------------------------------------------
@pytest.fixture(scope="module")
def maildir_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("crash-maildir") / "template"
    new_template(root)
    inbox = root / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)  # init makes them too
    for n, (raw, t) in enumerate(MAIL):
        (inbox / "new" / f"{int(t.timestamp())}.M{n}P1.crashtest").write_bytes(raw)
    return root


def maildir_problems(game: Path) -> list[str]:
    inbox = game / "mail" / "inbox"
    left = [p.name for d in ("new", "cur") for p in (inbox / d).iterdir()]
    moved = sorted(p.read_bytes() for d in ("new", "cur") for p in (inbox / ".Processed" / d).iterdir())
    out = [f"still in the inbox: {left}"] if left else []
    if moved != sorted(raw for raw, _ in MAIL):  # moved as they are, byte for byte
        out.append(f"the Processed folder holds {len(moved)} messages, not each of the {len(MAIL)} once")
    return out


#: the Maildir runs are split into this many tests, so the parallel workers share them out
PARTS = 4


@dataclass(frozen=True)
class Scenario:
    copy: Callable[[], Path]  #: a fresh copy of the game before the week
    want: dict[str, bytes]  #: the uninterrupted run's final files
    kills: tuple[Kill, ...]  #: every run to kill
    kinds: frozenset[str]  #: the kinds of crash point the uninterrupted run passed through


@pytest.fixture(scope="module")
def maildir_week(maildir_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    """The uninterrupted week, and the kills made from its traces (one per point it passed)."""
    copy = copies(maildir_template, tmp_path_factory.mktemp("crash-maildir-runs"))
    base = copy()
    want, traces = baseline(base, {})
    assert exactly_once_problems(base) == [] and maildir_problems(base) == []
    statuses = Counter(e.status for e in Ledger.load(base / "state").messages.values())
    assert statuses == {"applied": 6, "rejected": 1, "ignored": 1, "duplicate": 1}
    kills = [Kill(i, (p,)) for i, points in enumerate(traces) for p in points]
    # killed again while recovering: in the journal's roll-forward, and in a second take-in
    kills += [Kill(0, ("commit.rename#2", "commit.rename#1")),
              Kill(0, ("commit.journal", "commit.rename#3")),
              Kill(2, ("commit.rename#1", "commit.rename#1", "commit.rename#2")),
              Kill(0, ("intake.archived#3", "intake.archived#2")),
              Kill(0, ("intake.ledger", "intake.screened#4"))]
    return Scenario(copy, want, tuple(kills), frozenset(k.points[0].split("#")[0] for k in kills))


def test_the_maildir_week_passes_every_kind_of_crash_point(maildir_week):
    assert maildir_week.kinds == {"intake.fetched", "intake.archived", "intake.ledger", "intake.screened",
                                  "update.before-commit", "commit.temp", "commit.journal", "commit.rename",
                                  "update.committed"}
    assert len(maildir_week.kills) >= 4 * PARTS  # each part below has runs to make


@pytest.mark.parametrize("part", range(PARTS))
def test_killed_anywhere_the_maildir_game_finishes_byte_identical(maildir_week, part, capsys):
    week = maildir_week
    kills = week.kills[part::PARTS]

    def check(game: Path) -> list[str]:
        return differences(snapshot(game), week.want) + exactly_once_problems(game) + maildir_problems(game)

    assert run_all(kills, lambda: (week.copy(), {}), check) == []
    with capsys.disabled():
        print(f"\nMaildir, part {part + 1} of {PARTS}: {len(kills)} runs killed with SIGKILL "
              f"({sum(len(k.points) for k in kills)} kills); each finished byte-identical, every message once")


# -- the Dovecot scenario: the points that touch the server, and the cron fetch -----------------
def _imap_settings(server: DovecotServer, user: str) -> str:
    return DIR_SETTINGS.replace('source = "maildir"', 'source = "imap"') + (
        f'[mail.imap]\nhost = "{server.host}"\nport = {server.port}\nuser = "{user}"\ntls = "none"\n'
        "batch_size = 2\nbackoff = 0.05\ntimeout = 20\nretries = 5\n")


@pytest.fixture(scope="module")
def imap_template(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    user = dovecot.new_user()
    dovecot.append_many(user, [Message(raw, t) for raw, t in MAIL])
    root = tmp_path_factory.mktemp("crash-imap") / "template"
    new_template(root)
    return root, user


def imap_problems(server: DovecotServer, user: str) -> list[str]:
    out = []
    left = server.list_uids(user)
    if left:
        out.append(f"{len(left)} message(s) still in the INBOX")
    with server.client(user, "Nomopoly/Processed") as c:
        uids = c.search("ALL")
        moved = {bytes(d[b"BODY[]"]) for d in c.fetch(uids, ["BODY.PEEK[]"]).values()} if uids else set()
    missing = {raw for raw, _ in MAIL} - moved
    if missing:
        out.append(f"the processed folder lacks {len(missing)} message(s)")
    return out


@pytest.mark.dovecot
def test_killed_at_the_server_points_the_imap_game_finishes_byte_identical(dovecot, imap_template, tmp_path,
                                                                             capsys):
    template, template_user = imap_template
    copy = copies(template, tmp_path)
    env = {"NOMOPOLY_IMAP_PASSWORD": "testpw"}

    def make_game() -> tuple[Path, dict[str, str]]:
        game = copy()
        user = dovecot.clone_account(template_user)  # the same messages, UIDs and UIDVALIDITY
        (game / "nomopoly.toml").write_text(_imap_settings(dovecot, user))
        (game / "imap-user").write_text(user)
        return game, env

    def check(game: Path) -> list[str]:
        return (differences(snapshot(game), want) + exactly_once_problems(game)
                + imap_problems(dovecot, (game / "imap-user").read_text()))

    base, _ = make_game()
    want, traces = baseline(base, env, IMAP_STEPS)
    assert check(base) == []
    assert "imap:" in "".join(p.read_text() for p in (base / "state" / "ledger").glob("*"))
    moving, _ = make_game()
    want_too, moving_traces = baseline(moving, env, IMAP_STEPS, ["copy-expunge"])
    assert want_too == want and check(moving) == []

    server = ("imap.moved", "intake.fetched", "update.committed")
    kills = [Kill(i, (p,), IMAP_STEPS) for i, points in enumerate(traces) for p in points
             if IMAP_STEPS[i].startswith("fetch:") or p.split("#")[0] in server]
    kills += [Kill(i, (p,), IMAP_STEPS, ("copy-expunge",)) for i, points in enumerate(moving_traces)
              for p in points if p.startswith(("imap.copied", "imap.moved"))]
    kinds = {(k.options, k.points[0].split("#")[0]) for k in kills}
    assert {kind for _, kind in kinds} >= {"imap.moved", "imap.copied", "intake.fetched", "intake.archived",
                                           "intake.ledger", "update.committed"}, kinds
    assert run_all(kills, make_game, check) == []
    with capsys.disabled():
        print(f"\nDovecot: {len(kills)} runs killed with SIGKILL (fetch, between moves, between COPY and "
              "EXPUNGE, after the commit); each finished byte-identical, every message once")
