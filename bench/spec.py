"""What a benchmark game is (:class:`Spec`), its calendar (:func:`cutoff`) and the shape of its
players' emails (:func:`message`, and the words they draw from): a leaf, so the workload and a
game's own mail (``bench/workload_teams.py``) both import it and not each other."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.utils import format_datetime

#: bump when the generated game or mail changes, so stale caches are not reused
VERSION = 6  # 4: mechanics own their state (schema 2); 5: layout, currency, per-game rule ids;
# 6: the later Nomopoly II sections' commands from each player's situation (bench/workload_n2.py)
WORDS = ("square", "dice", "bank", "rent", "health", "card", "vote", "player", "week", "board",
         "money", "owner", "admin", "proposal", "token", "bonus", "fine", "end", "start", "turn")
STREETS = ("Park Lane", "Baker Street", "Mayfair", "Old Kent Road", "Fleet Street", "The Strand",
           "Bow Street", "Pall Mall", "Whitehall", "Euston Road", "Vine Street", "Oxford Street")


@dataclass(frozen=True)
class Spec:
    players: int = 200
    squares: int = 100
    seed: int = 7
    proposals_per_week: int = 3
    #: put the players into the init state (one edit) instead of one ``player add`` each; the
    #: state is the same, the log has no player-add entries. Setting up 1,000 players one by one
    #: costs O(n^2) (each ``add_player`` loads and saves every player): about 17 CPU-minutes.
    bulk_players: bool = False
    #: the bundled game it plays (nomopoly2-full: every section in force, and their commands mailed)
    game: str = "nomopoly2"

    @property
    def key(self) -> str:
        bulk = "-bulk" if self.bulk_players else ""
        game = "" if self.game == "nomopoly2" else f"-{self.game}"
        return f"v{VERSION}-p{self.players}-s{self.squares}-r{self.seed}-w{self.proposals_per_week}{bulk}{game}"


START = datetime(2026, 1, 5, tzinfo=timezone.utc)  # a Monday: week 1


def cutoff(update: int) -> datetime:
    """The deadline of the ``update``-th update: midnight Wednesday or midnight Saturday (IX.4)."""
    week, slot = divmod(update - 1, 2)
    day = 2 if slot == 0 else 5
    return START + timedelta(weeks=week, days=day + 1) - timedelta(seconds=1)


def message(name: str, update: int, seed: int, received: datetime, lines: list[str],
             rng: random.Random) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"Player {name} <{name}@example.org>"
    msg["To"] = "Nomopoly Admin <admin@example.org>"
    msg["Subject"] = rng.choice(("moves", f"Re: Nomopoly update {update - 1}", "my turn", ""))
    msg["Date"] = format_datetime(received)
    msg["Message-ID"] = f"<u{update:04d}.{name}.{seed}@bench.invalid>"
    body = "\n".join(lines) + "\n\n-- \n" + name + "\n"
    if rng.random() < 0.3:  # a reply quoting the game's last mail: never executed
        body += f"\nOn Sun, the game wrote:\n> VOTE 1 NO\n> Results of update {update - 1}\n"
    msg.set_content(body)
    return bytes(msg)


#: the one-update games of bench_hostile and bench_params: mail from a Maildir, the bench's dice key,
#: mail sent on Tuesday (``TUESDAY.format(minute)``) for Wednesday's update
CUTOFF = "2026-11-04T23:59:59+00:00"
TUESDAY = "2026-11-03T10:{:02d}:00+00:00"


def maildir_settings(title: str) -> str:
    """nomopoly.toml of a bench game named ``title`` that reads mail/inbox."""
    return (f'[game]\ntitle = "{title}"\nstart = "2026-11-02"\n[mail]\nsource = "maildir"\n'
            'maildir = "mail/inbox"\n[dice]\ninsecure_demo_seed_key = "bench"\n')
