"""The first Nomopoly's XXVIII: two players swap co-ownership of a square each (OFFER CO-OWNERSHIP
14 FOR 27 TO bob; bob ACCEPTs in the next update; it starts with the next week). Co-owners split the
rent others pay on a co-owned square, land on it and park there free, and count half of it in their
net worth; only its original owner may change it; either may end it (END CO-OWNERSHIP 14)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import Square, command, handled
from admin.engine.interactions import accept_or_decline
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.interactions import ask
from admin.games.nomopoly1.mechanics.paint import percent_of
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square as BoardSquare

_OFFER = re.compile(r"^(\S+)\s+for\s+(\S+)\s+to\s+(\S+)$", re.IGNORECASE)


def _parse_offer(rest: str, _line: object) -> CoOwn:
    m = _OFFER.match(" ".join(rest.split()))
    if not m:
        raise CommandError("write OFFER CO-OWNERSHIP <your square> FOR <their square> TO <player>")
    return CoOwn("offer", parse_square(m.group(1)), parse_square(m.group(2)), m.group(3))


@command("OFFER CO-OWNERSHIP <mine:yours> FOR <theirs> TO <to:player>", keyword="OFFER CO-OWNERSHIP",
         parse=_parse_offer, listing=310, rules=("XXVIII.1",),
         summary="offer to share one of your squares for one of theirs; they ACCEPT or DECLINE in the next update; "
                 "it starts with the next week",
         example="OFFER CO-OWNERSHIP 14 FOR 27 TO bob")
@command("END CO-OWNERSHIP <mine:square>", keyword="END CO-OWNERSHIP", fixed={"act": "end"}, listing=311,
         rules=("XXVIII.4",), summary="end a co-ownership: both squares go back to their owners",
         example="END CO-OWNERSHIP 14")
class CoOwn:
    """``OFFER CO-OWNERSHIP <mine> FOR <theirs> TO <player>`` / ``END CO-OWNERSHIP <square>``."""

    act: str
    mine: Square
    theirs: int = 0
    to: str = ""


@dataclass
class Agreement:
    a: str
    a_square: int
    b: str
    b_square: int
    #: the week it takes effect (XXVIII.1: at the start of the next turn)
    starts: int


@dataclass
class CoOwnState:
    agreements: list[Agreement] = field(default_factory=list)


class CoOwnershipModule(Mechanic[CoOwnState, None]):
    name = "co-ownership"
    rules = ("XXVIII.1", "XXVIII.2", "XXVIII.4", "XXVIII.5", "XXVIII.6", "XXVIII.7")
    defaults = {"per_pair": 2}
    summary = "Swap co-ownership of a square each with another player: shared rent, free landing and parking."
    State = CoOwnState
    requires = ("interactions", "ownership")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((CoOwn, co_own))

    def check_answer(self, ctx: UpdateContext, interaction: Any, player: Player, value: Any) -> Any:
        return accept_or_decline(interaction, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Any, answers: dict[str, Any]) -> str:
        p = interaction.payload
        a, b = interaction.proposer, p["to"]
        if answers.get(b) != "accept":
            return f"{b} did not accept {a}'s offer of co-ownership"
        problem = _problem(ctx.state, a, int(p["mine"]), b, int(p["theirs"]), int(ctx.params(self.name)["per_pair"]))
        if problem:
            return f"the co-ownership fell through: {problem}"
        self.of(ctx.state).agreements.append(Agreement(a, int(p["mine"]), b, int(p["theirs"]), ctx.state.week + 1))
        return f"{a} and {b} will co-own squares {p['mine']} and {p['theirs']} from week {ctx.state.week + 1}"

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: BoardSquare, rent: int) -> int:
        """XXVIII.2: a co-owner lands free."""
        return 0 if payer.name in co_owners(ctx.state, square.number) else rent

    def on_land(self, ctx: UpdateContext, player: Player, square: BoardSquare) -> None:
        """XXVIII.2: half of the rent another player just paid goes to the co-owner."""
        partners = co_owners(ctx.state, square.number)
        if not partners or player.name in partners:
            return
        owner = owner_of(ctx.state, square.number)
        paid = next((e for e in reversed(ctx.events) if e.kind == "rent" and e.player == player.name
                     and e.data.get("square") == square.number), None)
        other = next((n for n in partners if n != owner), None)
        if paid is None or other is None or owner is None:
            return
        half = percent_of(int(paid.data["amount"]), 50, str(ctx.params("paint").get("rounding", "nearest")))
        if half:
            ctx.transfer(owner, other, half, rule="XXVIII.2", reason=f"half the rent on co-owned square {square.number}", kind="rent")
            ctx.emit("co-own", f"{other}, co-owner of square {square.number}, received half the rent: "
                               f"{ctx.state.money(half)}.", player=other, rule="XXVIII.2")

    def worth(self, state: GameState, player: Player) -> int:
        """III.5: a co-owned square's value is split between its co-owners."""
        price = int(state.params("ownership").get("price_per_number", 25))
        total = 0
        for ag in active(state):
            for owner, square, partner in ((ag.a, ag.a_square, ag.b), (ag.b, ag.b_square, ag.a)):
                half = square * price // 2
                total += half if player.name == partner else -half if player.name == owner else 0
        return total

    def on_square_added(self, state: GameState, square: BoardSquare) -> None:  # a destroyed square ends its agreement
        cs = self.of(state)
        cs.agreements = [ag for ag in cs.agreements if square.number not in (ag.a_square, ag.b_square)]

    def on_player_removed(self, state: GameState, player: Player) -> None:
        cs = self.of(state)
        cs.agreements = [ag for ag in cs.agreements if player.name not in (ag.a, ag.b)]

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.on_player_removed(ctx.state, player)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        shared = sorted(sq for ag in active(state) for sq in (ag.a_square, ag.b_square)
                        if player.name in (ag.a, ag.b) and owner_of(state, sq) != player.name)
        return [Fact("co_owns", shared, label="Co-owns", kind="squares")]

    def square_look(self, state: GameState, square: BoardSquare) -> SquareLook | None:
        partners = co_owners(state, square.number)
        if not partners:
            return None
        return SquareLook(notes=((12, "co-owned by " + " and ".join(sorted(partners))),),
                          flags=((12, "CO", "co-owned"),))


def active(state: GameState) -> list[Agreement]:
    return [ag for ag in CoOwnershipModule.of(state).agreements if ag.starts <= state.week]


def co_owners(state: GameState, number: int) -> set[str]:
    """Who co-owns square ``number`` now (both parties), or nobody."""
    if not state.enabled(CoOwnershipModule.name):
        return set()
    for ag in active(state):
        if number in (ag.a_square, ag.b_square):
            return {ag.a, ag.b}
    return set()


def _problem(state: GameState, a: str, mine: int, b: str, theirs: int, per_pair: int) -> str | None:
    if owner_of(state, mine) != a:
        return f"square {mine} is not {a}'s"
    if owner_of(state, theirs) != b:
        return f"square {theirs} is not {b}'s"
    taken = {sq for ag in CoOwnershipModule.of(state).agreements for sq in (ag.a_square, ag.b_square)}
    if mine in taken or theirs in taken:
        return "a square may be in one co-ownership at a time (XXVIII.6)"
    pair = sum(1 for ag in CoOwnershipModule.of(state).agreements if {ag.a, ag.b} == {a, b})
    if pair >= per_pair:
        return f"{a} and {b} have {pair} co-ownerships already; two at most (XXVIII.5)"
    return None


def co_own(ctx: UpdateContext, player: Player, cmd: CoOwn) -> str:
    cs = CoOwnershipModule.of(ctx.state)
    if cmd.act == "end":
        ag = next((x for x in cs.agreements if cmd.mine in (x.a_square, x.b_square) and player.name in (x.a, x.b)), None)
        if ag is None:
            raise IllegalAction(f"you co-own no agreement with square {cmd.mine} in it")
        cs.agreements.remove(ag)
        return (f"{player.name} ended the co-ownership of squares {ag.a_square} and {ag.b_square}; each goes "
                "back to its owner, as it is now (XXVIII.4).")
    other = ctx.state.players.get(cmd.to)
    if other is None or not other.active or other.name == player.name:
        raise IllegalAction(f"there is no other player {cmd.to!r}")
    problem = _problem(ctx.state, player.name, cmd.mine, other.name, cmd.theirs, int(ctx.params("co-ownership")["per_pair"]))
    if problem:
        raise IllegalAction(problem)
    inter = ask(ctx, kind="offer", module="co-ownership", parties=[other.name], silence="decline",
                proposer=player.name, payload={"to": other.name, "mine": cmd.mine, "theirs": cmd.theirs})
    return (f"{player.name} offered {other.name} co-ownership of square {cmd.mine} for square {cmd.theirs} "
            f"(#{inter.id}); {other.name} may ACCEPT {inter.id} or DECLINE {inter.id} by update {inter.deadline}.")
