"""Requests to join: nothing a stranger writes is published, one request per address, a name a
player could have (hardening #6)."""

from admin.engine.commands import Join
from admin.engine.update import LineCommand, Submission
from fixtures.games import new_state, play


def _stranger(address: str, *names: str, key: str = "k") -> Submission:
    return Submission(key=key, player=None, sender=address, received="2026-11-04T10:00:00+00:00",
                      commands=[LineCommand(i + 1, f"JOIN {n}", Join(n)) for i, n in enumerate(names)])


def test_a_request_is_told_to_the_admin_and_never_published():
    result = play(new_state(), [_stranger("zoe@example.org", "zoe")])
    assert [(j.name, j.email) for j in result.state.private.join_requests] == [("zoe", "zoe@example.org")]
    joins = [e for e in result.events if e.kind == "join"]
    assert [e.text for e in joins] == [None]  # no public text: nothing on the site or the feed
    assert joins[0].private == "Your request to join as zoe was passed to the Admin (III.4)."


def test_one_request_per_address_an_update_and_the_latest_counts():
    first = play(new_state(), [_stranger("spam@example.org", "a1", "a2", "a3")])
    assert [j.name for j in first.state.private.join_requests] == ["a1"]
    refused = [e.private for e in first.events if e.kind == "action" and not e.ok]
    assert refused == ['"JOIN a2" was not done: one request to join per address an update'] * 1 + \
        ['"JOIN a3" was not done: one request to join per address an update']
    second = play(first.state, [_stranger("SPAM@example.org", "b1")])
    assert [j.name for j in second.state.private.join_requests] == ["b1"]


def test_a_name_no_player_could_have_is_refused():
    result = play(new_state(), [_stranger("x@example.org", "Buy cheap pills at http://spam")])
    assert result.state.private.join_requests == []
    [refused] = [e.private for e in result.events if e.kind == "action"]
    assert "a player's name is 1 to 40 letters" in refused
