"""Nomopoly II's payments say what kind they are (the on_payment hook's ``kind``): the rent, the
Commercial block's tax on it, the bonus for going round, and a Mall's and a Headquarters' weekly
income, each as the section pays it."""

from __future__ import annotations

from fixtures.payments import Payment

from admin.engine.context import BANK
from admin.jobs.scenario import run

PLAYERS = ("alice", "bob", "carol")


def test_rent_its_tax_the_bonus_and_the_weekly_income_of_buildings_have_their_kinds(payments_made: list[Payment]):
    players = {name: {} for name in PLAYERS} | {"alice": {"square": 14}, "bob": {"square": 1},
                                                  "carol": {"square": 1}}
    run({"players": players, "enable": ["buildings"],
         "squares": {18: {"owner": "bob", "block": "commercial 17 18 23 24", "buildings": ["corporate-headquarters"]},
                     17: {"owner": "bob", "buildings": ["mall"]}},
         "admin_bank": 0,
         "updates": [{"order": ["alice", "bob", "carol"], "dice": [1, 3, 1, 2, 1, 2]},
                     {"order": ["alice", "bob", "carol"], "dice": [1, 2, 1, 2, 1, 2]}]}, "test")
    assert [(p.payer, p.payee, p.amount, p.kind) for p in payments_made if p.amount] == [
        ("alice", "bob", 54, "rent"),         # square 18's rent
        ("bob", BANK, 1, "tax"),              # 3% of it, the Commercial block's tax (XXI.5)
        (BANK, "alice", 1000, "bonus"),       # past the end of the board (VI.11)
        (BANK, "bob", 200, "income"),         # the Mall (XXII.4)
        (BANK, "bob", 100, "income"),         # the Corporate Headquarters' dues (XXII.4)
    ]
