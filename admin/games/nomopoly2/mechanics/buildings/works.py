"""Nomopoly II XXII's buildings themselves (the ``buildings`` module, buildings/mechanic.py, gives
them their effects): what each is called and costs, where each may stand, the BUILD and FUEL PRICE
commands, the rent they make (XXII.5), the Government's free buildings (XXI.6), a destroyed block's
refund (XXII.2), the Gas Stations' fuel price and the weekly income of Malls and Headquarters."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from admin.engine import hooks
from admin.engine.context import BANK
from admin.engine.declare import command
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.ownership import owner_of
from admin.games.nomopoly2 import api
from admin.games.nomopoly2.api import BUILT
from admin.games.nomopoly2.mechanics.shared import (
    BUILDINGS, a_building, block_of, buildings_on, centre, charge,
    destroy_building, has_building, split_on_credit,
)
from admin.engine.model import GameState, Player, Square

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

#: the block types each building may stand in (XXII.4); "industrial-centre": the centre square of
#: an Industrial block only; "All": every block type
ALL = ("residential", "industrial", "commercial", "government")
ALLOWED: dict[str, tuple[str, ...]] = {
    "springboard": ("residential", "commercial", "government"),
    "house": ("residential", "commercial", "government"),
    "hospital": ("residential", "commercial", "government"),
    "mall": ("commercial",),
    "store": ("commercial",),
    "corporate-headquarters": ("commercial",),
    "missile-silo": ("industrial-centre",),
    "anti-missile-battery": ALL,
    "legislative-building": ("residential", "government"),
    "gas-station": ("commercial", "government"),
    "factory": ("industrial",),
    "atm": ALL,
    "casino": ALL,
}
#: the short badge on the board picture
BADGES = {"springboard": "SPR", "house": "HSE", "hospital": "HOS", "mall": "MAL", "store": "STO",
          "corporate-headquarters": "HQ", "missile-silo": "SIL", "anti-missile-battery": "AMB",
          "legislative-building": "LEG", "gas-station": "GAS", "factory": "FAC", "atm": "ATM", "casino": "CAS"}
#: other names players write for a building
ALIASES = {"hq": "corporate-headquarters", "corporate-hq": "corporate-headquarters",
           "headquarters": "corporate-headquarters", "corporate-headquarter": "corporate-headquarters",
           "silo": "missile-silo", "amb": "anti-missile-battery", "antimissile-battery": "anti-missile-battery",
           "legislative": "legislative-building", "legislature": "legislative-building",
           "gas": "gas-station", "gasstation": "gas-station", "petrol-station": "gas-station"}


def building_name(text: str) -> str:
    """``Corporate Headquarters`` -> ``corporate-headquarters``; CommandError if no building."""
    key = re.sub(r"[\s_]+", "-", text.strip().lower()).strip("-")
    key = ALIASES.get(key, key)
    if key.endswith("s") and key[:-1] in BUILDINGS:
        key = key[:-1]
    if key not in BUILDINGS:
        raise CommandError(f'"{text.strip()}" is not a building; the buildings are: '
                           + ", ".join(b.replace("-", " ").upper() for b in BUILDINGS) + " (XXII.4).")
    return key


def _parse_build(rest: str, _line: object) -> Build:
    text, credit = split_on_credit(rest)
    m = re.fullmatch(r"\s*(.+?)\s+(?:ON\s+)?((?:square\s+|sq\s+)?#?\d+)\s*", text, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write BUILD <building> ON <square>, like BUILD HOUSE ON 14.")
    return Build(building_name(m.group(1)), parse_square(m.group(2)), credit)


def _parse_fuel(rest: str, _line: object) -> FuelPrice:
    m = re.fullmatch(r"\s*(?:AT\s+|ON\s+)?#?(\d+)\s+(?:TO\s+)?\$?(\d{1,9})\s*", rest, flags=re.IGNORECASE)
    if not m:
        raise CommandError("write FUEL PRICE <square> <price per 100 fuel>, like FUEL PRICE 14 60.")
    return FuelPrice(int(m.group(1)), int(m.group(2)))


@command("BUILD <building> ON <square>", parse=_parse_build, listing=122,
         summary="put a building on a square you own in a block (one a square an update; see the Buildings "
                 "page for prices and where each may go)",
         example="BUILD HOUSE ON 14", rules=("XXII.1", "XXII.3", "XXII.4"))
class Build:
    """``BUILD <building> ON <square> [ON CREDIT]`` (XXII.1)."""

    building: str
    square: int
    on_credit: bool = False


@command("FUEL PRICE <square> <price:price per 100 fuel>", keyword="FUEL PRICE", parse=_parse_fuel, listing=123,
         summary="set what 100 fuel costs at your commercial Gas Station", example="FUEL PRICE 14 60",
         rules=("XXII.4",))
class FuelPrice:
    """``FUEL PRICE <square> <price per 100 fuel>`` (XXII.4, Gas Station)."""

    square: int
    price: int


#: the module's parameters and their defaults (its ``defaults``)
DEFAULTS: dict[str, Any] = {
    # XXII.4's prices
    "cost_springboard": 100, "cost_house": 300, "cost_hospital": 250, "cost_mall": 500, "cost_store": 600,
    "cost_corporate_headquarters": 1000, "cost_missile_silo": 250, "cost_anti_missile_battery": 100,
    "cost_legislative_building": 500, "cost_gas_station": 100, "cost_factory": 500, "cost_atm": 50,
    "cost_casino": 500,
    # XXII.2: the refund when a block is destroyed, of each building's list price
    "refund_percent": 50,
    "springboard_back": 7,
    "house_percent": 30, "house_dollars": 150,
    "store_percent": 50, "store_dollars": 200,
    "hospital_health": 15,
    "mall_percent": 15, "mall_dollars": 200,
    "hq_percent_per_point": 1, "hq_dues": 100,
    "legislative_votes": 1,
    "government_fuel_price": 50,
    "factory_income_multiplier": 3, "factory_health_loss": 5,
    # standing ruling: "All" squares allow Government buildings too (XXI.6)?
    "government_builds_all_types": True,
}


def price(params: dict[str, Any], name: str) -> int:
    """A building's price (XXII.4), from the module's parameters."""
    return int(params["cost_" + name.replace("-", "_")])


# -- rent (XXII.5) ---------------------------------------------------------------------------------
def _round(x_times_100: int) -> int:
    """A whole number of dollars from hundredths of a dollar: the nearest, a half up (IV.1)."""
    return (x_times_100 + 50) // 100


def building_rent(state: GameState, params: dict[str, Any], number: int, rent: int) -> int:
    """The rent of square ``number`` after its buildings (XXII.4-XXII.5), from ``rent`` as the
    core left it (3 x n or the card's rent, a third when polluted)."""
    names = buildings_on(state, number)
    if not names:
        return rent
    if "factory" in names:
        return 0
    percent, dollars = 0, 0
    for name in ("house", "store"):
        if name in names:
            pc, dl = int(params[f"{name}_percent"]), int(params[f"{name}_dollars"])
            if rent * pc >= dl * 100:
                percent += pc
            else:
                dollars += dl
    if "corporate-headquarters" in names:
        bs = api.BUILDINGS.of(state)
        percent += bs.power.get(number, 0) * int(params["hq_percent_per_point"])
    return rent + _round(rent * percent) + dollars


def square_rent(ctx: UpdateContext, square: Square) -> int:
    """The rent for landing on ``square`` as every module makes it, before who pays it."""
    rent = square.number * int(ctx.params("ownership")["rent_per_number"])
    return hooks.call(ctx).adjust_rent(ctx, square, rent)


# -- what a square allows -----------------------------------------------------------------------
def why_not(state: GameState, number: int, name: str) -> str | None:
    """Why building ``name`` may not stand on square ``number`` (its block type, XXII.3), or None."""
    block = block_of(state, number)
    if block is None:
        return f"square {number} is in no block; buildings stand only in blocks (XXII.1)"
    allowed = ALLOWED[name]
    if allowed == ("industrial-centre",):
        if centre(block) != number:
            return (f"{a_building(name)} stands only on the centre square of an industrial block (XXII.4); square "
                    f"{number} is in {block.kind} block {block.id}")
    elif block.kind not in allowed:
        return (f"{a_building(name)} may stand only in a {' or '.join(allowed)} block (XXII.4); square {number} is "
                f"in {block.kind} block {block.id}")
    if name in buildings_on(state, number):
        return f"square {number} has {a_building(name)} already; a square holds one of each building (XXII.3)"
    return None


def government_buildings(state: GameState) -> list[str]:
    """The buildings the Government may build on its squares (XXI.6)."""
    params = {**DEFAULTS, **state.params(api.BUILDINGS.name)}
    return [b for b in BUILDINGS if "government" in ALLOWED[b]
            and (ALLOWED[b] != ALL or bool(params["government_builds_all_types"]))]


def build(ctx: UpdateContext, player: Player, cmd: Build) -> str:
    n, label = cmd.square, a_building(cmd.building)
    square = ctx.state.square(n)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {n} on the board")
    owner = owner_of(ctx.state, n)
    if owner != player.name:
        raise IllegalAction(f"you may build only on a square you own (XXII.1); square {n} is owned by "
                            f"{owner or 'nobody'}")
    block = block_of(ctx.state, n)
    if block is not None and block.kind == "government":
        raise IllegalAction(f"square {n} is a government block: the Government builds there, not its owner "
                            "(XXI.6, XXII.1)")
    why = why_not(ctx.state, n, cmd.building)
    if why:
        raise IllegalAction(why)
    built = BUILT.of(ctx)
    if n in built:
        raise IllegalAction(f"square {n} had a building built this update already; one a square an update "
                            "(XXII.1)")
    bs = api.BUILDINGS.of(ctx.state)
    have = len(bs.on.get(n, ()))
    behind = [m for m in block.squares if len(bs.on.get(m, ())) < have]  # type: ignore[union-attr]
    if behind:
        raise IllegalAction(f"square {n} has {have} building(s) and square(s) {', '.join(map(str, behind))} of "
                            f"its block fewer; each square of a block gets its building number {have} before "
                            f"any gets number {have + 1} (XXII.1)")
    cost = price(ctx.params(api.BUILDINGS.name), cmd.building)
    charge(ctx, player.name, BANK, cost, rule="XXII.4", reason=f"{label} on square {n}", on_credit=cmd.on_credit)
    bs.on.setdefault(n, []).append(cmd.building)
    built.add(n)
    return f"{player.name} built {label} on square {n} for ${cost}" + (" on credit" if cmd.on_credit else "") + "."


def build_free(ctx: UpdateContext, square: int, building: str, rule: str) -> None:
    """Put ``building`` on ``square`` free of charge to its owner (the Government, XXI.6; the
    Governor, XXXV.3, who pays the Admin Bank Account themselves). IllegalAction if the square's
    block does not allow it or has it already."""
    if building not in BUILDINGS:
        raise IllegalAction(f"{building!r} is not a building (XXII.4)")
    sq = ctx.state.square(square)
    if sq is None or sq.destroyed:
        raise IllegalAction(f"there is no square {square} on the board")
    why = why_not(ctx.state, square, building)
    if why:
        raise IllegalAction(why)
    api.BUILDINGS.of(ctx.state).on.setdefault(square, []).append(building)
    label, free = a_building(building), ", free of charge to its owner" if owner_of(ctx.state, square) else ""
    text = (f"The Government built {label} on square {square}{free}." if rule == "XXI.6"
            else f"{label[0].upper()}{label[1:]} was built on square {square}{free} ({rule}).")
    ctx.emit("building", text, rule=rule, data={"square": square, "building": building})


def destroy_all_on(ctx: UpdateContext, squares: list[int], *, rule: str) -> str:
    """XXII.2: every building on ``squares`` is destroyed; each square's owner is refunded half its
    price by the Admin Bank Account. Returns what was refunded, in words."""
    params = ctx.params(api.BUILDINGS.name)
    bs = api.BUILDINGS.of(ctx.state)
    said = []
    for n in sorted(squares):
        names = list(bs.on.get(n, []))
        for name in dict.fromkeys(names):  # each with what goes with it (shared.destroy_building)
            destroy_building(ctx.state, n, name)
        if not names:
            continue
        owner = ctx.state.players.get(owner_of(ctx.state, n) or "")
        refund = _round(sum(price(params, b) for b in names) * int(params["refund_percent"]))
        if owner is not None and owner.active and refund > 0:
            ctx.transfer(BANK, owner.name, refund, rule=rule, reason=f"refund for the buildings on square {n}")
            said.append(f"{owner.name} was refunded ${refund} for the {', '.join(b.replace('-', ' ') for b in names)} "
                        f"on square {n}")
        else:
            said.append(f"the {', '.join(b.replace('-', ' ') for b in names)} on square {n} went unrefunded")
    return "; ".join(said)


def fuel_price(state: GameState, number: int) -> int:
    """What 100 fuel costs at the Gas Station on ``number`` (XXII.4): the Government's price in a
    Government block (and at a commercial one whose owner has set none)."""
    params = {**DEFAULTS, **state.params(api.BUILDINGS.name)}
    block = block_of(state, number)
    own = api.BUILDINGS.of(state).fuel_price.get(number)
    if block is not None and block.kind != "government" and own is not None:
        return own
    return int(params["government_fuel_price"])


def set_fuel_price(ctx: UpdateContext, player: Player, cmd: FuelPrice) -> str:
    n = cmd.square
    if not has_building(ctx.state, n, "gas-station"):
        raise IllegalAction(f"square {n} has no Gas Station (XXII.4)")
    owner = owner_of(ctx.state, n)
    if owner != player.name:
        raise IllegalAction(f"only the owner of square {n} sets its fuel price (XXII.4); its owner is "
                            f"{owner or 'nobody'}")
    block = block_of(ctx.state, n)
    if block is None or block.kind != "commercial":
        raise IllegalAction(f"the Gas Station on square {n} is a Government one, whose price is fixed at "
                            f"${fuel_price(ctx.state, n)} per 100 fuel; only a commercial one's owner sets it "
                            "(XXII.4)")
    api.BUILDINGS.of(ctx.state).fuel_price[n] = cmd.price
    return f"{player.name} set the fuel price at the Gas Station on square {n} to ${cmd.price} per 100 fuel."


# -- the week's end --------------------------------------------------------------------------------
def _weekly(ctx: UpdateContext) -> None:
    """A Mall pays its owner 15% of its rent or $200, whichever is more; a Corporate Headquarters
    $100 of dues (XXII.4); both from the Admin Bank Account."""
    params = ctx.params(api.BUILDINGS.name)
    bs = api.BUILDINGS.of(ctx.state)
    for n in sorted(bs.on):
        owner = ctx.state.players.get(owner_of(ctx.state, n) or "")
        if owner is None or not owner.active:
            continue
        square = ctx.state.square(n)
        if "mall" in bs.on[n] and square is not None:  # None: a building on no square, by hand
            rent = square_rent(ctx, square)
            income = max(_round(rent * int(params["mall_percent"])), int(params["mall_dollars"]))
            ctx.transfer(BANK, owner.name, income, rule="XXII.4", reason=f"the Mall on square {n}", kind="income")
            ctx.emit("income", f"{owner.name} received ${income} from the Mall on square {n} (its rent is "
                               f"${rent}).", player=owner.name, rule="XXII.4", data={"square": n, "amount": income})
        if "corporate-headquarters" in bs.on[n]:
            dues = int(params["hq_dues"])
            ctx.transfer(BANK, owner.name, dues, rule="XXII.4", reason=f"corporate dues, square {n}", kind="income")
            ctx.emit("income", f"{owner.name} received ${dues} in corporate dues from the Corporate "
                               f"Headquarters on square {n}.", player=owner.name, rule="XXII.4",
                     data={"square": n, "amount": dues})


def building_price(state: GameState, name: str) -> int:
    """What building ``name`` costs (XXII.4), as this section's parameters say (shared.building_price)."""
    return price({**DEFAULTS, **state.params(api.BUILDINGS.name)}, name)
