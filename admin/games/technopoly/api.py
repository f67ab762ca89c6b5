"""Typed links to Technopoly's mechanics (:mod:`admin.engine.links`): the world every section
works on, and the notes its mechanics keep for one update."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.links import Link, Note

if TYPE_CHECKING:
    from admin.games.technopoly.mechanics.objects import TechnoPrivate, TechnoState
    from admin.games.technopoly.mechanics.tasks import Task

#: the world: objects, holdings, machines, rounds (public), and the pile and hands (private)
TECHNO: Link[TechnoState] = Link("techno")
TECHNO_PRIVATE: Link[TechnoPrivate] = Link("techno", private=True)

#: the tasks each player ordered in this update, (verb, task, order) by player, carried out in turn
ORDERS: Note[dict[str, list[tuple[str, Task, int]]]] = Note("techno-orders", dict)
