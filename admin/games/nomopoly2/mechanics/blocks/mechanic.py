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
change hands; a destroyed square leaves its block.

This file holds the module (its hooks, consent and pages) and the week's end; the shapes are in
:mod:`blocks_shapes`, the CREATE and DESTROY BLOCK commands and the making and ending of blocks in
:mod:`blocks_making`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.context import BANK
from admin.engine.interactions import accept_or_decline, all_consent
from admin.engine.declare import handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.movement import rent_free
from admin.engine.errors import IllegalAction
from admin.library.api import BOARD, INTERACTIONS
from admin.library.board import set_polluted
from admin.games.nomopoly2.api import BUILDINGS, Builds, MakesBlocks
from admin.games.nomopoly2.mechanics.blocks.making import (  # noqa: F401 - part of the blocks interface
    CreateBlock, DestroyBlock, a_kind, cost_of, create, destroy, destroy_block, find_block, make_block,
    make_free_block, listed, squares_text,
)
from admin.games.nomopoly2.mechanics.blocks.shapes import possible_groups, shape_ok  # noqa: F401 - part of its interface
from admin.games.nomopoly2.mechanics.shared import (  # noqa: F401 - centre: part of the blocks interface
    BLOCK_KINDS, Block, BlocksState, block_of, centre,
)
from admin.library.ownership import owner_of, pay_rent, rent_due, squares_owned

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player, Square
    from admin.engine.module import CommandSpec, RulingHandler


class BlocksModule(Mechanic[BlocksState, None], MakesBlocks):
    name = "blocks"
    rules = ("XXI.1", "XXI.2", "XXI.3", "XXI.4", "XXI.5", "XXI.6", "XXI.7", "XXI.8")
    stated = {"XXI.3": {"cost_residential": ("Residential block costs ${}",)},
              "XXI.4": {"cost_industrial": ("Industrial block costs ${}",)},
              "XXI.5": {"cost_commercial": ("Commercial block costs ${}",)},
              "XXI.6": {"cost_government": ("Government block costs ${}",)}}
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

    def make_free_block(self, ctx: UpdateContext, rule: str) -> None:
        make_free_block(ctx, rule)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((CreateBlock, create), (DestroyBlock, destroy))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"free-block": _free_block_ruling}

    # -- lives of squares ---------------------------------------------------------------------
    def on_square_added(self, state: GameState, square: Square) -> None:
        """A destroyed (or brought back) square leaves its block; a block left empty is gone."""
        bs = self.of(state)
        for block in bs.blocks:
            block.squares = [n for n in block.squares if n != square.number]
            block.polluted_before = [n for n in block.polluted_before if n != square.number]
        bs.blocks = [b for b in bs.blocks if b.squares]

    # -- the update -----------------------------------------------------------------------------
    def on_update_start(self, ctx: UpdateContext) -> None:
        """XXI.4: every square of an Industrial block is polluted, whatever cleaned it."""
        if not BOARD.on(ctx.state):
            return
        for block in self.of(ctx.state).blocks:
            if block.kind == "industrial":
                for n in block.squares:
                    set_polluted(ctx.state, n, True)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
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

    def on_rent_paid(self, ctx: UpdateContext, payer: Player, owner: Player, square: Square, amount: int) -> None:
        """XXI.5: 3% (rounded down) of rent collected in a Commercial block goes to the Admin Bank."""
        block = block_of(ctx.state, square.number)
        if block is None or block.kind != "commercial":
            return
        tax = amount * int(ctx.params(self.name)["commercial_tax_percent"]) // 100
        if tax <= 0:
            return
        ctx.transfer(owner.name, BANK, tax, rule="XXI.5", reason=f"tax on rent collected on square {square.number}", kind="tax")
        ctx.emit("block-tax", f"{owner.name} paid ${tax} tax to the Admin Bank Account on the ${amount} rent "
                              f"collected on square {square.number} (commercial block {block.id}).",
                 player=owner.name, rule="XXI.5", data={"square": square.number, "amount": tax})

    def on_update_end(self, ctx: UpdateContext) -> None:
        if not ctx.slot.week_end:
            return
        _industrial_income(ctx)
        _government_builds(ctx)

    # -- consent --------------------------------------------------------------------------------
    def check_answer(self, ctx: UpdateContext, interaction: Any, player: Player, value: Any) -> Any:
        return accept_or_decline(interaction, value)

    def resolve_interaction(self, ctx: UpdateContext, interaction: Any, answers: dict[str, Any]) -> str:
        p = interaction.payload
        if not all_consent(answers):
            no = sorted(n for n, a in answers.items() if str(a).lower() not in ("accept", "yes"))
            what = (f"the {p['kind']} block of squares {listed(p['squares'])}" if p["action"] == "create"
                    else f"destroying block {p['block']}")
            return f"{what} needs every owner's consent and {', '.join(no)} did not give it (XXI.1, XXI.8)"
        proposer = ctx.state.players.get(interaction.proposer or "")
        try:
            if p["action"] == "create":
                owners = {int(k): v for k, v in p["owners"].items()}
                if proposer is None or not proposer.active:
                    raise IllegalAction(f"{interaction.proposer} is no longer in the game")
                return make_block(ctx, proposer, p["kind"], [int(n) for n in p["squares"]], owners,
                             on_credit=bool(p.get("credit")), free=False)
            block = find_block(ctx.state, int(p["block"]))
            return destroy_block(ctx, block, rule="XXI.8",
                                 who=" and ".join(sorted(set(answers) | {interaction.proposer or ""})))
        except IllegalAction as exc:
            return f"not done: {exc}"

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        owned = squares_owned(state, player.name)
        mine = [f"{b.kind} block {b.id} ({squares_text(b.squares)})" for b in self.of(state).blocks
                if not owned.isdisjoint(b.squares)]
        lines = [(45, f"  Blocks you own part of: {'; '.join(mine)}")] if mine else []
        interactions = INTERACTIONS.get(state)
        if interactions is not None:
            for inter in interactions.open:
                if inter.module != self.name or player.name not in inter.parties or player.name in inter.answers:
                    continue
                p = inter.payload
                if p["action"] == "create":
                    params = {**self.defaults, **state.params(self.name)}
                    own = sum(1 for o in p["owners"].values() if o == player.name)
                    cost = cost_of(params, p["kind"], own, len(p["squares"]))
                    what = f"make squares {listed(p['squares'])} {a_kind(p['kind'])} block (you would pay ${cost})"
                else:
                    what = f"destroy block {p['block']}"
                lines.append((89, f"  #{inter.id}: {inter.proposer} asks you to {what}; write ACCEPT {inter.id} "
                                  f"or DECLINE {inter.id} by update {inter.deadline} (no answer is no)"))
        return lines

    # -- worth and the site ---------------------------------------------------------------------
    def worth(self, state: GameState, player: Player) -> int:
        """XXX.1: the block's price for each of the player's squares in a block."""
        owned = squares_owned(state, player.name)
        if not owned:
            return 0
        params = {**self.defaults, **state.params(self.name)}
        total = 0
        for b in self.of(state).blocks:
            mine = sum(1 for n in b.squares if n in owned)
            if mine:
                total += cost_of(params, b.kind, mine, len(b.squares))
        return total

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
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

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        block = block_of(state, square.number)
        return [Fact("block", block.id if block else None),
                Fact("block_kind", block.kind if block else None, column="Block", kind="text", order=55)]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        block = block_of(state, square.number)
        if block is None:
            return None
        return SquareLook(notes=((55, f"in {block.kind} block {block.id} ({squares_text(block.squares)})"),),
                          flags=((55, block.kind[:3].upper(), f"{block.kind} block"),))

    def panels(self, state: GameState) -> list[Panel]:
        params = {**self.defaults, **state.params(self.name)}
        from admin.games.nomopoly2.mechanics.shared import building_label, buildings_on

        rows = tuple((b.id, b.kind, listed(b.squares),
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


# -- the week's end ---------------------------------------------------------------------------
def _industrial_income(ctx: UpdateContext) -> None:
    """XXI.4: $(square number) a week to the owner of each Industrial block square (a Factory
    multiplies it, XXII.4), from the Admin Bank Account."""
    per = int(ctx.params(BlocksModule.name)["industrial_income_per_number"])
    factory = int(ctx.params(BUILDINGS.name)["factory_income_multiplier"]) if BUILDINGS.on(ctx.state) else 1
    from admin.games.nomopoly2.mechanics.shared import has_building

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
            ctx.transfer(BANK, owner.name, income, rule="XXI.4", reason=f"weekly income of industrial square {n}",
                         kind="income")
            ctx.emit("income", f"{owner.name} received ${income} weekly income for industrial square {n}"
                               + (" (its Factory multiplies it)" if tripled else "") + ".",
                     player=owner.name, rule="XXII.4" if tripled else "XXI.4", data={"square": n, "amount": income})


def _government_builds(ctx: UpdateContext) -> None:
    """XXI.6: once a week the Government builds a random allowable building on a random Government
    square that lacks it. Choosing a square and a building at random and choosing again while the
    pair is taken is the same as one random choice among the pairs not taken, which is made here
    (one roll, and it always ends)."""
    builds = ctx.registry.provider(ctx.state, Builds)  # None while XXII is not in force
    if builds is None:
        return
    from admin.games.nomopoly2.mechanics.shared import buildings_on

    squares = sorted(n for b in BlocksModule.of(ctx.state).blocks if b.kind == "government" for n in b.squares)
    pairs = [(n, name) for n in squares for name in builds.government_buildings(ctx.state)
             if name not in buildings_on(ctx.state, n)]
    if not pairs:
        return
    n, name = pairs[ctx.dice.roll(f"blocks/government/week{ctx.state.week}", len(pairs)) - 1] \
        if len(pairs) > 1 else pairs[0]
    builds.build_free(ctx, n, name, "XXI.6")


def _free_block_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``nomopoly ruling free-block``: XIX.3's Mall effect, when the Admin carries it out by hand."""
    before = len(ctx.events)
    make_free_block(ctx, "XIX.3")
    said = [e.text for e in ctx.events[before:] if e.kind == "block" and e.text]
    return (said[-1] if said else "No block was made.") + (f" ({r.note})" if r.note else "")
