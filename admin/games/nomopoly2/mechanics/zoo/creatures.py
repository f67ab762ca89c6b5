"""The Zoo's creatures on the move (XIX.3-XIX.5): their health, where they land and what landing
does (a banana peel, a trample, a ride offered), each kind's move, and a Pokeball's jump."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from admin.engine.board import Direction, step, successor
from admin.engine.errors import IllegalAction
from admin.games.nomopoly2.mechanics.zoo.state import (
    _ALIASES, JELLY_ROLES, any_square, TITLES, ZOO, Creature, RideOffer, _label, _roll, cap, creatures_on, find,
    title, title_of, zoo_of,
)
from admin.engine.model import Player
from admin.games.nomopoly2.mechanics.shared import house_of_cards_square
from admin.library.api import BOARD, HEALTH

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext


# -- creatures' health, landings and moves ---------------------------------------------------
def change_creature_health(ctx: UpdateContext, c: Creature, delta: int, *, rule: str, reason: str) -> None:
    """XIX.4: a creature at 0 or less health leaves the board (and may be spawned again)."""
    if delta == 0 or find(ctx.state, c.id) is None:
        return
    c.health += delta
    ctx.emit("zoo", f"{cap(title(c))} {'gained' if delta > 0 else 'lost'} {abs(delta)} health "
                    f"({reason}); now {c.health}.", rule=rule, data={"creature": c.id, "delta": delta})
    if c.health <= 0:
        remove_creature(ctx, c, f"its health reached {c.health}")


def remove_creature(ctx: UpdateContext, c: Creature, why: str) -> None:
    zs = zoo_of(ctx.state)
    zs.creatures = [x for x in zs.creatures if x.id != c.id]
    zs.offers = [o for o in zs.offers if o.creature != c.id]
    ctx.emit("zoo", f"{cap(title(c))} left the board ({why}).", rule="XIX.4", data={"creature": c.id})


def infect_creature(ctx: UpdateContext, text: str) -> str | None:
    """Anthrax used on a creature (XXIV.2: allowed, and no atrocity): the creature named ``text``
    ("Elephant", "the Skunk", "Skunk 2") is infected; its name, or None when there is no such one."""
    words = re.sub(r"^the\s+", "", " ".join(text.lower().split()))
    numbered = re.fullmatch(r"skunk[ -](\d+)", words)
    cid = f"skunk-{numbered.group(1)}" if numbered else _ALIASES.get(words)
    c = find(ctx.state, cid) if cid else None
    if c is None:
        return None
    c.infected = True
    return title(c)


def hurt_creatures_on(ctx: UpdateContext, square: int, delta: int, *, rule: str, reason: str) -> list[str]:
    """What happens to players on ``square`` happens to its creatures (XIX.4): another section's
    blast or poison calls this; returns the creatures' names."""
    hit = creatures_on(ctx.state, square)
    for c in hit:
        change_creature_health(ctx, c, delta, rule=rule, reason=reason)
    return [title(c) for c in hit]


def land_creature(ctx: UpdateContext, c: Creature, number: int, *, how: str, rule: str, acts_as: str | None = None,
                  depth: int = 0) -> None:
    """The creature lands on ``number``: a polluted square hurts (VI.14, XIX.4), the Elephant
    tramples, the Skunk acts on what is there, and a banana peel makes it slip on."""
    if find(ctx.state, c.id) is None:
        return
    start, c.square = c.square, number
    ctx.emit("zoo", f"{cap(title(c))} {how} from square {start} to square {number}.", rule=rule,
             data={"creature": c.id, "from": start, "to": number})
    role = acts_as or c.kind
    if c.infected and number == house_of_cards_square(ctx.state):  # never while it is not in force
        c.infected = False
        ctx.emit("cured", f"{cap(title(c))} is cured of anthrax (landing on the House of Cards).", rule="XXIV.2")
    board = BOARD.get(ctx.state)
    if board is not None and HEALTH.on(ctx.state):
        if number in board.polluted:
            loss = int(ctx.params("health")["polluted_health_loss"])
            change_creature_health(ctx, c, -loss, rule="VI.14", reason=f"landing on polluted square {number}")
    if role == "elephant":
        trample(ctx, c, number)
    elif role == "skunk":
        from admin.games.nomopoly2.mechanics.zoo.skunk import skunk_lands  # it lands creatures itself

        skunk_lands(ctx, c, number, depth=depth)
    zs = zoo_of(ctx.state)
    if find(ctx.state, c.id) is None or c.square != number or number not in zs.peels:
        return
    zs.peels.remove(number)
    change_creature_health(ctx, c, -int(ctx.params(ZOO)["peel_health_loss"]), rule="XIX.3",
                           reason=f"slipping on a banana peel on square {number}")
    if find(ctx.state, c.id) is None:
        return
    if depth + 1 >= int(ctx.params(ZOO)["max_chain"]):
        ctx.emit("zoo", f"{cap(title(c))} stops on square {number}: {depth + 1} landings in a row.")
        return
    to = any_square(ctx, f"peel/{c.kind}")
    land_creature(ctx, c, to, how="slipped and jumped", rule="XIX.3", acts_as=acts_as, depth=depth + 1)


def slip_player(ctx: UpdateContext, player: Player, number: int) -> None:
    from admin.engine.movement import jump
    from admin.library.health import change_health

    zs = zoo_of(ctx.state)
    zs.peels.remove(number)
    change_health(ctx, player, -int(ctx.params(ZOO)["peel_health_loss"]), rule="XIX.3",
                  reason=f"slipping on a banana peel on square {number}")
    if not player.active or player.square != number:
        return  # reset by the fall: back on square 1 already
    to = any_square(ctx, f"peel/{player.name}")
    jump(ctx, player, to, rule="XIX.3", reason="slipping on a banana peel")


def trample(ctx: UpdateContext, elephant: Creature, number: int) -> None:
    from admin.library.health import change_health

    loss = int(ctx.params(ZOO)["elephant_trample_loss"])
    who = title(elephant)
    for player in sorted((p for p in ctx.state.active_players() if p.square == number), key=lambda p: p.name):
        change_health(ctx, player, -loss, rule="XIX.3", reason=f"trampled by {who}")
    for other in [c for c in creatures_on(ctx.state, number) if c.id != elephant.id]:
        change_creature_health(ctx, other, -loss, rule="XIX.3", reason=f"trampled by {who}")


def drop_peel(ctx: UpdateContext, c: Creature) -> None:
    zs = zoo_of(ctx.state)
    if ctx.dice.chance(int(ctx.params(ZOO)["peel_percent"]), 100, _label(ctx, "gorilla/peel")):
        if c.square not in zs.peels:
            zs.peels = sorted(zs.peels + [c.square])
        ctx.emit("zoo", f"{cap(title(c))} dropped a banana peel on square {c.square}.", rule="XIX.3")
    else:
        ctx.emit("zoo", f"{cap(title(c))} dropped no banana peel.", rule="XIX.3")


def offer_ride(ctx: UpdateContext, c: Creature) -> None:
    from admin.library.interactions import ask

    riders = sorted(p.name for p in ctx.state.active_players() if p.square == c.square)
    if not riders or find(ctx.state, c.id) is None:
        return
    inter = ask(ctx, kind="offer", module=ZOO, parties=riders, silence="decline",
                payload={"creature": c.id, "square": c.square})
    zoo_of(ctx.state).offers.append(RideOffer(c.id, c.square, riders, ctx.state.update, inter.id))
    ctx.emit("zoo", f"{cap(title(c))} landed on {', '.join(riders)} on square {c.square}: "
                    f"they may ride it to any square next update "
                    f"(RIDE BISON TO <square>, #{inter.id}).", rule="XIX.3")


def move_ahead(ctx: UpdateContext, c: Creature, dice: int, sides: int, *, acts_as: str | None = None) -> None:
    faces = [_roll(ctx, f"{c.kind}/d{i + 1}", sides) for i in range(dice)]
    here = c.square
    for _ in range(sum(faces)):
        here = successor(ctx.state, here)
    land_creature(ctx, c, here, how=f"rolled {' and '.join(map(str, faces))} and moved", rule="XIX.3",
                  acts_as=acts_as)


DIRECTIONS: dict[int, Direction] = {1: "north", 2: "south", 3: "east", 4: "west"}


def elephant_turn(ctx: UpdateContext, c: Creature) -> None:
    """One move of the Elephant: a d4 for the direction, rolled again while it leads off the board."""
    p = ctx.params(ZOO)
    columns = int(ctx.params("board").get("columns", 10))
    if not any(step(ctx.state, c.square, d, columns) for d in DIRECTIONS.values()):
        ctx.emit("zoo", f"{cap(title(c))} has nowhere to go from square {c.square}.", rule="XIX.3")
        return
    for _ in range(int(p["elephant_rerolls"])):
        face = _roll(ctx, "elephant/d4", 4)
        to = step(ctx.state, c.square, DIRECTIONS[face], columns)
        if to is not None:
            land_creature(ctx, c, to, how=f"rolled {face} and went {DIRECTIONS[face]}", rule="XIX.3")
            return
        ctx.emit("zoo", f"{cap(title(c))} rolled {face}: no square lies {DIRECTIONS[face]} of "
                        f"square {c.square}; it rolls again.", rule="XIX.3")
    ctx.emit("zoo", f"{cap(title(c))} stays on square {c.square}: no possible direction in "
                    f"{p['elephant_rerolls']} rolls.", rule="XIX.3")


def move_creature(ctx: UpdateContext, c: Creature) -> None:
    p = ctx.params(ZOO)
    if c.kind == "gorilla":
        move_ahead(ctx, c, 1, int(p["gorilla_die"]))
        if find(ctx.state, c.id) is not None:
            drop_peel(ctx, c)
    elif c.kind == "elephant":
        elephant_turn(ctx, c)
    elif c.kind == "bison":
        move_ahead(ctx, c, int(p["bison_dice"]), int(p["bison_sides"]))
        offer_ride(ctx, c)
    elif c.kind == "skunk":
        from admin.games.nomopoly2.mechanics.zoo.skunk import skunk_move  # it lands creatures itself

        skunk_move(ctx, c)
    elif c.kind == "jelly-dog":
        to = any_square(ctx, "jelly-dog/square")
        role = JELLY_ROLES[_roll(ctx, "jelly-dog/as", len(JELLY_ROLES)) - 1]
        ctx.emit("zoo", f"The Blinking Jelly Dog blinks and acts as {TITLES[role]}.", rule="XIX.3",
                 data={"creature": c.id, "as": role})
        land_creature(ctx, c, to, how="blinked", rule="XIX.3", acts_as=role)
        if find(ctx.state, c.id) is None:
            return
        if role == "gorilla":
            drop_peel(ctx, c)
        elif role == "bison":
            offer_ride(ctx, c)


def move_creatures(ctx: UpdateContext) -> None:
    """XIX.3, XIX.5: after the players' turns, every creature moves, in a random order; the Gorilla
    and the Elephant only in the weekly slot (Sunday)."""
    zs = zoo_of(ctx.state)
    if not zs.creatures:
        return
    ids = [c.id for c in zs.creatures]
    order = ctx.dice.shuffle(ids, "zoo/order") if len(ids) > 1 else ids
    weekly = ctx.slot.name == str(ctx.params(ZOO)["weekly_slot"])
    if len(order) > 1:
        ctx.emit("zoo", "The creatures move in this order: " + ", ".join(title_of(ctx.state, i) for i in order)
                 + ".", rule="XIX.5", data={"order": order})
    for cid in order:
        c = find(ctx.state, cid)
        if c is None:
            continue
        if c.kind in ("gorilla", "elephant") and not weekly:
            continue
        move_creature(ctx, c)


def move_random_creature(ctx: UpdateContext, square: int, rule: str) -> str | None:
    """A Pokeball (XXIV.2): a random creature jumps to ``square`` (and lands there); its name, or
    None when there is no creature on the board."""
    if not ctx.state.enabled(ZOO):
        return None
    zs = zoo_of(ctx.state)
    if not zs.creatures:
        return None
    target = ctx.state.square(square)
    if target is None or target.destroyed:
        raise IllegalAction(f"there is no square {square} on the board to send a creature to")
    ordered = sorted(zs.creatures, key=lambda c: c.id)
    c = ordered[_roll(ctx, "pokeball", len(ordered)) - 1] if len(ordered) > 1 else ordered[0]
    name = title(c)
    land_creature(ctx, c, square, how="was sent by a Pokeball", rule=rule)
    return name
