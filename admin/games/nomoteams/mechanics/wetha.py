"""XXVIII: the Wide Eyed Tree Hugging Anarckists (the WETHA). Dues (XXVIII.2) and the Dues payers'
rent rolls (XXVIII.3), the WETHA's Lodges on squares 28, 53 and 83 (XXVIII.4), what landing on a
Lodge does to a Team member or a Freemason (XXVIII.5-7) through the WETHA's Giveaway Queue, and
trees (XXVIII.8).

The WETHA is an organisation that holds money and squares: it is brought in as a pseudoplayer
(``pseudo.add_piece``, kind ``wetha``), so ``ctx.transfer`` pays it and the Pseudoplayers page
shows it. Its Dues payers are ``dues_paid`` (the ownership module's VIII.11 reads them). Lodges
and trees are marks other sections read (``shared.marked``): a Lodge is a pollutant, is never
destroyed and never coated; a tree's square is never coated."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import (LODGE_SQUARES, WETHA, add_mark, is_freemason, market_value, marked,
                                              mentioned_squares, squares_of, team_of)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square


@dataclass
class WethaState:
    #: the players who have paid Dues (XXVIII.2), in the order they first paid
    dues_paid: list[str] = field(default_factory=list)
    #: player -> the dollars of Dues she has paid in all (XXVIII.3 rolls once a dollar)
    dues: dict[str, int] = field(default_factory=dict)
    #: the squares with a Lodge (XXVIII.4)
    lodges: list[int] = field(default_factory=list)
    #: the WETHA's Giveaway Queue: squares, first out first (XXVIII.5-7)
    queue: list[int] = field(default_factory=list)
    #: squares with a tree (XXVIII.8)
    trees: list[int] = field(default_factory=list)


def _parse_dues(rest: str, line: object) -> PayDues:
    m = re.fullmatch(r"\$?(\d{1,9})", rest.strip())
    if not m or int(m.group(1)) < 1:
        raise CommandError(f"PAY DUES needs a whole number of dollars, at least 1, like PAY DUES 5; found "
                           f"{rest.strip()!r}.")
    return PayDues(int(m.group(1)))


def _parse_tree(rest: str, line: object) -> PlantTree:
    text = re.sub(r"^\s*ON\s+", "", rest, flags=re.IGNORECASE)
    if not text.strip():
        raise CommandError("PLANT TREE needs a square, like PLANT TREE ON 12.")
    return PlantTree(parse_square(text))


@command("PAY DUES <amount>", keyword="PAY DUES", parse=_parse_dues, cmd="teams-pay-dues", listing=150,
         summary="pay Dues to the WETHA (any whole number of dollars): the Dues payers' rent rolls, Lodges, trees",
         example="PAY DUES 5", rules=("XXVIII.2",))
class PayDues:
    """``PAY DUES <amount>`` (XXVIII.2)."""

    amount: int


@command("PLANT TREE ON <square>", keyword="PLANT TREE", parse=_parse_tree, cmd="teams-plant-tree", listing=151,
         summary="a Dues payer plants a tree on a square with no Store, no Tefflon and no pollutant",
         example="PLANT TREE ON 12", rules=("XXVIII.8",))
class PlantTree:
    """``PLANT TREE ON <square>`` (XXVIII.8)."""

    square: int


class WethaModule(Mechanic[WethaState, None]):
    name = "teams-wetha"
    rules = ("XXVIII.2", "XXVIII.3", "XXVIII.4", "XXVIII.5", "XXVIII.6", "XXVIII.7", "XXVIII.8")
    stated = {"XXVIII.3": {"dice_per_roll": ("she rolls {} dice once",)},
              "XXVIII.6": {"lodge_fine": ("pays the WETHA a ${} fine",)}}
    requires = ("teams-pseudo", "teams-ownership")
    defaults = {"lodge_fine": 50, "dodge_below": 5, "dice_per_roll": 4, "extra_rent": 1}
    minimums = {"lodge_fine": 0, "dice_per_roll": 1, "extra_rent": 0}
    maximums = {'dice_per_roll': 10}
    summary = "The WETHA: Dues and the rent rolls, Lodges on 28, 53 and 83, the Giveaway Queue, trees."
    State = WethaState

    def setup(self, state: GameState) -> None:
        from admin.games.nomoteams.mechanics.pseudo import add_piece

        super().setup(state)
        if WETHA not in api.PSEUDO.of(state).pieces:
            add_piece(state, WETHA, "wetha", what="the Wide Eyed Tree Hugging Anarckists (XXVIII): Dues, "
                                                  "Lodges, the Giveaway Queue", money=0)
        for square in state.live_squares():
            place_lodge(state, square.number)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((PayDues, pay_dues), (PlantTree, plant_tree))

    def on_square_added(self, state: GameState, square: Square) -> None:
        ws = self.of(state)
        ws.trees = [n for n in ws.trees if n != square.number]
        ws.queue = [n for n in ws.queue if n != square.number]
        ws.lodges = [n for n in ws.lodges if n != square.number]
        if not square.destroyed:
            place_lodge(state, square.number)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ws = self.of(state)
        ws.dues_paid = [n for n in ws.dues_paid if n != player.name]
        ws.dues.pop(player.name, None)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if square.number in self.of(ctx.state).lodges:
            visit_lodge(ctx, player, square.number)

    def adjust_rent_paid(self, ctx: UpdateContext, payer: Player, square: Square, rent: int) -> int:
        return rent_rolls(ctx, payer, square.number, rent)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "dues":
            return False
        ws = self.of(state)
        ws.dues[player.name] = int(value)
        if int(value) > 0 and player.name not in ws.dues_paid:
            ws.dues_paid.append(player.name)
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        ws = self.of(state)
        if key == "tree":
            ws.trees = sorted((set(ws.trees) | {square.number}) if value else (set(ws.trees) - {square.number}))
        elif key == "wetha_queue":  # the Giveaway Queue's place (1: first), for scenarios and the Admin
            ws.queue = [n for n in ws.queue if n != square.number]
            ws.queue.insert(int(value) - 1, square.number)
        else:
            return False
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("wetha_dues", self.of(state).dues.get(player.name, 0), label="WETHA Dues paid", order=47)]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        dues = self.of(state).dues.get(player.name, 0)
        if not dues:
            return []
        return [(77, f"  WETHA Dues paid: {state.money(dues)} (a rent roll of four dice for each dollar)")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        ws = self.of(state)
        return [Fact("lodge", square.number in ws.lodges, order=19, kind="text"),
                Fact("tree", square.number in ws.trees, order=19, kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        ws = self.of(state)
        flags: tuple[tuple[int, str, str], ...] = ()
        flags += ((30, "L", "a WETHA Lodge (XXVIII.4)"),) if square.number in ws.lodges else ()
        flags += ((31, "T", "a tree (XXVIII.8)"),) if square.number in ws.trees else ()
        return SquareLook(flags=flags) if flags else None

    def panels(self, state: GameState) -> list[Panel]:
        ws = self.of(state)
        return [Panel("wetha", "The WETHA",
                      "The Wide Eyed Tree Hugging Anarckists (XXVIII). Anyone may pay Dues (PAY DUES 5): each "
                      "time a Dues payer must pay rent she rolls four dice once for each dollar of Dues she has "
                      "paid, and pays no rent if any roll totals under five, else a dollar more. The WETHA's "
                      "Lodges stand on squares 28, 53 and 83: a Team member without Dues who owns two squares "
                      "or more and lands on one gives the WETHA her second least valuable square; a Team member "
                      "with Dues pays a $50 fine and takes the first square of the Giveaway Queue; a Freemason "
                      "takes it free. Dues payers may plant trees (PLANT TREE ON 12).",
                      (Table("Dues payers", ("Player", "Dues paid"),
                             tuple((n, state.money(ws.dues.get(n, 0))) for n in ws.dues_paid)),
                       Table("Lodges", ("Square",), tuple((n,) for n in ws.lodges)),
                       Table("Giveaway Queue", ("Place", "Square"), tuple(enumerate(ws.queue, 1))),
                       Table("Trees", ("Square",), tuple((n,) for n in ws.trees))), order=22)]


def _wetha(state: GameState) -> WethaState | None:
    return api.WETHA.get(state)


def _is_lodge(state: GameState, number: int) -> bool:
    ws = _wetha(state)
    return ws is not None and number in ws.lodges


def _has_tree(state: GameState, number: int) -> bool:
    ws = _wetha(state)
    return ws is not None and number in ws.trees


for _mark in ("lodge", "pollutant", "indestructible"):
    add_mark(_mark, _is_lodge)
add_mark("tree", _has_tree)


def place_lodge(state: GameState, number: int) -> None:
    """XXVIII.4: squares 28, 53 and 83 hold the WETHA's Lodges, owned by the WETHA (square 83 only
    once the board has 83 squares: it has them exactly when that square exists)."""
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner

    ws = WethaModule.of(state)
    if number in LODGE_SQUARES and number not in ws.lodges:
        ws.lodges.append(number)
        ws.lodges.sort()
        set_owner(state, number, WETHA)


def pay_dues(ctx: UpdateContext, player: Player, cmd: PayDues) -> str:
    ws = WethaModule.of(ctx.state)
    ctx.transfer(player.name, WETHA, cmd.amount, rule="XXVIII.2", reason="Dues to the WETHA", voluntary=True)
    ws.dues[player.name] = ws.dues.get(player.name, 0) + cmd.amount
    if player.name not in ws.dues_paid:
        ws.dues_paid.append(player.name)
    ctx.emit("wetha", f"{player.name} paid {ctx.state.money(cmd.amount)} of Dues to the WETHA (XXVIII.2).",
             player=player.name, rule="XXVIII.2", data={"amount": cmd.amount})
    return (f"{player.name} paid {ctx.state.money(cmd.amount)} of Dues to the WETHA, "
            f"{ctx.state.money(ws.dues[player.name])} in all (XXVIII.2).")


def rent_rolls(ctx: UpdateContext, payer: Player, number: int, rent: int) -> int:
    """XXVIII.3: a Dues payer who must pay rent rolls four dice once for each dollar of Dues paid:
    any roll under five pips and she pays none; none under five, a dollar more. The rolls stop at
    the first under five (the outcome is then known)."""
    ws = WethaModule.of(ctx.state)
    dues = ws.dues.get(payer.name, 0) if payer.name in ws.dues_paid else 0
    if rent <= 0 or dues <= 0:
        return rent
    p = ctx.params(WethaModule.name)
    count = api.WETHA_RENT.of(ctx)
    key = f"{payer.name}/{number}"
    count[key] = count.get(key, 0) + 1
    for k in range(dues):
        faces = [ctx.dice.roll(f"wetha/{key}/{count[key]}/{k + 1}/d{d + 1}", 6) for d in range(int(p["dice_per_roll"]))]
        if sum(faces) < int(p["dodge_below"]):
            ctx.emit("wetha", f"{payer.name} paid Dues to the WETHA and rolled {'-'.join(map(str, faces))}, under "
                              f"{p['dodge_below']}: no rent for square {number} (XXVIII.3).", player=payer.name,
                     rule="XXVIII.3", data={"square": number, "faces": faces, "roll": k + 1})
            return 0
    extra = int(p["extra_rent"])
    ctx.emit("wetha", f"{payer.name} paid Dues to the WETHA and rolled no total under {p['dodge_below']} in "
                      f"{dues} roll{'s' if dues != 1 else ''}: {ctx.state.money(extra)} more rent for square "
                      f"{number} (XXVIII.3).", player=payer.name, rule="XXVIII.3",
             data={"square": number, "rolls": dues})
    return rent + extra


def visit_lodge(ctx: UpdateContext, player: Player, number: int) -> None:
    """XXVIII.5-7: a player lands on a Lodge."""
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner

    state, ws = ctx.state, WethaModule.of(ctx.state)
    if is_freemason(state, player.name):
        give_first(ctx, player, number, "XXVIII.7")
        return
    if team_of(state, player.name) is None:
        return  # neither a Team member nor a Freemason (a Team still to be drawn): no rule applies
    if player.name in ws.dues_paid:
        fine = int(ctx.params(WethaModule.name)["lodge_fine"])
        ctx.transfer(player.name, WETHA, fine, rule="XXVIII.6", reason=f"the fine at the Lodge on square {number}")
        ctx.emit("wetha", f"{player.name} paid Dues and landed on the Lodge on square {number}: fined "
                          f"{state.money(fine)}, paid to the WETHA (XXVIII.6).", player=player.name, rule="XXVIII.6")
        give_first(ctx, player, number, "XXVIII.6")
        return
    owned = sorted(squares_of(state, player.name), key=lambda n: (market_value(state, n), n))
    if len(owned) < 2:
        return
    taken = owned[1]
    if marked(state, taken, "jumpgate") or taken in mentioned_squares(state):
        ctx.emit("wetha", f"{player.name} landed on the Lodge on square {number} without paying Dues; her second "
                          f"least valuable square, {taken}, is part of a Jumpgate or named in the rules, so the "
                          "WETHA takes nothing (XXVIII.5).", player=player.name, rule="XXVIII.5")
        return
    set_owner(state, taken, WETHA)
    ws.queue.append(taken)
    ctx.emit("wetha", f"{player.name} landed on the Lodge on square {number} without paying Dues: her second least "
                      f"valuable square, {taken}, went to the WETHA, last in its Giveaway Queue (XXVIII.5).",
             player=player.name, rule="XXVIII.5", data={"square": taken})


def give_first(ctx: UpdateContext, player: Player, lodge: int, rule: str) -> None:
    """The first item of the Giveaway Queue goes to ``player`` (squares the WETHA no longer owns
    drop out of the queue)."""
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner
    from admin.games.nomoteams.mechanics.shared import owner_of

    ws = WethaModule.of(ctx.state)
    ws.queue = [n for n in ws.queue if owner_of(ctx.state, n) == WETHA]
    if not ws.queue:
        ctx.emit("wetha", f"The WETHA's Giveaway Queue is empty: {player.name} receives nothing at the Lodge on "
                          f"square {lodge} ({rule}).", player=player.name, rule=rule)
        return
    number = ws.queue.pop(0)
    set_owner(ctx.state, number, player.name)
    ctx.emit("wetha", f"{player.name} received square {number}, the first in the WETHA's Giveaway Queue, at the "
                      f"Lodge on square {lodge} ({rule}).", player=player.name, rule=rule, data={"square": number})


def plant_tree(ctx: UpdateContext, player: Player, cmd: PlantTree) -> str:
    from admin.games.nomoteams.mechanics.ownership.mechanic import check_square

    ws = WethaModule.of(ctx.state)
    if player.name not in ws.dues_paid:
        raise IllegalAction("only a player who has paid Dues to the WETHA may plant a tree (XXVIII.8); "
                            "PAY DUES 1 first")
    check_square(ctx, cmd.square)
    if cmd.square in ws.trees:
        raise IllegalAction(f"square {cmd.square} has a tree already (XXVIII.8)")
    for mark, what in (("store", "a Store"), ("tefflon", "a Tefflon coat"), ("pollutant", "a pollutant")):
        if marked(ctx.state, cmd.square, mark):
            raise IllegalAction(f"square {cmd.square} has {what}: a tree may grow only on a square with no Store, "
                                "no Tefflon and no pollutant (XXVIII.8)")
    ws.trees = sorted(ws.trees + [cmd.square])
    ctx.emit("wetha", f"{player.name} planted a tree on square {cmd.square} (XXVIII.8).", player=player.name,
             rule="XXVIII.8", data={"square": cmd.square})
    return f"{player.name} planted a tree on square {cmd.square}: it stays until the square is destroyed (XXVIII.8)."
