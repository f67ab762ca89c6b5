"""Nomopoly II XXI: blocks. The owners of squares of the right shape make them a block, all agreeing
and each paying the block's cost for each of their squares in it: Residential (two squares in
numerical order; a lander pays the rent of both), Industrial (three in a row or a column; polluted;
a weekly income of $n to each square's owner), Commercial (a 2x2 square; 3% of every rent collected
goes to the Admin Bank Account), Government (one square; the Government builds on it once a week).
A square is in one block at most; a block is destroyed by one owner (Residential, Commercial), by
all of them (Industrial), or never (Government).

Standing rulings (docs/rulings.md): the cost is paid for each square (an owner
of two squares of a block pays twice, ``cost_per``); the other owners' consent is asked by mail and
silence is no; incomes come from the Admin Bank Account; a block keeps its squares when they
change hands; a destroyed square leaves its block."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from admin.engine.board import layout_of, successor
from admin.engine.commands import command_type
from admin.engine.context import BANK
from admin.engine.interactions import accept_or_decline, all_consent
from admin.engine.module import CommandSpec, Fact, Mechanic, Panel, SquareLook, Table
from admin.engine.movement import rent_free
from admin.engine.syntax import parse_square
from admin.errors import CommandError, IllegalAction
from admin.mechanics.board import BoardModule, set_polluted
from admin.mechanics.ownership import owner_of, pay_rent, rent_due, squares_owned
from admin.mechanics.nomopoly2.shared import (  # noqa: F401 - centre: part of the blocks interface
    BLOCK_KINDS, Block, BlocksState, block_of, centre, charge, provides, split_on_credit, use,
)
from admin.model import GameState, Player

#: how many squares each kind of block has (XXI.3-XXI.6)
SIZES = {"residential": 2, "industrial": 3, "commercial": 4, "government": 1}
SHAPES = {"residential": "two squares in numerical order (XXI.3)",
          "industrial": "three squares in a row or a column of the board (XXI.4)",
          "commercial": "four squares in a 2x2 square on the board (XXI.5)",
          "government": "a single square (XXI.6)"}
RULE = {"residential": "XXI.3", "industrial": "XXI.4", "commercial": "XXI.5", "government": "XXI.6"}


@command_type
@dataclass(frozen=True)
class CreateBlock:
    """``CREATE <kind> BLOCK <n> [<n> ...] [ON CREDIT]`` (XXI.1)."""

    kind: str
    squares: tuple[int, ...]
    on_credit: bool = False
    cmd: ClassVar[str] = "create-block"


@command_type
@dataclass(frozen=True)
class DestroyBlock:
    """``DESTROY BLOCK <id>`` (XXI.8)."""

    block: int
    cmd: ClassVar[str] = "destroy-block"



def _a(kind: str) -> str:
    """A block kind with its article: "an industrial", "a residential"."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"

def _parse_create(rest: str, _line: object) -> CreateBlock:
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


def _parse_destroy(rest: str, _line: object) -> DestroyBlock:
    m = re.fullmatch(r"\s*#?(\d{1,6})\s*", rest)
    if not m:
        raise CommandError("write DESTROY BLOCK <block number>, like DESTROY BLOCK 3 (the board shows "
                           "each block's number).")
    return DestroyBlock(int(m.group(1)))


class BlocksModule(Mechanic[BlocksState, None]):
    name = "blocks"
    rules = ("XXI.1", "XXI.2", "XXI.3", "XXI.4", "XXI.5", "XXI.6", "XXI.7", "XXI.8")
    defaults = {"cost_residential": 500, "cost_industrial": 500, "cost_commercial": 1000,
                "cost_government": 750,
                # standing ruling: "the owner of each square must each pay the cost": per square
                # (an owner of two squares pays twice), once per owner, or the cost split evenly
                # among the block's squares
                "cost_per": "square",
                # XXI.4: the weekly income is this many dollars times the square's number
                "industrial_income_per_number": 1,
                # XXI.5: the tax on rent collected in a Commercial block (rounded down)
                "commercial_tax_percent": 3,
                # how many updates the other owners have to ACCEPT a block (silence: no)
                "consent_updates": 1}
    minimums = {"cost_residential": 0, "cost_industrial": 0, "cost_commercial": 0, "cost_government": 0,
                "industrial_income_per_number": 0, "commercial_tax_percent": 0, "consent_updates": 1}
    choices = {"cost_per": ("square", "owner", "split")}
    summary = ("Owners who agree make squares a Residential, Industrial, Commercial or Government block; "
               "each kind changes rent, pollution or income.")
    State = BlocksState
    requires = ("board", "ownership", "health", "interactions")

    def commands(self):
        return (CommandSpec("CREATE", CreateBlock, create, _parse_create,
                            "CREATE <RESIDENTIAL|INDUSTRIAL|COMMERCIAL|GOVERNMENT> BLOCK <square> [<square> ...]",
                            listing=120, summary="make squares a block (the other owners must ACCEPT; each "
                            "owner pays the block's cost for each of their squares in it)",
                            example="CREATE RESIDENTIAL BLOCK 5 6", rules=("XXI.1", "XXI.2")),
                CommandSpec("DESTROY BLOCK", DestroyBlock, destroy, _parse_destroy, "DESTROY BLOCK <block>",
                            listing=121, summary="destroy a block you own part of (an Industrial block needs "
                            "every owner's consent; a Government block stays)", example="DESTROY BLOCK 2",
                            rules=("XXI.8",)))

    def rulings(self):
        return {"free-block": _free_block_ruling}

    # -- lives of squares ---------------------------------------------------------------------
    def on_square_added(self, state, square) -> None:
        """A destroyed (or brought back) square leaves its block; a block left empty is gone."""
        bs = self.of(state)
        for block in bs.blocks:
            block.squares = [n for n in block.squares if n != square.number]
            block.polluted_before = [n for n in block.polluted_before if n != square.number]
        bs.blocks = [b for b in bs.blocks if b.squares]

    # -- the update -----------------------------------------------------------------------------
    def on_update_start(self, ctx) -> None:
        """XXI.4: every square of an Industrial block is polluted, whatever cleaned it."""
        if not ctx.state.enabled(BoardModule.name):
            return
        for block in self.of(ctx.state).blocks:
            if block.kind == "industrial":
                for n in block.squares:
                    set_polluted(ctx.state, n, True)

    def on_land(self, ctx, player, square) -> None:
        """XXI.3: landing on a square of a Residential block pays the rent of its other square too."""
        block = block_of(ctx.state, square.number)
        if block is None or block.kind != "residential" or rent_free(ctx, player):
            return
        for number in block.squares:
            other = ctx.state.square(number)
            if number == square.number or other is None or other.destroyed or not player.active:
                continue
            owner = ctx.state.players.get(owner_of(ctx.state, number) or "")
            if owner is None or not owner.active or owner.name == player.name:
                continue
            rent = rent_due(ctx, player, other)
            if rent > 0:
                ctx.emit("block-rent", f"{player.name} landed in residential block {block.id} and owes the "
                                       f"rent of square {number} too.", player=player.name, rule="XXI.3")
                pay_rent(ctx, player, owner, other, rent, rule="XXI.3")

    def on_rent_paid(self, ctx, payer, owner, square, amount) -> None:
        """XXI.5: 3% (rounded down) of rent collected in a Commercial block goes to the Admin Bank."""
        block = block_of(ctx.state, square.number)
        if block is None or block.kind != "commercial":
            return
        tax = amount * int(ctx.params(self.name)["commercial_tax_percent"]) // 100
        if tax <= 0:
            return
        ctx.transfer(owner.name, BANK, tax, rule="XXI.5", reason=f"tax on rent collected on square {square.number}")
        ctx.emit("block-tax", f"{owner.name} paid ${tax} tax to the Admin Bank Account on the ${amount} rent "
                              f"collected on square {square.number} (commercial block {block.id}).",
                 player=owner.name, rule="XXI.5", data={"square": square.number, "amount": tax})

    def on_update_end(self, ctx) -> None:
        if not ctx.slot.week_end:
            return
        _industrial_income(ctx)
        _government_builds(ctx)

    # -- consent --------------------------------------------------------------------------------
    def check_answer(self, ctx, interaction, player, value) -> Any:
        return accept_or_decline(interaction, value)

    def resolve_interaction(self, ctx, interaction, answers) -> str:
        p = interaction.payload
        if not all_consent(answers):
            no = sorted(n for n, a in answers.items() if str(a).lower() not in ("accept", "yes"))
            what = (f"the {p['kind']} block of squares {_list(p['squares'])}" if p["action"] == "create"
                    else f"destroying block {p['block']}")
            return f"{what} needs every owner's consent and {', '.join(no)} did not give it (XXI.1, XXI.8)"
        proposer = ctx.state.players.get(interaction.proposer or "")
        try:
            if p["action"] == "create":
                owners = {int(k): v for k, v in p["owners"].items()}
                if proposer is None or not proposer.active:
                    raise IllegalAction(f"{interaction.proposer} is no longer in the game")
                return _make(ctx, proposer, p["kind"], [int(n) for n in p["squares"]], owners,
                             on_credit=bool(p.get("credit")), free=False)
            block = _find(ctx.state, int(p["block"]))
            return destroy_block(ctx, block, rule="XXI.8",
                                 who=" and ".join(sorted(set(answers) | {interaction.proposer or ""})))
        except IllegalAction as exc:
            return f"not done: {exc}"

    def results_lines(self, state, player) -> list[tuple[int, str]]:
        owned = squares_owned(state, player.name)
        mine = [f"{b.kind} block {b.id} ({_squares(b.squares)})" for b in self.of(state).blocks
                if any(n in owned for n in b.squares)]
        lines = [(45, f"  Blocks you own part of: {'; '.join(mine)}")] if mine else []
        if state.enabled("interactions"):
            from admin.mechanics.interactions import InteractionsModule

            for inter in InteractionsModule.of(state).open:
                if inter.module != self.name or player.name not in inter.parties or player.name in inter.answers:
                    continue
                p = inter.payload
                if p["action"] == "create":
                    params = {**self.defaults, **state.params(self.name)}
                    mine = sum(1 for o in p["owners"].values() if o == player.name)
                    cost = _cost_of(params, p["kind"], mine, len(p["squares"]))
                    what = f"make squares {_list(p['squares'])} {_a(p['kind'])} block (you would pay ${cost})"
                else:
                    what = f"destroy block {p['block']}"
                lines.append((89, f"  #{inter.id}: {inter.proposer} asks you to {what}; write ACCEPT {inter.id} "
                                  f"or DECLINE {inter.id} by update {inter.deadline} (no answer is no)"))
        return lines

    # -- worth and the site ---------------------------------------------------------------------
    def worth(self, state, player) -> int:
        """XXX.1: the block's price for each of the player's squares in a block."""
        owned = squares_owned(state, player.name)
        if not owned:
            return 0
        params = {**self.defaults, **state.params(self.name)}
        total = 0
        for b in self.of(state).blocks:
            mine = sum(1 for n in b.squares if n in owned)
            if mine:
                total += _cost_of(params, b.kind, mine, len(b.squares))
        return total

    def set_square(self, state, square, key, value) -> bool:
        """A scenario's ``block: residential 5 6`` (made as if created: no cost)."""
        if key != "block":
            return False
        words = str(value).replace(",", " ").split()
        kind, squares = words[0].lower(), [int(w) for w in words[1:]] or [square.number]
        bs = self.of(state)
        if kind not in BLOCK_KINDS:
            raise ValueError(f"{kind!r} is not a kind of block ({', '.join(BLOCK_KINDS)})")
        if any(b.kind == kind and b.squares == sorted(squares) for b in bs.blocks):
            return True  # the same block named on each of its squares
        bs.blocks.append(Block(id=bs.next_id, kind=kind, squares=sorted(squares)))
        bs.next_id += 1
        return True

    def square_facts(self, state, square) -> list[Fact]:
        block = block_of(state, square.number)
        return [Fact("block", block.id if block else None),
                Fact("block_kind", block.kind if block else None, column="Block", kind="text", order=55)]

    def square_look(self, state, square) -> SquareLook | None:
        block = block_of(state, square.number)
        if block is None:
            return None
        return SquareLook(notes=((55, f"in {block.kind} block {block.id} ({_squares(block.squares)})"),),
                          flags=((55, block.kind[:3].upper(), f"{block.kind} block"),))

    def panels(self, state) -> list[Panel]:
        params = {**self.defaults, **state.params(self.name)}
        from admin.mechanics.nomopoly2.shared import building_label, buildings_on

        rows = tuple((b.id, b.kind, _list(b.squares),
                      ", ".join(f"{n}: {owner_of(state, n) or 'nobody'}" for n in b.squares),
                      "; ".join(f"{n}: {', '.join(map(building_label, buildings_on(state, n)))}" for n in b.squares
                                if buildings_on(state, n)) or "none")
                     for b in self.of(state).blocks)
        intro = (f"Owners who all agree make their squares a block, each paying its cost for each of their "
                 f"squares in it: Residential {state.money(params['cost_residential'])} (two squares in "
                 f"numerical order; a lander pays the rent of both), Industrial "
                 f"{state.money(params['cost_industrial'])} (three in a row or a column; polluted; a weekly "
                 f"income of $1 per square number), Commercial {state.money(params['cost_commercial'])} (a "
                 f"2x2 square; {params['commercial_tax_percent']}% of rent collected goes to the Admin Bank "
                 f"Account), Government {state.money(params['cost_government'])} (one square; the "
                 "Government builds on it once a week) (XXI).")
        return [Panel("blocks", "Blocks", intro,
                      (Table("Every block", ("Block", "Kind", "Squares", "Owners", "Buildings"), rows),), order=21)]


# -- shapes ---------------------------------------------------------------------------------
def _cells(state: GameState, squares: list[int]) -> list[tuple[int, int]] | None:
    lay = layout_of(state, int(state.params("board").get("columns", 10)))
    if not lay.compass:
        return None
    return [lay.cell(n, len(state.squares)) for n in squares]


def shape_ok(state: GameState, kind: str, squares: list[int]) -> bool:
    """Whether ``squares`` (sorted, distinct) have the shape of a ``kind`` block (XXI.3-XXI.6)."""
    if len(squares) != SIZES[kind]:
        return False
    if kind == "government":
        return True
    if kind == "residential":
        a, b = squares
        return b > a and successor(state, a) == b
    cells = _cells(state, squares)
    if cells is None:
        return False
    rows, cols = sorted({r for r, _ in cells}), sorted({c for _, c in cells})
    if kind == "industrial":
        if len(rows) == 1:
            return cols == list(range(cols[0], cols[0] + 3))
        if len(cols) == 1:
            return rows == list(range(rows[0], rows[0] + 3))
        return False
    return (len(rows) == 2 and len(cols) == 2 and rows[1] == rows[0] + 1 and cols[1] == cols[0] + 1
            and len(set(cells)) == 4)


def possible_groups(state: GameState, kind: str) -> list[list[int]]:
    """Every group of owned squares outside blocks that could make a ``kind`` block (XIX.3's Mall)."""
    free = [s.number for s in state.squares
            if not s.destroyed and owner_of(state, s.number) is not None and block_of(state, s.number) is None]
    if kind == "government":
        return [[n] for n in free]
    if kind == "residential":
        return [[n, successor(state, n)] for n in free if successor(state, n) in free and successor(state, n) > n]
    lay = layout_of(state, int(state.params("board").get("columns", 10)))
    if not lay.compass:
        return []
    count, groups = len(state.squares), set()
    offsets = ([[(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (2, 0)]] if kind == "industrial"
               else [[(0, 0), (0, 1), (1, 0), (1, 1)]])
    for n in free:
        r, c = lay.cell(n, count)
        for shape in offsets:
            group = [lay.number_at(r + dr, c + dc, count) for dr, dc in shape]
            if all(g in free for g in group):
                groups.add(tuple(sorted(group)))  # type: ignore[arg-type]
    return [list(g) for g in sorted(groups)]


# -- creating and destroying ------------------------------------------------------------------
def _list(numbers) -> str:
    return ", ".join(str(n) for n in numbers)


def _squares(numbers) -> str:
    numbers = list(numbers)
    return f"square{'s' if len(numbers) > 1 else ''} {_list(numbers)}"


def _find(state: GameState, number: int) -> Block:
    for block in BlocksModule.of(state).blocks:
        if block.id == number:
            return block
    have = _list(b.id for b in BlocksModule.of(state).blocks) or "none"
    raise IllegalAction(f"there is no block {number}; the blocks are: {have}")


def _check(state: GameState, kind: str, squares: list[int]) -> dict[int, str]:
    """The owner of each square, or IllegalAction saying why these squares cannot be a ``kind`` block."""
    if len(set(squares)) != len(squares):
        raise IllegalAction(f"squares {_list(squares)} name a square twice")
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
        raise IllegalAction(f"{_squares(sorted(squares))} cannot form {'an' if kind == 'industrial' else 'a'} {kind} block, which needs "
                            f"{SHAPES[kind]}")
    return owners


def _cost_of(params: dict, kind: str, mine: int, size: int) -> int:
    """What an owner of ``mine`` of a ``kind`` block's ``size`` squares pays for it (XXI.2, as
    ``cost_per`` reads it): the cost for each square, once, or their share of it (nearest dollar)."""
    cost = int(params[f"cost_{kind}"])
    if params["cost_per"] == "owner":
        return cost
    if params["cost_per"] == "split":
        return (2 * cost * mine + size) // (2 * size)
    return cost * mine


def _costs(ctx, kind: str, owners: dict[int, str]) -> dict[str, int]:
    params = ctx.params(BlocksModule.name)
    counts: dict[str, int] = {}
    for owner in owners.values():
        counts[owner] = counts.get(owner, 0) + 1
    return {owner: _cost_of(params, kind, mine, len(owners)) for owner, mine in counts.items()}


def _make(ctx, creator: Player | None, kind: str, squares: list[int], owners: dict[int, str], *,
          on_credit: bool, free: bool, rule: str = "XXI.2") -> str:
    """Check again, take each owner's cost (all or nothing), and make the block."""
    now = _check(ctx.state, kind, squares)
    if now != owners:
        changed = [n for n in squares if now.get(n) != owners.get(n)]
        raise IllegalAction(f"square(s) {_list(changed)} changed hands since the block was proposed")
    costs = {} if free else _costs(ctx, kind, owners)
    for owner, amount in sorted(costs.items()):
        money = ctx.state.players[owner].money
        if not (on_credit and creator is not None and owner == creator.name) and money - amount < 0:
            raise IllegalAction(f"{owner} would pay ${amount} for the block and has ${money}; no voluntary "
                                "action may make a player bankrupt (IV.3)")
    order = sorted(costs, key=lambda o: (creator is None or o != creator.name, o))
    for owner in order:  # the creator first: a refused credit card stops it before anyone pays
        charge(ctx, owner, BANK, costs[owner], rule="XXI.2", reason=f"creating {_a(kind)} block of squares "
               f"{_list(sorted(squares))}", on_credit=on_credit and creator is not None and owner == creator.name)
    bs = BlocksModule.of(ctx.state)
    block = Block(id=bs.next_id, kind=kind, squares=sorted(squares))
    bs.next_id += 1
    if kind == "industrial" and ctx.state.enabled(BoardModule.name):
        block.polluted_before = [n for n in block.squares if n in BoardModule.of(ctx.state).polluted]
        for n in block.squares:
            set_polluted(ctx.state, n, True)
    bs.blocks.append(block)
    paid = "; ".join(f"{o} paid ${a}" for o, a in sorted(costs.items())) if costs else "free of charge"
    return f"{_squares(block.squares).capitalize()} became {kind} block {block.id} ({paid})."


def create(ctx, player: Player, cmd: CreateBlock) -> str:
    squares = list(cmd.squares)
    owners = _check(ctx.state, cmd.kind, squares)
    if player.name not in owners.values():
        raise IllegalAction(f"you own none of {_squares(squares)}; a block is made by its squares' "
                            "owners (XXI.1)")
    others = sorted(set(owners.values()) - {player.name})
    if not others:
        return _make(ctx, player, cmd.kind, squares, owners, on_credit=cmd.on_credit, free=False)
    costs = _costs(ctx, cmd.kind, owners)
    from admin.mechanics.interactions import ask

    inter = ask(ctx, kind="consent", module=BlocksModule.name, parties=others, silence="decline",
                after=int(ctx.params(BlocksModule.name)["consent_updates"]), proposer=player.name,
                payload={"action": "create", "kind": cmd.kind, "squares": sorted(squares),
                         "owners": {str(n): o for n, o in owners.items()}, "credit": cmd.on_credit})
    return (f"{player.name} proposed making squares {_list(sorted(squares))} {_a(cmd.kind)} block (#{inter.id}); "
            f"it is made if {', '.join(others)} ACCEPT {inter.id} by update {inter.deadline}, and then "
            + "; ".join(f"{o} pays ${a}" for o, a in sorted(costs.items())) + " (XXI.1, XXI.2).")


def destroy(ctx, player: Player, cmd: DestroyBlock) -> str:
    block = _find(ctx.state, cmd.block)
    owners = sorted({o for n in block.squares if (o := owner_of(ctx.state, n)) is not None})
    if player.name not in owners:
        raise IllegalAction(f"you own no square of block {block.id} ({_squares(block.squares)}); only its "
                            "owners may destroy it (XXI.8)")
    if block.kind == "government":
        raise IllegalAction(f"block {block.id} is a government block, which can never be destroyed (XXI.8)")
    others = [o for o in owners if o != player.name]
    if block.kind == "industrial" and others:
        from admin.mechanics.interactions import ask

        inter = ask(ctx, kind="consent", module=BlocksModule.name, parties=others, silence="decline",
                    after=int(ctx.params(BlocksModule.name)["consent_updates"]), proposer=player.name,
                    payload={"action": "destroy", "block": block.id})
        return (f"{player.name} proposed destroying industrial block {block.id} (#{inter.id}); it is destroyed "
                f"if {', '.join(others)} ACCEPT {inter.id} by update {inter.deadline} (XXI.8).")
    return destroy_block(ctx, block, rule="XXI.8", who=player.name)


def destroy_block(ctx, block: Block, *, rule: str, who: str) -> str:
    """The block ends: its buildings go, refunded by half (XXII.2), and an Industrial block's
    pollution with it (squares polluted before it stay polluted)."""
    bs = BlocksModule.of(ctx.state)
    refunds = ""
    if ctx.state.enabled("buildings"):
        refunds = use("buildings.destroy_all_on")(ctx, block.squares, rule="XXII.2")
    if block.kind == "industrial" and ctx.state.enabled(BoardModule.name):
        for n in block.squares:
            if n not in block.polluted_before:
                set_polluted(ctx.state, n, False)
    bs.blocks = [b for b in bs.blocks if b.id != block.id]
    text = f"{block.kind.capitalize()} block {block.id} ({_squares(block.squares)}) was destroyed by {who}" \
           + (f"; {refunds}" if refunds else "") + "."
    return text


@provides("blocks.make_free_block")
def make_free_block(ctx, rule: str) -> None:
    """XIX.3 (the Skunk on a Mall): a random block type; of every group of owned squares outside
    blocks that could make one, a random group becomes a block of that type, free to its owners."""
    if not ctx.state.enabled(BlocksModule.name):
        return
    kind = BLOCK_KINDS[ctx.dice.roll("blocks/free-kind", len(BLOCK_KINDS)) - 1]
    groups = possible_groups(ctx.state, kind)
    if not groups:
        ctx.emit("block", f"No group of owned squares outside blocks could make {_a(kind)} block, so none "
                          "was made.", rule=rule)
        return
    group = groups[ctx.dice.roll(f"blocks/free-group/{kind}", len(groups)) - 1] if len(groups) > 1 else groups[0]
    owners = {n: owner_of(ctx.state, n) or "" for n in group}
    ctx.emit("block", _make(ctx, None, kind, group, owners, on_credit=False, free=True, rule=rule), rule=rule)


# -- the week's end ---------------------------------------------------------------------------
def _industrial_income(ctx) -> None:
    """XXI.4: $(square number) a week to the owner of each Industrial block square (a Factory
    multiplies it, XXII.4), from the Admin Bank Account."""
    per = int(ctx.params(BlocksModule.name)["industrial_income_per_number"])
    factory = int(ctx.params("buildings")["factory_income_multiplier"]) if ctx.state.enabled("buildings") else 1
    from admin.mechanics.nomopoly2.shared import has_building

    for block in BlocksModule.of(ctx.state).blocks:
        if block.kind != "industrial":
            continue
        for n in block.squares:
            owner = ctx.state.players.get(owner_of(ctx.state, n) or "")
            if owner is None or not owner.active:
                continue
            tripled = has_building(ctx.state, n, "factory")
            income = n * per * (factory if tripled else 1)
            if income <= 0:
                continue
            ctx.transfer(BANK, owner.name, income, rule="XXI.4", reason=f"weekly income of industrial square {n}")
            ctx.emit("income", f"{owner.name} received ${income} weekly income for industrial square {n}"
                               + (" (its Factory multiplies it)" if tripled else "") + ".",
                     player=owner.name, rule="XXII.4" if tripled else "XXI.4", data={"square": n, "amount": income})


def _government_builds(ctx) -> None:
    """XXI.6: once a week the Government builds a random allowable building on a random Government
    square that lacks it. Choosing a square and a building at random and choosing again while the
    pair is taken is the same as one random choice among the pairs not taken, which is made here
    (one roll, and it always ends)."""
    if not ctx.state.enabled("buildings"):
        return
    from admin.mechanics.nomopoly2.shared import buildings_on

    squares = sorted(n for b in BlocksModule.of(ctx.state).blocks if b.kind == "government" for n in b.squares)
    pairs = [(n, name) for n in squares for name in use("buildings.government_buildings")(ctx.state)
             if name not in buildings_on(ctx.state, n)]
    if not pairs:
        return
    n, name = pairs[ctx.dice.roll(f"blocks/government/week{ctx.state.week}", len(pairs)) - 1] \
        if len(pairs) > 1 else pairs[0]
    use("buildings.build_free")(ctx, n, name, "XXI.6")


def _free_block_ruling(ctx, r) -> str:
    """``nomopoly ruling free-block``: XIX.3's Mall effect, when the Admin carries it out by hand."""
    before = len(ctx.events)
    make_free_block(ctx, "XIX.3")
    said = [e.text for e in ctx.events[before:] if e.kind == "block" and e.text]
    return (said[-1] if said else "No block was made.") + (f" ({r.note})" if r.note else "")
