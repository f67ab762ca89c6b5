"""IX: the weekly cycle. Nomopoly II has two updates a week: Thursday (proposals received Monday to
Wednesday count; voting opens) and Sunday (votes close and are tallied; the week ends)."""

from __future__ import annotations

from admin.engine.context import Slot
from admin.engine.rules.base import RuleModule
from admin.model import GameState

NOMOPOLY2_SLOTS = [
    # deadline_day: the day (0 = Monday) at whose midnight mail for this update closes (IX.4)
    {"name": "Thursday", "deadline_day": 2, "takes_proposals": True, "opens_voting": True},
    {"name": "Sunday", "deadline_day": 5, "closes_voting": True, "week_end": True},
]


class ScheduleModule(RuleModule):
    name = "schedule"
    rules = ("IX.1", "IX.2", "IX.3", "IX.4")
    defaults = {"slots": NOMOPOLY2_SLOTS}
    summary = "Two updates a week: Thursday (proposals in, voting opens) and Sunday (votes tallied)."


def slot_of(slots: list[dict], update: int) -> tuple[int, Slot]:
    """(week, slot) of the ``update``-th update of the game (1-based)."""
    per_week = len(slots)
    week, index = divmod(update - 1, per_week)
    spec = slots[index]
    return week + 1, Slot(name=spec["name"], index=index,
                          takes_proposals=bool(spec.get("takes_proposals")),
                          opens_voting=bool(spec.get("opens_voting")),
                          closes_voting=bool(spec.get("closes_voting")),
                          week_end=bool(spec.get("week_end")))


def next_slot(state: GameState, slots: list[dict]) -> tuple[int, Slot]:
    return slot_of(slots, state.update + 1)
