"""Nomopoly II XIX.3, the Skunk (part of the ``zoo`` module): its move, 2d3 "up" and "right" on
the grid with wrap-around (:func:`admin.engine.board.grid_move`), and its effects on what its new
square holds, in the rulebook's order. Sections that are not in force do nothing (an event says
so); the Bison's send-off comes last, so the Skunk acts on its square first.

Standing rulings (docs/rulings.md): a building's effect happens once however many
of it stand there; players swapped by a Springboard do not land; the Store's gift is the lowest
numbered square nobody owns and anyone may own; "property tax" is the sum of the numbers of one's
squares, paid to the Admin Bank Account; the House of Cards and the Bank are where their own
sections put them (their ``square`` parameters: 42 and 30) while those sections are in force; the
Skunk sent away by the Bison lands again."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, cast

from admin.engine import hooks
from admin.engine.board import distance, distances_from, grid_move, live_numbers, neighbours
from admin.engine.context import BANK
from admin.games.nomopoly2.api import RAILROADS, FiresMissiles, GivesJokers, KeepsCreditCards, MakesBlocks
from admin.games.nomopoly2.mechanics.shared import bank_square, house_of_cards_square
from admin.games.nomopoly2.mechanics.zoo.creatures import (
    change_creature_health, elephant_turn, land_creature, remove_creature,
)
from admin.games.nomopoly2.mechanics.zoo.state import (
    ZOO, Creature, _roll, any_square, cap, creatures_on, find, random_square, title, zoo_of,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Player, Square

RULE = "XIX.3"


def skunk_move(ctx: UpdateContext, c: Creature) -> None:
    """Two dice of ``skunk_dice_sides``: "up" by the first, "right" by the second, wrapping round;
    it lands without passing any square (XIX.3)."""
    sides = int(ctx.params(ZOO)["skunk_dice_sides"])
    up = _roll(ctx, "skunk/up", sides)
    right = _roll(ctx, "skunk/right", sides)
    columns = int(ctx.params("board").get("columns", 10))
    to = grid_move(ctx.state, c.square, right, up, columns)
    land_creature(ctx, c, to, how=f"rolled {up} up and {right} right and went", rule=RULE)


def _none(ctx: UpdateContext, who: str, what: str, section: str) -> None:
    ctx.emit("zoo", f"{cap(who)} on {what}: nothing happens, {section} is not in force.", rule=RULE)


def skunk_lands(ctx: UpdateContext, c: Creature, number: int, *, depth: int = 0) -> None:
    """Every effect of XIX.3's list that the square calls for, in the list's order."""
    from admin.games.nomopoly2.mechanics.shared import buildings_on

    state, p = ctx.state, ctx.params(ZOO)
    built = set(buildings_on(state, number))
    square = state.square(number)
    who = title(c)
    players = sorted((pl for pl in state.active_players() if pl.square == number), key=lambda pl: pl.name)
    #: the creatures there when it lands (a Skunk spawned on the Zoo by this landing is not one)
    present = [x.id for x in creatures_on(state, number) if x.id != c.id]
    if "springboard" in built:
        springboard(ctx, who)
    if "hospital" in built:
        from admin.library.health import change_health

        for pl in sorted(state.active_players(), key=lambda pl: pl.name):
            change_health(ctx, pl, int(p["hospital_health_gain"]), rule=RULE,
                          reason=f"{who} on the Hospital on square {number}")
    if "house" in built:
        ctx.emit("zoo", f"{cap(who)} on the House on square {number}: no effect.", rule=RULE)
    if "store" in built:
        store(ctx, number, who)
    if "corporate-headquarters" in built:
        property_tax(ctx, number, who)
    if "missile-silo" in built:
        missiles = ctx.registry.provider(state, FiresMissiles)
        if missiles is not None:
            missiles.fire_random_missile(ctx, number, RULE)
        else:
            _none(ctx, who, f"the Missile Silo on square {number}", "XXVI (missiles)")
    if "anti-missile-battery" in built:
        pollute_random(ctx, number, who)
    if square is not None and (square.name or "").strip().lower() == "blackjack":
        all_to_blackjack(ctx, number, who)
    if number == int(p["zoo_square"]):
        spawn_skunk(ctx, who)
    if number == house_of_cards_square(state):
        jokers = ctx.registry.provider(state, GivesJokers)
        if jokers is not None:
            for pl in sorted(state.active_players(), key=lambda pl: pl.name):
                jokers.give_joker(ctx, pl.name, RULE)
            ctx.emit("zoo", f"{cap(who)} on the House of Cards: every player receives a joker.", rule=RULE)
        else:
            _none(ctx, who, "the House of Cards", "the Joker (jokers)")
    railroad_payout(ctx, number, who)
    for pl in players:
        if pl.active and pl.square == number:
            spray(ctx, pl, who)
    for other in [x for x in creatures_on(state, number) if x.id in present]:
        if find(state, other.id) is None or other.square != number:
            continue
        if other.kind == "elephant":
            crazy_elephant(ctx, other, who)
        elif other.kind == "gorilla":
            peel_storm(ctx, other, who)
    others = [x for x in creatures_on(state, number) if x.id in present and x.kind == "skunk"]
    if others and find(state, c.id) is not None:
        ctx.emit("zoo", f"{cap(who)} and {title(others[0])} fight on square {number}, so violently that both die.",
                 rule=RULE)
        remove_creature(ctx, others[0], "killed in a fight with another skunk")
        remove_creature(ctx, c, "killed in a fight with another skunk")
    if "mall" in built:
        blocks = ctx.registry.provider(state, MakesBlocks)
        if blocks is not None:
            blocks.make_free_block(ctx, RULE)
        else:
            _none(ctx, who, f"the Mall on square {number}", "XXI (blocks)")
    if "legislative-building" in built:
        fake_ids(ctx, number, who)
    if number == bank_square(state):
        credit = ctx.registry.provider(state, KeepsCreditCards)
        if credit is not None:
            credit.raise_limits(ctx, int(p["credit_raise_percent"]), RULE)
        else:
            _none(ctx, who, "the Bank", "XXVIII (credit cards)")
    bison = next((x for x in creatures_on(state, number) if x.kind == "bison" and x.id in present), None)
    if bison is not None and find(state, c.id) is not None and c.square == number:
        send_off(ctx, c, bison, depth)


def springboard(ctx: UpdateContext, who: str) -> None:
    names = sorted(pl.name for pl in ctx.state.active_players())
    if len(names) < 2:
        ctx.emit("zoo", f"{cap(who)} on a Springboard: fewer than two players, nobody is swapped.", rule=RULE)
        return
    a = names.pop(_roll(ctx, "skunk/springboard", len(names)) - 1)
    b = names[_roll(ctx, "skunk/springboard", len(names)) - 1]
    pa, pb = ctx.state.players[a], ctx.state.players[b]
    pa.square, pb.square = pb.square, pa.square
    ctx.emit("zoo", f"{cap(who)} on a Springboard: {a} and {b} swap places ({a} to square {pa.square}, "
                    f"{b} to square {pb.square}).", rule=RULE, data={"swapped": [a, b]})


def store(ctx: UpdateContext, number: int, who: str) -> None:
    from admin.library.ownership import OwnershipModule, owner_of, set_owner

    state = ctx.state
    owners = OwnershipModule.of(state).owners
    counts = {pl.name: sum(1 for n, o in owners.items() if o == pl.name) for pl in state.active_players()}
    if not counts:
        return
    fewest = min(counts.values())
    tied = sorted(n for n, k in counts.items() if k == fewest)
    winner = tied[_roll(ctx, "skunk/store", len(tied)) - 1] if len(tied) > 1 else tied[0]
    h = hooks.call(ctx)
    free = next((n for n in live_numbers(state) if owner_of(state, n) is None  # a live number is a square
                 and h.can_own(state, cast("Square", state.square(n)))), None)
    if free is None:
        ctx.emit("zoo", f"{cap(who)} on the Store on square {number}: no square is left unowned for {winner}.",
                 rule=RULE)
        return
    set_owner(state, free, winner, paid=0)
    ctx.emit("zoo", f"{cap(who)} on the Store on square {number}: {winner}, who owns the fewest squares "
                    f"({fewest}), is given square {free}.", rule=RULE, player=winner,
             data={"square": free, "player": winner})


def property_tax(ctx: UpdateContext, number: int, who: str) -> None:
    from admin.library.ownership import OwnershipModule

    own = OwnershipModule.of(ctx.state)
    prices = ctx.params(ZOO)["property_tax"] == "prices"
    per = int(ctx.params("ownership")["price_per_number"])
    for pl in sorted(ctx.state.active_players(), key=lambda pl: pl.name):
        tax = sum((own.paid.get(n, n * per) if prices else n) for n, o in own.owners.items() if o == pl.name)
        if tax:
            ctx.transfer(pl.name, BANK, tax, rule=RULE,
                         reason=f"property tax ({who} on the Corporate Headquarters on square {number})", kind="tax")
    ctx.emit("zoo", f"{cap(who)} on the Corporate Headquarters on square {number}: every player pays property "
                    f"tax, the sum of {'what they paid for' if prices else 'the numbers of'} their squares.", rule=RULE)


def pollute_random(ctx: UpdateContext, number: int, who: str) -> None:
    from admin.library.board import BoardModule, set_polluted

    clean = [n for n in live_numbers(ctx.state) if n not in BoardModule.of(ctx.state).polluted]
    target = random_square(ctx, "skunk/pollute", clean)
    if target is None:
        ctx.emit("zoo", f"{cap(who)} on an Anti-Missile Battery: every square is polluted already.", rule=RULE)
        return
    set_polluted(ctx.state, target)
    ctx.emit("zoo", f"{cap(who)} on the Anti-Missile Battery on square {number}: square {target} becomes "
                    "polluted.", rule=RULE, data={"square": target})


def all_to_blackjack(ctx: UpdateContext, number: int, who: str) -> None:
    from admin.engine.movement import jump

    ctx.emit("zoo", f"{cap(who)} on Blackjack (square {number}): every player jumps there.", rule=RULE)
    for pl in sorted(ctx.state.active_players(), key=lambda pl: pl.name):
        if pl.active and pl.square != number:
            jump(ctx, pl, number, rule=RULE, reason=f"{who} on Blackjack")


def spawn_skunk(ctx: UpdateContext, who: str) -> None:
    zs, p = zoo_of(ctx.state), ctx.params(ZOO)
    cid = f"skunk-{zs.next_skunk}"
    zs.next_skunk += 1
    zoo = int(p["zoo_square"])
    zs.creatures.append(Creature(cid, "skunk", zoo, int(p["start_health"])))
    ctx.emit("zoo", f"{cap(who)} on the Zoo: another skunk, Skunk {cid.split('-')[-1]}, appears on square {zoo}.",
             rule=RULE, data={"creature": cid})


def railroad_payout(ctx: UpdateContext, number: int, who: str) -> None:
    """Players on railroad squares joined to the Skunk's square by railroads get $500 each."""
    railroads = RAILROADS.get(ctx.state)
    if railroads is None:
        return
    rails = set(railroads.squares)
    if number not in rails:
        return
    columns = int(ctx.params("board").get("columns", 10))
    joined, queue = {number}, deque([number])
    while queue:
        for n in neighbours(ctx.state, queue.popleft(), columns):
            if n in rails and n not in joined:
                joined.add(n)
                queue.append(n)
    paid = sorted(pl.name for pl in ctx.state.active_players() if pl.square in joined)
    amount = int(ctx.params(ZOO)["railroad_payout"])
    for name in paid:
        ctx.transfer(BANK, name, amount, rule=RULE,
                     reason=f"joined by railroad to {who} on square {number}", kind="bonus")
    ctx.emit("zoo", f"{cap(who)} on the railroad on square {number}: "
                    + (f"{', '.join(paid)} {'is' if len(paid) == 1 else 'are'} joined to it by railroads and "
                       f"receive{'s' if len(paid) == 1 else ''} ${amount}." if paid
                       else "nobody stands on a railroad joined to it."), rule=RULE)


def spray(ctx: UpdateContext, player: Player, who: str) -> None:
    from admin.games.nomopoly2.mechanics.shared import pass_out

    ctx.emit("zoo", f"{cap(who)} sprayed {player.name}, who passes out: no voluntary actions this update.",
             rule=RULE, player=player.name)
    pass_out(ctx, player, rule=RULE, reason=f"sprayed by {who}")


def crazy_elephant(ctx: UpdateContext, elephant: Creature, who: str) -> None:
    turns = int(ctx.params(ZOO)["crazy_elephant_turns"])
    ctx.emit("zoo", f"{cap(who)} sprays the Elephant, which goes crazy and takes {turns} turns at once.", rule=RULE)
    for _ in range(turns):
        if find(ctx.state, elephant.id) is None:
            break
        elephant_turn(ctx, elephant)


def peel_storm(ctx: UpdateContext, gorilla: Creature, who: str) -> None:
    zs = zoo_of(ctx.state)
    want = int(ctx.params(ZOO)["gorilla_peels"])
    thrown = []
    for _ in range(want):
        free = [n for n in live_numbers(ctx.state) if n not in zs.peels]
        target = random_square(ctx, "gorilla/throw", free)
        if target is None:
            break
        zs.peels = sorted(zs.peels + [target])
        thrown.append(target)
    ctx.emit("zoo", f"{cap(who)} upsets the Gorilla, which throws banana peels onto squares "
                    f"{', '.join(map(str, sorted(thrown))) or 'none'}.", rule=RULE, data={"squares": sorted(thrown)})


def fake_ids(ctx: UpdateContext, number: int, who: str) -> None:
    columns = int(ctx.params("board").get("columns", 10))
    reach = distances_from(ctx.state, number, columns)  # one search, not one a player

    def away(square: int) -> int | None:
        live = (sq := ctx.state.square(square)) is not None and not sq.destroyed
        return reach.get(square) if live else distance(ctx.state, square, number, columns)

    where = {pl.name: d for pl in ctx.state.active_players() if (d := away(pl.square)) is not None}
    if not where:
        return
    least = min(where.values())
    nearest = sorted(n for n, d in where.items() if d == least)
    zs = zoo_of(ctx.state)
    for name in nearest:
        zs.fake_ids[name] = zs.fake_ids.get(name, 0) + 1
    ctx.emit("zoo", f"{cap(who)} on the Legislative Building on square {number}: {', '.join(nearest)} "
                    f"({least} square{'s' if least != 1 else ''} away) receive{'s' if len(nearest) == 1 else ''} "
                    "a Fake ID.", rule=RULE, data={"players": nearest})


def send_off(ctx: UpdateContext, skunk: Creature, bison: Creature, depth: int) -> None:
    ctx.emit("zoo", f"{cap(title(bison))} sends {title(skunk)} away.", rule=RULE)
    change_creature_health(ctx, bison, -int(ctx.params(ZOO)["bison_sends_loss"]), rule=RULE,
                           reason=f"sending {title(skunk)} away")
    if depth + 1 >= int(ctx.params(ZOO)["max_chain"]):
        ctx.emit("zoo", f"{cap(title(skunk))} stops on square {skunk.square}: {depth + 1} landings in a row.")
        return
    to = any_square(ctx, "skunk/sent")
    land_creature(ctx, skunk, to, how="was sent", rule=RULE, acts_as="skunk", depth=depth + 1)
