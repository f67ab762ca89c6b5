"""The address book (one dict per update) finds the same player as the old scan of every player
for every email: the first active player by name whose normalised address is the sender's."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from admin.mail.inbound.auth import AuthSettings, address_book, find_player, normalise

ADDRESSES = ["alice@example.org", "Alice@Example.org", "alice+game@example.org", "bob@example.org",
             "bob+x+y@example.org", " carol@example.org ", "carol@EXAMPLE.ORG", "dave", "", "@x",
             "+tag@example.org"]


def scan(emails: dict[str, str], sender: str, settings: AuthSettings, active: set[str]) -> str | None:
    """What find_player did before the address book: a scan of every player, sorted by name."""
    wanted = normalise(sender, settings.plus_addressing)
    for name, address in sorted(emails.items()):
        if name in active and normalise(address, settings.plus_addressing) == wanted:
            return name
    return None


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["ann", "bob", "cy", "dee", "eve", "Zed"]),
                       st.sampled_from(ADDRESSES), max_size=6),
       st.sets(st.sampled_from(["ann", "bob", "cy", "dee", "eve", "Zed"])),
       st.sampled_from(ADDRESSES + ["mallory@evil.example"]),
       st.sampled_from(["strip", "exact"]))
def test_the_address_book_finds_whom_the_scan_found(emails: dict[str, str], active: set[str],
                                                   sender: str, plus: str) -> None:
    auth = AuthSettings(plus_addressing=plus)  # type: ignore[arg-type]
    book = address_book(emails, auth, active)
    wanted = scan(emails, sender, auth, active)
    assert find_player(emails, sender, auth, active, book) == wanted
    assert find_player(emails, sender, auth, active) == wanted


def test_two_players_sharing_an_address_resolve_to_the_first_by_name() -> None:
    emails = {"bob": "shared@example.org", "alice": "Shared+x@example.org", "carol": "c@example.org"}
    auth = AuthSettings()
    assert find_player(emails, "shared@example.org", auth, {"alice", "bob", "carol"}) == "alice"
    assert find_player(emails, "shared@example.org", auth, {"bob", "carol"}) == "bob"
    assert find_player(emails, "shared@example.org", AuthSettings(plus_addressing="exact"),
                       {"alice", "bob"}) == "bob"
