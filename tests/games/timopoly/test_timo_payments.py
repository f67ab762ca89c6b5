"""Every payment names its kind (``ctx.transfer(..., kind=...)``, heard by the ``on_payment``
hook): Timopoly's rants are rent, deeds, Noms and Rockets purchases, mortgages and sales back
theirs; only a tax goes into the Free Parking pot."""

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


def test_rants_are_rent_and_noms_purchases(payments_made):
    assert payments(payments_made, "xi9-jailed-yet-trading-and-collecting.yaml") == {
        ("VIII.1", "rant for Amateur Artist", "rent"), ("VIII.1", "rant for Comic Book", "rent"),
        ("XIII.1", "a Nom on Amateur Artist", "purchase"), ("XV.1", "buying Fan Writer", "purchase")}


def test_sales_back_mortgages_auctions_and_jail_cards(payments_made):
    assert payments(payments_made, "xv2-selling-noms-and-rockets-back.yaml") == {
        ("XV.2", "a Nom of Editor (Novels) sold back", "sale"),
        ("XV.2", "the Rocket of Editor (Shorts) sold back", "sale")}
    assert payments(payments_made, "xvi1-mortgaged-no-rant.yaml") == {("XVI.1", "mortgaging Comic Book", "mortgage")}
    assert ("VII.2", "Fan Pod Cast at auction", "purchase") in payments(payments_made, "vii2-auction-after-decline.yaml")
    assert payments(payments_made, "xi6-buying-a-jail-card-to-get-out.yaml") == {
        ("XI.6", "a Get Out of Social Media Jail Free card", "purchase")}


def test_only_the_tax_goes_into_the_free_parking_pot(payments_made):
    assert payments(payments_made, "xxii1-free-parking.yaml") == {
        ("", "a tax into the Free Parking pot", "pot"), ("", "the Free Parking pot", "pot"),
        ("VI.1", "passing HUGE-O", "bonus"), ("X.1", "Lose followers (tax)", "tax")}
