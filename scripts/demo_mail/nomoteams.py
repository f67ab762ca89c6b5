"""Writes admin/games/nomoteams/demo/maildir: three weeks of the Teams and Government variant's mail
(run: python scripts/demo_mail/nomoteams.py).

One update a week, mail by Sunday midnight. The players' Teams are drawn in the first update.
Turns come only from proposals the Admin judges (the demo's game.yaml queues the Admin's
judgements before the update that applies them); dave gives square 5 to The Government, which
auctions it by sealed bids from week 2 and publishes the bids when week 3's update closes it."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "nomoteams" / "demo"
sys.path.insert(0, str(REPO))

from admin.demo import deliver, fresh_maildir  # noqa: E402

ADDR = {"alice": "Alice Archer <alice@example.org>", "bob": "Bob Baker <bob@example.net>",
        "carol": "carol@example.com", "dave": "Dave D. <dave@example.org>"}

MAIL = [
    # week 1: proposals, Best Friends, names, New Clear Fishing, a square for The Government to auction
    ("2026-11-03T09:00", "alice", "proposal", """PROPOSE Cheaper fishing
New Clear Fishing should cost less.

AMEND VI.7: Any player may pay $200 to create a new square, numbered higher than any other on the board.
END
NAME SQUARE 2 Alice Avenue
"""),
    ("2026-11-04T10:00", "bob", "hello", """STATUS
BEST FRIEND carol
NAME SQUARE 3 Baker Street
PROPOSE Quiet Sundays
Nothing happens on Sundays.
END
"""),
    ("2026-11-05T11:00", "carol", "friends", "BEST FRIEND bob\nNAME SQUARE 4 Carol's Corner\nREGISTER TO VOTE\n"),
    ("2026-11-06T12:00", "dave", "fishing", "NEW CLEAR FISHING\nGIVE SQUARE 5 TO GOVERNMENT\nHELP\n"),
    # week 2: square 5 is Going Once: sealed bids; more proposals
    ("2026-11-10T09:00", "alice", "a bid", "BID 40 ON 5\n"),
    ("2026-11-11T10:00", "bob", "a bid", "BID 45 ON 5\n"),
    ("2026-11-12T11:00", "carol", "proposal", """PROPOSE Louder Mondays
Everything happens on Mondays.
END
"""),
    ("2026-11-13T12:00", "dave", "proposal", """PROPOSE Shorter rules
REPEAL II.9
END
"""),
    # week 3: Going Twice; the auction closes at this update's end
    ("2026-11-17T09:00", "carol", "a bid", "BID 60 ON 5\n"),
    ("2026-11-18T10:00", "alice", "freemason", "DECLARE FREEMASON\nSTATUS\n"),
]


def main() -> None:
    out = HERE / "maildir"
    fresh_maildir(out)
    for n, (when, who, subject, body) in enumerate(MAIL, 1):
        deliver(out, n, when, ADDR[who], "Nomopoly Admin <admin@example.org>", subject, body,
                f"<demo-nt-{n:03d}.{who}@example.invalid>")


if __name__ == "__main__":
    main()
