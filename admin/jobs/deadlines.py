"""When the next update's mail closes: its deadline, from the game's start and its schedule."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from admin.engine.schedule import slot_of
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.games.registry import REGISTRY
from admin.engine.model import GameState


def game_zone(game: GameDir) -> tzinfo:
    """The game's timezone (``[game] timezone``, an IANA name; UTC when unset): its deadlines fall
    at midnight there, and every time the site, the mail and the CLI show is in it."""
    name = str(game.settings().section("game").get("timezone") or "UTC")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise StateError(f'{game.settings_path}: [game] timezone = "{name}" is not a timezone; use an '
                         'IANA name such as "Europe/London" or "America/New_York" (or "UTC")') from None


def show_time(game: GameDir, when: datetime) -> str:
    """``Saturday 2026-11-14 23:59:59 GMT``: a time as the Admin reads it, in the game's timezone."""
    from admin.mail.outbound.texts import format_time

    return format_time(when.astimezone(game_zone(game)))


def deadline(game: GameDir, state: GameState) -> datetime | None:
    """The deadline of the next update, from the schedule (mail after it waits, IX.4)."""
    due = upcoming(game, state, 1)
    return due[0].when if due else None


@dataclass(frozen=True)
class Deadline:
    """When the mail of one coming update closes."""

    update: int
    week: int
    slot: str
    when: datetime


def upcoming(game: GameDir, state: GameState, count: int) -> list[Deadline]:
    """The deadlines of the next ``count`` updates (none when the game has no start date, its
    schedule no deadline days, or it has ended)."""
    start = game.settings().section("game").get("start")
    if not start or state.ended:
        return []
    slots = REGISTRY.params(state, "schedule")["slots"]
    # midnight at the start of week 1's Monday in the game's timezone; adding days keeps the wall
    # clock, so a deadline is 23:59:59 there whatever daylight saving does
    monday = datetime.fromisoformat(str(start)).replace(tzinfo=game_zone(game))
    out: list[Deadline] = []
    for update in range(state.update + 1, state.update + 1 + count):
        week, slot = slot_of(slots, update)
        spec = slots[slot.index]
        if "deadline_day" not in spec:
            return out
        when = monday + timedelta(weeks=week - 1, days=int(spec["deadline_day"]) + 1) - timedelta(seconds=1)
        out.append(Deadline(update, week, slot.name, when))
    return out
