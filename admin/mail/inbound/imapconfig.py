"""The settings of the IMAP source (``[mail.imap]`` in ``nomopoly.toml``), checked when read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal, get_args

from admin.engine.errors import StateError

TlsMode = Literal["implicit", "starttls", "none"]


@dataclass(frozen=True, kw_only=True)
class ImapConfig:
    """The ``[mail.imap]`` table of a game's ``nomopoly.toml``. Secrets come from the environment."""

    host: str
    user: str
    port: int | None = None  #: default by ``tls``: 993 for implicit, 143 for starttls and none
    tls: TlsMode = "implicit"
    folder: str = "INBOX"
    processed_folder: str = "Nomopoly/Processed"
    password_env: str = "NOMOPOLY_IMAP_PASSWORD"
    oauth2_token_env: str | None = None  #: XOAUTH2 login (Gmail, Outlook) with the token in this variable
    cafile: str | None = None  #: CA certificate(s) to trust instead of the system's (self-hosted servers)
    batch_size: int = 200
    timeout: float = 30.0
    retries: int = 3
    backoff: float = 1.0

    def __post_init__(self) -> None:
        if self.tls not in get_args(TlsMode):
            raise StateError(
                f"[mail.imap] tls = {self.tls!r} is not a TLS mode: use \"implicit\" (port 993), "
                f"\"starttls\" (port 143) or \"none\" (plain text, only for a server on this machine)"
            )
        if self.port is None:
            object.__setattr__(self, "port", 993 if self.tls == "implicit" else 143)
        checks = [
            (bool(self.host.strip()), "host", "the server's name, e.g. \"imap.example.org\""),
            (bool(self.user.strip()), "user", "the login name, often the full address"),
            (1 <= (self.port or 0) <= 65535, "port", "a TCP port from 1 to 65535"),
            (bool(self.folder.strip()), "folder", "a folder name such as \"INBOX\""),
            (bool(self.processed_folder.strip()), "processed_folder", "a folder name"),
            (self.processed_folder != self.folder, "processed_folder", "a folder other than `folder`"),
            (bool(self.password_env.strip()), "password_env", "an environment variable name"),
            (self.batch_size >= 1, "batch_size", "a whole number of at least 1"),
            (self.timeout > 0, "timeout", "a number of seconds above 0"),
            (self.retries >= 0, "retries", "a whole number of at least 0"),
            (self.backoff >= 0, "backoff", "a number of seconds of at least 0"),
        ]
        for ok, name, expected in checks:
            if not ok:
                raise StateError(f"[mail.imap] {name} = {getattr(self, name)!r} is not valid: use {expected}")

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], *, base_dir: Path | None = None) -> ImapConfig:
        """Read the ``[mail.imap]`` table; a relative ``cafile`` is resolved against ``base_dir``."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            secretish = [k for k in unknown if "pass" in k.lower() or "token" in k.lower() or "secret" in k.lower()]
            hint = (
                " Secrets are never read from nomopoly.toml: put the name of an environment variable in "
                "password_env or oauth2_token_env and set that variable instead."
                if secretish
                else ""
            )
            raise StateError(
                f"[mail.imap] has unknown key(s) {', '.join(map(repr, unknown))}; known keys are "
                f"{', '.join(sorted(known))}.{hint}"
            )
        for required in ("host", "user"):
            if required not in d:
                raise StateError(f"[mail.imap] needs {required} = \"...\" (the IMAP server's {required})")
        types: dict[str, tuple[type, ...]] = {
            "host": (str,), "user": (str,), "port": (int,), "tls": (str,), "folder": (str,),
            "processed_folder": (str,), "password_env": (str,), "oauth2_token_env": (str,),
            "cafile": (str,), "batch_size": (int,), "timeout": (int, float), "retries": (int,),
            "backoff": (int, float),
        }  # fmt: skip
        values: dict[str, Any] = {}
        for key, value in d.items():
            allowed = types[key]
            if isinstance(value, bool) or not isinstance(value, allowed):
                want = "a number" if float in allowed else "a whole number" if int in allowed else "a string"
                raise StateError(f"[mail.imap] {key} = {value!r} has the wrong type: {key} must be {want}")
            values[key] = float(value) if float in allowed else value  # type: ignore[arg-type]  # a number, checked
        if base_dir is not None and values.get("cafile") and not Path(values["cafile"]).is_absolute():
            values["cafile"] = str(Path(base_dir) / values["cafile"])
        return cls(**values)
