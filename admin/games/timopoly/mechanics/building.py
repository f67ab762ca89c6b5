"""Timopoly's Noms and Rockets, selling and mortgages (NOMS, ROCKETS, SELLING CATEGORIES,
MORTGAGES): building evenly on complete colour groups, selling back at half price, deeds sold
between players, and mortgages as the standing ruling reads them (half the price, no rant while
mortgaged, lifted for that and 10 % more)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Callable

from admin.engine.context import BANK, UpdateContext
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.errors import CommandError, IllegalAction
from admin.library.interactions import replace_offer, replaced_text
from admin.games.timopoly.mechanics.deeds import TimoDeedsModule
from admin.games.timopoly.mechanics.holdings import (
    Deed, _improved, _levels, _mortgage, _sell_nom, _sell_rocket, mortgage_value, owns_group,
)
from admin.games.timopoly.mechanics.spaces import Space, find, group, space
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.interactions import Interaction


def _build_parser(action: str) -> Callable[[str, object], Build]:
    def parse(rest: str, line: object) -> Build:
        m = re.fullmatch(r"(?:on\s+)?(.+?)(?:\s+x\s*(\d{1,2}))?", rest.strip(), re.IGNORECASE)
        if not rest.strip() or not m:
            raise CommandError(f"name the space, like {action.upper().replace('-', ' ')} ON Novella.")
        return Build(action, m.group(1).strip(), int(m.group(2) or 1))
    return parse


def _parse_sell(rest: str, line: object) -> SellDeed:
    m = re.fullmatch(r"(.+?)\s+to\s+(\S+)\s+for\s+(?:fn\s*)?(\d{1,6})", rest.strip(), re.IGNORECASE)
    if not m:
        raise CommandError("write SELL <space> TO <player> FOR <amount>, like SELL Novella TO bob FOR 40.")
    return SellDeed(m.group(1).strip(), m.group(2), int(m.group(3)))


@command("BUY NOM", keyword="BUY NOM", usage="BUY NOM ON <space> [x<count>]", parse=_build_parser("buy-nom"),
         listing=30, summary="build Noms, evenly, on a colour group you control whole", example="BUY NOM ON 7 x2",
         rules=("XIII.1",))
@command("SELL NOM ON <space>", keyword="SELL NOM", parse=_build_parser("sell-nom"), listing=31,
         summary="sell a Nom back to the Fandom for half its price", example="SELL NOM ON 7", rules=("XV.2",))
@command("BUY ROCKET ON <space>", keyword="BUY ROCKET", parse=_build_parser("buy-rocket"), listing=32,
         summary="turn five Noms on a space into a Rocket", example="BUY ROCKET ON 7", rules=("XIV.1",))
@command("SELL ROCKET ON <space>", keyword="SELL ROCKET", parse=_build_parser("sell-rocket"), listing=33,
         summary="sell a Rocket back to the Fandom for half its price", example="SELL ROCKET ON 7", rules=("XV.2",))
@command("MORTGAGE <space>", parse=_build_parser("mortgage"), listing=34,
         summary="borrow half a deed's price from the Fandom against it", example="MORTGAGE 7", rules=("XVI.1",))
@command("UNMORTGAGE <space>", parse=_build_parser("unmortgage"), listing=35,
         summary="repay a mortgage, with interest, and have the deed back", example="UNMORTGAGE 7",
         rules=("XVI.1",), cmd="timo-build")  # on the innermost, applied first: "build" is Nomopoly II's
class Build:
    """``BUY NOM ON <space> [x2]``, ``SELL NOM ON <space>``, ``BUY ROCKET ON <space>``,
    ``SELL ROCKET ON <space>``, ``MORTGAGE <space>``, ``UNMORTGAGE <space>``."""

    action: str
    space: str
    count: int = 1


@command("SELL <space> TO <player> FOR <amount>", parse=_parse_sell, cmd="timo-sell", listing=40,
         summary="offer a deed to a player for an amount (they answer ACCEPT)", example="SELL 7 TO bob FOR 30",
         rules=("XV.1",))
class SellDeed:
    """``SELL <space> TO <player> FOR <amount>``: offer a deed to a player, who ACCEPTs or not."""

    space: str
    buyer: str
    amount: int


class TimoBuildingModule(Mechanic[None, None]):
    name = "timo-building"
    rules = ("XIII.1", "XIII.2", "XIII.3", "XIII.4", "XIV.1", "XV.1", "XV.2", "XVI.1", "XI.9")
    stated = {"XIII.3": {"max_noms": ("A category holds {} Noms at most",)},
              "XV.2": {"max_noms": ("leaves {} Noms standing",)},
              "XVI.1": {"unmortgage_interest": ("paying back the loan and {} % more",)}}
    defaults = {"max_noms": 5, "sell_back": 50, "mortgage": 50, "unmortgage_interest": 10}
    summary = "Noms and Rockets built evenly on complete groups; selling back; selling deeds; mortgages."
    requires = ("timo-deeds",)

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((Build, build), (SellDeed, sell_deed))

    def resolve_interaction(self, ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
        p = inter.payload
        spec, buyer, seller = space(ctx.state, int(p["space"])), p["buyer"], inter.proposer
        deeds = TimoDeedsModule.of(ctx.state).deeds
        deed = deeds.get(spec.number)
        if answers[buyer] != "accept":
            return f"{buyer} did not buy {spec.name} from {seller}"
        if deed is None or deed.owner != seller or _improved(ctx.state, spec):
            return f"{spec.name} could no longer be sold"
        if ctx.state.players[buyer].money < p["amount"]:
            return f"{buyer} could not pay {ctx.state.money(p['amount'])} for {spec.name}"
        ctx.transfer(buyer, seller, int(p["amount"]), rule="XV.1", reason=f"buying {spec.name}", kind="purchase")
        deed.owner = buyer
        return f"{buyer} bought {spec.name} from {seller} for {ctx.state.money(p['amount'])}"


def _mine(ctx: UpdateContext, player: Player, text: str) -> tuple[Space, Deed]:
    spec = find(ctx.state, text)
    deed = TimoDeedsModule.of(ctx.state).deeds.get(spec.number)
    if deed is None or deed.owner != player.name:
        raise IllegalAction(f"you do not control {spec.name}" + (f"; {deed.owner} does" if deed else ""))
    return spec, deed


def build(ctx: UpdateContext, player: Player, cmd: Build) -> str:
    spec, deed = _mine(ctx, player, cmd.space)
    fn = {"buy-nom": _buy_nom, "sell-nom": _sell_nom, "buy-rocket": _buy_rocket,
          "sell-rocket": _sell_rocket, "mortgage": _mortgage, "unmortgage": _unmortgage}[cmd.action]
    return "; ".join(fn(ctx, player, spec, deed) for _ in range(cmd.count if cmd.action == "buy-nom" else 1)) + "."


def _buy_nom(ctx: UpdateContext, player: Player, spec: Space, deed: Deed) -> str:
    p = ctx.params(TimoBuildingModule.name)
    if spec.kind != "category" or not owns_group(ctx.state, player.name, spec):
        raise IllegalAction(f"Noms go only on categories of a colour group you control whole (XIII.1); "
                            f"{spec.name} is in {spec.group or 'no colour group'}")
    if any(TimoDeedsModule.of(ctx.state).deeds[s.number].mortgaged for s in group(ctx.state, spec.group)):
        raise IllegalAction(f"a category of {spec.group} is mortgaged: lift the mortgage first")
    if deed.rocket or deed.noms >= int(p["max_noms"]):
        raise IllegalAction(f"{spec.name} has {'a Rocket' if deed.rocket else 'five Noms'}: no more Noms (XIII.3)")
    if deed.noms > min(_levels(ctx.state, spec)):
        raise IllegalAction(f"build evenly (XIII.2): {spec.name} has {deed.noms} Nom(s) and another "
                            f"category of {spec.group} has {min(_levels(ctx.state, spec))}")
    ctx.transfer(player.name, BANK, spec.nom, rule="XIII.1", reason=f"a Nom on {spec.name}", voluntary=True, kind="purchase")
    deed.noms += 1
    return f"{player.name} put a Nom on {spec.name} for {ctx.state.money(spec.nom)} ({deed.noms} now)"


def _buy_rocket(ctx: UpdateContext, player: Player, spec: Space, deed: Deed) -> str:
    max_noms = int(ctx.params(TimoBuildingModule.name)["max_noms"])
    if deed.rocket:
        raise IllegalAction(f"{spec.name} has a Rocket already; one to a category (XIV.1)")
    if not owns_group(ctx.state, player.name, spec) or min(_levels(ctx.state, spec)) < max_noms:
        raise IllegalAction(f"a Rocket needs five Noms on every category of {spec.group} (XIV.1)")
    ctx.transfer(player.name, BANK, spec.nom, rule="XIV.1", reason=f"a Rocket on {spec.name}", voluntary=True, kind="purchase")
    deed.noms, deed.rocket = 0, True
    return f"{player.name} put a Rocket on {spec.name} for {ctx.state.money(spec.nom)}, returning its five Noms"


def _unmortgage(ctx: UpdateContext, player: Player, spec: Space, deed: Deed) -> str:
    if not deed.mortgaged:
        raise IllegalAction(f"{spec.name} is not mortgaged")
    value = mortgage_value(ctx, spec)
    cost = value + math.ceil(value * int(ctx.params(TimoBuildingModule.name)["unmortgage_interest"]) / 100)
    ctx.transfer(player.name, BANK, cost, rule="XVI.1", reason=f"lifting the mortgage of {spec.name}", voluntary=True, kind="mortgage")
    deed.mortgaged = False
    return f"{player.name} lifted the mortgage of {spec.name} for {ctx.state.money(cost)}"


def sell_deed(ctx: UpdateContext, player: Player, cmd: SellDeed) -> str:
    spec, deed = _mine(ctx, player, cmd.space)
    buyer = ctx.state.players.get(cmd.buyer)
    if buyer is None or not buyer.active or buyer.name == player.name:
        raise IllegalAction(f"{cmd.buyer} is not another player in the game")
    if _improved(ctx.state, spec):
        raise IllegalAction(f"sell the Noms and Rockets of {spec.group} back to the Fandom first (XV.1)")
    inter, replaced = replace_offer(ctx, kind="offer", module=TimoBuildingModule.name, parties=[buyer.name],
                                    silence="decline", proposer=player.name, same=("space", "buyer"),
                                    payload={"space": spec.number, "buyer": buyer.name, "amount": cmd.amount})
    return (f"{player.name} offered {spec.name} to {buyer.name} for {ctx.state.money(cmd.amount)} "
            f"({buyer.name}: ACCEPT {inter.id} by the next update){replaced_text(ctx, replaced)}.")
