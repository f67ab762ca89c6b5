"""What the machine offers a throw-away server: a free port on loopback, a short temp dir (for unix
sockets), and processes as /proc shows them (a process's start time, to tell it from a later one
with the same pid; the live children of a process). Linux only, like the Dovecot that uses them."""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path


def stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name (state first), or None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def start_time(pid: int) -> str | None:
    """The start time of a live (not zombie) process, to tell it from a later one with the same pid."""
    fields = stat_fields(pid)
    return None if fields is None or fields[0] in ("Z", "X") else fields[19]


def children(parent: int) -> list[tuple[int, str]]:
    """(pid, start time) of the live child processes of ``parent``."""
    found: list[tuple[int, str]] = []
    for entry in os.listdir("/proc"):
        if entry.isdecimal():
            fields = stat_fields(int(entry))
            if fields is not None and fields[1] == str(parent) and fields[0] not in ("Z", "X"):
                found.append((int(entry), fields[19]))
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def short_tempdir(prefix: str = "dc") -> Path:
    """A new temp dir with a short path (unix sockets live in it: < 108 characters), on tmpfs if possible."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))
