"""Raw email bytes -> the header facts and the body lines that may carry commands.

:func:`read_message` never raises: whatever arrives (malformed headers, bogus charsets, invalid
UTF-8, NUL bytes, absurd MIME nesting) it returns a :class:`MailText`, and anything it had to
repair or give up on is described in ``problems`` for the receipt and the admin.

Command lines are the body's lines that are not quoted (``>``) and lie above the first of: a
signature separator (``-- ``), a "Sent from my phone" footer, an "On ... wrote:" line (also
French and German), ``-----Original Message-----``, an Outlook header block (``From:`` then
``Sent:``/``To:``/``Subject:``), or a forwarded-message marker.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import hashlib
import re
from dataclasses import dataclass
from datetime import timezone
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.headerregistry import HeaderRegistry
from email.utils import getaddresses, parsedate_to_datetime
from typing import Literal

MailKind = Literal["normal", "auto-reply", "bounce"]

#: Deeper MIME trees than this are not searched for a body (real mail nests 3 or 4 levels).
MAX_MIME_DEPTH = 20


@dataclass(frozen=True)
class BodyLine:
    """One line of the decoded text body; ``number`` is 1-based, or 0 for the Subject."""

    number: int
    text: str


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


def read_message(raw: bytes, *, max_bytes: int = 1_000_000) -> MailText:
    """Read one raw email. Never raises."""
    raw = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else bytes(raw)
    digest_id = "sha256:" + hashlib.sha256(raw).hexdigest()
    try:
        return _read(raw, max_bytes, digest_id)
    except Exception as exc:  # a safety net: each step below already guards its own input
        return MailText(digest_id, "", "", "", None, None, (), None, "normal", (),
                        (f"This email could not be read ({type(exc).__name__}).",), ())


def _read(raw: bytes, max_bytes: int, digest_id: str) -> MailText:
    problems: list[str] = []
    oversize = len(raw) > max_bytes
    if oversize:
        problems.append(
            f"This email is {len(raw)} bytes; the limit is {max_bytes} bytes. "
            "Send your commands in a shorter plain-text email."
        )
        raw = _header_block(raw, max_bytes)
    msg = _parse(raw.replace(b"\x00", b""), problems)
    headers = _headers(msg)
    subject = clean_header(decode_words(_one(headers, "subject") or ""))
    lines: tuple[BodyLine, ...] = ()
    if not oversize and msg is not None:
        lines = _command_lines(_body_text(msg, problems))
        if not any(line.text.strip() for line in lines):
            stripped = strip_subject(subject)
            lines = (BodyLine(0, stripped),) if stripped else ()
    sender, display_name = _from(headers, problems)
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
        kind=_kind(headers, sender, return_path, msg),
        lines=lines,
        problems=tuple(problems),
        authentication_results=tuple(headers.get("authentication-results", [])),
    )


# ---------------------------------------------------------------- parsing and headers


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


def _headers(msg: Message | None) -> dict[str, list[str]]:
    """Header name (lowercase) -> unfolded raw values, read without the (fragile) header registry.

    Encoded words are NOT decoded here: addresses must be parsed from the raw value, or a display
    name like ``=?utf-8?q?bob=40example.org?=`` could smuggle in an address of its choosing.
    """
    found: dict[str, list[str]] = {}
    if msg is None:
        return found
    try:
        items = list(msg.raw_items()) if isinstance(msg, EmailMessage) else list(msg.items())
    except Exception:
        return found
    for name, value in items:
        text = _unescape(str(value))
        text = re.sub(r"\r?\n(?=[ \t])", "", text).replace("\r", "").replace("\n", " ")
        found.setdefault(str(name).strip().lower(), []).append(text.strip())
    return found


def _unescape(text: str) -> str:
    """Undo the parser's surrogateescape of 8-bit header bytes, reading them as UTF-8."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").replace("\x00", "")


_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")


def decode_words(text: str) -> str:
    """Decode RFC 2047 encoded words (``=?utf-8?q?Caf=C3=A9?=``); bad ones are decoded loosely."""

    def one(m: re.Match[str]) -> str:
        charset, encoding, data = m.group(1).split("*")[0], m.group(2).upper(), m.group(3)
        try:
            if encoding == "B":
                raw = base64.b64decode(data + "=" * (-len(data) % 4))
            else:
                raw = binascii.a2b_qp(data.encode("ascii", "replace"), header=True)
        except (binascii.Error, ValueError):
            return m.group(0)
        return decode_bytes(raw, charset)[0]

    joined = re.sub(r"(\?=)\s+(?==\?)", r"\1", text)  # whitespace between encoded words goes
    return _ENCODED_WORD.sub(one, joined)


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


def _from(headers: dict[str, list[str]], problems: list[str]) -> tuple[str, str]:
    """The From addr-spec (parsed from the raw header) and its decoded display name.

    A name that decodes to line breaks or other control characters is a header-injection
    attempt no mail client makes: such mail is treated as coming from no one.
    """
    value = _one(headers, "from")
    if not value:
        return "", ""
    try:
        # The RFC 5322 parser of policy.default tokenises first and decodes encoded words only
        # inside the display name, so "=?utf-8?q?Bob_<bob@x>?= <mallory@y>" is mallory.
        pairs = [(a.display_name, a.addr_spec) for a in _HEADERS("from", value[:2000]).addresses]
    except ValueError:  # the parser refuses a name that decodes to CR or LF: header injection
        problems.append("The From header hides line breaks or control characters in its "
                        "name; this email is not treated as coming from any address.")
        names = [name for name, _ in getaddresses([value[:2000]])]
        return "", clean_header(decode_words(names[0])) if names else ""
    except Exception:
        return "", ""
    for decoded, addr in pairs:
        addr = addr.strip()
        if re.fullmatch(r"[^\s@<>]+@[^\s@<>]+", addr):
            if _CONTROL.search(decoded):
                problems.append("The From header hides line breaks or control characters in its "
                                "name; this email is not treated as coming from any address.")
                return "", clean_header(decoded)
            return addr.lower(), decoded.strip()
    return "", (clean_header(pairs[0][0]) if pairs else "")


_HEADERS = HeaderRegistry()


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_header(text: str) -> str:
    """A decoded header value safe to quote anywhere: control characters become spaces."""
    return _CONTROL.sub(" ", text).strip()


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


def _kind(
    headers: dict[str, list[str]], sender: str, return_path: str | None, msg: Message | None
) -> MailKind:
    content_type = (_one(headers, "content-type") or "").split(";")[0].strip().lower()
    local = sender.split("@")[0]
    if local in ("mailer-daemon", "postmaster") or return_path == "" or (
        content_type == "multipart/report"
    ):
        return "bounce"
    auto = (_one(headers, "auto-submitted") or "no").split(";")[0].strip().lower()
    precedence = (_one(headers, "precedence") or "").strip().lower()
    if (
        auto != "no"
        or any(h in headers for h in ("x-autoreply", "x-autorespond", "list-id", "list-unsubscribe"))
        or precedence in ("bulk", "junk", "list")
    ):
        return "auto-reply"
    return "normal"


# ---------------------------------------------------------------- body


#: Python text codecs that no mail client labels a body with; treated as unknown charsets.
_NOT_MAIL_CHARSETS = frozenset({"idna", "punycode", "unicode-escape", "raw-unicode-escape",
                                "undefined"})


def decode_bytes(raw: bytes, charset: str | None) -> tuple[str, str | None]:
    """Decode ``raw`` in ``charset``; returns the text and a problem if anything was replaced.

    A missing, ASCII or unknown charset tries UTF-8 then Latin-1 (which decodes anything); a
    known charset that does not fit the bytes decodes with replacement characters.
    """
    name = (charset or "").strip().strip('"').lower()[:40]
    codec = None
    try:
        info = codecs.lookup(name) if name else None
        if info is not None and getattr(info, "_is_text_encoding", True):
            codec = None if info.name in _NOT_MAIL_CHARSETS else info.name
    except (LookupError, ValueError):
        pass
    if codec in (None, "ascii"):
        try:
            text = raw.decode("utf-8")
            if name and codec is None:
                return text, f'The charset "{name}" is unknown; the text was read as UTF-8.'
            return text, None
        except UnicodeDecodeError:
            if name and codec is None:
                return _western(raw), (
                    f'The charset "{name}" is unknown; the text was read as Latin-1.')
            return _western(raw), "The text was not valid UTF-8; it was read as Latin-1."
    if codec == "iso8859-1":  # as browsers do: mail labelled Latin-1 is often Windows-1252
        return _western(raw), None
    try:
        return raw.decode(codec), None
    except Exception:
        pass
    try:
        text = raw.decode(codec, errors="replace")
    except Exception:
        text = raw.decode("utf-8", errors="replace")
    return text, f'Some bytes were not valid "{name}" and were replaced with \ufffd.'


def _western(raw: bytes) -> str:
    """Windows-1252 (Latin-1 plus curly quotes, dashes and the euro sign); its five undefined
    bytes read as Latin-1."""
    text = raw.decode("cp1252", errors="surrogateescape")
    return re.sub("[\udc80-\udcff]", lambda m: chr(ord(m.group()) - 0xDC00), text)


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
            return _unflow(text, str(body.get_param("delsp", "")).lower() == "yes")
        return text
    except Exception:  # RecursionError included
        problems.append("The text of this email could not be read.")
        return ""


def _unflow(text: str, delsp: bool) -> str:
    """Join format=flowed (RFC 3676) soft line breaks back into whole lines."""
    out: list[str] = []
    carry = ""
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line[1:] if line.startswith(" ") else line  # space-stuffing
        if line.endswith(" ") and line != "-- " and not line.startswith(">"):
            carry += line[:-1] if delsp else line
            continue
        out.append(carry + line)
        carry = ""
    if carry:
        out.append(carry)
    return "\n".join(out)


_BLOCK_TAGS = frozenset({"p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4",
                         "h5", "h6", "pre", "hr", "section", "article", "header", "footer", "dt",
                         "dd"})
_SKIPPED_TAGS = frozenset({"script", "style", "head", "title", "blockquote", "template"})


def html_to_text(html: str) -> str:
    """HTML -> text with a line break per ``br`` and around block elements; quotes dropped.

    Inline elements (``<b>BUY</b> 14``) stay on one line and whitespace is collapsed as a
    browser would, except inside ``pre``. The walk is iterative: deep or wide markup is linear.
    """
    try:
        from bs4 import BeautifulSoup
        from bs4.element import CData, NavigableString, Tag

        out: list[str] = []
        stack: list[tuple[object, bool, bool]] = [
            (BeautifulSoup(html, "html.parser"), False, False)]
        while stack:
            node, closing, in_pre = stack.pop()
            if closing:
                out.append("\n")
            elif isinstance(node, Tag):
                name = (node.name or "").lower()
                if name in _SKIPPED_TAGS:
                    continue
                if name == "br":
                    out.append("\n")
                    continue
                if name in _BLOCK_TAGS:
                    out.append("\n")
                    stack.append((node, True, in_pre))
                child_pre = in_pre or name == "pre"
                stack.extend((child, False, child_pre) for child in reversed(node.contents))
            elif type(node) in (NavigableString, CData):
                out.append(str(node) if in_pre else re.sub(r"\s+", " ", str(node)))
        text = "".join(out)
    except Exception:  # RecursionError included
        text = re.sub(r"<(br|/p|/div)[^>]*>", "\n", html, flags=re.IGNORECASE)
        text = re.sub(r"<[^>]*>", "", text)
    return "\n".join(line.strip() for line in text.replace("\xa0", " ").split("\n"))


# ---------------------------------------------------------------- which lines carry commands

_WROTE = re.compile(
    r"^(On\s.*\swrote|Le\s.*\sa\sécrit|Am\s.*\sschrieb(\s.*)?|El\s.*\sescribió)\s?:$",
    re.IGNORECASE,
)
#: Longer lines are never cut markers (this also keeps the regexes above cheap).
MAX_MARKER_LENGTH = 300
_WROTE_START = re.compile(r"^(On|Le|Am|El)\s", re.IGNORECASE)
_MARKERS = re.compile(
    r"^(--|-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}"
    r"|-{2,}\s*Forwarded message\s*-{2,}|Begin forwarded message:"
    r"|Sent from my\s.{1,40}|Get Outlook for (iOS|Android)"
    r"|Sent (from|with) (Yahoo|Outlook|Mail for Windows|Proton ?Mail|AOL|Samsung)\b.{0,40})$",
    re.IGNORECASE,
)
_OUTLOOK_FROM = re.compile(r"^\**(From|Von|De)\s*:\**\s", re.IGNORECASE)
_OUTLOOK_NEXT = re.compile(r"^\**(Sent|Date|To|Subject|Gesendet|An|Betreff|Envoyé)\s*:", re.I)
_RULE = re.compile(r"^[_\-=*]{5,}$")


def _is_cut(lines: list[str], i: int) -> bool:
    line = lines[i].strip()
    if len(line) > MAX_MARKER_LENGTH:
        return False
    if _MARKERS.match(line) or _WROTE.match(line):
        return True
    if _WROTE_START.match(line) and i + 1 < len(lines):
        joined = line + " " + lines[i + 1].strip()
        if len(joined) <= MAX_MARKER_LENGTH and _WROTE.match(joined):
            return True
    if _OUTLOOK_FROM.match(line):
        return any(_OUTLOOK_NEXT.match(nxt.strip()) for nxt in lines[i + 1 : i + 5])
    return False


def _command_lines(text: str) -> tuple[BodyLine, ...]:
    text = text.replace("\x00", "").replace("\ufeff", "").replace("\u200b", "")
    raw_lines = re.sub(r"\r*\n", "\n", text).replace("\r", "\n").split("\n")
    kept: list[BodyLine] = []
    for i, line in enumerate(raw_lines):
        if _is_cut(raw_lines, i):
            while kept and (not kept[-1].text.strip() or _RULE.match(kept[-1].text.strip())):
                kept.pop()  # the ____ rule Outlook puts above its header block
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(BodyLine(i + 1, line.rstrip().replace("\xa0", " ")))
    while kept and not kept[-1].text:
        kept.pop()
    first = next((i for i, line in enumerate(kept) if line.text), len(kept))
    return tuple(kept[first:])


_SUBJECT_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|aw|wg|sv|vs|antw|tr)\s*(?:\[\d+\])?\s*:|\[[^\]]*\])\s*", re.IGNORECASE
)


def strip_subject(subject: str) -> str:
    """``"Re: [nomopoly] Fwd: BUY 14"`` -> ``"BUY 14"``."""
    text = subject.replace("\x00", "")[:1000]
    for _ in range(50):
        shorter = _SUBJECT_PREFIX.sub("", text, count=1)
        if shorter == text:
            break
        text = shorter
    return text.strip()
