"""Raw email bytes -> the header facts and the body lines that may carry commands.

:func:`read_message` never raises: whatever arrives (malformed headers, bogus charsets, invalid
UTF-8, NUL bytes, absurd MIME nesting) it returns a :class:`MailText`, and anything it had to
repair or give up on is described in ``problems`` for the receipt and the admin.

Two ways to the same result. Almost every player writes a single-part ``text/plain`` email, and
the general parse (``policy.default``) spends most of its time in the header registry re-parsing
Content-Type for every question asked of it (about ten registry parses per message). So a message
whose MIME headers are *simple* (one part; Content-Type absent or ``text/plain``/``text/html``
with plain ``name=value`` parameters; a bare Content-Transfer-Encoding; no Content-Disposition
but ``inline``) is split by the same parser under ``policy.compat32``, which stores and returns
header values as they are, and its few MIME facts are read with one strict regex
(:func:`_simple_facts`). Everything else (multipart, attachments, comments, RFC 2231 parameters,
folded or 8-bit MIME headers, oversize mail) takes the general path. Both paths then share the
header reading, the body decoding and the line cutting, and the tests check that they give equal
:class:`MailText` on the whole corpus and on generated messages. The From header is parsed by
the RFC 5322 header registry on both paths (see :func:`_from`).

Charsets, encoded words, HTML and which body lines carry commands are in :mod:`admin.mail.inbound.body`.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import timezone
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from typing import Literal

from admin.mail.inbound.sender import BAD_FROM, RAW_CONTROL, clean_header, sender_of
from admin.mail.inbound.body import (BodyLine, command_lines, decode_bytes, decode_words, html_to_text,
                             strip_subject, unflow)
from admin.mail.inbound.limits import absurd_mime_header, too_many_parts, without_mime_headers

__all__ = ["BodyLine", "MailText", "MailKind", "MAX_MIME_DEPTH", "read_message", "decode_words",
           "clean_header", "decode_bytes", "html_to_text", "strip_subject"]

MailKind = Literal["normal", "auto-reply", "bounce"]

#: Deeper MIME trees than this are not searched for a body (real mail nests 3 or 4 levels).
MAX_MIME_DEPTH = 20


@dataclass(frozen=True)
class MailText:
    """What :func:`read_message` makes of one email."""

    message_id: str
    sender: str
    display_name: str
    subject: str
    date: str | None
    in_reply_to: str | None
    references: tuple[str, ...]
    return_path: str | None
    kind: MailKind
    lines: tuple[BodyLine, ...]
    problems: tuple[str, ...]
    authentication_results: tuple[str, ...]
    #: the body line number from which nothing was read (the email is longer than ``max_lines``)
    unread_from: int | None = None


def read_message(raw: bytes | str, *, max_bytes: int = 1_000_000, max_lines: int | None = None,
                 fast_path: bool = True) -> MailText:
    """Read one raw email (bytes; text is taken as UTF-8). Never raises.

    At most ``max_lines`` lines that may carry commands are kept (``unread_from`` says where the
    rest begins). ``fast_path=False`` forces the general parse for every message; the result is
    the same (the tests compare the two), only slower."""
    data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)
    digest_id = "sha256:" + hashlib.sha256(data).hexdigest()
    try:
        return _read(data, max_bytes, max_lines, digest_id, fast_path)
    except Exception as exc:  # a safety net: each step below already guards its own input
        return MailText(digest_id, "", "", "", None, None, (), None, "normal", (),
                        (f"This email could not be read ({type(exc).__name__}).",), ())


def _read(raw: bytes, max_bytes: int, max_lines: int | None, digest_id: str,
          fast_path: bool) -> MailText:
    problems: list[str] = []
    oversize = len(raw) > max_bytes
    if oversize:
        problems.append(
            f"This email is {len(raw)} bytes; the limit is {max_bytes} bytes. "
            "Send your commands in a shorter plain-text email."
        )
        raw = _header_block(raw, max_bytes)
    absurd = absurd_mime_header(raw) or too_many_parts(raw)
    if absurd:  # refused before the parser sees it: the other headers are read, not the body
        if not oversize:
            problems.append(absurd)
        raw = without_mime_headers(_header_block(raw, max_bytes))
    raw = raw.replace(b"\x00", b"")
    simple = _parse_simple(raw) if fast_path and not oversize and not absurd else None
    msg, facts = simple if simple is not None else (_parse(raw, problems), None)
    headers = _headers(msg)
    subject = clean_header(decode_words(_one(headers, "subject") or ""))
    lines: tuple[BodyLine, ...] = ()
    unread_from = None
    if not oversize and msg is not None:
        text = "" if absurd else (_simple_text(msg, facts, problems) if facts is not None
                                  else _body_text(msg, problems))
        lines, unread_from = command_lines(text, max_lines=max_lines)
        if not any(line.text.strip() for line in lines):
            stripped = strip_subject(subject)
            lines = (BodyLine(0, stripped),) if stripped else ()
    sender, display_name = sender_of(headers, problems)
    return_path = _return_path(headers)
    return MailText(
        message_id=_first_id(_one(headers, "message-id")) or digest_id,
        sender=sender,
        display_name=display_name,
        subject=subject,
        date=_iso_date(_one(headers, "date")),
        in_reply_to=_first_id(_one(headers, "in-reply-to")),
        references=_ids(" ".join(headers.get("references", []))),
        return_path=return_path,
        kind=_kind(headers, sender, return_path),
        lines=lines,
        problems=tuple(problems),
        authentication_results=tuple(headers.get("authentication-results", [])),
        unread_from=unread_from,
    )


# ---------------------------------------------------------------- the fast path (simple mail)


@dataclass(frozen=True)
class _SimpleFacts:
    """The MIME facts of a simple message, as the general path's MIME methods would give them:
    ``get_content_subtype()``, ``get_content_charset()`` and the format/delsp parameters."""

    subtype: str
    charset: str | None
    flowed: bool
    delsp: bool


_TOKEN = r"[A-Za-z0-9._+-]+"
#: A Content-Type the registry and the compat32 helpers read alike: text/plain or text/html, then
#: ``name=value`` parameters, each value a token or a quoted token (no comments, no backslashes,
#: no RFC 2231 ``name*``, no folding, ASCII only).
_SIMPLE_TYPE = re.compile(
    rf"[ \t]*text/(plain|html)((?:[ \t]*;[ \t]*[A-Za-z][A-Za-z0-9-]*=(?:{_TOKEN}|\"{_TOKEN}\"))*)"
    r"[ \t]*(?:;[ \t]*)?", re.IGNORECASE | re.ASCII)  # no two adjacent [ \t]*: linear, no backtracking
#: Longer MIME header values are never simple (real ones are under 100 characters).
MAX_SIMPLE_VALUE = 200
_SIMPLE_PARAM = re.compile(rf"([A-Za-z][A-Za-z0-9-]*)=(?:({_TOKEN})|\"({_TOKEN})\")", re.ASCII)
_SIMPLE_CTE = re.compile(r"7bit|8bit|binary|quoted-printable|base64", re.IGNORECASE | re.ASCII)
_SIMPLE_DISPOSITION = re.compile(r"inline", re.IGNORECASE | re.ASCII)
_MIME_HEADERS = ("content-type", "content-transfer-encoding", "content-disposition")


def _simple_facts(msg: Message) -> _SimpleFacts | None:
    """The facts of a one-part message whose MIME headers are simple; None for any other.

    Header names are compared as ``Message.get`` compares them (the whole name, any case), so
    the general path would look at exactly the values checked here."""
    if msg.is_multipart():
        return None
    found: dict[str, list[str]] = {name: [] for name in _MIME_HEADERS}
    for name, value in msg.raw_items():
        key = name.lower()
        if key in found:
            found[key].append(value)
    ctype, cte, disposition = (found[name] for name in _MIME_HEADERS)
    if len(ctype) > 1 or len(cte) > 1 or len(disposition) > 1:
        return None
    if any(len(values[0]) > MAX_SIMPLE_VALUE for values in (ctype, cte, disposition) if values):
        return None
    if cte and not _SIMPLE_CTE.fullmatch(cte[0]):
        return None
    if disposition and not _SIMPLE_DISPOSITION.fullmatch(disposition[0]):
        return None
    if not ctype:  # no Content-Type: text/plain (RFC 2045), no parameters
        return _SimpleFacts("plain", None, False, False)
    m = _SIMPLE_TYPE.fullmatch(ctype[0])
    if m is None:
        return None
    params: dict[str, str] = {}
    for p in _SIMPLE_PARAM.finditer(m.group(2)):
        name = p.group(1).lower()
        if name in params:  # a repeated parameter: leave the tie-break to the general path
            return None
        params[name] = p.group(2) if p.group(2) is not None else p.group(3)
    charset = params.get("charset")
    return _SimpleFacts(m.group(1).lower(), charset.lower() if charset is not None else None,
                        params.get("format", "").lower() == "flowed",
                        params.get("delsp", "").lower() == "yes")


def _parse_simple(raw: bytes) -> tuple[Message, _SimpleFacts] | None:
    """``raw`` split by the compat32 parser, with its facts, if it is simple; else None.

    For a simple message the two policies build the same tree (the parser consults only the
    Content-Type, and reads ``text/...`` alike under both) and store the same raw headers. The
    split is headers-only: for a ``text/...`` part the parser makes the rest of the input the
    payload either way, and multipart mail, which goes on to the general path, is not parsed
    twice."""
    try:
        msg = BytesParser(policy=policy.compat32).parsebytes(raw, headersonly=True)
        facts = _simple_facts(msg)
    except Exception:  # RecursionError included: the general path reports it
        return None
    return None if facts is None else (msg, facts)


def _simple_text(msg: Message, facts: _SimpleFacts, problems: list[str]) -> str:
    """:func:`_body_text` for a simple message: the same steps with the facts read once."""
    try:
        payload = msg.get_payload(decode=True)  # the CTE is a bare token: read alike by both
        if not isinstance(payload, bytes):
            payload = str(msg.get_payload()).encode("utf-8", "surrogateescape")
        text, problem = decode_bytes(payload, facts.charset)
        if problem:
            problems.append(problem)
        if facts.subtype == "html":
            return html_to_text(text)
        if facts.flowed:
            return unflow(text, facts.delsp)
        return text
    except Exception:  # RecursionError included
        problems.append("The text of this email could not be read.")
        return ""


# ---------------------------------------------------------------- the general path


def _header_block(raw: bytes, max_bytes: int) -> bytes:
    """The header section of an oversize message, so its sender and kind are still known."""
    head = raw[: max(max_bytes, 65536)]
    ends = [i for i in (head.find(b"\r\n\r\n"), head.find(b"\n\n")) if i >= 0]
    end = min(ends) if ends else head.rfind(b"\n")
    return head[: max(end, 0)] + b"\n\n"


def _parse(raw: bytes, problems: list[str]) -> Message | None:
    try:
        return BytesParser(policy=policy.default).parsebytes(raw)
    except Exception:  # RecursionError included
        pass
    problems.append("The parts of this email are too deeply nested or malformed to read; "
                    "send your commands in a plain-text email.")
    try:  # the MIME structure defeated the parser; keep the headers at least
        headers_only = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
        headers_only.set_payload("")
        return headers_only
    except Exception:  # RecursionError included
        problems.append("This email could not be read as an email message.")
        return None


def _depth(msg: Message) -> int:
    deepest, stack = 0, [(msg, 1)]
    while stack:
        part, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_MIME_DEPTH:
            return level
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            stack.extend((p, level + 1) for p in payload if isinstance(p, Message))
    return deepest


def _body_text(msg: Message, problems: list[str]) -> str:
    try:
        if _depth(msg) > MAX_MIME_DEPTH:
            problems.append(f"This email's parts nest deeper than {MAX_MIME_DEPTH} levels; "
                            "its body was not read. Send a plain-text email.")
            return ""
        body = msg.get_body(preferencelist=("plain", "html")) if isinstance(
            msg, EmailMessage) else None
        if body is None:
            return ""
        payload = body.get_payload(decode=True)
        if not isinstance(payload, bytes):
            payload = str(body.get_payload()).encode("utf-8", "surrogateescape")
        text, problem = decode_bytes(payload, body.get_content_charset())
        if problem:
            problems.append(problem)
        if body.get_content_subtype() == "html":
            return html_to_text(text)
        if str(body.get_param("format", "")).lower() == "flowed":
            return unflow(text, str(body.get_param("delsp", "")).lower() == "yes")
        return text
    except Exception:  # RecursionError included
        problems.append("The text of this email could not be read.")
        return ""


# ---------------------------------------------------------------- headers (both paths)


def _headers(msg: Message | None) -> dict[str, list[str]]:
    """Header name (lowercase) -> unfolded raw values, read without the (fragile) header registry.

    Encoded words are NOT decoded here: addresses must be parsed from the raw value, or a display
    name like ``=?utf-8?q?bob=40example.org?=`` could smuggle in an address of its choosing.
    ``raw_items`` gives the values as the parser stored them, the same under either policy.
    """
    found: dict[str, list[str]] = {}
    if msg is None:
        return found
    try:
        items = list(msg.raw_items())
    except Exception:
        return found
    for name, value in items:
        text = _unescape(str(value))
        key = str(name).strip().lower()
        if key == "from" and RAW_CONTROL.search(_FOLD.sub("", text)):
            found.setdefault(BAD_FROM, []).append(key)  # a bare CR or a control character: no sender
        text = _FOLD.sub("", text).replace("\r", "").replace("\n", " ")
        found.setdefault(key, []).append(text.strip())
    return found


_FOLD = re.compile(r"\r?\n(?=[ \t])")


def _unescape(text: str) -> str:
    """Undo the parser's surrogateescape of 8-bit header bytes, reading them as UTF-8."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").replace("\x00", "")


def _one(headers: dict[str, list[str]], name: str) -> str | None:
    values = headers.get(name)
    return values[0] if values else None


def _ids(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    bracketed = re.findall(r"<([^<>\s]+)>", text)
    return tuple(bracketed or text.split())


def _first_id(text: str | None) -> str | None:
    ids = _ids(text)
    return ids[0] if ids else None


def _return_path(headers: dict[str, list[str]]) -> str | None:
    value = _one(headers, "return-path")
    if value is None:
        return None
    return value.strip().strip("<>").strip()


def _iso_date(value: str | None) -> str | None:
    if not value:
        return None
    try:
        when = parsedate_to_datetime(value[:200])
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except Exception:
        return None


def _kind(headers: dict[str, list[str]], sender: str, return_path: str | None) -> MailKind:
    content_type = (_one(headers, "content-type") or "").split(";")[0].strip().lower()
    local = sender.split("@")[0]
    if local in ("mailer-daemon", "postmaster") or return_path == "" or (
        content_type == "multipart/report"
    ):
        return "bounce"
    auto = (_one(headers, "auto-submitted") or "no").split(";")[0].strip().lower()
    precedence = (_one(headers, "precedence") or "").strip().lower()
    suppress = (_one(headers, "x-auto-response-suppress") or "").lower()
    if (
        auto != "no"  # RFC 3834
        or any(h in headers for h in _AUTO_HEADERS)
        or precedence in ("bulk", "junk", "list", "auto_reply", "auto-reply")
        or any(word in suppress for word in ("oof", "autoreply", "all"))  # Exchange's own replies
        or (_one(headers, "x-post-messageclass") or "").strip().startswith("9")  # Exchange OOF
    ):
        return "auto-reply"
    return "normal"


#: headers that only automatic mail carries (autoresponders, vacation programs, mailing lists)
_AUTO_HEADERS = ("x-autoreply", "x-autorespond", "x-autogenerated", "x-auto-generated",
                 "x-mail-autoreply", "x-fc-machinegenerated", "x-autoresponder", "list-id",
                 "list-unsubscribe", "feedback-id")
