"""Nomopoly II XXVI.5-6: a missile in flight. Its chance, less 10% for each Anti-Missile Battery
on the target or next to it, is rolled; the atrocity falls on those who consented (a Biological
Missile is a minor one, an ICBM a major one, XXIII.1); a hit has its type's effect: a building
destroyed, a square polluted, contaminated and taken from its owner, or destroyed with its
neighbours by chance. A Missile Silo destroyed by a missile fires what it holds at random squares
within range (XXII.4), and the Skunk's random missile (XIX.3) flies the same way. The missiles
module (missiles.py) keeps the silos and their stock; this is only the flight."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine import hooks
from admin.engine.board import destroy_square, distance, live_numbers, lowest, neighbours
from admin.library.board import set_contaminated, set_polluted
from admin.library.health import change_health
from admin.games.nomopoly2.api import MISSILE_ROLLS, MISSILES, KeepsCreatures
from admin.games.nomopoly2.mechanics import shared
from admin.library.ownership import owner_of, set_owner
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

#: the missiles of XXVI.6, in the order a random one is chosen
TYPES = ("cruise", "chemical", "biological", "icbm")
NAMES = {"cruise": "Cruise Missile", "chemical": "Chemical Missile", "biological": "Biological Missile",
         "icbm": "ICBM"}
SILO, BATTERY = "missile-silo", "anti-missile-battery"


def a(kind: str, capital: bool = False) -> str:
    """"a Cruise Missile", "an ICBM" ("A", "An" with ``capital``)."""
    article = "an" if kind == "icbm" else "a"
    return f"{article.title() if capital else article} {NAMES[kind]}"


def reach_of(ctx: UpdateContext, kind: str) -> int | None:
    """A missile's range (XXVI.6), None when unlimited."""
    r = int(ctx.params("missiles")[f"{kind}_range"])
    return r if r > 0 else None


def batteries_near(state: GameState, target: int, columns: int = 10) -> int:
    """Anti-Missile Batteries on ``target`` and the squares next to it (XXVI.5)."""
    near = [target, *neighbours(state, target, columns)]
    return sum(shared.buildings_on(state, n).count(BATTERY) for n in near)


def _roll(ctx: UpdateContext, what: str, sides: int) -> int:
    n = (MISSILE_ROLLS.peek(ctx) or 0) + 1
    MISSILE_ROLLS.put(ctx, n)
    return ctx.dice.roll(f"missile/{n}/{what}", sides)


def launch(ctx: UpdateContext, silo: int, kind: str, target: int, *, consenters: list[str], rule: str,
           from_silo: bool = True) -> bool:
    """Fire a missile of ``kind`` from ``silo`` at ``target``: the atrocity for those who
    consented, the roll against its chance, and its effect. True if it hit."""
    ms, p, state = MISSILES.of(ctx.state), ctx.params("missiles"), ctx.state
    if from_silo:
        held = ms.held.get(silo, [])
        if kind in held:
            held.remove(kind)
        if not held:
            ms.held.pop(silo, None)
        ms.fired[silo] = state.update
    if kind in ("biological", "icbm"):
        for who in dict.fromkeys(consenters):
            if who in state.players and state.players[who].active:
                shared.commit_atrocity(ctx, who, major=kind == "icbm", rule="XXVI.6",
                                       what=f"firing {a(kind)} at square {target}")
    columns = int(ctx.params("board").get("columns", 10))
    batteries = batteries_near(state, target, columns)
    chance = max(0, int(p[f"{kind}_chance"]) - int(p["battery_penalty"]) * batteries)
    roll = _roll(ctx, f"{silo}-{target}/hit", 100)
    hit = roll <= chance
    shield = f", less {int(p['battery_penalty']) * batteries}% for {batteries} Anti-Missile Batter" \
             f"{'y' if batteries == 1 else 'ies'}" if batteries else ""
    ctx.emit("missile", f"{a(kind, True)} fired from square {silo} at square {target} "
                        f"{'hit' if hit else 'missed'} (rolled {roll} of 100 against a {chance}% chance{shield}).",
             rule="XXVI.5", data={"silo": silo, "target": target, "missile": kind, "roll": roll,
                                  "chance": chance, "hit": hit})
    if hit:
        EFFECTS[kind](ctx, target)
    return hit


def _destroy_building(ctx: UpdateContext, target: int) -> None:
    on = shared.buildings_on(ctx.state, target)
    if not on:
        ctx.emit("missile", f"Square {target} has no building for the Cruise Missile to destroy.", rule="XXVI.6")
        return
    building = on[_roll(ctx, f"{target}/building", len(on)) - 1]
    loaded = list(MISSILES.of(ctx.state).held.get(target, [])) if building == SILO else []
    shared.destroy_building(ctx.state, target, building)
    ctx.emit("missile", f"The Cruise Missile destroyed the {shared.building_label(building)} on square {target}.",
             rule="XXVI.6", data={"square": target, "building": building})
    if building == SILO and not shared.has_building(ctx.state, target, SILO):
        haywire(ctx, target, loaded)


def _pollute(ctx: UpdateContext, target: int) -> None:
    set_polluted(ctx.state, target, True)
    ctx.emit("missile", f"The Chemical Missile polluted square {target}.", rule="XXVI.6", data={"square": target})


def _contaminate(ctx: UpdateContext, target: int) -> None:
    p, state = ctx.params("missiles"), ctx.state
    owner = owner_of(state, target)
    if owner is not None:
        set_owner(state, target, None)
        ctx.emit("missile", f"{owner} lost square {target} to the Biological Missile.", rule="XXVI.6",
                 player=owner, data={"square": target})
    until = state.week + int(p["contaminated_weeks"])
    set_contaminated(state, target, True)
    ms = MISSILES.of(state)
    ms.contaminated[target] = max(ms.contaminated.get(target, 0), until)
    ctx.emit("missile", f"Square {target} is contaminated until the end of week {until}.", rule="XXVI.6",
             data={"square": target, "until": until})
    for player in _occupants(state, target):
        change_health(ctx, player, -int(p["biological_health"]), rule="XXVI.6",
                      reason=f"a Biological Missile on square {target}")
    _hurt_creatures(ctx, target, -int(p["biological_health"]), f"a Biological Missile on square {target}")


def _obliterate(ctx: UpdateContext, target: int) -> None:
    p, state = ctx.params("missiles"), ctx.state
    columns = int(ctx.params("board").get("columns", 10))
    doomed = [target]
    for n in sorted(neighbours(state, target, columns)):
        if _roll(ctx, f"{target}/neighbour-{n}", 100) <= int(p["icbm_neighbour_chance"]):
            doomed.append(n)
    ms = MISSILES.of(state)
    for number in doomed:
        if len(live_numbers(state)) <= 1:
            ctx.emit("missile", f"Square {number} stands: the board always keeps one square (VI.1).", rule="VI.1")
            continue
        had_silo = shared.has_building(state, number, SILO)
        loaded = list(ms.held.get(number, []))
        victims = _occupants(state, number)
        # its creatures are hurt where they stand, then go to the lowest square with the players
        _hurt_creatures(ctx, number, -int(p["icbm_health"]), f"the destruction of square {number}")
        destroy_square(state, number, hooks.call(ctx))
        ctx.emit("missile", f"The ICBM destroyed square {number}.", rule="XXVI.6", data={"square": number})
        first = lowest(state)
        for player in victims:
            player.square = first
            ctx.emit("move", f"{player.name} was on square {number} and is placed on square {first}.",
                     player=player.name, rule="XXVI.6")
            change_health(ctx, player, -int(p["icbm_health"]), rule="XXVI.6",
                          reason=f"the destruction of square {number}")
        if had_silo and loaded:
            haywire(ctx, number, loaded)


EFFECTS = {"cruise": _destroy_building, "chemical": _pollute, "biological": _contaminate, "icbm": _obliterate}


def _hurt_creatures(ctx: UpdateContext, number: int, delta: int, reason: str) -> None:
    """XIX.4: the creatures on the square suffer what its players do."""
    zoo = ctx.registry.provider(ctx.state, KeepsCreatures)  # None while the Zoo is not in force
    if zoo is not None:
        zoo.hurt_creatures_on(ctx, number, delta, rule="XXVI.6", reason=reason)


def _occupants(state: GameState, number: int) -> list[Player]:
    return [p for p in state.active_players() if p.square == number]


def _targets(ctx: UpdateContext, origin: int, kind: str) -> list[int]:
    reach = reach_of(ctx, kind)
    columns = int(ctx.params("board").get("columns", 10))
    out = []
    for n in live_numbers(ctx.state):
        if n == origin:
            continue
        d = distance(ctx.state, origin, n, columns) if reach is not None else 0
        if d is not None and (reach is None or d <= reach):
            out.append(n)
    return out


def _fire_at_random(ctx: UpdateContext, origin: int, kind: str, rule: str, from_silo: bool) -> None:
    targets = _targets(ctx, origin, kind)
    if not targets:
        ctx.emit("missile", f"{a(kind, True)} from square {origin} has no square in range and falls harmlessly.",
                 rule=rule)
        return
    target = targets[_roll(ctx, f"{origin}/{kind}/target", len(targets)) - 1]
    launch(ctx, origin, kind, target, consenters=[], rule=rule, from_silo=from_silo)


def haywire(ctx: UpdateContext, silo: int, loaded: list[str] | None = None) -> None:
    """A silo destroyed by a missile fires every missile it held at random squares within their
    ranges (XXII.4), with nobody's consent."""
    ms = MISSILES.of(ctx.state)
    kinds = list(loaded if loaded is not None else ms.held.get(silo, []))
    ms.held.pop(silo, None)
    ms.pending.pop(silo, None)
    if not kinds:
        return
    ctx.emit("missile", f"The destroyed Missile Silo on square {silo} goes haywire and fires its "
                        f"{len(kinds)} missile{'s' if len(kinds) != 1 else ''}.", rule="XXII.4")
    for kind in kinds:
        _fire_at_random(ctx, silo, kind, "XXII.4", from_silo=False)


def fire_random_missile(ctx: UpdateContext, origin: int, rule: str) -> None:
    """A randomly chosen missile, made on the spot, fired from ``origin`` at a random square within
    its range (the Skunk on a Missile Silo, XIX.3)."""
    kind = TYPES[_roll(ctx, f"{origin}/type", len(TYPES)) - 1]
    ctx.emit("missile", f"{a(kind, True)} is made and fired from square {origin}.", rule=rule)
    _fire_at_random(ctx, origin, kind, rule, from_silo=False)
