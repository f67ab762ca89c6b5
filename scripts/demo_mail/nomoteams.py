"""Writes admin/games/nomoteams/demo/maildir: four weeks of the Teams and Government variant's mail
(run: python scripts/demo_mail/nomoteams.py).

One update a week, mail by Sunday midnight. The players' Teams are drawn in the first update.
Turns come only from proposals the Admin judges (the demo's game.yaml queues the Admin's
judgements before the update that applies them); dave gives square 5 to The Government, which
auctions it by sealed bids from week 2 and publishes the bids when week 3's update closes it.
The later sections play too: alice paints her square a Corporate Colour (XIII.3) and accuses dave
(XXVII); both choose a Government Court and the Admin decides it before week 4; carol pays the
WETHA its Dues (XXVIII.2); bob bids for the Taxi Driver's job (XXXII.1), buys the Glue Stick the
Admin made a Repackaged Product (XIX.2) and takes a Taxi (XXI.4); dave buys a Blockbuster and
places it in secret (XIX.4): it goes off at the end of week 4 (XVIII.2). When the demo ends
alice's Blockbuster, carol's job bid and alice's bid for square 4 (carol gave it to The
Government) are still secret."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "nomoteams" / "demo"
sys.path.insert(0, str(REPO))

from admin.jobs.demo import deliver, fresh_maildir  # noqa: E402

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
    # week 2, the later sections: paint, a dispute, WETHA Dues, a job bid, a Repackaged Product
    ("2026-11-13T13:00", "alice", "paint and a dispute", """PAINT 2 Red
ACCUSE dave PENALTY PAY 50: he gave square 5 away to dodge the White square fine
"""),
    ("2026-11-13T14:00", "carol", "dues", "PAY DUES 30\n"),
    ("2026-11-14T09:00", "bob", "a job and a product", "BID JOB TAXI DRIVER 30\nPURCHASE GLUE STICK\n"),
    # week 3: Going Twice; the auction closes at this update's end
    ("2026-11-17T09:00", "carol", "a bid", "BID 60 ON 5\nGIVE SQUARE 4 TO GOVERNMENT\n"),
    ("2026-11-18T10:00", "alice", "freemason", "DECLARE FREEMASON\nSTATUS\nDISPUTE 1 COURT\n"),
    ("2026-11-19T11:00", "dave", "court, and a secret", """DISPUTE 1 COURT
DISPUTE 1 ARGUE the square went to The Government, as the rules allow
PURCHASE BLOCKBUSTER
PLACE BLOCKBUSTER ON 7
"""),
    # week 4: the Admin has decided the dispute; bob rides a Taxi; the Blockbuster goes off
    ("2026-11-24T09:00", "bob", "a taxi", "TAXI! 12\nSTATUS\n"),
    ("2026-11-25T10:00", "carol", "favourite", "FAVOURITE SQUARE 3\nBID JOB HEAD GIPPER 55\n"),
    # still secret when the demo ends: alice's Blockbuster, carol's job bid, alice's bid on square 4
    ("2026-11-26T11:00", "alice", "another secret", """PURCHASE BLOCKBUSTER
PLACE BLOCKBUSTER ON 9
BID 35 ON 4
"""),
]


def main() -> None:
    out = HERE / "maildir"
    fresh_maildir(out)
    for n, (when, who, subject, body) in enumerate(MAIL, 1):
        deliver(out, n, when, ADDR[who], "Nomopoly Admin <admin@example.org>", subject, body,
                f"<demo-nt-{n:03d}.{who}@example.invalid>")


if __name__ == "__main__":
    main()
