"""The site build on a large game: full and incremental, pages per second, and Pelican as a peer.

    python -m bench.bench_site                  # 200 players, 100 squares, 260 updates
    python -m bench.bench_site --players 50 --updates 20 --repeat 1   # a smoke run

The game is synthesised straight into its public files (state/*.yaml, the weekly proposal
archives, rules_history.yaml, 260 results files): far faster than playing 260 updates, and the
site build reads nothing else. Then, in the same run and taking turns:

* a full build of the 260-update site (``build --full``);
* an incremental build after one more update (the 261st results file, new money, a new commitment:
  the old update pages are kept, the live pages and the player pages are rendered again); its
  output is checked byte for byte against a full build of the same state;
* Pelican building as many markdown pages as the full build wrote (``bench.peers``).

Printed: seconds, pages, pages per second and the ratios. Medians of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from admin.engine import hooks
from admin.games.catalog import initial_state
from admin.games.registry import REGISTRY
from admin.library.cards import set_hand
from admin.library.health import set_health
from admin.library.ownership import set_owner
from admin.store.gamedir import GameDir, archive_text, state_files
from admin.engine.model import (GameState, Player, Proposal, RuleRevision, Square, Tally,
                         Vote)
from admin.nomic.ruleset import load_ruleset
from admin.site.build import build
from admin.store.fileio import dump_json

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("square", "dice", "bank", "rent", "health", "card", "vote", "player", "week", "board",
         "money", "owner", "admin", "proposal", "token", "bonus", "fine", "turn")


def _hex(*parts: object) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()


def _results(rng: random.Random, update: int, names: list[str], squares: int,
             money: dict[str, int]) -> dict:
    """One update's public results: ~4 events per player, two dice per player, the money."""
    events, rolls = [{"kind": "update", "text": f"Update {update} begins.", "ok": True}], []
    for i, name in enumerate(names):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        rolls += [[f"u{update}/{name}/d1", 6, a], [f"u{update}/{name}/d2", 6, b]]
        events.append({"kind": "roll", "text": f"{name} rolled {a} and {b}.", "player": name,
                       "rule": "VII.1"})
        to = rng.randint(1, squares)
        events.append({"kind": "move", "text": f"{name} moved to square {to}.", "player": name,
                       "rule": "VI.5"})
        if rng.random() < 0.5:
            rent = 2 * to
            money[name] -= rent
            events.append({"kind": "rent", "text": f"{name} paid ${rent} rent for square {to}.",
                           "player": name, "rule": "VI.11"})
        else:
            money[name] += 200
            events.append({"kind": "pass-bonus", "text": f"{name} passed square 1: +$200.",
                           "player": name, "rule": "VI.9"})
        if i % 37 == update % 37:
            events.append({"kind": "action", "text": f'{name}: "BUY {to + 1}" was not done: you can '
                           "only buy a square you landed on", "player": name, "rule": "XIII.3",
                           "ok": False})
    return {"update": update, "week": (update + 1) // 2, "slot": ("Thursday", "Sunday")[(update - 1) % 2],
            "cutoff": f"2026-{1 + (update // 60) % 12:02d}-{1 + update % 28:02d}T23:59:59+00:00",
            "events": events,
            "dice": {"seed": _hex("seed", update), "commitment": _hex("commit", update),
                     "hidden_commitment": _hex("hidden", update), "digest": _hex("digest", update),
                     "rolls": rolls},
            "next_commitment": _hex("commit", update + 1),
            "next_hidden_commitment": _hex("hidden", update + 1),
            "money": dict(money), "net_worth": {n: m + 500 for n, m in money.items()}}


def _proposal(rng: random.Random, number: int, week: int, names: list[str], live: bool) -> Proposal:
    proposer = names[number % len(names)]
    text = " ".join(rng.choice(WORDS) for _ in range(80))
    votes = {}
    for n in names:
        if live and rng.random() < 0.4:
            continue
        changed = ["no"] if rng.random() < 0.05 else []
        votes[n] = Vote(n, rng.choice(("yes", "no", "abstain")), week * 2, changed_from=changed,
                        weight=2 if rng.random() < 0.02 else 1)
    p = Proposal(number=number, proposer=proposer, title=f"Proposal {number}: {text[:40]}",
                 text=f"{text}\n\n- {text[:60]}\n- {text[60:120]}", week=week, update=week * 2 - 1,
                 votes=votes, status="voting" if live else "rejected")
    if not live:
        yes = sum(v.weight for v in votes.values() if v.choice == "yes")
        no = sum(v.weight for v in votes.values() if v.choice == "no")
        p.status = "accepted" if yes > no else rng.choice(("rejected", "rejected", "vetoed"))
        p.closed_update = week * 2
        p.tally = Tally(yes=yes, no=no, abstain=len(names) - yes - no, missing=[],
                        money={proposer: 50} if p.status == "accepted" else {},
                        cards_to=[proposer] + [n for n, v in votes.items() if v.choice == "yes"][:5]
                        if p.status == "accepted" else [])
        if p.status == "accepted" and number % 3 == 0:
            p.changed_rules = ["VI.11"]
    return p


def synthesise(root: Path, players: int, squares: int, updates: int, seed: int = 1) -> GameDir:
    """A game after ``updates`` updates, written as the public files the site reads."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    shutil.copytree(ROOT / "rules_md", root / "rules_md")
    (root / "nomopoly.toml").write_text('[site]\ntitle = "Bench Nomopoly"\n'
                                        'url = "https://bench.example.org/game"\n', encoding="utf-8")
    names = [f"player{i:03d}" for i in range(players)]
    money = {n: 10_000 for n in names}
    results = root / "state" / "results"
    results.mkdir(parents=True)
    (results / "0000.json").write_text(dump_json({"update": 0, "next_commitment": _hex("commit", 1),
                                                  "next_hidden_commitment": _hex("hidden", 1)}),
                                       encoding="utf-8")
    for u in range(1, updates + 1):
        (results / f"{u:04d}.json").write_text(dump_json(_results(rng, u, names, squares, money)),
                                               encoding="utf-8")
    week = (updates + 1) // 2 + 1
    rules = load_ruleset(root / "rules_md")
    state = initial_state("nomopoly2", "bench")
    state.update, state.week, state.rules = updates, week, rules
    state.squares = [Square(number=n, name=f"Street {n}" if n % 3 else None) for n in range(1, squares + 1)]
    state.next_commitment, state.next_hidden_commitment = _hex("commit", updates + 1), _hex("hidden", updates + 1)
    for i, n in enumerate(names):
        state.players[n] = Player(name=n, money=money[n], square=1 + i % squares)
        hooks.call(state, REGISTRY).on_player_added(state, state.players[n])
        set_health(state, n, 100 - i % 50)
        set_hand(state, n, ["2H"] * (i % 3))
    for n in range(1, squares + 1):
        if n % 2:
            set_owner(state, n, names[n % players])
    for rule in list(rules.rules())[:20]:
        state.rule_history[rule.id] = [
            RuleRevision(1, "created", 0, 0, text=rule.text + " (first wording)"),
            RuleRevision(2, "amended", 10, 5, proposal=3, old_text=rule.text + " (first wording)",
                         text=rule.text)]
    number = 1
    for w in range(1, week):
        archived = [_proposal(rng, number + i, w, names, live=False) for i in range(2)]
        number += 2
        (root / "state" / "proposals").mkdir(exist_ok=True)
        (root / "state" / "proposals" / f"week-{w:04d}.json").write_text(archive_text(archived),
                                                                         encoding="utf-8")
        state.archived.update({p.number: p.status for p in archived})
    state.proposals = [_proposal(rng, number + i, week, names, live=True) for i in range(3)]
    state.next_proposal = number + 3
    _save(root, state)
    return GameDir(root)


def _save(root: Path, state: GameState) -> None:
    for name, text in state_files(state).items():
        if name.endswith("private.yaml") or name.startswith("state/private/"):
            continue
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "state" / "private.yaml").write_text("{}\n", encoding="utf-8")


def one_more_update(game: GameDir, seed: int = 2) -> None:
    """The next update: its results file, new money, the next commitments."""
    rng = random.Random(seed)
    state = game.load_public(archive=False)
    u = state.update + 1
    money = {n: p.money for n, p in state.players.items()}
    data = _results(rng, u, sorted(state.players), len(state.squares), money)
    (game.state_dir / "results" / f"{u:04d}.json").write_text(dump_json(data), encoding="utf-8")
    for n, p in state.players.items():
        p.money = money[n]
    state.update, state.next_commitment = u, _hex("commit", u + 1)
    state.next_hidden_commitment = _hex("hidden", u + 1)
    _save(game.root, state)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def run(players: int, squares: int, updates: int, repeat: int, pelican: bool) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="nomopoly-bench-site-"))
    try:
        t0 = time.perf_counter()
        base = synthesise(tmp / "base", players, squares, updates)
        print(f"synthesised {players} players, {squares} squares, {updates} updates "
              f"in {time.perf_counter() - t0:.1f} s")
        fulls, incs, peers, rendered, pages = [], [], [], 0, 0
        peer, base_site = None, None
        for i in range(repeat):
            game = GameDir(shutil.copytree(base.root, tmp / f"run{i}"))
            full = build(game, full=True)
            fulls.append(full.seconds)
            pages = full.files
            one_more_update(game)
            inc = build(game)
            incs.append(inc.seconds)
            rendered = len(inc.rendered)
            check = build(game, tmp / f"check{i}", full=True)
            if base_site is None:
                base_site = shutil.copytree(check.out, tmp / "kept-site")
            if _tree(inc.out) != _tree(check.out):
                print("FAIL: the incremental build differs from a full build", file=sys.stderr)
                return 1
            if pelican:
                if peer is None:
                    from bench.peers import PelicanPeer

                    peer = PelicanPeer(pages)
                peers.append(peer.run())
            shutil.rmtree(game.root)
            shutil.rmtree(check.out)
        if peer is not None:
            peer.close()
        full_s, inc_s = statistics.median(fulls), statistics.median(incs)
        size = sum(len(b) for b in _tree(base_site).values()) if base_site else 0
        print(f"\nsite of {pages} files (pages + state.json, feed, sitemap), {size / 1e6:.1f} MB "
              f"({size / max(pages, 1) / 1e3:.0f} KB a page on average; the Pelican pages are ~2 KB), "
              f"median of {repeat}:")
        print(f"  nomopoly full build          {full_s:8.2f} s   {pages / full_s:8.1f} pages/s")
        print(f"  nomopoly incremental (+1 upd) {inc_s:7.2f} s   {pages / inc_s:8.1f} pages/s "
              f"({rendered} rendered, {pages - rendered} kept; byte-identical to a full build)")
        if peers:
            peer_s = statistics.median(peers)
            print(f"  Pelican, {pages} markdown pages {peer_s:6.2f} s   {pages / peer_s:8.1f} pages/s")
            print(f"  ratio full / Pelican: {full_s / peer_s:.2f}   "
                  f"incremental / Pelican: {inc_s / peer_s:.2f}")
        else:
            print("  Pelican: not installed (pip install pelican markdown); no peer figure")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--squares", type=int, default=100)
    ap.add_argument("--updates", type=int, default=260)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-pelican", action="store_true")
    args = ap.parse_args(argv)
    return run(args.players, args.squares, args.updates, args.repeat, not args.no_pelican)


if __name__ == "__main__":
    sys.exit(main())
