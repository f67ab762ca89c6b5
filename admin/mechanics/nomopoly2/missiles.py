"""Nomopoly II XXVI: missiles. A Missile Silo (a building, XXII.4) makes one missile an update,
which its square's owner may buy; it holds three at most. Its owner fires one a turn at a square
within the missile's range, with the consent of every other owner in the silo's block (asked
by mail: silence is no). Each missile hits with a chance, less 10% for every Anti-Missile
Battery on the target or next to it, and is gone either way.

Standing rulings (docs/rulings.d/nomopoly2-missiles-gov.md): "distance" is VI.13's (the fewest
north, south, east or west moves, jumping destroyed squares); "one a turn" is one an update per
silo; only the silo's owner fires it; the missiles in a silo are its square's owner's (net worth,
XXX.1); a silo destroyed by a missile fires its missiles at random squares within their ranges,
with nobody's consent (no atrocity); a contaminated square is clean again at the end of the third
week after the one it was hit in."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from admin.engine.board import destroy_square, distance, live_numbers, lowest, neighbours
from admin.engine.commands import command_type
from admin.engine.context import BANK
from admin.engine.interactions import all_consent
from admin.engine.module import CommandSpec, Fact, Mechanic, SquareLook
from admin.engine.syntax import parse_square
from admin.errors import CommandError, IllegalAction
from admin.mechanics.board import set_contaminated, set_polluted
from admin.mechanics.health import change_health
from admin.mechanics.nomopoly2 import shared
from admin.mechanics.ownership import owner_of, set_owner
from admin.model import Player

#: the missiles of XXVI.6, in the order a random one is chosen
TYPES = ("cruise", "chemical", "biological", "icbm")
NAMES = {"cruise": "Cruise Missile", "chemical": "Chemical Missile", "biological": "Biological Missile",
         "icbm": "ICBM"}
SILO, BATTERY = "missile-silo", "anti-missile-battery"


def a(kind: str, capital: bool = False) -> str:
    """"a Cruise Missile", "an ICBM" ("A", "An" with ``capital``)."""
    article = "an" if kind == "icbm" else "a"
    return f"{article.title() if capital else article} {NAMES[kind]}"


@command_type
@dataclass(frozen=True)
class BuyMissile:
    """``BUY MISSILE <type> AT <silo> [ON CREDIT]`` (XXVI.1)."""

    missile: str
    silo: int
    on_credit: bool = False
    cmd: ClassVar[str] = "buy-missile"


@command_type
@dataclass(frozen=True)
class FireMissile:
    """``FIRE <type> FROM <silo> AT <square>`` (XXVI.3)."""

    missile: str
    silo: int
    target: int
    cmd: ClassVar[str] = "fire-missile"


@dataclass
class MissilesState:
    #: silo square -> the missiles it holds, oldest first (XXVI.2)
    held: dict[int, list[str]] = field(default_factory=dict)
    #: silo square -> the update it last made a missile in (XXVI.1)
    made: dict[int, int] = field(default_factory=dict)
    #: silo square -> how many it made in that update
    made_now: dict[int, int] = field(default_factory=dict)
    #: silo square -> the update it last fired in (XXVI.3)
    fired: dict[int, int] = field(default_factory=dict)
    #: silo square -> the consent request of a firing not yet decided
    pending: dict[int, int] = field(default_factory=dict)
    #: square -> the last week it stays contaminated by a Biological Missile (XXVI.6)
    contaminated: dict[int, int] = field(default_factory=dict)


def _kind(word: str) -> str:
    w = word.lower().strip().removesuffix("s")
    if w in ("intercontinental", "intercontinental-ballistic-missile"):
        w = "icbm"
    if w not in TYPES:
        raise CommandError(f'"{word}" is not a missile; the missiles are CRUISE, CHEMICAL, BIOLOGICAL '
                           "and ICBM (XXVI.6)")
    return w


def _parse_buy(rest: str, _line: object) -> BuyMissile:
    text, on_credit = shared.split_on_credit(rest)
    m = re.fullmatch(r"\s*(\S+)(?:\s+missile)?\s+(?:at|from|in)\s+(.+?)\s*", text, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write BUY MISSILE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> AT <silo square>, "
                           "like BUY MISSILE CRUISE AT 15")
    return BuyMissile(_kind(m.group(1)), parse_square(m.group(2)), on_credit)


def _parse_fire(rest: str, _line: object) -> FireMissile:
    m = re.fullmatch(r"\s*(\S+)(?:\s+missile)?\s+from\s+(.+?)\s+at\s+(.+?)\s*", rest, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write FIRE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> FROM <silo square> AT <square>, "
                           "like FIRE CRUISE FROM 15 AT 22")
    return FireMissile(_kind(m.group(1)), parse_square(m.group(2)), parse_square(m.group(3)))


class MissilesModule(Mechanic[MissilesState, None]):
    name = "missiles"
    rules = ("XXVI.1", "XXVI.2", "XXVI.3", "XXVI.4", "XXVI.5", "XXVI.6")
    defaults: ClassVar[dict[str, Any]] = {
        "per_update": 1,              # missiles a silo makes an update (XXVI.1)
        "capacity": 3,                # missiles a silo holds (XXVI.2)
        "battery_penalty": 10,        # percentage points off per Anti-Missile Battery (XXVI.5)
        "cruise_cost": 400, "cruise_range": 4, "cruise_chance": 65,
        "chemical_cost": 600, "chemical_range": 2, "chemical_chance": 65,
        "biological_cost": 750, "biological_range": 3, "biological_chance": 70,
        "icbm_cost": 1000, "icbm_range": 0, "icbm_chance": 60,   # range 0: unlimited
        "biological_health": 20,      # health the occupants of a square hit lose
        "contaminated_weeks": 3,      # weeks after the week of the hit it stays contaminated
        "icbm_neighbour_chance": 25,  # % chance each square next to an ICBM's target goes too
        "icbm_health": 25,            # health the occupants of a destroyed square lose
        "worth_percent": 50,          # of the price of one's missiles, in net worth (XXX.1)
    }
    minimums = {"per_update": 0, "capacity": 0, "battery_penalty": 0, "contaminated_weeks": 0}
    summary = ("Buy missiles at your Missile Silo and fire them, with your block's consent, to "
               "destroy buildings, pollute, contaminate or destroy squares.")
    State = MissilesState
    #: the block's consent is asked through the interactions module, which the blocks section
    #: (the only way a silo has other owners) brings in
    requires = ("board", "ownership", "health", "conditions")

    def commands(self):
        return (CommandSpec("BUY MISSILE", BuyMissile, buy, _parse_buy,
                            "BUY MISSILE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> AT <silo> [ON CREDIT]", listing=260,
                            summary="buy the missile your Missile Silo made this update (it holds 3 at most): "
                                    "cruise $400, chemical $600, biological $750, ICBM $1000",
                            example="BUY MISSILE CRUISE AT 15", rules=("XXVI.1", "XXVI.2")),
                CommandSpec("FIRE", FireMissile, fire, _parse_fire,
                            "FIRE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> FROM <silo> AT <square>", listing=261,
                            summary="fire a missile from your silo at a square in its range; the other "
                                    "owners of the silo's block must ACCEPT first",
                            example="FIRE CRUISE FROM 15 AT 6", rules=("XXVI.3", "XXVI.4", "XXVI.5")))

    # -- lives of squares -------------------------------------------------------------------
    def on_square_added(self, state, square) -> None:
        ms = self.of(state)
        for table in (ms.held, ms.made, ms.made_now, ms.fired, ms.pending, ms.contaminated):
            table.pop(square.number, None)

    def set_square(self, state, square, key, value) -> bool:
        if key != "missiles":
            return False
        kinds = [_kind(str(v)) for v in (value or [])]
        if kinds:
            self.of(state).held[square.number] = kinds
        else:
            self.of(state).held.pop(square.number, None)
        return True

    def on_update_end(self, ctx) -> None:
        """A Biological Missile's contamination lapses at the end of its last week (XXVI.6)."""
        if not ctx.slot.week_end:
            return
        ms = self.of(ctx.state)
        for number, until in sorted(ms.contaminated.items()):
            if until <= ctx.state.week:
                del ms.contaminated[number]
                set_contaminated(ctx.state, number, False)
                ctx.emit("missile", f"Square {number} is no longer contaminated.", rule="XXVI.6",
                         data={"square": number})

    # -- interactions: the block's consent to a firing ----------------------------------------
    def check_answer(self, ctx, interaction, player, value):
        kind = interaction.payload.get("missile")
        if str(value).lower() in ("accept", "yes") and kind in ("biological", "icbm"):
            why = shared.may_commit_atrocity(ctx.state, player.name)
            if why:
                raise IllegalAction(f"firing {a(kind)} is an atrocity (XXVI.6) and {why}")
        return value

    def resolve_interaction(self, ctx, interaction, answers) -> str:
        p = interaction.payload
        silo, kind, target, firer = int(p["silo"]), str(p["missile"]), int(p["target"]), str(p["firer"])
        ms = self.of(ctx.state)
        if ms.pending.get(silo) == interaction.id:
            del ms.pending[silo]
        if not all_consent(answers):
            refused = ", ".join(sorted(n for n, a in answers.items() if str(a).lower() not in ("accept", "yes")))
            ctx.emit("missile", f"The {NAMES[kind]} on square {silo} was not fired at square {target}: "
                                f"{refused} did not consent (XXVI.3).", rule="XXVI.3")
            return f"not fired: {refused} did not consent"
        try:
            _check_fire(ctx, ctx.state.players[firer], FireMissile(kind, silo, target), pending_ok=interaction.id)
        except IllegalAction as exc:
            ctx.emit("missile", f"The {NAMES[kind]} on square {silo} was not fired at square {target}: {exc}.",
                     rule="XXVI.3")
            return f"not fired: {exc}"
        launch(ctx, silo, kind, target, consenters=[firer, *interaction.parties], rule="XXVI.3")
        return f"fired at square {target}"

    # -- how it shows -----------------------------------------------------------------------
    def worth(self, state, player) -> int:
        params = {**self.defaults, **state.params(self.name)}
        total = sum(int(params[f"{k}_cost"]) for n, kinds in self.of(state).held.items()
                    if owner_of(state, n) == player.name for k in kinds)
        return total * int(params["worth_percent"]) // 100

    def player_facts(self, state, player) -> list[Fact]:
        mine = sum(len(kinds) for n, kinds in self.of(state).held.items() if owner_of(state, n) == player.name)
        return [Fact("missiles", mine, label="Missiles" if mine else None, order=70)]

    def square_facts(self, state, square) -> list[Fact]:
        return [Fact("missiles", list(self.of(state).held.get(square.number, [])), kind="text")]

    def square_look(self, state, square) -> SquareLook | None:
        kinds = self.of(state).held.get(square.number)
        if not kinds:
            return None
        words = ", ".join(NAMES[k] for k in kinds)
        return SquareLook(notes=((55, f"missiles: {words}"),), flags=((55, f"M{len(kinds)}", f"missiles: {words}"),))

    def results_lines(self, state, player) -> list[tuple[int, str]]:
        ms = self.of(state)
        return [(70, f"  Missiles at your silo on square {n}: {', '.join(NAMES[k] for k in kinds)}")
                for n, kinds in sorted(ms.held.items()) if kinds and owner_of(state, n) == player.name]


# -- buying (XXVI.1-2) -------------------------------------------------------------------------
def _your_silo(ctx, player: Player, silo: int, verb: str) -> None:
    square = ctx.state.square(silo)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {silo} on the board")
    if not shared.has_building(ctx.state, silo, SILO):
        raise IllegalAction(f"square {silo} has no Missile Silo; you {verb} missiles at a Missile Silo "
                            f"({', '.join(map(str, shared.squares_with(ctx.state, SILO))) or 'there is none'})")
    owner = owner_of(ctx.state, silo)
    if owner != player.name:
        raise IllegalAction(f"the Missile Silo on square {silo} is {owner or 'nobody'}'s; only the owner of "
                            f"its square may {verb} its missiles ({'XXVI.1' if verb == 'buy' else 'XXVI.3'})")


def buy(ctx, player: Player, cmd: BuyMissile) -> str:
    _your_silo(ctx, player, cmd.silo, "buy")
    ms, p = MissilesModule.of(ctx.state), ctx.params("missiles")
    made = ms.made_now.get(cmd.silo, 0) if ms.made.get(cmd.silo) == ctx.state.update else 0
    if made >= int(p["per_update"]):
        raise IllegalAction(f"the Missile Silo on square {cmd.silo} has made its missile this update "
                            "already; it makes one an update (XXVI.1)")
    held = ms.held.get(cmd.silo, [])
    if len(held) >= int(p["capacity"]):
        raise IllegalAction(f"the Missile Silo on square {cmd.silo} holds {len(held)} missiles, as many as "
                            f"a silo may hold (XXVI.2); fire one first")
    cost = int(p[f"{cmd.missile}_cost"])
    shared.charge(ctx, player.name, BANK, cost, rule="XXVI.1", reason=f"{a(cmd.missile)} at square "
                  f"{cmd.silo}", on_credit=cmd.on_credit)
    ms.held[cmd.silo] = held + [cmd.missile]
    ms.made[cmd.silo], ms.made_now[cmd.silo] = ctx.state.update, made + 1
    return (f"{player.name} bought {a(cmd.missile)} at the Missile Silo on square {cmd.silo} for "
            f"${cost}{' on credit' if cmd.on_credit else ''}; it holds {len(held) + 1}.")


# -- firing (XXVI.3-6) -------------------------------------------------------------------------
def _range(ctx, kind: str) -> int | None:
    r = int(ctx.params("missiles")[f"{kind}_range"])
    return r if r > 0 else None


def block_owners(state, silo: int) -> list[str]:
    """Every player owning a square of the silo's block (XXVI.3); just the silo's square's owner
    when it is in no block."""
    block = shared.block_of(state, silo)
    squares = block.squares if block is not None else [silo]
    return sorted({o for n in squares if (o := owner_of(state, n)) and state.players[o].active})


def _check_fire(ctx, player: Player, cmd: FireMissile, pending_ok: int | None = None) -> None:
    _your_silo(ctx, player, cmd.silo, "fire")
    ms = MissilesModule.of(ctx.state)
    held = ms.held.get(cmd.silo, [])
    if cmd.missile not in held:
        raise IllegalAction(f"the Missile Silo on square {cmd.silo} holds no {NAMES[cmd.missile]}; it holds "
                            f"{', '.join(NAMES[k] for k in held) or 'no missiles'}")
    if ms.fired.get(cmd.silo) == ctx.state.update:
        raise IllegalAction(f"the Missile Silo on square {cmd.silo} has fired this turn already; a silo fires "
                            "one missile a turn (XXVI.3)")
    if cmd.silo in ms.pending and ms.pending[cmd.silo] != pending_ok:
        raise IllegalAction(f"the Missile Silo on square {cmd.silo} is waiting for its block's consent to "
                            f"another firing (#{ms.pending[cmd.silo]}); one a turn (XXVI.3)")
    target = ctx.state.square(cmd.target)
    if target is None or target.destroyed:
        raise IllegalAction(f"there is no square {cmd.target} on the board to fire at")
    reach = _range(ctx, cmd.missile)
    if reach is not None:
        columns = int(ctx.params("board").get("columns", 10))
        d = distance(ctx.state, cmd.silo, cmd.target, columns)
        if d is None or d > reach:
            raise IllegalAction(f"square {cmd.target} is {'out of reach' if d is None else f'{d} squares'} from "
                                f"the silo on square {cmd.silo}; {a(cmd.missile)} reaches {reach} (XXVI.4, "
                                "distance as VI.13)")
    if cmd.missile in ("biological", "icbm"):
        why = shared.may_commit_atrocity(ctx.state, player.name)
        if why:
            raise IllegalAction(f"firing {a(cmd.missile)} is an atrocity (XXVI.6) and {why}")


def fire(ctx, player: Player, cmd: FireMissile) -> str:
    _check_fire(ctx, player, cmd)
    others = [o for o in block_owners(ctx.state, cmd.silo) if o != player.name]
    if others:
        from admin.mechanics.interactions import ask

        inter = ask(ctx, kind="consent", module="missiles", parties=others, silence="decline",
                    proposer=player.name, payload={"silo": cmd.silo, "missile": cmd.missile,
                                                   "target": cmd.target, "firer": player.name})
        MissilesModule.of(ctx.state).pending[cmd.silo] = inter.id
        return (f"{player.name} asks to fire {a(cmd.missile)} from square {cmd.silo} at square "
                f"{cmd.target}; {', '.join(others)} must ACCEPT {inter.id} by update {inter.deadline} "
                "(XXVI.3; silence is no).")
    launch(ctx, cmd.silo, cmd.missile, cmd.target, consenters=[player.name], rule="XXVI.3")
    return f"{player.name} fired {a(cmd.missile)} from square {cmd.silo} at square {cmd.target}."


def batteries_near(state, target: int, columns: int = 10) -> int:
    """Anti-Missile Batteries on ``target`` and the squares next to it (XXVI.5)."""
    near = [target, *neighbours(state, target, columns)]
    return sum(shared.buildings_on(state, n).count(BATTERY) for n in near)


def _roll(ctx, what: str, sides: int) -> int:
    n = ctx.scratch["missile-rolls"] = ctx.scratch.get("missile-rolls", 0) + 1
    return ctx.dice.roll(f"missile/{n}/{what}", sides)


def launch(ctx, silo: int, kind: str, target: int, *, consenters: list[str], rule: str,
           from_silo: bool = True) -> bool:
    """Fire a missile of ``kind`` from ``silo`` at ``target``: the atrocity for those who
    consented, the roll against its chance, and its effect. True if it hit."""
    ms, p, state = MissilesModule.of(ctx.state), ctx.params("missiles"), ctx.state
    if from_silo:
        held = ms.held.get(silo, [])
        if kind in held:
            held.remove(kind)
        if not held:
            ms.held.pop(silo, None)
        ms.fired[silo] = state.update
    name = NAMES[kind]
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


def _destroy_building(ctx, target: int) -> None:
    on = shared.buildings_on(ctx.state, target)
    if not on:
        ctx.emit("missile", f"Square {target} has no building for the Cruise Missile to destroy.", rule="XXVI.6")
        return
    building = on[_roll(ctx, f"{target}/building", len(on)) - 1]
    shared.destroy_building(ctx.state, target, building)
    ctx.emit("missile", f"The Cruise Missile destroyed the {shared.building_label(building)} on square {target}.",
             rule="XXVI.6", data={"square": target, "building": building})
    if building == SILO and not shared.has_building(ctx.state, target, SILO):
        haywire(ctx, target)


def _pollute(ctx, target: int) -> None:
    set_polluted(ctx.state, target, True)
    ctx.emit("missile", f"The Chemical Missile polluted square {target}.", rule="XXVI.6", data={"square": target})


def _contaminate(ctx, target: int) -> None:
    p, state = ctx.params("missiles"), ctx.state
    owner = owner_of(state, target)
    if owner is not None:
        set_owner(state, target, None)
        ctx.emit("missile", f"{owner} lost square {target} to the Biological Missile.", rule="XXVI.6",
                 player=owner, data={"square": target})
    until = state.week + int(p["contaminated_weeks"])
    set_contaminated(state, target, True)
    ms = MissilesModule.of(state)
    ms.contaminated[target] = max(ms.contaminated.get(target, 0), until)
    ctx.emit("missile", f"Square {target} is contaminated until the end of week {until}.", rule="XXVI.6",
             data={"square": target, "until": until})
    for player in _occupants(state, target):
        change_health(ctx, player, -int(p["biological_health"]), rule="XXVI.6",
                      reason=f"a Biological Missile on square {target}")


def _obliterate(ctx, target: int) -> None:
    p, state = ctx.params("missiles"), ctx.state
    columns = int(ctx.params("board").get("columns", 10))
    doomed = [target]
    for n in sorted(neighbours(state, target, columns)):
        if _roll(ctx, f"{target}/neighbour-{n}", 100) <= int(p["icbm_neighbour_chance"]):
            doomed.append(n)
    ms = MissilesModule.of(state)
    for number in doomed:
        if len(live_numbers(state)) <= 1:
            ctx.emit("missile", f"Square {number} stands: the board always keeps one square (VI.1).", rule="VI.1")
            continue
        had_silo = shared.has_building(state, number, SILO)
        loaded = list(ms.held.get(number, []))
        victims = _occupants(state, number)
        destroy_square(state, number, ctx.registry.enabled(state))
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


def _occupants(state, number: int) -> list[Player]:
    return [p for p in state.active_players() if p.square == number]


def _targets(ctx, origin: int, kind: str) -> list[int]:
    reach = _range(ctx, kind)
    columns = int(ctx.params("board").get("columns", 10))
    out = []
    for n in live_numbers(ctx.state):
        if n == origin:
            continue
        d = distance(ctx.state, origin, n, columns) if reach is not None else 0
        if d is not None and (reach is None or d <= reach):
            out.append(n)
    return out


def _fire_at_random(ctx, origin: int, kind: str, rule: str, from_silo: bool) -> None:
    targets = _targets(ctx, origin, kind)
    if not targets:
        ctx.emit("missile", f"{a(kind, True)} from square {origin} has no square in range and falls harmlessly.",
                 rule=rule)
        return
    target = targets[_roll(ctx, f"{origin}/{kind}/target", len(targets)) - 1]
    launch(ctx, origin, kind, target, consenters=[], rule=rule, from_silo=from_silo)


def haywire(ctx, silo: int, loaded: list[str] | None = None) -> None:
    """A silo destroyed by a missile fires every missile it held at random squares within their
    ranges (XXII.4), with nobody's consent."""
    ms = MissilesModule.of(ctx.state)
    kinds = list(loaded if loaded is not None else ms.held.get(silo, []))
    ms.held.pop(silo, None)
    ms.pending.pop(silo, None)
    if not kinds:
        return
    ctx.emit("missile", f"The destroyed Missile Silo on square {silo} goes haywire and fires its "
                        f"{len(kinds)} missile{'s' if len(kinds) != 1 else ''}.", rule="XXII.4")
    for kind in kinds:
        _fire_at_random(ctx, silo, kind, "XXII.4", from_silo=False)


def fire_random_missile(ctx, origin: int, rule: str) -> None:
    """A randomly chosen missile, made on the spot, fired from ``origin`` at a random square within
    its range (the Skunk on a Missile Silo, XIX.3)."""
    kind = TYPES[_roll(ctx, f"{origin}/type", len(TYPES)) - 1]
    ctx.emit("missile", f"{a(kind, True)} is made and fired from square {origin}.", rule=rule)
    _fire_at_random(ctx, origin, kind, rule, from_silo=False)
