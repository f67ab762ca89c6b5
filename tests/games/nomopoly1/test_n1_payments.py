"""Every payment names its kind (``ctx.transfer(..., kind=...)``, heard by the ``on_payment``
hook): the first Nomopoly's purchases, loans, bonds, rents, thefts and prizes, as its scenarios
make them."""

from __future__ import annotations

from pathlib import Path

from fixtures.payments import Payment

from admin.jobs.scenario import run_file

SCENARIOS = Path(__file__).parent / "scenarios"


def payments(made: list[Payment], scenario: str) -> set[tuple[str, str, str]]:
    """(rule, reason, kind) of every payment the scenario makes; the scenario must pass."""
    before = len(made)
    outcome = run_file(SCENARIOS / scenario)
    assert outcome.differences == []
    return {(p.rule, p.reason, p.kind) for p in made[before:]}


def test_a_general_store_sale_is_a_purchase(payments_made):
    assert payments(payments_made, "xvii2-shopping-at-a-general-store.yaml") == {
        ("XVII.2", "1 x first aid kit at the General Store", "purchase"),
        ("XVII.2", "1 x quijibo at the General Store", "purchase"),
        ("XVII.2", "1 x rose at the General Store", "purchase"),
        ("XVII.2", "2 x paint (red) at the General Store", "purchase"),
        ("XXXVI.1", "wages", "wage")}


def test_the_banks_loans_and_bonds(payments_made):
    assert payments(payments_made, "xxxiii2-the-bank.yaml") == {
        ("XXXIII.2", "a loan from the Bank", "loan"), ("XXXIII.2", "repaying the Bank", "loan"),
        ("XXXIII.3", "2 bond(s)", "bond"), ("XXXIII.3", "2 bond(s) paid back", "bond"),
        ("XXXVI.1", "wages", "wage")}


def test_a_co_owners_half_is_rent_a_thiefs_five_percent_theft_the_lottery_a_prize_a_trade_a_trade(payments_made):
    assert ("XXVIII.2", "half the rent on co-owned square 5", "rent") in payments(payments_made, "xxviii2-co-owned-rent.yaml")
    assert ("XXXVI.2", "a thief's 5%", "theft") in payments(payments_made, "xxxvi2-thief-and-worrier.yaml")
    assert ("XXVI.4", "the lottery", "prize") in payments(payments_made, "xxvi4-the-lottery.yaml")
    assert ("XX.1", "a trade", "trade") in payments(payments_made, "xx1-a-trade-over-two-updates.yaml")
