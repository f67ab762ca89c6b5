"""When the next update's mail closes: its deadline, from the game's start and its schedule."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from admin.engine.schedule import slot_of
from admin.game import GameDir
from admin.mechanics import REGISTRY
from admin.model import GameState


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
    monday = datetime.fromisoformat(str(start)).replace(tzinfo=timezone.utc)
    out = []
    for update in range(state.update + 1, state.update + 1 + count):
        week, slot = slot_of(slots, update)
        spec = slots[slot.index]
        if "deadline_day" not in spec:
            return out
        when = monday + timedelta(weeks=week - 1, days=int(spec["deadline_day"]) + 1) - timedelta(seconds=1)
        out.append(Deadline(update, week, slot.name, when))
    return out
