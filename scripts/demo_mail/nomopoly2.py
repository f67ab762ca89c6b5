"""Writes admin/games/nomopoly2/demo/maildir: the demo game's player emails for weeks 1 and 2 (run it as python scripts/demo_mail/nomopoly2.py).

Each file is named like a real Maildir delivery, ``<unix time>.<n>.demo``: the time at the start
of the name is when the server received it, which decides the update it belongs to.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "nomopoly2" / "demo"
sys.path.insert(0, str(REPO))

from admin.jobs.demo import deliver, fresh_maildir  # noqa: E402

ADDR = {"alice": "Alice Archer <alice@example.org>", "bob": "Bob Baker <bob@example.net>",
        "carol": "carol@example.com", "dave": "Dave D. <dave+nomopoly@example.org>",
        "erin": "Erin <erin@example.net>", "mallory": "Mallory <mallory@example.com>"}

MAIL = [
    # week 1, Monday to Wednesday: proposals, first actions (Thursday update)
    ("2026-11-02T09:12", "alice", "Proposal", """Hi Admin,

PROPOSE Free parking
Landing on the first square should be worth something.

ADD RULE VI: A player who lands on the lowest numbered square receives $200
from the Admin Bank Account.
END

Thanks!
Alice
"""),
    ("2026-11-03T18:40", "bob", "my moves", """STATUS
buy
propose Cheaper rent
AMEND VI.9: A player who lands on a square owned by another player pays the
owner twice the square's number in Nomopoly dollars.
END

--
Bob Baker, Chief Dice Officer
"""),
    ("2026-11-04T07:02", "mallory", "let me in", """JOIN mallory
BUY 3
"""),
    ("2026-11-04T21:30", "carol", "", """PROPOSE Tax the rich
Each week the richest player pays $100 to the poorest.
end
"""),
    ("2026-11-05T08:00", "dave", "late for Thursday", """STATUS
"""),
    # week 1, Thursday to Saturday: voting and buying (Sunday update)
    ("2026-11-06T10:15", "alice", "Re: votes", """vote 1 yes
VOTE 2 no
VOTE 3 YES
BUY

On Thu, Nov 5, 2026 at 9:00 AM Nomopoly <admin@example.org> wrote:
> VOTE 1 NO
> Results of update 1 ...
"""),
    ("2026-11-06T12:00", "bob", "votes", """VOTE 1 YES
VOTE 2 YES
VOTE 3 NO
BUY
"""),
    ("2026-11-06T20:45", "carol", "Re: Nomopoly update 1", """VOTE #1 abstain
VOTE 2 NO
vote proposal 3 yes
BUY
NAME 10 Carol's Corner
"""),
    ("2026-11-07T11:11", "dave", "votes", """VOTE 1 YES
VOTE 3 YES
BUY
PLACE KC ON 13
"""),
    ("2026-11-07T22:30", "alice", "changed my mind", """VOTE 2 YES
"""),
    # week 2, Monday to Wednesday (Thursday update)
    ("2026-11-09T08:30", "erin", "hello", """BUY 20
STATUS
"""),
    ("2026-11-10T13:00", "alice", "more", """BUY
PROPOSE Bigger board
Add five squares to the end of the board.
END
"""),
    ("2026-11-10T17:45", "bob", "stuff", """BUY
NAME 15 Baker Street
PLACE 9C ON 15
BURY 2D
BURY 5H
"""),
    ("2026-11-11T09:05", "dave", "week 2", """BUY
propose Dice for all
Every player may choose to roll three dice instead of two.
END
PROPOSE Dice for all, again
Every player may choose to roll three dice instead of two, once a week.
END
"""),
    # week 2, Thursday to Saturday (Sunday update)
    ("2026-11-13T10:00", "alice", "votes", """VOTE 4 YES
VOTE 6 YES
BUY
"""),
    ("2026-11-13T19:20", "bob", "votes", """VOTE 4 NO
VOTE 6 NO
BUY
"""),
    ("2026-11-14T09:00", "carol", "votes", """VOTE 4 YES
VOTE 6 ABSTAIN
BUY
"""),
    ("2026-11-14T23:30", "dave", "votes", """VOTE 4 YES
VOTE 6 YES
BUY
"""),
    ("2026-11-15T08:00", "erin", "too late for week 2", """VOTE 4 YES
"""),
]


def main() -> None:
    out = HERE / "maildir"
    fresh_maildir(out)
    for n, (when, who, subject, body) in enumerate(MAIL, 1):
        deliver(out, n, when, ADDR[who], "Nomopoly Admin <admin@example.org>", subject, body,
                f"<demo-{n:03d}.{who}@example.invalid>")


if __name__ == "__main__":
    main()
