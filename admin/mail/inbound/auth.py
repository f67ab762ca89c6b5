"""Who sent this? The sender must be a registered player's address; a game may also require the
player's secret token (``TOKEN <secret>``) and a DKIM or SPF pass recorded by the admin's own mail
server in Authentication-Results. Settings: the ``[auth]`` table of nomopoly.toml."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Sequence

import authres

from admin.engine.errors import StateError

if TYPE_CHECKING:
    from publicsuffixlist import PublicSuffixList


@dataclass(frozen=True)
class AuthSettings:
    #: "strip": alice+nomopoly@x.org counts as alice@x.org; "exact": it does not
    plus_addressing: Literal["strip", "exact"] = "strip"
    require_token: bool = False
    require_dkim: bool = False
    #: the authserv-id your own server writes first in Authentication-Results (others are ignored)
    authserv_id: str | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "AuthSettings":
        known = {"plus_addressing", "require_token", "require_dkim", "authserv_id"}
        unknown = set(data) - known
        if unknown:
            raise StateError(f"nomopoly.toml [auth]: unknown setting(s) {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(sorted(known))}")
        for flag in ("require_token", "require_dkim"):
            if flag in data and not isinstance(data[flag], bool):
                raise StateError(f"nomopoly.toml [auth] {flag} = {data[flag]!r}: write true or false, "
                                 "without quotes")
        plus = data.get("plus_addressing", "strip")
        if plus not in ("strip", "exact"):
            raise StateError(f'nomopoly.toml [auth] plus_addressing = {plus!r}: use "strip" or "exact"')
        if data.get("require_dkim") and not data.get("authserv_id"):
            raise StateError("nomopoly.toml [auth]: require_dkim needs authserv_id, the name your "
                             "own mail server writes in Authentication-Results")
        return cls(plus_addressing=plus, require_token=bool(data.get("require_token", False)),
                   require_dkim=bool(data.get("require_dkim", False)),
                   authserv_id=data.get("authserv_id"))


def new_token() -> str:
    return secrets.token_urlsafe(12)


def hash_token(token: str) -> str:
    return "sha256:" + hashlib.sha256(token.strip().encode("utf-8")).hexdigest()


def token_matches(token: str, stored: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored)


def normalise(address: str, plus: str = "strip") -> str:
    address = address.strip().lower()
    local, at, domain = address.partition("@")
    if plus == "strip" and "+" in local:
        local = local.split("+", 1)[0]
    return f"{local}{at}{domain}"


def address_book(emails: dict[str, str], settings: AuthSettings, active: set[str]) -> dict[str, str]:
    """Normalised address -> the active player it belongs to (the first by name if two share
    one). Built once per update: looking each sender up in it is what :func:`find_player` does,
    without normalising every player's address again for every email."""
    book: dict[str, str] = {}
    for name, address in sorted(emails.items()):
        if name in active:
            book.setdefault(normalise(address, settings.plus_addressing), name)
    return book


def find_player(emails: dict[str, str], sender: str, settings: AuthSettings,
                active: set[str], book: dict[str, str] | None = None) -> str | None:
    """The active player whose registered address is ``sender`` (see :func:`normalise`)."""
    if book is None:
        book = address_book(emails, settings, active)
    return book.get(normalise(sender, settings.plus_addressing))


def check_token(name: str, tokens: Sequence[str], token_hashes: dict[str, str],
                required: bool = True) -> str | None:
    """None if a given token matches the player's, else the reason. A token given where none is
    required is checked all the same: a wrong one is refused, never "checked"."""
    stored = token_hashes.get(name)
    if stored is None:  # a player without a token, where none is required: intake notes the line
        if not required:
            return None
        return f"this game requires a TOKEN line, and {name} has none yet: ask the Admin for one"
    if not tokens:
        return "this game requires your secret on a line TOKEN <secret>; none was found"
    if not any(token_matches(t, stored) for t in tokens):
        return "the TOKEN line does not match your secret; nothing in this email was done"
    return None


def check_dkim(sender: str, results: Sequence[str], settings: AuthSettings) -> str | None:
    """None if the admin's server recorded dkim=pass or spf=pass for the sender's domain.

    Each header is parsed by the grammar of RFC 8601 (the ``authres`` library), so a version
    (``mx.example.org 1;``), comments and quoted strings (``(2048-bit key; unprotected)``,
    ``reason="...;dkim=pass ..."``) are read as what they are and cannot smuggle in a result.
    Only headers that carry the admin's authserv-id count (OpenDKIM may append a job id:
    ``mx.example.org/4A1B2C3D``), wherever they sit: one server writes several (OpenDMARC's
    above OpenDKIM's, SPF's below). For each method, only the topmost header reporting it counts:
    the admin's server adds its headers above everything the sender wrote, so a lower header
    claiming the same authserv-id and method is a forgery (RFC 8601, section 5). A header that
    does not parse is not the admin's server's.

    The domain that passed must be the sender's, or a parent of it that is a registrable domain
    (``example.org`` for ``mail.example.org``), never a public suffix (``org``, ``co.uk``,
    ``github.io``: anyone can sign for a domain below one), by the Public Suffix List."""
    domain = sender.rpartition("@")[2].lower()
    wanted = (settings.authserv_id or "").lower()
    seen: set[str] = set()
    for parsed in map(_parse_results, results):
        if parsed is None or _serv_id(parsed) != wanted:
            continue
        methods = {result.method.lower() for result in parsed.results} & {"dkim", "spf"}
        for result in parsed.results:
            method = result.method.lower()
            if method not in methods - seen or (result.result or "").lower() != "pass":
                continue
            for prop in result.properties:
                if f"{prop.type}.{prop.name}".lower() in _DOMAIN_PROPERTIES:
                    if covers(str(prop.value).lower().rpartition("@")[2], domain):
                        return None
        seen |= methods
    return (f"this game requires your mail server to pass DKIM or SPF for {domain}, and "
            f"{settings.authserv_id or 'the Admin'}'s server recorded no pass")


def covers(signer: str, domain: str) -> bool:
    """True when a pass for ``signer`` vouches for mail from ``domain``: the same domain, or a
    parent of it that is not a public suffix (``example.org`` covers ``mail.example.org``;
    ``org`` covers nothing)."""
    signer, domain = signer.rstrip(".").lower(), domain.rstrip(".").lower()
    if not signer or not domain:
        return False
    if signer == domain:
        return True
    return domain.endswith("." + signer) and not _public_suffixes().is_public(signer)


@functools.cache
def _public_suffixes() -> PublicSuffixList:
    """The Public Suffix List the library bundles (read once, only when a parent domain signed:
    no network, ever); imported here, so a game that never needs it never loads it."""
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


#: the properties of a dkim or spf result that name the domain that passed
_DOMAIN_PROPERTIES = frozenset({"header.d", "header.i", "smtp.mailfrom", "header.from"})


def _parse_results(header: str) -> authres.AuthenticationResultsHeader | None:
    try:
        return authres.AuthenticationResultsHeader.parse_value(" ".join(header.split()))
    except Exception:  # authres raises its own SyntaxError subclasses, and others on odd input
        return None


def _serv_id(parsed: authres.AuthenticationResultsHeader) -> str:
    """The authserv-id, without the job id OpenDKIM may append (``host/JOBID``)."""
    return str(parsed.authserv_id or "").lower().split("/", 1)[0]
