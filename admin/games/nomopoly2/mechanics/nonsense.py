"""Nomopoly II XXV: Nonsense. The section is a joke its players voted in (a rubber duck, pies, a
flamethrower, no news, 42); none of its rules has any mechanical effect (``coverage: text:`` in
the game's game.yaml). The module exists so that enabling it adds the section to the rulebook."""

from __future__ import annotations

from admin.engine.module import Mechanic


class NonsenseModule(Mechanic[None, None]):
    name = "nonsense"
    rules = ()
    summary = "Section XXV, Nonsense: rules with no effect on play."
