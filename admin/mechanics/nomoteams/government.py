"""X: The Government's rules. National Parks' $10 (X.3), registering to vote (X.4), the weekly
auctions of its property (X.5), the Zoo (X.7). Its money and the payout above $15,000 (X.1, X.6)
are the pseudoplayers module's; Public Property and National Parks are owned from the start by
the ownership module (X.2, X.3).

Auctions run through the interactions facility as sealed bids: at the start of a week every
auctionable Government square not yet listed is "Going Once" and an auction opens; bids (``BID
<amount> ON <square>``) are sealed until it closes at the end of the next week's update ("Going
Twice"); then the lot is "Gone", its bids are published, and at the start of the week after, it
passes to the highest bidder, who pays her bid to The Government. The Corporation bids half the
market value by itself; a player's bid must be more than that."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from admin.engine.commands import command_type
from admin.engine.interactions import auction_winner
from admin.engine.module import CommandSpec, Fact, Mechanic, Panel, Table
from admin.engine.syntax import parse_square
from admin.errors import CommandError, IllegalAction
from admin.mechanics.nomoteams.shared import (CORPORATION, GOVERNMENT, balance, fine, is_national_park,
                                              is_public_property, is_zoo, market_value, owner_of)


@command_type
@dataclass(frozen=True)
class RegisterToVote:
    """``REGISTER TO VOTE`` (X.4)."""

    cmd: ClassVar[str] = "teams-register"


@command_type
@dataclass(frozen=True)
class TeamsBid:
    """``BID <amount> ON <square>`` (X.5), or the generic ``BID <auction> <amount>``."""

    amount: int
    square: int | None = None
    auction: int | None = None
    cmd: ClassVar[str] = "teams-bid"


@dataclass
class Lot:
    """A square (or a Grab Bag) The Government auctions (X.5)."""

    square: int
    stage: str = "Going Once"
    #: the interaction taking its sealed bids
    auction: int = 0
    #: after the close: the winner and her bid (published)
    winner: str | None = None
    bid: int = 0
    #: the update that closed its bidding (it passes two updates later: a week "Gone")
    gone_update: int = 0
    #: a Grab Bag of objects sold with it (II.8): item -> count
    bag: dict[str, int] = field(default_factory=dict)


@dataclass
class GovernmentState:
    registered: list[str] = field(default_factory=list)
    lots: list[Lot] = field(default_factory=list)
    #: Souvenir Hats from the Zoo (X.7)
    hats: dict[str, int] = field(default_factory=dict)


def _parse_register(rest: str, line: object) -> RegisterToVote:
    if " ".join(rest.split()).upper() != "TO VOTE":
        raise CommandError(f"say REGISTER TO VOTE, with nothing after it; found REGISTER {rest.strip()!r}.")
    return RegisterToVote()


_BID_ON = re.compile(r"^\$?(\d{1,9})\s+on\s+(.+)$", re.IGNORECASE)
_BID_NUM = re.compile(r"^#?(\d{1,9})\s+\$?(\d{1,9})$")


def _parse_bid(rest: str, line: object) -> TeamsBid:
    text = rest.strip()
    m = _BID_ON.match(text)
    if m:
        return TeamsBid(int(m.group(1)), square=parse_square(m.group(2)))
    m = _BID_NUM.match(text)
    if m:
        return TeamsBid(int(m.group(2)), auction=int(m.group(1)))
    raise CommandError(f"BID needs an amount and a square, like BID 250 ON 13; found {text!r}.")


class GovernmentModule(Mechanic[GovernmentState, None]):
    name = "teams-government"
    rules = ("X.3", "X.4", "X.5", "X.7")
    requires = ("interactions",)
    defaults = {"park_fee": 10, "register_cost": 100, "zoo_fine": 25, "zoo_extra_fine": 5,
                "corporation_bid_percent": 50, "bridge": []}
    summary = "National Parks, registering to vote, The Government's sealed-bid auctions, the Zoo."
    State = GovernmentState

    def commands(self):
        return (CommandSpec("REGISTER", RegisterToVote, register, _parse_register, "REGISTER TO VOTE",
                            listing=140, summary="pay $100 to The Government to become a Registered Voter",
                            example="REGISTER TO VOTE", rules=("X.4",)),
                CommandSpec("BID", TeamsBid, bid, _parse_bid, "BID <amount> ON <square>", listing=141,
                            private=True, summary="a sealed bid in The Government's auction of a square "
                                                  "(nobody sees it until the auction closes)",
                            example="BID 250 ON 13", rules=("X.5",)))

    def on_update_start(self, ctx) -> None:
        advance_auctions(ctx)

    def on_land(self, ctx, player, square) -> None:
        if is_national_park(square.number) and owner_of(ctx.state, square.number) == GOVERNMENT:
            amount = int(ctx.params(self.name)["park_fee"])
            ctx.transfer(player.name, GOVERNMENT, amount, rule="X.3", reason=f"National Park {square.number}")
            ctx.emit("park", f"{player.name} paid The Government {ctx.state.money(amount)} at National Park "
                             f"{square.number} (X.3).", player=player.name, rule="X.3")
        if is_zoo(ctx.state, square.number):
            zoo(ctx, player)

    def on_square_renumbered(self, state, old, new) -> None:
        """XVIII.2: the auction of a renumbered square lapses (its bids were for square ``old``); it
        is listed again under its new number at the start of the next week."""
        gs = self.of(state)
        gs.lots = [lot for lot in gs.lots if lot.square != old]

    def on_square_added(self, state, square) -> None:
        if square.destroyed:  # XVIII.2: the auction of a destroyed square lapses
            gs = self.of(state)
            gs.lots = [lot for lot in gs.lots if lot.square != square.number]

    def on_player_removed(self, state, player) -> None:
        gs = self.of(state)
        gs.registered = [n for n in gs.registered if n != player.name]

    def set_player(self, state, player, key, value) -> bool:
        gs = self.of(state)
        if key == "registered":
            gs.registered = sorted((set(gs.registered) | {player.name}) if value else
                                   (set(gs.registered) - {player.name}))
        elif key == "hats":
            gs.hats[player.name] = int(value)
        else:
            return False
        return True

    def player_facts(self, state, player) -> list[Fact]:
        gs = self.of(state)
        return [Fact("registered_voter", player.name in gs.registered, label="Registered Voter", order=45, kind="text"),
                Fact("souvenir_hats", gs.hats.get(player.name, 0), label="Souvenir Hats", order=46)]

    def square_facts(self, state, square) -> list[Fact]:
        lot = next((l for l in self.of(state).lots if l.square == square.number), None)
        kind = ("Public Property" if is_public_property(square.number) else
                "National Park" if is_national_park(square.number) else None)
        return [Fact("government_kind", kind if owner_of(state, square.number) == GOVERNMENT else None, order=14,
                     kind="text"),
                Fact("auction", lot.stage if lot else None, column="Auction", order=17, kind="text")]

    # -- the auctions' interactions -------------------------------------------------------
    def check_answer(self, ctx, interaction, player, value):
        return check_bid(ctx, interaction.payload["square"], player, value)

    def resolve_interaction(self, ctx, interaction, answers) -> str:
        return close_auction(ctx, interaction, answers)

    def panels(self, state) -> list[Panel]:
        gs = self.of(state)
        rows = tuple((lot.square, lot.stage, state.money(lot.bid) if lot.winner else "sealed until the close",
                      lot.winner or "-") for lot in gs.lots)
        return [Panel("government", "The Government",
                      "The Government's auctions (X.5): each square it owns that is neither Public Property "
                      "nor a National Park is auctioned. Bids are sealed until the auction closes at the end "
                      "of its second week; then the bids are published, and at the start of the week after "
                      "the square passes to the highest bidder.",
                      (Table("Auctions", ("Square", "Stage", "Highest bid", "Highest bidder"), rows),
                       Table("Registered Voters", ("Player",), tuple((n,) for n in gs.registered))), order=16)]


def auctionable(ctx) -> list[int]:
    bridge = {int(n) for n in ctx.params(GovernmentModule.name)["bridge"] or []}
    return [s.number for s in ctx.state.live_squares()
            if owner_of(ctx.state, s.number) == GOVERNMENT and not is_public_property(s.number)
            and not is_national_park(s.number) and s.number not in bridge]


def advance_auctions(ctx) -> None:
    """X.5 at the start of a week: Gone lots pass to their winners, the others move on a stage, and
    every auctionable square not listed yet is Going Once (its sealed-bid auction opens)."""
    from admin.mechanics.interactions import ask
    from admin.mechanics.nomoteams.ownership import set_owner

    gs = GovernmentModule.of(ctx.state)
    keep = []
    for lot in gs.lots:
        if owner_of(ctx.state, lot.square) != GOVERNMENT:
            continue  # sold or given away meanwhile: the listing lapses
        if lot.stage == "Gone":
            if ctx.state.update < lot.gone_update + 2:
                keep.append(lot)  # Gone for the week: the bids are published, the sale comes next week
                continue
            if lot.winner and balance(ctx.state, lot.winner) >= lot.bid and (
                    lot.winner == CORPORATION or ctx.state.players[lot.winner].active):
                ctx.transfer(lot.winner, GOVERNMENT, lot.bid, rule="X.5", reason=f"the auction of square {lot.square}")
                set_owner(ctx.state, lot.square, lot.winner)
                ctx.emit("auction", f"Square {lot.square} passed to {lot.winner}, who paid The Government "
                                    f"{ctx.state.money(lot.bid)} (X.5).", player=lot.winner if lot.winner in
                         ctx.state.players else None, rule="X.5", data={"square": lot.square, "bid": lot.bid})
            elif lot.winner:
                ctx.emit("auction", f"{lot.winner} cannot pay the {ctx.state.money(lot.bid)} bid for square "
                                    f"{lot.square}: the square is auctioned again (X.5).", rule="X.5")
            continue
        if lot.stage == "Going Once":
            lot.stage = "Going Twice"
        keep.append(lot)
    gs.lots = keep
    listed = {lot.square for lot in gs.lots}
    parties = sorted(p.name for p in ctx.state.active_players())
    for number in auctionable(ctx):
        if number in listed or not parties:
            continue
        inter = ask(ctx, kind="auction", module=GovernmentModule.name, parties=parties, silence="0", after=1,
                    payload={"square": number, "opening": corporation_bid(ctx, number)}, sealed=True,
                    proposer=GOVERNMENT)
        gs.lots.append(Lot(number, "Going Once", inter.id))
        ctx.emit("auction", f"Square {number} is Going Once: The Government auctions it (#{inter.id}); sealed "
                            f"bids above {ctx.state.money(corporation_bid(ctx, number))} (BID <amount> ON {number}) "
                            f"until update {inter.deadline} (X.5).", rule="X.5",
                 data={"square": number, "auction": inter.id})


def corporation_bid(ctx, number: int) -> int:
    """The Corporation's automatic bid: half the market value (what it can pay, at most)."""
    half = market_value(ctx.state, number) * int(ctx.params(GovernmentModule.name)["corporation_bid_percent"]) // 100
    return max(0, min(half, balance(ctx.state, CORPORATION)))


def check_bid(ctx, number: int, player, value) -> int:
    amount = int(value)
    floor = corporation_bid(ctx, number)
    if amount <= floor:
        raise IllegalAction(f"a bid on square {number} must be more than the current bid, "
                            f"{ctx.state.money(floor)} (X.5)")
    if amount > player.money:
        raise IllegalAction(f"you bid {ctx.state.money(amount)} and have {ctx.state.money(player.money)}; a bid "
                            "must be money you have (a standing ruling)")
    return amount


def bid(ctx, player, cmd: TeamsBid) -> str:
    from admin.engine.interactions import answer, find
    from admin.mechanics.interactions import InteractionsModule

    gs = GovernmentModule.of(ctx.state)
    if cmd.square is not None:
        lot = next((l for l in gs.lots if l.square == cmd.square and l.stage != "Gone"), None)
        if lot is None:
            going = ", ".join(str(l.square) for l in gs.lots if l.stage != "Gone") or "none"
            raise IllegalAction(f"square {cmd.square} is not Going in an auction; Going: {going} (X.5)")
        number = lot.auction
    else:
        number = int(cmd.auction or 0)
    inters, sealed = InteractionsModule.of(ctx.state), InteractionsModule.private_of(ctx.state)
    inter = find(inters, number)
    if inter.module != GovernmentModule.name:
        raise IllegalAction(f"#{number} is not an auction of The Government's")
    amount = check_bid(ctx, inter.payload["square"], player, cmd.amount)
    answer(inters, sealed, player.name, number, amount)
    return (f"Your sealed bid of {ctx.state.money(amount)} on square {inter.payload['square']} is recorded; "
            "nobody sees it until the auction closes (X.5).")


def close_auction(ctx, interaction, answers) -> str:
    """The auction's close: every bid is published with the result; the lot is Gone."""
    gs = GovernmentModule.of(ctx.state)
    number = interaction.payload["square"]
    lot = next((l for l in gs.lots if l.auction == interaction.id), None)
    bids = {p: int(a) for p, a in answers.items() if str(a).isdigit() and int(a) > 0}
    corp = corporation_bid(ctx, number)
    if corp:
        bids[CORPORATION] = corp
    winner, top = auction_winner(bids, tie="dice", dice=ctx.dice, label=f"auction/{interaction.id}")
    shown = ", ".join(f"{p} {ctx.state.money(b)}" for p, b in sorted(bids.items(), key=lambda kv: (-kv[1], kv[0])))
    if lot is None:
        return f"square {number} is no longer auctioned; bids: {shown or 'none'}"
    if winner is None:
        gs.lots.remove(lot)
        return f"no bids for square {number}: it stays with The Government and is auctioned again"
    lot.stage, lot.winner, lot.bid, lot.gone_update = "Gone", winner, top, ctx.state.update
    return (f"square {number} is Gone to {winner} for {ctx.state.money(top)}; it passes at the start of the week "
            f"after next. Bids: {shown}")


def register(ctx, player, cmd: RegisterToVote) -> str:
    gs = GovernmentModule.of(ctx.state)
    if player.name in gs.registered:
        raise IllegalAction("you are a Registered Voter already (X.4)")
    cost = int(ctx.params(GovernmentModule.name)["register_cost"])
    ctx.transfer(player.name, GOVERNMENT, cost, rule="X.4", reason="registering to vote", voluntary=True)
    gs.registered.append(player.name)
    return f"{player.name} paid {ctx.state.money(cost)} and is a Registered Voter (X.4)."


def zoo(ctx, player) -> None:
    """X.7: the Zoo fines a visitor $25, and she gets a Souvenir Hat or is fined another $5: a
    standing ruling gives the hat (the cheaper choice the rule offers; the Admin may rule otherwise)."""
    p = ctx.params(GovernmentModule.name)
    fine(ctx, player, int(p["zoo_fine"]), rule="X.7", reason="visiting the Zoo")
    gs = GovernmentModule.of(ctx.state)
    gs.hats[player.name] = gs.hats.get(player.name, 0) + 1
    ctx.emit("zoo", f"{player.name} visited the Zoo: fined {ctx.state.money(int(p['zoo_fine']))}, and took a "
                    "Souvenir Hat (X.7).", player=player.name, rule="X.7")
