"""Writes admin/games/timopoly/demo/maildir: the Timopoly demo's player emails for two weeks.

Run ``python scripts/demo_mail/timopoly.py``. Some emails
answer what the game asked (a deed offered, an auction open), so the script plays the demo as it
goes: before each update it looks at the game as the last update left it, writes that update's
emails, and runs the update, exactly as ``nomopoly demo --game timopoly`` will replay them."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "timopoly" / "demo"
sys.path.insert(0, str(REPO))

from admin.jobs.demo import write_demo_mail  # noqa: E402
from admin.library.interactions import InteractionsModule  # noqa: E402
from admin.games.timopoly.mechanics.deeds import TimoDeedsModule  # noqa: E402
from admin.games.timopoly.mechanics.spaces import space  # noqa: E402
from admin.engine.model import GameState  # noqa: E402

ADDR = {"tim": "Tim T. <tim@example.org>", "ursula": "Ursula <ursula@example.net>",
        "vera": "vera@example.com", "walt": "Walt W. <walt@example.org>"}

#: the emails each update gets whatever happened, by (update, sent at, who, subject, body)
FIXED = [
    (1, "2026-11-02T09:00", "tim", "Standing orders", "Hi SMOF,\n\nORDER BUY UNDER 15\nSTATUS\n\nTim\n"),
    (1, "2026-11-02T12:30", "ursula", "orders", "ORDER BUY ALL\n"),
    (1, "2026-11-03T08:15", "vera", "Jail and buying", "ORDER BUY NONE\nORDER PAY JAIL FINE\n"),
    (1, "2026-11-04T21:00", "walt", "Count me in", "Hi SMOF, count me in!\nORDER ASK\n\n-- \nWalt\n"),
    (2, "2026-11-06T11:00", "vera", "Buying after all", "ORDER BUY UNDER 25\n"),
    (4, "2026-11-13T18:00", "vera", "Status", "STATUS\n"),
]
CUTOFFS = [f"2026-11-{d:02d}T23:59:59+00:00" for d in (4, 7, 11, 14)]


def controlled(state: GameState, name: str) -> list[str]:
    """The names of the deeds ``name`` controls, in board order."""
    deeds = TimoDeedsModule.of(state).deeds
    return [space(state, n).name for n, d in sorted(deeds.items()) if d.owner == name]


def situational(state: GameState, update: int) -> list[tuple[str, str, str, str]]:
    """Emails about what a player holds by then: tim buys a Nom on his first deed (update 2),
    ursula mortgages her last one (update 3)."""
    out = []
    if update == 2 and controlled(state, "tim"):
        out.append(("2026-11-06T10:00", "tim", "A Nom", f"BUY NOM ON {controlled(state, 'tim')[0]}\n"))
    if update == 3 and controlled(state, "ursula"):
        out.append(("2026-11-09T11:00", "ursula", "Mortgage", f"MORTGAGE {controlled(state, 'ursula')[-1]}\n"))
    return out


def answers(state: GameState, update: int) -> list[tuple[str, str, str, str]]:
    """Emails answering the game's open questions: walt buys what he is offered; everyone bids
    on open auctions (tim bids most)."""
    out = []
    bids = {"tim": 12, "ursula": 9, "vera": 7, "walt": 5}
    day = {2: "2026-11-06", 3: "2026-11-10", 4: "2026-11-13"}[update]
    for inter in InteractionsModule.of(state).open:
        if inter.kind == "offer" and inter.parties == ["walt"]:
            out.append((f"{day}T20:00", "walt", "Yes please", "BUY\n"))
        elif inter.kind == "auction":
            for name in inter.parties:
                out.append((f"{day}T{9 + len(out):02d}:30", name, "My bid", f"BID {inter.id} {bids[name]}\n"))
    return out


def write(out: Path) -> int:
    """Play the demo's four updates, writing each one's emails into the Maildir ``out``."""
    def mail_for(state: GameState, update: int) -> list[tuple[str, str, str, str]]:
        mail = [(w, who, s, b) for u, w, who, s, b in FIXED if u == update]
        if update > 1:
            mail += answers(state, update) + situational(state, update)
        return [(when, ADDR[who], subject, body) for when, who, subject, body in sorted(mail)]

    return write_demo_mail("timopoly", out, CUTOFFS, "Timopoly SMOF <admin@example.org>", "timopoly-demo", mail_for)


def main() -> None:
    out = HERE / "maildir"
    print(f"wrote {write(out)} emails to {out}")


if __name__ == "__main__":
    main()
