"""The two letters a newcomer gets: the answer to a stranger's ``JOIN`` (received; the Admin
decides) and the welcome ``nomopoly player add`` sends (how to play, the deadlines, the game's
address, the player's TOKEN where the game uses tokens).

Pure functions of plain values, like :mod:`admin.mail.outbound.texts`; :mod:`admin.mail.outbound.mailout`
drafts and sends them.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from admin.mail.outbound.caps import SUBJECT_CHARS, shorten
from admin.mail.outbound.verdicts import LineResult, LoggedMessage
from admin.mail.outbound.texts import FOOTER_HINT, _lines_block, footer, format_time


def join_reply_text(*, message: LoggedMessage, results: list[LineResult], title: str, site_url: str,
                    zone: tzinfo | None = None) -> str:
    """The one answer to an email from an address that is no player's, asking to JOIN."""
    subject = f'"{shorten(message.subject, SUBJECT_CHARS)}"' if message.subject else "(no subject)"
    received = message.received
    try:
        moment = datetime.fromisoformat(received)
        received = format_time(moment.astimezone(zone) if zone is not None else moment)
    except (TypeError, ValueError):
        pass
    howto = f" Meanwhile, how to play: {site_url}/howto.html" if site_url else ""
    parts = [
        "Hello,",
        "",
        f"this answers your email {subject}, received {received}, asking to join {title}:",
        "",
        *_lines_block(results),
        "",
        "The Admin decides who joins; nothing more is needed from you now. If you are added, a",
        "welcome email tells you how to play, when mail for each update closes and where to send it."
        + howto,
        "",
    ]
    return "\n".join(parts) + footer(title, site_url)


def welcome_text(*, player: str, address: str, deadlines: list[tuple[int, str, datetime]],
                 token: str | None, require_token: bool, title: str, site_url: str) -> str:
    """A new player's welcome: ``deadlines`` the coming updates (number, slot, when mail closes);
    ``token`` the secret the Admin just issued (None when none), ``require_token`` whether every
    email must carry one."""
    parts = [
        f"Hello {player},",
        "",
        f"welcome to {title}: the Admin has added you as player {player}.",
        "",
        "How to play",
        f"  Send your commands by email to {address}, one per line (a new email or a reply).",
        "  HELP by email lists every command the rules in force allow; HELP <command> explains one.",
    ]
    if site_url:
        parts += [f"  Every command, with an example and its rule: {site_url}/howto.html",
                  f"  The game, its players and the rules: {site_url}/"]
    parts += ["", "Deadlines"]
    if deadlines:
        parts += [f"  Update {n} ({slot}): mail closes {format_time(when)}" for n, slot, when in deadlines]
        parts.append("  Mail after a deadline waits for the next update.")
    else:
        parts.append("  The Admin will announce when mail for the first update closes.")
    if token:
        parts += ["", "Your secret token",
                  f"  TOKEN {token}",
                  "  Put this line in " + ("every email you send to the game: mail without it is refused."
                                           if require_token else
                                           "your emails to the game: it proves they are yours."),
                  "  Keep it secret; the Admin can issue a new one if it leaks."]
    elif require_token:
        parts += ["", "Your secret token",
                  "  This game wants a line TOKEN <your token> in every email; the Admin will send you yours."]
    parts += ["", FOOTER_HINT, ""]
    return "\n".join(parts) + footer(title, site_url)
