"""X: The Government's rules. National Parks' $10 (X.3), registering to vote (X.4), the weekly
auctions of its property (X.5), the Zoo (X.7). Its money and the payout above $15,000 (X.1, X.6)
are the pseudoplayers module's; Public Property and National Parks are owned from the start by
the ownership module (X.2, X.3).

The auctions themselves (bids through the interactions facility) are in auctions.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.params import MAX_INT, check_whole_numbers
from admin.engine.shows import Fact, Panel, Table
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.auctions import (Lot, TeamsBid, advance_auctions, bid, check_answer, close_auction)
from admin.games.nomoteams.mechanics.shared import GOVERNMENT, fine, is_national_park, is_public_property, is_zoo, owner_of

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.interactions import Interaction
    from admin.engine.module import CommandSpec


def _parse_register(rest: str, line: object) -> RegisterToVote:
    if " ".join(rest.split()).upper() != "TO VOTE":
        raise CommandError(f"say REGISTER TO VOTE, with nothing after it; found REGISTER {rest.strip()!r}.")
    return RegisterToVote()


@command("REGISTER TO VOTE", parse=_parse_register, cmd="teams-register", listing=140,
         summary="pay $100 to The Government to become a Registered Voter", example="REGISTER TO VOTE",
         rules=("X.4",))
class RegisterToVote:
    """``REGISTER TO VOTE`` (X.4)."""


@dataclass
class GovernmentState:
    registered: list[str] = field(default_factory=list)
    lots: list[Lot] = field(default_factory=list)
    #: Grab Bags made so far (II.8), to number the next
    bags_made: int = 0
    #: Souvenir Hats from the Zoo (X.7)
    hats: dict[str, int] = field(default_factory=dict)


class GovernmentModule(Mechanic[GovernmentState, None], api.KeepsObjects):
    name = "teams-government"
    rules = ("X.3", "X.4", "X.5", "X.7")
    stated = {"X.3": {"park_fee": ("lands on a National Park pays The Government ${}",)},
              "X.4": {"register_cost": ("by paying The Government ${}",)},
              "X.7": {"zoo_fine": ("lands in the Zoo is fined ${}",), "zoo_extra_fine": ("is fined another ${}",)}}
    requires = ("interactions",)
    defaults = {"park_fee": 10, "register_cost": 100, "zoo_fine": 25, "zoo_extra_fine": 5,
                "corporation_bid_percent": 50, "bridge": [], "sealed_bids": False}
    #: the squares that are the Bridge (never auctioned): square numbers
    validators = {"bridge": check_whole_numbers(1, MAX_INT)}
    summary = "National Parks, registering to vote, The Government's auctions, the Zoo."
    State = GovernmentState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((RegisterToVote, register), (TeamsBid, bid))

    def on_update_start(self, ctx: UpdateContext) -> None:
        advance_auctions(ctx)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if is_national_park(square.number) and owner_of(ctx.state, square.number) == GOVERNMENT:
            amount = int(ctx.params(self.name)["park_fee"])
            ctx.transfer(player.name, GOVERNMENT, amount, rule="X.3", reason=f"National Park {square.number}")
            ctx.emit("park", f"{player.name} paid The Government {ctx.state.money(amount)} at National Park "
                             f"{square.number} (X.3).", player=player.name, rule="X.3")
        if is_zoo(ctx.state, square.number):
            zoo(ctx, player)

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        """XVIII.2: the auction of a renumbered square lapses (its bids were for square ``old``); it
        is listed again under its new number at the start of the next week."""
        gs = self.of(state)
        gs.lots = [lot for lot in gs.lots if lot.square != old]

    def on_square_added(self, state: GameState, square: Square) -> None:
        if square.destroyed:  # XVIII.2: the auction of a destroyed square lapses
            gs = self.of(state)
            gs.lots = [lot for lot in gs.lots if lot.square != square.number]

    def on_player_removed(self, state: GameState, player: Player) -> None:
        gs = self.of(state)
        gs.registered = [n for n in gs.registered if n != player.name]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        gs = self.of(state)
        if key == "registered":
            gs.registered = sorted((set(gs.registered) | {player.name}) if value else
                                   (set(gs.registered) - {player.name}))
        elif key == "hats":
            gs.hats[player.name] = int(value)
        else:
            return False
        return True

    # -- objects (shared.objects_of): the Zoo's Souvenir Hats ---------------------------------
    def objects_of(self, state: GameState, name: str) -> dict[str, int]:
        n = self.of(state).hats.get(name, 0)
        return {"Souvenir Hat": n} if n else {}

    def move_object(self, state: GameState, giver: str, receiver: str, item: str, n: int) -> None:
        hats = self.of(state).hats
        hats[giver] -= n
        if not hats[giver]:
            del hats[giver]
        hats[receiver] = hats.get(receiver, 0) + n

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        gs = self.of(state)
        return [Fact("registered_voter", player.name in gs.registered, label="Registered Voter", order=45, kind="text"),
                Fact("souvenir_hats", gs.hats.get(player.name, 0), label="Souvenir Hats", order=46)]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        lot = next((lot for lot in self.of(state).lots if lot.square == square.number), None)
        kind = ("Public Property" if is_public_property(square.number) else
                "National Park" if is_national_park(square.number) else None)
        return [Fact("government_kind", kind if owner_of(state, square.number) == GOVERNMENT else None, order=14,
                     kind="text"),
                Fact("auction", lot.stage if lot else None, column="Auction", order=17, kind="text")]

    # -- the auctions' interactions -------------------------------------------------------
    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> int:
        return check_answer(ctx, interaction, player, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        return close_auction(ctx, interaction, answers)

    def panels(self, state: GameState) -> list[Panel]:
        gs = self.of(state)
        sealed = bool(state.params(self.name).get("sealed_bids"))
        rows = tuple((lot.label, lot.stage, state.money(lot.bid) if lot.winner else
                      "sealed until the close" if sealed else state.money(lot.high) if lot.high else "none yet",
                      lot.winner or "-") for lot in gs.lots)
        return [Panel("government", "The Government",
                      "The Government's auctions (X.5): each square it owns that is neither Public Property "
                      "nor a National Park is auctioned. A bid must beat the highest bid to date, shown here "
                      "without its bidder's name; the auction closes at the end of its second week, then "
                      "the bids are published, and at the start of the week after the square passes to the "
                      "highest bidder.",
                      (Table("Auctions", ("Lot", "Stage", "Highest bid", "Highest bidder"), rows),
                       Table("Registered Voters", ("Player",), tuple((n,) for n in gs.registered))), order=16)]


def register(ctx: UpdateContext, player: Player, cmd: RegisterToVote) -> str:
    gs = GovernmentModule.of(ctx.state)
    if player.name in gs.registered:
        raise IllegalAction("you are a Registered Voter already (X.4)")
    cost = int(ctx.params(GovernmentModule.name)["register_cost"])
    ctx.transfer(player.name, GOVERNMENT, cost, rule="X.4", reason="registering to vote", voluntary=True)
    gs.registered.append(player.name)
    return f"{player.name} paid {ctx.state.money(cost)} and is a Registered Voter (X.4)."


def zoo(ctx: UpdateContext, player: Player) -> None:
    """X.7: the Zoo fines a visitor $25, and she gets a Souvenir Hat or is fined another $5: a
    standing ruling gives the hat (the cheaper choice the rule offers; the Admin may rule otherwise)."""
    p = ctx.params(GovernmentModule.name)
    fine(ctx, player, int(p["zoo_fine"]), rule="X.7", reason="visiting the Zoo")
    gs = GovernmentModule.of(ctx.state)
    gs.hats[player.name] = gs.hats.get(player.name, 0) + 1
    ctx.emit("zoo", f"{player.name} visited the Zoo: fined {ctx.state.money(int(p['zoo_fine']))}, and took a "
                    "Souvenir Hat (X.7).", player=player.name, rule="X.7")
