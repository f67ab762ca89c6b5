"""Writes admin/games/nomopoly2-full/demo/maildir: two weeks of email in a game with every section
of Nomopoly II in force, using the sections' commands (run: python scripts/demo_mail/nomopoly2_full.py).

The squares named in later emails are ones the players own by then in the demo (its dice come from
a public key, so they are the same every run)."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "nomopoly2-full" / "demo"
sys.path.insert(0, str(REPO))

from admin.demo import deliver, fresh_maildir  # noqa: E402

ADDR = {"alice": "Alice Archer <alice@example.org>", "bob": "Bob Baker <bob@example.net>",
        "carol": "carol@example.com", "dave": "Dave D. <dave@example.org>",
        "erin": "Erin <erin@example.net>"}

MAIL = [
    # week 1, Monday to Wednesday (Thursday update): everyone buys where they land
    ("2026-11-02T09:00", "alice", "moves", "BUY\nSTATUS\n"),
    ("2026-11-02T10:00", "bob", "moves", "BUY\n"),
    ("2026-11-03T11:00", "carol", "moves", "BUY\nHELP BUILD RAILROAD\n"),
    ("2026-11-03T12:00", "dave", "moves", "BUY\n"),
    ("2026-11-04T13:00", "erin", "moves", "BUY\n"),
    # week 1, Thursday to Saturday (Sunday update)
    ("2026-11-05T09:00", "alice", "moves", "BUY\n"),
    ("2026-11-05T10:00", "bob", "moves", "BUY\n"),
    ("2026-11-06T11:00", "carol", "moves", "BUY\n"),
    ("2026-11-06T12:00", "dave", "moves", "BUY\n"),
    ("2026-11-07T13:00", "erin", "moves", "BUY\n"),
    # week 2 (Thursday and Sunday updates): each builds on the square they bought in week 1
    # (alice 12, bob 16, dave 8), and alice on 3, bought on Sunday
    ("2026-11-09T09:00", "alice", "railroads", "BUILD RAILROAD ON 12\nBUY\n"),
    ("2026-11-09T10:00", "bob", "railroads", "BUILD RAILROAD ON 16\nBUY\n"),
    ("2026-11-10T11:00", "dave", "railroads", "BUILD RAILROAD ON 8\nBUILD RAILROAD ON 16\n"),
    ("2026-11-10T12:00", "carol", "moves", "BUY\nSTATUS\n"),
    ("2026-11-12T09:00", "erin", "railroads", "BUY\n"),
    ("2026-11-13T10:00", "alice", "moves", "BUY\nBUILD RAILROAD ON 3\nHELP\n"),
    ("2026-11-13T11:00", "bob", "railroads", "BUILD RAILROAD ON 2\n"),   # 2 and 3 touch: one line
]


def main() -> None:
    out = HERE / "maildir"
    fresh_maildir(out)
    for n, (when, who, subject, body) in enumerate(MAIL, 1):
        deliver(out, n, when, ADDR[who], "Nomopoly Admin <admin@example.org>", subject, body,
                f"<demo-full-{n:03d}.{who}@example.invalid>")


if __name__ == "__main__":
    main()
