"""The first Nomopoly's XXVII: the Parallel Universe, a track of twenty squares numbered -20 to -1
off the board. A player enters it by landing on a Wormhole (square 22, or one a player built on a
square of theirs for $1200), by the Fountain of Spacetime, by the Blob's brown square or by a
Quijibo's sprinkles; they move along it with their usual dice, and each time they pass -1 a coin
decides whether they go round again or are warped back to the board, without landing, where their
way in says. Back on the board they may add one secret rule to the Parallel Universe, which the
Admin accepts or rejects (``nomopoly ruling pu-rule accept|reject N``).

While in it a player's square is their place on the track (-20 to -1), so nothing on the board
reaches them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import live_numbers, lowest
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.events import Ruling
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import check_text, parse_square
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomopoly1 import api
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square
    from admin.engine.module import RulingHandler

TRACK = 20


def _parse_rule(rest: str, _line: object) -> PuAct:
    text = rest.strip().lstrip(":").strip()
    if not text:
        raise CommandError("write PU RULE <your secret rule for the Parallel Universe>")
    return PuAct("rule", check_text(text, "the rule"))


def _parse_wormhole(rest: str, _line: object) -> PuAct:
    words = rest.split(None, 1)
    if len(words) != 2 or words[0].lower() != "on":
        raise CommandError("write BUILD WORMHOLE ON <square>")
    return PuAct("wormhole", square=parse_square(words[1]))


@command("PU RULE <text>", keyword="PU RULE", parse=_parse_rule, listing=270, private=True, rules=("XXVII.4",),
         summary="back from the Parallel Universe: add a secret rule to it (the Admin accepts or rejects it; "
                 "only you are told)", example="PU RULE Square -7 is sticky")
@command("BUILD WORMHOLE ON <square>", keyword="BUILD WORMHOLE", parse=_parse_wormhole, listing=271,
         rules=("XXVII.5",), summary="make a square you own a Wormhole ($1200)", example="BUILD WORMHOLE ON 14")
class PuAct:
    """``PU RULE <text>`` (XXVII.4) or ``BUILD WORMHOLE ON <n>`` (XXVII.5)."""

    act: str
    text: str = ""
    square: int = 0


@dataclass
class Traveller:
    #: where they come back: "wormhole" (the one they came by: ``square``), "square" (``square``),
    #: "blob" (wherever the Blob is then)
    back_to: str
    square: int


@dataclass
class ParallelState:
    #: the Wormholes: square 22 and those players built
    wormholes: list[int] = field(default_factory=lambda: [22])
    #: players in the Parallel Universe, and how they come back
    inside: dict[str, Traveller] = field(default_factory=dict)
    #: players back from it who may add a rule (XXVII.4)
    may_add_rule: list[str] = field(default_factory=list)


@dataclass
class PendingRule:
    number: int
    player: str
    text: str


@dataclass
class ParallelPrivate:
    #: the Parallel Universe's own rules, never posted (XXVII.4)
    rules: list[str] = field(default_factory=list)
    #: rules awaiting the Admin
    pending: list[PendingRule] = field(default_factory=list)
    next_number: int = 1


class ParallelModule(Mechanic[ParallelState, ParallelPrivate]):
    name = "parallel-universe"
    rules = ("XXVII.1", "XXVII.2", "XXVII.3", "XXVII.4", "XXVII.5")
    stated = {"XXVII.5": {"wormhole_price": ("A player may pay ${} to make a square",)}}
    defaults = {"wormhole_price": 1200}
    summary = "Wormholes lead to the Parallel Universe, a track of twenty squares; a coin decides when you come back."
    State = ParallelState
    Private = ParallelPrivate

    def commands(self) -> Sequence[CommandSpec]:
        return handled((PuAct, pu_act))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"pu-rule": _judge}

    def setup(self, state: GameState) -> None:
        super().setup(state)
        for square in state.squares:  # enabled on a board that has square 22 already
            self.on_square_added(state, square)

    def can_own(self, state: GameState, square: Square) -> bool:
        return square.number != 22  # XXVII.2: the first Wormhole is nobody's

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if square.number in self.of(ctx.state).wormholes:
            warp_in(ctx, player, Traveller("wormhole", square.number), f"the Wormhole on square {square.number}")

    def move_instead(self, ctx: UpdateContext, player: Player, steps: int) -> bool:
        ps = self.of(ctx.state)
        if player.name not in ps.inside:
            return False
        here = player.square
        coins = api.PU_COINS.of(ctx)
        for _ in range(steps):
            if here == -1:  # passing -1: round again, or back to the board (XXVII.3)
                k = coins[player.name] = coins.get(player.name, 0) + 1
                if ctx.dice.roll(f"pu/{player.name}/{k}", 2) == 2:
                    warp_out(ctx, player)
                    return True
                here = -TRACK
            else:
                here += 1
        start, player.square = player.square, here
        ctx.emit("move", f"{player.name} moved {steps} in the Parallel Universe, from {start} to {here}.",
                 player=player.name, rule="XXVII.3", data={"from": start, "to": here})
        return True

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.of(ctx.state).inside.pop(player.name, None)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ps = self.of(state)
        ps.inside.pop(player.name, None)
        ps.may_add_rule = [n for n in ps.may_add_rule if n != player.name]

    def on_square_added(self, state: GameState, square: Square) -> None:
        ps = self.of(state)
        if square.destroyed:  # a destroyed Wormhole is gone (XXVII.4: back to square 1 instead)
            ps.wormholes = [n for n in ps.wormholes if n != square.number]
        elif square.number == 22 and 22 in ps.wormholes and not square.name:
            square.name = "Wormhole"  # XXVII.2: square 22 is named Wormhole

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "in_pu":
            return False
        ps = self.of(state)
        if value:
            ps.inside[player.name] = Traveller("wormhole", 22)
            player.square = -TRACK if player.square > 0 else player.square
        else:
            ps.inside.pop(player.name, None)
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("in_pu", player.name in self.of(state).inside, label="In the Parallel Universe", kind="text")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("wormhole", square.number in self.of(state).wormholes)]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if square.number not in self.of(state).wormholes:
            return None
        return SquareLook(notes=((59, "a Wormhole"),), flags=((59, "WH", "Wormhole"),))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        ps = self.of(state)
        lines = []
        if player.name in ps.inside:
            lines.append((72, f"  You are in the Parallel Universe, on {player.square}"))
        if player.name in ps.may_add_rule:
            lines.append((73, "  You may add one secret rule to the Parallel Universe: PU RULE <text>"))
        return lines


def wormholes(state: GameState) -> list[int]:
    return ParallelModule.of(state).wormholes if state.enabled(ParallelModule.name) else []


def warp_in(ctx: UpdateContext, player: Player, traveller: Traveller, how: str) -> None:
    """Take the player off the board onto square -20 (XXVII.3), to come back as ``traveller`` says."""
    ps = ParallelModule.of(ctx.state)
    if player.name in ps.inside:
        return
    ps.inside[player.name] = traveller
    player.square = -TRACK
    ctx.emit("parallel", f"{player.name} went into the Parallel Universe ({how}).", player=player.name,
             rule="XXVII.3")


def warp_out(ctx: UpdateContext, player: Player) -> None:
    """Back to the board, without landing (XXVII.4), where the way in says; then a rule to add."""
    ps = ParallelModule.of(ctx.state)
    traveller = ps.inside.pop(player.name)
    live = live_numbers(ctx.state)
    blob = api.BLOB.get(ctx.state)
    if traveller.back_to == "blob" and blob is not None:
        square = blob.square
    elif traveller.back_to == "wormhole":
        square = traveller.square if traveller.square in ps.wormholes else lowest(ctx.state)
    else:
        square = traveller.square
    player.square = square if square in live else lowest(ctx.state)
    if player.name not in ps.may_add_rule:
        ps.may_add_rule.append(player.name)
    ctx.emit("parallel", f"{player.name} was warped back from the Parallel Universe to square {player.square}.",
             player=player.name, rule="XXVII.4")


def pu_act(ctx: UpdateContext, player: Player, cmd: PuAct) -> str:
    ps = ParallelModule.of(ctx.state)
    if cmd.act == "wormhole":
        if owner_of(ctx.state, cmd.square) != player.name:
            raise IllegalAction("you may build a Wormhole only on a square you own (XXVII.5)")
        if cmd.square in ps.wormholes:
            raise IllegalAction(f"square {cmd.square} is a Wormhole already")
        price = int(ctx.params(ParallelModule.name)["wormhole_price"])
        ctx.transfer(player.name, BANK, price, rule="XXVII.5", reason="a Wormhole", voluntary=True, kind="purchase")
        ps.wormholes = sorted(ps.wormholes + [cmd.square])
        return f"{player.name} built a Wormhole on square {cmd.square} for {ctx.state.money(price)}."
    if player.name not in ps.may_add_rule:
        raise IllegalAction("only a player back from the Parallel Universe may add a rule to it (XXVII.4)")
    priv = ParallelModule.private_of(ctx.state)
    if any(r.player == player.name for r in priv.pending):
        raise IllegalAction("your rule awaits the Admin already")
    rule = PendingRule(priv.next_number, player.name, cmd.text)
    priv.next_number += 1
    priv.pending.append(rule)
    ps.may_add_rule.remove(player.name)
    ctx.emit("admin", None, private=f"Parallel Universe rule {rule.number} from {player.name}, to accept or reject "
                                    f"(nomopoly ruling pu-rule accept|reject {rule.number} --note ...): {cmd.text}",
             rule="XXVII.4")
    return f"{player.name} sent the Admin a secret rule for the Parallel Universe (number {rule.number})."


def _judge(ctx: UpdateContext, r: Ruling) -> str:
    """``nomopoly ruling pu-rule accept|reject N [--note why]`` (XXVII.4)."""
    priv = ParallelModule.private_of(ctx.state)
    verdict = str(r.args.get("verdict", "")).lower()
    number = int(r.args.get("number", 0))
    rule = next((x for x in priv.pending if x.number == number), None)
    if rule is None:
        raise RuleError(f"no Parallel Universe rule {number} awaits a ruling; pending: "
                        f"{', '.join(str(x.number) for x in priv.pending) or 'none'}")
    if verdict not in ("accept", "reject"):
        raise RuleError("say accept or reject")
    priv.pending.remove(rule)
    if verdict == "accept":
        priv.rules.append(rule.text)
    else:  # sent back with the reason; its author may send another
        ParallelModule.of(ctx.state).may_add_rule.append(rule.player)
    ctx.emit("parallel", None, player=rule.player,
             private=f"The Admin {verdict}ed your Parallel Universe rule {number}"
                     + (f": {r.note}" if r.note else "") + ("." if verdict == "accept" else "; you may send another."),
             rule="XXVII.4")
    return f"Parallel Universe rule {number} {verdict}ed."
