"""A throw-away Dovecot IMAP server on loopback, for tests and benchmarks.

Follows the tested recipe (shared/recipes/mail-servers.md): a self-contained config in a short
temp dir on tmpfs, ``dovecot -F -c DIR/dovecot.conf`` as a child process, helper processes and mail
owned by ``nobody:nogroup`` when run as root (Dovecot refuses uid 0 for mail) or by the current user
otherwise. Any user name ``t-<n>`` logs in with password ``testpw`` (or XOAUTH2 with that as the
token) and has an empty mailbox.

With ``tls=True`` the server also gets a CA and a server certificate made with the openssl CLI
(SAN IP:127.0.0.1), an implicit-TLS listener on its own port, and STARTTLS on the plain port.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from imapclient import IMAPClient

from admin.runtime.machine import children as live_children, free_port, short_tempdir, start_time
from admin.runtime.testcerts import ToolMissing, make_ca, make_server_cert

PASSWORD = "testpw"

# Copied from shared/recipes/dovecot.conf.template (tested there); @NAME@ are placeholders.
CONFIG_TEMPLATE = r"""
protocols = imap
listen = 127.0.0.1
base_dir = @DIR@/run
state_dir = @DIR@/state
instance_name = dovecot-test-@IMAP_PORT@
log_path = @DIR@/dovecot.log

ssl = no
disable_plaintext_auth = no
# xoauth2/oauthbearer: with no oauth2 passdb, Dovecot checks the bearer token like a password,
# so the t-* users also log in with XOAUTH2 and the token "testpw".
auth_mechanisms = plain login xoauth2 oauthbearer
auth_failure_delay = 0
mail_max_userip_connections = 100
mail_fsync = never

default_login_user = @MAIL_USER@
default_internal_user = @MAIL_USER@
default_internal_group = @MAIL_GROUP@
first_valid_uid = 1

passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u @DIR@/users
}
passdb {
  driver = static
  args = password=testpw
  username_filter = t-*
}
userdb {
  driver = static
  args = uid=@MAIL_UID@ gid=@MAIL_GID@ home=@DIR@/mail/%u allow_all_users=yes
}

mail_location = maildir:~/Maildir:LAYOUT=fs
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \Sent
  }
  mailbox Trash {
    special_use = \Trash
  }
}

service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = @IMAP_PORT@
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}

!include_try @DIR@/tls.conf
"""

TLS_TEMPLATE = """
ssl = yes
ssl_cert = <@DIR@/server.pem
ssl_key = <@DIR@/server.key
service imap-login {
  inet_listener imaps {
    address = 127.0.0.1
    port = @IMAPS_PORT@
  }
}
"""


class DovecotUnavailable(RuntimeError):
    """Dovecot (or openssl, for TLS) is not installed."""


def dovecot_binary() -> str | None:
    """Path of the dovecot binary (env ``NOMOPOLY_DOVECOT`` overrides), or None when it is not installed."""
    if "NOMOPOLY_DOVECOT" in os.environ:
        path = os.environ["NOMOPOLY_DOVECOT"]
        return path if os.access(path, os.X_OK) else None
    return shutil.which("dovecot") or next(
        (p for p in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if os.access(p, os.X_OK)), None
    )


def _mail_account() -> tuple[str, str, int, int]:
    """(user, group, uid, gid) that owns the mail: nobody/nogroup as root, else the current user."""
    import grp
    import pwd

    if os.geteuid() == 0:
        user = pwd.getpwnam("nobody")
        group_name = next((g for g in ("nogroup", "nobody") if _group_exists(g)), None)
        if group_name is None:
            raise DovecotUnavailable("running as root needs a 'nogroup' or 'nobody' group for the mail files")
        return "nobody", group_name, user.pw_uid, grp.getgrnam(group_name).gr_gid
    me = pwd.getpwuid(os.geteuid())
    return me.pw_name, grp.getgrgid(os.getegid()).gr_name, me.pw_uid, os.getegid()


def _group_exists(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


@dataclass(frozen=True)
class Message:
    """A message to seed: raw bytes and the INTERNALDATE the server should record (None: now)."""

    raw: bytes
    internaldate: datetime | None = None


class DovecotServer:
    """One Dovecot instance. ``start()`` / ``stop()`` / ``restart()`` keep ports and mail dir."""

    def __init__(self, *, tls: bool = False, extra_config: str = "", directory: Path | None = None) -> None:
        """``extra_config`` is appended to dovecot.conf; later settings and sections override earlier ones."""
        binary = dovecot_binary()
        if binary is None:
            where = os.environ.get("NOMOPOLY_DOVECOT", "on PATH or in /usr/sbin")
            raise DovecotUnavailable(f"dovecot is not installed ({where}); Debian: apt-get install dovecot-imapd")
        self.binary = binary
        self.tls = tls
        self.extra_config = extra_config
        self.dir = directory or short_tempdir()
        self.host = "127.0.0.1"
        self.port = free_port()
        self.tls_port: int | None = free_port() if tls else None
        self.cafile: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self._users = itertools.count(1)
        self._write_config()

    # -- lifecycle ---------------------------------------------------------------------------
    def _write_config(self) -> None:
        user, group, uid, gid = _mail_account()
        d = self.dir
        os.chmod(d, 0o755)
        (d / "mail").mkdir(exist_ok=True)
        users = d / "users"
        users.write_text("alice:{PLAIN}alicepw::::::\n")
        os.chmod(users, 0o644)
        if os.geteuid() == 0:
            os.chown(d / "mail", uid, gid)
        values = {
            "@DIR@": str(d), "@IMAP_PORT@": str(self.port), "@MAIL_USER@": user,
            "@MAIL_GROUP@": group, "@MAIL_UID@": str(uid), "@MAIL_GID@": str(gid),
            "@IMAPS_PORT@": str(self.tls_port or 0),
        }  # fmt: skip
        (d / "dovecot.conf").write_text(_fill(CONFIG_TEMPLATE, values) + self.extra_config + "\n")
        if self.tls:
            try:
                ca = make_ca(d)
                make_server_cert(d, ca)
            except ToolMissing as exc:
                raise DovecotUnavailable(str(exc)) from None
            self.cafile = ca[0]
            (d / "tls.conf").write_text(_fill(TLS_TEMPLATE, values))

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 15.0) -> None:
        if self.running:
            return
        log = open(self.dir / "stdout.log", "ab")
        try:
            self.proc = subprocess.Popen(
                [self.binary, "-F", "-c", str(self.dir / "dovecot.conf")],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        ports = [self.port] + ([self.tls_port] if self.tls_port else [])
        for port in ports:
            while not self._greets(port):
                if self.proc.poll() is not None:
                    raise RuntimeError(f"dovecot exited with code {self.proc.returncode}:\n{self.log_tail()}")
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"dovecot did not greet on port {port} within {timeout} s:\n{self.log_tail()}")
                time.sleep(0.01)

    def _greets(self, port: int) -> bool:
        try:
            with socket.create_connection((self.host, port), timeout=1.0) as s:
                if port == self.tls_port:
                    ctx = ssl.create_default_context(cafile=str(self.cafile))
                    with ctx.wrap_socket(s, server_hostname=self.host) as t:
                        return t.recv(64).startswith(b"* OK")
                return s.recv(64).startswith(b"* OK")
        except OSError:
            return False

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM the master and its children (our own processes, by pid) and wait for them.

        The master alone takes about 1 s to exit, and Dovecot 2.3 leaves an ``imap`` process with a
        connected client (and ``log``/``stats``) running after it, so a "stopped" server would keep
        serving open connections. Signalling the children too stops everything in 0.1-0.3 s.
        """
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        children = live_children(proc.pid)
        proc.send_signal(signal.SIGTERM)  # first, so that it does not restart the children
        for pid, started in children:
            if start_time(pid) == started:
                try:
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        soon = time.monotonic() + min(timeout, 2.0)
        while any(start_time(pid) == started for pid, started in children) and time.monotonic() < soon:
            time.sleep(0.01)
        try:
            # With its children gone the master has nothing left to do, but now and then it still
            # waits a full second before exiting; it holds no mail data, so cut that short.
            proc.wait(timeout=0.3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for pid, started in children:  # any child that ignored SIGTERM
            if start_time(pid) == started:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + timeout
        while any(start_time(pid) == started for pid, started in children) and time.monotonic() < deadline:
            time.sleep(0.01)

    def restart(self) -> None:
        self.stop()
        self.start()

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_tail(self, lines: int = 30) -> str:
        text = ""
        for name in ("dovecot.log", "stdout.log"):
            path = self.dir / name
            if path.exists():
                text += "".join(path.read_text(errors="replace").splitlines(keepends=True)[-lines:])
        return text

    # -- accounts and mail ---------------------------------------------------------------------
    def new_user(self) -> str:
        """A fresh account ``t-<n>`` (password ``testpw``) with an empty mailbox."""
        return f"t-{next(self._users)}"

    @contextmanager
    def client(self, user: str, folder: str | None = None) -> Iterator[IMAPClient]:
        """A logged-in IMAPClient over the plain port (folder selected when given)."""
        c = IMAPClient(self.host, self.port, ssl=False, timeout=30)
        try:
            c.login(user, PASSWORD)
            if folder is not None:
                c.select_folder(folder)
            yield c
        finally:
            try:
                c.logout()
            except Exception:
                c.shutdown()

    def clone_account(self, user: str) -> str:
        """A new account holding a file-for-file copy of ``user``'s mail store: the same messages,
        UIDs and UIDVALIDITY (what a test needs to repeat a run on identical mailboxes).
        ``user`` should have no open session."""
        new = self.new_user()
        source, target = self.dir / "mail" / user, self.dir / "mail" / new
        shutil.copytree(source, target, symlinks=True)
        if os.geteuid() == 0:
            _, _, uid, gid = _mail_account()
            for path in [target, *target.rglob("*")]:
                os.lchown(path, uid, gid)
        return new

    def create_folder(self, user: str, folder: str) -> None:
        with self.client(user) as c:
            if not c.folder_exists(folder):
                c.create_folder(folder)

    def append(self, user: str, raw: bytes, internaldate: datetime | None = None, folder: str = "INBOX") -> int:
        """APPEND one message with the given INTERNALDATE (None: now; bytes sent as-is); returns its UID."""
        return self.append_many(user, [Message(raw, internaldate)], folder)[0]

    def append_many(self, user: str, messages: Iterable[Message], folder: str = "INBOX") -> list[int]:
        """MULTIAPPEND the messages in one command (raw bytes, no line-ending changes); returns their UIDs."""
        batch = [{"msg": m.raw, **({"date": m.internaldate} if m.internaldate else {})} for m in messages]
        if not batch:
            return []
        with self.client(user) as c:
            if folder != "INBOX" and not c.folder_exists(folder):
                c.create_folder(folder)
            response = c.multiappend(folder, batch)
        return _appenduids(response, len(batch))

    def uidvalidity(self, user: str, folder: str = "INBOX") -> int:
        with self.client(user) as c:
            return int(c.folder_status(folder, [b"UIDVALIDITY"])[b"UIDVALIDITY"])

    def list_uids(self, user: str, folder: str = "INBOX") -> list[int]:
        with self.client(user) as c:
            c.select_folder(folder, readonly=True)
            return sorted(c.search("ALL"))

    def flags(self, user: str, folder: str = "INBOX") -> dict[int, tuple[bytes, ...]]:
        """Flags by UID, read without changing them."""
        with self.client(user) as c:
            c.select_folder(folder, readonly=True)
            uids = c.search("ALL")
            return {uid: tuple(d[b"FLAGS"]) for uid, d in c.fetch(uids, ["FLAGS"]).items()} if uids else {}


def _fill(template: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        template = template.replace(name, value)
    return template


def _appenduids(response: bytes | str, count: int) -> list[int]:
    """UIDs from ``[APPENDUID <validity> <uid-set>]`` (a MULTIAPPEND answers with a range)."""
    text = response.decode() if isinstance(response, bytes) else str(response)
    start = text.upper().find("[APPENDUID ")
    if start < 0:
        raise RuntimeError(f"no APPENDUID in the server's answer {text!r}")
    uid_set = text[start:].split("]", 1)[0].split()[2]
    uids: list[int] = []
    for part in uid_set.split(","):
        lo, _, hi = part.partition(":")
        uids.extend(range(int(lo), int(hi or lo) + 1))
    if len(uids) != count:
        raise RuntimeError(f"APPENDUID {uid_set!r} names {len(uids)} UIDs for {count} messages")
    return uids
