"""Making and ending Nomopoly II's blocks (XXI.1-XXI.2, XXI.7-XXI.8): the CREATE and DESTROY
BLOCK commands, the checks of a block's squares and owners, what each owner pays, the block made
(or the owners' consent asked first), a block destroyed with its buildings, and the free block of
XIX.3 (the Skunk on a Mall). The module (:mod:`blocks`) gives the commands to the game and carries
out the consent when it comes; this file reads the shapes (:mod:`blocks_shapes`), never the module."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable

from admin.engine.context import BANK
from admin.engine.declare import command
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.api import BOARD
from admin.library.board import set_polluted
from admin.games.nomopoly2.api import Builds
from admin.games.nomopoly2.mechanics.blocks.shapes import SHAPES, possible_groups, shape_ok
from admin.games.nomopoly2.mechanics.shared import (
    BLOCK_KINDS, Block, BlocksState, block_of, charge, split_on_credit,
)
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

#: the module's name, and its state in a game
NAME = "blocks"


def of(state: GameState) -> BlocksState:
    bs: BlocksState = state.mods[NAME]
    return bs


def a_kind(kind: str) -> str:
    """A block kind with its article: "an industrial", "a residential"."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def parse_create(rest: str, _line: object) -> CreateBlock:
    text, credit = split_on_credit(rest)
    m = re.fullmatch(r"\s*(?:an?\s+)?(\w+)\s+BLOCK\s+(?:(?:of|on|with)\s+)?(?:squares?\s+)?(.+?)\s*", text,
                     flags=re.IGNORECASE)
    if not m or m.group(1).lower() not in BLOCK_KINDS:
        raise CommandError("write CREATE <RESIDENTIAL|INDUSTRIAL|COMMERCIAL|GOVERNMENT> BLOCK <square> "
                           "[<square> ...], like CREATE RESIDENTIAL BLOCK 5 6.")
    words = [w for w in re.split(r"[\s,]+", m.group(2)) if w and w.lower() != "and"]
    squares = tuple(parse_square(w) for w in words)
    if not squares:
        raise CommandError("CREATE ... BLOCK needs the block's squares, like CREATE RESIDENTIAL BLOCK 5 6.")
    return CreateBlock(m.group(1).lower(), squares, credit)


def parse_destroy(rest: str, _line: object) -> DestroyBlock:
    m = re.fullmatch(r"\s*#?(\d{1,6})\s*", rest)
    if not m:
        raise CommandError("write DESTROY BLOCK <block number>, like DESTROY BLOCK 3 (the board shows "
                           "each block's number).")
    return DestroyBlock(int(m.group(1)))


@command("CREATE <kind:RESIDENTIAL|INDUSTRIAL|COMMERCIAL|GOVERNMENT> BLOCK <squares:square> [<squares:square> ...]",
         usage="CREATE <RESIDENTIAL|INDUSTRIAL|COMMERCIAL|GOVERNMENT> BLOCK <square> [<square> ...]",
         parse=parse_create, listing=120,
         summary="make squares a block (the other owners must ACCEPT; each owner pays the block's cost for each "
                 "of their squares in it)",
         example="CREATE RESIDENTIAL BLOCK 5 6", rules=("XXI.1", "XXI.2"))
class CreateBlock:
    """``CREATE <kind> BLOCK <n> [<n> ...] [ON CREDIT]`` (XXI.1)."""

    kind: str
    squares: tuple[int, ...]
    on_credit: bool = False


@command("DESTROY BLOCK <block>", keyword="DESTROY BLOCK", parse=parse_destroy, listing=121,
         summary="destroy a block you own part of (an Industrial block needs every owner's consent; a "
                 "Government block stays)", example="DESTROY BLOCK 2", rules=("XXI.8",))
class DestroyBlock:
    """``DESTROY BLOCK <id>`` (XXI.8)."""

    block: int


def listed(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def squares_text(numbers: Iterable[int]) -> str:
    numbers = list(numbers)
    return f"square{'s' if len(numbers) > 1 else ''} {listed(numbers)}"


def find_block(state: GameState, number: int) -> Block:
    for block in of(state).blocks:
        if block.id == number:
            return block
    have = listed(b.id for b in of(state).blocks) or "none"
    raise IllegalAction(f"there is no block {number}; the blocks are: {have}")


def check_squares(state: GameState, kind: str, squares: list[int]) -> dict[int, str]:
    """The owner of each square, or IllegalAction saying why these squares cannot be a ``kind`` block."""
    if len(set(squares)) != len(squares):
        raise IllegalAction(f"squares {listed(squares)} name a square twice")
    owners: dict[int, str] = {}
    for n in squares:
        sq = state.square(n)
        if sq is None or sq.destroyed:
            raise IllegalAction(f"there is no square {n} on the board")
        owner = owner_of(state, n)
        if owner is None or not state.players.get(owner) or not state.players[owner].active:
            raise IllegalAction(f"square {n} is owned by nobody; only owned squares make a block (XXI.1)")
        other = block_of(state, n)
        if other is not None:
            raise IllegalAction(f"square {n} is in {other.kind} block {other.id} already; a square is in one "
                                "block at most (XXI.7)")
        owners[n] = owner
    if not shape_ok(state, kind, sorted(squares)):
        raise IllegalAction(f"{squares_text(sorted(squares))} cannot form {a_kind(kind)} block, which needs "
                            f"{SHAPES[kind]}")
    return owners


def cost_of(params: dict[str, Any], kind: str, mine: int, size: int) -> int:
    """What an owner of ``mine`` of a ``kind`` block's ``size`` squares pays for it (XXI.2, as
    ``cost_per`` reads it): the cost for each square, once, or their share of it (nearest dollar)."""
    cost = int(params[f"cost_{kind}"])
    if params["cost_per"] == "owner":
        return cost
    if params["cost_per"] == "split":
        return (2 * cost * mine + size) // (2 * size)
    return cost * mine


def owner_costs(ctx: UpdateContext, kind: str, owners: dict[int, str]) -> dict[str, int]:
    params = ctx.params(NAME)
    counts: dict[str, int] = {}
    for owner in owners.values():
        counts[owner] = counts.get(owner, 0) + 1
    return {owner: cost_of(params, kind, mine, len(owners)) for owner, mine in counts.items()}


def make_block(ctx: UpdateContext, creator: Player | None, kind: str, squares: list[int], owners: dict[int, str], *,
               on_credit: bool, free: bool, rule: str = "XXI.2") -> str:
    """Check again, take each owner's cost (all or nothing), and make the block."""
    now = check_squares(ctx.state, kind, squares)
    if now != owners:
        changed = [n for n in squares if now.get(n) != owners.get(n)]
        raise IllegalAction(f"square(s) {listed(changed)} changed hands since the block was proposed")
    costs = {} if free else owner_costs(ctx, kind, owners)
    for owner, amount in sorted(costs.items()):
        money = ctx.state.players[owner].money
        if not (on_credit and creator is not None and owner == creator.name) and money - amount < 0:
            raise IllegalAction(f"{owner} would pay ${amount} for the block and has ${money}; no voluntary "
                                "action may make a player bankrupt (IV.3)")
    order = sorted(costs, key=lambda o: (creator is None or o != creator.name, o))
    for owner in order:  # the creator first: a refused credit card stops it before anyone pays
        charge(ctx, owner, BANK, costs[owner], rule="XXI.2", reason=f"creating {a_kind(kind)} block of squares "
               f"{listed(sorted(squares))}", on_credit=on_credit and creator is not None and owner == creator.name)
    bs = of(ctx.state)
    block = Block(id=bs.next_id, kind=kind, squares=sorted(squares))
    bs.next_id += 1
    board = BOARD.get(ctx.state)
    if kind == "industrial" and board is not None:
        block.polluted_before = [n for n in block.squares if n in board.polluted]
        for n in block.squares:
            set_polluted(ctx.state, n, True)
    bs.blocks.append(block)
    paid = "; ".join(f"{o} paid ${a}" for o, a in sorted(costs.items())) if costs else "free of charge"
    return f"{squares_text(block.squares).capitalize()} became {kind} block {block.id} ({paid})."


def create(ctx: UpdateContext, player: Player, cmd: CreateBlock) -> str:
    squares = list(cmd.squares)
    owners = check_squares(ctx.state, cmd.kind, squares)
    if player.name not in owners.values():
        raise IllegalAction(f"you own none of {squares_text(squares)}; a block is made by its squares' "
                            "owners (XXI.1)")
    others = sorted(set(owners.values()) - {player.name})
    if not others:
        return make_block(ctx, player, cmd.kind, squares, owners, on_credit=cmd.on_credit, free=False)
    costs = owner_costs(ctx, cmd.kind, owners)
    from admin.library.interactions import ask

    inter = ask(ctx, kind="consent", module=NAME, parties=others, silence="decline",
                after=int(ctx.params(NAME)["consent_updates"]), proposer=player.name,
                payload={"action": "create", "kind": cmd.kind, "squares": sorted(squares),
                         "owners": {str(n): o for n, o in owners.items()}, "credit": cmd.on_credit})
    return (f"{player.name} proposed making squares {listed(sorted(squares))} {a_kind(cmd.kind)} block "
            f"(#{inter.id}); it is made if {', '.join(others)} ACCEPT {inter.id} by update {inter.deadline}, "
            "and then " + "; ".join(f"{o} pays ${a}" for o, a in sorted(costs.items())) + " (XXI.1, XXI.2).")


def destroy(ctx: UpdateContext, player: Player, cmd: DestroyBlock) -> str:
    block = find_block(ctx.state, cmd.block)
    owners = sorted({o for n in block.squares if (o := owner_of(ctx.state, n)) is not None})
    if player.name not in owners:
        raise IllegalAction(f"you own no square of block {block.id} ({squares_text(block.squares)}); only its "
                            "owners may destroy it (XXI.8)")
    if block.kind == "government":
        raise IllegalAction(f"block {block.id} is a government block, which can never be destroyed (XXI.8)")
    others = [o for o in owners if o != player.name]
    if block.kind == "industrial" and others:
        from admin.library.interactions import ask

        inter = ask(ctx, kind="consent", module=NAME, parties=others, silence="decline",
                    after=int(ctx.params(NAME)["consent_updates"]), proposer=player.name,
                    payload={"action": "destroy", "block": block.id})
        return (f"{player.name} proposed destroying industrial block {block.id} (#{inter.id}); it is destroyed "
                f"if {', '.join(others)} ACCEPT {inter.id} by update {inter.deadline} (XXI.8).")
    return destroy_block(ctx, block, rule="XXI.8", who=player.name)


def destroy_block(ctx: UpdateContext, block: Block, *, rule: str, who: str) -> str:
    """The block ends: its buildings go, refunded by half (XXII.2), and an Industrial block's
    pollution with it (squares polluted before it stay polluted)."""
    bs = of(ctx.state)
    refunds = ""
    builds = ctx.registry.provider(ctx.state, Builds)  # None while XXII is not in force
    if builds is not None:
        refunds = builds.destroy_all_on(ctx, block.squares, rule="XXII.2")
    if block.kind == "industrial" and BOARD.on(ctx.state):
        for n in block.squares:
            if n not in block.polluted_before:
                set_polluted(ctx.state, n, False)
    bs.blocks = [b for b in bs.blocks if b.id != block.id]
    text = f"{block.kind.capitalize()} block {block.id} ({squares_text(block.squares)}) was destroyed by {who}" \
           + (f"; {refunds}" if refunds else "") + "."
    return text


def make_free_block(ctx: UpdateContext, rule: str) -> None:
    """XIX.3 (the Skunk on a Mall): a random block type; of every group of owned squares outside
    blocks that could make one, a random group becomes a block of that type, free to its owners."""
    if not ctx.state.enabled(NAME):
        return
    kind = BLOCK_KINDS[ctx.dice.roll("blocks/free-kind", len(BLOCK_KINDS)) - 1]
    groups = possible_groups(ctx.state, kind)
    if not groups:
        ctx.emit("block", f"No group of owned squares outside blocks could make {a_kind(kind)} block, so none "
                          "was made.", rule=rule)
        return
    group = groups[ctx.dice.roll(f"blocks/free-group/{kind}", len(groups)) - 1] if len(groups) > 1 else groups[0]
    owners = {n: owner_of(ctx.state, n) or "" for n in group}
    ctx.emit("block", make_block(ctx, None, kind, group, owners, on_credit=False, free=True, rule=rule), rule=rule)
