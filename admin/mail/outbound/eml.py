"""The outbox's files: their names, their bytes (the wire format), reading them back.

Each file holds one message exactly as SMTP sends it (CRLF line ends, a ``Date``); its name is
derived from the Message-ID only (:func:`file_name`), which is what makes the outbox's ``sent/``
folder a ledger. The folders and the guarantees are :class:`admin.mail.outbound.outbox.Outbox`'s.
"""

from __future__ import annotations

import email.policy
import hashlib
import io
import re
import sys
from collections.abc import Iterable, Iterator
from email.generator import BytesGenerator
from email.headerregistry import BaseHeader, HeaderRegistry
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import EmailPolicy, Policy
from email.utils import formatdate, getaddresses
from functools import lru_cache
from pathlib import Path

from admin.mail.outbound.compose import is_plain_address, msgids
from admin.mail.outbound.smtp import ADDRESS_HEADERS, needs_smtputf8


def file_name(message_id: str) -> str:
    """The outbox file name of a Message-ID: readable when the id is tame, always safe, unique."""
    ids = msgids(message_id)
    raw = (ids[0] if ids else message_id).strip("<>")
    safe = re.sub(r"[^A-Za-z0-9._@+=-]", "_", raw).lstrip(".")[:150]
    if safe != raw or not safe:
        safe = f"{safe}-{hashlib.sha256(raw.encode()).hexdigest()[:12]}"
    return f"{safe}.eml"


def eml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    files = [p for p in folder.iterdir() if p.suffix == ".eml" and not p.name.startswith(".")]
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))


def file_message_id(path: Path) -> str:
    """The Message-ID of a queued file, read from its header block only: a results email is
    large, and parsing the whole message for one header was most of the cost of delivering it."""
    try:
        with path.open("rb") as f:
            head = f.read(_HEAD_BYTES)
            if not _END_OF_HEADERS.search(head):
                head += f.read()
        end = _END_OF_HEADERS.search(head)
        found = _MESSAGE_ID.search(head, 0, end.start() if end else len(head))
        ids = msgids(_FOLD.sub(b" ", found.group(1)).decode("utf-8", "replace")) if found else []
    except OSError:
        ids = []
    return ids[0] if ids else f"<unknown: {path.name}>"


_HEAD_BYTES = 16384
_END_OF_HEADERS = re.compile(rb"\r?\n\r?\n")
_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)",  # with folded lines
                         re.IGNORECASE | re.MULTILINE)
_FOLD = re.compile(rb"\r?\n")


def raw_headers(msg: Message) -> dict[str, list[str]]:
    """Each header's values by lower-case name, as stored: checking a message this way does not
    run the header registry's parser once more for every look-up (it parses on each ``get``)."""
    out: dict[str, list[str]] = {}
    for name, value in msg.raw_items():
        out.setdefault(name.lower(), []).append(str(value))
    return out


def first_value(headers: dict[str, list[str]], name: str) -> str:
    values = headers.get(name)
    return values[0] if values else ""


def addresses_in(headers: dict[str, list[str]], names: Iterable[str]) -> list[str]:
    fields = [v for name in names for v in headers.get(name.lower(), ())]
    return [addr for _, addr in getaddresses(fields) if addr]


def has_address(headers: dict[str, list[str]], names: Iterable[str]) -> bool:
    """Whether :func:`addresses_in` finds an address, without parsing the usual value, a plain
    ``name <address>`` (parsing the recipients of every message queued cost more than writing them)."""
    names = tuple(names)
    if any(is_plain_address(v) for name in names for v in headers.get(name.lower(), ())):
        return True
    return bool(addresses_in(headers, names))


def file_bytes(msg: EmailMessage, headers: dict[str, list[str]]) -> bytes:
    """What a queued file holds: the wire format, with a ``Date`` if the message has none.

    Non-ASCII addresses cannot be RFC 2047-encoded: such a message is written as UTF-8 and sent
    with SMTPUTF8 (RFC 6531), which the server then has to offer.
    """
    ascii_only = all(v.isascii() for name in ADDRESS_HEADERS for v in headers.get(name.lower(), ()))
    utf8 = not ascii_only and needs_smtputf8(addresses_in(headers, ADDRESS_HEADERS))
    data = wire_bytes(msg, email.policy.SMTPUTF8 if utf8 else email.policy.SMTP)
    if "date" not in headers:
        data = f"Date: {formatdate(usegmt=True)}\r\n".encode("ascii") + data
    return data


def wire_bytes(msg: Message, policy: Policy) -> bytes:
    """``msg.as_bytes(policy=policy)``, byte for byte, at a fraction of its cost for long bodies
    and for the headers the generator reads (see :class:`_Generator`, :class:`_SharedHeaders`).
    A plain text message, as :func:`admin.mail.outbound.compose.new_message` makes them, skips the
    generator altogether (:func:`_plain_text_bytes`)."""
    plain = _plain_text_bytes(msg, policy)
    if plain is not None:
        return plain
    if policy not in _SHARING:
        _SHARING[policy] = policy.clone(header_factory=_SHARED_HEADERS)  # type: ignore[call-arg]
    out = io.BytesIO()
    _Generator(out, mangle_from_=False, policy=_SHARING[policy]).flatten(msg, unixfrom=False)
    return out.getvalue()


def _plain_text_bytes(msg: Message, policy: Policy) -> bytes | None:
    """What the generator writes for a one-part ``text/plain`` message whose headers are stored as
    text (:func:`admin.mail.outbound.compose.set_header`, :func:`~admin.mail.outbound.compose.set_text`); None for
    any other message. The generator spends most of its time finding out that such a message
    needs nothing done: each header is written as the policy folds it (``fold_binary``, which
    returns a one-line value that fits ``max_line_length`` as ``name: value``, so those are
    written directly), a blank line, then the payload, its line ends made the policy's (as
    :class:`_Generator` does) and encoded as ``BytesGenerator.write`` encodes it."""
    payload = msg._payload  # type: ignore[attr-defined]  # noqa: SLF001 - what the generator itself reads
    items = list(msg.raw_items())
    if not isinstance(payload, str) or not isinstance(policy, EmailPolicy):
        return None
    if next((v for h, v in items if h.lower() == "content-type"), None) not in _PLAIN_TEXT:
        return None
    limit = policy.max_line_length or sys.maxsize
    nl = policy.linesep
    out = []
    for name, value in items:
        if (isinstance(value, str) and policy.refold_source != "all" and value.isascii()
                and value.isprintable() and len(name) + 2 + len(value) <= limit):
            out.append(f"{name}: {value}{nl}".encode("ascii"))
        else:
            folded = policy.fold_binary(name, value)
            if b"=?" in folded and name.lower() in _ID_HEADERS and isinstance(value, str) and value.isascii():
                folded = _ids_folded(name, value, limit, nl)  # never encoded: threading reads them
            out.append(_not_after_colon(folded, name, nl))
    out.append(nl.encode("ascii"))
    body = payload.replace("\n", nl) if "\r" not in payload else _NEWLINE.sub(nl, payload)
    out.append(body.encode("ascii", "surrogateescape"))
    return b"".join(out)


#: headers made of Message-IDs: a mail reader threads by matching them byte for byte
_ID_HEADERS = frozenset(["message-id", "in-reply-to", "references"])


def _ids_folded(name: str, value: str, limit: int, nl: str) -> bytes:
    """A header of Message-IDs folded between ids only. The email package encodes an id longer
    than a line (RFC 2047, ``=?utf-8?q?=3CCAF...``), which no reader matches to the message it
    answers; an id is never split, so its line may pass ``limit`` (RFC 5322's hard limit is 998)."""
    lines = [f"{name}:"]
    for token in value.split():
        if len(lines[-1]) + 1 + len(token) > limit and lines[-1] != f"{name}:":
            lines.append("")
        lines[-1] += f" {token}"
    return (nl.join(lines) + nl).encode("ascii")


def _not_after_colon(folded: bytes, name: str, nl: str) -> bytes:
    """A header as folded, its first fold undone when it came right after the colon: the email
    package folds ``Subject:`` + newline + `` [word...`` when the first word does not fit beside
    the name, which some readers show with a leading space. The longer first line is still far
    under RFC 5322's 998 characters (a word that long is encoded by the policy)."""
    bare = f"{name}:{nl}".encode("ascii")
    if folded.startswith(bare) and folded[len(bare):len(bare) + 1] in (b" ", b"\t"):
        return f"{name}: ".encode("ascii") + folded[len(bare) + 1:]
    return folded


#: the Content-Type values of a plain text message, as :func:`admin.mail.outbound.compose.set_text` sets it
_PLAIN_TEXT = frozenset(['text/plain; charset="utf-8"'])


class _SharedHeaders(HeaderRegistry):
    """The header registry, remembering what it parsed. A header stored as text (as a parsed
    message's are, and :func:`admin.mail.outbound.compose.set_header`'s) is parsed again on every read,
    and the generator reads ``Content-Type`` and ``Content-Transfer-Encoding`` several times per
    message; their values are the same in every message, and header objects are immutable."""

    @lru_cache(maxsize=256)  # noqa: B019 - one module-level instance, kept for the process
    def __call__(self, name: str, value: str) -> BaseHeader:
        return super().__call__(name, value)


_SHARED_HEADERS = _SharedHeaders()
_SHARING: dict[Policy, Policy] = {}


class _Generator(BytesGenerator):
    """The email package's generator, writing a body in one piece: its ``_write_lines`` writes
    each line and each line end on its own (two calls per line, thousands of lines in a results
    email). Replacing every line end with the policy's is the same text."""

    def _write_lines(self, lines: str) -> None:
        if lines:
            nl: str = self._NL  # type: ignore[attr-defined]  # the generator's own line end
            text = lines.replace("\n", nl) if "\r" not in lines else _NEWLINE.sub(nl, lines)
            self.write(text)


_NEWLINE = re.compile(r"\r\n|\r|\n")


def read_eml(path: Path) -> EmailMessage:
    """Parse an outbox file with ``policy.default``.

    Files hold the wire format (CRLF line ends, exactly the bytes SMTP sends); they are read with LF
    line ends so that ``get_content()`` gives back the text that was composed.
    """
    data = path.read_bytes().replace(b"\r\n", b"\n")
    msg = BytesParser(policy=email.policy.default).parsebytes(data)
    assert isinstance(msg, EmailMessage)  # policy.default makes EmailMessage objects
    return msg


def iter_messages(folder: Path) -> Iterator[EmailMessage]:
    """Parse every .eml file of a folder (e.g. ``outbox.sent_dir``) in queue order; see read_eml."""
    for path in eml_files(folder):
        yield read_eml(path)
