"""The connection to an IMAP server that :class:`~admin.mail.inbound.imap.ImapSource` reads through.

Connects lazily with TLS verified by default (implicit, or STARTTLS when the server offers it),
logs in with a password or an OAuth2 token read from the environment, selects the folder (its
name in the server's separator and personal namespace), and runs each step under :meth:`_call`,
which reconnects with exponential backoff and turns what cannot be retried into a
:class:`~admin.engine.errors.MailError` that says what to check.
"""

from __future__ import annotations

import logging
import os
import ssl
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from imapclient import IMAPClient, SocketTimeout
from imapclient.exceptions import IMAPClientAbortError, IMAPClientError, LoginError

from admin.engine.errors import MailError, TemporaryError
from admin.mail.inbound.imapconfig import ImapConfig

#: one logger for the IMAP source, whichever module speaks
log = logging.getLogger("admin.mail.inbound.imap")

T = TypeVar("T")


class ImapConnection:
    """A lazily opened, self-healing connection to one folder of an IMAP mailbox."""

    def __init__(
        self,
        config: ImapConfig,
        *,
        environ: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self._sleep = sleep
        self._secret = self._read_secret(os.environ if environ is None else environ)
        self._client: IMAPClient | None = None
        self._folder_names: dict[str, str] = {}
        self.uidvalidity: int | None = None  #: UIDVALIDITY of the folder at the last SELECT

    @property
    def address(self) -> str:
        return f"{self.config.host}:{self.config.port}"

    def _call(self, op: Callable[[IMAPClient], T]) -> T:
        """Run ``op`` on a connected client with the folder selected; reconnect on connection errors."""
        failures = 0
        while True:
            try:
                if self._client is None:
                    self._client = self._connect()
                return op(self._client)
            except (OSError, IMAPClientAbortError) as e:
                if isinstance(e, ssl.SSLError) and not _transient_ssl(e):
                    self._drop()
                    raise self._tls_error(e) from e
                self._drop()
                failures += 1
                if failures > self.config.retries:
                    raise TemporaryError(
                        f"the IMAP server {self.address} could not be reached after {failures} attempt(s): "
                        f"{type(e).__name__}: {_text(e)}; check host and port in [mail.imap] of "
                        f"nomopoly.toml, or try again later"
                    ) from e
                delay = self.config.backoff * 2 ** (failures - 1)
                log.warning("IMAP %s: %s: %s; retrying in %.2f s", self.address, type(e).__name__, e, delay)
                self._sleep(delay)
            except MailError:
                self._drop()
                raise
            except IMAPClientError as e:
                raise MailError(f"the IMAP server {self.address} refused a command: {_text(e)}") from e

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.shutdown()
            except Exception:
                pass

    def _connect(self) -> IMAPClient:
        cfg = self.config
        timeout = SocketTimeout(connect=cfg.timeout, read=cfg.timeout)
        if cfg.tls == "implicit":
            c = IMAPClient(cfg.host, cfg.port, ssl=True, ssl_context=self._ssl_context(), timeout=timeout)
        else:
            c = IMAPClient(cfg.host, cfg.port, ssl=False, timeout=timeout)
        try:
            if cfg.tls == "starttls":
                if not c.has_capability("STARTTLS"):
                    raise MailError(
                        f"the IMAP server {self.address} does not offer STARTTLS, so the password would go "
                        f"in plain text; use tls = \"implicit\" (usually port 993) in [mail.imap]"
                    )
                c.starttls(self._ssl_context())
            c.normalise_times = False
            self._login(c)
            self._select(c)
        except BaseException:
            try:
                c.shutdown()
            except Exception:
                pass
            raise
        return c

    def _login(self, c: IMAPClient) -> None:
        cfg = self.config
        try:
            if cfg.oauth2_token_env:
                c.oauth2_login(cfg.user, self._secret)
            else:
                c.login(cfg.user, self._secret)
        except LoginError as e:
            env = cfg.oauth2_token_env or cfg.password_env
            what = "OAuth2 access token (they expire; get a fresh one)" if cfg.oauth2_token_env else "password"
            raise MailError(
                f"the IMAP server {self.address} refused the login of user {cfg.user!r}: {_text(e)}; "
                f"check the {what} in the environment variable {env} and user in [mail.imap]"
            ) from e

    def _select(self, c: IMAPClient) -> None:
        name = self._server_name(c, self.config.folder)
        try:
            info = c.select_folder(name)
        except IMAPClientAbortError:
            raise
        except IMAPClientError as e:
            raise MailError(
                f"cannot open the folder {name!r} on {self.address}: {_text(e)}; "
                f"check folder in [mail.imap] (\"INBOX\" is always there)"
            ) from e
        validity = int(info[b"UIDVALIDITY"])
        if self.uidvalidity is not None and validity != self.uidvalidity:
            log.warning("IMAP folder %s: UIDVALIDITY changed from %s to %s", name, self.uidvalidity, validity)
        self.uidvalidity = validity

    def _server_name(self, c: IMAPClient, name: str) -> str:
        """``a/b`` in the server's hierarchy separator and personal namespace."""
        if name.upper() == "INBOX":
            return name
        if name not in self._folder_names:
            prefix, sep = "", "/"
            if c.has_capability("NAMESPACE"):
                personal = c.namespace().personal or []
                if personal:
                    prefix, sep = personal[0][0] or "", personal[0][1] or "/"
            else:
                listed = c.list_folders("", "")
                if listed and listed[0][1]:
                    sep = listed[0][1].decode() if isinstance(listed[0][1], bytes) else listed[0][1]
            converted = name.replace("/", sep) if sep != "/" else name
            if prefix and not converted.startswith(prefix):
                converted = prefix + converted
            self._folder_names[name] = converted
        return self._folder_names[name]

    def _ssl_context(self) -> ssl.SSLContext:
        cafile = self.config.cafile
        if cafile is not None and not Path(cafile).is_file():
            raise MailError(
                f"[mail.imap] cafile = {cafile!r} is not a readable file; give the path of a PEM CA certificate"
            )
        try:
            return ssl.create_default_context(cafile=cafile)
        except ssl.SSLError as e:
            raise MailError(f"[mail.imap] cafile = {cafile!r} holds no usable PEM certificate: {e}") from e

    def _tls_error(self, e: ssl.SSLError) -> MailError:
        if isinstance(e, ssl.SSLCertVerificationError):
            hint = (
                "set cafile in [mail.imap] to the CA certificate that signed the server's certificate"
                if self.config.cafile is None
                else f"the server's certificate is not signed by cafile {self.config.cafile!r}, or it is not "
                f"issued for {self.config.host!r}; use the right CA file and the host name in the certificate"
            )
            return MailError(
                f"the TLS certificate of the IMAP server {self.address} failed verification: {e.verify_message}; {hint}"
            )
        return MailError(
            f"TLS with the IMAP server {self.address} failed: {e}; check tls in [mail.imap] "
            f"(\"implicit\" usually uses port 993, \"starttls\" port 143)"
        )

    def _read_secret(self, environ: Mapping[str, str]) -> str:
        cfg = self.config
        env = cfg.oauth2_token_env or cfg.password_env
        value = environ.get(env, "")
        if not value:
            what = "an OAuth2 access token" if cfg.oauth2_token_env else "the IMAP password"
            raise MailError(
                f"the environment variable {env} is not set: set it to {what} of user {cfg.user!r} on "
                f"{self.address} (secrets are never read from nomopoly.toml)"
            )
        return value


def _transient_ssl(e: ssl.SSLError) -> bool:
    return isinstance(e, (ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError))


def _text(e: BaseException) -> str:
    text = str(e)
    if text.startswith("b'") or text.startswith('b"'):
        text = text[2:-1]
    return text.strip().rstrip(".") or type(e).__name__
