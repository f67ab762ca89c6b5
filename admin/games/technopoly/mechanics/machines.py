"""Technopoly's Machines at work (IV.6, VIII.11-VIII.23, X.25): ``ACTIVATE <machine> <words>``
picks one of the Machine's Activate: abilities by its words, checks it, spends the Robot and the
activation Fuel, and carries it out, with Hazardous, One-Shot and Polluting after. An
Unpredictable Machine's choices are its owner's named opponent's, answered by the next update."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from admin.engine.errors import IllegalAction, NomopolyError
from admin.library.interactions import ask
from admin.games.technopoly.mechanics.objects import (
    WORLD, ObjectType, TechnoState, add_units, burn, create, destroy, find_object, held, pollute, private, world,
)
from admin.games.technopoly.mechanics.tasks import Turn, attack, can_make, hazard, noisy, owned, parse_task

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction

#: carries out a task line in a turn (the world's ``run``, reading the line again)
RunTask = Callable[[Turn, str, str], str]
#: what an ability does once its checks have passed, in words
Effect = Callable[[], str]

ABILITY_WORDS = {"ANALYSE": "Analyser", "ANALYZE": "Analyser", "ATTACK": "Attacker", "CONVERT": "Convertor",
                 "COPY": "Copier", "DESTROY": "Destroyer", "STEAL": "Liberator", "MINE": "Miner",
                 "LOOK": "Monitor", "RESEARCH": "Researcher", "SCAVENGE": "Scavenger",
                 "GENERATE": "Synthesiser", "PLUS": "Transmitter", "MINUS": "Transmitter",
                 "INVENT": "Manipulator", "CREATE": "Manipulator", "ACTIVATE": "Manipulator"}


def split_machine(st: TechnoState, text: str) -> tuple[ObjectType, str]:
    """``Death Ray DESTROY bob's Robot`` -> (Death Ray, ``DESTROY bob's Robot``): the longest known name first."""
    known = sorted((o for o in st.objects.values() if o.status == "known"), key=lambda o: -len(o.name))
    for obj in known:
        if text.lower() == obj.name.lower() or text.lower().startswith(obj.name.lower() + " "):
            return obj, text[len(obj.name):].strip()
    raise IllegalAction(f"{text!r} names no known Machine; known: "
                        f"{', '.join(o.name for o in known if o.kind == 'machine') or 'none yet'}")


def activate(ctx: UpdateContext, turn: Turn, text: str, run_task: Callable[[Turn, str, str], str]) -> str:
    """ACTIVATE a Machine (IV.6): a Robot's task, or none if it is Automatic (VIII.1); once a
    turn for each unit owned (twice if Rapid-Fire, VIII.6), not two turns running if Slow (X.23);
    its activation Fuel burnt (Ecological: any Fuel); then what it does, then Hazardous (X.14),
    One-Shot (X.20), Polluting (X.22)."""
    st = world(ctx.state)
    player = turn.player
    obj, rest = split_machine(st, text)
    if obj.kind != "machine":
        raise IllegalAction(f"{obj.name} is not a Machine (no Activate: attribute) and cannot be activated")
    units = held(st, player, obj.name)
    if units < 1:
        raise IllegalAction(f"{player} owns no {obj.name}")
    if obj.pending_fuel:
        raise IllegalAction(f"{obj.name}'s Fuel is not nominated yet (V.2)")
    limit = units * (2 if obj.has("Rapid-Fire") else 1)
    if turn.uses.get(obj.name, 0) >= limit:
        raise IllegalAction(f"{player}'s {units} {obj.name} may be activated {limit} time(s) a turn"
                            + (" (Rapid-Fire)" if obj.has("Rapid-Fire") else ""))
    last = st.activated.get(player, {}).get(obj.name)
    if obj.has("Slow") and last is not None and last == st.last_turn.get(player):
        raise IllegalAction(f"{obj.name} is Slow: it was activated in {player}'s previous turn (X.23)")
    unpredictable = None
    if obj.has("Unpredictable"):  # X.25: an opponent makes its choices, by the next update
        m = re.fullmatch(r"by\s+(\S+)", rest.strip(), re.IGNORECASE)
        if not m or m.group(1) not in st.seats or m.group(1) == player:
            raise IllegalAction(f"{obj.name} is Unpredictable: name the opponent who makes its choices, like "
                                f"ACTIVATE {obj.name} BY <player> (X.25)")
        unpredictable = m.group(1)
        effect = None
    else:
        ability, arg = choose_ability(obj, rest)
    robots = 0 if obj.has("Automatic") else (3 if obj.has("Elaborate") else 1)
    if turn.robots < robots:
        raise IllegalAction(f"activating {obj.name} needs {robots} Robot(s); {player} has {turn.robots} left")
    noisy(st, turn, obj.name)
    eco = obj.has("Ecological")
    burn(ctx, player, obj.fuel_activate, ecological=eco, check=True)
    if unpredictable is None:
        effect = ABILITIES[ability](ctx, turn, obj, arg, run_task)
    turn.robots -= robots
    burnt = burn(ctx, player, obj.fuel_activate, ecological=eco)
    turn.uses[obj.name] = turn.uses.get(obj.name, 0) + 1
    turn.made.append(obj.name)
    st.activated.setdefault(player, {})[obj.name] = turn.number
    if effect is not None:
        said = effect()
    else:  # no ability chosen: the opponent named chooses (X.25)
        assert unpredictable is not None
        said = ask_opponent(ctx, turn, obj, unpredictable)
    hazard(ctx, turn, burnt, obj, robot=robots > 0)
    if obj.has("One-Shot"):
        destroy(ctx, player, obj.name, 1, "One-Shot: destroyed once activated", rule="X.20")
    if obj.has("Polluting"):
        pollute(ctx, player, obj, 1)
    return f"{player} activated {obj.name}" + (f": {said}" if said else ".")


def choose_ability(obj: ObjectType, rest: str) -> tuple[str, str]:
    """Which of the Machine's Activate: abilities the words ask for, and the words it reads."""
    words = rest.split(None, 1)
    ability = ABILITY_WORDS.get(words[0].upper()) if words else None
    abilities = [a for a in obj.attributes if a in USAGE]
    if ability in ("Attacker", "Miner") and ability not in abilities and "Manipulator" in abilities:
        ability = "Manipulator"
    if ability is None and len(abilities) == 1:
        ability = abilities[0]
    if ability not in abilities:
        raise IllegalAction(f"{obj.name} can: " + "; ".join(USAGE[a] for a in abilities) + f" (not {rest!r})")
    whole = ability in ("Transmitter", "Manipulator") or not ABILITY_WORDS.get(words[0].upper() if words else "")
    return ability, rest if whole else (words[1].strip() if len(words) > 1 else "")


def ask_opponent(ctx: UpdateContext, turn: Turn, obj: ObjectType, opponent: str) -> str:
    """X.25: the activation is made now (its Robot, Fuel and drawbacks); what it does is the
    named opponent's choice, answered ``ANSWER <n> <words>`` before the next update."""
    inter = ask(ctx, kind="response", module=WORLD, parties=[opponent], silence="none", proposer=turn.player,
                payload={"machine": obj.name, "owner": turn.player})
    return (f"{obj.name} is Unpredictable: {opponent} makes its choices with ANSWER {inter.id} <what it does> "
            f"({'; '.join(USAGE[a] for a in obj.attributes if a in USAGE)}) before the next update (X.25).")


def resolve_unpredictable(ctx: UpdateContext, inter: Interaction, answers: dict[str, Any],
                          run_task: Callable[[Turn, str, str], str]) -> str:
    """The opponent's words carried out for the owner; silence or words that cannot be done: nothing."""
    st = world(ctx.state)
    owner, opponent = str(inter.payload["owner"]), inter.parties[0]
    obj = st.objects.get(str(inter.payload["machine"]))
    words = answers.get(opponent)
    if obj is None or not isinstance(words, str) or words == "none":
        return f"{opponent} made no choice: {owner}'s {inter.payload['machine']} did nothing"
    turn = Turn(owner, 0, st.turns)
    try:
        ability, arg = choose_ability(obj, words)
        said = ABILITIES[ability](ctx, turn, obj, arg, run_task)()
    except NomopolyError as exc:
        return f"{opponent}'s choice for {owner}'s {obj.name}, {words!r}, could not be done ({exc}): it did nothing"
    return f"{opponent} chose for {owner}'s {obj.name}: {said}"


USAGE = {"Analyser": "ANALYSE <your machine>", "Attacker": "ATTACK <player>'s <object>",
         "Convertor": "CONVERT <your fuel> TO <fuel>", "Copier": "COPY <your object>",
         "Destroyer": "DESTROY <player>'s <object>", "Liberator": "STEAL <player>'s <object>",
         "Manipulator": "INVENT/CREATE/MINE/ACTIVATE/ATTACK ... as a Robot's task", "Miner": "MINE <fuel>",
         "Monitor": "LOOK AT <player>", "Researcher": "RESEARCH", "Scavenger": "SCAVENGE <player>'s <object>",
         "Synthesiser": "GENERATE", "Transmitter": "PLUS or MINUS"}


def _analyse(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    st = world(ctx.state)
    target = find_object(st, rest)
    if target.kind != "machine" or held(st, turn.player, target.name) < 1:
        raise IllegalAction(f"the Analyser destroys a Machine you own; you own no Machine {target.name}")

    def go() -> str:
        destroy(ctx, turn.player, target.name, 1, "taken apart by an Analyser", rule="VIII.11")
        if turn.player not in target.rights:
            target.rights.append(turn.player)
        return f"{turn.player} gained the Technology for {target.name} (VIII.11)."
    return go


def _attack(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask, steal: bool = False) -> Effect:
    owner, target = owned(rest, "STEAL" if steal else "ATTACK")
    attack(ctx, turn, owner, target, with_=obj.name, steal=steal, check=True)
    return lambda: attack(ctx, turn, owner, target, with_=obj.name, steal=steal)


def _convert(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    st = world(ctx.state)
    m = re.fullmatch(r"(.+?)\s+to\s+(.+)", rest, re.IGNORECASE)
    if not m:
        raise IllegalAction("write CONVERT <your fuel> TO <fuel>")
    a, b = find_object(st, m.group(1)), find_object(st, m.group(2))
    if a.kind != "fuel" or b.kind != "fuel" or a.name == b.name:
        raise IllegalAction("a Convertor changes one of your Fuels into another Fuel")
    if held(st, turn.player, a.name) < 1:
        raise IllegalAction(f"{turn.player} owns no {a.name}")

    def go() -> str:
        add_units(st, turn.player, a.name, -1)
        add_units(st, turn.player, b.name, 1)
        return f"1 {a.name} became 1 {b.name} (VIII.13)."
    return go


def _copy(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    st = world(ctx.state)
    target = find_object(st, rest)
    if held(st, turn.player, target.name) < 1:
        raise IllegalAction(f"a Copier copies an object you own; you own no {target.name}")
    return lambda: f"{create(ctx, turn.player, target.name, 1, 'copied', rule='VIII.14')} {target.name} made (VIII.14)."


def _destroy(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    st = world(ctx.state)
    owner, name = owned(rest, "DESTROY")
    target = find_object(st, name)
    if held(st, owner, target.name) < 1:
        raise IllegalAction(f"{owner} owns no {target.name}")
    return lambda: f"{destroy(ctx, owner, target.name, 1, f'{turn.player} fired {obj.name}', rule='VIII.15')} destroyed."


def _miner(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    st = world(ctx.state)
    if re.match(r"\d", rest):
        raise IllegalAction("a Miner mines two of one Fuel: write MINE <fuel>")
    fuel = find_object(st, rest)
    if fuel.kind != "fuel" or turn.player not in fuel.rights:
        raise IllegalAction(f"a Miner mines a Fuel you hold the Mining Rights for; not {fuel.name}")
    can_make(ctx, turn.player, fuel, "MINE")
    return lambda: f"{create(ctx, turn.player, fuel.name, 2, 'mined with a Miner', rule='VIII.18')} {fuel.name} mined."


def _monitor(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    m = re.fullmatch(r"(?:at\s+)?(\S+)(?:'s hand)?", rest, re.IGNORECASE)
    who = m.group(1) if m else rest
    if who not in world(ctx.state).holdings or who == turn.player:
        raise IllegalAction(f"LOOK AT names an opponent; not {rest!r}")

    def go() -> str:
        hand = private(ctx.state).hands.get(who, [])
        ctx.emit("techno", None, player=turn.player, rule="VIII.19",
                 private=f"Your Monitor shows {who}'s hand: {', '.join(hand) or 'no cards'}.")
        return f"{turn.player} looked at {who}'s hand (VIII.19)."
    return go


def _research(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    def go() -> str:
        turn.research = True
        return f"{turn.player} will draw an Attribute card at the end of the turn (VIII.20)."
    return go


def _scavenge(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    st = world(ctx.state)
    owner, name = owned(rest, "SCAVENGE")
    target = find_object(st, name)
    since = st.last_turn.get(turn.player, 0)
    if not any(d.owner == owner and d.object == target.name and d.turn > since and owner != turn.player
               for d in st.destroyed):
        raise IllegalAction(f"no {target.name} of {owner}'s was destroyed or burnt since {turn.player}'s last turn")
    return lambda: f"{create(ctx, turn.player, target.name, 1, 'scavenged', rule='VIII.21')} {target.name} scavenged."


def _synthesise(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    fuel = obj.synthesises
    if not fuel:
        raise IllegalAction(f"{obj.name} names no Fuel to synthesise")
    return lambda: f"{create(ctx, turn.player, fuel, 1, 'synthesised', rule='VIII.22')} {fuel} made."


def _transmit(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    word = rest.strip().upper()
    if word not in ("PLUS", "MINUS", ""):
        raise IllegalAction("a Transmitter adds or subtracts ten: PLUS or MINUS")

    def go() -> str:
        st = world(ctx.state)
        st.transmit[turn.player] = -10 if word == "MINUS" else 10
        return f"{turn.player} will {'subtract' if word == 'MINUS' else 'add'} ten to this round's end roll (VIII.23)."
    return go


def _manipulate(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    words = rest.split(None, 1)
    if not words or words[0].upper() not in ("INVENT", "CREATE", "MINE", "ACTIVATE", "ATTACK"):
        raise IllegalAction(f"a Manipulator does a Robot's task: {USAGE['Manipulator']}")
    parse_task(words[0], words[1] if len(words) > 1 else "")  # its syntax before anything is spent

    def go() -> str:  # the Manipulator works as one Robot would (a standing ruling)
        before = turn.robots
        turn.robots += 1
        try:
            return run_task(turn, words[0].upper(), words[1] if len(words) > 1 else "")
        finally:
            turn.robots = min(turn.robots, before)
    return go


def _liberate(ctx: UpdateContext, turn: Turn, obj: ObjectType, rest: str, run_task: RunTask) -> Effect:
    """A Liberator rolls as if attacking an Object and, if it wins, takes it (STEAL)."""
    return _attack(ctx, turn, obj, rest, run_task, steal=True)


ABILITIES: dict[str, Callable[..., Callable[[], str]]] = {
    "Analyser": _analyse, "Attacker": _attack, "Convertor": _convert, "Copier": _copy, "Destroyer": _destroy,
    "Liberator": _liberate, "Manipulator": _manipulate, "Miner": _miner,
    "Monitor": _monitor, "Researcher": _research, "Scavenger": _scavenge, "Synthesiser": _synthesise,
    "Transmitter": _transmit,
}
