"""The players' commands of XXIX (and buying fuel at a Gas Station, XXII.4): BUY TRANSPORT,
DRIVE TO, ABANDON CAR, RETRIEVE CAR, BUY FUEL."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from admin.engine.board import distance
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec
from admin.engine.movement import drive, jump
from admin.engine.syntax import no_args, parse_square, quote
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly2.api import DRIVES
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.transport.state import (LABELS, of, abandon, method_of, params,
                                                 set_method)
from admin.library.ownership import owner_of
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState

#: what players may write for each method (lower case, hyphens read as spaces)
NAMES = {"foot": "foot", "on foot": "foot", "walking": "foot", "clogs": "clogs", "pogo stick": "pogo-stick",
         "pogo": "pogo-stick", "krazy carpet": "krazy-carpet", "krazy karpet": "krazy-carpet",
         "crazy carpet": "krazy-carpet", "carpet": "krazy-carpet", "helicopter": "helicopter", "car": "car",
         "springy shoes": "springy-shoes", "springy": "springy-shoes"}
_METHOD_LIST = "ON FOOT, CLOGS, POGO STICK, KRAZY CARPET, HELICOPTER, CAR or SPRINGY SHOES"


def method_named(text: str) -> str:
    words = text.lower().replace("-", " ").replace("_", " ").split()
    if words and words[0] in ("a", "an", "the"):
        words = words[1:]
    name = NAMES.get(" ".join(words))
    if name is None:
        raise CommandError(f"{quote(text)} is not a method of transportation; write {_METHOD_LIST} (XXIX.3).")
    return name


def _parse_buy(rest: str, _line: object) -> BuyTransport:
    text, credit = shared.split_on_credit(rest)
    if not text.strip():
        raise CommandError(f"name the method: BUY TRANSPORT {_METHOD_LIST}.")
    return BuyTransport(method_named(text), credit)


def _parse_drive(rest: str, _line: object) -> DriveTo:
    text = re.sub(r"^to\b\s*", "", rest.strip(), flags=re.IGNORECASE)
    if not text:
        raise CommandError("name the square: DRIVE TO <square>, like DRIVE TO 35.")
    return DriveTo(parse_square(text))


def _parse_abandon(rest: str, _line: object) -> AbandonCar:
    no_args("ABANDON CAR", rest)
    return AbandonCar()


def _parse_retrieve(rest: str, _line: object) -> RetrieveCar:
    no_args("RETRIEVE CAR", rest)
    return RetrieveCar()


_FUEL = re.compile(r"^(?P<amount>\d+|full)?\s*(?:\bat\s+(?P<at>.+))?$", re.IGNORECASE)


def _parse_fuel(rest: str, _line: object) -> BuyFuel:
    text, credit = shared.split_on_credit(rest)
    m = _FUEL.match(text.strip())
    if not m:
        raise CommandError(f"{quote(text)} is not an amount of fuel; write BUY FUEL 200, BUY FUEL FULL "
                           "or BUY FUEL 200 AT 35, with ON CREDIT at the end to charge your credit card.")
    amount = m.group("amount")
    if amount is not None and amount.isdecimal() and int(amount) < 1:
        raise CommandError("buy at least 1 fuel, or BUY FUEL FULL to fill the tank.")
    at = parse_square(m.group("at")) if m.group("at") else None
    return BuyFuel(int(amount) if amount and amount.isdecimal() else None, at, credit)


@command("BUY TRANSPORT <method> [ON CREDIT]", keyword="BUY TRANSPORT", parse=_parse_buy, cmd="transport-buy",
         listing=290, rules=("XXIX.1", "XXIX.2"),
         summary="switch to clogs ($50), a pogo stick ($150), a Krazy Carpet ($200), a helicopter ($250), a car "
                 "($500, full of fuel), springy shoes ($150) or on foot (free); it replaces the method you had",
         example="BUY TRANSPORT HELICOPTER")
class BuyTransport:
    """``BUY TRANSPORT <method> [ON CREDIT]`` (XXIX.1)."""

    method: str
    on_credit: bool = False


@command("DRIVE TO <square>", parse=_parse_drive, cmd="transport-drive", listing=291, rules=("XXIX.3",),
         summary="in your car, once an update, go straight to a square for 5 x distance x distance fuel (never "
                 "to a square named Blackjack)", example="DRIVE TO 35")
class DriveTo:
    """``DRIVE TO <square>`` (XXIX.3)."""

    square: int


@command("ABANDON CAR", keyword="ABANDON CAR", parse=_parse_abandon, cmd="transport-abandon", listing=292,
         rules=("XXIX.4",), summary="leave your car, with its fuel, on your square for anyone to take; you go "
                                    "on foot", example="ABANDON CAR")
class AbandonCar:
    """``ABANDON CAR`` (XXIX.4)."""


@command("RETRIEVE CAR", keyword="RETRIEVE CAR", parse=_parse_retrieve, cmd="transport-retrieve", listing=293,
         rules=("XXIX.5",), summary="take an abandoned car from the square you are on, with the fuel left in it",
         example="RETRIEVE CAR")
class RetrieveCar:
    """``RETRIEVE CAR`` (XXIX.5)."""


@command("BUY FUEL [<amount>] [AT <at:square>] [ON CREDIT]", keyword="BUY FUEL", parse=_parse_fuel,
         usage="BUY FUEL [<amount>|FULL] [AT <square>] [ON CREDIT]", cmd="transport-fuel", listing=294,
         rules=("XXIX.3",), summary="fuel for your car at a Gas Station you are on or reached in your last move "
                                    "($50 per 100 at a Government one; free at your own)",
         example="BUY FUEL 200")
class BuyFuel:
    """``BUY FUEL [<amount>|FULL] [AT <square>] [ON CREDIT]`` (XXII.4); no amount: fill up."""

    amount: int | None = None
    at: int | None = None
    on_credit: bool = False


def command_specs() -> tuple[CommandSpec, ...]:
    return handled((BuyTransport, buy_transport), (DriveTo, drive_to), (AbandonCar, abandon_car),
                   (RetrieveCar, retrieve_car), (BuyFuel, buy_fuel))


def buy_transport(ctx: UpdateContext, player: Player, cmd: BuyTransport) -> str:
    state, name = ctx.state, player.name
    current, method = method_of(state, name), cmd.method
    if method == current:
        raise IllegalAction(f"you are {'on foot' if method == 'foot' else 'using ' + LABELS[method]} already "
                            "(XXIX.2: one method at a time)" + ("; fuel is bought at a Gas Station: BUY FUEL"
                                                                 if method == "car" else ""))
    p = params(state)
    price = int(p["prices"].get(method, 0))
    if price:
        shared.charge(ctx, name, BANK, price, rule="XXIX.1", reason=f"{LABELS[method]} (XXIX.3)",
                      on_credit=cmd.on_credit)
    left = ""
    if current == "car" and p["replaced_car"] == "abandoned":
        fuel = abandon(state, name, player.square)
        left = f"; their old car is left abandoned on square {player.square} with {fuel} fuel"
    elif current != "foot":
        left = f"; {LABELS[current]} {'are' if current in ('clogs', 'springy-shoes') else 'is'} given up"
    set_method(state, name, method)
    if method == "foot":
        return f"{name} goes on foot from now on{left}."
    if method == "car":
        of(state).fuel[name] = int(p["fuel_max"])
    full = f" ({p['fuel_max']} fuel)" if method == "car" else ""
    credit = " on credit" if cmd.on_credit else ""
    return f"{name} bought {LABELS[method]}{full} for {state.money(price)}{credit} and uses {'them' if method in ('clogs', 'springy-shoes') else 'it'} now{left}."


def _car_user(state: GameState, name: str, doing: str) -> None:
    method = method_of(state, name)
    if method != "car":
        raise IllegalAction(f"you are {'on foot' if method == 'foot' else 'using ' + LABELS[method]}, not a car; "
                            f"only a car's user may {doing}")


def drive_to(ctx: UpdateContext, player: Player, cmd: DriveTo) -> str:
    state, name = ctx.state, player.name
    _car_user(state, name, "DRIVE TO a square (XXIX.3)")
    p = params(state)
    drives = DRIVES.of(ctx)
    if drives.get(name, 0) >= int(p["drives_per_update"]):
        raise IllegalAction(f"a car may drive to a square {int(p['drives_per_update'])} time(s) an update "
                            "(XXIX.3), and you have already")
    square = state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    here = player.square
    if square.number == here:
        raise IllegalAction(f"you are on square {here} already")
    if (square.name or "").strip().casefold() == "blackjack":
        raise IllegalAction(f"square {square.number} is named Blackjack, and no car may drive to a square "
                            "named Blackjack (XXIX.3)")
    n = distance(state, here, square.number, int(state.params("board").get("columns", 10)))
    if n is None:
        raise IllegalAction(f"square {square.number} cannot be reached from square {here} by north, south, "
                            "east or west steps (VI.13)")
    per = int(p["drive_fuel_per_distance_squared"])
    cost, ts = per * n * n, of(state)
    fuel = ts.fuel.get(name, 0)
    if cost > fuel:
        raise IllegalAction(f"square {square.number} is {n} from square {here}: {per} x {n} x {n} = {cost} fuel, "
                            f"and your car has {fuel} (XXIX.3); BUY FUEL at a Gas Station, or drive nearer")
    ts.fuel[name] = fuel - cost
    drives[name] = drives.get(name, 0) + 1
    reason = f"a drive of distance {n} in a car, {cost} fuel"
    (jump if p["drive_lands"] else drive)(ctx, player, square.number, rule="XXIX.3", reason=reason)
    return (f"{name} drove from square {here} to square {square.number} (distance {n}): {cost} fuel burnt, "
            f"{fuel - cost} left.")


def abandon_car(ctx: UpdateContext, player: Player, cmd: AbandonCar) -> str:
    _car_user(ctx.state, player.name, "abandon it (XXIX.4)")
    fuel = abandon(ctx.state, player.name, player.square)
    return f"{player.name} abandoned their car on square {player.square} with {fuel} fuel and goes on foot."


def retrieve_car(ctx: UpdateContext, player: Player, cmd: RetrieveCar) -> str:
    state, name = ctx.state, player.name
    ts = of(state)
    cars = ts.abandoned.get(player.square)
    if not cars:
        where = ", ".join(str(n) for n, f in sorted(ts.abandoned.items()) if f)
        raise IllegalAction(f"there is no abandoned car on square {player.square}, where you are (XXIX.5)"
                            + (f"; there are abandoned cars on square(s) {where}" if where else ""))
    current = method_of(state, name)
    if current == "car":
        raise IllegalAction("you have a car already and may use one method at a time (XXIX.2); ABANDON CAR first")
    fuel = max(cars)  # several on the square: the fullest
    cars.remove(fuel)
    if not cars:
        del ts.abandoned[player.square]
    set_method(state, name, "car")
    ts.fuel[name] = fuel
    given = f", giving up {LABELS[current]}" if current != "foot" else ""
    return f"{name} retrieved the abandoned car on square {player.square}, with {fuel} fuel{given}."


def _station_kind(state: GameState, number: int) -> str:
    block = shared.block_of(state, number)
    if block is not None:
        return "government" if block.kind == "government" else "commercial"
    return "commercial" if owner_of(state, number) else "government"


def buy_fuel(ctx: UpdateContext, player: Player, cmd: BuyFuel) -> str:
    state, name = ctx.state, player.name
    _car_user(state, name, "buy fuel (XXII.4)")
    ts = of(state)
    stations = [n for n in ts.reached.get(name, []) if shared.has_building(state, n, "gas-station")]
    if shared.has_building(state, player.square, "gas-station"):
        stations = [n for n in stations if n != player.square] + [player.square]
    if not stations:
        raise IllegalAction(f"fuel is sold at a Gas Station you land on, pass or occupy (XXII.4); square "
                            f"{player.square}, where you are, has none and your last move reached none")
    if cmd.at is not None and cmd.at not in stations:
        raise IllegalAction(f"square {cmd.at} is not a Gas Station you are on or reached in your last move; "
                            f"you may buy fuel AT {' or '.join(map(str, stations))} (XXII.4)")
    station = cmd.at if cmd.at is not None else stations[-1]
    p = params(state)
    fuel, most = ts.fuel.get(name, 0), int(p["fuel_max"])
    room = most - fuel
    if room <= 0:
        raise IllegalAction(f"your car is full ({fuel} fuel; a car holds {most}, XXIX.3)")
    want = room if cmd.amount is None else cmd.amount
    added = min(want, room)
    paid_for = want if p["pay_for_spill"] else added
    owner, kind = owner_of(state, station), _station_kind(state, station)
    if owner == name:
        per, payee = 0, BANK
    else:  # the price is the buildings section's (XXII.4: the Government's, or what the owner set)
        per = int(shared.fuel_price_at(state, station) or 0)
        payee = (owner if p["government_fuel_to"] == "owner" and owner else BANK) if kind == "government" \
            else owner or BANK
    cost = (paid_for * per + 50) // 100  # to the nearest dollar, half up
    if cost:
        shared.charge(ctx, name, payee, cost, rule="XXII.4", reason=f"{paid_for} fuel at the Gas Station on square "
                      f"{station}", on_credit=cmd.on_credit)
    ts.fuel[name] = fuel + added
    price = "free, their own" if owner == name else f"{state.money(cost)} at {state.money(per)} per 100"
    to = "" if not cost else " to the Admin Bank Account" if payee == BANK else f" to {payee}"
    spill = f"; {want - added} more would not fit (a car holds {most}, XXIX.3)" if want > added else ""
    return (f"{name} bought {added} fuel at the {kind} Gas Station on square {station} ({price}{to}); the car "
            f"has {fuel + added}{spill}.")
