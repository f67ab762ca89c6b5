"""Mail out over SMTP: the ``[mail.smtp]`` settings and one authenticated, encrypted session.

:class:`SmtpConfig` reads the table (secrets only from the environment); :meth:`SmtpSession.open`
connects, secures (implicit TLS or STARTTLS, certificates verified) and logs in (PLAIN/LOGIN or
XOAUTH2); :meth:`SmtpSession.send` hands over one message's bytes. Errors say what went wrong and
what to do: :class:`ConnectError` (nothing could be sent, ``temporary`` when a later run may
succeed) and :class:`SendError` (this message failed, ``connection_lost`` when the rest must wait).
The queue that decides what to send lives in :mod:`admin.mail.outbound.outbox`.
"""

from __future__ import annotations

import email.policy
import os
import re
import smtplib
import ssl
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.utils import formataddr, getaddresses
from typing import Any, Literal, get_args

from admin.engine.errors import MailError

TlsMode = Literal["implicit", "starttls", "none"]
TLS_MODES: tuple[str, ...] = get_args(TlsMode)
DEFAULT_PORTS: dict[str, int] = {"implicit": 465, "starttls": 587, "none": 25}

SMTP_TABLE = "[mail.smtp] in nomopoly.toml"


# --------------------------------------------------------------------------------------------
# Configuration


@dataclass(frozen=True, kw_only=True)
class SmtpConfig:
    """How to reach the game's SMTP server. Secrets are never stored here, only the names of the
    environment variables that hold them."""

    host: str
    port: int | None = None
    """None means the usual port for ``tls``: 465 implicit, 587 starttls, 25 none."""
    tls: TlsMode = "starttls"
    user: str | None = None
    """Log in as this user when set; with no user the session is not authenticated."""
    password_env: str = "NOMOPOLY_SMTP_PASSWORD"
    oauth2_token_env: str | None = None
    """When set, log in with XOAUTH2 (Gmail, Outlook) using the token in this variable."""
    cafile: str | None = None
    """An extra CA certificate (PEM) to trust besides the system's, for self-hosted servers."""
    timeout: float = 30.0
    from_address: str
    """The game's address: the envelope sender, and the address whose mail we never answer."""
    from_name: str | None = None

    def __post_init__(self) -> None:
        if self.tls not in TLS_MODES:
            raise MailError(
                f"{SMTP_TABLE}: tls = {self.tls!r} is not a TLS mode; "
                f"use one of {', '.join(repr(m) for m in TLS_MODES)}"
            )
        if self.port is None:
            object.__setattr__(self, "port", DEFAULT_PORTS[self.tls])
        if not self.host or any(c.isspace() for c in self.host):
            raise MailError(
                f"{SMTP_TABLE}: host = {self.host!r} is not a host name; "
                "use e.g. 'smtp.example.org'"
            )
        port = self.port
        if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
            raise MailError(
                f"{SMTP_TABLE}: port = {port!r} is not a TCP port; use a number from 1 to 65535"
            )
        if self.timeout <= 0:
            raise MailError(
                f"{SMTP_TABLE}: timeout = {self.timeout!r} must be a positive number of seconds"
            )
        _check_address(self.from_address, "from_address")

    @property
    def from_header(self) -> str:
        """The ``From:`` value for outgoing mail: ``Name <address>`` or the bare address."""
        return formataddr((self.from_name or "", self.from_address))

    def password(self) -> str:
        """The password from :attr:`password_env`; the error names the variable when unset."""
        return _secret(self.password_env, f"the SMTP password of user {self.user!r}")

    def oauth2_token(self) -> str | None:
        """The XOAUTH2 bearer token, or None when XOAUTH2 is not configured."""
        if self.oauth2_token_env is None:
            return None
        return _secret(self.oauth2_token_env, f"the OAuth2 access token of user {self.user!r}")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SmtpConfig:
        """Build a config from the ``[mail.smtp]`` table of nomopoly.toml (already parsed)."""
        if not isinstance(d, Mapping):
            raise MailError(f"{SMTP_TABLE} must be a table, got {d!r}")
        for secret in ("password", "pass", "token", "oauth2_token", "secret"):
            if secret in d:
                raise MailError(
                    f"{SMTP_TABLE}: {secret!r} must not be written in the game's files; "
                    "put it in an environment variable and name that variable with "
                    "password_env (default NOMOPOLY_SMTP_PASSWORD) or oauth2_token_env"
                )
        known: dict[str, type | tuple[type, ...]] = {
            "host": str, "port": int, "tls": str, "user": str, "password_env": str,
            "oauth2_token_env": str, "cafile": str, "timeout": (int, float),
            "from_address": str, "from_name": str,
        }  # fmt: skip
        unknown = sorted(set(d) - set(known))
        if unknown:
            raise MailError(
                f"{SMTP_TABLE}: unknown key(s) {', '.join(repr(k) for k in unknown)}; "
                f"valid keys are {', '.join(sorted(known))}"
            )
        for required in ("host", "from_address"):
            if required not in d:
                example = "smtp.example.org" if required == "host" else "game@example.org"
                raise MailError(
                    f"{SMTP_TABLE}: {required!r} is missing; add e.g. {required} = \"{example}\""
                )
        for key, value in d.items():
            want = known[key]
            if isinstance(value, bool) or not isinstance(value, want):
                kind = "a string" if want is str else "an integer" if want is int else "a number"
                raise MailError(f"{SMTP_TABLE}: {key} = {value!r} must be {kind}")
        if d.get("user") is None and "oauth2_token_env" in d:
            raise MailError(
                f"{SMTP_TABLE}: oauth2_token_env is set but user is not; "
                "XOAUTH2 needs the account's user, e.g. user = \"game@gmail.com\""
            )
        kwargs = dict(d)
        if "timeout" in kwargs:
            kwargs["timeout"] = float(kwargs["timeout"])
        return cls(**kwargs)


def _secret(variable: str, what: str) -> str:
    value = os.environ.get(variable)
    if not value:
        raise MailError(
            f"the environment variable {variable} is not set; it must hold {what} "
            f"(secrets come only from the environment, e.g. `export {variable}=...`)"
        )
    return value


def _check_address(address: str, key: str) -> None:
    if not isinstance(address, str) or not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+", address):
        raise MailError(
            f"{SMTP_TABLE}: {key} = {address!r} is not a plain mail address; "
            "use e.g. 'game@example.org'"
        )


# --------------------------------------------------------------------------------------------
# SMTP connection


class ConnectError(Exception):
    """No session: ``reason`` says why and what to do; ``temporary`` when retrying may help."""

    def __init__(self, reason: str, temporary: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.temporary = temporary


def where(smtp: SmtpConfig) -> str:
    return f"{smtp.host}:{smtp.port} (tls = {smtp.tls})"


def _reply(code: int, text: bytes | str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return f"{code} {' '.join(str(text).split())}"


def refusals(refused: Mapping[str, tuple[int, bytes]]) -> str:
    return "; ".join(f"{addr!r}: {_reply(code, text)}" for addr, (code, text) in refused.items())


def describe(e: BaseException) -> str:
    if isinstance(e, smtplib.SMTPServerDisconnected):
        return f"the server closed the connection ({e})"
    if isinstance(e, smtplib.SMTPResponseException):
        return _reply(e.smtp_code, e.smtp_error)
    return str(e) or type(e).__name__


Login = Callable[[smtplib.SMTP], None]


def login_step(smtp: SmtpConfig) -> Login | None:
    """Resolve the secrets now (so a missing variable is a config error) and return the login."""
    user = smtp.user
    if user is None:
        return None
    token = smtp.oauth2_token()
    if token is not None:
        initial = f"user={user}\x01auth=Bearer {token}\x01\x01"

        def xoauth2(conn: smtplib.SMTP) -> None:
            # On failure the server sends a 334 with a JSON error; the answer must be empty.
            conn.auth("XOAUTH2", lambda challenge=None: initial if challenge is None else "")

        return xoauth2
    password = smtp.password()

    def plain_login(conn: smtplib.SMTP) -> None:
        conn.login(user, password)  # AUTH PLAIN or LOGIN, whichever the server offers

    return plain_login


def connect(smtp: SmtpConfig, login: Login | None) -> smtplib.SMTP:
    """An open, secured and authenticated session, or :class:`ConnectError` saying what to do."""
    context = ssl.create_default_context()
    if smtp.cafile:
        try:
            context.load_verify_locations(cafile=smtp.cafile)
        except (OSError, ssl.SSLError) as e:
            raise ConnectError(
                f"cannot load cafile = {smtp.cafile!r} from {SMTP_TABLE}: {e}; "
                "point it to a PEM file with the server's CA certificate",
                False,
            ) from e
    place = where(smtp)
    conn: smtplib.SMTP | None = None
    step = "connect to"
    port = smtp.port or DEFAULT_PORTS[smtp.tls]  # set when the settings were read
    try:
        if smtp.tls == "implicit":
            conn = smtplib.SMTP_SSL(smtp.host, port, timeout=smtp.timeout, context=context)
        else:
            conn = smtplib.SMTP(smtp.host, port, timeout=smtp.timeout)
        step = "greet"
        conn.ehlo()
        if smtp.tls == "starttls":
            if not conn.has_extn("starttls"):
                raise ConnectError(
                    f"{place} does not offer STARTTLS; use tls = \"implicit\" (port 465) if it "
                    "speaks TLS from the start, or tls = \"none\" only for a server on a "
                    "trusted network",
                    False,
                )
            step = "start TLS with"
            conn.starttls(context=context)
            conn.ehlo()
        if login is not None:
            step = "log in to"
            login(conn)
        return conn
    except ConnectError:
        close_quietly(conn)
        raise
    except ssl.SSLCertVerificationError as e:
        close_quietly(conn)
        raise ConnectError(
            f"the TLS certificate of {place} could not be verified ({e.verify_message or e}); "
            f"if the server is self-hosted, set cafile in {SMTP_TABLE} to its CA certificate",
            False,
        ) from e
    except smtplib.SMTPAuthenticationError as e:
        close_quietly(conn)
        if smtp.oauth2_token_env:
            secret = f"the token in ${smtp.oauth2_token_env}"
        else:
            secret = f"the password in ${smtp.password_env}"
        raise ConnectError(
            f"{place} refused the login of user {smtp.user!r}: {describe(e)}; check {secret}",
            False,
        ) from e
    except smtplib.SMTPNotSupportedError as e:
        close_quietly(conn)
        raise ConnectError(f"{place} cannot do what we need to {step} it: {e}", False) from e
    except (smtplib.SMTPException, OSError) as e:
        close_quietly(conn)
        raise ConnectError(
            f"could not {step} {place}: {describe(e)}; the messages stay queued for the next run",
            True,
        ) from e


def close_quietly(conn: smtplib.SMTP | None) -> None:
    if conn is not None:
        try:
            conn.close()
        except OSError:
            pass


# --------------------------------------------------------------------------------------------
# Addresses and the envelope

ADDRESS_HEADERS = ("From", "Sender", "Reply-To", "To", "Cc", "Bcc")


def addresses(msg: Message, names: Iterable[str]) -> list[str]:
    fields = [str(v) for name in names for v in (msg.get_all(name) or [])]
    return [addr for _, addr in getaddresses(fields) if addr]


def recipients(msg: Message) -> list[str]:
    return addresses(msg, ("To", "Cc", "Bcc"))


def needs_smtputf8(addrs: Iterable[str]) -> bool:
    return not all(a.isascii() for a in addrs)


# --------------------------------------------------------------------------------------------
# A session


class SendError(Exception):
    """One message was not sent; ``connection_lost`` means the session is gone as well."""

    def __init__(self, reason: str, connection_lost: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.connection_lost = connection_lost


class SmtpSession:
    """An open, secured and authenticated SMTP connection; send messages, then :meth:`close`."""

    def __init__(self, config: SmtpConfig, conn: smtplib.SMTP) -> None:
        self.config = config
        self._conn = conn

    @classmethod
    def open(cls, config: SmtpConfig) -> SmtpSession:
        """Connect and log in. A missing secret raises :class:`MailError` before any connection;
        connection, TLS and login trouble raise :class:`ConnectError`."""
        login = login_step(config)
        return cls(config, connect(config, login))

    def send(self, data: bytes) -> dict[str, tuple[int, bytes]]:
        """Send one message (its wire bytes); returns the recipients refused while others took it.

        The envelope sender is the game's address; the recipients are To, Cc and Bcc, and a Bcc
        header is removed from what is sent. Raises :class:`SendError`.
        """
        smtp = self.config
        try:
            msg = BytesParser(policy=email.policy.SMTP).parsebytes(data)
        except ValueError as e:
            raise SendError(f"the message cannot be parsed: {e}") from e
        rcpts = recipients(msg)
        if not rcpts:
            raise SendError("the message has no address in To, Cc or Bcc; delete it or fix it by hand")
        utf8 = needs_smtputf8([smtp.from_address, *addresses(msg, ADDRESS_HEADERS)])
        if msg.get_all("Bcc"):
            del msg["Bcc"]
            data = msg.as_bytes(policy=email.policy.SMTPUTF8 if utf8 else email.policy.SMTP)
        options = ["SMTPUTF8"] if utf8 else []
        try:
            return self._conn.sendmail(smtp.from_address, rcpts, data, mail_options=options)
        except smtplib.SMTPRecipientsRefused as e:
            raise SendError("the server refused every recipient: " + refusals(e.recipients)) from e
        except smtplib.SMTPSenderRefused as e:
            raise SendError(f"the server refused the sender {e.sender!r}: {describe(e)}") from e
        except smtplib.SMTPDataError as e:
            raise SendError(f"the server rejected the message: {describe(e)}") from e
        except (smtplib.SMTPNotSupportedError, ValueError) as e:  # e.g. no SMTPUTF8
            raise SendError(f"the server cannot take this message: {e}") from e
        except (smtplib.SMTPException, OSError) as e:  # disconnected, timed out, 421 ...
            raise SendError(
                f"lost the connection to {where(smtp)} while sending: {describe(e)}",
                connection_lost=True,
            ) from e

    def close(self) -> None:
        try:
            self._conn.quit()
        except (smtplib.SMTPException, OSError):
            self._conn.close()
