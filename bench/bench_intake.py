"""Benchmark: fetching AND reading 1,000 realistic player emails from Dovecot, against a bare
imapclient batch FETCH of the same messages, in the same run against the same server.

    python bench/bench_intake.py [--messages 1000] [--repeat 5]

The messages are what players send: plain text and multipart/alternative with HTML, quoted
replies with "On ... wrote:" and signatures, quoted-printable and base64 bodies, non-ASCII
display names, the odd auto-reply and stranger; every game requires a TOKEN line. The variants
take turns; each figure is the median of ``--repeat`` runs:

- bare FETCH: ``client.fetch(uids, ['BODY.PEEK[]'])`` on a connected client, UIDs known (the floor).
- bare, connect..FETCH: the same plus connect, LOGIN, SELECT and SEARCH.
- ImapSource.fetch: connect, LOGIN, SELECT, SEARCH, batched FETCH with INTERNALDATE, RawMessages.
- fetch + read + parse + auth: the above, then for every message what an update does before the
  engine (:func:`admin.mail.inbound.intake.screen`): ``read_message`` (MIME, charsets, HTML to text,
  quotes and signature), ``parse_lines`` (the grammar) and the sender and TOKEN checks.
- read + parse + auth only: the same screening on bytes already in memory.
- take_in + screen (disk): the whole intake into a fresh game folder: archive every message and
  the ledger with fsync, then screen (so the disk's fsync cost shows too).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from imapclient import IMAPClient  # noqa: E402

from admin.jobs import roster as admin_ops  # noqa: E402
from admin.mail.inbound.auth import AuthSettings, hash_token  # noqa: E402
from admin.mail.inbound.imap import ImapConfig, ImapSource  # noqa: E402
from admin.mail.inbound.intake import screen, take_in  # noqa: E402
from admin.mail.inbound.ledger import LedgerEntry  # noqa: E402
from admin.mail.inbound.sources import RawMessage  # noqa: E402
from admin.engine.model import GameState  # noqa: E402
from admin.games.catalog import initial_state  # noqa: E402
from admin.runtime.dovecot import PASSWORD, DovecotServer, Message  # noqa: E402
from bench.bench_imap import bare_fetches, measure  # noqa: E402  (the variants take turns; medians)

T0 = datetime(2026, 11, 3, 9, 0, 0, tzinfo=timezone.utc)
PLAYERS = [("Zoë Ångström", "zoe"), ("Bob", "bob"), ("José Muñoz", "jose"), ("Carol", "carol"),
           ("Dmitri Волков", "dmitri"), ("Eve", "eve"), ("李雷", "lilei"), ("Frank", "frank")]
COMMANDS = ["BUY", "BUY 14", "VOTE 3 YES", "VOTE 4 no", "STATUS", "NAME 14 Boardwalk Café",
            "PLACE card 2 ON square 9", "BURY 3", "vote 5 abstain", "Buy square 22"]


def token(nick: str) -> str:
    return f"tok-{nick}-7f3a9c"


def make_message(n: int) -> bytes:
    """A realistic player email; the kind rotates with ``n``."""
    name, nick = PLAYERS[n % len(PLAYERS)]
    kind = n % 10
    commands = [COMMANDS[(n + i) % len(COMMANDS)] for i in range(1 + n % 4)]
    if kind == 7:  # a proposal block
        commands.append(f"PROPOSE Rent cap {n}\nNo rent above ${100 + n % 50}.\nIt applies from next week.\nEND")
    text = f"TOKEN {token(nick)}\n" + "\n".join(commands) + "\n"
    m = EmailMessage()
    m["From"] = f"{name} <{nick}{'+game' if kind == 3 else ''}@example.org>"
    m["To"] = "Nomopoly <admin@example.org>"
    m["Subject"] = f"Re: [nomopoly] week 1 moves ({n})"
    m["Date"] = format_datetime(T0 + timedelta(minutes=n))
    m["Message-ID"] = f"<bench-intake-{n}@mail.example.org>"
    m["Authentication-Results"] = "mx.admin.example; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org"
    if kind == 5:
        m["Auto-Submitted"] = "auto-replied"
    if kind == 9:
        m.replace_header("From", f"Stranger <stranger{n}@elsewhere.example>")
    quoted = "".join(f"> {line}\n" for line in ["Results of update 3:", "  alice rolled 4 and 2",
                                                "  bob bought square 14"] * 4)
    reply = f"{text}\nThanks!\n{name}\n\nOn Mon, 2 Nov 2026 at 18:00, Nomopoly <admin@example.org> wrote:\n{quoted}"
    signature = f"{text}\n-- \n{name}\nSent from my phone\n"
    if kind in (0, 4, 8):
        m.set_content(reply, cte="quoted-printable")
    elif kind in (1, 6):
        m.set_content(signature)
        body = "".join(f"<p>{line}</p>" for line in text.splitlines())
        m.add_alternative(f"<html><body><div dir='ltr'>{body}<br><div class='gmail_quote'>"
                          f"<blockquote>{quoted}</blockquote></div></div></body></html>", subtype="html")
    elif kind == 2:
        m.set_content(reply + "Grüße, ça va? — ☃\n", cte="base64")
    else:
        m.set_content(signature, cte="8bit") if kind == 3 else m.set_content(signature)
    return m.as_bytes(policy=SMTP)


def game_state() -> GameState:
    state = initial_state("nomopoly2", "bench")
    for _, nick in PLAYERS:
        admin_ops.add_player(state, nick, f"{nick}@example.org", hash_token(token(nick)))
    return state


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--messages", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)

    state = game_state()
    auth = AuthSettings(require_token=True, require_dkim=True, authserv_id="mx.admin.example")
    server = DovecotServer()
    scratch = Path(tempfile.mkdtemp(prefix="bench-intake-"))
    try:
        server.start()
        user = server.new_user()
        raws = [make_message(n) for n in range(args.messages)]
        uids = server.append_many(user, [Message(r, T0 + timedelta(seconds=n)) for n, r in enumerate(raws)])
        print(f"dovecot on {server.host}:{server.port}; {args.messages} messages, "
              f"{sum(map(len, raws)) / 1e6:.2f} MB; median of {args.repeat}")

        client = IMAPClient(server.host, server.port, ssl=False)
        client.login(user, PASSWORD)
        client.select_folder("INBOX")
        config = ImapConfig(host=server.host, port=server.port, tls="none", user=user)
        environ = {config.password_env: PASSWORD}
        verdicts: dict[str, int] = {}

        bare, bare_cold = bare_fetches(server, user, client, uids)

        def fetch_only() -> int:
            with ImapSource(config, environ=environ) as src:
                return len(src.fetch())

        def screen_all(messages: list[RawMessage]) -> int:
            fresh: dict[str, bytes] = {}
            entries = []
            for m in messages:
                digest = hashlib.sha256(m.raw).hexdigest()
                fresh[digest] = m.raw
                entries.append(LedgerEntry(hash=digest, key=m.key, message_id="", received=m.received.isoformat()))
            out = screen(scratch, entries, state, auth, 1_000_000, fresh)
            verdicts.clear()
            for s in out:
                verdicts[s.status] = verdicts.get(s.status, 0) + 1
            return len(out)

        def fetch_and_read() -> int:
            with ImapSource(config, environ=environ) as src:
                return screen_all(src.fetch())

        in_memory = [RawMessage(key=f"m:{n}", received=T0, raw=r) for n, r in enumerate(raws)]
        runs = iter(range(10**6))

        def take_in_and_screen() -> int:
            state_dir = scratch / f"game-{next(runs)}" / "state"
            with ImapSource(config, environ=environ) as src:
                report = take_in(state_dir, src, None)
            entries = report.ledger.pending(None)
            n = len(screen(state_dir, entries, state, auth, 1_000_000))
            shutil.rmtree(state_dir.parent)
            return n

        rows = measure([
            ("bare FETCH BODY.PEEK[] (connected)", bare),
            ("bare, connect..FETCH", bare_cold),
            ("ImapSource.fetch", fetch_only),
            ("fetch + read + parse + auth", fetch_and_read),
            ("read + parse + auth only (in memory)", lambda: screen_all(in_memory)),
            ("take_in + screen (archive, ledger, fsync)", take_in_and_screen),
        ], args.repeat, args.messages)
        client.logout()

        base = rows[0][1]
        width = max(len(name) for name, _, _ in rows)
        print(f"\n{'variant':<{width}}  {'median ms':>9}  {'min ms':>7}  {'msg/s':>7}  {'x bare':>6}")
        for name, median, fastest in rows:
            print(f"{name:<{width}}  {median * 1000:9.1f}  {fastest * 1000:7.1f}  "
                  f"{args.messages / median:7.0f}  {median / base:6.2f}")
        print(f"\nverdicts per run: {dict(sorted(verdicts.items()))}")
        print(f"ratio fetch + read + parse + auth / bare connect..FETCH: {rows[3][1] / rows[1][1]:.2f}")
        print(f"ratio fetch + read + parse + auth / bare FETCH (connected): {rows[3][1] / base:.2f}")
        print(f"per message: read + parse + auth {rows[4][1] / args.messages * 1e6:.0f} µs")
    finally:
        server.cleanup()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
