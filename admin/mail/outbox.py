"""Mail out, the sending layer: a folder of queued messages delivered by SMTP or left as .eml files.

Composition (what a receipt or a results mail says) lives elsewhere; this module only knows
messages. The flow of one run is::

    outbox = Outbox(game_dir / "state" / "outbox")
    outbox.queue(msg)              # pending/<name>.eml, atomically; False if queued or sent before
    report = outbox.deliver(smtp)  # SMTP, or (smtp=None) the .eml files are the delivery

The ``sent/`` folder is the ledger. A file's name is derived from its Message-ID only, so a re-run
that composes the same messages (see :func:`make_message_id`) queues nothing new and sends nothing
twice. Per-message failures are reported in :class:`DeliveryReport`, never raised; the message
stays in ``pending/`` and is retried on the next run.

Helpers for the mail loop: :func:`must_not_answer` (never answer an auto-reply, a bounce, a list or
ourselves) and :func:`reply_headers` (threading and the ``Re:`` subject).
"""

from __future__ import annotations

import email.policy
import hashlib
import os
import re
import smtplib
import ssl
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import formataddr, formatdate, getaddresses
from pathlib import Path
from typing import Any, Literal, get_args

from admin.errors import MailError

TlsMode = Literal["implicit", "starttls", "none"]
TLS_MODES: tuple[str, ...] = get_args(TlsMode)
DEFAULT_PORTS: dict[str, int] = {"implicit": 465, "starttls": 587, "none": 25}

AUTO_SUBMITTED_RECEIPT = "auto-replied"
"""``Auto-Submitted`` value for receipts: an automatic answer to a player's email (RFC 3834)."""
AUTO_SUBMITTED_RESULTS = "auto-generated"
"""``Auto-Submitted`` value for results: mail the game sends on its own schedule (RFC 3834)."""

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
        known = {
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


def _msgids(value: str | None) -> list[str]:
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
    parent = _msgids(original_message_id)[:1]
    refs = _msgids(original_references)
    if parent:
        headers["In-Reply-To"] = parent[0]
        if not refs or refs[-1] != parent[0]:
            refs.append(parent[0])
    if refs:
        headers["References"] = " ".join(refs[-MAX_REFERENCES:])
    subject = " ".join(str(original_subject or "").split())  # one line, no header injection
    subject = _RE_PREFIX.sub("", subject).strip()
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


# --------------------------------------------------------------------------------------------
# The outbox


@dataclass(frozen=True)
class Failure:
    """A message that was not delivered in this run (it stays in ``pending/``), or a recipient
    the server refused while it accepted the others (the message then counts as sent)."""

    message_id: str
    file: Path
    reason: str


@dataclass(frozen=True)
class DeliveryReport:
    """What one :meth:`Outbox.deliver` run did."""

    mode: Literal["outbox", "smtp"]
    sent_ids: tuple[str, ...] = ()
    failed: tuple[Failure, ...] = ()
    refused: tuple[Failure, ...] = ()
    """Recipients refused on messages that the server accepted for their other recipients."""
    connection_error: str | None = None
    """Set when the run could not reach the server, or lost it: every remaining message failed."""
    temporary: bool = False
    """True when the connection error looks transient (refused, timed out, dropped): exit 75."""

    @property
    def sent(self) -> int:
        return len(self.sent_ids)

    @property
    def ok(self) -> bool:
        return not self.failed and not self.refused

    def summary(self) -> str:
        """A few lines for the admin."""
        where = "moved to the outbox's sent/ folder" if self.mode == "outbox" else "sent by SMTP"
        lines = [
            f"{self.sent} message(s) {where}, "
            f"{len(self.failed)} failed (kept in pending/ for the next run)"
        ]
        if self.connection_error:
            lines.append(f"  connection: {self.connection_error}")
        for f in self.failed:
            if f.reason != self.connection_error:
                lines.append(f"  failed {f.message_id} ({f.file.name}): {f.reason}")
        for f in self.refused:
            lines.append(f"  partly refused {f.message_id}: {f.reason}")
        return "\n".join(lines)


class Outbox:
    """A folder of outgoing mail: ``pending/`` (queued, to deliver) and ``sent/`` (the ledger).

    Guarantees:

    * :meth:`queue` writes each message atomically (temp file, fsync, ``os.replace``) and never
      twice: a Message-ID already in ``pending/`` or ``sent/`` is not queued again.
    * :meth:`deliver` moves a message to ``sent/`` only after the SMTP server accepted it (or, with
      no SMTP configured, the move *is* the delivery). Anything that fails stays in ``pending/``.
    * At most once, except for one honest gap: SMTP has no idempotent submission, so if the process
      dies after the server answered ``250`` to DATA and before the ``os.replace`` into ``sent/``
      (microseconds, plus the fsync), the next run sends that one message again. Recording a
      "sending" mark first would only turn that duplicate into a possible loss, so we do not.
      The identical Message-ID lets the recipient's client thread or collapse the duplicate.

    Two runs must not deliver the same outbox at once; the game's lock sees to that.
    """

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self.pending_dir = self.folder / "pending"
        self.sent_dir = self.folder / "sent"

    # -- queue ---------------------------------------------------------------------------------

    def queue(self, msg: EmailMessage) -> bool:
        """Write ``msg`` to ``pending/``; False (nothing written) if its Message-ID was seen before.

        The message must carry Message-ID, From, at least one recipient and ``Auto-Submitted``.
        A missing ``Date`` is added (in the file only; ``msg`` is not changed).
        """
        message_id = self._check_queueable(msg)
        name = file_name(message_id)
        if (self.pending_dir / name).exists() or (self.sent_dir / name).exists():
            return False
        # Non-ASCII addresses cannot be RFC 2047-encoded: such a message is written as UTF-8 and
        # sent with SMTPUTF8 (RFC 6531), which the server then has to offer.
        utf8 = _needs_smtputf8(_addresses(msg, ADDRESS_HEADERS))
        data = msg.as_bytes(policy=email.policy.SMTPUTF8 if utf8 else email.policy.SMTP)
        if msg.get("Date") is None:
            data = f"Date: {formatdate(usegmt=True)}\r\n".encode("ascii") + data
        self.pending_dir.mkdir(parents=True, exist_ok=True)
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.pending_dir / name, data)
        return True

    @staticmethod
    def _check_queueable(msg: EmailMessage) -> str:
        ids = _msgids(msg.get("Message-ID"))
        if len(ids) != 1:
            raise MailError(
                f"cannot queue a message with Message-ID {msg.get('Message-ID')!r} "
                f"(subject {msg.get('Subject')!r}); set msg['Message-ID'] = make_message_id(...)"
            )
        if not msg.get("From"):
            raise MailError(
                f"cannot queue {ids[0]} without a From header; set it to the game's address"
            )
        if not _recipients(msg):
            raise MailError(
                f"cannot queue {ids[0]} (subject {msg.get('Subject')!r}): "
                "no address in To, Cc or Bcc"
            )
        if msg.get("Auto-Submitted") is None:
            raise MailError(
                f"cannot queue {ids[0]} without an Auto-Submitted header; set "
                f"'{AUTO_SUBMITTED_RECEIPT}' on receipts and '{AUTO_SUBMITTED_RESULTS}' on "
                "results, so other robots do not answer the game"
            )
        return ids[0]

    # -- inspect -------------------------------------------------------------------------------

    def pending(self) -> list[Path]:
        """Queued files in queue order (oldest first)."""
        return _eml_files(self.pending_dir)

    def sent(self) -> list[Path]:
        return _eml_files(self.sent_dir)

    def is_sent(self, message_id: str) -> bool:
        return (self.sent_dir / file_name(message_id)).exists()

    # -- deliver -------------------------------------------------------------------------------

    def deliver(self, smtp: SmtpConfig | None) -> DeliveryReport:
        """Deliver every pending message; see the class docstring for the guarantees.

        With ``smtp=None`` each file moves to ``sent/``: the admin's outbox folder is the delivery.
        With SMTP all messages go over one connection. Per-message trouble (a refused recipient, a
        rejected message) and connection trouble (server down, TLS or login failure) are reported,
        not raised. Only a configuration error raises :class:`MailError` (e.g. the password
        variable is unset), before anything is sent.
        """
        files = self.pending()
        if smtp is None:
            moved = []
            for path in files:
                message_id = _file_message_id(path)
                self._mark_sent(path)
                moved.append(message_id)
            return DeliveryReport(mode="outbox", sent_ids=tuple(moved))
        if not files:
            return DeliveryReport(mode="smtp")
        login = _login_step(smtp)  # a missing secret raises here, before any connection
        try:
            conn = _connect(smtp, login)
        except _ConnectError as e:
            return DeliveryReport(
                mode="smtp",
                failed=tuple(Failure(_file_message_id(p), p, e.reason) for p in files),
                connection_error=e.reason,
                temporary=e.temporary,
            )
        return self._send_all(conn, smtp, files)

    def _send_all(self, conn: smtplib.SMTP, smtp: SmtpConfig, files: list[Path]) -> DeliveryReport:
        sent: list[str] = []
        failed: list[Failure] = []
        refused: list[Failure] = []
        connection_error: str | None = None
        try:
            for path in files:
                if connection_error is not None:
                    failed.append(Failure(_file_message_id(path), path, connection_error))
                    continue
                message_id = _file_message_id(path)
                if (self.sent_dir / path.name).exists():  # sent before; never twice
                    path.unlink()
                    continue
                try:
                    sender, recipients, data, options = _envelope(path, smtp)
                    rejected = conn.sendmail(sender, recipients, data, mail_options=options)
                except _BadFile as e:
                    reason = str(e)
                except smtplib.SMTPRecipientsRefused as e:
                    reason = "the server refused every recipient: " + _refusals(e.recipients)
                except smtplib.SMTPSenderRefused as e:
                    reason = f"the server refused the sender {e.sender!r}: {_describe(e)}"
                except smtplib.SMTPDataError as e:
                    reason = f"the server rejected the message: {_describe(e)}"
                except (smtplib.SMTPNotSupportedError, ValueError) as e:  # e.g. no SMTPUTF8
                    reason = f"the server cannot take this message: {e}"
                except (smtplib.SMTPException, OSError) as e:  # disconnected, timed out, 421 ...
                    reason = connection_error = (
                        f"lost the connection to {_where(smtp)} while sending: {_describe(e)}"
                    )
                else:
                    try:
                        self._mark_sent(path)
                    except OSError as e:
                        raise MailError(
                            f"the server accepted {message_id} but moving {path} to "
                            f"{self.sent_dir} failed ({e}); move it by hand, or the next run "
                            "sends it again"
                        ) from e
                    sent.append(message_id)
                    if rejected:
                        why = "refused recipient(s): " + _refusals(rejected)
                        refused.append(Failure(message_id, self.sent_dir / path.name, why))
                    continue
                failed.append(Failure(message_id, path, reason))
        finally:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                conn.close()
        return DeliveryReport(
            mode="smtp",
            sent_ids=tuple(sent),
            failed=tuple(failed),
            refused=tuple(refused),
            connection_error=connection_error,
            temporary=connection_error is not None,
        )

    def _mark_sent(self, path: Path) -> None:
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        os.replace(path, self.sent_dir / path.name)
        _fsync_dir(self.sent_dir)
        _fsync_dir(path.parent)


# --------------------------------------------------------------------------------------------
# Files


def file_name(message_id: str) -> str:
    """The outbox file name of a Message-ID: readable when the id is tame, always safe, unique."""
    ids = _msgids(message_id)
    raw = (ids[0] if ids else message_id).strip("<>")
    safe = re.sub(r"[^A-Za-z0-9._@+=-]", "_", raw).lstrip(".")[:150]
    if safe != raw or not safe:
        safe = f"{safe}-{hashlib.sha256(raw.encode()).hexdigest()[:12]}"
    return f"{safe}.eml"


def _eml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    files = [p for p in folder.iterdir() if p.suffix == ".eml" and not p.name.startswith(".")]
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name))


def _atomic_write(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on directories
    finally:
        os.close(fd)


def _file_message_id(path: Path) -> str:
    try:
        with path.open("rb") as f:
            headers = BytesParser(policy=email.policy.default).parse(f, headersonly=True)
        ids = _msgids(headers.get("Message-ID"))
    except (OSError, ValueError):
        ids = []
    return ids[0] if ids else f"<unknown: {path.name}>"


ADDRESS_HEADERS = ("From", "Sender", "Reply-To", "To", "Cc", "Bcc")


def _addresses(msg: Message, names: Iterable[str]) -> list[str]:
    fields = [str(v) for name in names for v in (msg.get_all(name) or [])]
    return [addr for _, addr in getaddresses(fields) if addr]


def _recipients(msg: Message) -> list[str]:
    return _addresses(msg, ("To", "Cc", "Bcc"))


def _needs_smtputf8(addresses: Iterable[str]) -> bool:
    return not all(a.isascii() for a in addresses)


class _BadFile(Exception):
    pass


def _envelope(path: Path, smtp: SmtpConfig) -> tuple[str, list[str], bytes, list[str]]:
    """Envelope sender, recipients, bytes to send (no Bcc) and MAIL options of a queued file."""
    try:
        data = path.read_bytes()
        msg = BytesParser(policy=email.policy.SMTP).parsebytes(data)
    except (OSError, ValueError) as e:
        raise _BadFile(f"cannot read {path}: {e}") from e
    recipients = _recipients(msg)
    if not recipients:
        raise _BadFile(f"{path.name} has no address in To, Cc or Bcc; delete it or fix it by hand")
    utf8 = _needs_smtputf8([smtp.from_address, *_addresses(msg, ADDRESS_HEADERS)])
    if msg.get_all("Bcc"):
        del msg["Bcc"]
        data = msg.as_bytes(policy=email.policy.SMTPUTF8 if utf8 else email.policy.SMTP)
    return smtp.from_address, recipients, data, ["SMTPUTF8"] if utf8 else []


# --------------------------------------------------------------------------------------------
# SMTP connection


class _ConnectError(Exception):
    def __init__(self, reason: str, temporary: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.temporary = temporary


def _where(smtp: SmtpConfig) -> str:
    return f"{smtp.host}:{smtp.port} (tls = {smtp.tls})"


def _reply(code: int, text: bytes | str) -> str:
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return f"{code} {' '.join(str(text).split())}"


def _refusals(recipients: Mapping[str, tuple[int, bytes]]) -> str:
    return "; ".join(f"{addr!r}: {_reply(code, text)}" for addr, (code, text) in recipients.items())


def _describe(e: BaseException) -> str:
    if isinstance(e, smtplib.SMTPServerDisconnected):
        return f"the server closed the connection ({e})"
    if isinstance(e, smtplib.SMTPResponseException):
        return _reply(e.smtp_code, e.smtp_error)
    return str(e) or type(e).__name__


Login = Callable[[smtplib.SMTP], None]


def _login_step(smtp: SmtpConfig) -> Login | None:
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


def _connect(smtp: SmtpConfig, login: Login | None) -> smtplib.SMTP:
    """An open, secured and authenticated session, or :class:`_ConnectError` saying what to do."""
    context = ssl.create_default_context()
    if smtp.cafile:
        try:
            context.load_verify_locations(cafile=smtp.cafile)
        except (OSError, ssl.SSLError) as e:
            raise _ConnectError(
                f"cannot load cafile = {smtp.cafile!r} from {SMTP_TABLE}: {e}; "
                "point it to a PEM file with the server's CA certificate",
                False,
            ) from e
    where = _where(smtp)
    conn: smtplib.SMTP | None = None
    step = "connect to"
    try:
        if smtp.tls == "implicit":
            conn = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=smtp.timeout, context=context)
        else:
            conn = smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout)
        step = "greet"
        conn.ehlo()
        if smtp.tls == "starttls":
            if not conn.has_extn("starttls"):
                raise _ConnectError(
                    f"{where} does not offer STARTTLS; use tls = \"implicit\" (port 465) if it "
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
    except _ConnectError:
        _close(conn)
        raise
    except ssl.SSLCertVerificationError as e:
        _close(conn)
        raise _ConnectError(
            f"the TLS certificate of {where} could not be verified ({e.verify_message or e}); "
            f"if the server is self-hosted, set cafile in {SMTP_TABLE} to its CA certificate",
            False,
        ) from e
    except smtplib.SMTPAuthenticationError as e:
        _close(conn)
        if smtp.oauth2_token_env:
            secret = f"the token in ${smtp.oauth2_token_env}"
        else:
            secret = f"the password in ${smtp.password_env}"
        raise _ConnectError(
            f"{where} refused the login of user {smtp.user!r}: {_describe(e)}; check {secret}",
            False,
        ) from e
    except smtplib.SMTPNotSupportedError as e:
        _close(conn)
        raise _ConnectError(f"{where} cannot do what we need to {step} it: {e}", False) from e
    except (smtplib.SMTPException, OSError) as e:
        _close(conn)
        raise _ConnectError(
            f"could not {step} {where}: {_describe(e)}; the messages stay queued for the next run",
            True,
        ) from e


def _close(conn: smtplib.SMTP | None) -> None:
    if conn is not None:
        try:
            conn.close()
        except OSError:
            pass


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
    for path in _eml_files(folder):
        yield read_eml(path)
