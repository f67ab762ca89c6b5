"""Composing a message fast (admin.mail.outbound.compose.new_message, set_header, text_payload) and writing
it fast (admin.mail.outbound.eml.wire_bytes): the same message as the email package's own way, header for
header and byte for byte where the bytes are the email package's, and always the same content."""

from __future__ import annotations

import binascii
import email.policy
import quopri
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from admin.mail.outbound.compose import new_message, quoted_printable, set_header, text_payload
from admin.mail.outbound.eml import _plain_text_bytes, file_message_id, wire_bytes

SMTP = email.policy.SMTP

BODIES = {
    "short ascii": "Hello alice,\n\nyour results.\n",
    "empty": "",
    "no final newline": "one line",
    "exactly 78": "x" * 78 + "\n",
    "79 characters": "x" * 79 + "\n",
    "a long line": "Everything that happened:\n  - " + "alice paid bob $5. " * 80 + "\n",
    "non-ascii, short lines": "Grüße, Jörg!\nŁódź 😀\n",
    "non-ascii and long": "ü" * 120 + "\nend\n",
    "mostly non-latin (base64)": ("Привет мир, как дела? " * 6 + "\n") * 12,
    "crlf and cr line ends": "one\r\ntwo\rthree\n" + "y" * 90 + "\r\n",
    "dots, From, trailing blanks": ".\nFrom here\n-- \ntab\t\n" + "z" * 100 + " \n.\n",
    "equals signs": "a=b " * 30 + "\n=\n",
    "paragraphs": "\n\n".join(["p" * 90, "", "q\n\n\nr " * 40, "-- \nGame"]) + "\n",
}


def reference(body: str, **headers: str) -> EmailMessage:
    """What the email package makes of the same arguments, its own (slow) way."""
    msg = EmailMessage()
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def compose(body: str, **extra: str) -> EmailMessage:
    return new_message(sender="Nomopoly <game@nomopoly.test>", to="alice <alice@example.org>",
                       subject="[Nomopoly] Update 3 results for alice",
                       message_id="<nomopoly.1@nomopoly.test>", auto_submitted="auto-generated",
                       kind="results", body=body, extra_headers=extra)


def read_back(data: bytes) -> EmailMessage:
    msg = BytesParser(policy=email.policy.default).parsebytes(data.replace(b"\r\n", b"\n"))
    assert isinstance(msg, EmailMessage)
    return msg


@pytest.mark.parametrize("name", BODIES)
def test_a_composed_body_reads_back_as_written_with_set_contents_encoding(name: str) -> None:
    body = BODIES[name]
    ours, theirs = compose(body), reference(body)
    assert ours["Content-Transfer-Encoding"] == theirs["Content-Transfer-Encoding"]
    assert str(ours["Content-Type"]) == str(theirs["Content-Type"])
    assert ours.get_content() == theirs.get_content()
    back = read_back(wire_bytes(ours, SMTP))
    assert back.get_content() == theirs.get_content()
    assert all(len(line) <= 78 for line in wire_bytes(ours, SMTP).split(b"\r\n")), "RFC 5322 line length"


def test_the_headers_are_the_email_packages_byte_for_byte() -> None:
    thread = {"In-Reply-To": "<a1@alice.example>", "References": "<a0@x> <a1@alice.example>"}
    ours = compose("Hi\n", **thread)
    theirs = reference("Hi\n", From="Nomopoly <game@nomopoly.test>", To="alice <alice@example.org>",
                       Subject="[Nomopoly] Update 3 results for alice",
                       Message_ID="<nomopoly.1@nomopoly.test>",
                       Auto_Submitted="auto-generated", X_Nomopoly_Kind="results",
                       In_Reply_To="<a1@alice.example>", References="<a0@x> <a1@alice.example>")
    assert ours.as_bytes(policy=SMTP) == theirs.as_bytes(policy=SMTP)


@pytest.mark.parametrize("name, value", [
    ("Subject", "Re: Grüße aus Köln"),                                     # RFC 2047
    ("Subject", "Re: " + "a very long subject line that needs folding " * 3),
    ("Subject", "Re: =?utf-8?q?caf=C3=A9?="),                             # an encoded word
    ("To", "Jörg <joerg@example.org>"),
    ("To", '"Smith, John" <john@example.org>'),
    ("References", " ".join(f"<id{i}@mua.example.org>" for i in range(20))),
])
def test_a_header_the_registry_must_encode_or_fold_reads_back_the_same(name: str, value: str) -> None:
    ours, theirs = EmailMessage(), EmailMessage()
    set_header(ours, name, value)
    theirs[name] = value
    assert ours.as_bytes(policy=SMTP) == theirs.as_bytes(policy=SMTP)
    assert str(read_back(ours.as_bytes(policy=SMTP))[name]) == str(theirs[name])


EDGE_VALUES = ["", "a", "a  b", "Re: (no subject)", "Re: Re: hi", "x" * 60, "x" * 80, "alice <alice@example.org>",
               "p0193 <p0193@example.org>", "Benchmark game <nomopoly@localhost>", "a@b, c@d", "x@y", "@",
               "undisclosed-recipients:;", '"quoted" <q@x>', "Bob (comment) <b@x>", "<a@b>", "<a@b> <c@d>",
               "<foo>", "<nomopoly.0024a39f3e02407cf56ba24ea4f8b97b09305635@localhost>", "auto-replied",
               "1.0", "text/plain", "a\\b", "semi;colon", "a<b>c", " lead", "trail ", "=?utf-8?q?x?="]
EDGE_NAMES = ["From", "To", "Cc", "Reply-To", "Subject", "Message-ID", "In-Reply-To", "References",
              "Auto-Submitted", "X-Nomopoly-Kind", "MIME-Version", "Date"]


def _registry_way(name: str, value: str) -> bytes | type[Exception]:
    msg = EmailMessage()
    try:
        msg[name] = value
        return msg.as_bytes(policy=SMTP)
    except Exception as e:  # noqa: BLE001 - the same refusal is expected either way
        return type(e)


def _our_way(name: str, value: str) -> bytes | type[Exception]:
    msg = EmailMessage()
    try:
        set_header(msg, name, value)
        return msg.as_bytes(policy=SMTP)
    except Exception as e:  # noqa: BLE001
        return type(e)


@pytest.mark.parametrize("name", EDGE_NAMES)
def test_set_header_writes_what_the_registry_writes_for_any_value(name: str) -> None:
    for value in EDGE_VALUES:
        assert _our_way(name, value) == _registry_way(name, value), (name, value)


def test_every_header_the_registry_parses_is_classified() -> None:
    from email.headerregistry import HeaderRegistry

    from admin.mail.outbound.compose import _ADDRESS_HEADERS, _OTHER_STRUCTURED

    known = _ADDRESS_HEADERS | _OTHER_STRUCTURED | {"message-id", "subject"}
    assert set(HeaderRegistry().registry) <= known


def test_a_header_with_a_line_break_is_still_refused() -> None:
    with pytest.raises(ValueError):
        set_header(EmailMessage(), "Subject", "hi\r\nBcc: everyone@example.org")


def test_a_second_header_of_a_unique_name_is_still_refused() -> None:
    msg = compose("x\n")
    with pytest.raises(ValueError):
        set_header(msg, "To", "bob@example.org")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=120), st.sampled_from(["", " ", ".", "-- ", "=", "\t"])),
                max_size=12))
def test_quoted_printable_by_paragraphs_is_b2a_qp_and_decodes_to_the_text(lines: list[str]) -> None:
    data = "\n".join(lines).encode("utf-8", "surrogatepass").replace(b"\r", b"")
    encoded = quoted_printable(data)
    assert encoded == binascii.b2a_qp(data, istext=True).decode("ascii")
    assert quopri.decodestring(encoded.encode("ascii")) == data


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_body_reads_back_as_set_content_would_give_it(body: str) -> None:
    body = body.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    cte, _ = text_payload(body)
    theirs = reference(body)
    assert cte == theirs["Content-Transfer-Encoding"]
    assert read_back(wire_bytes(compose(body), SMTP)).get_content() == theirs.get_content()


def _multipart() -> EmailMessage:
    msg = reference("Hello\n", From="a@example.org", To="b@example.org", Subject="parts")
    msg.add_alternative("<p>Hello</p>\n", subtype="html")
    msg.add_attachment(b"\x00\x01binary" * 50, maintype="application", subtype="octet-stream",
                       filename="x.bin")
    return msg


@pytest.mark.parametrize("make", [
    lambda: compose(BODIES["a long line"]),
    lambda: compose(BODIES["non-ascii, short lines"]),
    lambda: reference(BODIES["crlf and cr line ends"], From="a@example.org", To="Jörg <j@example.org>"),
    lambda: read_back(reference("8bit\nü\n", From="a@example.org").as_bytes()),  # a parsed message
    _multipart,
])
@pytest.mark.parametrize("policy", [email.policy.SMTP, email.policy.SMTPUTF8])
def test_wire_bytes_are_as_bytes_byte_for_byte(make, policy) -> None:
    msg = make()
    expected = msg.as_bytes(policy=policy)  # (sets a multipart's boundary, once)
    assert wire_bytes(msg, policy) == expected


@pytest.mark.parametrize("name", BODIES)
@pytest.mark.parametrize("policy", [email.policy.SMTP, email.policy.SMTPUTF8])
def test_a_composed_message_is_written_without_the_generator_as_the_generator_writes_it(name, policy) -> None:
    extra = {"In-Reply-To": "<original@example.org>", "References": "<a@x> <original@example.org>",
             "X-Long": "word " * 30, "X-Unicode": "Jörg"}  # the last two are folded by the policy
    msg = compose(BODIES[name], **extra)
    assert _plain_text_bytes(msg, policy) is not None
    assert wire_bytes(msg, policy) == msg.as_bytes(policy=policy)


def test_a_results_message_has_these_exact_bytes() -> None:
    msg = compose("Hello alice,\n\nyour results: ü.\n", **{"In-Reply-To": "<a@x>"})
    assert wire_bytes(msg, SMTP) == (
        b"From: Nomopoly <game@nomopoly.test>\r\nTo: alice <alice@example.org>\r\n"
        b"Subject: [Nomopoly] Update 3 results for alice\r\nMessage-ID: <nomopoly.1@nomopoly.test>\r\n"
        b"Auto-Submitted: auto-generated\r\nX-Nomopoly-Kind: results\r\nIn-Reply-To: <a@x>\r\n"
        b'Content-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: 8bit\r\n'
        b"MIME-Version: 1.0\r\n\r\nHello alice,\r\n\r\nyour results: \xc3\xbc.\r\n")


def test_the_message_id_of_a_file_is_read_from_its_headers_however_written(tmp_path: Path) -> None:
    cases = {
        "plain.eml": b"From: a@x\r\nMessage-ID: <one@x>\r\n\r\nMessage-ID: <body@x>\r\n",
        "folded.eml": b"From: a@x\r\nmessage-id:\r\n <two@x>\r\nTo: b@x\r\n\r\nbody\r\n",
        "lf.eml": b"Subject: s\nMESSAGE-ID: <three@x>\n\nbody\n",
        "none.eml": b"From: a@x\r\n\r\nMessage-ID: <body@x>\r\n",
        "long.eml": b"X-Long: " + b"y" * 40000 + b"\r\nMessage-ID: <four@x>\r\n\r\nbody\r\n",
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    assert {name: file_message_id(tmp_path / name) for name in cases} == {
        "plain.eml": "<one@x>", "folded.eml": "<two@x>", "lf.eml": "<three@x>",
        "none.eml": "<unknown: none.eml>", "long.eml": "<four@x>"}
