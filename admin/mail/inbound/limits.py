"""How much of one email the tool reads: the bound on the work any sender can cause.

An update's time and memory grow with the commands it accepts, not with the bytes it is sent, so
every email is cut to these limits before it is parsed, acted on or answered (the ``[mail]``
section of ``nomopoly.toml`` may change them; the defaults are far above what a player writes):

- ``max_bytes``: an email larger than this is refused unread (only its headers are looked at);
- ``max_lines``: the lines read for commands; from the first line over it, nothing is read and
  one verdict says so;
- ``max_commands``: the commands carried out; each command over it gets a "not carried out"
  verdict.

Headers that only an attack writes are refused before they are parsed: a ``Content-Type`` or
``Content-Disposition`` field longer than :data:`MAX_MIME_HEADER` characters, or all of them
together longer than :data:`MAX_MIME_HEADERS` (Python's parser takes time that grows faster than
their length: 50 KB of RFC 2231 parameters took seconds). And a receipt quotes at most
:data:`RECEIPT_BUDGET` characters (:func:`admin.mail.outbound.verdicts.cap_results`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from admin.engine.errors import StateError

__all__ = ["MailLimits", "MAX_LINE_CHARS", "MAX_MIME_HEADER", "MAX_MIME_HEADERS", "MAX_PARTS", "RECEIPT_BUDGET",
           "absurd_mime_header", "too_many_parts", "without_mime_headers"]

#: A line longer than this is refused (a paragraph of a proposal is a few hundred characters).
MAX_LINE_CHARS = 5000
#: The longest Content-Type or Content-Disposition field read (real ones are under 300).
MAX_MIME_HEADER = 4000
#: The most characters of Content-Type and Content-Disposition fields read in one email.
MAX_MIME_HEADERS = 16000
#: The characters of quoted lines and verdicts one receipt may hold.
RECEIPT_BUDGET = 60_000
#: The most MIME boundary lines (lines starting "--") read in one email: real mail has a handful;
#: tens of thousands of empty parts cost the parser seconds and gigabytes.
MAX_PARTS = 200


@dataclass(frozen=True)
class MailLimits:
    """The ``[mail]`` limits of a game (see the module's docstring)."""

    max_bytes: int = 1_000_000
    max_lines: int = 500
    max_commands: int = 100

    @classmethod
    def from_settings(cls, mail: Mapping[str, Any]) -> MailLimits:
        """Read the limits from the ``[mail]`` section; a bad value is an error naming the key."""
        values: dict[str, int] = {}
        for key in ("max_bytes", "max_lines", "max_commands"):
            if key not in mail:
                continue
            value = mail[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise StateError(f"nomopoly.toml: [mail] {key} = {value!r} is not a whole number "
                                 f"of at least 1; write for example {key} = {getattr(cls, key)}.")
            values[key] = value
        return cls(**values)


#: A Content-Type or Content-Disposition field, folded lines included, at the start of a line
#: (of the top header block or of any part's). Linear: each alternative consumes a whole line.
_MIME_FIELD = re.compile(rb"^content-(?:type|disposition)[ \t]*:[^\n]*(?:\n[ \t][^\n]*)*",
                         re.IGNORECASE | re.MULTILINE)


def absurd_mime_header(raw: bytes) -> str | None:
    """Why ``raw``'s MIME headers are too long to parse safely, or None when they are not."""
    total = 0
    for m in _MIME_FIELD.finditer(raw):
        size = m.end() - m.start()
        if size > MAX_MIME_HEADER:
            name = m.group(0).split(b":", 1)[0].decode("ascii", "replace").strip()
            return (f"This email has a {name} header of {size:,} characters (the limit is "
                    f"{MAX_MIME_HEADER:,}); it was not read. Send your commands in a plain-text email.")
        total += size
        if total > MAX_MIME_HEADERS:
            return (f"This email's Content-Type and Content-Disposition headers hold more than "
                    f"{MAX_MIME_HEADERS:,} characters; it was not read. Send your commands in a "
                    "plain-text email.")
    return None


def too_many_parts(raw: bytes) -> str | None:
    """Why ``raw`` has too many MIME parts to parse, or None: counted in its bytes, before parsing."""
    boundaries = raw.count(b"\n--") + raw.startswith(b"--")
    if boundaries <= MAX_PARTS:
        return None
    return (f"This email has {boundaries:,} MIME part boundaries (the limit is {MAX_PARTS}); it was not "
            "read. Send your commands in a plain-text email.")


def without_mime_headers(block: bytes) -> bytes:
    """A header block with its Content-Type and Content-Disposition fields taken out."""
    return _MIME_FIELD.sub(b"X-Nomopoly-Removed: (a MIME header too long to read)", block)
