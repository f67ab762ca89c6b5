"""``nomopoly check``: every setting of ``nomopoly.toml`` checked before anything runs.

Each key has a kind (text, yes/no, a whole number, an address ...); an unknown table or key is an
error with a "did you mean"; ``start`` must be a Monday, ``timezone`` an IANA name, ``url`` an
http(s) address, the mail folder must exist. The tables the mail code reads in full
(``[mail.imap]``, ``[mail.smtp]``, ``[auth]``) are checked by the same code that reads them, so
the check and the use can never disagree. Every problem names the file, the key and the fix."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import date
from typing import Any, Callable
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from admin.engine.errors import NomopolyError, StateError
from admin.store.gamedir import GameDir

_ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the settings: where, what, and what to write instead."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


Check = Callable[[Any], str | None]  # None: fine; else what is wrong and the fix


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"must be text in quotes, e.g. \"{value}\""


def _flag(value: Any) -> str | None:
    if isinstance(value, bool):
        return None
    return f"must be true or false (without quotes), not {value!r}"


def _whole(least: int) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            return f"must be a whole number of at least {least}, not {value!r}"
        return None
    return check


def _positive(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return f"must be a number above 0 (e.g. 24), not {value!r}"
    return None


def _choice(*allowed: str) -> Check:
    def check(value: Any) -> str | None:
        if value in allowed:
            return None
        return f"is {value!r}; use " + " or ".join(f'"{a}"' for a in allowed)
    return check


def _address(value: Any) -> str | None:
    if isinstance(value, str) and _ADDRESS.match(value):
        return None
    return f"is {value!r}, not a mail address; write one like \"game@example.org\""


def _monday(value: Any) -> str | None:
    try:
        day = value if isinstance(value, date) else date.fromisoformat(str(value))
    except ValueError:
        return f"is {value!r}, not a date; write the Monday of week 1 as \"2026-11-02\""
    if day.weekday() != 0:
        return (f"is {day.isoformat()}, a {day.strftime('%A')}: a game's weeks start on a Monday; "
                f"write the Monday of week 1 (e.g. \"{date.fromordinal(day.toordinal() - day.weekday())}\")")
    return None


def _zone(value: Any) -> str | None:
    try:
        ZoneInfo(str(value))
    except (ZoneInfoNotFoundError, ValueError):
        return f"is {value!r}, not a timezone; use an IANA name such as \"Europe/London\" or \"UTC\""
    return None


def _url(value: Any) -> str | None:
    parts = urlsplit(str(value))
    if isinstance(value, str) and parts.scheme in ("http", "https") and parts.netloc:
        return None
    return f"is {value!r}; write the site's address as \"https://example.org/mygame/\""


#: every table and key nomopoly.toml may hold, and how each is checked; None: read by the mail code
SCHEMA: dict[str, dict[str, Check] | None] = {
    "game": {"title": _text, "start": _monday, "timezone": _zone},
    "mail": {"source": _choice("maildir", "imap"), "maildir": _text, "from_address": _address,
             "from_name": _text, "admin_address": _address, "remind_hours": _positive,
             "remind_proposals": _flag, "max_bytes": _whole(1), "max_lines": _whole(1),
             "max_commands": _whole(1)},
    "mail.imap": None,
    "mail.smtp": None,
    "auth": None,
    "site": {"title": _text, "url": _url, "publish": _text, "publish_git": _text, "publish_remote": _text},
    "dice": {"insecure_demo_seed_key": _text, "beacon": _flag, "beacon_url": _text, "beacon_genesis": _whole(0),
             "beacon_period": _whole(1)},
}


def _near(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else f"; known: {', '.join(sorted(known))}"


def _tables(raw: dict[str, Any], prefix: str = "") -> dict[str, dict[str, Any]]:
    """The tables of the file, dotted (``mail.imap``), each with its plain keys."""
    out: dict[str, dict[str, Any]] = {}
    for key, value in raw.items():
        if isinstance(value, dict):
            name = f"{prefix}{key}"
            out[name] = {k: v for k, v in value.items() if not isinstance(v, dict)}
            out.update(_tables(value, f"{name}."))
    return out


def check_settings(game: GameDir, *, mail_folder: bool = True) -> list[Problem]:
    """Every problem of ``nomopoly.toml`` (empty: it is fine); ``mail_folder``: also that the
    Maildir it names exists (the commands that read mail need it; ``status`` does not)."""
    where = str(game.settings_path)
    try:
        raw = game.settings().raw
    except StateError as exc:
        return [Problem(where, str(exc).split(": ", 1)[-1])]
    problems: list[Problem] = []
    stray = [k for k, v in raw.items() if not isinstance(v, dict)]
    for key in stray:
        problems.append(Problem(f"{where}: {key}", "is outside any table; put it under the table it "
                                                   "belongs to ([game], [mail], [site] ...)"))
    tables = _tables(raw)
    for name, keys in tables.items():
        if name not in SCHEMA:
            problems.append(Problem(f"{where}: [{name}]", "is not a table nomopoly reads" + _near(name, list(SCHEMA))))
            continue
        checks = SCHEMA[name]
        if checks is None:
            continue
        for key, value in keys.items():
            if key not in checks:
                problems.append(Problem(f"{where}: [{name}] {key}", "is not a setting nomopoly reads"
                                        + _near(key, list(checks))))
                continue
            wrong = checks[key](value)
            if wrong:
                problems.append(Problem(f"{where}: [{name}] {key}", wrong))
    problems += _read_by_the_mail_code(game, tables, where, mail_folder)
    return problems


def _read_by_the_mail_code(game: GameDir, tables: dict[str, dict[str, Any]], where: str,
                           mail_folder: bool) -> list[Problem]:
    from admin.mail.inbound.auth import AuthSettings
    from admin.mail.inbound.imapconfig import ImapConfig
    from admin.mail.outbound.smtp import SmtpConfig

    problems = []
    readers: list[tuple[str, Callable[[], Any]]] = [
        ("auth", lambda: AuthSettings.from_dict(tables.get("auth", {}))),
        ("mail.smtp", lambda: SmtpConfig.from_dict(tables["mail.smtp"]) if "mail.smtp" in tables else None),
    ]
    mail = tables.get("mail", {})
    if mail.get("source", "maildir") == "imap":
        readers.append(("mail.imap", lambda: ImapConfig.from_dict(tables.get("mail.imap", {}), base_dir=game.root)))
    elif mail_folder and isinstance(mail.get("maildir", "mail/inbox"), str):
        folder = game.root / str(mail.get("maildir", "mail/inbox"))
        if not (folder / "new").is_dir() and not (folder / "cur").is_dir():
            problems.append(Problem(f"{where}: [mail] maildir", f"the mail folder {folder} does not exist (no "
                                    f"new/ or cur/ in it); fix the path, or create it with `mkdir -p "
                                    f"{folder}/new {folder}/cur {folder}/tmp`"))
    if mail_folder and "mail.imap" in tables and mail.get("source", "maildir") != "imap":  # `check` only
        problems.append(Problem(f"{where}: [mail.imap]", 'is set but [mail] source is not "imap"; '
                                'add source = "imap" to [mail] to read mail from it'))
    for name, read in readers:
        try:
            read()
        except NomopolyError as exc:
            text = re.sub(r"^(nomopoly\.toml:?\s*)?(\[[a-z.]+\]:?\s*)?", "", str(exc))
            problems.append(Problem(f"{where}: [{name}]", text))
    return problems


def check_state(game: GameDir) -> list[Problem]:
    """The state files load (every module's, with its checks), and every rule's text states the
    values its parameters hold (admin/nomic/stated.py)."""
    from admin.games.registry import REGISTRY
    from admin.nomic.stated import disagreements

    try:
        state = game.load()
    except NomopolyError as exc:
        return [Problem(str(game.state_dir), str(exc))]
    problems = [Problem(str(game.rules_dir), text) for text in disagreements(state, REGISTRY)]
    secrets = game.state_dir / "secrets.yaml"
    if not secrets.exists():  # the next update could not roll a die
        problems.append(Problem(str(secrets), "missing: it holds the seeds of the next updates, whose commitments "
                                "the players already have, so no update can run; restore it from your backup "
                                "(it is private: never in the published site or a public repository)"))
    else:
        try:
            game.next_seeds(state.update + 1)
        except NomopolyError as exc:
            problems.append(Problem(str(secrets), str(exc).split(": ", 1)[-1]))
    return problems


def squares_off_the_board(game: GameDir) -> list[Problem]:
    """Warnings, not errors: each enabled mechanic whose square (a parameter named ``square`` or
    ``..._square``: the Bank's, the Zoo's ...) is not on the board, or is destroyed, so that its
    section cannot be reached until the board grows to it. A state that does not load says nothing
    here (``check_state`` names it)."""
    from admin.games.registry import REGISTRY

    try:
        state = game.load_public()
    except NomopolyError:
        return []
    out = []
    for module in state.modules:
        for key, value in sorted(REGISTRY.params(state, module.name).items()):
            named = key == "square" or (key.endswith("_square") and not key.startswith("per_"))
            if not named or isinstance(value, bool) or not isinstance(value, int):
                continue
            square = state.square(value)
            if square is not None and not square.destroyed:
                continue
            where = "destroyed" if square is not None else f"not on the board (squares 1 to {len(state.squares)})"
            out.append(Problem(f"{game.state_dir / 'game.yaml'}: {module.name}.{key}",
                               f"is square {value}, which is {where}: nobody can reach what the {module.name} "
                               f"section puts there until it is; to bring it onto the board, `nomopoly ruling set "
                               f"{module.name} {key} N --reason \"...\"` with a square N of the board"))
    return out


def require_valid_settings(game: GameDir) -> None:
    """Refuse to go on with a game whose settings are wrong: every problem, each with its fix."""
    problems = check_settings(game, mail_folder=False)
    if problems:
        lines = "\n".join(f"  {p}" for p in problems)
        raise StateError(f"nomopoly.toml needs fixing before anything runs (`nomopoly check` lists this too):\n{lines}")
