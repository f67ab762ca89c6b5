"""The Admin's `player add`: names and addresses are checked before anything is saved (hardening #9)."""

import pytest

from admin.engine.errors import IllegalAction
from admin.jobs.roster import add_player
from fixtures.games import new_state


@pytest.mark.parametrize("name", ["alice\n", "alice\r\n", " alice", "al ice", "1alice", "a" * 41, ""])
def test_a_name_with_a_newline_or_a_space_is_refused(name):
    state = new_state([])
    with pytest.raises(IllegalAction, match="is not valid"):
        add_player(state, name, "ok@example.org")
    assert state.players == {}


@pytest.mark.parametrize("address", ["a,b@c.d", "a;b@c.d", '"a"@c.d', "a b@c.d", "a@b", "a@@b.c", "a..b@c.d",
                                     "<a@b.c>", "a@-b.c"])
def test_an_address_that_is_not_one_mailbox_is_refused(address):
    state = new_state([])
    with pytest.raises(IllegalAction, match="is not an email address"):
        add_player(state, "frank", address)
    assert state.private.emails == {}


def test_ordinary_addresses_are_accepted_and_kept_in_lower_case():
    state = new_state([])
    add_player(state, "frank", "Frank.O'Neil+games@Mail.Example.ORG")
    assert state.private.emails["frank"] == "frank.o'neil+games@mail.example.org"


def test_iii1_a_username_another_player_has_is_refused_whatever_its_case_and_nothing_changes():
    """III.1: each player needs a username no other player has (and a valid address, above)."""
    state = new_state([])
    add_player(state, "frank", "frank@example.org")
    for name in ("frank", "Frank", "FRANK"):
        with pytest.raises(IllegalAction, match=r"there is already a player named 'frank' \(III.1\)"):
            add_player(state, name, "other@example.org")
    assert list(state.players) == ["frank"] and state.private.emails == {"frank": "frank@example.org"}
