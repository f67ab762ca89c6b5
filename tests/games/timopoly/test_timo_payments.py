"""Every payment names its kind (``ctx.transfer(..., kind=...)``, heard by the ``on_payment``
hook): Timopoly's rants are rent, deeds, Noms and Rockets purchases, mortgages and sales back
theirs; only a tax goes into the Free Parking pot."""

from __future__ import annotations

from pathlib import Path

import pytest

from admin.engine.context import UpdateContext
from admin.jobs.scenario import run_file

SCENARIOS = Path(__file__).parent / "scenarios"


def payments(monkeypatch: pytest.MonkeyPatch, scenario: str) -> set[tuple[str, str, str]]:
    """(rule, reason, kind) of every payment the scenario makes; the scenario must pass."""
    seen: set[tuple[str, str, str]] = set()
    transfer = UpdateContext.transfer

    def record(self, payer, payee, amount, *, rule, reason, voluntary=False, kind="other"):
        seen.add((rule, reason, kind))
        return transfer(self, payer, payee, amount, rule=rule, reason=reason, voluntary=voluntary, kind=kind)

    monkeypatch.setattr(UpdateContext, "transfer", record)
    outcome = run_file(SCENARIOS / scenario)
    assert outcome.differences == []
    return seen


def test_rants_are_rent_and_noms_purchases(monkeypatch):
    assert payments(monkeypatch, "xi9-jailed-yet-trading-and-collecting.yaml") == {
        ("VIII.1", "rant for Amateur Artist", "rent"), ("VIII.1", "rant for Comic Book", "rent"),
        ("XIII.1", "a Nom on Amateur Artist", "purchase"), ("XV.1", "buying Fan Writer", "purchase")}


def test_sales_back_mortgages_auctions_and_jail_cards(monkeypatch):
    assert payments(monkeypatch, "xv2-selling-noms-and-rockets-back.yaml") == {
        ("XV.2", "a Nom of Editor (Novels) sold back", "sale"),
        ("XV.2", "the Rocket of Editor (Shorts) sold back", "sale")}
    assert payments(monkeypatch, "xvi1-mortgaged-no-rant.yaml") == {("XVI.1", "mortgaging Comic Book", "mortgage")}
    assert ("VII.2", "Fan Pod Cast at auction", "purchase") in payments(monkeypatch, "vii2-auction-after-decline.yaml")
    assert payments(monkeypatch, "xi6-buying-a-jail-card-to-get-out.yaml") == {
        ("XI.6", "a Get Out of Social Media Jail Free card", "purchase")}


def test_only_the_tax_goes_into_the_free_parking_pot(monkeypatch):
    assert payments(monkeypatch, "xxii1-free-parking.yaml") == {
        ("", "a tax into the Free Parking pot", "pot"), ("", "the Free Parking pot", "pot"),
        ("VI.1", "passing HUGE-O", "bonus"), ("X.1", "Lose followers (tax)", "tax")}
