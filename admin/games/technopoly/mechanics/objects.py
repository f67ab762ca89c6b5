"""Technopoly's world as data (admin/games/technopoly): the attribute cards and what kind each is,
object types with their attributes, fuel and rights, who holds how many of what, and the
operations every other part uses: creating (Plentiful, Polluting, Unique), destroying
(Invulnerable, Unstable, the record a Scavenger reads), burning Fuel (Synthetic, Ecological,
Inert), the score (Worthless, Pollutant, Waste) and the Robot airdrop. A leaf of the package: the
modules import it, it imports none of them (their state is read by key)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine.decks import DeckState, discard
from admin.engine.errors import IllegalAction
from admin.engine.model import GameState
from admin.games.technopoly.api import TECHNO, TECHNO_PRIVATE
from admin.games.technopoly.mechanics.attributes import (  # the cards, read from here too
    ACTIVATE as ACTIVATE, CARDS as CARDS, FUEL_CARDS as FUEL_CARDS, NAMES_A_FUEL as NAMES_A_FUEL,
    NEGATIVE as NEGATIVE, NEUTRAL as NEUTRAL, POSITIVE as POSITIVE, ROBOT_ATTRIBUTES as ROBOT_ATTRIBUTES,
    card_name as card_name, card_text as card_text, deck_spec as deck_spec, parse_card as parse_card,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

WORLD, TRADING = "techno", "techno-trading"
ROBOT = "Robot"


@dataclass
class FuelSlot:
    """A "requires Fuel" card waiting for its Fuel to be nominated (V.2-V.4)."""

    when: str  # A, C or P
    count: int
    #: played by the inventor (who may then choose their own Fuels, V.3)
    own: bool
    by: str


@dataclass
class ObjectType:
    name: str
    #: machine, fuel (II.3), robot (II.4) or waste (X.22)
    kind: str
    inventor: str | None = None
    #: the round it was invented in (Limited, X.18)
    round: int = 0
    attributes: list[str] = field(default_factory=list)
    #: Synthetic: the Fuel it stands in for (VIII.10); Synthesiser: the Fuel it makes (VIII.22)
    synthetic_of: str | None = None
    synthesises: str | None = None
    #: the Fuel burnt per creation, per activation, per turn (one name per unit)
    fuel_create: list[str] = field(default_factory=list)
    fuel_activate: list[str] = field(default_factory=list)
    fuel_turn: list[str] = field(default_factory=list)
    #: "requires Fuel" cards whose Fuel is still to be nominated
    pending_fuel: list[FuelSlot] = field(default_factory=list)
    #: who may create it (Technology, a Machine) or mine it (Mining Rights, a Fuel)
    rights: list[str] = field(default_factory=list)
    #: the Waste a Polluting object makes (X.22)
    waste: str | None = None
    #: "announced" while its invention takes responses, then "known"
    status: str = "known"

    def has(self, attribute: str) -> bool:
        return attribute in self.attributes

    @property
    def rights_name(self) -> str:
        return "Technology" if self.kind in ("machine", "robot") else "Mining Rights"


@dataclass
class Destroyed:
    """One unit destroyed or burnt (for the Scavenger, VIII.21): the turn it happened in."""

    turn: int
    owner: str
    object: str


@dataclass
class EndRoll:
    round: int
    roll: int
    modifier: int
    ended: bool


@dataclass
class TechnoState:
    objects: dict[str, ObjectType] = field(default_factory=lambda: {
        ROBOT: ObjectType(ROBOT, "robot", attributes=list(ROBOT_ATTRIBUTES))})
    #: player -> object -> units held
    holdings: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the seats, in the order the players joined: turns go round them (III.2)
    seats: list[str] = field(default_factory=list)
    #: rounds completed (III.3)
    round: int = 0
    end_rolls: list[EndRoll] = field(default_factory=list)
    #: Transmitters used this round: player -> +10 or -10 (VIII.23)
    transmit: dict[str, int] = field(default_factory=dict)
    #: every turn taken so far is numbered; each player's last turn's number
    turns: int = 0
    last_turn: dict[str, int] = field(default_factory=dict)
    #: player -> object -> the number of the turn it was last activated in (Slow, X.23)
    activated: dict[str, dict[str, int]] = field(default_factory=dict)
    destroyed: list[Destroyed] = field(default_factory=list)
    #: cards each player holds (the count is public; the cards are not)
    hand_size: dict[str, int] = field(default_factory=dict)
    #: the final scores, once the game has ended
    scores: dict[str, int] = field(default_factory=dict)


@dataclass
class TechnoPrivate:
    pile: DeckState = field(default_factory=DeckState)
    hands: dict[str, list[str]] = field(default_factory=dict)
    #: players dealt their starting hand (III.1)
    dealt: list[str] = field(default_factory=list)


def world(state: GameState) -> TechnoState:
    return TECHNO.of(state)


def private(state: GameState) -> TechnoPrivate:
    return TECHNO_PRIVATE.of(state)


def find_object(st: TechnoState, name: str, *, known: bool = True) -> ObjectType:
    """An object type by name (any case); an error lists the known ones."""
    wanted = name.strip().lower()
    for obj in st.objects.values():
        if obj.name.lower() == wanted and (obj.status == "known" or not known):
            return obj
    names = [o.name for o in st.objects.values() if o.status == "known"]
    raise IllegalAction(f"no object called {name.strip()!r} is known; known objects: {', '.join(names)}")


def held(st: TechnoState, player: str, name: str) -> int:
    return st.holdings.get(player, {}).get(name, 0)


def add_units(st: TechnoState, player: str, name: str, n: int) -> None:
    hold = st.holdings.setdefault(player, {})
    hold[name] = hold.get(name, 0) + n
    if hold[name] <= 0:
        del hold[name]


def fuels(st: TechnoState) -> list[ObjectType]:
    """The Fuels discovered so far (II.3: every known object without an Activate: attribute)."""
    return [o for o in st.objects.values() if o.status == "known" and o.kind in ("fuel", "waste")]


def machine_kind(attributes: list[str]) -> str:
    return "machine" if any(a in ACTIVATE for a in attributes) else "fuel"


def turn_number(ctx: UpdateContext) -> int:
    return world(ctx.state).turns


def destroy(ctx: UpdateContext, owner: str, name: str, n: int, why: str, *, rule: str = "II.1") -> int:
    """Destroy ``n`` of ``owner``'s ``name`` (fewer if they hold fewer). Invulnerable objects are
    never destroyed (VIII.3); destroying an Unstable one destroys all its owner's others (X.26).
    Returns how many went."""
    st = world(ctx.state)
    obj = st.objects[name]
    have = held(st, owner, name)
    if obj.has("Invulnerable") or n <= 0 or have <= 0:
        if obj.has("Invulnerable") and have > 0 and n > 0:
            ctx.emit("techno", f"{owner}'s {name} is Invulnerable and survives ({why}).", player=owner,
                     rule="VIII.3")
        return 0
    gone = have if obj.has("Unstable") else min(n, have)
    add_units(st, owner, name, -gone)
    st.destroyed += [Destroyed(st.turns, owner, name)] * gone
    st.destroyed = [d for d in st.destroyed if d.turn >= st.turns - 4 * max(1, len(st.seats))]
    extra = " (Unstable: all of them)" if obj.has("Unstable") and gone > min(n, have) else ""
    ctx.emit("techno", f"{gone} of {owner}'s {name} destroyed: {why}{extra}.", player=owner,
             rule="X.26" if extra else rule, data={"object": name, "owner": owner, "destroyed": gone})
    return gone


def create(ctx: UpdateContext, player: str, name: str, times: int, how: str, *, rule: str = "IV.5") -> int:
    """``times`` creations of ``name`` for ``player``: two each if Plentiful (VIII.4), a Waste each
    if Polluting (X.22), then the Unique excess destroyed (X.24). Returns the units made."""
    st = world(ctx.state)
    obj = st.objects[name]
    per = 2 if obj.has("Plentiful") else 1
    made = per * times
    if made <= 0:
        return 0
    add_units(st, player, name, made)
    ctx.emit("techno", f"{player} {how} {made} {name}" + (" (Plentiful: two for each)" if per == 2 else "") + ".",
             player=player, rule="VIII.4" if per == 2 else rule, data={"object": name, "made": made})
    if obj.has("Polluting"):
        pollute(ctx, player, obj, times)
    enforce_unique(ctx, player)
    return made


def pollute(ctx: UpdateContext, player: str, obj: ObjectType, times: int) -> None:
    st = world(ctx.state)
    waste = obj.waste or f"{obj.name} Waste"
    if waste in st.objects and st.objects[waste].kind != "waste":  # a name taken since: never a real object
        waste = f"{obj.name} Waste"
    st.objects.setdefault(waste, ObjectType(waste, "waste", inventor=obj.inventor, round=obj.round))
    add_units(st, player, waste, times)
    ctx.emit("techno", f"{player}'s {obj.name} made {times} {waste} (Polluting).", player=player, rule="X.22")


def enforce_unique(ctx: UpdateContext, player: str) -> None:
    st = world(ctx.state)
    for name, n in sorted(st.holdings.get(player, {}).items()):
        if n > 1 and st.objects[name].has("Unique"):
            destroy(ctx, player, name, n - 1, "Unique: a player may own only one", rule="X.24")


def burn(ctx: UpdateContext, player: str, needs: list[str], *, ecological: bool = False, check: bool = False) -> list[str]:
    """Burn one unit for each Fuel named in ``needs`` from ``player``'s own stock (V.5): the Fuel
    itself, or a Synthetic form of it (VIII.10), or, for an Ecological Machine, any Fuel
    (VIII.2); never an Inert one (X.17). An Invulnerable Fuel burns without being destroyed.
    All or nothing: an error says what is short. Returns the objects burnt."""
    st = world(ctx.state)
    stock = dict(st.holdings.get(player, {}))
    chosen: list[str] = []
    for fuel in needs:
        options = [fuel] + sorted(o.name for o in st.objects.values() if o.synthetic_of == fuel)
        if ecological:
            options += sorted(o.name for o in fuels(st))
        pick = next((o for o in options if stock.get(o, 0) > 0 and o in st.objects
                     and st.objects[o].kind in ("fuel", "waste") and not st.objects[o].has("Inert")), None)
        if pick is None:
            usable = [o for o in dict.fromkeys(options) if o in st.objects
                      and st.objects[o].kind in ("fuel", "waste") and not st.objects[o].has("Inert")]
            have = sum(st.holdings.get(player, {}).get(o, 0) for o in usable)
            want = len(needs) if ecological else needs.count(fuel)
            raise IllegalAction(f"it needs {', '.join(needs)} burnt, and {player} has "
                                + (f"{have} {fuel} to burn, not {want}" if have else f"no {fuel} to burn")
                                + (" (Inert Fuel cannot be used)" if stock.get(fuel) else ""))
        if not st.objects[pick].has("Invulnerable"):  # burnt, but never destroyed: it burns again
            stock[pick] -= 1
        chosen.append(pick)
    if check:
        return chosen
    for pick in chosen:
        if st.objects[pick].has("Invulnerable"):
            ctx.emit("techno", f"{player} burnt 1 {pick}, which is Invulnerable and is not destroyed.",
                     player=player, rule="VIII.3")
        else:
            add_units(st, player, pick, -1)
            st.destroyed.append(Destroyed(st.turns, player, pick))
    if chosen:
        ctx.emit("techno", f"{player} burnt {', '.join(chosen)}.", player=player, rule="V.5",
                 data={"burnt": chosen})
    return chosen


def score(st: TechnoState, player: str) -> int:
    """Units owned: Robots and Worthless objects count nothing (II.4, X.28), Pollutant objects
    and Waste count -1 (X.21, X.22), every other unit +1 (II.2, III.4)."""
    total = 0
    for name, n in st.holdings.get(player, {}).items():
        obj = st.objects[name]
        if obj.kind == "robot" or obj.has("Worthless"):
            continue
        total += -n if obj.kind == "waste" or obj.has("Pollutant") else n
    return total


def illegal(st: TechnoState, player: str) -> bool:
    return any(st.objects[n].has("Illegal") for n, k in st.holdings.get(player, {}).items() if k > 0)


def airdrop(ctx: UpdateContext) -> None:
    """A player with no Robot is airdropped one at once (III.1)."""
    st = world(ctx.state)
    for name in st.seats:
        player = ctx.state.players.get(name)
        if player is not None and player.active and held(st, name, ROBOT) == 0:
            add_units(st, name, ROBOT, 1)
            ctx.emit("techno", f"{name} had no Robot left: a new Robot was airdropped to {name}.",
                     player=name, rule="III.1")


def describe(obj: ObjectType) -> str:
    """An object's attributes and Fuel, in words (the site, the mail)."""
    parts = list(obj.attributes)
    if obj.synthetic_of:
        parts = [f"Synthetic ({obj.synthetic_of})" if a == "Synthetic" else a for a in parts]
    if obj.synthesises:
        parts = [f"Synthesiser ({obj.synthesises})" if a == "Synthesiser" else a for a in parts]
    return ", ".join(parts) or "none"


def fuel_text(obj: ObjectType) -> str:
    out = []
    for label, names in (("to create", obj.fuel_create), ("to activate", obj.fuel_activate),
                         ("each turn", obj.fuel_turn)):
        if names:
            out.append(f"{', '.join(names)} {label}")
    if obj.pending_fuel:
        out.append(f"{sum(s.count for s in obj.pending_fuel)} Fuel still to be nominated")
    return "; ".join(out) or "none"


def take_cards(priv: TechnoPrivate, st: TechnoState, player: str, cards: list[str], *, check: bool = False) -> None:
    """Take ``cards`` from ``player``'s hand (all or none); an error lists what they hold."""
    hand = list(priv.hands.get(player, []))
    for card in cards:
        if card not in hand:
            # never the hand itself: a refusal may be public (the hand is in the results mail)
            raise IllegalAction(f"{player} does not hold the card {card} (or not that many); "
                                "your hand is in your results mail")
        hand.remove(card)
    if not check:
        priv.hands[player] = hand
        st.hand_size[player] = len(hand)


def play_cards(priv: TechnoPrivate, st: TechnoState, player: str, cards: list[str]) -> None:
    """Cards played from ``player``'s hand go to the discard pile (VII.1); all or none."""
    take_cards(priv, st, player, cards)
    for card in cards:
        discard(priv.pile, card)


def cards_out(priv: TechnoPrivate) -> bool:
    """Whether any Attribute card is in a hand or on the discard pile: then an empty deck is made
    from the discards only, never from the whole deck again (VII.1)."""
    return any(priv.hands.values()) or bool(priv.pile.discard)


def give_card(priv: TechnoPrivate, st: TechnoState, player: str, card: str) -> None:
    priv.hands.setdefault(player, []).append(card)
    st.hand_size[player] = len(priv.hands[player])

