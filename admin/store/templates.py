"""What ``nomopoly init`` writes into a new game folder besides the state: its settings file,
``nomopoly.toml`` (every key commented, with what it does), and its ``.gitignore``."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

GITIGNORE = """# made again from the state by nomopoly: never commit them
site/
dry-run/
state/.cache/
state/.lock
"""


def default_settings(name: str) -> str:
    return f'''# nomopoly settings for "{name}". Secrets never go here: passwords and tokens come from
# environment variables (see the README).

[game]
title = "{name}"
# the Monday of week 1, and the timezone of the deadlines
start = "{datetime.now(timezone.utc).date() - timedelta(days=datetime.now(timezone.utc).weekday())}"
timezone = "UTC"

[mail]
# "maildir" (a local folder) or "imap" (then fill in [mail.imap] below)
source = "maildir"
maildir = "mail/inbox"
# the game's address (From: of every message it sends) and yours (the update reports)
# from_address = "game@example.org"
# admin_address = "admin@example.org"
# remind_hours = 24

# [mail.imap]            # read the players' mail from a real mailbox
# host = "imap.example.org"
# user = "game@example.org"
# tls = "implicit"       # or "starttls"; "none" only for a server on this machine
# password_env = "NOMOPOLY_IMAP_PASSWORD"

# [mail.smtp]            # without it, outgoing mail is written to state/outbox/ as .eml files
# host = "smtp.example.org"
# user = "game@example.org"
# tls = "starttls"       # it sends from [mail] from_address above
# password_env = "NOMOPOLY_SMTP_PASSWORD"

[auth]
plus_addressing = "strip"
require_token = false

[site]
title = "{name}"
# url = "https://example.org/nomopoly/"   # enables the Atom feed and sitemap
'''
