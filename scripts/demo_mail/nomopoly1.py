"""Writes admin/games/nomopoly1/demo/maildir: two weeks of the first Nomopoly's mail (run:
python scripts/demo_mail/nomopoly1.py).

In this game the players move twice a week, in the Sunday update that starts the week: on Monday
to Wednesday they send the choices their moves call for (BUY) and their proposals (two at most);
on Friday and Saturday their votes. The Admin votes too (`nomopoly ruling vote N yes`)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "nomopoly1" / "demo"
sys.path.insert(0, str(REPO))

from admin.jobs.demo import deliver, fresh_maildir  # noqa: E402

ADDR = {"alice": "Alice Archer <alice@example.org>", "bob": "Bob Baker <bob@example.net>",
        "carol": "carol@example.com", "dave": "Dave D. <dave@example.org>"}

MAIL = [
    # week 1, Monday to Wednesday (Thursday update): proposals, fountains, courses, transport
    ("2026-11-02T09:00", "alice", "proposal", """PROPOSE A bigger pass bonus
Passing square 1 should pay more.

AMEND V.7: Every time a player lands on or passes Square #1, he receives $1500.
This may not be collected more than once per turn.
END
DONATE WEALTH
"""),
    ("2026-11-03T10:00", "bob", "hello", "STATUS\nHELP\nDONATE HEALTH\nENROL BASE\n"),
    ("2026-11-04T11:00", "carol", "two ideas", """PROPOSE Quiet Sundays
Nothing happens on Sundays.
END
PROPOSE Louder Mondays
Everything happens on Mondays.
END
BUY TRANSPORT CLOGS
"""),
    ("2026-11-04T12:00", "dave", "tickets", "BUY TICKET 2\nDONATE SPACETIME\n"),
    # week 1, Friday and Saturday (Sunday update): votes; the week's two moves follow
    ("2026-11-06T09:00", "alice", "votes", "VOTE 1 YES\nVOTE 2 NO\nVOTE 3 ABSTAIN\n"),
    ("2026-11-06T10:00", "bob", "votes", "VOTE 1 NO\nVOTE 2 NO\nVOTE 3 NO\n"),
    ("2026-11-07T11:00", "carol", "votes", "VOTE 1 YES\nVOTE 2 YES\nVOTE 3 YES\n"),
    ("2026-11-07T12:00", "dave", "votes", "VOTE 1 YES\nVOTE 2 ABSTAIN\n"),
    # week 2, Monday to Wednesday (Thursday update): buy where the week's moves landed, shop at the
    # General Store on 19 (dave stopped there), paint, share a square
    ("2026-11-09T09:00", "alice", "buying", "BUY 16\nBUY 20\nDONATE WEALTH\n"),
    ("2026-11-09T10:00", "bob", "buying", "BUY 18\nBUY 10\nSTATUS\n"),
    ("2026-11-10T11:00", "carol", "buying", "BUY 5\nBUY 9\nOFFER CO-OWNERSHIP 5 FOR 18 TO bob\n"),
    ("2026-11-10T12:00", "dave", "shopping", "BUY 8\nBUY PAINT RED x2\nBUY FIRST AID KIT\n"
                                            "PAINT ME RED\nPAINT SQUARE 8 RED\nUSE FIRST AID KIT\n"),
    # week 2, Friday and Saturday (Sunday update)
    ("2026-11-13T09:00", "bob", "yes", "ACCEPT 1\n"),
    ("2026-11-13T10:00", "alice", "a trade", "TRADE WITH dave: GIVE lucky donut FOR $400\nSTATUS\n"),
]


def main() -> None:
    out = HERE / "maildir"
    fresh_maildir(out)
    for n, (when, who, subject, body) in enumerate(MAIL, 1):
        deliver(out, n, when, ADDR[who], "Nomopoly Admin <admin@example.org>", subject, body,
                f"<demo-n1-{n:03d}.{who}@example.invalid>")


if __name__ == "__main__":
    main()
