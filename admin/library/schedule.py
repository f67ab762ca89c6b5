"""IX: the weekly cycle. Nomopoly II has two updates a week: Thursday (proposals received Monday to
Wednesday count; voting opens) and Sunday (votes close and are tallied; the week ends)."""

from __future__ import annotations

from typing import Any

from admin.engine.errors import RuleError
from admin.engine.module import Mechanic

NOMOPOLY2_SLOTS = [
    # deadline_day: the day (0 = Monday) at whose midnight mail for this update closes (IX.4)
    {"name": "Thursday", "deadline_day": 2, "takes_proposals": True, "opens_voting": True},
    {"name": "Sunday", "deadline_day": 5, "closes_voting": True, "week_end": True},
]


_SLOT_FLAGS = ("takes_proposals", "opens_voting", "closes_voting", "week_end", "moves")


def check_slots(slots: Any) -> None:
    """One to seven updates a week, each a mapping with a name, a deadline day (0 = Monday to 6)
    and its flags (true or false)."""
    if not isinstance(slots, list) or not 1 <= len(slots) <= 7:
        raise RuleError("a week has 1 to 7 updates, each like {name: Sunday, deadline_day: 5}")
    for slot in slots:
        if not isinstance(slot, dict) or not isinstance(slot.get("name"), str) or not slot["name"].strip():
            raise RuleError("each update of the week is a mapping with a name, like {name: Sunday, deadline_day: 5}")
        day = slot.get("deadline_day", 0)
        if isinstance(day, bool) or not isinstance(day, int) or not 0 <= day <= 6:
            raise RuleError(f"{slot['name']}: deadline_day is a day from 0 (Monday) to 6 (Sunday), not {day!r}")
        unknown = set(slot) - {"name", "deadline_day", *_SLOT_FLAGS}
        if unknown or any(not isinstance(slot[f], bool) for f in _SLOT_FLAGS if f in slot):
            raise RuleError(f"{slot['name']}: besides name and deadline_day an update has only the flags "
                            f"{', '.join(_SLOT_FLAGS)}, each true or false")


class ScheduleModule(Mechanic[None, None]):
    name = "schedule"
    rules = ("IX.1", "IX.2", "IX.3", "IX.4")
    defaults = {"slots": NOMOPOLY2_SLOTS}
    validators = {"slots": check_slots}
    summary = "Two updates a week: Thursday (proposals in, voting opens) and Sunday (votes tallied)."
