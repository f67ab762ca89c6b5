"""XIII.1-XIII.8's module: its commands and ruling, the Elephant's reminder, what the site and the
results show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import handled
from admin.engine.module import CommandSpec, Mechanic, RulingHandler
from admin.engine.shows import Fact, Panel, Table
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.colours.paint import _colour_ruling, buy_paint, gipper, paint, pour
from admin.games.nomoteams.mechanics.colours.state import (COLOURS, NAME, BuyPaint, ColoursState, Gipper, Paint,
                                                           PourPaint, _give_can, cans_text, elephant_piece, parse_colour)
from admin.games.nomoteams.mechanics.ownership.mechanic import CORPORATE_COLOURS, GOVERNMENT_COLOURS, block_owner
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, WHITE, colour_of, owner_of

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player


class ColoursModule(Mechanic[ColoursState, None], api.KeepsObjects):
    name = NAME
    #: XIII.8 (the involuntary colourings) is the Admin's: the ``colour`` ruling (game.yaml's coverage)
    rules = ("XIII.1", "XIII.2", "XIII.3", "XIII.4", "XIII.5", "XIII.6", "XIII.7")
    stated = {"XIII.3": {"paint_cost": ("one of the Corporate Colors for ${}",)},
              "XIII.4": {"can_cost": ("in one of the Government Colors, for ${}",)},
              "XIII.5": {"gipper_fee": ("For ${} more than the cost of the paint",)}}
    defaults = {"paint_cost": 50, "paint_payee": CORPORATION, "can_cost": 100, "gipper_fee": 50,
                "elephant_fee": 1000}
    minimums = {"paint_cost": 0, "can_cost": 0, "gipper_fee": 0, "elephant_fee": 0}
    summary = "Corporate paint, Government Issue Paint and the GIPPer, the Elephant Skin Color, block colours."
    State = ColoursState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Paint, paint), (BuyPaint, buy_paint), (PourPaint, pour), (Gipper, gipper))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"colour": _colour_ruling}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).cans.pop(player.name, None)

    def on_update_end(self, ctx: UpdateContext) -> None:
        elephant = elephant_piece(ctx.state)
        if ctx.slot.week_end and elephant:
            ctx.emit("admin", f"{elephant} is in play: when it recolours its square (XXXIII.2; Elephant Skin Color "
                              f"{self.of(ctx.state).elephant_skin}), or a Sick player colours one involuntarily, "
                              "colour it: nomopoly ruling decide colour square=N elephant=true (or colour=C "
                              "involuntary=true) --reason ... (XIII.8 lets them break a block's protection)",
                     rule="XIII.8")

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "paint":
            return False
        self.of(state).cans[player.name] = {parse_colour(c, GOVERNMENT_COLOURS): int(n) for c, n in dict(value).items()}
        return True

    # -- objects (shared.objects_of): paint cans go with a player's objects (GIVE, LEAVE, II.8) --------
    def objects_of(self, state: GameState, name: str) -> dict[str, int]:
        return {f"can of {c} paint": n for c, n in self.of(state).cans.get(name, {}).items() if n}

    def move_object(self, state: GameState, giver: str, receiver: str, item: str, n: int) -> None:
        if not (item.startswith("can of ") and item.endswith(" paint")):
            return
        colour = item[len("can of "):-len(" paint")]
        held = self.of(state).cans.get(giver, {})
        held[colour] = held.get(colour, 0) - n
        if held[colour] <= 0:
            held.pop(colour, None)
        if not held:
            self.of(state).cans.pop(giver, None)
        _give_can(state, receiver, colour, n)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("paint", dict(self.of(state).cans.get(player.name, {})))] + (
            [Fact("paint_cans", cans_text(state, player.name), label="Paint cans", order=62, kind="text")]
            if self.of(state).cans.get(player.name) else [])

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        held = cans_text(state, player.name)
        return [(32, f"  Paint cans: {held}")] if held else []

    def panels(self, state: GameState) -> list[Panel]:
        p = {**self.defaults, **state.params(self.name)}
        blocks = tuple((c, block_owner(state, c)) for c in COLOURS if block_owner(state, c))
        painted = tuple((n, colour_of(state, n), owner_of(state, n) or "-")
                        for n in (s.number for s in state.live_squares()) if colour_of(state, n) != WHITE)
        prices = (("PAINT <n> <Corporate Colour> (XIII.3)", state.money(int(p["paint_cost"])), str(p["paint_payee"])),
                  ("BUY PAINT <Government Colour> (XIII.4)", state.money(int(p["can_cost"])), GOVERNMENT),
                  ("GIPPER PAINT <n> <colour> (XIII.5)", f"{state.money(int(p['gipper_fee']))} + the paint",
                   GOVERNMENT),
                  ("GIPPER PAINT ELEPHANT <colour> (XIII.6)", f"{state.money(int(p['elephant_fee']))} + the paint",
                   GOVERNMENT))
        return [Panel("colours", "Colours",
                      f"Corporate Colours: {', '.join(CORPORATE_COLOURS)}. Government Colours: "
                      f"{', '.join(GOVERNMENT_COLOURS)}. White is the Non-Profit-Organization Color, and every "
                      "square is White until coloured (XIII.1, XIII.2). Nobody may colour a square the colour "
                      "of a block a player owns (XIII.7), and a Tefflon-coated square cannot be recoloured "
                      f"(XIII.9). The Elephant Skin Color is {self.of(state).elephant_skin} (XIII.6).",
                      (Table("Prices", ("Command", "Cost", "Paid to"), prices),
                       Table("Protected colours (blocks, XIII.7)", ("Colour", "Block owner"), blocks),
                       Table("Painted squares", ("Square", "Colour", "Owner"), painted)), order=30)]
