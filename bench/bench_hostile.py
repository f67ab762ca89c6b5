"""The bound on one email's work (hardening #1): ``python -m bench.bench_hostile [--repeat 5]``.

A three-player Nomopoly II game whose first update holds one hostile email and one ordinary one.
Each case is timed as ``nomopoly update`` runs it in a fresh process (intake, parse, engine, state,
site and mail out), in a fresh copy of the game; prints the median and the largest peak memory
(the child's own VmHWM, see bench/child.py) of ``--repeat`` runs, and the size of the hostile sender's receipt.

Cases: a player's email of 100,000 lines ``BUY 9``; four strangers' emails of 166,000 such lines;
a player's email of 100,000 junk lines; a Content-Type of 20,000 RFC 2231 parameter segments;
twelve strangers' emails of 70,000 empty MIME parts each."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from admin.jobs import update as jobs
from admin.jobs.demo import deliver as _deliver
from admin.store.gamedir import GameDir

from bench.spec import CUTOFF, TUESDAY, maildir_settings

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = maildir_settings("Hostile bench")


def deliver(inbox: Path, sender: str, body: str, when: str) -> None:
    n = len(list((inbox / "new").glob("*")))
    _deliver(inbox, n, when, sender, "admin@example.org", "moves", body, f"<bench-{n}@bench.invalid>")


def _rfc2231(inbox: Path) -> None:
    params = "".join(f"; name*{i}*=utf-8''a%41" for i in range(20_000))
    raw = ("From: alice@example.org\r\nTo: admin@example.org\r\nSubject: x\r\n"
           "Date: Tue, 03 Nov 2026 10:00:00 +0000\r\nMessage-ID: <ct@bench.invalid>\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: text/plain{params}\r\n\r\nSTATUS\r\n").encode()
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    (inbox / "new" / "1793700000.M1P1.ct").write_bytes(raw)


def _empty_parts(inbox: Path) -> None:
    """Twelve strangers' emails of 70,000 empty MIME parts each, just under 1 MB (issue 30)."""
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    for i in range(12):
        body = "".join("--e\r\n\r\n" for _ in range(70_000)) + "--e--\r\n"
        raw = (f"From: x{i}@evil.example\r\nTo: admin@example.org\r\nSubject: x\r\n"
               f"Date: Tue, 03 Nov 2026 10:{i:02d}:00 +0000\r\nMessage-ID: <parts{i}@bench.invalid>\r\n"
               f"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=e\r\n\r\n{body}").encode()
        (inbox / "new" / f"17937000{i:02d}.M1P1.parts{i}").write_bytes(raw)


CASES = {
    "player, 100,000 lines BUY 9": lambda inbox: deliver(inbox, "alice@example.org", "BUY 9\n" * 100_000,
                                                         TUESDAY.format(0)),
    "4 strangers, 166,000 lines each": lambda inbox: [
        deliver(inbox, f"x{i}@evil.example", "BUY 9\n" * 166_000, TUESDAY.format(i)) for i in range(4)],
    "player, 100,000 junk lines": lambda inbox: deliver(
        inbox, "alice@example.org", "".join(f"zq{i}\n" for i in range(100_000)), TUESDAY.format(0)),
    "Content-Type, 20,000 RFC 2231 parameters": _rfc2231,
    "12 strangers, 70,000 empty MIME parts each": _empty_parts,
}


def make_game(root: Path, case: str) -> GameDir:
    game = jobs.init_game(root, "nomopoly2", "Hostile bench", settings_text=SETTINGS)
    for name in ("alice", "bob", "carol"):
        jobs.add_player(game, name, f"{name}@example.org")
    inbox = root / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    CASES[case](inbox)
    deliver(inbox, "bob@example.org", "STATUS\n", TUESDAY.format(30))
    return game


CHILD = ("import sys\nfrom admin.cli.main import main\nfrom bench.child import peak_kb\n"
         "sys.argv = ['nomopoly', 'update', '--at', sys.argv[1], '--game', sys.argv[2]]\n"
         "try: main()\nexcept SystemExit as e: assert not e.code, e.code\n"
         "print(peak_kb())")


def run_once(template: Path, work: Path) -> tuple[float, int, int]:
    game = work / "game"
    shutil.copytree(template, game)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, CUTOFF, str(game)], cwd=ROOT, capture_output=True,
                          text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - started
    peak_kb = int(done.stdout.strip().splitlines()[-1])
    receipts = [p.stat().st_size for p in (game / "state" / "outbox").rglob("*.eml")
                if b"alice" in p.read_bytes()[:2000] and b"answers your email" in p.read_bytes()]
    shutil.rmtree(game)
    return seconds, peak_kb, max(receipts, default=0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{'case':45} {'median s':>9} {'peak MB':>8} {'receipt KB':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            template = Path(tmp) / "template"
            make_game(template, case)
            runs = [run_once(template, Path(tmp)) for _ in range(args.repeat)]
            shutil.rmtree(template)
            print(f"{case:45} {statistics.median(r[0] for r in runs):9.2f} "
                  f"{max(r[1] for r in runs) / 1024:8.0f} {max(r[2] for r in runs) / 1024:11.1f}")


if __name__ == "__main__":
    main()
