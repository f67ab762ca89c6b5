"""XXI: Easy Movement. Up to two Easy Moves a week (XXI.1), each one of: The Government's
transport of a Registered Voter to Public Property (XXI.2), The Corporation's transport of the
owner of a Corporate-coloured square to a square The Corporation owns (XXI.3), a Taxi ($10 a move
along successors, predecessors and Jumpgates, around Blockbusters unless paid $500 more; the rider
becomes Sick, XXI.4), a delivery truck to one's Store (around Blockbusters, or $500, XXI.5), and
a Walk to the next or previous square (XXI.6).

An Easy Move puts the player on the square without landing there (a standing ruling,
``lands``); Blockbusters, Jumpgates and Stores are the products section's (``shared``'s
readers), so a game without them has none."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from admin.engine.board import live_numbers, predecessor, successor
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.movement import jump
from admin.engine.syntax import parse_square, quote
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.actions import acting_square, affordable
from admin.games.nomoteams.mechanics.shared import (CORPORATE_COLOURS, CORPORATION, GOVERNMENT, blockbuster_squares,
                                              colour_of, is_public_property, jumpgate_pairs, make_sick, owner_of,
                                              store_owners)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.engine.module import CommandSpec

NAME = "teams-easy-movement"
KINDS = ("government", "corporate", "taxi", "truck", "walk")


@dataclass
class EasyMovementState:
    #: the week the counts are for, and each player's Easy Moves in it (XXI.1)
    week: int = 0
    used: dict[str, int] = field(default_factory=dict)


_THROUGH = re.compile(r"\s+THROUGH\s+BLOCKBUSTERS$", re.IGNORECASE)


def _destination(rest: str, usage: str, *, optional: bool = False) -> tuple[int | None, bool]:
    text = rest.strip()
    pay = bool(_THROUGH.search(" " + text))
    text = _THROUGH.sub("", " " + text).strip()
    if text.upper().startswith("TO "):
        text = text[3:].strip()
    elif text.upper() == "TO":
        text = ""
    if not text:
        if optional:
            return None, pay
        raise CommandError(f"say where to: {usage}.")
    try:
        return parse_square(text), pay
    except CommandError as exc:
        raise CommandError(f"{exc} Say {usage}.") from None


def _transport(kind: str, usage: str) -> Callable[[str, object], EasyMove]:
    def parse(rest: str, line: object) -> EasyMove:
        square, pay = _destination(rest, usage)
        if pay:
            raise CommandError(f"only a Taxi or a delivery truck goes through Blockbusters; say {usage}.")
        return EasyMove(kind, square)
    return parse


def _parse_taxi(rest: str, line: object) -> EasyMove:
    square, pay = _destination(rest, "TAXI! <square> [THROUGH BLOCKBUSTERS]")
    return EasyMove("taxi", square, pay)


def _parse_truck(rest: str, line: object) -> EasyMove:
    square, pay = _destination(rest, "DELIVERY TRUCK [TO <square>] [THROUGH BLOCKBUSTERS]", optional=True)
    return EasyMove("truck", square, pay)


def _parse_walk(rest: str, line: object) -> EasyMove:
    word = rest.strip().upper()
    if word in ("FORWARD", "FORWARDS", "AHEAD"):
        return EasyMove("walk")
    if word in ("BACK", "BACKWARD", "BACKWARDS"):
        return EasyMove("walk", back=True)
    raise CommandError(f"say WALK FORWARD (to the next square) or WALK BACK (to the previous one); found "
                       f"{quote('WALK ' + rest.strip())}.")


@command("GOVERNMENT TRANSPORT TO <square>", keyword="GOVERNMENT TRANSPORT", cmd="teams-easy-move",
         parse=_transport("government", "GOVERNMENT TRANSPORT TO <square>"), listing=170, rules=("XXI.2",),
         summary="a Registered Voter: The Government takes you to the Public Property you choose (an Easy Move)",
         example="GOVERNMENT TRANSPORT TO 10")
@command("CORPORATE TRANSPORT TO <square>", keyword="CORPORATE TRANSPORT",
         parse=_transport("corporate", "CORPORATE TRANSPORT TO <square>"), listing=171, rules=("XXI.3",),
         summary="the owner of a Corporate-coloured square: The Corporation takes you to a square it owns "
                 "(an Easy Move)", example="CORPORATE TRANSPORT TO 14")
@command("TAXI! <square> [THROUGH BLOCKBUSTERS]", parse=_parse_taxi, listing=172, rules=("XXI.4",),
         summary="a Taxi to the square: $10 a move along the board and Jumpgates, around Blockbusters unless you "
                 "pay $500 more; you become Sick (an Easy Move)", example="TAXI! 15")
@command("TAXI <square> [THROUGH BLOCKBUSTERS]", parse=_parse_taxi, listing=173, rules=("XXI.4",),
         summary="the same as TAXI!", example="TAXI 15")
@command("DELIVERY TRUCK [TO <square>] [THROUGH BLOCKBUSTERS]", keyword="DELIVERY TRUCK", parse=_parse_truck,
         listing=174, rules=("XXI.5",),
         summary="the owner of a Store rides a delivery truck to it, around Blockbusters, or through them for "
                 "$500 (an Easy Move)", example="DELIVERY TRUCK TO 12")
@command("WALK FORWARD|BACK", parse=_parse_walk, listing=175, rules=("XXI.6",),
         summary="Take a Walk to the next or the previous square (an Easy Move)", example="WALK FORWARD")
class EasyMove:
    """An Easy Move (XXI.2-XXI.6): ``kind`` is one of :data:`KINDS`; ``square`` the destination
    (None: a Walk's direction decides, or the truck's only Store); ``pay`` the $500 to go through
    Blockbusters; ``back`` a Walk backwards."""

    kind: str
    square: int | None = None
    pay: bool = False
    back: bool = False


class EasyMovementModule(Mechanic[EasyMovementState, None]):
    name = NAME
    rules = ("XXI.1", "XXI.2", "XXI.3", "XXI.4", "XXI.5", "XXI.6")
    stated = {"XXI.1": {"per_week": ("up to {} Easy Moves a week",)},
              "XXI.4": {"taxi_per_move": ("charges ${} for each move",),
                        "through_blockbusters": ("For ${} more, it drives through",)},
              "XXI.5": {"through_blockbusters": ("For ${}, the owner is taken",)}}
    defaults = {"per_week": 2, "taxi_per_move": 10, "through_blockbusters": 500, "lands": False}
    minimums = {"per_week": 0, "taxi_per_move": 0, "through_blockbusters": 0}
    summary = "Two Easy Moves a week: Government and Corporate transport, Taxis, delivery trucks, Walks."
    State = EasyMovementState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((EasyMove, easy_move))

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).used.pop(player.name, None)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("easy_moves", used(state, player.name), label="Easy Moves this week", order=49)]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        left = int(state.params(NAME).get("per_week", self.defaults["per_week"])) - used(state, player.name)
        return [(60, f"; Easy Moves left this week: {max(left, 0)}")]


def used(state: GameState, name: str) -> int:
    em = EasyMovementModule.of(state)
    return em.used.get(name, 0) if em.week == state.week else 0


def _path(state: GameState, start: int, goal: int, *, gates: bool, avoid: set[int]) -> list[int] | None:
    """The shortest path from ``start`` to ``goal`` by successors, predecessors (and Jumpgates if
    ``gates``), entering no square of ``avoid``; ties: the first found going forward."""
    links: dict[int, set[int]] = {}
    live = set(live_numbers(state))
    for a, b in jumpgate_pairs(state) if gates else ():
        if a not in live or b not in live:  # XVIII.2: a Jumpgate to a destroyed square is gone
            continue
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    back = {start: start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            path = [here]
            while path[-1] != start:
                path.append(back[path[-1]])
            return path[::-1]
        for nxt in (successor(state, here), predecessor(state, here), *sorted(links.get(here, ()))):
            if nxt not in back and nxt not in avoid:
                back[nxt] = here
                queue.append(nxt)
    return None


def _live(ctx: UpdateContext, number: int | None) -> int:
    square = ctx.state.square(number) if number else None
    if square is None or square.destroyed:
        live = [s.number for s in ctx.state.live_squares()]
        raise IllegalAction(f"there is no square {number} on the board (squares {live[0]}-{live[-1]})")
    return square.number


def easy_move(ctx: UpdateContext, player: Player, cmd: EasyMove) -> str:
    state, p = ctx.state, ctx.params(NAME)
    if used(state, player.name) >= int(p["per_week"]):
        raise IllegalAction(f"you have made your {p['per_week']} Easy Moves this week (XXI.1)")
    here = acting_square(state, player.name)
    cost, rule, why = 0, "", ""
    if cmd.kind == "walk":
        dest = predecessor(state, here) if cmd.back else successor(state, here)
        rule, why = "XXI.6", f"a Walk {'back' if cmd.back else 'forward'}"
    elif cmd.kind == "government":
        rule, dest = "XXI.2", _live(ctx, cmd.square)
        gov = api.GOVERNMENT.get(state)
        if gov is None or player.name not in gov.registered:
            raise IllegalAction("only a Registered Voter may ask The Government for transport (XXI.2; "
                                "REGISTER TO VOTE costs $100)")
        if not (is_public_property(dest) and owner_of(state, dest) == GOVERNMENT):
            raise IllegalAction(f"square {dest} is not Public Property; The Government transports only to its "
                                "Public Property (squares 10, 20, 30 ...) (XXI.2)")
        why = "The Government transported her"
    elif cmd.kind == "corporate":
        rule, dest = "XXI.3", _live(ctx, cmd.square)
        if not any(o == player.name and colour_of(state, n) in CORPORATE_COLOURS
                   for n, o in api.OWNERSHIP.of(state).owners.items()):
            raise IllegalAction("only the owner of a square painted a Corporate Colour (Red, Orange, Yellow, "
                                "Green, Blue, Indigo) may ask The Corporation for transport (XXI.3)")
        if owner_of(state, dest) != CORPORATION:
            owned = sorted(n for n, o in api.OWNERSHIP.of(state).owners.items() if o == CORPORATION)
            raise IllegalAction(f"The Corporation transports only to a square it owns (XXI.3); it owns "
                                f"{', '.join(map(str, owned)) or 'none'}")
        why = "The Corporation transported him"
    elif cmd.kind == "taxi":
        rule, dest = "XXI.4", _live(ctx, cmd.square)
        path = _route(ctx, here, dest, gates=True, pay=cmd.pay, what="a Taxi")
        cost = int(p["taxi_per_move"]) * (len(path) - 1) + (int(p["through_blockbusters"]) if cmd.pay else 0)
        why = f"a Taxi drove {len(path) - 1} move{'s' if len(path) != 2 else ''} ({'-'.join(map(str, path))})"
    else:  # the delivery truck
        rule = "XXI.5"
        stores = sorted(n for n, o in store_owners(state).items() if o == player.name)
        if not stores:
            raise IllegalAction("only the owner of a Store may ride a delivery truck to it (XXI.5); you own none")
        if cmd.square is None and len(stores) > 1:
            raise IllegalAction(f"you own Stores on squares {', '.join(map(str, stores))}: say DELIVERY TRUCK TO <square>")
        dest = stores[0] if cmd.square is None else cmd.square
        if dest not in stores:
            raise IllegalAction(f"you own no Store on square {dest}; your Stores: {', '.join(map(str, stores))} (XXI.5)")
        path = _route(ctx, here, dest, gates=False, pay=cmd.pay, what="the delivery truck")
        cost = int(p["through_blockbusters"]) if cmd.pay else 0
        why = f"a delivery truck took him to his Store ({'-'.join(map(str, path))})"
    if dest == here:
        raise IllegalAction(f"you are on square {here} already")
    if cost:
        affordable(state, player, cost, "the Taxi" if cmd.kind == "taxi" else "the delivery truck")
        ctx.transfer(player.name, GOVERNMENT, cost, rule=rule, reason=why, voluntary=True)
    em = EasyMovementModule.of(state)
    if em.week != state.week:
        em.week, em.used = state.week, {}
    em.used[player.name] = em.used.get(player.name, 0) + 1
    if p["lands"]:
        jump(ctx, player, dest, rule=rule, reason=why)
    else:
        player.square = dest
    if cmd.kind == "taxi":
        make_sick(ctx, player.name, rule="XXI.4", why="a Taxi trip")
    paid = f", paying {state.money(cost)}" if cost else ""
    return f"{player.name} made an Easy Move from square {here} to square {dest}: {why}{paid} ({rule})."


def _route(ctx: UpdateContext, here: int, dest: int, *, gates: bool, pay: bool, what: str) -> list[int]:
    """XXI.4, XXI.5: the shortest way, around Blockbusters unless paid to go through them."""
    bombs = set() if pay else blockbuster_squares(ctx.state)
    path = _path(ctx.state, here, dest, gates=gates, avoid=bombs - {here})
    if path is None:
        raise IllegalAction(f"{what} cannot reach square {dest} without passing a Blockbuster (where "
                            "they are is secret); add THROUGH BLOCKBUSTERS to pay "
                            f"{ctx.state.money(int(ctx.params(NAME)['through_blockbusters']))} more")
    return path
