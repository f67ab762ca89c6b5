"""A reproducible large game for the benchmarks: players, a 100-square board, 2.5 years of mail.

    python -m bench.workload --players 200 --updates 260      # build (or extend) the cached history

The game is a Nomopoly II game made with :func:`admin.jobs.update.init_game` and
:func:`admin.jobs.update.add_player`; its dice come from ``[dice] insecure_demo_seed_key`` so every run
rolls the same dice. The board starts with ``initial_squares`` squares instead of the preset's 20:
right after ``init_game`` we set the board module's ``initial_squares`` parameter in the init log
entry's state, add the extra squares to that state, and write the state files from it again (one
transaction), so ``nomopoly replay --check`` starts from the same 100-square state (see
:func:`_edit_init_state`).

The mail: two updates a week (Thursday, Sunday), every player sends one email per update with 1 to
5 commands (BUY, NAME, PLACE, BURY, VOTE, STATUS), chosen from that player's situation in the
state before the update (so many commands succeed and some fail, as in a real game); in every
Thursday window ``proposals_per_week`` random players send a PROPOSE block (ADD RULE or AMEND),
and in every Sunday window most players vote on every proposal open for voting. Everything is
drawn from ``random.Random(f"{seed}/{update}")``, so the same spec gives the same bytes.

A history of N updates is made by running N real updates (Maildir intake, engine, state; no site
and no outbox, which do not feed later updates); the result is cached under ``bench/out/`` by spec
and length, and a longer history extends the longest cached shorter one.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from admin.engine import hooks
from admin.jobs import update as jobs
from admin.jobs import roster as admin_ops
from admin.engine.board import add_square
from admin.store.gamedir import GameDir
from admin.library.cards import hand
from admin.library.ownership import owner_of
from admin.games.registry import REGISTRY
from admin.engine.model import GameState
from admin.store.statefiles import state_from_data
from admin.store.fileio import Transaction, dump_json, load_json
from admin.store.plain import to_data
from bench import workload_n2
from bench import workload_teams
from bench.spec import START, STREETS, VERSION, WORDS, Spec, cutoff, message  # noqa: F401 - its interface

OUT = Path(__file__).resolve().parent / "out"
SECTIONS = ("V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV")
SUITS = "SHDC"


SETTINGS = '''# A benchmark game made by bench/workload.py. Never a real game: the dice key is public.
[game]
title = "Benchmark game"
start = "{start}"
timezone = "UTC"

[mail]
source = "maildir"
maildir = "mail/inbox"
admin_address = "admin@example.org"

[auth]
plus_addressing = "strip"
require_token = false

[site]
title = "Benchmark game"
url = "https://example.org/bench"

[dice]
insecure_demo_seed_key = "bench-{seed}"
'''


def player_name(i: int) -> str:
    return f"p{i:04d}"


def player_address(i: int) -> str:
    return f"{player_name(i)}@example.org"


# -- the game ----------------------------------------------------------------------------------
def create_game(root: Path, spec: Spec) -> GameDir:
    """A new game with ``spec.players`` players and a ``spec.squares``-square board."""
    game = jobs.init_game(root, spec.game, "Benchmark game",
                          settings_text=SETTINGS.format(start=START.date().isoformat(), seed=spec.seed))
    bulk = [(player_name(i), player_address(i)) for i in range(1, spec.players + 1)] if spec.bulk_players else []
    _edit_init_state(game, spec.squares, bulk)
    if not spec.bulk_players:
        for i in range(1, spec.players + 1):
            jobs.add_player(game, player_name(i), player_address(i))
    (game.root / "mail" / "inbox").mkdir(parents=True, exist_ok=True)
    return game


def _edit_init_state(game: GameDir, squares: int, players: list[tuple[str, str]]) -> None:
    """The documented edit: ``initial_squares`` = ``squares`` in the init state, before any update
    (and, for ``bulk_players``, the players added to it with :func:`admin.jobs.roster.add_player`,
    the same function ``nomopoly player add`` applies).

    The init log entry holds the state replay starts from, so it is edited together with the
    state files, in one transaction, under the game's lock."""
    with game.lock():
        init_log = game.log_entries()[0]
        entry = load_json(init_log)
        state = state_from_data(entry["state"], str(init_log))
        for module in state.modules:
            if module.name in ("board", "teams-board"):
                module.params["initial_squares"] = squares
        while len(state.squares) < squares:
            add_square(state, hooks.call(state, REGISTRY))
        for name, email in players:
            admin_ops.add_player(state, name, email)
        tx = Transaction(game.state_dir)
        game.stage_state(tx, state)
        tx.write(init_log, dump_json({**entry, "state": to_data(state)}))
        tx.commit()


# -- the mail ------------------------------------------------------------------------------------
def emails_for(state: GameState, spec: Spec, update: int) -> list[tuple[datetime, bytes]]:
    """The (received time, raw message) of every email of ``update``, from the state before it."""
    if spec.game == workload_teams.GAME:  # the Teams variant's own commands (bench/workload_teams.py)
        return workload_teams.emails_for(state, spec, update)
    rng = random.Random(f"{spec.seed}/{update}")
    start, end = cutoff(update - 1) if update > 1 else START - timedelta(days=1), cutoff(update)
    window = int((end - start).total_seconds())
    thursday = update % 2 == 1
    names = sorted(n for n, p in state.players.items() if p.active)
    voting = [p.number for p in state.proposals if p.status == "voting"]
    proposers = set(rng.sample(names, min(spec.proposals_per_week, len(names)))) if thursday else set()
    rule_ids = [r.id for r in state.rules.rules()] if state.rules else []
    owned: dict[str, list[int]] = {}
    for sq in state.squares:
        owner = owner_of(state, sq.number)
        if owner and not sq.destroyed:
            owned.setdefault(owner, []).append(sq.number)
    later = workload_n2.situation(state, owned) if state.enabled("blocks") else None
    out = []
    for name in names:
        player = state.players[name]
        cards = hand(state, name) if state.enabled("cards") else []
        lines = _commands(rng, player.square, owned.get(name, []), cards, voting,
                          rng.randint(1, 5), len(state.squares))
        if spec.game != "nomopoly2":  # the other sections' commands, a few an email
            lines += _section_commands(rng, state, player.square, owned.get(name, []))
        if later is not None:  # Nomopoly II's later sections, from the player's situation
            lines += workload_n2.commands(rng, state, later, name, owned.get(name, []), names)
        if name in proposers:
            lines += _proposal(rng, rule_ids)
        received = start + timedelta(seconds=rng.randint(1, window))
        out.append((received, message(name, update, spec.seed, received, lines, rng)))
    out.sort(key=lambda m: m[0])
    return out


def _commands(rng: random.Random, square: int, owned: list[int], cards: list[str], voting: list[int],
              count: int, squares: int) -> list[str]:
    lines: list[str] = []
    for number in voting:  # votes first: most players vote on every open proposal
        if len(lines) < count and rng.random() < 0.85:
            lines.append(f"VOTE {number} {rng.choice(('YES', 'YES', 'NO', 'ABSTAIN'))}")
    while len(lines) < count:
        kind = rng.choice(("BUY", "BUY", "NAME", "PLACE", "BURY", "STATUS"))
        if kind == "BUY":
            lines.append("BUY" if rng.random() < 0.7 else f"BUY {square}")
        elif kind == "NAME":
            target = rng.choice(owned) if owned and rng.random() < 0.9 else rng.randint(1, squares)
            lines.append(f"NAME {target} {rng.choice(STREETS)} {rng.randint(1, 99)}")
        elif kind == "PLACE":
            card = rng.choice(cards) if cards else f"{rng.choice('A23456789JQK')}{rng.choice(SUITS)}"
            target = rng.choice(owned) if owned else square
            lines.append(f"PLACE {card} ON {target}")
        elif kind == "BURY":
            card = rng.choice(cards) if cards else f"{rng.choice('A23456789JQK')}{rng.choice(SUITS)}"
            lines.append(f"BURY {card}")
        else:
            lines.append("STATUS")
    return lines


#: commands of the optional sections, by module: (rng, the player's square, squares owned) -> lines
def _one(*choices):
    """A maker drawing one of ``choices`` (each a line, or a function of (rng, square, owned))."""
    def make(rng, square, owned):
        pick = rng.choice(choices)
        return [pick(rng, square, owned) if callable(pick) else pick]
    return make


def _mine(rng, square, owned) -> int:
    return rng.choice(owned) if owned else square


SECTION_COMMANDS = {
    "railroads": _one(lambda r, s, o: f"BUILD RAILROAD ON {_mine(r, s, o)}",
                      lambda r, s, o: f"RIDE RAILROAD TO {r.randint(1, 100)}"),
    # the first Nomopoly's mechanics (--game nomopoly1)
    "donuts": _one("CASH DONUT", "BUY ANTIDOTE", "USE ANTIDOTE", "GIVE DONUT p0001"),
    "fountains": _one("DONATE HEALTH", "DONATE WEALTH", "DONATE SPACETIME"),
    "store": _one("BUY PAINT RED", "BUY PAINT BLUE x2", "BUY FIRST AID KIT", "BUY GIFT ROSE", "BUY JETPACK",
                  "USE JETPACK FORWARD", "USE FIRST AID KIT"),
    "paint": _one("PAINT SQUARE RED", "PAINT ME BLUE", lambda r, s, o: f"PAINT SQUARE {_mine(r, s, o)} BLUE"),
    "grease": _one("GREASE SQUARE", "USE AIR FRESHENER", lambda r, s, o: f"DEGREASE {r.randint(1, 100)}"),
    "wages": _one("ENROL BASE", "ENROL THIEF", "HAND OUT", "STEAL FROM p0002"),
    "chili": _one("BUY CHILI XL", "FEED FART XL", "BUY CHILI SMALL x2"),
    "vehicles": _one("BUY TRANSPORT CLOGS", "SWITCH TO ON FOOT", "PARK", "BUY TRANSPORT ROLLER SKATES"),
    "ticket-lottery": _one("BUY TICKET", "BUY TICKET 2"),
    "bank-of-nomopoly": _one("BORROW 100", "REPAY 50", "BUY BOND"),
    "trading": _one(lambda r, s, o: f"TRADE WITH p{r.randint(0, 199):04d}: GIVE $10 FOR nothing"),
    "co-ownership": _one(lambda r, s, o: f"OFFER CO-OWNERSHIP {_mine(r, s, o)} FOR {r.randint(1, 100)} "
                                         f"TO p{r.randint(0, 199):04d}"),
    "blob": _one("STEP ON BLOB", "AID BLOB"),
    "weapons": _one("BUY TIME BOMB", "PLANT TIME BOMB", lambda r, s, o: f"FIRE MISSILE AT {r.randint(1, 100)}"),
    "paint-guns": _one(lambda r, s, o: f"SHOOT p{r.randint(0, 199):04d} WITH RED PAINT"),
    "yellow-bus": _one(lambda r, s, o: f"YBC DRIVE TO {r.randint(1, 100)}"),
}


def _section_commands(rng: random.Random, state: GameState, square: int, owned: list[int]) -> list[str]:
    """Up to two commands of the enabled optional sections (drawn in module order, so the same
    state gives the same lines)."""
    makers = [SECTION_COMMANDS[m.name] for m in state.modules if m.name in SECTION_COMMANDS]
    lines: list[str] = []
    for make in makers:
        if rng.random() < 0.3 and len(lines) < 2:
            lines += make(rng, square, owned)
    return lines


def _proposal(rng: random.Random, rule_ids: list[str]) -> list[str]:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 30)))
    title = " ".join(rng.choice(WORDS) for _ in range(3)).capitalize()
    if rule_ids and rng.random() < 0.3:
        directive = f"AMEND {rng.choice(rule_ids)}: A {words}."
    else:
        directive = f"ADD RULE {rng.choice(SECTIONS)}: A {words}."
    return [f"PROPOSE {title}", f"Because the {rng.choice(WORDS)} needs it.", "", directive, "END"]


def write_maildir(maildir: Path, update: int, mails: list[tuple[datetime, bytes]]) -> None:
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    for n, (received, raw) in enumerate(mails):
        (maildir / "new" / f"{int(received.timestamp())}.M{n}U{update}.bench").write_bytes(raw)


def next_emails(game: GameDir, spec: Spec) -> tuple[int, list[tuple[datetime, bytes]]]:
    """The number of the game's next update and its emails (and, in the Teams variant, the Admin's
    rulings for it queued, as ``nomopoly ruling decide`` would)."""
    if spec.game == workload_teams.GAME:
        workload_teams.queue_rulings(game, spec)
    state = game.load()
    return state.update + 1, emails_for(state, spec, state.update + 1)


# -- histories -----------------------------------------------------------------------------------
def history_dir(spec: Spec, updates: int) -> Path:
    return OUT / "games" / f"{spec.key}-u{updates:04d}"


def run_updates(game: GameDir, spec: Spec, count: int, echo=None) -> None:
    """Run ``count`` real updates (Maildir intake, engine, state) with the generated mail."""
    maildir = game.root / "mail" / "inbox"
    for _ in range(count):
        started = time.perf_counter()
        update, mails = next_emails(game, spec)
        write_maildir(maildir, update, mails)
        jobs.run_update_job(game, at=cutoff(update))
        if echo:
            echo(f"  update {update}: {len(mails)} emails, {time.perf_counter() - started:.2f} s")


def history(spec: Spec, updates: int, echo=print) -> GameDir:
    """A cached game directory with ``updates`` updates run (read-only: copy it before changing)."""
    target = history_dir(spec, updates)
    if (target / ".complete").exists():
        return GameDir(target)
    shutil.rmtree(target, ignore_errors=True)
    base = _longest_cached(spec, updates)
    # built on tmpfs when there is one (no fsync waits), then copied into the cache
    scratch = Path(tempfile.mkdtemp(prefix="nomopoly-workload-", dir=_fast_tmp()))
    work = scratch / target.name
    if base is None:
        echo(f"workload: making a {spec.players}-player game ({spec.key}) ...")
        game = create_game(work, spec)
        done = 0
    else:
        done = int(base.name.rsplit("-u", 1)[1])
        echo(f"workload: extending the cached {done}-update history to {updates} ...")
        shutil.copytree(base, work, symlinks=True)
        (work / ".complete").unlink()
        game = GameDir(work)
    run_updates(game, spec, updates - done, echo if updates - done > 20 else None)
    from admin.site.build import build_site

    build_site(game)  # the site as of this history, so that the next update's build is incremental
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(work, partial, symlinks=True)
    shutil.rmtree(scratch, ignore_errors=True)
    (partial / ".complete").write_text(f"{updates}\n")
    partial.rename(target)
    return GameDir(target)


def _fast_tmp() -> str | None:
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def _longest_cached(spec: Spec, updates: int) -> Path | None:
    best = None
    for path in (OUT / "games").glob(f"{spec.key}-u*"):
        if path.suffix == ".partial" or not (path / ".complete").exists():
            continue
        n = int(path.name.rsplit("-u", 1)[1])
        if n <= updates and (best is None or n > int(best.name.rsplit("-u", 1)[1])):
            best = path
    return best


def copy_game(game: GameDir, dest: Path) -> GameDir:
    """A private copy of a cached game to run an update in (hard links for the mail archive and
    the log, which are only ever added to or replaced by rename, never written in place)."""

    def link_or_copy(src: str, dst: str) -> None:
        if "/state/mail/" in src or "/state/log/" in src or "/.Processed/" in src:
            try:
                Path(dst).hardlink_to(src)
                return
            except OSError:
                pass
        shutil.copy2(src, dst)

    shutil.copytree(game.root, dest, symlinks=True, copy_function=link_or_copy)
    return GameDir(dest)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Build (or extend) a cached benchmark history.")
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--squares", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--updates", type=int, default=260)
    ap.add_argument("--bulk-players", action="store_true", help="players in the init state (fast set-up)")
    ap.add_argument("--game", default="nomopoly2", help="the bundled game to play (e.g. nomopoly2-full)")
    args = ap.parse_args(argv)
    spec = Spec(players=args.players, squares=args.squares, seed=args.seed, bulk_players=args.bulk_players,
                game=args.game)
    started = time.perf_counter()
    game = history(spec, args.updates)
    print(f"{game.root} ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
