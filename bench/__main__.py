"""``python -m bench``: the benchmarks of issue 7, printed as one table of medians.

    python -m bench                       # the full run (builds the cached histories first)
    python -m bench --quick               # a smoke run: a 50-player game, 10 updates of history
    python -m bench --save bench/baseline.json
    python -m bench --compare bench/baseline.json
    python -m bench --profile             # also cProfile one update of the large game
    python -m bench --game nomopoly1 --only-large --against nomopoly2 --skip site --skip replay
                                          # only the large update, and the same of another game
    python -m bench --game nomopoly2-full --determinism   # its update twice from copies (site and mail in one
                                          # process, then side by side): the same bytes?

Everything that is compared is measured in the same run, taking turns (see ``measure``), against
one throw-away Dovecot on loopback (admin.runtime.dovecot). See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from admin.site.build import build_site
from admin.runtime.dovecot import DovecotServer
from bench import determinism, pipeline, workload
from bench.peers import PelicanPeer, pelican_available

ROOT = Path(__file__).resolve().parents[1]
MB = 1024 * 1024


@dataclass(frozen=True)
class Plan:
    large: workload.Spec
    histories: tuple[int, ...]  #: history lengths of the large game (the last is "the" update)
    players: tuple[int, ...]  #: player counts, each at the shortest history
    repeat: int
    replay_repeat: int
    #: the same large update of another bundled game, timed in turn with it (a ratio, same run)
    against: workload.Spec | None = None


FULL = Plan(workload.Spec(players=200), (10, 100, 260), (50, 200, 1000), repeat=3, replay_repeat=1)
QUICK = Plan(workload.Spec(players=50), (10, 20), (50,), repeat=2, replay_repeat=1)


@dataclass
class Results:
    runs: dict[str, list[float]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def add(self, name: str, value: float) -> None:
        self.runs.setdefault(name, []).append(value)

    def median(self, name: str) -> float | None:
        values = self.runs.get(name)
        return statistics.median(values) if values else None


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and by the children it has waited for: the forked
    processes an update's site build and mail-out use (admin/runtime/forking.py) count too."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram_gb": round(ram, 1),
            "python": platform.python_version(), "system": platform.platform(),
            "load_avg_at_start": [round(x, 2) for x in os.getloadavg()]}


# -- the measurements ----------------------------------------------------------------------------
def scaling_cases(plan: Plan) -> list[tuple[str, workload.Spec, int]]:
    """(name, spec, history) of every update to time; the first is "the" update of the large game."""
    large = plan.large
    cases = [(f"update p{large.players} h{h}", large, h) for h in reversed(plan.histories)]
    for n in plan.players:
        if n != large.players:
            spec = workload.Spec(players=n, squares=large.squares, seed=large.seed, bulk_players=n >= 1000,
                                 game=large.game)
            cases.append((f"update p{n} h{plan.histories[0]}", spec, plan.histories[0]))
    if plan.against is not None:
        cases.append((against_case(plan), plan.against, plan.histories[-1]))
    return cases


def against_case(plan: Plan) -> str:
    assert plan.against is not None
    return f"update p{plan.against.players} h{plan.histories[-1]} ({plan.against.game})"


def time_updates(plan: Plan, server: DovecotServer, res: Results, echo) -> None:
    cases = [(name, spec, workload.history(spec, h, echo)) for name, spec, h in scaling_cases(plan)]
    main_case = cases[0][0]
    for r in range(plan.repeat):
        for name, spec, base in cases:  # taking turns: load from elsewhere spreads over all cases
            with tempfile.TemporaryDirectory(prefix="nomopoly-bench-", dir=ROOT / "bench" / "out") as tmp:
                p = pipeline.prepare(base, spec, server, Path(tmp))
                gc.collect()
                cpu = cpu_seconds()
                t = pipeline.run_update(p, server)
                res.add(f"{name} cpu", cpu_seconds() - cpu)
                res.add(name, t.total)
                res.add(f"{name} per email", t.total / p.emails)
                if name == main_case:
                    res.add("  intake+parse+engine+state", t.update)
                    res.add("  incremental site", t.site)
                    res.add("  outbox", t.outbox)
                    cpu = cpu_seconds()
                    res.add("floor (bare IMAP fetch + bare jinja2 pages)",
                            pipeline.run_floor(server, p.floor_user, p.emails, t.pages))
                    res.add("floor cpu", cpu_seconds() - cpu)
                    res.info["update pages"] = t.pages
                    res.info["update emails"] = p.emails
                echo(f"  run {r + 1}: {name}: {t.total:.2f} s")


def time_site(plan: Plan, res: Results, echo) -> None:
    base = workload.history(plan.large, plan.histories[-1], echo)
    with tempfile.TemporaryDirectory(prefix="nomopoly-site-") as tmp:
        out = build_site(base, Path(tmp) / "site", full=True)
        pages = len(list(out.rglob("*.html")))
        res.info["site pages"] = pages
        peer = PelicanPeer(pages) if pelican_available() else None
        try:
            for r in range(plan.repeat):
                started, cpu = time.perf_counter(), cpu_seconds()
                build_site(base, Path(tmp) / "site", full=True)
                ours = time.perf_counter() - started
                res.add("full site build", ours)
                res.add("full site build per page", ours / pages)
                res.add("full site build cpu per page", (cpu_seconds() - cpu) / pages)
                if peer is not None:
                    cpu = cpu_seconds()
                    theirs = peer.run()
                    res.add("Pelican build (same page count)", theirs)
                    res.add("Pelican build per page", theirs / pages)
                    res.add("Pelican build cpu per page", (cpu_seconds() - cpu) / pages)
                echo(f"  run {r + 1}: site {ours:.2f} s for {pages} pages"
                     + (f", Pelican {theirs:.2f} s" if peer else ""))
        finally:
            if peer is not None:
                peer.close()


def child(args: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of ``python -m bench.child ...``, from the child's own VmHWM."""
    started = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    peak = next(int(line.split()[1]) for line in reversed(done.stdout.splitlines())
                if line.startswith("peak_kb "))
    return elapsed, peak / 1024


def time_replay_and_memory(plan: Plan, server: DovecotServer, res: Results, echo) -> None:
    spec, h = plan.large, plan.histories[-1]
    base = workload.history(spec, h, echo)
    with tempfile.TemporaryDirectory(prefix="nomopoly-bench-", dir=ROOT / "bench" / "out") as tmp:
        p = pipeline.prepare(base, spec, server, Path(tmp))
        seconds, rss = child([sys.executable, "-m", "bench.child", "update", str(p.game.root), server.host,
                              str(server.port), p.user, str(p.update), p.cutoff.isoformat(), str(p.emails)])
        res.add("peak memory, one update (MB)", rss)
        echo(f"  update in a child: {seconds:.2f} s, peak RSS {rss:.0f} MB")
    for r in range(plan.replay_repeat):
        seconds, rss = child([sys.executable, "-m", "bench.child", "replay", str(base.root)])
        res.add(f"replay --check ({h} updates)", seconds)
        res.add("peak memory, replay --check (MB)", rss)
        echo(f"  replay --check: {seconds:.2f} s, peak RSS {rss:.0f} MB")


def profile_update(plan: Plan, server: DovecotServer, echo, top: int = 30) -> str:
    spec, h = plan.large, plan.histories[-1]
    base = workload.history(spec, h, echo)
    with tempfile.TemporaryDirectory(prefix="nomopoly-bench-", dir=ROOT / "bench" / "out") as tmp:
        p = pipeline.prepare(base, spec, server, Path(tmp))
        prof = cProfile.Profile()
        prof.enable()
        pipeline.run_update(p, server)
        prof.disable()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(top)
    return text.getvalue()


def check_determinism(plan: Plan, echo) -> int:
    spec, h = plan.large, plan.histories[-1]
    base = workload.history(spec, h, echo)
    with tempfile.TemporaryDirectory(prefix="nomopoly-determinism-", dir=ROOT / "bench" / "out") as tmp:
        update, diff = determinism.update_twice(base, spec, Path(tmp))
        files = sum(1 for f in (Path(tmp) / "a" / "state").rglob("*") if f.is_file())
        pages = sum(1 for f in (Path(tmp) / "a" / "site").rglob("*") if f.is_file())
    print(f"update {update} of {base.root.name}, run twice from copies (the site and mail in one "
          "process, then side by side): " + (f"{files} state files and {pages} site files byte-identical"
                                             if not diff else f"{len(diff)} of {files + pages} files differ:"))
    for name in diff[:50]:
        print(f"  {name}")
    return 1 if diff else 0


# -- the table -----------------------------------------------------------------------------------
def ratios_and_targets(plan: Plan, res: Results) -> list[tuple[str, float | None, str, bool | None]]:
    """(what, value, target, met) rows."""
    main = scaling_cases(plan)[0][0]
    h0, h1 = plan.histories[0], plan.histories[-1]
    big = plan.large.players
    rows: list[tuple[str, float | None, str, bool | None]] = []

    def ratio(a: str, b: str) -> float | None:
        x, y = res.median(a), res.median(b)
        return x / y if x is not None and y else None

    def row(what: str, value: float | None, target: str, ok) -> None:
        rows.append((what, value, target, None if value is None else bool(ok(value))))

    row(f"{main} (s)", res.median(main), "< 2 s", lambda v: v < 2)
    row(f"{main}, CPU time (s)", res.median(f"{main} cpu"), "< 2 s", lambda v: v < 2)
    row("update / floor", ratio(main, "floor (bare IMAP fetch + bare jinja2 pages)"), "<= 3x", lambda v: v <= 3)
    row("update / floor, CPU time", ratio(f"{main} cpu", "floor cpu"), "<= 3x", lambda v: v <= 3)
    row("site per page / Pelican per page", ratio("full site build per page", "Pelican build per page"),
        "<= 1x", lambda v: v <= 1)
    row("site per page / Pelican per page, CPU", ratio("full site build cpu per page",
                                                       "Pelican build cpu per page"), "<= 1x", lambda v: v <= 1)
    if h1 != h0:
        row(f"update h{h1} / h{h0}", ratio(f"update p{big} h{h1}", f"update p{big} h{h0}"), "<= 1.5x",
            lambda v: v <= 1.5)
        row(f"update h{h1} / h{h0}, CPU time", ratio(f"update p{big} h{h1} cpu", f"update p{big} h{h0} cpu"),
            "<= 1.5x", lambda v: v <= 1.5)
    if plan.against is not None:
        other = against_case(plan)
        row(f"{plan.large.game} / {plan.against.game} update", ratio(main, other), "(info)", lambda v: True)
        row(f"{plan.large.game} / {plan.against.game} update, CPU", ratio(f"{main} cpu", f"{other} cpu"),
            "(info)", lambda v: True)
    for n in plan.players:
        if n != big:
            r = ratio(f"update p{n} h{h0} per email", f"update p{big} h{h0} per email")
            # linear: the cost per email stays flat; allow 25 % for noise
            row(f"per-email cost p{n} / p{big} (h{h0})", r, "<= 1.25x" if n > big else "(info)",
                (lambda v: v <= 1.25) if n > big else (lambda v: True))
    for name in ("peak memory, one update (MB)", "peak memory, replay --check (MB)"):
        row(name, res.median(name), "< 300 MB", lambda v: v < 300)
    return rows


def print_table(res: Results, rows, out=print) -> None:
    width = max(len(n) for n in res.runs) if res.runs else 20
    out(f"\n{'measurement':<{width}}  {'median':>10}  {'min':>10}  runs")
    for name, values in res.runs.items():
        unit = "MB" if "MB" in name else "s"
        fmt = (lambda v: f"{v:10.1f}") if unit == "MB" else (lambda v: f"{v:10.4f}" if v < 0.1 else f"{v:10.3f}")
        out(f"{name:<{width}}  {fmt(statistics.median(values))}  {fmt(min(values))}  {len(values)}")
    out(f"\n{'ratio / target':<44}  {'value':>8}  {'target':>9}  result")
    for what, value, target, met in rows:
        shown = "n/a" if value is None else f"{value:8.2f}"
        verdict = "n/a" if met is None else ("met" if met else "MISSED")
        out(f"{what:<44}  {shown:>8}  {target:>9}  {verdict}")


def compare(res: Results, baseline_path: Path, out=print) -> int:
    base = json.loads(baseline_path.read_text(encoding="utf-8"))
    out(f"\ncompared with {baseline_path} ({base.get('when', '?')}, {base['machine']['cpu']}, "
        f"{base['machine']['nproc']} CPUs):")
    out(f"{'measurement':<48}  {'baseline':>9}  {'now':>9}  change")
    worse = 0
    for name, values in res.runs.items():
        old = base["medians"].get(name)
        now = statistics.median(values)
        if old is None:
            out(f"{name:<48}  {'-':>9}  {now:9.3f}  new")
            continue
        change = now / old - 1 if old else 0.0
        flag = "  SLOWER" if change > 0.20 else ("  faster" if change < -0.20 else "")
        worse += change > 0.20
        out(f"{name:<48}  {old:9.3f}  {now:9.3f}  {change:+6.0%}{flag}")
    out(f"{worse} measurement(s) more than 20 % worse than the baseline")
    return 1 if worse else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: small game, short history")
    ap.add_argument("--repeat", type=int, help="runs per measurement (median reported)")
    ap.add_argument("--save", type=Path, help="write the results as a baseline JSON file")
    ap.add_argument("--compare", type=Path, help="compare with a baseline JSON file")
    ap.add_argument("--profile", action="store_true", help="cProfile one update of the large game")
    ap.add_argument("--skip", action="append", default=[], choices=("updates", "site", "replay"),
                    help="leave out a group of measurements")
    ap.add_argument("--history", type=int, help="with --only-large or --determinism: the history length of "
                                                "the large game (default: the plan's longest)")
    ap.add_argument("--determinism", action="store_true",
                    help="only check that the large game's next update, run twice from copies, leaves "
                         "byte-identical state")
    ap.add_argument("--game", default="nomopoly2", help="the bundled game the workload plays (nomopoly2-full: "
                                                        "every section in force; nomoteams: the Teams variant's "
                                                        "mail and the Admin's judgements, bench/workload_teams.py)")
    ap.add_argument("--only-large", "--large-only", action="store_true",
                    help="time only the large game's update after the longest history (no other history "
                         "lengths or player counts)")
    ap.add_argument("--against", metavar="GAME",
                    help="also time the same large update of another bundled game, in turn with it, "
                         "and print the ratio")
    args = ap.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.game != "nomopoly2":
        plan = Plan(replace(plan.large, game=args.game), plan.histories, plan.players, plan.repeat,
                    plan.replay_repeat)
    if args.only_large:
        plan = replace(plan, histories=plan.histories[-1:], players=(plan.large.players,))
    if args.against:
        plan = replace(plan, against=replace(plan.large, game=args.against))
    if args.repeat:
        plan = replace(plan, repeat=args.repeat)
    if args.history:
        plan = replace(plan, histories=(*[h for h in plan.histories if h < args.history], args.history))
    echo = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
    if args.determinism:
        return check_determinism(plan, echo)
    res = Results(info={"machine": machine(), "plan": repr(plan)})
    for _, spec, h in scaling_cases(plan):  # build (or find) every cached history first
        workload.history(spec, h, echo)
    server = DovecotServer()
    try:
        server.start()
        if "updates" not in args.skip:
            time_updates(plan, server, res, echo)
        if "site" not in args.skip:
            time_site(plan, res, echo)
        if "replay" not in args.skip:
            time_replay_and_memory(plan, server, res, echo)
        profile = profile_update(plan, server, echo) if args.profile else None
    finally:
        server.cleanup()
    res.info["machine"]["load_avg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    m = res.info["machine"]
    print(f"machine: {m['nproc']} CPUs, {m['cpu']}, {m['ram_gb']} GB RAM, Python {m['python']}; "
          f"load average {m['load_avg_at_start']} at start, {m['load_avg_at_end']} at end")
    print(f"plan: {'quick' if args.quick else 'full'}; {res.info}")
    rows = ratios_and_targets(plan, res)
    print_table(res, rows)
    if profile:
        print("\n" + profile)
    if args.save:
        args.save.write_text(json.dumps({
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "mode": "quick" if args.quick else "full",
            "machine": res.info["machine"], "info": {k: v for k, v in res.info.items() if k != "machine"},
            "medians": {k: statistics.median(v) for k, v in res.runs.items()}, "runs": res.runs,
            "targets": [{"what": w, "value": v, "target": t, "met": ok} for w, v, t, ok in rows],
        }, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"\nsaved {args.save}")
    if args.compare:
        return compare(res, args.compare)
    return 0


if __name__ == "__main__":
    sys.exit(main())
