"""The schedule as data: a week of update *slots*, each with a deadline and what it does (take
proposals, open or close voting, end the week). Every game has one; its slots are the
``schedule`` module's parameters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class Slot:
    """Where an update falls in the weekly schedule (Nomopoly II IX)."""

    name: str
    index: int
    takes_proposals: bool = False
    opens_voting: bool = False
    closes_voting: bool = False
    week_end: bool = False
    #: whether the players move in this update (the first Nomopoly moves once a week)
    moves: bool = True


def slot_of(slots: list[dict[str, Any]], update: int) -> tuple[int, Slot]:
    """(week, slot) of the ``update``-th update of the game (1-based)."""
    per_week = len(slots)
    week, index = divmod(update - 1, per_week)
    spec = slots[index]
    return week + 1, Slot(name=spec["name"], index=index,
                          takes_proposals=bool(spec.get("takes_proposals")),
                          opens_voting=bool(spec.get("opens_voting")),
                          closes_voting=bool(spec.get("closes_voting")),
                          week_end=bool(spec.get("week_end")), moves=bool(spec.get("moves", True)))


def next_slot(update: int, slots: list[dict[str, Any]]) -> tuple[int, Slot]:
    """(week, slot) of the update after update number ``update``."""
    return slot_of(slots, update + 1)
