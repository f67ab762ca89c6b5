"""Technopoly's turns (III.2, IV): each update is one round, every player's turn in seat order.
A player's orders for the turn are the task lines of their email; each Robot does one task
(IV.1): invent, create, mine, activate a Machine, attack, monitor. Automatic Machines activate
themselves (VIII.1). A turn may instead draw an Attribute card (``DRAW``) or replace a Mysterious
attribute (``REPLACE MYSTERIOUS``, IX.2). Then the end of the turn: the Researcher's card, one
Evaporating object, unmonitored High-Maintenance objects, Self-Replicating copies."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.decks import draw
from admin.engine.errors import CommandError, IllegalAction
from admin.games.technopoly.api import ORDERS
from admin.games.technopoly.mechanics.objects import (
    ROBOT, WORLD, ObjectType, TechnoState, add_units, airdrop, burn, cards_out, create, deck_spec, destroy, enforce_unique,
    find_object, give_card, held, parse_card, private, world,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


@dataclass(frozen=True)
class Task:
    """One parsed order: ``verb`` and its words (see :func:`parse_task`)."""

    verb: str
    args: tuple[Any, ...] = ()


_OWNED = re.compile(r"(\S+?)(?:'s|’s)\s+(.+)", re.IGNORECASE)


def _count_and_object(rest: str, verb: str) -> tuple[int, str]:
    m = re.fullmatch(r"(\d{1,4})\s+(.+)", rest.strip())
    if not m or int(m.group(1)) < 1:
        raise CommandError(f"{verb} needs how many and what, like {verb} 2 Titanium")
    return int(m.group(1)), m.group(2).strip()


def owned(text: str, verb: str) -> tuple[str, str]:
    m = _OWNED.fullmatch(text.strip())
    if not m:
        raise CommandError(f"{verb} names a player's object, like {verb} bob's Death Ray")
    return m.group(1), m.group(2).strip()


def parse_task(verb: str, rest: str) -> Task:
    """The syntax of every task (errors say what is valid)."""
    verb, rest = verb.upper(), rest.strip()
    if verb == "INVENT":
        m = re.fullmatch(r"(.+?)(?:\s+with\s+(.+))?", rest, re.IGNORECASE)
        if not m or not m.group(1).strip():
            raise CommandError("INVENT needs a name and the cards you give it, like INVENT Death Ray WITH Destroyer, Automatic")
        cards = tuple(parse_card(c) for c in re.split(r"\s*,\s*|\s+and\s+", m.group(2) or "") if c.strip())
        name = m.group(1).strip()
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 '\-]{0,39}", name):
            raise CommandError(f"{name!r} is not a name for an object: 1 to 40 letters, digits, spaces, ' or -")
        return Task("INVENT", (name, cards))
    if verb in ("CREATE", "MINE"):
        return Task(verb, _count_and_object(rest, verb))
    if verb == "ATTACK":
        m = re.fullmatch(r"(.+?)(?:\s+with\s+(.+))?", rest, re.IGNORECASE)
        owner, obj = owned(m.group(1) if m else rest, "ATTACK")
        return Task("ATTACK", (owner, obj))
    if verb == "MONITOR":
        if not rest:
            raise CommandError("MONITOR names a High-Maintenance object of yours, like MONITOR Reactor")
        return Task("MONITOR", (rest,))
    if verb == "ACTIVATE":
        if not rest:
            raise CommandError("ACTIVATE names your Machine and what it does, like ACTIVATE Death Ray DESTROY bob's Robot")
        return Task("ACTIVATE", (rest,))
    if verb == "DRAW":
        if rest and rest.upper() not in ("CARD", "A CARD"):
            raise CommandError("write DRAW (your turn draws an Attribute card instead of giving Robots tasks)")
        return Task("DRAW")
    if verb == "REPLACE":
        m = re.fullmatch(r"mysterious\s+on\s+(.+?)\s+with\s+(.+)", rest, re.IGNORECASE)
        if not m:
            raise CommandError("write REPLACE MYSTERIOUS ON <object> WITH <card>")
        return Task("REPLACE", (m.group(1).strip(), parse_card(m.group(2))))
    raise CommandError(f"{verb} is not a task; tasks: INVENT, CREATE, MINE, ACTIVATE, ATTACK, MONITOR, DRAW, REPLACE")


@dataclass
class Turn:
    """What one player's turn has used and done so far (never saved)."""

    player: str
    robots: int
    number: int
    #: objects created or activated this turn (Noisy, X.19)
    made: list[str] = field(default_factory=list)
    monitored: set[str] = field(default_factory=set)
    #: activations of each object this turn (once per unit; Rapid-Fire twice)
    uses: dict[str, int] = field(default_factory=dict)
    research: bool = False
    #: attacks rolled this turn (each roll's label is its own)
    attacks: int = 0
    mode: str = "tasks"  # tasks, draw, replace


def orders(ctx: UpdateContext) -> dict[str, list[tuple[str, Task, int]]]:
    return ORDERS.of(ctx)


def use_robots(turn: Turn, n: int, what: str) -> None:
    if turn.robots < n:
        raise IllegalAction(f"{what} needs {n} Robot{'s' if n > 1 else ''} and {turn.player} has "
                            f"{turn.robots} left this turn")
    turn.robots -= n


def noisy(st: TechnoState, turn: Turn, name: str) -> None:
    """X.19: a Noisy object's creation or activation allows no other type that turn."""
    others = [n for n in turn.made if n != name]
    if others and (st.objects[name].has("Noisy") or any(st.objects[n].has("Noisy") for n in others)):
        raise IllegalAction(f"a Noisy object was or would be created or activated this turn with "
                            f"{', '.join(sorted(set(others + [name])))}; no other type may be (X.19)")


# -- creating and mining -------------------------------------------------------------------------
def can_make(ctx: UpdateContext, player: str, obj: ObjectType, verb: str) -> None:
    st = world(ctx.state)
    if obj.kind == "robot":
        if verb == "MINE":
            raise IllegalAction("Robots are built (CREATE), not mined")
        return
    if obj.kind == "waste":
        raise IllegalAction(f"{obj.name} is Waste: it is made only by Polluting objects (X.22)")
    if verb == "CREATE" and obj.kind == "fuel" and not ctx.params(WORLD)["create_fuel"]:
        raise IllegalAction(f"{obj.name} is a Fuel: it is mined (MINE), with its Mining Rights "
                            "(a ruling: techno create_fuel false)")
    if verb == "MINE" and obj.kind == "machine":
        raise IllegalAction(f"{obj.name} is a Machine: it is created (CREATE), with its Technology")
    if obj.has("Flawed"):
        raise IllegalAction(f"{obj.name} is Flawed: it can never be mined or created (X.12)")
    if player not in obj.rights:
        raise IllegalAction(f"{player} does not hold the {obj.rights_name} for {obj.name}; "
                            f"{', '.join(obj.rights) or 'nobody'} does")
    if obj.pending_fuel:
        raise IllegalAction(f"{obj.name}'s Fuel is not nominated yet; its inventor sends FUEL {obj.name} = ... (V.2)")
    if obj.has("Limited") and obj.kind == "fuel" and st.round + 1 > obj.round + 3:
        raise IllegalAction(f"{obj.name} is Limited: it could be mined only in rounds {obj.round} to "
                            f"{obj.round + 3} (X.18)")


def make(ctx: UpdateContext, turn: Turn, verb: str, count: int, name: str) -> str:
    """CREATE / MINE ``count``: one Robot each (three if Elaborate, X.10), creation Fuel each."""
    st = world(ctx.state)
    obj = find_object(st, name)
    can_make(ctx, turn.player, obj, verb)
    if obj.kind == "fuel":  # the rulebook's example "creates" a Fuel: it is mined, with its Mining Rights
        verb = "MINE"
    need = (3 if obj.has("Elaborate") else 1) * count
    if turn.robots < need:
        raise IllegalAction(f"{verb} {count} {obj.name} needs {need} Robots"
                            + (" (Elaborate: three each)" if obj.has("Elaborate") else "")
                            + f" and {turn.player} has {turn.robots} left this turn")
    noisy(st, turn, obj.name)
    burn(ctx, turn.player, obj.fuel_create * count, check=True)
    turn.robots -= need
    burnt = burn(ctx, turn.player, obj.fuel_create * count)
    turn.made.append(obj.name)
    create(ctx, turn.player, obj.name, count, "mined" if verb == "MINE" else "created",
                  rule="IV.4" if verb == "MINE" else "IV.5")
    hazard(ctx, turn, burnt)
    return ""  # create() has said what was made


def hazard(ctx: UpdateContext, turn: Turn, burnt: list[str], machine: ObjectType | None = None, robot: bool = True) -> None:
    """X.14: a Hazardous Machine destroys the Robot activating it; a Hazardous Fuel, the Robot
    activating the Machine it feeds (here: whose work burnt it)."""
    st = world(ctx.state)
    hazards = [b for b in burnt if st.objects[b].has("Hazardous")]
    if machine is not None and machine.has("Hazardous"):
        hazards.insert(0, machine.name)
    if hazards and robot:
        destroy(ctx, turn.player, ROBOT, 1, f"the Robot working with Hazardous {hazards[0]}", rule="X.14")


# -- attacks -------------------------------------------------------------------------------------
def attack(ctx: UpdateContext, turn: Turn, owner: str, target: str, *, with_: str, steal: bool = False,
           check: bool = False) -> str:
    """An attack on one unit (IV.8). The attacker and the defender each roll a d6; the attacker
    wins on a higher roll (a standing ruling: the seed lost how attacks are rolled). A Fragile
    target loses without a roll (X.13); a won attack destroys the unit (a Liberator steals it
    instead, VIII.16); a lost attack on a Retaliatory object destroys the attacker (VIII.8)."""
    st = world(ctx.state)
    player = turn.player
    if owner not in st.holdings or owner == player:
        raise IllegalAction(f"{owner!r} is not another player; attack another player's object")
    obj = find_object(st, target)
    if held(st, owner, obj.name) < 1:
        raise IllegalAction(f"{owner} owns no {obj.name}")
    for name, n in st.holdings.get(owner, {}).items():
        if name != obj.name and st.objects[name].has("Protective") and held(st, owner, obj.name) <= n:
            raise IllegalAction(f"{owner}'s {name} is Protective: {owner}'s {obj.name} may be attacked only "
                                f"while {owner} owns more {obj.name} ({held(st, owner, obj.name)}) than {name} ({n}) (VIII.5)")
    if check:
        return ""
    if obj.has("Fragile"):
        won, how = True, f"{obj.name} is Fragile and loses without a roll (X.13)"
    else:
        turn.attacks += 1
        a = ctx.dice.roll(f"attack/{player}/{turn.number}/{turn.attacks}/attacker", 6)
        d = ctx.dice.roll(f"attack/{player}/{turn.number}/{turn.attacks}/defender", 6)
        won, how = a > d, f"{player} rolled {a} against {d}"
    verb = "Liberator" if steal else "attack"
    if won:
        if steal and not obj.has("Fixed"):
            add_units(st, owner, obj.name, -1)
            add_units(st, player, obj.name, 1)
            ctx.emit("techno", f"{player} stole 1 of {owner}'s {obj.name} ({how}).", player=player,
                     rule="VIII.16")
            enforce_unique(ctx, player)
            return ""
        destroy(ctx, owner, obj.name, 1, f"{player}'s {verb} won ({how})", rule="IV.8")
        return ""
    ctx.emit("techno", f"{player}'s {verb} on {owner}'s {obj.name} failed ({how}).", player=player, rule="IV.8")
    if obj.has("Retaliatory"):
        destroy(ctx, player, with_, 1, f"the attacker lost against Retaliatory {obj.name}", rule="VIII.8")
    return ""


# -- the start and end of a turn -----------------------------------------------------------------
def start_of_turn(ctx: UpdateContext, turn: Turn) -> None:
    st = world(ctx.state)
    player = turn.player
    for name in sorted(st.holdings.get(player, {})):  # X.9: Fuel every turn, or destroyed
        obj = st.objects[name]
        if not obj.fuel_turn:
            continue
        for _ in range(held(st, player, name)):
            try:
                burn(ctx, player, obj.fuel_turn)
            except IllegalAction:
                destroy(ctx, player, name, 1, f"its Fuel ({', '.join(obj.fuel_turn)}) was not burnt this turn",
                        rule="X.9")
    for obj in sorted(st.objects.values(), key=lambda o: o.name):  # X.27: Unstoppable first
        if obj.has("Unstoppable") and player in obj.rights and obj.status == "known":
            verb = "MINE" if obj.kind == "fuel" else "CREATE"
            for n in (2, 1):
                try:
                    make(ctx, turn, verb, n, obj.name)
                    break
                except IllegalAction as exc:
                    if n == 1:
                        ctx.emit("techno", f"{player} could not make Unstoppable {obj.name}: {exc}.",
                                 player=player, rule="X.27")


def end_of_turn(ctx: UpdateContext, turn: Turn) -> None:
    st = world(ctx.state)
    player = turn.player
    for name in sorted(st.holdings.get(player, {})):  # VIII.9: a copy of each Self-Replicating type
        if st.objects[name].has("Self-Replicating") and held(st, player, name) > 0:
            create(ctx, player, name, 1, "self-replicated", rule="VIII.9")
    if turn.research:  # VIII.20
        try:
            draw_card(ctx, player, "VIII.20")
        except IllegalAction as exc:  # no card left to draw (VII.1): the turn still ends
            ctx.emit("techno", f"{player} drew no Attribute card: {exc}.", player=player, rule="VII.1")
    evaporating = sorted((n for n, k in st.holdings.get(player, {}).items()
                          if k > 0 and st.objects[n].has("Evaporating")), key=lambda n: (-held(st, player, n), n))
    if evaporating:  # X.11: one Evaporating object (of the type held most)
        destroy(ctx, player, evaporating[0], 1, "Evaporating, at the end of the turn", rule="X.11")
    for name in sorted(st.holdings.get(player, {})):  # X.15
        if st.objects[name].has("High-Maintenance") and name not in turn.monitored:
            destroy(ctx, player, name, held(st, player, name), "High-Maintenance and not monitored this turn",
                    rule="X.15")
    st.last_turn[player] = turn.number
    airdrop(ctx)


def draw_card(ctx: UpdateContext, player: str, rule: str) -> str:
    st, priv = world(ctx.state), private(ctx.state)
    card = draw(deck_spec(), ctx.dice, f"{player}/{st.turns}/{len(priv.hands.get(player, []))}", priv.pile,
                player=player, whole_deck=not cards_out(priv))
    give_card(priv, st, player, card)
    ctx.emit("techno", f"{player} drew an Attribute card.", player=player, rule=rule,
             private=f"You drew {card}.")
    return card

