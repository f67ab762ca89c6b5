"""Benchmark: ImapSource.fetch against a bare imapclient FETCH of the same messages.

    python bench/bench_imap.py [--messages 1000] [--repeat 5] [--body-lines 40]

Starts a throw-away Dovecot on loopback (admin.runtime.dovecot, the same code as the pytest
fixture), seeds the messages with one MULTIAPPEND, and reports the median of ``--repeat`` runs
of each variant (taking turns), all in the same run against the same server:

- bare FETCH: ``client.fetch(uids, ['BODY.PEEK[]'])`` on a connected client with the folder
  selected and the UIDs known: the floor for moving the bytes.
- bare, connect..FETCH: the same plus connect, LOGIN, SELECT and SEARCH.
- ImapSource.fetch (cold): a new source each time (connect, LOGIN, SELECT, SEARCH, batched FETCH
  with INTERNALDATE, RawMessage objects, sorting).
- ImapSource.fetch (warm): the same source again, connection reused.
- ImapSource.fetch(cutoff): warm, with a cutoff (one extra INTERNALDATE pass before the bodies).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imapclient import IMAPClient  # noqa: E402

from admin.mail.inbound.imap import ImapConfig, ImapSource  # noqa: E402
from admin.runtime.dovecot import PASSWORD, DovecotServer, Message  # noqa: E402

T0 = datetime(2026, 3, 14, 12, 0, 0, tzinfo=timezone.utc)


def make_message(n: int, body_lines: int) -> bytes:
    m = EmailMessage()
    m["From"] = f"Player {n % 17} <player{n % 17}@example.org>"
    m["To"] = "admin@example.org"
    m["Subject"] = f"Turn {n}: moves"
    m["Message-ID"] = f"<bench-{n}@example.org>"
    m["Date"] = "Sat, 14 Mar 2026 12:00:00 +0000"
    lines = [f"BUY square {i % 40}  # token {n:06d}-{i}" for i in range(body_lines)]
    m.set_content("\r\n".join(lines) + "\r\n")
    return m.as_bytes(policy=SMTP)


def bare_fetches(server: DovecotServer, user: str, client: IMAPClient,
                 uids: list[int]) -> tuple[Callable[[], int], Callable[[], int]]:
    """The peers: a bare imapclient batch fetch on an open connection, and one that connects,
    logs in and selects first; each returns how many messages it fetched."""

    def bare() -> int:
        return len(client.fetch(uids, ["BODY.PEEK[]"]))

    def bare_cold() -> int:
        with IMAPClient(server.host, server.port, ssl=False) as c:
            c.login(user, PASSWORD)
            c.select_folder("INBOX")
            return len(c.fetch(c.search("ALL"), ["BODY.PEEK[]"]))

    return bare, bare_cold


def measure(
    variants: list[tuple[str, Callable[[], int]]], repeat: int, expected: int
) -> list[tuple[str, float, float]]:
    """(name, median s, min s) per variant; the variants take turns, so load from other processes
    on the machine spreads over all of them instead of skewing one."""
    times: dict[str, list[float]] = {name: [] for name, _ in variants}
    for _ in range(repeat):
        for name, fn in variants:
            gc.collect()
            started = time.perf_counter()
            count = fn()
            times[name].append(time.perf_counter() - started)
            if count != expected:
                raise SystemExit(f"{name}: expected {expected} messages, got {count}")
    return [(name, statistics.median(ts), min(ts)) for name, ts in times.items()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--body-lines", type=int, default=40, help="lines per message body (size)")
    args = ap.parse_args(argv)

    server = DovecotServer()
    try:
        server.start()
        user = server.new_user()
        raws = [make_message(n, args.body_lines) for n in range(args.messages)]
        started = time.perf_counter()
        uids = server.append_many(user, [Message(r, T0 + timedelta(seconds=n)) for n, r in enumerate(raws)])
        seed_s = time.perf_counter() - started
        total_bytes = sum(map(len, raws))
        print(
            f"dovecot on {server.host}:{server.port} ({server.dir}); {args.messages} messages, "
            f"{total_bytes / 1e6:.2f} MB, seeded by MULTIAPPEND in {seed_s * 1000:.0f} ms; median of {args.repeat}"
        )

        client = IMAPClient(server.host, server.port, ssl=False)
        client.login(user, PASSWORD)
        client.select_folder("INBOX")

        bare, bare_cold = bare_fetches(server, user, client, uids)

        config = ImapConfig(host=server.host, port=server.port, tls="none", user=user)
        environ = {config.password_env: PASSWORD}

        def source_cold() -> int:
            with ImapSource(config, environ=environ) as src:
                return len(src.fetch())

        warm = ImapSource(config, environ=environ)
        warm.fetch()
        cutoff = T0 + timedelta(days=1)

        rows = measure(
            [
                ("bare FETCH BODY.PEEK[] (connected)", bare),
                ("bare, connect..FETCH", bare_cold),
                ("ImapSource.fetch (cold)", source_cold),
                ("ImapSource.fetch (warm)", lambda: len(warm.fetch())),
                ("ImapSource.fetch(cutoff) (warm)", lambda: len(warm.fetch(cutoff))),
            ],
            args.repeat,
            args.messages,
        )
        warm.close()
        client.logout()

        base = rows[0][1]
        width = max(len(name) for name, _, _ in rows)
        print(f"\n{'variant':<{width}}  {'median ms':>9}  {'min ms':>7}  {'msg/s':>7}  {'x bare':>6}")
        for name, median, fastest in rows:
            rate = args.messages / median
            print(f"{name:<{width}}  {median * 1000:9.1f}  {fastest * 1000:7.1f}  {rate:7.0f}  {median / base:6.2f}")
        print(f"\nratio ImapSource.fetch (warm) / bare FETCH: {rows[3][1] / base:.2f}")
        print(f"ratio ImapSource.fetch (cold) / bare connect..FETCH: {rows[2][1] / rows[1][1]:.2f}")
    finally:
        server.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
