"""VIII: owning squares. Buying at market value from The Government, rent on named squares, the
Best Friend's half, Corporate Colours' 20% to The Corporation, the property tax on Government
Colours, the White squares' weekly fine, naming and the renaming ladder, giving, Homesteads and
Charity. Squares may be owned by players and by the pseudoplayers (X.2, X.3)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Sequence, cast

from admin.engine import hooks
from admin.engine.context import BANK
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.ownership.commands import COMMANDS
from admin.games.nomoteams.mechanics.ownership.state import (  # noqa: F401 - part of the ownership interface
    CHARITY, NAME, BuyRight, CharityRequest, Stay, TeamsOwnershipState, destroy, halved_for_friend, section_viii_pay)
from admin.games.nomoteams.mechanics.shared import (  # noqa: F401 - also read from here by the others
    CORPORATE_COLOURS, CORPORATION, GOVERNMENT, GOVERNMENT_COLOURS, PSEUDOPLAYERS, check_square, colour_of, dollars,
    is_freemason, is_national_park, is_public_property, market_value, rent_value, set_owner)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square


class TeamsOwnershipModule(Mechanic[TeamsOwnershipState, None]):
    name = NAME
    rules = ("VIII.1", "VIII.2", "VIII.3", "VIII.4", "VIII.5", "VIII.6", "VIII.7", "VIII.9", "VIII.10", "VIII.11",
             "VIII.12", "VIII.13", "X.2")
    stated = {"VIII.6": {"corporate_rent_percent": ("then pays {}% of that rent",)},
              "VIII.7": {"property_tax_percent": ("a property tax of {}% of its",)},
              "VIII.12": {"homestead_weeks": ("has ended {} weeks in a row",)}}
    defaults = {"market_value_per_number": 10, "rent_per_number": 2, "white_fine": 50,
                "property_tax_percent": 5, "corporate_rent_percent": 20,
                "rename_fees": [15, 30, 100], "homestead_weeks": 3}
    minimums = {"market_value_per_number": 0, "rent_per_number": 0, "white_fine": 0, "homestead_weeks": 1}
    summary = "Buying at market value, rent on named squares, renaming, Homesteads, Charity, weekly upkeep."
    State = TeamsOwnershipState

    def commands(self) -> Sequence[CommandSpec]:
        return COMMANDS

    def on_square_added(self, state: GameState, square: Square) -> None:
        own = self.of(state)
        own.owners.pop(square.number, None)
        own.renamed.pop(square.number, None)
        own.charity = [n for n in own.charity if n != square.number]
        if square.destroyed:  # XVIII.2: every right, Homestead and request on it is void
            own.buy_rights = [r for r in own.buy_rights if r.square != square.number]
            own.charity_requests = [r for r in own.charity_requests if r.square != square.number]
            own.homesteads = {p: [n for n in ns if n != square.number] for p, ns in own.homesteads.items()}
            own.stays = {p: s for p, s in own.stays.items() if s.square != square.number}
        if not square.destroyed and (is_public_property(square.number) or is_national_park(square.number)):
            own.owners[square.number] = GOVERNMENT  # X.2, X.3

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        """XVIII.2: the highest square takes a destroyed square's number, with its owner and all."""
        own = self.of(state)
        if old in own.owners:
            own.owners[new] = own.owners.pop(old)
        if old in own.renamed:
            own.renamed[new] = own.renamed.pop(old)
        own.charity = [new if n == old else n for n in own.charity]
        records: list[BuyRight | CharityRequest | Stay] = [*own.buy_rights, *own.charity_requests, *own.stays.values()]
        for rec in records:
            if rec.square == old:
                rec.square = new
        own.homesteads = {p: [new if n == old else n for n in ns] for p, ns in own.homesteads.items()}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        """A player who leaves without saying how gives her squares to The Government (II.8)."""
        own = self.of(state)
        for number, owner in list(own.owners.items()):
            if owner == player.name:
                own.owners[number] = GOVERNMENT
        own.buy_rights = [r for r in own.buy_rights if r.player != player.name]
        own.homesteads.pop(player.name, None)
        own.stays.pop(player.name, None)
        own.charity_requests = [r for r in own.charity_requests if r.player != player.name]

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        if turn == 0:
            own = self.of(ctx.state)
            own.buy_rights = [r for r in own.buy_rights
                              if r.player != player.name or r.update == ctx.state.update]

    def on_update_start(self, ctx: UpdateContext) -> None:
        award_charity(ctx)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        own = self.of(ctx.state)
        owner = own.owners.get(square.number)
        if owner is None:
            own.buy_rights = [r for r in own.buy_rights if not (r.player == player.name and r.square == square.number)]
            own.buy_rights.append(BuyRight(square.number, player.name, ctx.state.update))
            ctx.emit("land", f"{player.name} landed on unowned square {square.number}; its market value is "
                             f"{ctx.state.money(market_value(ctx.state, square.number))} (BUY {square.number}).",
                     player=player.name, rule="teams:VIII.4", data={"square": square.number})
            return
        collect_rent(ctx, player, square.number, owner)

    def on_update_end(self, ctx: UpdateContext) -> None:
        if ctx.slot.week_end:
            weekly_upkeep(ctx)
            own = self.of(ctx.state)
            for p in sorted(ctx.state.active_players(), key=lambda p: p.name):
                stay = own.stays.get(p.name)
                own.stays[p.name] = Stay(p.square, stay.weeks + 1 if stay and stay.square == p.square else 1)

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key == "owner":
            set_owner(state, square.number, value)
        elif key == "renamed":
            self.of(state).renamed[square.number] = int(value)
        else:
            return False
        return True

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        own = self.of(state)
        if key == "homesteads":
            own.homesteads[player.name] = [int(n) for n in value]
        elif key == "weeks_on_square":
            own.stays[player.name] = Stay(player.square, int(value))
        else:
            return False
        return True

    def worth(self, state: GameState, player: Player) -> int:
        return sum(market_value(state, n) for n, o in self.of(state).owners.items()
                   if o == player.name and not state.squares[n - 1].destroyed)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        own = self.of(state)
        mine = [s.number for s in state.live_squares() if own.owners.get(s.number) == player.name]
        return [Fact("squares", mine, column="Squares owned", order=30, kind="squares"),
                Fact("homesteads", own.homesteads.get(player.name, []), label="Homesteads", order=31, kind="squares")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        own = self.of(state)
        return [Fact("owner", own.owners.get(square.number), column="Owner", order=10, kind="player"),
                Fact("market_value", market_value(state, square.number), column="Market value", order=11),
                Fact("renamed", own.renamed.get(square.number, 0), order=12),
                Fact("charity", square.number in own.charity, order=13)]

    def square_look(self, state: GameState, square: Square) -> SquareLook:
        owner = self.of(state).owners.get(square.number)
        return SquareLook(owner=owner if owner in state.players else None,
                          notes=((10, f"owned by {owner}" if owner else "unowned"),),
                          flags=((20, "GOV", "The Government's"),) if owner == GOVERNMENT else
                          ((20, "CORP", "The Corporation's"),) if owner == CORPORATION else ())

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        own = self.of(state)
        mine = [str(s.number) + (f" ({s.name})" if s.name else "") for s in state.live_squares()
                if own.owners.get(s.number) == player.name]
        lines = [(40, f"  Squares you own: {', '.join(mine) or 'none'}")]
        rights = [str(r.square) for r in own.buy_rights if r.player == player.name]
        if rights:
            lines.append((70, f"  You may still BUY: square {', '.join(rights)}"))
        return lines

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        own = self.of(state)
        mine = [str(n) for n, o in sorted(own.owners.items()) if o == player.name]
        return [(30, f"; squares owned: {', '.join(mine) or 'none'}")]


# -- helpers the other sections use ---------------------------------------------------------------
def can_hold_money(state: GameState, name: str) -> bool:
    """An owner rent can be paid to: an active player, or a pseudoplayer with money."""
    if name in state.players:
        return state.players[name].active
    return name in api.PSEUDO.of(state).money


def collect_rent(ctx: UpdateContext, player: Player, number: int, owner: str) -> int:
    """VIII.5: a player landing on a named square owned by another entity pays its rent value (less
    a Best Friend's half, none on a Homestead); a Corporate Colour's collector then passes 20% of it
    to The Corporation (VIII.6). The rent paid."""
    # its one caller (on_land) passes the number of the square landed on, which exists
    square = cast("Square", ctx.state.square(number))
    own = TeamsOwnershipModule.of(ctx.state)
    if owner == player.name or not square.name or not can_hold_money(ctx.state, owner):
        return 0
    if number in own.homesteads.get(player.name, []):
        ctx.emit("rent", f"{player.name} has a Homestead on square {number} and pays no rent (VIII.12).",
                 player=player.name, rule="VIII.12", data={"square": number, "amount": 0})
        return 0
    rent = rent_value(ctx.state, number)
    h = hooks.call(ctx)
    rent = h.adjust_rent_paid(ctx, player, square, h.adjust_rent(ctx, square, rent))
    paid = section_viii_pay(ctx, player.name, owner, rent, rule="VIII.5", reason=f"rent on square {number}")
    if paid <= 0:
        return 0
    friend = " (half, to a Best Friend)" if paid != rent else ""
    ctx.emit("rent", f"{player.name} paid {ctx.state.money(paid)} rent to {owner} for square {number}"
                     f"{friend}.", player=player.name, rule="VIII.5",
             data={"square": number, "amount": paid, "owner": owner})
    if colour_of(ctx.state, number) in CORPORATE_COLOURS and owner != CORPORATION:
        cut = dollars(Fraction(paid * int(ctx.params(TeamsOwnershipModule.name)["corporate_rent_percent"]), 100))
        if cut:
            section_viii_pay(ctx, owner, CORPORATION, cut, rule="VIII.6",
                             reason=f"the Corporate Colour's share of the rent on square {number}")
            ctx.emit("corporate-share", f"{owner} passed {ctx.state.money(cut)} of that rent to The "
                                        "Corporation (a Corporate Colour, VIII.6).", rule="VIII.6",
                     data={"square": number, "amount": cut})
    owner_player = ctx.state.players.get(owner)
    if owner_player is not None:
        hooks.call(ctx).on_rent_paid(ctx, player, owner_player, square, paid)
    return paid


def block_owner(state: GameState, colour: str) -> str | None:
    """VIII.8: the player who owns a block of ``colour`` (three or more squares of it, and nobody
    else owns one), or None."""
    owners = [o for n, o in TeamsOwnershipModule.of(state).owners.items()
              if o in state.players and not state.squares[n - 1].destroyed and colour_of(state, n) == colour]
    return owners[0] if owners and len(owners) >= 3 and len(set(owners)) == 1 else None


def dues_payers(state: GameState) -> set[str]:
    """The players who have paid Dues to the WETHA (XXVIII; its module keeps ``dues_paid``)."""
    wetha = api.WETHA.get(state)
    return set(wetha.dues_paid) if wetha is not None else set()


def weekly_upkeep(ctx: UpdateContext) -> None:
    """Once a week: the property tax on Government Colours (VIII.7) and the fine on White squares
    (VIII.11), squares in board order."""
    p = ctx.params(TeamsOwnershipModule.name)
    own = TeamsOwnershipModule.of(ctx.state)
    state = ctx.state
    for square in state.live_squares():
        owner = own.owners.get(square.number)
        player = state.players.get(owner) if owner else None
        if player is None or not player.active:
            continue
        colour = colour_of(state, square.number)
        if colour in GOVERNMENT_COLOURS:
            tax = dollars(Fraction(market_value(state, square.number) * int(p["property_tax_percent"]), 100))
            if player.money >= tax:
                section_viii_pay(ctx, player.name, GOVERNMENT, tax, rule="VIII.7",
                                 reason=f"property tax on square {square.number}")
            else:
                own.owners[square.number] = GOVERNMENT
                ctx.emit("property-tax", f"{player.name} could not pay the {ctx.state.money(tax)} property tax "
                                         f"on square {square.number}: it became Government Property (VIII.7).",
                         player=player.name, rule="VIII.7", data={"square": square.number})
        elif colour == "White":
            white_fine(ctx, player, square.number, int(p["white_fine"]))


def white_fine(ctx: UpdateContext, player: Player, number: int, amount: int) -> None:
    """VIII.11: the owner of a White square pays $50 a week, shared among the WETHA's Dues payers and
    the Freemasons (double for a player who is both); what does not divide leaves the game."""
    payers = dues_payers(ctx.state)
    shares = {p.name: (p.name in payers) + is_freemason(ctx.state, p.name)
              for p in ctx.state.active_players()}
    shares = {n: w for n, w in shares.items() if w}
    units = sum(shares.values())
    ctx.transfer(player.name, BANK, amount, rule="VIII.11", reason=f"the White square fine on square {number}")
    each = amount // units if units else 0
    for name in sorted(shares):
        ctx.transfer(BANK, name, each * shares[name], rule="VIII.11",
                     reason=f"a share of the White square fine on square {number}")
    ctx.emit("white-fine", f"{player.name} paid the {ctx.state.money(amount)} White square fine on square "
                           f"{number}" + (f"; {ctx.state.money(each)} a share to {', '.join(sorted(shares))}"
                                          if units else "; nobody shares it") + " (VIII.11).",
             player=player.name, rule="VIII.11", data={"square": number, "shares": shares, "each": each})


def award_charity(ctx: UpdateContext) -> None:
    """VIII.13: at the start of a week each Charity square goes to the poorest player who asked for
    it: the fewest squares, then the least money; a tie beyond that is drawn with the dice."""
    own = TeamsOwnershipModule.of(ctx.state)
    for number in list(own.charity):
        asking = sorted({r.player for r in own.charity_requests if r.square == number
                         and r.player in ctx.state.players and ctx.state.players[r.player].active})
        if not asking:
            continue

        def poorness(name: str) -> tuple[int, int]:
            return (sum(1 for o in own.owners.values() if o == name), ctx.state.players[name].money)

        best = min(poorness(n) for n in asking)
        tied = [n for n in asking if poorness(n) == best]
        winner = tied[0] if len(tied) == 1 else tied[ctx.dice.roll(f"charity/{number}", len(tied)) - 1]
        own.owners[number] = winner
        own.charity.remove(number)
        own.charity_requests = [r for r in own.charity_requests if r.square != number]
        ctx.emit("charity", f"Charity gave square {number} to {winner}, the poorest of "
                            f"{', '.join(asking)} (VIII.13).", player=winner, rule="VIII.13",
                 data={"square": number, "asking": asking})


__all__ = ["CHARITY", "PSEUDOPLAYERS", "TeamsOwnershipModule", "collect_rent", "set_owner", "section_viii_pay",
           # what the others read from here (the names imported above)
           "CORPORATE_COLOURS", "GOVERNMENT_COLOURS", "check_square", "destroy"]
