"""The first Nomopoly's XXIV: methods of transportation. Each decides a player's dice (the turns
module's ``dice`` parameter); roller skates fall on a 15, a car stalls on three of a kind, the
monkey-driven rocket sled may blow up on a roll over 25 (bananas add sides to its die). Clogs and
skates a player has bought are carried and switched to at will; a car or sled not in use is parked,
paying rent on another player's square, and picked up again by passing over it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Sequence

from admin.engine.context import BANK
from admin.engine.declare import As, command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import no_args
from admin.engine.errors import CommandError, IllegalAction
from admin.library.api import TURNS
from admin.library.health import change_health
from admin.games.nomopoly1.mechanics.coownership import co_owners
from admin.library.ownership import owner_of
from admin.library.turns import parse_dice, roll_turn_dice, transport_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square

METHODS = {"foot": 0, "clogs": 100, "roller skates": 500, "car": 2000, "rocket sled": 3000}
CARRIED = ("clogs", "roller skates")
PARKED = ("car", "rocket sled")
_NAMES = {"on foot": "foot", "foot": "foot", "clogs": "clogs", "roller skates": "roller skates", "skates": "roller skates",
          "car": "car", "rocket sled": "rocket sled", "monkey-driven rocket sled": "rocket sled", "sled": "rocket sled"}


_METHODS = "name a method: ON FOOT, CLOGS, ROLLER SKATES, CAR or ROCKET SLED"


def _method(text: str) -> str:
    name = _NAMES.get(" ".join(text.lower().split()))
    if name is None:
        raise CommandError(_METHODS)
    return name


def _parse_park(rest: str, _line: object) -> Vehicle:
    no_args("PARK", rest)
    return Vehicle("park")


def _parse_monkey(rest: str, _line: object) -> Vehicle:
    word = rest.strip()
    if not word.isdecimal() or not 1 <= int(word) <= 100:
        raise CommandError("write FEED MONKEY <bananas> (1 to 100, $5 each)")
    return Vehicle("monkey", count=int(word))


@command("BUY TRANSPORT <method>", keyword="BUY TRANSPORT", fixed={"act": "buy"}, hint=_METHODS, listing=240,
         rules=("XXIV.3",), summary="clogs ($100, two d3), roller skates ($500, two d8), a car ($2000, three d5) "
                                    "or the rocket sled ($3000, one d24)", example="BUY TRANSPORT CAR")
@command("SWITCH TO <method>", fixed={"act": "switch"},
         hint="write SWITCH TO CLOGS, SWITCH TO ROLLER SKATES or SWITCH TO ON FOOT", listing=241,
         rules=("XXIV.4",), summary="switch to clogs or roller skates you carry, or go on foot",
         example="SWITCH TO CLOGS")
@command("PARK", parse=_parse_park, listing=242, rules=("XXIV.5",),
         summary="park your car or sled on your square (your own: free; another's: its rent each week) and go "
                 "on foot; pass over it to take it back", example="PARK")
@command("FEED MONKEY <bananas>", keyword="FEED MONKEY", parse=_parse_monkey, listing=243, rules=("XXIV.2",),
         summary="on the rocket sled: $5 a banana, each a side more on your die for the next week",
         example="FEED MONKEY 3")
class Vehicle:
    """``BUY TRANSPORT <method>``, ``SWITCH TO <method>``, ``PARK``, ``FEED MONKEY <n>`` (XXIV)."""

    act: str
    #: the method's name as a player may write it (CLOGS, SKATES, ON FOOT ...), to the rest of the line
    method: Annotated[str | None, As(_method, rest=True)] = None
    count: int = 0


@dataclass
class VehiclesState:
    #: clogs and roller skates each player carries (XXIV.4)
    kit: dict[str, list[str]] = field(default_factory=dict)
    #: a parked car or sled: player -> [method, square] (XXIV.5)
    parked: dict[str, list[Any]] = field(default_factory=dict)
    #: bananas fed to each player's monkey for the coming week (XXIV.2)
    bananas: dict[str, int] = field(default_factory=dict)


class VehiclesModule(Mechanic[VehiclesState, None]):
    name = "vehicles"
    rules = ("XXIV.1", "XXIV.2", "XXIV.3", "XXIV.4", "XXIV.5")
    stated = {"XXIV.1": {"skates_fall_total": ("a roll totalling exactly {} is a fall",),
                         "skates_fall_health": ("is a fall costing {} health",),
                         "car_repair": ("stall it, ${} to repair",),
                         "sled_safe_up_to": ("a roll exceeds {} there is",),
                         "sled_percent_per_point": ("there is a {}% chance it explodes",)},
              "XXIV.2": {"banana_price": ("buy bananas for ${} each",)}}
    defaults = {"prices": dict(METHODS), "skates_fall_total": 15, "skates_fall_health": 5, "car_repair": 250,
                "sled_safe_up_to": 25, "sled_percent_per_point": 2, "banana_price": 5}
    summary = "Clogs, roller skates, a car or the monkey-driven rocket sled: each its own dice and risks."
    State = VehiclesState
    requires = ("turns",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Vehicle, vehicle))

    def dice_for(self, state: GameState, player: Player) -> str | None:
        bananas = self.of(state).bananas.get(player.name, 0)
        if transport_of(state, player.name) != "rocket sled" or not bananas:
            return None
        count, sides = parse_dice(state.params("turns").get("dice", {}).get("rocket sled", "1d24"))
        return f"{count}d{sides + bananas}"

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        method = transport_of(ctx.state, player.name)
        p = ctx.params(self.name)
        if method == "roller skates" and sum(faces) == int(p["skates_fall_total"]):
            change_health(ctx, player, -int(p["skates_fall_health"]), rule="XXIV.1", reason="a fall on roller skates")
        elif method == "car" and len(faces) >= 3 and len(set(faces)) == 1:
            ctx.transfer(player.name, BANK, int(p["car_repair"]), rule="XXIV.1", reason="repairing a stalled car", kind="purchase")
            ctx.emit("vehicle", f"{player.name}'s car stalled: {ctx.state.money(int(p['car_repair']))} to repair it.",
                     player=player.name, rule="XXIV.1")
        elif method == "rocket sled" and sum(faces) > int(p["sled_safe_up_to"]):
            risk = (sum(faces) - int(p["sled_safe_up_to"])) * int(p["sled_percent_per_point"])
            if ctx.dice.roll(f"sled/{player.name}/{turn}", 100) <= risk:
                TURNS.of(ctx.state).transport[player.name] = "foot"
                ctx.emit("vehicle", f"{player.name}'s monkey went insane and blew up the rocket sled (a {risk}% "
                                    "chance): the move is made on foot.", player=player.name, rule="XXIV.1")
                return roll_turn_dice(ctx, player, turn, ctx.params("turns")["dice"].get("foot", "2d6"), "foot")
        return None

    def on_turns(self, ctx: UpdateContext) -> None:
        """The week's end: rent for cars and sleds parked on other players' squares; bananas eaten."""
        if not ctx.slot.week_end:
            return
        vs = self.of(ctx.state)
        for name, (method, square) in sorted(vs.parked.items()):
            owner = owner_of(ctx.state, square)
            player = ctx.state.players.get(name)
            if player is None or not player.active or owner in (None, name) or name in co_owners(ctx.state, square):
                continue  # XXVIII.2: a co-owner parks free
            rent = square * int(ctx.params("ownership").get("rent_per_number", 3))
            ctx.transfer(name, owner, rent, rule="XXIV.5", reason=f"the {method} parked on square {square}", kind="rent")
            ctx.emit("vehicle", f"{name} paid {ctx.state.money(rent)} rent to {owner} for the {method} parked "
                                f"on square {square}.", player=name, rule="XXIV.5")

    def on_update_end(self, ctx: UpdateContext) -> None:
        if ctx.slot.moves:  # the bananas fed for these moves are eaten: "for one turn only" (XXIV.2)
            self.of(ctx.state).bananas.clear()

    def worth(self, state: GameState, player: Player) -> int:
        """III.5: what the player's means of transport cost."""
        vs = self.of(state)
        prices = {**self.defaults, **state.params(self.name)}["prices"]
        owned = set(vs.kit.get(player.name, []))
        owned.add(transport_of(state, player.name))
        if player.name in vs.parked:
            owned.add(vs.parked[player.name][0])
        return sum(int(prices.get(m, 0)) for m in owned)

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        vs = self.of(ctx.state)
        parked = vs.parked.get(player.name)
        if parked and parked[1] == number:  # XXIV.5: passing over the parked square takes it back
            del vs.parked[player.name]
            TURNS.of(ctx.state).transport[player.name] = parked[0]
            ctx.emit("vehicle", f"{player.name} took back their {parked[0]} from square {number}.",
                     player=player.name, rule="XXIV.5")

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self._forget(ctx.state, player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self._forget(state, player.name)

    def _forget(self, state: GameState, name: str) -> None:
        vs = self.of(state)
        vs.kit.pop(name, None)
        vs.parked.pop(name, None)
        vs.bananas.pop(name, None)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "parked":
            return False
        if value:
            self.of(state).parked[player.name] = list(value)
        else:
            self.of(state).parked.pop(player.name, None)
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        vs = self.of(state)
        parked = vs.parked.get(player.name)
        return [Fact("carries", vs.kit.get(player.name, []), label="Carries", kind="text"),
                Fact("parked", f"{parked[0]} on square {parked[1]}" if parked else None, label="Parked", kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        here = sorted(f"{n}'s {m}" for n, (m, s) in self.of(state).parked.items() if s == square.number)
        if not here:
            return None
        return SquareLook(notes=((87, "parked: " + ", ".join(here)),), flags=((87, "P", "a parked car or sled"),))


def vehicle(ctx: UpdateContext, player: Player, cmd: Vehicle) -> str:
    vs = VehiclesModule.of(ctx.state)
    transport = TURNS.of(ctx.state).transport
    p = ctx.params(VehiclesModule.name)
    current = transport_of(ctx.state, player.name)
    if cmd.act == "buy":
        method = cmd.method or "foot"
        if method == "foot":
            raise IllegalAction("going on foot is free: SWITCH TO ON FOOT")
        price = int(p["prices"][method])
        ctx.transfer(player.name, BANK, price, rule="XXIV.3", reason=f"a {method}", voluntary=True, kind="purchase")
        if method in CARRIED and method not in vs.kit.get(player.name, []):
            vs.kit.setdefault(player.name, []).append(method)
        if method in PARKED:
            vs.parked.pop(player.name, None)  # a new car or sled replaces the old one (XXIV.3)
        transport[player.name] = method
        return f"{player.name} bought {'a ' if method != 'clogs' else ''}{method} for {ctx.state.money(price)} and uses it now."
    if cmd.act == "switch":
        method = cmd.method or "foot"
        if method in PARKED:
            raise IllegalAction("a car or sled is taken back by passing over where it is parked (XXIV.5)")
        if method != "foot" and method not in vs.kit.get(player.name, []):
            raise IllegalAction(f"you carry no {method}; BUY TRANSPORT {method.upper()}")
        if current in PARKED:
            raise IllegalAction(f"PARK your {current} first (XXIV.5)")
        transport[player.name] = method
        return f"{player.name} switched to {'going on foot' if method == 'foot' else method}."
    if cmd.act == "park":
        if current not in PARKED:
            raise IllegalAction("you have no car or sled in use to park")
        owner = owner_of(ctx.state, player.square)
        if owner is None:
            raise IllegalAction(f"square {player.square} is nobody's; a car or sled may not be parked there (XXIV.5)")
        vs.parked[player.name] = [current, player.square]
        transport[player.name] = "foot"
        cost = "free" if owner == player.name else f"{owner}'s square: its rent each week"
        return f"{player.name} parked their {current} on square {player.square} ({cost})."
    if current != "rocket sled":
        raise IllegalAction("only a player on the rocket sled has a monkey to feed (XXIV.2)")
    price = int(p["banana_price"]) * cmd.count
    ctx.transfer(player.name, BANK, price, rule="XXIV.2", reason="bananas for the monkey", voluntary=True, kind="purchase")
    vs.bananas[player.name] = vs.bananas.get(player.name, 0) + cmd.count
    return f"{player.name} fed the monkey {cmd.count} banana{'s' if cmd.count > 1 else ''}: its die has {cmd.count} more side{'s' if cmd.count > 1 else ''} next move."
