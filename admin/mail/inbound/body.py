"""The text of an email: charsets, encoded words, HTML, format=flowed, which lines carry commands.

Split out of :mod:`admin.mail.inbound.message` (which finds the body part and reads the headers) so that
each module stays small; everything here works on bytes or text already taken out of the MIME
structure, so it is shared as is by the general parse and the fast path for plain mail.

Command lines are the body's lines that are not quoted (``>``) and lie above the first of: a
signature separator (``-- ``), a "Sent from my phone" footer, an "On ... wrote:" line (also
French and German), ``-----Original Message-----``, an Outlook header block (``From:`` then
``Sent:``/``To:``/``Subject:``), or a forwarded-message marker.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class BodyLine:
    """One line of the decoded text body; ``number`` is 1-based, or 0 for the Subject."""

    number: int
    text: str


# ---------------------------------------------------------------- charsets

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

    if "=?" not in text:
        return text
    joined = re.sub(r"(\?=)\s+(?==\?)", r"\1", text)  # whitespace between encoded words goes
    return _ENCODED_WORD.sub(one, joined)


def _western(raw: bytes) -> str:
    """Windows-1252 (Latin-1 plus curly quotes, dashes and the euro sign); its five undefined
    bytes read as Latin-1."""
    text = raw.decode("cp1252", errors="surrogateescape")
    return re.sub("[\udc80-\udcff]", lambda m: chr(ord(m.group()) - 0xDC00), text)


# ---------------------------------------------------------------- HTML and format=flowed


def unflow(text: str, delsp: bool) -> str:
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


def command_lines(text: str, *, max_lines: int | None = None) -> tuple[tuple[BodyLine, ...], int | None]:
    """The lines of ``text`` that may carry commands, numbered as in the body (so a verdict can
    point at the player's own line): quoted lines are skipped, everything from the first cut
    marker on is dropped, and blank lines are trimmed from both ends.

    At most ``max_lines`` lines with text are kept: the second value is then the number of the
    first line left unread (None when every line was read)."""
    text = text.replace("\x00", "").replace("\ufeff", "").replace("\u200b", "")
    raw_lines = re.sub(r"\r*\n", "\n", text).replace("\r", "\n").split("\n")
    kept: list[BodyLine] = []
    unread_from: int | None = None
    counted = 0
    for i, line in enumerate(raw_lines):
        if _is_cut(raw_lines, i):
            while kept and (not kept[-1].text.strip() or _RULE.match(kept[-1].text.strip())):
                kept.pop()  # the ____ rule Outlook puts above its header block
            break
        if line.lstrip().startswith(">"):
            continue
        if line.strip():
            if max_lines is not None and counted == max_lines:
                unread_from = i + 1
                break
            counted += 1
        kept.append(BodyLine(i + 1, line.rstrip().replace("\xa0", " ")))
    while kept and not kept[-1].text:
        kept.pop()
    first = next((i for i, line in enumerate(kept) if line.text), len(kept))
    return tuple(kept[first:]), unread_from


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
