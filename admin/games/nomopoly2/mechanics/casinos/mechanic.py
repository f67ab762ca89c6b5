"""Nomopoly II XXXIII: Casinos. A square with a Casino (a building of XXII) pays its owner $50 a
week (XXXIII.1); a player standing on one may play Blackjack, Poker or Roulette, three plays an
update at most (XXXIII.2-4, the games in ``games.py``), and buy the casino's items
(XXXIII.5, in ``items.py``). Every bet and sale goes to the casino's till (the Admin Bank
Account) and every win is paid from it; at the end of each week the square's owner gets a share of
the casino's net profit, by the kind of block the square is in, or pays that share of a loss
(XXXIII.6).

Standing rulings (docs/rulings.md): the casino's money is the Admin Bank
Account's; the owner's share is settled at the week's end, rounded toward zero; a square in no
block gives ``no_block_percent`` (0); an owner pays their share of a loss (``owner_bears_losses``);
a player has one hand of each card game open at a time; an answer is due by the next update
(``answer_updates``), silence stands (Blackjack) or holds every card (Poker); a player dealt 21
stands at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.games.nomopoly2.mechanics.shared import squares_with
from admin.library.ownership import owner_of

#: XXXIII.5's items, as players write them, with their prices (parameter ``prices``)
from admin.games.nomopoly2.mechanics.casinos import games
from admin.games.nomopoly2.mechanics.casinos.items import item_commands
from admin.games.nomopoly2.mechanics.casinos.state import (  # noqa: F401 - part of the casinos' interface
    ITEM_PRICES, NAME, CasinosPrivate, CasinosState, casino_here, items_held, of, owner_percent,
    transfer_item, weekly,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction
    from admin.engine.inventory import Inventory
    from admin.engine.model import GameState, Player, Square


class CasinosModule(Mechanic[CasinosState, CasinosPrivate]):
    name = "casinos"
    rules = ("XXXIII.1", "XXXIII.2", "XXXIII.3", "XXXIII.4", "XXXIII.5", "XXXIII.6")
    stated = {"XXXIII.1": {"weekly_income": ("receives ${} from that Casino",)},
              "XXXIII.2": {"plays_per_update": ("no more than {} times in one update",),
                           "blackjack_max_bet": ("bets up to ${}. The dealer",),
                           "dealer_stands_on": ("until his total is at least {}",),
                           "poker_max_bet": ("bets up to ${} and is dealt",),
                           "roulette_max_bet": ("bets up to ${} on a number",),
                           "roulette_number_pays": ("comes up receives {} times the bet",),
                           "roulette_colour_pays": ("on its colour, {} times the bet",),
                           "roulette_five_pays": ("that include it, {} times the bet",)},
              "XXXIII.5": {"salad_health": ("eating it gives {} health",),
                           "grease_health": ("greased square loses {} health",),
                           "grease_max_per_move": ("more than {} health in one move",)}}
    defaults = {
        "weekly_income": 50,
        "plays_per_update": 3,
        "blackjack_max_bet": 500, "dealer_stands_on": 17, "blackjack_win_multiple": 2,
        "poker_max_bet": 25,
        "poker_pays": {"pair": 1, "two_pairs": 2, "three_of_a_kind": 3, "straight": 4, "flush": 5,
                       "full_house": 8, "four_of_a_kind": 25, "straight_flush": 50, "royal_flush": 400},
        "roulette_max_bet": 50, "roulette_number_pays": 36, "roulette_colour_pays": 2, "roulette_five_pays": 7,
        # the updates a player has to answer HIT/STAND or HOLD (1: by the next update's cut-off)
        "answer_updates": 1,
        "prices": dict(ITEM_PRICES),
        "salad_health": 5, "grease_health": 3, "grease_max_per_move": 12,
        # XXXIII.6: the owner's percentage of the net profit by the square's block kind
        "owner_percent": {"residential": 25, "industrial": 10, "commercial": 50, "government": 0},
        "no_block_percent": 0,
        "owner_bears_losses": True,
    }
    minimums = {"plays_per_update": 0, "answer_updates": 1, "dealer_stands_on": 1}
    summary = ("A Casino pays its owner $50 a week; play Blackjack, Poker and Roulette there (3 plays an "
               "update) and buy flowers, weighted dice, salads, auto-shufflers, grease and Jokers.")
    State = CasinosState
    Private = CasinosPrivate
    #: a Casino sells the Skunk's Joker (XXXIII.5), which comes with it
    requires = ("ownership", "health", "cards", "interactions", "jokers")

    def commands(self) -> Sequence[CommandSpec]:
        return (*games.game_commands(), *item_commands())

    # -- the lives of players and squares --------------------------------------------------
    def on_player_removed(self, state: GameState, player: Player) -> None:
        cs = self.of(state)
        cs.items.clear(player.name)
        cs.weighted.pop(player.name, None)
        cs.salad.pop(player.name, None)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        """XII.2: back as at the start of week 1: no casino items, no Weighted Die set."""
        cs = self.of(ctx.state)
        cs.items.clear(player.name)
        cs.weighted.pop(player.name, None)

    def on_square_added(self, state: GameState, square: Square) -> None:
        cs = self.of(state)
        cs.greased = [n for n in cs.greased if n != square.number]

    # -- the week (XXXIII.1, XXXIII.6) -----------------------------------------------------
    def on_update_end(self, ctx: UpdateContext) -> None:
        if ctx.slot.week_end:
            weekly(ctx)

    # -- the games' hands over several mails ------------------------------------------------
    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> str:
        return games.check_answer(ctx, interaction, player, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        return games.resolve(ctx, interaction, answers)

    # -- grease and the weighted die (XXXIII.5) ----------------------------------------------
    def redirect_landing(self, ctx: UpdateContext, player: Player, square: Square) -> int | None:
        if square.number not in self.of(ctx.state).greased:
            return None
        from admin.games.nomopoly1.mechanics.grease import slide

        p = ctx.params(self.name)
        return slide(ctx, player, square.number, loss=int(p["grease_health"]),
                     cap=int(p["grease_max_per_move"]), rule="XXXIII.5")

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        from admin.games.nomopoly1.mechanics.grease import end_of_move

        end_of_move(ctx, player)

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        face = self.of(ctx.state).weighted.pop(player.name, None)
        if face is None or not faces:
            return None
        ctx.emit("weighted-die", f"{player.name}'s weighted die shows {face}.", player=player.name,
                 rule="XXXIII.5", data={"face": face, "instead_of": faces[0]})
        return [face, *faces[1:]]

    # -- scenarios and tests -----------------------------------------------------------------
    # XX.1: a trade gives items from here
    def trade_inventory(self, state: GameState, player: str, item: str) -> Inventory | None:
        inv = self.of(state).items
        return inv if inv.count(player, item) > 0 else None

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        cs = self.of(state)
        if key == "casino_items":
            cs.items.clear(player.name)
            for item, n in dict(value or {}).items():
                if int(n):
                    cs.items.give(player.name, str(item), int(n))
        elif key == "weighted_die":
            if value is None:
                cs.weighted.pop(player.name, None)
            else:
                cs.weighted[player.name] = int(value)
        else:
            return False
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "greased":
            return False
        cs = self.of(state)
        cs.greased = sorted((set(cs.greased) | {square.number}) if value else (set(cs.greased) - {square.number}))
        return True

    # -- how it shows ------------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        cs = self.of(state)
        held = ", ".join(f"{k} x{v}" for k, v in cs.items.items(player.name).items())
        return [Fact("casino_items", held or "none", label="Casino items", order=70, kind="text"),
                Fact("weighted_die", cs.weighted.get(player.name))]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("greased", square.number in self.of(state).greased)]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        # the Casino itself is a building: the buildings section shows it
        if square.number not in self.of(state).greased:
            return None
        return SquareLook(notes=((80, "greased"),), flags=((80, "GR", "greased"),))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        cs = self.of(state)
        lines = []
        held = cs.items.items(player.name)
        if held:
            lines.append((70, "  Casino items: " + ", ".join(f"{k} x{v}" for k, v in held.items())))
        if player.name in cs.weighted:
            lines.append((71, f"  Your next turn's first die will show {cs.weighted[player.name]} (a weighted die)."))
        lines += [(72, line) for line in games.open_hand_lines(state, player.name)]
        return lines

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        held = ", ".join(f"{k} x{v}" for k, v in self.of(state).items.items(player.name).items())
        return [(70, f"; casino items: {held}")] if held else []

    def panels(self, state: GameState) -> list[Panel]:
        p = {**self.defaults, **state.params(self.name)}
        cs = self.of(state)
        rows = []
        for n in sorted(set(squares_with(state, "casino")) | set(cs.takings)):
            square = state.square(n)
            if square is None:
                continue
            t = cs.takings.get(n, {})
            taken, paid = int(t.get("in", 0)), int(t.get("out", 0))
            kind, percent = owner_percent(state, n, p)
            rows.append((n, square.name or "", owner_of(state, n) or "nobody", kind, f"{percent}%",
                         state.money(taken), state.money(paid), state.money(taken - paid)))
        last = tuple((r["square"], r["owner"] or "nobody", state.money(r["in"]), state.money(r["out"]),
                      state.money(r["net"]), f"{r['percent']}%", state.money(r["share"]))
                     for r in cs.last_week)
        prices = p["prices"]
        intro = (f"A square with a Casino pays its owner {state.money(int(p['weekly_income']))} a week "
                 f"(XXXIII.1). Anyone standing on one may play, {p['plays_per_update']} times an update at most: "
                 f"PLAY BLACKJACK (up to {state.money(int(p['blackjack_max_bet']))}), PLAY POKER (up to "
                 f"{state.money(int(p['poker_max_bet']))}) or PLAY ROULETTE (up to "
                 f"{state.money(int(p['roulette_max_bet']))}) (XXXIII.2). Bets and sales go to the casino, "
                 "winnings come from it, and at the end of each week the square's owner gets a share of its "
                 "net profit by the kind of block it is in, or pays that share of a loss (XXXIII.6). Items "
                 "for sale: " + ", ".join(f"{k} {state.money(int(v))}" for k, v in prices.items()) + " (XXXIII.5).")
        tables = [Table("Every casino, this week", ("Square", "Name", "Owner", "Block", "Owner's share",
                                                    "Taken in", "Paid out", "Net"), tuple(rows))]
        if last:
            tables.append(Table(f"Week {cs.last_week_number}, settled", ("Square", "Owner", "Taken in",
                                                                         "Paid out", "Net", "Owner's share",
                                                                         "Paid to the owner"), last))
        return [Panel("casinos", "Casinos", intro, tuple(tables), order=33)]


# -- helpers the games and items share ------------------------------------------------------
