"""Timed conditions of a player that several of Nomopoly II's later sections share: a terrorist
(XXIII), passed out (the Skunk's spray, a pogo stick in glue), infected with anthrax (XXIV),
immune from rent (a lottery or bingo prize), diplomatic immunity (bingo), two votes a proposal (a
lottery prize). The sections that cause and read them are the ones that cite the rules; this
module only keeps them, lets them lapse, and shows the public ones."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.module import Mechanic
from admin.engine.shows import Fact

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square

#: terrorist (XXIII), passed-out (XIX skunk, XXIX pogo stick), infected (XXIV anthrax),
#: rent-immunity (XVIII.4, XXXI.3), diplomatic-immunity (XXXI.3), double-votes (XVIII.4)
CONDITIONS = ("terrorist", "passed-out", "infected", "rent-immunity", "diplomatic-immunity",
              "double-votes")

#: the conditions everyone may see (the rest are told to their holder only)
PUBLIC = ("terrorist", "passed-out", "infected")


@dataclass
class ConditionsState:
    #: player -> condition -> the last update it holds in (0: until it is cleared)
    until: dict[str, dict[str, int]] = field(default_factory=dict)
    #: player -> condition -> the last week it holds in ("this week and the next six", XXIII.1)
    weeks: dict[str, dict[str, int]] = field(default_factory=dict)


class ConditionsModule(Mechanic[ConditionsState, None]):
    name = "conditions"
    rules = ()
    summary = "Keeps the timed conditions other sections give a player (terrorist, passed out, infected ...)."
    State = ConditionsState

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).until.pop(player.name, None)
        self.of(state).weeks.pop(player.name, None)

    def on_update_end(self, ctx: UpdateContext) -> None:
        """Conditions that end with this update lapse (and week-long ones with the week's end)."""
        cs, state = self.of(ctx.state), ctx.state
        for table, now in ((cs.until, state.update), (cs.weeks, state.week if ctx.slot.week_end else state.week - 1)):
            for name in sorted(table):
                kept = {c: u for c, u in table[name].items() if u == 0 or u > now}
                if kept:
                    table[name] = kept
                else:
                    del table[name]

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: Square, rent: int) -> int:
        """A player immune from rent (a lottery prize, XVIII.4; bingo, XXXI.3) pays none. The one
        place rent immunity is applied."""
        if rent > 0 and _holds(ctx.state, payer.name, "rent-immunity"):
            ctx.emit("rent", f"{payer.name} is immune from rent and pays none for square {square.number}.",
                     player=payer.name, rule="XVIII.4", data={"square": square.number, "amount": 0})
            return 0
        return rent

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key not in CONDITIONS:
            return False
        if value in (None, False):
            clear(state, player.name, key)
        else:
            grant(state, player.name, key, 0 if value is True else int(value))
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        held = [c for c in PUBLIC if _holds(state, player.name, c)]
        return [Fact("conditions", ", ".join(held) or "none", label="Conditions", kind="text", order=60)]

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        held = [c for c in CONDITIONS if c not in PUBLIC and _holds(state, player.name, c)]
        return [Fact("private_conditions", held, kind="text")]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        held = [c for c in CONDITIONS if _holds(state, player.name, c)]
        return [(60, f"  Conditions: {', '.join(held)}")] if held else []


def _holds(state: GameState, player: str, name: str) -> bool:
    cs = ConditionsModule.of(state)
    until = cs.until.get(player, {}).get(name)
    week = cs.weeks.get(player, {}).get(name)
    return (until is not None and (until == 0 or until >= state.update)) or (week is not None and week >= state.week)


def grant(state: GameState, player: str, name: str, until_update: int) -> None:
    """``player`` is ``name`` up to and including update ``until_update`` (0: until cleared); a
    longer grant already held is kept."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name!r}")
    held = ConditionsModule.of(state).until.setdefault(player, {})
    old = held.get(name)
    if old == 0 or (old is not None and until_update != 0 and old >= until_update):
        return
    held[name] = until_update


def grant_weeks(state: GameState, player: str, name: str, last_week: int) -> None:
    """``player`` is ``name`` up to and including the end of week ``last_week`` (XXIII.1: "the
    current week and the next six" is ``state.week + 6``); a longer grant already held is kept."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name!r}")
    held = ConditionsModule.of(state).weeks.setdefault(player, {})
    held[name] = max(held.get(name, last_week), last_week)


def clear(state: GameState, player: str, name: str) -> None:
    cs = ConditionsModule.of(state)
    for table in (cs.until, cs.weeks):
        held = table.get(player, {})
        held.pop(name, None)
        if not held:
            table.pop(player, None)
