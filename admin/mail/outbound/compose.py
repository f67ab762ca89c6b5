"""Composing mail out: Message-IDs, threading, loop guards, messages, and the lines' verdicts.

Everything here is pure: data in, text or headers out. The text of each kind of message is in
:mod:`admin.mail.outbound.texts`; which messages an update sends, to whom, and the sending itself live in
:mod:`admin.mail.outbound.mailout` and :mod:`admin.mail.outbound.outbox`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterable, Mapping
from email import quoprimime
from email.message import EmailMessage, Message
from functools import lru_cache
from email.utils import formataddr, getaddresses
from typing import Any

from admin.engine.errors import MailError
from admin.mail.outbound.caps import SUBJECT_CHARS, shorten

AUTO_SUBMITTED_RECEIPT = "auto-replied"
"""``Auto-Submitted`` value for receipts: an automatic answer to a player's email (RFC 3834)."""
AUTO_SUBMITTED_RESULTS = "auto-generated"
"""``Auto-Submitted`` value for results: mail the game sends on its own schedule (RFC 3834)."""


# --------------------------------------------------------------------------------------------
# Message-IDs and headers

def make_message_id(game_id: str, purpose: str, domain: str) -> str:
    """A Message-ID that depends only on its arguments, so a re-run composes the identical one.

    ``purpose`` names the message within the game, e.g. ``receipt/update-3/<original id>`` or
    ``results/update-3/alice``. The result looks like ``<nomopoly.1f3a...@example.org>``.
    """
    if not game_id:
        raise MailError(f"make_message_id: game_id {game_id!r} is empty; pass the game's id")
    if not purpose:
        raise MailError(
            f"make_message_id: purpose {purpose!r} is empty; pass e.g. 'results/update-3/alice'"
        )
    if not re.fullmatch(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*", domain or ""):
        raise MailError(
            f"make_message_id: domain {domain!r} is not a domain name; "
            "pass the domain of the game's address, e.g. 'example.org'"
        )
    digest = hashlib.sha256(f"nomopoly-message-id\0{game_id}\0{purpose}".encode()).hexdigest()
    return f"<nomopoly.{digest[:40]}@{domain.lower()}>"


_MSGID = re.compile(r"<[^<>\s]+>")


def msgids(value: str | None) -> list[str]:
    """The ``<...>`` tokens of a Message-ID or References value; junk between them is dropped."""
    if not value:
        return []
    text = str(value).strip()
    found = _MSGID.findall(text)
    if not found and "@" in text and not any(c.isspace() or c in "<>" for c in text):
        found = [f"<{text}>"]  # a bare id without angle brackets
    return found


_RE_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|antw)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)
MAX_REFERENCES = 20


def reply_headers(
    original_message_id: str | None,
    original_references: str | None,
    original_subject: str | None,
) -> dict[str, str]:
    """``In-Reply-To``, ``References`` and ``Subject`` for an answer to a message (RFC 5322 3.6.4).

    References keeps the last :data:`MAX_REFERENCES` ids of the thread; the subject gets exactly one
    ``Re:`` however many the original carried (also ``RE:``, ``Aw:``, ``Re[2]:``).
    """
    headers: dict[str, str] = {}
    parent = msgids(original_message_id)[:1]
    refs = msgids(original_references)
    if parent:
        headers["In-Reply-To"] = parent[0]
        if not refs or refs[-1] != parent[0]:
            refs.append(parent[0])
    if refs:
        headers["References"] = " ".join(refs[-MAX_REFERENCES:])
    subject = " ".join(str(original_subject or "").split())  # one line, no header injection
    subject = shorten(_RE_PREFIX.sub("", subject).strip(), SUBJECT_CHARS)  # an answer is short
    headers["Subject"] = f"Re: {subject}" if subject else "Re: (no subject)"
    return headers


HeaderSource = Message | Mapping[str, str] | Iterable[tuple[str, str]]


def must_not_answer(msg_headers: HeaderSource, own_addresses: Iterable[str] = ()) -> bool:
    """True when answering this message could start a mail loop or spam a list.

    That is: auto-replies (``Auto-Submitted`` other than ``no``, ``X-Autoreply``,
    ``X-Autorespond``), bulk and list mail (``Precedence: bulk|junk|list``, ``List-Id``), bounces
    (from ``MAILER-DAEMON`` or ``postmaster``, an empty ``Return-Path: <>``, a delivery report),
    and mail from the game's own address(es) in ``own_addresses``. ``msg_headers`` is a parsed
    message or any mapping / sequence of header pairs; header names are case-insensitive.
    """
    headers = _header_lists(msg_headers)

    def values(name: str) -> list[str]:
        return headers.get(name, [])

    for value in values("auto-submitted"):
        if value.split(";")[0].strip().lower() != "no":
            return True
    if values("x-autoreply") or values("x-autorespond"):
        return True
    if any(v.strip().lower() in ("bulk", "junk", "list") for v in values("precedence")):
        return True
    if values("list-id"):
        return True
    if any(v.strip().replace(" ", "") == "<>" for v in values("return-path")):
        return True
    if any(v.strip().lower().startswith("multipart/report") for v in values("content-type")):
        return True
    own = {a.strip().lower() for a in own_addresses}
    for name in ("from", "sender", "return-path"):
        for _, addr in getaddresses(values(name)):
            local = addr.rpartition("@")[0] if "@" in addr else addr
            if local.lower() in ("mailer-daemon", "postmaster"):
                return True
            if name == "from" and addr.lower() in own:
                return True
    return False


def _header_lists(source: HeaderSource) -> dict[str, list[str]]:
    pairs: Iterable[tuple[str, Any]]
    if isinstance(source, Message):
        pairs = source.items()
    elif isinstance(source, Mapping):
        pairs = source.items()
    else:
        pairs = source
    out: dict[str, list[str]] = {}
    for name, value in pairs:
        out.setdefault(str(name).lower(), []).append(str(value))
    return out


def new_message(
    *,
    sender: str,
    to: str,
    subject: str,
    message_id: str,
    auto_submitted: str,
    kind: str,
    body: str,
    extra_headers: Mapping[str, str] | None = None,
) -> EmailMessage:
    """A plain-text message ready for :meth:`admin.mail.outbound.outbox.Outbox.queue`.

    ``kind`` (``receipt``, ``ack``, ``results``, ``reminder``, ``report``) is written to
    ``X-Nomopoly-Kind`` so players can filter the game's mail. The message has the headers and
    content that ``msg[name] = value`` and ``msg.set_content(body)`` give, at a fraction of their
    cost (an update sends hundreds of these): see :func:`set_header` and :func:`set_text`.
    """
    msg = EmailMessage()
    set_header(msg, "From", sender)
    set_header(msg, "To", to)
    set_header(msg, "Subject", " ".join(subject.split()))
    set_header(msg, "Message-ID", message_id)
    set_header(msg, "Auto-Submitted", auto_submitted)
    set_header(msg, "X-Nomopoly-Kind", kind)
    for name, value in (extra_headers or {}).items():
        set_header(msg, name, value)
    set_text(msg, body)
    return msg


MAX_LINE = 78
"""RFC 5322's recommended line length, the email package's ``max_line_length``."""


def set_header(msg: Message, name: str, value: str) -> None:
    """``msg[name] = value``, without the header registry's parse when it would change nothing.

    The registry parses every value as it is set, to encode non-ASCII text (RFC 2047), fold long
    lines and normalise addresses; that was most of the cost of composing a message. A value the
    registry writes out exactly as it is (:func:`_plain`) is stored raw instead, as a parsed
    message stores its headers (and parsed when read, like theirs). Anything else, and a second
    header of a name (which the registry may refuse), takes the registry's way.
    """
    if _plain(name.lower(), value) and name not in msg:
        msg.set_raw(name, value)
    else:
        msg[name] = value


def _plain(name: str, value: str) -> bool:
    """True for a short, printable ASCII value, free of encoded-word markers and of blanks at
    either end, that is plain text, or (for the headers the registry parses) one plain address
    or Message-ID: the shapes the registry writes back unchanged."""
    if not (value and len(name) + 2 + len(value) <= MAX_LINE and value.isascii()
            and value.isprintable() and value == value.strip() and "=?" not in value):
        return False
    if name in _ADDRESS_HEADERS:
        return _PLAIN_ADDRESS.fullmatch(value) is not None
    if name == "message-id":
        return _PLAIN_MSGID.fullmatch(value) is not None
    return name not in _OTHER_STRUCTURED


def is_plain_address(value: str) -> bool:
    """True for ``name <local@domain>`` or ``local@domain`` made of atoms only, as
    :func:`address_of` writes a player's: a value in which ``getaddresses`` finds that address."""
    return _PLAIN_ADDRESS.fullmatch(value) is not None


_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = rf"{_ATOM}(?:\.{_ATOM})*"
_PLAIN_ADDRESS = re.compile(rf"(?:{_ATOM}(?: {_ATOM})* <{_DOT_ATOM}@{_DOT_ATOM}>|{_DOT_ATOM}@{_DOT_ATOM})")
_PLAIN_MSGID = re.compile(rf"<{_DOT_ATOM}@{_DOT_ATOM}>")
_ADDRESS_HEADERS = frozenset(["from", "to", "cc", "bcc", "sender", "reply-to", "resent-from",
                              "resent-to", "resent-cc", "resent-bcc", "resent-sender"])
_OTHER_STRUCTURED = frozenset(["date", "resent-date", "orig-date", "mime-version", "content-type",
                               "content-disposition", "content-transfer-encoding"])


def set_text(msg: EmailMessage, body: str) -> None:
    """``msg.set_content(body)`` for a plain text: the same headers, transfer encoding and
    decoded content, with quoted-printable encoded by :mod:`binascii` (see :func:`text_payload`)."""
    cte, payload = text_payload(body)
    msg.set_raw("Content-Type", 'text/plain; charset="utf-8"')
    msg.set_raw("Content-Transfer-Encoding", cte)
    msg.set_payload(payload)
    msg.set_raw("MIME-Version", "1.0")


def text_payload(body: str) -> tuple[str, str]:
    """The ``Content-Transfer-Encoding`` and encoded payload of a UTF-8 text body.

    The choice is ``set_content``'s: 7bit (8bit if not ASCII) when every line fits in
    :data:`MAX_LINE`; else quoted-printable, or base64 when the first ten lines say it is shorter.
    Quoted-printable is :func:`binascii.b2a_qp` (C, lines of at most 76 characters as RFC 2045
    asks) instead of ``quoprimime`` (Python, one call per character), see :func:`quoted_printable`.
    """
    normal = body.encode("utf-8")
    if b"\r" in normal:  # one \n per line end, as set_content makes them
        normal = b"\n".join(normal.splitlines()) + b"\n"
    elif not normal.endswith(b"\n"):
        normal += b"\n"
    if not _LONG_LINE.search(normal):
        if normal.isascii():
            return "7bit", normal.decode("ascii")
        return "8bit", normal.decode("ascii", "surrogateescape")
    sniff = b"\n".join(normal[:-1].split(b"\n", 10)[:10]) + b"\n"  # the first ten lines
    if len(quoprimime.body_encode(sniff.decode("latin-1"), MAX_LINE)) > len(binascii.b2a_base64(sniff)):
        return "base64", base64.encodebytes(normal).decode("ascii")
    return "quoted-printable", quoted_printable(normal)


_LONG_LINE = re.compile(rb"[^\n]{%d}" % (MAX_LINE + 1))


def quoted_printable(data: bytes) -> str:
    """``binascii.b2a_qp(data, istext=True)``, one paragraph at a time, remembering the last ones.

    Quoted-printable encodes each line on its own, so a text encodes paragraph by paragraph. The
    results emails of an update share their longest paragraph (everything that happened), which
    is then encoded once instead of once per player.
    """
    return "\n\n".join(_qp_paragraph(p) for p in data.split(b"\n\n"))


@lru_cache(maxsize=64)
def _qp_paragraph(data: bytes) -> str:
    return binascii.b2a_qp(data, istext=True).decode("ascii")


def address_of(name: str | None, address: str) -> str:
    """``Name <address>`` for a header; the bare address when there is no name."""
    return formataddr((name or "", address))


def is_reply_to_us(headers: HeaderSource, domain: str) -> bool:
    """True when ``In-Reply-To`` or ``References`` names a message the game sent (our ids look
    like ``<nomopoly.<hex>@domain>``, see :func:`make_message_id`)."""
    lists = _header_lists(headers)
    ids = [i for name in ("in-reply-to", "references") for v in lists.get(name, []) for i in msgids(v)]
    suffix = f"@{domain.lower()}>"
    return any(i.lower().startswith("<nomopoly.") and i.lower().endswith(suffix) for i in ids)
