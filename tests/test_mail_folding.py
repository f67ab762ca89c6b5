"""Headers folded as mail readers expect (issue 32, item 6): a long header is folded at a space
inside its value, never right after the colon (``Subject:\\r\\n [Friday ...``, which some readers
show with a leading space), whatever the subject: long, non-ASCII, one long word first."""

from __future__ import annotations

import re

import pytest

from admin.mail.outbound.compose import new_message, reply_headers
from admin.mail.outbound.eml import file_bytes, raw_headers

SUBJECTS = [
    "[Nomopoly II demo] Reminder: your vote before Saturday 7 November 2026, 23:59 Europe/London",
    "[Friday update 12] Results: Alice bought Park Lane, Bob paid $200 rent to Carol and went to jail",
    "[Nomopoly II démo] Rappel : votre vote avant le samedi 7 novembre 2026, 23:59 Europe/Paris",
    "[Friday-update-of-the-great-Nomopoly-game-of-the-North-London-Rules-Society] Reminder: your vote",
    "[" + "x" * 90 + "] Results",
    "Überlänge " * 12,
]


def _head(data: bytes) -> list[str]:
    return data.split(b"\r\n\r\n", 1)[0].decode("utf-8").split("\r\n")


@pytest.mark.parametrize("subject", SUBJECTS)
def test_no_header_is_folded_right_after_its_colon(subject):
    replying = reply_headers("<CAF1234abcd@mail.gmail.com>", "<a@b.example> <c@d.example>", subject)
    msg = new_message(sender="Nomopoly Admin <admin@example.org>",
                      to="Ålice Averylongsurname-Withadoublebarrel <alice.averylongaddress@example.com>",
                      subject=subject, message_id="<nomopoly.0123456789abcdef@example.org>",
                      auto_submitted="auto-replied", kind="receipt", body="hi",
                      extra_headers={k: v for k, v in replying.items() if k != "Subject"})
    head = _head(file_bytes(msg, raw_headers(msg)))
    starts = [line for line in head if not line.startswith((" ", "\t"))]
    assert {line.split(":")[0] for line in starts} >= {"Subject", "From", "To", "In-Reply-To", "References"}
    for line in starts:
        assert re.fullmatch(r"[A-Za-z-]+: \S.*", line), f"folded after the colon: {line!r} in {head}"
    assert all(len(line) <= 998 for line in head)  # RFC 5322's limit


def test_a_long_message_id_in_a_reply_is_never_encoded_so_readers_can_thread_it():
    """An id longer than a line (some webmail's are) was written RFC 2047-encoded
    (``In-Reply-To: =?utf-8?q?=3CCAF...``): no reader matched the answer to the player's email."""
    long_id = "<CAF=" + "a" * 90 + "@mail.gmail.com>"
    refs = " ".join(f"<ref{i}.{'b' * 40}@example.com>" for i in range(3))
    replying = reply_headers(long_id, refs, "moves")
    msg = new_message(sender="admin@example.org", to="alice@example.org", subject=replying.pop("Subject"),
                      message_id="<nomopoly.1@example.org>", auto_submitted="auto-replied", kind="receipt",
                      body="hi", extra_headers=replying)
    data = file_bytes(msg, raw_headers(msg))
    assert b"=?" not in data
    head = "\r\n".join(_head(data))
    assert f"\r\nIn-Reply-To: {long_id}\r\n" in head + "\r\n"
    unfolded = head.replace("\r\n ", " ")
    assert f"\r\nReferences: {refs} {long_id}" in unfolded
    assert all(len(line) <= 998 for line in _head(data))
