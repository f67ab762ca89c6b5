"""Writes admin/games/nomopoly2-full/demo/maildir: the mail of a game with every section of
Nomopoly II in force (run: python scripts/demo_mail/nomopoly2_full.py [--show]).

The mail is written update by update, running the engine in between exactly as
``nomopoly demo --game nomopoly2-full`` will replay it: each update's emails answer where the last
update's dice put the players (checked: ``WHERE`` says where each player must stand, and the script
stops if the dice ever put them elsewhere). ``--show`` prints what each update did, and every
player's square, hand and money after it, to write the next update's mail from.

The board starts with 20 squares, so before the first update the Admin moves the Zoo, the Bank and
the House of Cards onto it (game.yaml's ``demo: rulings:``), where the first weeks' dice reach them."""

from __future__ import annotations

import shutil
import sys
import tempfile
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "nomopoly2-full" / "demo"
sys.path.insert(0, str(REPO))

from admin.games import catalog as games  # noqa: E402
from admin.jobs import update as jobs  # noqa: E402
from admin.jobs.demo import scratch_game, deliver, fresh_maildir, queue_rulings  # noqa: E402
from admin.engine.model import GameState  # noqa: E402

ADDR = {"alice": "Alice Archer <alice@example.org>", "bob": "Bob Baker <bob@example.net>",
        "carol": "carol@example.com", "dave": "Dave D. <dave@example.org>",
        "erin": "Erin <erin@example.net>"}

#: where each player stands when an update's mail is acted on (the last update's moves put them there)
WHERE: dict[int, dict[str, int]] = {
    2: {"alice": 14, "bob": 5, "carol": 12, "dave": 2, "erin": 4},
    3: {"alice": 21, "bob": 8, "carol": 17, "dave": 18, "erin": 8},
    4: {"alice": 2, "bob": 17, "carol": 24, "dave": 4, "erin": 5},
    5: {"alice": 7, "bob": 23, "carol": 9, "dave": 16, "erin": 14},
    6: {"alice": 15, "bob": 3, "carol": 22, "dave": 5, "erin": 11},
    7: {"alice": 24, "bob": 12, "carol": 1, "dave": 3, "erin": 18},
    8: {"alice": 3, "bob": 15, "carol": 6, "dave": 11, "erin": 9},
}

#: (update, sent at, who, subject, body)
MAIL: list[tuple[int, str, str, str, str]] = [
    # week 1, Monday to Wednesday (Thursday update): nobody has moved yet; two buy transport
    (1, "2026-11-02T09:00", "alice", "hello", "Hi Admin, count me in!\nSTATUS\n"),
    (1, "2026-11-02T18:30", "dave", "wheels", "BUY TRANSPORT CAR\n"),
    (1, "2026-11-03T08:15", "erin", "up and away", "BUY TRANSPORT HELICOPTER\n"),
    # week 1, Thursday to Saturday (Sunday update): everyone buys where Thursday's moves put them;
    # alice names hers Blackjack and plays the 3 of spades her doubles gave her in the lottery;
    # erin proposes a Residential block with bob's square next to hers; dave drives to the Zoo
    (2, "2026-11-05T09:00", "alice", "mine", "BUY 14\nNAME 14 Blackjack\nLOTTERY TICKET 3S\n"),
    (2, "2026-11-05T12:00", "bob", "buying", "BUY 5\nNAME 5 Baker Street\n"),
    (2, "2026-11-05T20:00", "carol", "buying", "BUY 12\n"),
    (2, "2026-11-06T10:30", "dave", "to the zoo", "BUY 2\nDRIVE TO 8\nSPAWN BISON\n"),
    (2, "2026-11-06T17:45", "erin", "neighbours", "BUY 4\nCREATE RESIDENTIAL BLOCK 4 5\n"),
    # week 2, Monday to Wednesday (Thursday update): bob consents to erin's block; dave drives
    # to the Bank (square 15) to bank, mortgage and take a credit card; carol offers dave a trade
    (3, "2026-11-09T08:10", "bob", "Re: block", "ACCEPT 1\nSTATUS\n"),
    (3, "2026-11-09T12:00", "alice", "buying", "BUY 21\n"),
    (3, "2026-11-09T19:30", "dave", "banking", "BUY 18\nDRIVE TO 15\nDEPOSIT 2000\nMORTGAGE 18\n"
                                              "TAKE CREDIT CARD\n"),
    (3, "2026-11-10T09:45", "carol", "a deal", "BUY 17\nTRADE WITH dave: GIVE SQUARE 12 FOR $450\n"),
    # week 2, Thursday to Saturday (Sunday update): dave takes carol's offer and rides the Bison
    # that landed on him to the House of Cards (6), where he buys a shovel on credit; erin and bob
    # build on their block; alice makes her square 21 a Government block; erin plays the lottery
    (4, "2026-11-12T08:00", "dave", "yes and a ride", "ACCEPT 2\nRIDE BISON TO 6\nBUY SHOVEL ON CREDIT\n"),
    (4, "2026-11-12T13:20", "erin", "a house", "BUILD HOUSE ON 4\nLOTTERY TICKET 5C\n"),
    (4, "2026-11-13T09:00", "bob", "a hospital", "BUILD HOSPITAL ON 5\n"),
    (4, "2026-11-13T11:00", "alice", "for the people", "CREATE GOVERNMENT BLOCK 21\n"),
    (4, "2026-11-14T10:00", "carol", "buying", "BUY 24\n"),
    # week 3, Monday to Wednesday (Thursday update): the Governor's election opens with sealed bids;
    # dave buys 16 and asks carol to make 16, 17, 18 an Industrial block; erin and bob build again
    (5, "2026-11-16T08:30", "alice", "for governor", "BUY 7\nBID GOVERNOR 900\n"),
    (5, "2026-11-16T09:10", "dave", "industry", "BUY 16\nCREATE INDUSTRIAL BLOCK 16 17 18\nBID GOVERNOR 700\n"),
    (5, "2026-11-16T21:00", "erin", "a casino", "BUILD CASINO ON 4\nBID GOVERNOR 400\n"),
    (5, "2026-11-17T10:00", "bob", "an ATM", "BUY 23\nBUILD ATM ON 5\n"),
    (5, "2026-11-18T12:00", "carol", "trains", "BUY 9\nBUILD RAILROAD ON 24\n"),
    # week 3, Thursday to Saturday (Sunday update): the vote for Governor (alice or dave); carol
    # consents to dave's Industrial block and plays her 7 in the lottery; alice, on the Bank,
    # deposits; dave pays off his card (the $50 shovel and a week's 10%) and drives next door to
    # erin's Casino for a hand of Blackjack
    (6, "2026-11-19T08:00", "carol", "yes, and a ticket", "ACCEPT 5\nBUY 22\nVOTE GOVERNOR dave\n"
                                                         "LOTTERY TICKET 7H\n"),
    (6, "2026-11-19T09:30", "alice", "saving", "DEPOSIT 1500\nVOTE GOVERNOR alice\n"),
    (6, "2026-11-19T18:00", "dave", "a hand of blackjack", "PAY CREDIT 55\nVOTE GOVERNOR dave\nDRIVE TO 4\n"
                                                           "PLAY BLACKJACK 100\n"),
    (6, "2026-11-20T10:00", "bob", "votes", "BUY 3\nVOTE GOVERNOR alice\n"),
    (6, "2026-11-21T11:00", "erin", "votes", "BUY 11\nVOTE GOVERNOR dave\n"),
    # week 4, Monday to Wednesday (Thursday update): dave stands on 17 at the Casino and cashes the
    # ace and king Blackjack dealt him; erin trades her helicopter for a car and drives to the House
    # of Cards to exchange her pair of kings; carol builds a Missile Silo in the middle of the
    # Industrial block and buys its first missile
    (7, "2026-11-23T08:45", "dave", "stand", "STAND\nCASH BLACKJACK AH KC\n"),
    (7, "2026-11-23T12:10", "erin", "kings", "BUY TRANSPORT CAR\nDRIVE TO 6\nEXCHANGE KH KS FOR BINGO CARD\n"),
    (7, "2026-11-23T19:00", "carol", "defence", "BUILD MISSILE SILO ON 17\nBUY MISSILE CRUISE AT 17\n"),
    (7, "2026-11-24T09:00", "alice", "a proposal", """PROPOSE Richer casinos
A Casino should pay its owner more than $50 a week.

AMEND XXXIII.1: Each week, the owner of a square that has a Casino on it receives $75 from that Casino.
SET casinos weekly_income 75
END
"""),
    # week 4, Thursday to Saturday (Sunday update): the vote on alice's proposal (bob, on the
    # Legislative Building in week 4, has an extra vote); bob, on the Bank, opens an account; dave
    # rides the Bison that landed on him to the Bank and pays off his mortgage (bob names that an
    # exploit); carol applies for a patent; erin drives to her own Casino for a hand of Blackjack
    # (still open when the demo ends: its hole card hidden)
    (8, "2026-11-26T09:00", "alice", "votes", "VOTE 1 YES\n"),
    (8, "2026-11-26T10:00", "bob", "no to casinos", """VOTE 1 NO
DEPOSIT 500
EXPLOIT BLOCK: Riding the Bison to the Bank
A player the Bison lands on may ride it to any square, the Bank too, once a week or more.
END
"""),
    (8, "2026-11-26T14:00", "carol", "votes and an idea", """VOTE 1 YES
PATENT GAME Dice Duel
The player and the casino each roll two dice; the higher total wins.
Bets: $10 to $100. Payout: twice the bet; a tie returns the bet.
END
"""),
    (8, "2026-11-27T08:30", "dave", "a ride to the bank", "VOTE 1 YES\nRIDE BISON TO 15\nUNMORTGAGE 18\n"),
    (8, "2026-11-27T15:30", "erin", "a flutter", "VOTE 1 YES\nDRIVE TO 4\nPLAY BLACKJACK 40\n"),
]


def show(state: GameState, events) -> None:
    from admin.library.cards import hand

    for e in events:
        if e.text:
            print("   ", e.kind, "|", e.text)
    for p in state.players.values():
        print(f"  {p.name}: square {p.square}, ${p.money}, hand {hand(state, p.name)}")


def write(out: Path, verbose: bool = False) -> int:
    """Play the demo, writing each update's mail into the Maildir ``out`` before it runs; the
    number of emails written."""
    fresh_maildir(out)
    spec = games.spec("nomopoly2-full")
    with tempfile.TemporaryDirectory() as tmp:
        game = scratch_game("nomopoly2-full", Path(tmp) / "g")
        inbox = game.root / "mail" / "inbox"
        n = 0
        for update, cutoff in enumerate(spec.demo["cutoffs"], 1):
            state = game.load()
            wrong = {who: state.players[who].square for who, sq in WHERE.get(update, {}).items()
                     if state.players[who].square != sq}
            if wrong:
                raise SystemExit(f"before update {update} the players stand elsewhere than the mail says: {wrong}")
            for _, when, who, subject, body in sorted(m for m in MAIL if m[0] == update):
                n += 1
                deliver(out, n, when, ADDR[who], "Nomopoly Admin <admin@example.org>", subject, body,
                        f"<demo-full-{n:03d}.{who}@example.invalid>")
            shutil.rmtree(inbox, ignore_errors=True)
            shutil.copytree(out, inbox)
            queue_rulings(game, spec.demo, update)
            outcome = jobs.run_update_job(game, at=datetime.fromisoformat(cutoff))
            if verbose:
                print(f"== update {update}")
                show(outcome.state, outcome.events)
    return n


def main() -> None:
    out = HERE / "maildir"
    print(f"wrote {write(out, verbose='--show' in sys.argv)} emails to {out}")


if __name__ == "__main__":
    main()
