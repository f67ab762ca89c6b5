"""When the next update's mail closes: its deadline, from the game's start and its schedule."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from admin.engine.schedule import slot_of
from admin.game import GameDir
from admin.mechanics import REGISTRY
from admin.model import GameState


def deadline(game: GameDir, state: GameState) -> datetime | None:
    """The deadline of the next update, from the schedule (mail after it waits, IX.4)."""
    start = game.settings().section("game").get("start")
    if not start:
        return None
    slots = REGISTRY.params(state, "schedule")["slots"]
    week, slot = slot_of(slots, state.update + 1)
    spec = slots[slot.index]
    if "deadline_day" not in spec:
        return None
    monday = datetime.fromisoformat(str(start)).replace(tzinfo=timezone.utc)
    return monday + timedelta(weeks=week - 1, days=int(spec["deadline_day"]) + 1) - timedelta(seconds=1)
