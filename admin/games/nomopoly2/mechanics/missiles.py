"""Nomopoly II XXVI: missiles. A Missile Silo (a building, XXII.4) makes one missile an update,
which its square's owner may buy; it holds three at most. Its owner fires one a turn at a square
within the missile's range, with the consent of every other owner in the silo's block (asked
by mail: silence is no). Each missile hits with a chance, less 10% for every Anti-Missile
Battery on the target or next to it, and is gone either way.

Standing rulings (docs/rulings.md): "distance" is VI.13's (the fewest
north, south, east or west moves, jumping destroyed squares); "one a turn" is one an update per
silo; only the silo's owner fires it; the missiles in a silo are its square's owner's (net worth,
XXX.1); a silo destroyed by a missile fires its missiles at random squares within their ranges,
with nobody's consent (no atrocity); a contaminated square is clean again at the end of the third
week after the one it was hit in. A missile's flight and effects are in strikes.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from admin.engine.board import distance
from admin.engine.context import BANK
from admin.engine.interactions import all_consent
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.board import set_contaminated
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.strikes import NAMES, SILO, TYPES, a, launch, reach_of
from admin.games.nomopoly2.mechanics.strikes import fire_random_missile
from admin.games.nomopoly2.api import FiresMissiles
from admin.library.ownership import owner_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square
    from admin.engine.module import CommandSpec

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


@command("BUY MISSILE <missile:type> AT <silo> [ON CREDIT]", keyword="BUY MISSILE", parse=_parse_buy,
         usage="BUY MISSILE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> AT <silo> [ON CREDIT]", listing=260,
         summary="buy the missile your Missile Silo made this update (it holds 3 at most): "
                 "cruise $400, chemical $600, biological $750, ICBM $1000",
         example="BUY MISSILE CRUISE AT 15", rules=("XXVI.1", "XXVI.2"))
class BuyMissile:
    """``BUY MISSILE <type> AT <silo> [ON CREDIT]`` (XXVI.1)."""

    missile: str
    silo: int
    on_credit: bool = False


def _parse_fire(rest: str, _line: object) -> FireMissile:
    m = re.fullmatch(r"\s*(\S+)(?:\s+missile)?\s+from\s+(.+?)\s+at\s+(.+?)\s*", rest, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write FIRE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> FROM <silo square> AT <square>, "
                           "like FIRE CRUISE FROM 15 AT 6")
    return FireMissile(_kind(m.group(1)), parse_square(m.group(2)), parse_square(m.group(3)))


@command("FIRE <missile:type> FROM <silo> AT <target:square>", parse=_parse_fire,
         usage="FIRE <CRUISE|CHEMICAL|BIOLOGICAL|ICBM> FROM <silo> AT <square>", listing=261,
         summary="fire a missile from your silo at a square in its range; the other "
                 "owners of the silo's block must ACCEPT first",
         example="FIRE CRUISE FROM 15 AT 6", rules=("XXVI.3", "XXVI.4", "XXVI.5"))
class FireMissile:
    """``FIRE <type> FROM <silo> AT <square>`` (XXVI.3)."""

    missile: str
    silo: int
    target: int


class MissilesModule(Mechanic[MissilesState, None], FiresMissiles):
    name = "missiles"
    rules = ("XXVI.1", "XXVI.2", "XXVI.3", "XXVI.4", "XXVI.5", "XXVI.6")
    stated = {"XXVI.5": {"battery_penalty": ("chance drops by {}% for each",)},
              "XXVI.6": {"cruise_cost": ("Cruise Missile: ${},",),
                         "chemical_cost": ("Chemical Missile: ${},",),
                         "biological_cost": ("Biological Missile: ${},",),
                         "icbm_cost": ("Ballistic Missile): ${},",),
                         "biological_health": ("everyone on it loses {} health, and it is contaminated",),
                         "contaminated_weeks": ("contaminated for {} weeks",),
                         "icbm_neighbour_chance": ("destroyed with a {}% chance",),
                         "icbm_health": ("when it is destroyed loses {} health",)}}
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

    def fire_random_missile(self, ctx: UpdateContext, origin: int, rule: str) -> None:
        fire_random_missile(ctx, origin, rule)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuyMissile, buy), (FireMissile, fire))

    # -- lives of squares -------------------------------------------------------------------
    def on_square_added(self, state: GameState, square: Square) -> None:
        ms = self.of(state)
        for table in (ms.held, ms.made, ms.made_now, ms.fired, ms.pending, ms.contaminated):
            table.pop(square.number, None)

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "missiles":
            return False
        kinds = [_kind(str(v)) for v in (value or [])]
        if kinds:
            self.of(state).held[square.number] = kinds
        else:
            self.of(state).held.pop(square.number, None)
        return True

    def on_update_end(self, ctx: UpdateContext) -> None:
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
    def check_answer(self, ctx: UpdateContext, interaction: Any, player: Player, value: Any) -> Any:
        kind = interaction.payload.get("missile")
        if str(value).lower() in ("accept", "yes") and kind in ("biological", "icbm"):
            why = shared.may_commit_atrocity(ctx.state, player.name)
            if why:
                raise IllegalAction(f"firing {a(kind)} is an atrocity (XXVI.6) and {why}")
        return value

    def resolve_interaction(self, ctx: UpdateContext, interaction: Any, answers: dict[str, Any]) -> str:
        p = interaction.payload
        silo, kind, target, firer = int(p["silo"]), str(p["missile"]), int(p["target"]), str(p["firer"])
        ms = self.of(ctx.state)
        if ms.pending.get(silo) == interaction.id:
            del ms.pending[silo]
        if not all_consent(answers):
            refused = ", ".join(sorted(n for n, ans in answers.items() if str(ans).lower() not in ("accept", "yes")))
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
    def worth(self, state: GameState, player: Player) -> int:
        params = {**self.defaults, **state.params(self.name)}
        total = sum(int(params[f"{k}_cost"]) for n, kinds in self.of(state).held.items()
                    if owner_of(state, n) == player.name for k in kinds)
        return total * int(params["worth_percent"]) // 100

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        mine = sum(len(kinds) for n, kinds in self.of(state).held.items() if owner_of(state, n) == player.name)
        return [Fact("missiles", mine, label="Missiles" if mine else None, order=70)]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("missiles", list(self.of(state).held.get(square.number, [])), kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        kinds = self.of(state).held.get(square.number)
        if not kinds:
            return None
        words = ", ".join(NAMES[k] for k in kinds)
        return SquareLook(notes=((55, f"missiles: {words}"),), flags=((55, f"M{len(kinds)}", f"missiles: {words}"),))

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        mine = sum(len(kinds) for n, kinds in self.of(state).held.items() if owner_of(state, n) == player.name)
        return [(70, f"; {mine} missile{'s' if mine != 1 else ''} in your silos")] if mine else []

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        ms = self.of(state)
        return [(70, f"  Missiles at your silo on square {n}: {', '.join(NAMES[k] for k in kinds)}")
                for n, kinds in sorted(ms.held.items()) if kinds and owner_of(state, n) == player.name]


# -- buying (XXVI.1-2) -------------------------------------------------------------------------
def _your_silo(ctx: UpdateContext, player: Player, silo: int, verb: str) -> None:
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


def buy(ctx: UpdateContext, player: Player, cmd: BuyMissile) -> str:
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
def block_owners(state: GameState, silo: int) -> list[str]:
    """Every player owning a square of the silo's block (XXVI.3); just the silo's square's owner
    when it is in no block."""
    block = shared.block_of(state, silo)
    squares = block.squares if block is not None else [silo]
    return sorted({o for n in squares if (o := owner_of(state, n)) and state.players[o].active})


def _check_fire(ctx: UpdateContext, player: Player, cmd: FireMissile, pending_ok: int | None = None) -> None:
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
    reach = reach_of(ctx, cmd.missile)
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


def fire(ctx: UpdateContext, player: Player, cmd: FireMissile) -> str:
    _check_fire(ctx, player, cmd)
    others = [o for o in block_owners(ctx.state, cmd.silo) if o != player.name]
    if others:
        from admin.library.interactions import ask

        inter = ask(ctx, kind="consent", module="missiles", parties=others, silence="decline",
                    proposer=player.name, payload={"silo": cmd.silo, "missile": cmd.missile,
                                                   "target": cmd.target, "firer": player.name})
        MissilesModule.of(ctx.state).pending[cmd.silo] = inter.id
        return (f"{player.name} asks to fire {a(cmd.missile)} from square {cmd.silo} at square "
                f"{cmd.target}; {', '.join(others)} must ACCEPT {inter.id} by update {inter.deadline} "
                "(XXVI.3; silence is no).")
    launch(ctx, cmd.silo, cmd.missile, cmd.target, consenters=[player.name], rule="XXVI.3")
    return f"{player.name} fired {a(cmd.missile)} from square {cmd.silo} at square {cmd.target}."
