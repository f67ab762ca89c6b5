"""X.5: The Government's auctions, of its squares and of Grab Bags of objects (II.8), by sealed
bids through the interactions facility (the state is the teams-government module's ``lots``).

At the start of a week every auctionable Government square not listed yet, and every Grab Bag
waiting, is "Going Once" and an auction opens; bids (``BID <amount> ON <square>``, ``BID <amount>
ON GRAB BAG <n>``) stay sealed until it closes at the end of the next week's update ("Going
Twice"). The lot is then "Gone" and every bid is published with the result; at the start of the
week after, it passes to the highest bidder, who pays her bid to The Government. The Corporation
bids half a square's market value by itself (a Grab Bag has none: no bid); a player's bid must be
more than the current bid (the highest to date, shown on the Government page without the bidder's
name, as X.5 says) and no more than her money. With ``sealed_bids`` (an option against X.5's
words, off by default) the amounts stay hidden and a bid only has to beat The Corporation's."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from admin.engine.declare import command
from admin.engine.interactions import auction_winner
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.library.api import INTERACTIONS, SEALED_ANSWERS
from admin.games.nomoteams.mechanics.shared import (CORPORATION, GOVERNMENT, balance, is_national_park,
                                              is_public_property, market_value, move_object, objects_of, owner_of)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.engine.interactions import Interaction

MODULE = "teams-government"


_BID_ON = re.compile(r"^\$?(\d{1,9})\s+on\s+(.+)$", re.IGNORECASE)
_BID_NUM = re.compile(r"^#?(\d{1,9})\s+\$?(\d{1,9})$")
_BAG = re.compile(r"^grab\s*bag\s*#?(\d{1,9})$", re.IGNORECASE)


def parse_bid(rest: str, line: object) -> TeamsBid:
    text = rest.strip()
    m = _BID_ON.match(text)
    if m:
        bag = _BAG.match(m.group(2).strip())
        if bag:
            return TeamsBid(int(m.group(1)), bag=int(bag.group(1)))
        return TeamsBid(int(m.group(1)), square=parse_square(m.group(2)))
    m = _BID_NUM.match(text)
    if m:
        return TeamsBid(int(m.group(2)), auction=int(m.group(1)))
    raise CommandError(f"BID needs an amount and a square, like BID 250 ON 13 (or BID 40 ON GRAB BAG 1); "
                       f"found {text!r}.")


#: X.5's bids; The Government hands them to the engine (government.py)
@command("BID <amount> ON <square>", parse=parse_bid, cmd="teams-bid", listing=141, private=True,
         summary="a bid in The Government's auction of a square (it must beat the highest bid to date)",
         example="BID 250 ON 13", rules=("X.5",))
class TeamsBid:
    """``BID <amount> ON <square>``, ``BID <amount> ON GRAB BAG <n>`` or ``BID <auction> <amount>``."""

    amount: int
    square: int | None = None
    auction: int | None = None
    bag: int | None = None


@dataclass
class Lot:
    """A square, or a Grab Bag of objects (``square`` 0), that The Government auctions."""

    square: int
    stage: str = "Going Once"
    #: the interaction taking its sealed bids (0: waiting for the next week)
    auction: int = 0
    #: after the close: the winner and her bid (published)
    winner: str | None = None
    bid: int = 0
    #: the update that closed its bidding (it passes two updates later: a week "Gone")
    gone_update: int = 0
    #: a Grab Bag's number and objects (II.8)
    bag_number: int = 0
    bag: dict[str, int] = field(default_factory=dict)
    #: the highest player's bid to date (public, without the bidder's name: X.5)
    high: int = 0

    @property
    def label(self) -> str:
        if not self.square:
            return f"Grab Bag {self.bag_number} ({', '.join(f'{k} x{v}' for k, v in sorted(self.bag.items()))})"
        return f"square {self.square}"


def _lots(state: GameState) -> list[Lot]:
    return api.GOVERNMENT.of(state).lots


def add_grab_bag(state: GameState, items: dict[str, int]) -> Lot:
    """Objects The Government received (II.8) wait as one Grab Bag for the next week's auction."""
    gs = api.GOVERNMENT.of(state)
    gs.bags_made += 1
    lot = Lot(0, "Listed", bag_number=gs.bags_made, bag=dict(items))
    gs.lots.append(lot)
    return lot


def auctionable(ctx: UpdateContext) -> list[int]:
    bridge = {int(n) for n in ctx.params(MODULE)["bridge"] or []}
    return [s.number for s in ctx.state.live_squares()
            if owner_of(ctx.state, s.number) == GOVERNMENT and not is_public_property(s.number)
            and not is_national_park(s.number) and s.number not in bridge]


def _still_the_governments(state: GameState, lot: Lot) -> bool:
    if lot.square:
        return owner_of(state, lot.square) == GOVERNMENT
    held = objects_of(state, GOVERNMENT)
    return all(held.get(item, 0) >= n for item, n in lot.bag.items())


def _hand_over(ctx: UpdateContext, lot: Lot, winner: str) -> None:
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner

    ctx.transfer(winner, GOVERNMENT, lot.bid, rule="X.5", reason=f"the auction of {lot.label}")
    if lot.square:
        set_owner(ctx.state, lot.square, winner)
    else:
        for item, n in lot.bag.items():
            move_object(ctx.state, GOVERNMENT, winner, item, n)
    ctx.emit("auction", f"{lot.label[0].upper()}{lot.label[1:]} passed to {winner}, who paid The Government "
                        f"{ctx.state.money(lot.bid)} (X.5).",
             player=winner if winner in ctx.state.players else None, rule="X.5",
             data={"square": lot.square, "bag": lot.bag_number, "bid": lot.bid})


def advance_auctions(ctx: UpdateContext) -> None:
    """X.5 at the start of a week: Gone lots pass to their winners, the others move on a stage, and
    every auctionable square or Grab Bag not yet Going opens its sealed-bid auction."""
    keep = []
    for lot in _lots(ctx.state):
        if not _still_the_governments(ctx.state, lot):
            continue  # sold or given away meanwhile: the listing lapses
        if lot.stage == "Gone":
            if ctx.state.update < lot.gone_update + 2:
                keep.append(lot)  # Gone for the week: the bids are published, the sale comes next week
                continue
            if lot.winner and balance(ctx.state, lot.winner) >= lot.bid and (
                    lot.winner == CORPORATION or ctx.state.players[lot.winner].active):
                _hand_over(ctx, lot, lot.winner)
                continue
            ctx.emit("auction", f"{lot.winner} cannot pay the {ctx.state.money(lot.bid)} bid for {lot.label}: it is "
                                "auctioned again (X.5).", rule="X.5")
            if lot.square:
                continue
            lot.stage, lot.winner, lot.bid = "Listed", None, 0
        if lot.stage == "Going Once":
            lot.stage = "Going Twice"
        keep.append(lot)
    listed = {lot.square for lot in keep if lot.square}
    keep += [Lot(n, "Listed") for n in auctionable(ctx) if n not in listed]
    api.GOVERNMENT.of(ctx.state).lots = keep
    for lot in keep:
        if lot.stage == "Listed":
            _open(ctx, lot)


def _open(ctx: UpdateContext, lot: Lot) -> None:
    from admin.library.interactions import ask

    parties = sorted(p.name for p in ctx.state.active_players())
    if not parties:
        return
    floor = corporation_bid(ctx, lot)
    inter = ask(ctx, kind="auction", module=MODULE, parties=parties, silence="0", after=1, sealed=True,
                proposer=GOVERNMENT, payload={"square": lot.square, "bag": lot.bag_number, "opening": floor})
    lot.stage, lot.auction = "Going Once", inter.id
    target = f"GRAB BAG {lot.bag_number}" if not lot.square else str(lot.square)
    ctx.emit("auction", f"{lot.label[0].upper()}{lot.label[1:]} is Going Once: The Government auctions it "
                        f"(#{inter.id}); {'sealed ' if _sealed(ctx) else ''}bids above {ctx.state.money(floor)} (BID <amount> ON {target}) "
                        f"until update {inter.deadline} (X.5).", rule="X.5",
             data={"square": lot.square, "bag": lot.bag_number, "auction": inter.id})


def corporation_bid(ctx: UpdateContext, lot: Lot) -> int:
    """The Corporation's automatic bid: half a square's market value (what it can pay, at most);
    none on a Grab Bag, which has no market value."""
    if not lot.square:
        return 0
    half = market_value(ctx.state, lot.square) * int(ctx.params(MODULE)["corporation_bid_percent"]) // 100
    return max(0, min(half, balance(ctx.state, CORPORATION)))


def _lot_of(ctx: UpdateContext, interaction: Interaction) -> Lot | None:
    return next((lot for lot in _lots(ctx.state) if lot.auction == interaction.id), None)


def _sealed(ctx: UpdateContext) -> bool:
    return bool(ctx.params(MODULE)["sealed_bids"])


def check_bid(ctx: UpdateContext, lot: Lot, player: Player, value: Any) -> int:
    amount = int(value)
    floor = corporation_bid(ctx, lot) if _sealed(ctx) else max(corporation_bid(ctx, lot), lot.high)
    if amount <= floor:
        raise IllegalAction(f"a bid on {lot.label} must be more than the current bid, {ctx.state.money(floor)} (X.5)")
    if amount > player.money:
        raise IllegalAction(f"you bid {ctx.state.money(amount)} and have {ctx.state.money(player.money)}; a bid "
                            "must be money you have (a standing ruling)")
    return amount


def check_answer(ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> int:
    lot = _lot_of(ctx, interaction)
    if lot is None:
        raise IllegalAction(f"#{interaction.id} is no longer auctioned")
    amount = check_bid(ctx, lot, player, value)
    _raise_high(ctx, lot, amount)
    return amount


def _raise_high(ctx: UpdateContext, lot: Lot, amount: int) -> None:
    """X.5: the current bid, on the Government page, is now ``amount`` (the bidder is not named)."""
    if _sealed(ctx):
        return
    lot.high = amount
    ctx.emit("auction", f"The highest bid on {lot.label} is now {ctx.state.money(amount)} (X.5).", rule="X.5",
             data={"square": lot.square, "bag": lot.bag_number, "bid": amount})


def bid(ctx: UpdateContext, player: Player, cmd: TeamsBid) -> str:
    from admin.engine.interactions import answer, find

    going = [lot for lot in _lots(ctx.state) if lot.stage in ("Going Once", "Going Twice")]
    if cmd.auction is not None:
        lot = next((lot for lot in going if lot.auction == cmd.auction), None)
    elif cmd.bag is not None:
        lot = next((lot for lot in going if not lot.square and lot.bag_number == cmd.bag), None)
    else:
        lot = next((lot for lot in going if lot.square == cmd.square), None)
    if lot is None:
        names = ", ".join(lot.label for lot in going) or "nothing"
        asked = f"#{cmd.auction}" if cmd.auction is not None else (
            f"Grab Bag {cmd.bag}" if cmd.bag is not None else f"square {cmd.square}")
        raise IllegalAction(f"{asked} is not Going in an auction; Going: {names} (X.5)")
    inters, sealed = INTERACTIONS.of(ctx.state), SEALED_ANSWERS.of(ctx.state)
    find(inters, lot.auction)
    amount = check_bid(ctx, lot, player, cmd.amount)
    answer(inters, sealed, player.name, lot.auction, amount)
    if _sealed(ctx):
        return (f"Your sealed bid of {ctx.state.money(amount)} on {lot.label} is recorded; nobody sees it until "
                "the auction closes (X.5).")
    _raise_high(ctx, lot, amount)
    return (f"Your bid of {ctx.state.money(amount)} on {lot.label} is the highest bid now; the Government page "
            "shows it, without your name, and the next bid must beat it (X.5).")


def close_auction(ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
    """The auction's close: every bid is published with the result; the lot is Gone."""
    lot = _lot_of(ctx, interaction)
    bids = {p: int(a) for p, a in answers.items() if str(a).isdecimal() and int(a) > 0}
    if lot is None:
        return f"the lot is no longer auctioned; bids: {', '.join(f'{p} {b}' for p, b in bids.items()) or 'none'}"
    corp = corporation_bid(ctx, lot)
    if corp:
        bids[CORPORATION] = corp
    winner, top = auction_winner(bids, tie="dice", dice=ctx.dice, label=f"auction/{interaction.id}")
    shown = ", ".join(f"{p} {ctx.state.money(b)}" for p, b in sorted(bids.items(), key=lambda kv: (-kv[1], kv[0])))
    if winner is None:
        if lot.square:
            _lots(ctx.state).remove(lot)
        else:
            lot.stage, lot.auction = "Listed", 0
        return f"no bids for {lot.label}: it stays with The Government and is auctioned again"
    lot.stage, lot.winner, lot.bid, lot.gone_update = "Gone", winner, top, ctx.state.update
    return (f"{lot.label} is Gone to {winner} for {ctx.state.money(top)}; it passes at the start of the week "
            f"after next. Bids: {shown}")
