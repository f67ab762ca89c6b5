"""Who sent an email, as its From field says: one plain address, parsed from the raw field (never
from decoded words, which could smuggle in an address), and the decoded display name. Two From
fields, control characters in one, text around the address, a second address or an address
in encoded words: no mail program writes these, and such an email comes from no one."""

from __future__ import annotations

import functools
import re
from email import errors
from email.headerregistry import AddressHeader, HeaderRegistry
from email.utils import getaddresses
from typing import cast

from admin.mail.inbound.body import decode_words

#: control characters (a bare CR among them) in a From field as written: no mail client writes
#: them, and some servers and readers split the field there
RAW_CONTROL = re.compile(r"\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: the key (no header name has a space) under which the message's headers note such a From
BAD_FROM = " bad from"


def sender_of(headers: dict[str, list[str]], problems: list[str]) -> tuple[str, str]:
    """The From addr-spec (parsed from the raw header) and its decoded display name.

    A name that decodes to line breaks or other control characters is a header-injection
    attempt no mail client makes: such mail is treated as coming from no one.
    """
    values = headers.get("from")
    value = values[0] if values else None
    if not value:
        return "", ""
    if len(headers.get("from", [])) > 1 or headers.get(BAD_FROM):
        problems.append("The email has more than one From header, or control characters in it; it is "
                        "not treated as coming from any address.")
        return "", ""
    try:
        pairs = _address_pairs(value[:2000])
    except Exception:
        return "", ""
    if pairs is None:  # the parser refuses a name that decodes to CR or LF: header injection
        problems.append("The From header hides line breaks or control characters in its "
                        "name; this email is not treated as coming from any address.")
        names = [name for name, _ in getaddresses([value[:2000]])]
        return "", clean_header(decode_words(names[0])) if names else ""
    if pairs is _REFUSED:
        problems.append("The From header is not one plain address (text around it, a second address, "
                        "or an address in encoded words); this email is not treated as coming from "
                        "any address.")
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


#: The registry's class for From (``HeaderRegistry()["from"]`` builds a new class on every call).
_FROM_HEADER = HeaderRegistry()["from"]


@functools.lru_cache(maxsize=4096)
def _address_pairs(value: str) -> tuple[tuple[str, str], ...] | None:
    """(display name, addr-spec) of each address in a From value; None if the parser refuses it.

    The RFC 5322 parser of policy.default tokenises first and decodes encoded words only inside
    the display name, so "=?utf-8?q?Bob_<bob@x>?= <mallory@y>" is mallory. It is a pure function
    of the value, so the answer is cached: a player's From line is the same in every email
    (other errors than ValueError are raised again on each call, uncached)."""
    try:
        header = _FROM_HEADER("from", value)
    except ValueError:
        return None
    pairs = tuple((a.display_name, a.addr_spec) for a in cast(AddressHeader, header).addresses)
    real = [p for p in pairs if "@" in p[1]]
    if real and (any(isinstance(d, errors.InvalidHeaderDefect) for d in header.defects)
                 or len(pairs) != 1 or pairs[0][1].lower() not in value.lower()):
        # text around the address, a second address, or an address assembled from encoded words
        # (alice@=?utf-8?q?example.org?=): no mail program writes these; nobody's mail
        return _REFUSED
    return pairs


_REFUSED: tuple[tuple[str, str], ...] = (("", ""),)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_header(text: str) -> str:
    """A decoded header value safe to quote anywhere: control characters become spaces."""
    return _CONTROL.sub(" ", text).strip()
