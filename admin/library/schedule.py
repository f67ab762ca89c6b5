"""IX: the weekly cycle. Nomopoly II has two updates a week: Thursday (proposals received Monday to
Wednesday count; voting opens) and Sunday (votes close and are tallied; the week ends)."""

from __future__ import annotations

from admin.engine.module import Mechanic

NOMOPOLY2_SLOTS = [
    # deadline_day: the day (0 = Monday) at whose midnight mail for this update closes (IX.4)
    {"name": "Thursday", "deadline_day": 2, "takes_proposals": True, "opens_voting": True},
    {"name": "Sunday", "deadline_day": 5, "closes_voting": True, "week_end": True},
]


class ScheduleModule(Mechanic[None, None]):
    name = "schedule"
    rules = ("IX.1", "IX.2", "IX.3", "IX.4")
    defaults = {"slots": NOMOPOLY2_SLOTS}
    summary = "Two updates a week: Thursday (proposals in, voting opens) and Sunday (votes tallied)."
