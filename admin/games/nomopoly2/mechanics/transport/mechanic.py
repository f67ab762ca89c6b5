"""Nomopoly II XXIX: methods of transportation. A player uses one method at a time (On Foot unless
they bought another, XXIX.1-2); each decides the dice of their turn (XXIX.3): clogs roll two d3, a
pogo stick two dice showing only 1 or 6, a Krazy Carpet two d8, a helicopter two d6 but flies up
the board's columns, a car two d10 and burns their product in fuel, springy shoes jump to a random
square. A car may also DRIVE TO a square once an update (5 x distance^2 fuel), fill up at a Gas
Station (XXII.4), be abandoned on its square with its fuel (XXIX.4) and be retrieved from there by
whoever stands on it (XXIX.5).

The method is kept here (``methods``, read by everyone through ``shared.transport_of``) and mirrored
into the turns module's ``transport`` (its "Travels by" fact and results line). Commands and their
handlers are in :mod:`transport_commands`; the helicopter's path and the springy shoes' jump in
:mod:`transport_moves`. Standing rulings: docs/rulings.md."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from math import prod

from admin.engine.board import live_numbers
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.games.nomopoly2.api import BURNT, TRANSPORT_CLEARED, TRANSPORT_MOVE, RollsByMethod
from admin.games.nomopoly2.mechanics import shared
from admin.engine.errors import RuleError
from admin.engine.params import check_dice_map, check_whole_numbers
from admin.library.turns import roll_turn_dice
from admin.games.nomopoly2.mechanics.transport.commands import command_specs
from admin.games.nomopoly2.mechanics.transport.moves import fly, spring
from admin.games.nomopoly2.mechanics.transport.state import (  # noqa: F401 - part of the transport interface
    DEFAULTS, LABELS, NOTES, TITLES, TransportState, abandon, dice_text,
    die_faces, method_of, params, set_method,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.module import CommandSpec


def _check_faces(value: Any) -> None:
    """Dice that show only some numbers: a means of transport -> its faces (1 to 1000)."""
    for faces in value.values():
        if not isinstance(faces, list) or not 1 <= len(faces) <= 20:
            raise RuleError("each means of transport shows 1 to 20 faces, like {pogo-stick: [1, 6]}")
        check_whole_numbers(1, 1000)(faces)


class TransportModule(Mechanic[TransportState, None], RollsByMethod):
    name = "transport"
    rules = ("XXIX.1", "XXIX.2", "XXIX.3", "XXIX.4", "XXIX.5")
    stated = {"XXIX.3": {"drive_fuel_per_distance_squared": ("burning {} x n x n fuel",)}}
    defaults = DEFAULTS
    minimums = {"fuel_max": 0, "drive_fuel_per_distance_squared": 0, "drives_per_update": 0}
    choices = {"helicopter_columns": ("up", "snake"), "government_fuel_to": ("bank", "owner"),
               "replaced_car": ("gone", "abandoned")}
    maximums = {"drives_per_update": 10}
    validators = {"dice": check_dice_map, "faces": _check_faces}
    summary = ("Clogs, a pogo stick, a Krazy Carpet, a helicopter, a car with fuel or springy shoes: "
               "each its own dice and ways (XXIX).")
    State = TransportState
    requires = ("board", "turns", "ownership")
    #: a Weighted Die (XXXIII.5) sets a die before the car burns fuel on the dice and a pogo stick's
    #: faces are read (check_roll)
    runs_after = ("casinos",)

    def commands(self) -> Sequence[CommandSpec]:
        return command_specs()

    def die_faces(self, state: GameState, player: str) -> list[int]:
        return die_faces(state, player)

    # -- the dice and the move of a turn (XXIX.3) -------------------------------------------
    def dice_for(self, state: GameState, player: Player) -> str | None:
        method = shared.transport_of(state, player.name)
        if method == "springy-shoes":  # one die over the live squares: the k-th is where they jump
            return f"1d{len(live_numbers(state))}"
        if method == "foot":
            return None  # the turns module's own dice
        return str(params(state)["dice"].get(method) or "2d6")

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        state, name = ctx.state, player.name
        method = shared.transport_of(state, name)
        p = params(state)
        shown = p["faces"].get(method)
        if shown:  # side k shows the k-th face (a value already one of them, a Weighted Die's, stays)
            faces = [f if f in shown else int(shown[f - 1]) if 1 <= f <= len(shown) else f for f in faces]
        if method == "car":
            ts = self.of(state)
            burn, fuel = prod(faces), ts.fuel.get(name, 0)
            if burn > fuel:
                square = player.square
                abandon(state, name, square)
                ctx.emit("transport", f"{name}'s car has {fuel} fuel, less than the {burn} a roll of "
                                      f"{' x '.join(map(str, faces))} burns: it is abandoned on square {square} "
                                      "and the move is made on foot.", player=name, rule="XXIX.3",
                         data={"fuel": fuel, "burn": burn, "square": square})
                return roll_turn_dice(ctx, player, turn, ctx.params("turns")["dice"].get("foot", "2d6"), "foot")
            ts.fuel[name] = fuel - burn  # told after the roll, as the move starts
            BURNT.of(ctx)[name] = (
                f"{name}'s car burnt {burn} fuel ({' x '.join(map(str, faces))}); {fuel - burn} left.",
                {"burn": burn, "fuel": fuel - burn})
        elif method in ("helicopter", "springy-shoes"):
            TRANSPORT_MOVE.of(ctx).add(name)
        return faces if shown else None

    def move_instead(self, ctx: UpdateContext, player: Player, steps: int) -> bool | int:
        self._tell_burnt(ctx, player.name)
        flagged = TRANSPORT_MOVE.peek(ctx)
        if flagged is None or player.name not in flagged:
            return False
        flagged.discard(player.name)
        method = shared.transport_of(ctx.state, player.name)
        if method == "springy-shoes":
            return spring(ctx, player, steps)
        if method == "helicopter":
            return fly(ctx, player, steps, str(params(ctx.state)["helicopter_columns"]))
        return False

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        cleared = TRANSPORT_CLEARED.of(ctx)
        if player.name not in cleared:  # a new move: the Gas Stations of the last one are behind
            cleared.add(player.name)
            self.of(ctx.state).reached.pop(player.name, None)

    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        self._tell_burnt(ctx, player.name)
        (TRANSPORT_MOVE.peek(ctx) or set()).discard(player.name)

    def _tell_burnt(self, ctx: UpdateContext, name: str) -> None:
        told = (BURNT.peek(ctx) or {}).pop(name, None)
        if told:
            ctx.emit("transport", told[0], player=name, rule="XXIX.3", data=told[1])

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        self._reach(ctx.state, player.name, number)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        self._reach(ctx.state, player.name, square.number)

    def _reach(self, state: GameState, name: str, number: int) -> None:
        if shared.has_building(state, number, "gas-station"):
            seen = self.of(state).reached.setdefault(name, [])
            if number in seen:
                seen.remove(number)
            seen.append(number)  # the last reached last

    # -- lives of players and squares -------------------------------------------------------
    def on_player_added(self, state: GameState, player: Player) -> None:
        set_method(state, player.name, method_of(state, player.name))

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        """XII.2: back as at the start: on foot, their car (if any) gone with its fuel."""
        self._forget(ctx.state, player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ts = self.of(state)
        for table in (ts.methods, ts.fuel, ts.reached):
            table.pop(player.name, None)

    def _forget(self, state: GameState, name: str) -> None:
        set_method(state, name, "foot")
        self.of(state).reached.pop(name, None)

    def on_square_added(self, state: GameState, square: Square) -> None:
        self.of(state).abandoned.pop(square.number, None)  # a destroyed square's cars go with it

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key == "method":
            method = str(value)
            if method not in shared.METHODS:
                raise ValueError(f"method {method!r} is not one of {', '.join(shared.METHODS)}")
            set_method(state, player.name, method)
            if method == "car":
                self.of(state).fuel[player.name] = int(params(state)["fuel_max"])
        elif key == "fuel":
            self.of(state).fuel[player.name] = int(value)
        else:
            return False
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "abandoned_cars":
            return False
        cars = [int(v) for v in (value if isinstance(value, list) else [value] if value is not None else [])]
        if cars:
            self.of(state).abandoned[square.number] = cars
        else:
            self.of(state).abandoned.pop(square.number, None)
        return True

    # -- net worth (XXX.1): what the method in use cost -------------------------------------
    def worth(self, state: GameState, player: Player) -> int:
        return int(params(state)["prices"].get(method_of(state, player.name), 0))

    # -- how it shows -----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        fuel = self.of(state).fuel.get(player.name) if method_of(state, player.name) == "car" else None
        return [Fact("fuel", fuel, label="Car fuel", order=61, shown="no car" if fuel is None else None)]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("abandoned_cars", list(self.of(state).abandoned.get(square.number, [])), kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        cars = self.of(state).abandoned.get(square.number)
        if not cars:
            return None
        what = ", ".join(f"{f} fuel" for f in cars)
        return SquareLook(notes=((88, f"abandoned car{'s' if len(cars) > 1 else ''} ({what})"),),
                          flags=((88, "AC", "abandoned car"),))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        if method_of(state, player.name) != "car":
            return []
        p = params(state)
        return [(31, f"  Car fuel: {self.of(state).fuel.get(player.name, 0)} of {p['fuel_max']}")]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        if method_of(state, player.name) != "car":
            return []
        return [(31, f", car fuel {self.of(state).fuel.get(player.name, 0)} of {params(state)['fuel_max']}")]

    def panels(self, state: GameState) -> list[Panel]:
        p = params(state)
        methods = tuple((TITLES[m], state.money(int(p["prices"].get(m, 0))), dice_text(state, m), NOTES[m])
                        for m in shared.METHODS)
        ts = self.of(state)
        users = tuple((name, TITLES[method], ts.fuel.get(name, "") if method == "car" else "")
                      for name, method in sorted(ts.methods.items())
                      if name in state.players and state.players[name].active)
        cars = tuple((n, ", ".join(map(str, fuel))) for n, fuel in sorted(ts.abandoned.items()) if fuel)
        intro = ("Each player uses one method of transportation at a time (XXIX.2), On Foot until they "
                 "buy another with BUY TRANSPORT (XXIX.1). A car is bought full "
                 f"({p['fuel_max']} fuel); fuel is sold at Gas Stations (XXII.4).")
        return [Panel("transport", "Transport", intro,
                      (Table("Methods of transportation (XXIX.3)", ("Method", "Cost", "Dice", "Besides"), methods),
                       Table("Who uses what", ("Player", "Method", "Fuel"), users),
                       Table("Abandoned cars (XXIX.4)", ("Square", "Fuel"), cars)), order=29)]
