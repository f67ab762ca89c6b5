"""The worst a proposal can do through a parameter (issue 30): ``python -m bench.bench_params``.

Every whole-number parameter that sets how many times an update loops or how much it makes (the
audit in tests/test_params_bounded.py, ``WORK_PARAMS``: moves per update, turns in a row, squares
added, dice, rerolls, turns at once, peels, reach, lottery numbers ...) is set to its maximum by
the Admin's rulings (carried out at the start of the update, checked as a proposal's SET is) in a
new game of each bundled ruleset, whose ``--players`` players each send STATUS and BUY. The update
runs as ``nomopoly update`` in a fresh process (intake, engine, state, site, mail out); printed:
its wall time, the process's peak memory (VmHWM, see bench/child.py) and the events it made, with
the same update at the game's own values beside them.

Only what the dice bring about is exercised (a crazy Elephant's 100 turns need a skunk's spray);
each such loop is bounded by its maximum times a small step, which the unit tests check.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from admin.jobs.demo import deliver

from bench.spec import CUTOFF, TUESDAY, maildir_settings

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = maildir_settings("Params bench")


def work_params() -> dict[tuple[str, str], int]:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_params_bounded import WORK_PARAMS  # the audit lives beside its test

    return dict(WORK_PARAMS)


def make_game(root: Path, game: str, players: int, worst: bool) -> dict[str, dict[str, int]]:
    """A new game of ``game`` with ``players`` players who each send STATUS and BUY for update 1;
    with ``worst``, the Admin's rulings (carried out at the start of update 1, checked as a
    proposal's SET is) set every work parameter of the game's modules to its maximum."""
    from admin.games.catalog import initial_state
    from admin.jobs import update as jobs

    game_dir = jobs.init_game(root, game, "Params bench", settings_text=SETTINGS)
    inbox = root / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    names = [f"p{i:02d}" for i in range(players)]
    for i, name in enumerate(names):
        jobs.add_player(game_dir, name, f"{name}@example.org")
        deliver(inbox, i, TUESDAY.format(i), f"{name}@example.org", "admin@example.org", "moves", "STATUS\nBUY\n",
                f"<params-{i}@bench.invalid>")
    enabled = {m.name for m in initial_state(game, "g").modules}
    set_: dict[str, dict[str, int]] = {}
    if worst:
        for (module, key), most in work_params().items():
            if module in enabled:
                subprocess.run([sys.executable, "-m", "admin", "--game", str(root), "ruling", "set", module, key,
                                str(most), "--reason", "bench"], cwd=ROOT, check=True, capture_output=True)
                set_.setdefault(module, {})[key] = most
    return set_


CHILD = ("import sys\nfrom admin.cli.main import main\nfrom bench.child import peak_kb\n"
         "sys.argv = ['nomopoly', 'update', '--at', sys.argv[1], '--game', sys.argv[2]]\n"
         "try: main()\nexcept SystemExit as e: assert not e.code, e.code\n"
         "print(peak_kb())")


def measure(game: str, players: int, worst: bool) -> dict:
    """One update of a fresh game, timed in a fresh process as `nomopoly update` runs it."""
    with tempfile.TemporaryDirectory(prefix="bench-params-") as tmp:
        root = Path(tmp) / "game"
        params = make_game(root, game, players, worst)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CHILD, CUTOFF, str(root)], cwd=ROOT, capture_output=True,
                              text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        seconds = time.perf_counter() - started
        log = sorted((root / "state" / "log").glob("*update-1.*"))
        events = len(json.loads(log[0].read_text(encoding="utf-8")).get("events", [])) if log else -1
        return {"seconds": seconds, "peak_kb": int(done.stdout.strip().splitlines()[-1]), "events": events,
                "params": params}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--game", action="append", help="only these games (default: every bundled one)")
    args = ap.parse_args(argv)
    from admin.games.catalog import available

    print(f"one update of {args.players} players, every work parameter at its maximum "
          "(the game's own values beside it)")
    for game in args.game or available():
        base = measure(game, args.players, False)
        worst = measure(game, args.players, True)
        names = ", ".join(f"{m}.{k}={v}" for m, ks in worst["params"].items() for k, v in ks.items())
        print(f"{game:15} {worst['seconds']:6.2f} s {worst['peak_kb'] / 1024:5.0f} MB {worst['events']:6} events"
              f"   (own values: {base['seconds']:5.2f} s {base['peak_kb'] / 1024:4.0f} MB {base['events']:5} events)")
        print(f"{'':15} {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
