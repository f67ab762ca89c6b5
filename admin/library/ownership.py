"""XIII and VI.9: buying squares, rent, and naming squares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.capabilities import PricesSquares
from admin.engine import hooks
from admin.engine.commands import LATER
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic, RulingHandler
from admin.engine.shows import Fact, SquareLook
from admin.engine.capabilities import OrdersActions
from admin.engine.movement import rent_free
from admin.engine.syntax import SQUARE_PREFIX, name_arg, parse_square
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.engine.model import GameState, Player, Square

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling


def _parse_buy(rest: str, line: object) -> Buy:
    from admin.library.payment import split_on_credit

    rest, on_credit = split_on_credit(rest)
    rest = rest.strip()
    return Buy(parse_square(rest) if rest else None, on_credit)


def _parse_name(rest: str, line: object) -> Name:
    if not rest:
        raise CommandError("NAME needs a square and a name, like NAME 14 Boardwalk.")
    m = SQUARE_PREFIX.match(rest)
    square = parse_square(m.group(1) if m else rest.split()[0])
    return Name(square, name_arg(rest[m.end():] if m else "", "the name", "NAME 14 Boardwalk"))


@command("BUY [square]", parse=_parse_buy, phase=0, listing=10,
         summary="buy the unowned square you landed on since your last turn", example="BUY 14", rules=("XIII.1",))
class Buy:
    """``BUY [square]``: buy the unowned square the player landed on (XIII.1)."""

    square: int | None = None
    #: ``BUY 14 ON CREDIT``: on the player's credit card (Nomopoly II XXVIII.1)
    on_credit: bool = field(default=False, metadata=LATER)


@command("NAME <square> <name>", parse=_parse_name, listing=20,
         summary="name a square you own (renaming it later costs money)", example="NAME 14 Park Lane",
         rules=("XIII.4",))
class Name:
    """``NAME <square> <name>``: name (free) or rename ($50) a square the player owns (XIII.4)."""

    square: int
    name: str


@dataclass
class BuyRight:
    """A player landed on an unowned square and may buy it before their next turn (XIII.3)."""

    square: int
    player: str
    #: the global landing order within the update that created it; lower buys first
    order: int
    update: int


@dataclass
class OwnershipState:
    #: square number -> its owner
    owners: dict[int, str] = field(default_factory=dict)
    #: square number -> what its owner paid for it (for the record; net worth uses the list price)
    paid: dict[int, int] = field(default_factory=dict)
    buy_rights: list[BuyRight] = field(default_factory=list)

    def owner(self, number: int) -> str | None:
        return self.owners.get(number)

    def owned_by(self, state: GameState, name: str) -> list[Square]:
        """The live squares ``name`` owns, in board order."""
        return [s for s in state.squares if self.owners.get(s.number) == name and not s.destroyed]

    def release(self, name: str) -> None:
        """Every square of ``name`` becomes unowned, and their rights to buy lapse."""
        for number in [n for n, o in self.owners.items() if o == name]:
            del self.owners[number]
            self.paid.pop(number, None)
        self.buy_rights = [r for r in self.buy_rights if r.player != name]


class OwnershipModule(Mechanic[OwnershipState, None], OrdersActions):
    name = "ownership"
    rules = ("XIII.1", "XIII.2", "XIII.3", "XIII.4", "XIII.5", "VI.9", "VI.16")
    defaults = {"price_per_number": 25, "rent_per_number": 3, "rename_cost": 50, "name_max_length": 100}
    summary = "Buy the square you landed on for $25 × n; rent 3 × n to the owner; name squares."
    stated = {"VI.9": {"rent_per_number": ("{} times the square's number", "{} times its number")},
              "XIII.1": {"price_per_number": ("${} times the square's number", "{} times its number")},
              "XIII.4": {"rename_cost": ("by paying ${}", "costs ${}"),
                         "name_max_length": ("at most {} characters",)}}
    State = OwnershipState

    def rulings(self) -> dict[str, RulingHandler]:
        return {"reject-name": _reject_name}

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Buy, buy), (Name, name_square))

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).release(player.name)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.of(ctx.state).release(player.name)

    def on_square_added(self, state: GameState, square: Square) -> None:
        own = self.of(state)
        own.owners.pop(square.number, None)
        own.paid.pop(square.number, None)

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        if turn == 0:  # a right to buy lasts until the player's next turn (XIII.3)
            own = self.of(ctx.state)
            own.buy_rights = [r for r in own.buy_rights
                              if r.player != player.name or r.update == ctx.state.update]

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        own = self.of(ctx.state)
        owner_name = own.owner(square.number)
        if owner_name is None:
            if hooks.call(ctx).can_own(ctx.state, square):
                own.buy_rights.append(BuyRight(square=square.number, player=player.name,
                                               order=ctx.landing_order, update=ctx.state.update))
                price = square.number * int(ctx.params("ownership")["price_per_number"])
                ctx.emit("land", f"{player.name} landed on unowned square {square.number}; "
                                 f"it can be bought for ${price} before their next turn.",
                         player=player.name, rule="XIII.1", data={"square": square.number})
            return
        if owner_name == player.name or rent_free(ctx, player):
            return
        owner = ctx.state.players.get(owner_name)
        if owner is None or not owner.active:
            return
        rent = rent_due(ctx, player, square)
        if rent <= 0:  # waived (a co-owner, a politician's luck)
            return
        pay_rent(ctx, player, owner, square, rent)

    def action_order(self, ctx: UpdateContext, name: str, command: Any) -> int:
        """BUYs run in the order their buyers landed (XIII.3); an unknown square last."""
        rights = self.of(ctx.state).buy_rights
        if command.square is not None:
            for r in rights:
                if r.player == name and r.square == command.square:
                    return r.order
            return 10**9
        mine = [r.order for r in rights if r.player == name]
        return max(mine) if mine else 10**9

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key == "owner":
            set_owner(state, square.number, value)
        elif key == "paid":
            self.of(state).paid[square.number] = int(value)
        else:
            return False
        return True

    def worth(self, state: GameState, player: Player) -> int:
        price = int(state.params(self.name).get("price_per_number", self.defaults["price_per_number"]))
        numbers = {s.number for s in state.squares}  # one pass over the owners, not the board per player
        return sum(n * price for n, owner in self.of(state).owners.items() if owner == player.name and n in numbers)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        owned = self.of(state).owned_by(state, player.name)
        return [Fact("squares", [s.number for s in owned], column="Squares owned", order=30, kind="squares")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("owner", self.of(state).owner(square.number), column="Owner", order=10, kind="player")]

    def square_look(self, state: GameState, square: Square) -> SquareLook:
        owner = self.of(state).owner(square.number)
        return SquareLook(owner=owner, notes=((10, f"owned by {owner}" if owner else "unowned"),))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        own = self.of(state)
        squares = [_square_label(s) for s in own.owned_by(state, player.name)]
        lines = [(40, f"  Squares you own: {', '.join(squares) or 'none'}")]
        rights = [f"square {r.square}" for r in own.buy_rights if r.player == player.name]
        if rights:
            lines.append((70, f"  You may still BUY: {', '.join(rights)}"))
        return lines

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        owned = [str(s.number) for s in state.squares if self.of(state).owners.get(s.number) == player.name]
        return [(30, f"; squares owned: {', '.join(owned) or 'none'}")]


def _square_label(square: Square) -> str:
    return f"{square.number} ({square.name})" if square.name else str(square.number)


def buy(ctx: UpdateContext, player: Player, cmd: Buy) -> str:
    own = OwnershipModule.of(ctx.state)
    rights = [r for r in own.buy_rights if r.player == player.name]
    if cmd.square is None:
        if not rights:
            raise IllegalAction("you have not landed on an unowned square since your last turn, so "
                                "there is nothing to buy (XIII.1)")
        right = max(rights, key=lambda r: r.order)
    else:
        matching = [r for r in rights if r.square == cmd.square]
        if not matching:
            landed = ", ".join(str(r.square) for r in rights) or "none"
            raise IllegalAction(f"you can only buy a square you landed on since your last turn "
                                f"(XIII.1); yours: {landed}")
        right = matching[0]
    square = ctx.state.square(right.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"square {right.square} is no longer on the board")
    owner = own.owner(square.number)
    if owner == player.name:
        raise IllegalAction(f"you already own square {square.number}")
    if owner is not None:
        raise IllegalAction(f"square {square.number} was bought by {owner}, who landed "
                            "there first (XIII.3)")
    if not hooks.call(ctx).can_own(ctx.state, square):
        raise IllegalAction(f"square {square.number} is contaminated and cannot be bought (XIII.5)")
    price = square.number * int(ctx.params("ownership")["price_per_number"])
    discount = ctx.registry.provider(ctx.state, PricesSquares)  # the Governor's 5% off (XXXV.3)
    if discount is not None:
        price = discount.adjust_price(ctx, player, square, price)
    if cmd.on_credit:  # a voluntary purchase on the card (Nomopoly II XXVIII.1)
        from admin.library.payment import charge

        charge(ctx, player.name, BANK, price, rule="XIII.1", reason=f"buying square {square.number}",
               on_credit=True)
    else:
        ctx.transfer(player.name, BANK, price, rule="XIII.1", reason=f"buying square {square.number}",
                     voluntary=True, kind="purchase")
    own.owners[square.number] = player.name
    own.paid[square.number] = price
    # the others' rights stay until their next turn, so their BUY gets the reason it failed
    own.buy_rights = [r for r in own.buy_rights
                      if not (r.square == square.number and r.player == player.name)]
    hooks.call(ctx).on_square_bought(ctx, player, square)
    return f"{player.name} bought square {square.number} for ${price}."


def name_square(ctx: UpdateContext, player: Player, cmd: Name) -> str:
    params = ctx.params("ownership")
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    owner = OwnershipModule.of(ctx.state).owner(square.number)
    if owner != player.name:
        raise IllegalAction(f"only the owner may name square {cmd.square} (XIII.4); "
                            f"its owner is {owner or 'nobody'}")
    new = " ".join(cmd.name.split())
    limit = int(params["name_max_length"])
    if not new or len(new) > limit:
        raise IllegalAction(f"a square's name must be 1 to {limit} characters; this one has {len(new)}")
    for other in ctx.state.squares:
        if other.name and other.name.casefold() == new.casefold() and other.number != square.number:
            raise IllegalAction(f'square {other.number} is already named "{other.name}"; names are unique (XIII.4)')
    if square.name == new:
        raise IllegalAction(f'square {square.number} is already named "{new}"')
    if square.name is not None:
        cost = int(params["rename_cost"])
        ctx.transfer(player.name, BANK, cost, rule="XIII.4", reason=f"renaming square {square.number}",
                     voluntary=True)
        old, square.name = square.name, new
        return f'{player.name} renamed square {square.number} from "{old}" to "{new}" for ${cost}.'
    square.name = new
    return f'{player.name} named square {square.number} "{new}".'


def _reject_name(ctx: UpdateContext, r: Ruling) -> str:
    sq = ctx.state.square(int(r.args.get("square", 0)))
    if sq is None:
        raise RuleError(f"ruling names square {r.args.get('square')!r}, which does not exist")
    if not sq.name:
        raise RuleError(f"square {sq.number} has no name to reject")
    old, sq.name = sq.name, None
    return f"The Admin rejected the name {old!r} of square {sq.number} (XIII.4): {r.note}"


def rent_due(ctx: UpdateContext, payer: Player, square: Square) -> int:
    """The rent ``payer`` owes for landing on ``square``: 3 x n, then every module's adjustment
    (the square's own, VI.9 ..., then who pays)."""
    rent = square.number * int(ctx.params("ownership")["rent_per_number"])
    h = hooks.call(ctx)
    return h.adjust_rent_paid(ctx, payer, square, h.adjust_rent(ctx, square, rent))


def pay_rent(ctx: UpdateContext, payer: Player, owner: Player, square: Square, rent: int, *,
             rule: str = "VI.9") -> None:
    """``payer`` pays ``rent`` to ``owner`` for ``square`` (forced), then every module hears of it
    (``on_rent_paid``)."""
    ctx.transfer(payer.name, owner.name, rent, rule=rule, reason=f"rent on square {square.number}", kind="rent")
    ctx.emit("rent", f"{payer.name} paid ${rent} rent to {owner.name} for square {square.number}.",
             player=payer.name, rule=rule, data={"square": square.number, "amount": rent, "owner": owner.name})
    hooks.call(ctx).on_rent_paid(ctx, payer, owner, square, rent)


def owner_of(state: GameState, number: int) -> str | None:
    """Who owns square ``number`` (None: nobody)."""
    return OwnershipModule.of(state).owner(number)


def squares_owned(state: GameState, name: str) -> set[int]:
    """The numbers of every square ``name`` owns (``owner_of(state, n) == name``), destroyed ones
    included: one pass over the owners, for code that would otherwise ask ``owner_of`` of many
    squares for one player (a net worth, a player's results)."""
    return {n for n, owner in OwnershipModule.of(state).owners.items() if owner == name}


def set_owner(state: GameState, number: int, name: str | None, paid: int | None = None) -> None:
    """Make ``name`` the owner of square ``number`` (None: unowned), as a test or the Admin sets up."""
    own = OwnershipModule.of(state)
    if name is None:
        own.owners.pop(number, None)
        own.paid.pop(number, None)
    else:
        own.owners[number] = name
        if paid is not None:
            own.paid[number] = paid
