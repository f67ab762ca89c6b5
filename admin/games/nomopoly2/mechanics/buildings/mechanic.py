"""Nomopoly II XXII: buildings. The owner of a square in a (non-Government) block builds on it
(``BUILD <building> ON <n>``): one building a square an update, one of each kind a square, evenly
across the block, each kind only on the block types XXII.4 allows. What each does: a Springboard
throws its lander 7 squares back; a House and a Store raise the rent; a Hospital heals; a Mall and a
Corporate Headquarters pay their owner weekly; a Factory stops rent, hurts its lander and multiplies
the Industrial income (paid by the blocks module); a Legislative Building gives an extra vote; a Gas
Station sells fuel at its owner's price. Missile Silos, Anti-Missile Batteries, ATMs and Casinos are
kept here; the missiles, bank and casinos sections give them their effects.

XXII.5 and the order of every rent modifier (a standing ruling, docs/rulings.md):
3 x n, or the card's rent (XIV.4); a third of that on a polluted square (VI.14); then, here, the
buildings: a Factory makes it 0; otherwise each House and Store adds its percentage or its dollars,
whichever is more on that rent, and each corporate power point 1%; the percentages are added
together and applied to that rent first (rounded to the nearest dollar, IV.1), the dollar amounts
after. A Residential block's lander pays each square's rent so computed; a Commercial block's tax is
3% of the rent collected."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import predecessor
from admin.engine.declare import handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.movement import jump
from admin.library.health import change_health
from admin.library.ownership import owner_of, squares_owned
from admin.games.nomopoly2.api import SPRINGBOARD_CHAIN, Builds
from admin.games.nomopoly2.mechanics.shared import (
    BUILDINGS, BuildingsState, block_of, building_label, buildings_on, has_building,
)
from admin.engine.model import VoteGrant
from admin.games.nomopoly2.mechanics.buildings.works import (
    ALLOWED, BADGES, DEFAULTS, Build, FuelPrice, _weekly, build, build_free, building_name,
    building_price, building_rent, destroy_all_on, fuel_price, government_buildings, price, set_fuel_price,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.module import CommandSpec


class BuildingsModule(Mechanic[BuildingsState, None], Builds):
    name = "buildings"
    rules = ("XXII.1", "XXII.2", "XXII.3", "XXII.4", "XXII.5")
    stated = {"XXII.4": {
        "cost_springboard": ("Springboard (Residential, Commercial, Government; ${})",),
        "cost_house": ("House (Residential, Commercial, Government; ${})",),
        "cost_hospital": ("Hospital (Residential, Commercial, Government; ${})",),
        "cost_mall": ("Mall (Commercial; ${})",),
        "cost_store": ("Store (Commercial; ${})",),
        "cost_corporate_headquarters": ("Corporate Headquarters (Commercial; ${})",),
        "cost_missile_silo": ("Missile Silo (the centre square of an Industrial block only; ${})",),
        "cost_anti_missile_battery": ("Anti-Missile Battery (any block; ${})",),
        "cost_legislative_building": ("Legislative Building (Residential, Government; ${})",),
        "cost_gas_station": ("Gas Station (Commercial, Government; ${})",),
        "cost_factory": ("Factory (Industrial; ${})",),
        "cost_atm": ("ATM (any block; ${})",),
        "cost_casino": ("Casino (any block; ${})",),
        "springboard_back": ("jumps back {} squares",),
        "hospital_health": ("its square gains {} health if they own",),
        "mall_percent": ("is paid, each week, {}% of the square's rent",),
        "hq_percent_per_point": ("raises the square's rent by {}%",),
        "hq_dues": ("is paid ${} of corporate dues",),
        "government_fuel_price": ("sells 100 fuel for ${}",),
        "factory_health_loss": ("pays no rent and loses {} health",),
    }}
    defaults = DEFAULTS
    minimums = {k: 0 for k, v in defaults.items() if isinstance(v, int) and not isinstance(v, bool)}
    maximums = {'springboard_back': 100}
    summary = "Build on your squares in a block: houses, stores, hospitals, malls, factories and more (XXII)."
    State = BuildingsState
    requires = ("blocks",)

    def government_buildings(self, state: GameState) -> list[str]:
        return government_buildings(state)

    def build_free(self, ctx: UpdateContext, square: int, building: str, rule: str) -> None:
        build_free(ctx, square, building, rule)

    def destroy_all_on(self, ctx: UpdateContext, squares: list[int], *, rule: str) -> str:
        return destroy_all_on(ctx, squares, rule=rule)

    def fuel_price(self, state: GameState, number: int) -> int:
        return fuel_price(state, number)

    def building_price(self, state: GameState, name: str) -> int:
        return building_price(state, name)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Build, build), (FuelPrice, set_fuel_price))

    # -- lives of squares -----------------------------------------------------------------------
    def on_square_added(self, state: GameState, square: Square) -> None:
        bs = self.of(state)
        for table in (bs.on, bs.power, bs.fuel_price):
            table.pop(square.number, None)

    # -- effects ---------------------------------------------------------------------------------
    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        names = buildings_on(ctx.state, square.number)
        if not names:
            return
        p = ctx.params(self.name)
        n = square.number
        if "hospital" in names:
            block = block_of(ctx.state, n)
            mine = block is not None and any(owner_of(ctx.state, m) == player.name for m in block.squares)
            if block is not None and (block.kind == "government" or mine):
                change_health(ctx, player, int(p["hospital_health"]), rule="XXII.4",
                              reason=f"the Hospital on square {n}")
        if "factory" in names and player.active:
            change_health(ctx, player, -int(p["factory_health_loss"]), rule="XXII.4",
                          reason=f"the Factory on square {n}")
        if "legislative-building" in names and player.active:
            week = ctx.state.week + (1 if ctx.slot.closes_voting or ctx.slot.week_end else 0)
            extra = int(p["legislative_votes"])
            ctx.state.vote_grants.append(VoteGrant(player=player.name, extra=extra, week=week,
                                                   reason=f"the Legislative Building on square {n}"))
            ctx.emit("votes", f"{player.name} landed on the Legislative Building on square {n}: {extra} extra "
                              f"vote(s) on every proposal voted on in week {week}.",
                     player=player.name, rule="XXII.4", data={"week": week, "extra": extra})
        if "springboard" in names and player.active:
            # the Springboards this player jumped from in the chain of landings under way: coming
            # back to one (a ring of Springboards, or grease sliding back onto it) ends the chain
            chain = SPRINGBOARD_CHAIN.of(ctx).setdefault(player.name, set())
            if n in chain:
                return
            dest = n
            for _ in range(int(p["springboard_back"])):
                dest = predecessor(ctx.state, dest)
            if dest == n:
                return
            chain.add(n)
            try:
                jump(ctx, player, dest, rule="XXII.4", reason=f"the Springboard on square {n}")
            finally:
                chain.discard(n)

    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        return building_rent(ctx.state, ctx.params(self.name), square.number, rent)

    def on_rent_paid(self, ctx: UpdateContext, payer: Player, owner: Player, square: Square, amount: int) -> None:
        """A Corporate Headquarters gains a point of corporate power for each rent another player pays."""
        if has_building(ctx.state, square.number, "corporate-headquarters") and payer.name != owner.name:
            bs = self.of(ctx.state)
            bs.power[square.number] = bs.power.get(square.number, 0) + 1
            ctx.emit("corporate-power", f"Square {square.number}'s Corporate Headquarters gained a point of "
                                        f"corporate power (now {bs.power[square.number]}).",
                     rule="XXII.4", data={"square": square.number, "power": bs.power[square.number]})

    def on_update_end(self, ctx: UpdateContext) -> None:
        bs = self.of(ctx.state)
        for n in [n for n in bs.power if not has_building(ctx.state, n, "corporate-headquarters")]:
            del bs.power[n]  # a Headquarters destroyed by any means takes its power with it
        if ctx.slot.week_end:
            _weekly(ctx)

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        bs = self.of(state)
        owned = squares_owned(state, player.name)
        mine = [f"{n}: {', '.join(building_label(b) for b in bs.on[n])}"
                + (f" ({bs.power[n]} corporate power)" if bs.power.get(n) else "")
                for n in sorted(bs.on) if n in owned]
        return [(46, f"  Your buildings: {'; '.join(mine)}")] if mine else []

    # -- worth and the site -------------------------------------------------------------------------
    def worth(self, state: GameState, player: Player) -> int:
        """XXX.1: the price of every building on the player's squares, and $10 a corporate power point."""
        params = {**self.defaults, **state.params(self.name)}
        bs = self.of(state)
        total = 0
        for n in squares_owned(state, player.name) & bs.on.keys():
            total += sum(price(params, b) for b in bs.on[n]) + 10 * bs.power.get(n, 0)
        return total

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        bs = self.of(state)
        if key == "buildings":
            names = [building_name(str(v)) for v in (value or [])]
            if names:
                bs.on[square.number] = names
            else:
                bs.on.pop(square.number, None)
        elif key == "corporate_power":
            bs.power[square.number] = int(value)
        elif key == "fuel_price":
            bs.fuel_price[square.number] = int(value)
        else:
            return False
        return True

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        bs = self.of(state)
        names = list(bs.on.get(square.number, ()))
        return [Fact("buildings", names, column="Buildings", kind="text", order=56,
                     shown=", ".join(building_label(b) for b in names)),
                Fact("corporate_power", bs.power.get(square.number, 0))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        bs = self.of(state)
        names = bs.on.get(square.number)
        if not names:
            return None
        power = bs.power.get(square.number, 0)
        note = "buildings: " + ", ".join(building_label(b) for b in names) \
            + (f" ({power} corporate power)" if power else "")
        # one badge: the building's own, or how many there are (the board shows two badges a square)
        flag = ((56, BADGES[names[0]], building_label(names[0])) if len(names) == 1
                else (56, f"{len(names)}B", f"{len(names)} buildings"))
        return SquareLook(notes=((56, note),), flags=(flag,))

    def panels(self, state: GameState) -> list[Panel]:
        params = {**self.defaults, **state.params(self.name)}
        kinds = tuple((building_label(b), state.money(price(params, b)),
                       ", ".join("centre of an industrial block" if k == "industrial-centre" else k
                                 for k in ALLOWED[b]))
                      for b in BUILDINGS)
        bs = self.of(state)
        rows = tuple((n, owner_of(state, n) or "nobody", ", ".join(map(building_label, bs.on[n])), bs.power.get(n, 0),
                      fuel_price(state, n) if "gas-station" in bs.on[n] else "")
                     for n in sorted(bs.on))
        intro = ("The owner of a square in a block (not a Government one) may build on it: one building a "
                 "square an update, one of each kind a square, and no square of a block gets its next "
                 "building before every square of the block has as many (XXII.1-XXII.3). A destroyed "
                 f"block's buildings are refunded {params['refund_percent']}% of their price (XXII.2).")
        return [Panel("buildings", "Buildings", intro,
                      (Table("What may be built", ("Building", "Price", "Block types"), kinds),
                       Table("Every building", ("Square", "Owner", "Buildings", "Corporate power",
                                                "Fuel price per 100"), rows)), order=22)]
