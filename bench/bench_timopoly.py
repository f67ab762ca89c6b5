"""One update of a long Timopoly game: ``python -m bench.bench_timopoly [--players 8] [--updates 260]``.

Timopoly is played round a table (two to eight players, as the board game is), so the large game
here is eight players with a long history: ``--updates`` real updates, twice a week, every
player sending one email an update (standing orders, answers to the game's offers, bids on open
auctions, a Nom, a mortgage, STATUS), made with the real jobs on a Maildir and cached in
``bench/out/games``. The timed part is what ``nomopoly update`` does for the next update: intake,
parse, engine and state (:func:`admin.jobs.update.run_update_job`), the incremental site and the mail
out. Players start with a deep purse (``money.start_money``) so that the game lasts the whole
history instead of ending in a Fandomruptcy. Prints the median of ``--repeat`` runs."""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from admin.jobs import update as jobs
from admin.jobs.demo import SETTINGS
from admin.engine.config import set_param
from admin.store.gamedir import GameDir
from admin.mail.outbound.mailout import mail_out
from admin.games.registry import REGISTRY
from admin.library.interactions import InteractionsModule
from admin.games.timopoly.mechanics.deeds import TimoDeedsModule
from admin.games.timopoly.mechanics.spaces import space
from admin.site.build import build_site
from admin.store.statefiles import state_from_data
from admin.store.fileio import Transaction, dump_json, load_json
from admin.store.plain import to_data

OUT = Path(__file__).parent / "out" / "games"
START = datetime(2026, 1, 5, tzinfo=timezone.utc)  # a Monday
VERSION = 1


def cutoff(update: int) -> datetime:
    week, slot = divmod(update - 1, 2)
    return START + timedelta(weeks=week, days=3 if slot == 0 else 6) - timedelta(seconds=1)


def mail_for(game: GameDir, update: int, rng: random.Random) -> list[tuple[datetime, str, str]]:
    state = game.load()
    open_ = InteractionsModule.of(state).open
    deeds = TimoDeedsModule.of(state).deeds
    out = []
    start = cutoff(update - 1) if update > 1 else START - timedelta(days=1)
    for name, player in sorted(state.players.items()):
        if not player.active:
            continue
        lines = []
        if update == 1:
            lines.append(rng.choice(["ORDER BUY UNDER 20", "ORDER BUY ALL", "ORDER ASK", "ORDER BUY UNDER 12"]))
        for inter in open_:
            if inter.kind == "offer" and inter.parties == [name]:
                lines.append(rng.choice(["BUY", f"DECLINE {inter.id}"]))
            elif inter.kind == "auction" and name in inter.parties:
                lines.append(f"BID {inter.id} {rng.randint(1, 40)}")
        mine = [n for n, d in sorted(deeds.items()) if d.owner == name]
        if mine and rng.random() < 0.3:
            lines.append(f"BUY NOM ON {space(state, rng.choice(mine)).name}")
        if mine and rng.random() < 0.05:
            lines.append(f"MORTGAGE {rng.choice(mine)}")
        if rng.random() < 0.2:
            lines.append("STATUS")
        when = start + timedelta(seconds=rng.randint(60, 3 * 24 * 3600))
        out.append((when, name, "\n".join(lines or ["STATUS"]) + "\n"))
    return sorted(out)


def deliver(game: GameDir, update: int, mail: list[tuple[datetime, str, str]]) -> None:
    inbox = game.root / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    for i, (when, name, body) in enumerate(mail):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{name}@bench.invalid", "smof@bench.invalid", f"update {update}"
        msg["Date"], msg["Message-ID"] = format_datetime(when), f"<t{update}-{i}@bench.invalid>"
        msg.set_content(body)
        (inbox / "new" / f"{int(when.timestamp())}.U{update}M{i}.bench").write_bytes(bytes(msg))


def build(players: int, updates: int) -> GameDir:
    root = OUT / f"timopoly-v{VERSION}-p{players}-u{updates}"
    if (root / "state" / "game.yaml").exists():
        return GameDir(root)
    shutil.rmtree(root, ignore_errors=True)
    settings = SETTINGS.format(title="Timopoly bench", start=START.date().isoformat()).replace(
        'insecure_demo_seed_key = "nomopoly-demo"', 'insecure_demo_seed_key = "timopoly-bench"')
    game = jobs.init_game(root, "timopoly", "Timopoly bench", settings_text=settings)
    with game.lock():  # a deep purse, in the init state too, so that replay starts from it
        init = game.log_entries()[0]
        entry = load_json(init)
        state = state_from_data(entry["state"], str(init))
        set_param(state, REGISTRY, "money", "start_money", 10**6)
        tx = Transaction(game.state_dir)
        game.stage_state(tx, state)
        tx.write(init, dump_json({**entry, "state": to_data(state)}))
        tx.commit()
    for i in range(players):
        jobs.add_player(game, f"p{i:02d}", f"p{i:02d}@bench.invalid")
    rng = random.Random(7)
    for update in range(1, updates + 1):
        deliver(game, update, mail_for(game, update, rng))
        jobs.run_update_job(game, at=cutoff(update))
        if update % 50 == 0:
            print(f"  history: update {update}")
    build_site(game)
    return game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=8)
    ap.add_argument("--updates", type=int, default=260)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    base = build(args.players, args.updates)
    times = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            game = GameDir(shutil.copytree(base.root, Path(tmp) / "g", symlinks=True))
            update = game.load().update + 1
            deliver(game, update, mail_for(game, update, random.Random(update)))
            t0 = time.perf_counter()
            outcome = jobs.run_update_job(game, at=cutoff(update))
            build_site(game, state=outcome.state)
            mail_out(game, update, state=outcome.state)
            times.append(time.perf_counter() - t0)
    print(f"timopoly p{args.players} h{args.updates}: one update {statistics.median(times):.2f} s "
          f"(median of {len(times)}: {', '.join(f'{t:.2f}' for t in times)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
