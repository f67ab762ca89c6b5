"""VII: a turn. There are no turns by the calendar: a player takes a turn when one of her
proposals is judged (IX.5; :func:`take_turn_for`). A turn rolls two dice (one if Sick or Hurt)
and moves that many squares, if any square is White (VII.1, VII.2); doubles earn another turn,
taken "speeding" (VII.3); speeding for two turns and more is fined $40, plus $15 for each turn
past the second (VII.4); moving from the highest square to the first earns $400 (VII.5); a 7 or
11 gives $100 and doubles the move, or, speeding, is fined $50 and moves In Reverse (VII.6).

The library's ``take_turn`` (admin/library/turns.py) rolls, moves and repeats on doubles; this
module adds the variant's rules through its hooks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.context import BANK
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.rulings import ruling_player
from admin.engine.errors import RuleError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import any_white, fine
from admin.library.api import TURNS_TAKEN
from admin.library.turns import take_turn

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.games.nomoteams.mechanics.health import HealthState
    from admin.engine.events import Ruling
    from admin.engine.module import RulingHandler

#: the conditions a turn reads: Sick and Hurt roll one die (VII.1), In Reverse moves back
CONDITIONS = ("sick", "hurt", "reverse")


#: the conditions the players' health keeps (the teams-health module, the one place for them)
HEALTH = ("sick", "hurt")


@dataclass
class TurnsState:
    #: the players In Reverse (moving backwards); Sick and Hurt are the teams-health module's
    reverse: list[str] = field(default_factory=list)


def _holder(state: GameState, condition: str) -> HealthState | TurnsState:
    """Where ``condition`` is kept: Sick and Hurt by the players' health, In Reverse here."""
    if condition in HEALTH:
        health = api.HEALTH.get(state)
        if health is None:
            raise RuleError("Sick and Hurt are kept by the teams-health module: enable it "
                            "(nomopoly ruling enable teams-health)")
        return health
    return TeamsTurnsModule.of(state)


def has(state: GameState, name: str, condition: str) -> bool:
    if condition in HEALTH and not api.HEALTH.on(state):
        return False
    return name in getattr(_holder(state, condition), condition)


def set_condition(state: GameState, name: str, condition: str, on: bool) -> None:
    if condition not in CONDITIONS:
        raise RuleError(f"{condition!r} is not a condition; conditions: {', '.join(CONDITIONS)}")
    holder = _holder(state, condition)
    now = set(getattr(holder, condition))
    setattr(holder, condition, sorted(now | {name} if on else now - {name}))


def one_die(state: GameState, name: str) -> bool:
    """VII.1: a Sick or Hurt player rolls one die."""
    return has(state, name, "sick") or has(state, name, "hurt")


def _condition_ruling(ctx: UpdateContext, r: Ruling) -> str:
    player = ruling_player(ctx, r.args)
    changed = []
    for condition in CONDITIONS:
        if condition in r.args:
            value = r.args[condition]
            on = value in (True, "true", "yes") if not isinstance(value, bool) else value
            set_condition(ctx.state, player.name, condition, on)
            changed.append(f"{'' if on else 'not '}{'In Reverse' if condition == 'reverse' else condition.capitalize()}")
    if not changed:
        raise RuleError(f"say which: {', '.join(c + '=true|false' for c in CONDITIONS)}")
    return f"The Admin ruled {player.name} {', '.join(changed)}: {r.note}"


class TeamsTurnsModule(Mechanic[TurnsState, None]):
    name = "teams-turns"
    rules = ("VII.1", "VII.2", "VII.3", "VII.4", "VII.5", "VII.6")
    stated = {"VII.4": {"speeding_fine": ("turns in a row is fined ${}",),
                        "speeding_fine_step": ("plus ${} for each turn beyond",)},
              "VII.6": {"lucky_speeding_fine": ("rolls 7 or 11 is fined ${}",)}}
    defaults = {"pass_bonus": 400, "speeding_fine": 40, "speeding_fine_step": 15,
                "lucky_bonus": 100, "lucky_speeding_fine": 50}
    summary = "Turns earned by proposals: two dice, doubles speed, 7 or 11 doubles the move, $400 past the end."
    State = TurnsState
    #: Sick and Hurt players roll one die (VII.1): the players' health keeps them
    requires = ("teams-health",)

    def rulings(self) -> dict[str, RulingHandler]:
        return {"condition": _condition_ruling}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        set_condition(state, player.name, "reverse", False)  # health forgets its own

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "reverse":  # sick and hurt: the teams-health module's
            return False
        set_condition(state, player.name, key, bool(value))
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        shown = [c for c in CONDITIONS if has(state, player.name, c)]
        return [Fact("conditions", ", ".join("In Reverse" if c == "reverse" else c.capitalize() for c in shown)
                     or None, label="Condition", order=27, kind="text")]

    def dice_for(self, state: GameState, player: Player) -> str | None:
        return "1d6" if one_die(state, player.name) else "2d6"

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        turn = speeding_count(ctx, player.name, turn)
        if turn >= 2:  # VII.4: speeding for the second consecutive turn and more
            p = ctx.params(self.name)
            amount = int(p["speeding_fine"]) + int(p["speeding_fine_step"]) * (turn - 2)
            fine(ctx, player, amount, rule="VII.4", reason=f"speeding for {turn} turns in a row")
            ctx.emit("speeding", f"{player.name} has been speeding for {turn} turns in a row: fined "
                                 f"{ctx.state.money(amount)} (VII.4).", player=player.name, rule="VII.4",
                     data={"amount": amount, "turns": turn})

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        if sum(faces) not in (7, 11):
            return None
        turn = speeding_count(ctx, player.name, turn)
        p = ctx.params(self.name)
        if turn >= 1:  # speeding (VII.6)
            fine(ctx, player, int(p["lucky_speeding_fine"]), rule="VII.6", reason=f"a {sum(faces)} while speeding")
            api.REVERSE.of(ctx).add(player.name)
            ctx.emit("lucky", f"{player.name} rolled {sum(faces)} while speeding: fined "
                              f"{ctx.state.money(int(p['lucky_speeding_fine']))} and moves In Reverse (VII.6).",
                     player=player.name, rule="VII.6")
            return None
        ctx.transfer(BANK, player.name, int(p["lucky_bonus"]), rule="VII.6", reason=f"rolling {sum(faces)}")
        ctx.emit("lucky", f"{player.name} rolled {sum(faces)}: given {ctx.state.money(int(p['lucky_bonus']))} and "
                          f"moves {2 * sum(faces)} (VII.6).", player=player.name, rule="VII.6")
        return [2 * f for f in faces]

    def moves_backwards(self, ctx: UpdateContext, player: Player) -> bool:
        reverse = api.REVERSE.peek(ctx)
        if reverse is not None and player.name in reverse:  # this turn only (VII.6)
            reverse.discard(player.name)
            return True
        return has(ctx.state, player.name, "reverse")

    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None:
        if player.name not in (api.TURNING.peek(ctx) or ()):  # a normal turn's move only
            return
        bonus = int(ctx.params(self.name)["pass_bonus"])
        ctx.transfer(BANK, player.name, bonus, rule="VII.5", reason="moving from the highest square to the first")
        ctx.emit("pass-bonus", f"{player.name} moved past the highest square and earned {ctx.state.money(bonus)} "
                               "(VII.5).", player=player.name, rule="VII.5", data={"amount": bonus})


def speeding_count(ctx: UpdateContext, name: str, turn: int) -> int:
    """How many turns in a row ``name`` has been speeding: 0 on an earned turn, 1 on the extra turn
    its doubles gave ... (the library numbers every turn of the update)."""
    return turn - (api.TURN_BASE.peek(ctx) or {}).get(name, 0)


def take_turn_for(ctx: UpdateContext, player: Player, why: str) -> None:
    """``player`` takes a turn now (and any turns her doubles earn), because of ``why``."""
    if not any_white(ctx.state):
        ctx.emit("no-move", f"{player.name}'s turn ({why}) changes nothing: no square is White (VII.2).",
                 player=player.name, rule="VII.2")
        return
    ctx.emit("turn", f"{player.name} takes a turn: {why}.", player=player.name, rule="IX.5")
    turning = api.TURNING.of(ctx)
    turning.add(player.name)
    # each earned turn starts unspeeding; its dice keep their own labels (turn/<player>/<n>/d1)
    api.TURN_BASE.of(ctx)[player.name] = (TURNS_TAKEN.peek(ctx) or {}).get(player.name, 0)
    try:
        take_turn(ctx, player)
    finally:
        turning.discard(player.name)
