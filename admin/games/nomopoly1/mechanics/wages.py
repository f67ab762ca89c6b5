"""The first Nomopoly's XXXVI: a wage at the end of every week, raised by courses at the University
of Nomopoly, and what each career may do (thieves steal and dodge harm, healers heal, worriers
suffer half, politicians hand out money, dodge rent and give a gift a week)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import command, handled
from admin.engine.context import BANK
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.capabilities import EasesHealthLoss
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health, health_of
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.games.nomopoly1.mechanics.store import GIFTS, items_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square

#: course -> (prerequisite, cost, weeks, wage)
COURSES: dict[str, tuple[str | None, int, int, int]] = {
    "base": (None, 500, 2, 300),
    "thief": ("base", 500, 2, 400),
    "healer": ("base", 500, 2, 400),
    "worrier": ("base", 500, 2, 350),
    "politician": ("base", 1000, 3, 450),
}


def _parse_enrol(rest: str, _line: object) -> Enrol:
    word = rest.strip().lower().removesuffix(" courses").removesuffix(" course")
    if word not in COURSES:
        raise CommandError(f"name a course: {', '.join(c.upper() for c in COURSES)} (ENROL BASE first)")
    return Enrol(word)


@command("ENROL <course>", parse=_parse_enrol, listing=180, rules=("XXXVI.2", "XXXVI.3"),
         summary="start a course at the University: BASE ($500, 2 weeks, wage $300), then "
                 "THIEF, HEALER, WORRIER ($500, 2 weeks) or POLITICIAN ($1000, 3 weeks)",
         example="ENROL BASE")
class Enrol:
    """``ENROL BASE|THIEF|HEALER|WORRIER|POLITICIAN`` (XXXVI.2)."""

    course: str


@command("STEAL FROM <target:player>", fixed={"act": "steal"}, listing=181, rules=("XXXVI.2",),
         summary="a thief, once a week: 5% of the money of a player on your square", example="STEAL FROM bob")
@command("HEAL <target:player>", fixed={"act": "heal"}, listing=182,
         rules=("XXXVI.2",), summary="a healer: 10 health to a player within one square, for $200",
         example="HEAL bob")
@command("HAND OUT", fixed={"act": "hand-out"}, keyword="HAND OUT",
         hint="write HAND OUT alone: $200 goes to a player picked at random", listing=183, rules=("XXXVI.2",),
         summary="a politician, once a week: $200 from nowhere to a player picked at random", example="HAND OUT")
@command("FREE GIFT <gift:ROSE|CHOCOLATE BAR|BIG MAC> TO <target:player>", keyword="FREE GIFT",
         fixed={"act": "free-gift"}, hint="write FREE GIFT ROSE TO <player> (or CHOCOLATE BAR, BIG MAC)",
         listing=184, rules=("XXXVI.2",), summary="a politician, once a week: a gift that costs you nothing",
         example="FREE GIFT ROSE TO carol")
class CareerAct:
    """A career's action: ``STEAL FROM <player>``, ``HEAL <player>``, ``HAND OUT``,
    ``FREE GIFT ROSE TO <player>`` (XXXVI.2)."""

    act: str
    target: str | None = None
    gift: str | None = None


@dataclass
class WagesState:
    #: each player's career (none: the starting wage)
    career: dict[str, str] = field(default_factory=dict)
    #: courses under way: player -> [course, weeks left]
    studying: dict[str, list[Any]] = field(default_factory=dict)
    #: the week each once-a-week act was last done: "player/act" -> week
    done: dict[str, int] = field(default_factory=dict)


class WagesModule(Mechanic[WagesState, None], EasesHealthLoss):
    name = "wages"
    rules = ("XXXVI.1", "XXXVI.2", "XXXVI.3")
    stated = {"XXXVI.2": {"base_wage": ("The starting wage is ${}.",),
                          "steal_percent": ("may steal {}% of the money",),
                          "heal_cost": ("health for ${}.",),
                          "heal_amount": ("within one square {} health for",),
                          "health_max": ("health a turn (up to {})",)}}
    defaults = {"base_wage": 100, "courses": {k: list(v) for k, v in COURSES.items()},
                "steal_percent": 5, "heal_amount": 10, "heal_cost": 200, "health_max": 100,
                "hand_out": 200, "dodge_in": 10, "rounding": "nearest"}
    choices = {"rounding": ("nearest", "down", "up")}
    summary = "A wage every week; courses raise it and open careers: thief, healer, worrier, politician."
    State = WagesState
    requires = ("health",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Enrol, enrol), (CareerAct, career_act))

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end, before the next week's moves: courses advance, healers heal, wages paid."""
        if not ctx.slot.week_end:
            return
        ws = self.of(ctx.state)
        p = ctx.params(self.name)
        for player in sorted(ctx.state.active_players(), key=lambda pl: pl.name):
            course = ws.studying.get(player.name)
            if course:
                course[1] -= 1
                if course[1] <= 0:
                    ws.career[player.name] = course[0]
                    del ws.studying[player.name]
                    ctx.emit("career", f"{player.name} finished the {course[0]} course.", player=player.name,
                             rule="XXXVI.2")
            if ws.career.get(player.name) == "healer":
                gain = max(0, min(int(p["heal_amount"]), int(p["health_max"]) - health_of(ctx.state, player.name)))
                if gain:
                    change_health(ctx, player, gain, rule="XXXVI.2", reason="a healer's week")
            wage = self.wage(ctx.state, player.name)
            ctx.transfer(BANK, player.name, wage, rule="XXXVI.1", reason="wages", kind="wage")
            ctx.emit("wage", f"{player.name} was paid a wage of {ctx.state.money(wage)}.", player=player.name,
                     rule="XXXVI.1", data={"amount": wage})

    def wage(self, state: GameState, name: str) -> int:
        p = {**self.defaults, **state.params(self.name)}
        career = self.of(state).career.get(name)
        return int(p["courses"][career][3]) if career else int(p["base_wage"])

    def adjust_health_loss(self, ctx: UpdateContext, player: Player, loss: int, reason: str) -> int:
        career = self.of(ctx.state).career.get(player.name)
        if career == "thief":
            n = int(ctx.params(self.name)["dodge_in"])
            if ctx.dice.roll(f"thief/{player.name}/{len(ctx.dice.rolls)}", n) == 1:
                ctx.emit("career", f"{player.name}, a thief, escaped the harm ({reason}).", player=player.name,
                         rule="XXXVI.2")
                return 0
        if career == "worrier":
            return percent_of(loss, 50, str(ctx.params(self.name)["rounding"]))
        return loss

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: Square, rent: int) -> int:
        if rent <= 0 or self.of(ctx.state).career.get(payer.name) != "politician":
            return rent
        n = int(ctx.params(self.name)["dodge_in"])
        if ctx.dice.roll(f"politician/{payer.name}/{ctx.landing_order}", n) == 1:
            ctx.emit("career", f"{payer.name}, a politician, paid no rent on square {square.number}.",
                     player=payer.name, rule="XXXVI.2")
            return 0
        return rent

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:  # XIV.1: status goes
        ws = self.of(ctx.state)
        ws.career.pop(player.name, None)
        ws.studying.pop(player.name, None)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ws = self.of(state)
        ws.career.pop(player.name, None)
        ws.studying.pop(player.name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "career":
            return False
        if value:
            self.of(state).career[player.name] = str(value)
        else:
            self.of(state).career.pop(player.name, None)
        return True

    def panels(self, state: GameState) -> list[Panel]:
        p = {**self.defaults, **state.params(self.name)}
        courses = tuple((name, needs or "none", state.money(int(cost)), int(weeks), state.money(int(wage)))
                        for name, (needs, cost, weeks, wage) in p["courses"].items())
        ws = self.of(state)
        people = tuple((pl.name, ws.career.get(pl.name, "none"),
                        f"{ws.studying[pl.name][0]} ({ws.studying[pl.name][1]} left)" if pl.name in ws.studying else "",
                        state.money(self.wage(state, pl.name)))
                       for pl in sorted(state.active_players(), key=lambda x: x.name))
        intro = (f"Everyone earns a wage at the end of each week: {state.money(int(p['base_wage']))} untrained, more "
                 "after a course at the University of Nomopoly (ENROL BASE first).")
        return [Panel("university", "Wages and the University", intro,
                      (Table("Courses", ("Course", "Needs", "Cost", "Weeks", "Wage"), courses),
                       Table("Careers", ("Player", "Career", "Studying", "Wage"), people)), order=36)]

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        ws = self.of(state)
        studying = ws.studying.get(player.name)
        return [Fact("career", ws.career.get(player.name, "none"), label="Career", column="Career", order=80,
                     kind="text"),
                Fact("studying", f"{studying[0]} ({studying[1]} week(s) left)" if studying else "nothing",
                     label="Studying", kind="text"),
                Fact("wage", self.wage(state, player.name), label="Wage")]


def _once_a_week(ctx: UpdateContext, player: Player, act: str) -> None:
    done = WagesModule.of(ctx.state).done
    key = f"{player.name}/{act}"
    if done.get(key) == ctx.state.week:
        raise IllegalAction("once a week: you did that this week already (XXXVI.2)")
    done[key] = ctx.state.week


def _career(ctx: UpdateContext, player: Player, needed: str) -> None:
    have = WagesModule.of(ctx.state).career.get(player.name)
    if have != needed:
        raise IllegalAction(f"only a {needed} may do that; you are {'a ' + have if have else 'not trained'} "
                            f"(ENROL {needed.upper()})")


def enrol(ctx: UpdateContext, player: Player, cmd: Enrol) -> str:
    ws = WagesModule.of(ctx.state)
    courses = ctx.params("wages")["courses"]
    needs, cost, weeks, wage = courses[cmd.course]
    if player.name in ws.studying:
        raise IllegalAction(f"you are on the {ws.studying[player.name][0]} course already; one course at a "
                            "time (XXXVI.3)")
    have = ws.career.get(player.name)
    if have == cmd.course or (cmd.course == "base" and have):
        raise IllegalAction(f"you have done the {cmd.course} course already")
    if needs and not have:
        raise IllegalAction(f"the {cmd.course} course needs the {needs} course first (ENROL {needs.upper()})")
    ctx.transfer(player.name, BANK, int(cost), rule="XXXVI.2", reason=f"the {cmd.course} course", voluntary=True, kind="purchase")
    ws.studying[player.name] = [cmd.course, int(weeks)]
    return (f"{player.name} enrolled on the {cmd.course} course for {ctx.state.money(int(cost))}: "
            f"{weeks} weeks, then a wage of {ctx.state.money(int(wage))}.")


def career_act(ctx: UpdateContext, player: Player, cmd: CareerAct) -> str:
    p = ctx.params("wages")
    if cmd.act == "steal":
        _career(ctx, player, "thief")
        victim = _other(ctx, player, cmd.target)
        if victim.square != player.square:
            raise IllegalAction(f"{victim.name} is on square {victim.square}, you on {player.square}; a thief "
                                "steals from a player on the same square")
        _once_a_week(ctx, player, "steal")
        amount = percent_of(max(victim.money, 0), int(p["steal_percent"]), str(p["rounding"]))
        ctx.transfer(victim.name, player.name, amount, rule="XXXVI.2", reason="a thief's 5%", kind="theft")
        return f"{player.name} stole {ctx.state.money(amount)} from {victim.name}."
    if cmd.act == "heal":
        _career(ctx, player, "healer")
        target = _other(ctx, player, cmd.target)
        squares = [s.number for s in ctx.state.live_squares()]
        if player.square in squares and target.square in squares:
            gap = abs(squares.index(player.square) - squares.index(target.square))
            gap = min(gap, len(squares) - gap)
        else:
            gap = 99
        if gap > 1:
            raise IllegalAction(f"{target.name} is on square {target.square}; a healer heals within one square")
        ctx.transfer(player.name, BANK, int(p["heal_cost"]), rule="XXXVI.2", reason=f"healing {target.name}",
                     voluntary=True, kind="purchase")
        change_health(ctx, target, int(p["heal_amount"]), rule="XXXVI.2", reason=f"healed by {player.name}")
        return f"{player.name} healed {target.name} for {ctx.state.money(int(p['heal_cost']))}."
    if cmd.act == "hand-out":
        _career(ctx, player, "politician")
        names = sorted(pl.name for pl in ctx.state.active_players())
        _once_a_week(ctx, player, "hand-out")
        lucky = names[ctx.dice.roll(f"politician/{player.name}/hand-out", len(names)) - 1]
        ctx.state.players[lucky].money += int(p["hand_out"])  # "comes from nowhere": not the bank's
        return f"{player.name} handed out {ctx.state.money(int(p['hand_out']))} to {lucky}, picked at random."
    _career(ctx, player, "politician")  # free-gift
    target = _other(ctx, player, cmd.target)
    _once_a_week(ctx, player, "free-gift")
    assert cmd.gift in GIFTS
    items_of(ctx.state).give(target.name, cmd.gift)
    return f"{player.name} gave {target.name} a {cmd.gift}, free."


def _other(ctx: UpdateContext, player: Player, name: str | None) -> Player:
    target = ctx.state.players.get(name or "")
    if target is None or not target.active:
        raise IllegalAction(f"there is no player {name!r} in the game")
    if target.name == player.name:
        raise IllegalAction("that is for another player")
    return target
