"""XVIII: destruction. A square the rules name may not be destroyed (XVIII.1); a destroyed square
is removed from the game: who and what stood on it go to the closest Public Property, and the
highest square takes its number (XVIII.2); a player's square that the destruction makes The
Government's is paid for at market value, and repainted if it was a Corporate Colour (XVIII.3);
Explosive Insurance (XVIII.4); destroying a Best Friend's property makes a Freemason (XVIII.5).

Every destruction of this variant goes through :func:`destroy` (VIII.10's fifth rename, the
Admin's ``destroy`` ruling for the pieces and products whose effects she carries out), which the
others reach as the :class:`~admin.games.nomoteams.api.DestroysSquares` capability
(``ownership.state.destroy``); another
section that destroys something a player owns asks :func:`insured_against` first and calls
:func:`destroyed_by` for XVIII.5."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from admin.engine import hooks
from admin.engine.board import destroy_square, live_numbers, renumber_square
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import (CORPORATE_COLOURS, GOVERNMENT, GOVERNMENT_COLOURS, best_friend,
                                              colour_of, is_national_park, is_public_property, market_value,
                                              mentioned_squares, owner_of, set_colour)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.events import Ruling
    from admin.engine.module import CommandSpec, RulingHandler

NAME = "teams-destruction"


def _parse(cancel: bool) -> Callable[[str, object], ExplosiveInsurance]:
    def parse(rest: str, line: object) -> ExplosiveInsurance:
        if rest.strip().upper() != "INSURANCE":
            word = "CANCEL" if cancel else "BUY"
            found = f"; found {word} EXPLOSIVE {rest.strip()}" if rest.strip() else ""
            raise CommandError(f"say {word} EXPLOSIVE INSURANCE, with nothing after it{found}.")
        return ExplosiveInsurance(cancel)
    return parse


@command("BUY EXPLOSIVE INSURANCE", keyword="BUY EXPLOSIVE", parse=_parse(False), cmd="teams-explosive-insurance",
         listing=160, summary="pay $500 to The Government: destruction never touches you or "
                              "your squares ($50 each time it is averted)",
         example="BUY EXPLOSIVE INSURANCE", rules=("XVIII.4",))
@command("CANCEL EXPLOSIVE INSURANCE", keyword="CANCEL EXPLOSIVE", parse=_parse(True), listing=161,
         summary="give up your Explosive Insurance (no refund): you no longer want to pay "
                 "$50 for each destruction it averts", example="CANCEL EXPLOSIVE INSURANCE",
         rules=("XVIII.4",))
class ExplosiveInsurance:
    """``BUY EXPLOSIVE INSURANCE`` or ``CANCEL EXPLOSIVE INSURANCE`` (XVIII.4)."""

    cancel: bool = False


@dataclass
class DestructionState:
    #: players with Explosive Insurance (XVIII.4), in the order they bought it
    insured: list[str] = field(default_factory=list)


class DestructionModule(Mechanic[DestructionState, None], api.DestroysSquares):
    name = NAME
    rules = ("XVIII.1", "XVIII.2", "XVIII.3", "XVIII.4", "XVIII.5")
    stated = {"XVIII.4": {"insurance_cost": ("Explosive Insurance for ${}",)}}
    defaults = {"insurance_cost": 500, "claim_fee": 50, "lodges": [28, 53, 83]}
    minimums = {"insurance_cost": 0, "claim_fee": 0}
    summary = "Destroyed squares leave the game (the highest takes their number); Explosive Insurance."
    State = DestructionState

    def destroy(self, ctx: UpdateContext, number: int, *, reason: str, rule: str, by: str | None = None) -> bool:
        return destroy(ctx, number, reason=reason, rule=rule, by=by)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((ExplosiveInsurance, insurance))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"destroy": _destroy_ruling}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ds = self.of(state)
        ds.insured = [n for n in ds.insured if n != player.name]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "explosive_insurance":
            return False
        ds = self.of(state)
        ds.insured = [n for n in ds.insured if n != player.name] + ([player.name] if value else [])
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("explosive_insurance", player.name in self.of(state).insured, label="Explosive Insurance",
                     order=47, kind="text")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("indestructible", "yes" if square.number in named_squares(state) else None, column="Indestructible",
                     order=60, kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        if square.number in named_squares(state):
            return SquareLook(notes=((60, "named in the rules: may not be destroyed"),))
        owner = owner_of(state, square.number)
        if insured(state, owner):
            return SquareLook(flags=((60, "EI", f"{owner}'s Explosive Insurance averts its destruction"),))
        return None

    def panels(self, state: GameState) -> list[Panel]:
        rows = tuple((n,) for n in self.of(state).insured)
        return [Panel("destruction", "Destruction",
                      "A destroyed square leaves the game: whoever stands on it goes to the closest Public "
                      "Property, and the highest square takes its number. Squares the rules name (Public "
                      "Property, National Parks, the Zoo, square 1, the Lodges) may not be destroyed. "
                      "Explosive Insurance ($500) protects a player and her squares; each destruction it "
                      "averts costs her $50.",
                      (Table("Explosive Insurance", ("Player",), rows),), order=40)]


def insurance(ctx: UpdateContext, player: Player, cmd: ExplosiveInsurance) -> str:
    from admin.games.nomoteams.mechanics.actions import affordable

    ds = DestructionModule.of(ctx.state)
    has = player.name in ds.insured
    if cmd.cancel:
        if not has:
            raise IllegalAction("you have no Explosive Insurance to cancel (BUY EXPLOSIVE INSURANCE buys it)")
        ds.insured.remove(player.name)
        return f"{player.name} gave up her Explosive Insurance (XVIII.4)."
    if has:
        raise IllegalAction("you already have Explosive Insurance (XVIII.4); one is enough")
    cost = int(ctx.params(NAME)["insurance_cost"])
    affordable(ctx.state, player, cost, "Explosive Insurance")
    ctx.transfer(player.name, GOVERNMENT, cost, rule="XVIII.4", reason="Explosive Insurance", voluntary=True)
    ds.insured.append(player.name)
    return f"{player.name} bought Explosive Insurance for {ctx.state.money(cost)} (XVIII.4)."


# -- the rules' helpers ----------------------------------------------------------------------
def named_squares(state: GameState) -> set[int]:
    """XVIII.1's squares "named in the rules": II.7's (square 1, Public Property, National Parks,
    the Zoo, the Admin's list) and the WETHA's Lodges (XXVIII.4: the 28th, 53rd and 83rd squares,
    those on the board)."""
    top = max(live_numbers(state), default=0)
    lodges = {int(n) for n in state.params(NAME).get("lodges", DestructionModule.defaults["lodges"])}
    return mentioned_squares(state) | {n for n in lodges if n <= top}


def insured(state: GameState, name: str | None) -> bool:
    ds = api.DESTRUCTION.get(state)
    return ds is not None and name in ds.insured


def insured_against(ctx: UpdateContext, name: str | None, what: str) -> bool:
    """XVIII.4: whether destruction averts ``name`` (or what she owns): if so she pays the $50
    claim, or, when she cannot, loses the insurance (the destruction is averted all the same)."""
    if not insured(ctx.state, name):
        return False
    assert name is not None
    fee = int(ctx.state.params(NAME).get("claim_fee", DestructionModule.defaults["claim_fee"]))
    player = ctx.state.players[name]
    if player.money >= fee:
        ctx.transfer(name, GOVERNMENT, fee, rule="XVIII.4", reason=f"Explosive Insurance averted {what}")
        ctx.emit("insurance", f"{name}'s Explosive Insurance averted {what}; she paid {ctx.state.money(fee)} "
                              "(XVIII.4).", player=name, rule="XVIII.4", data={"fee": fee})
    else:
        DestructionModule.of(ctx.state).insured.remove(name)
        ctx.emit("insurance", f"{name}'s Explosive Insurance averted {what}, but she cannot pay "
                              f"{ctx.state.money(fee)}, so she has lost it (XVIII.4).", player=name, rule="XVIII.4")
    return True


def destroyed_by(ctx: UpdateContext, by: str | None, owner: str | None, what: str) -> None:
    """XVIII.5: a player who destroys what her Best Friend owns becomes a Freemason."""
    from admin.games.nomoteams.mechanics.teams import make_freemason

    if by and owner and owner != by and best_friend(ctx.state, by) == owner:
        make_freemason(ctx.state, by)
        ctx.emit("freemason", f"{by} destroyed {what}, which her Best Friend {owner} owned, and became a "
                              "Freemason (XVIII.5).", player=by, rule="XVIII.5")


def closest_public_property(state: GameState, number: int) -> int:
    """XVIII.2's "closest Public Property" to ``number``: the fewest squares away along the board,
    either way round (a standing ruling); a tie: the lower number; none: the lowest square. It
    may be asked while ``number`` is being destroyed (a module's ``on_square_added`` moving the
    items it keeps there)."""
    numbers = sorted(set(live_numbers(state)) | {number})
    here = numbers.index(number)
    best: tuple[int, int] | None = None
    for i, n in enumerate(numbers):
        if n == number or not is_public_property(n):
            continue
        gap = abs(i - here)
        key = (min(gap, len(numbers) - gap), n)
        best = key if best is None or key < best else best
    return best[1] if best else numbers[0]


def destroy(ctx: UpdateContext, number: int, *, reason: str, rule: str, by: str | None = None) -> bool:
    """Destroy square ``number`` (XVIII): True if it was destroyed, False if Explosive Insurance
    averted it; an :class:`IllegalAction` if the rules name it (XVIII.1)."""
    from admin.games.nomoteams.mechanics.actions import placed

    state = ctx.state
    square = state.square(number)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {number} on the board")
    if number in named_squares(state):
        raise IllegalAction(f"square {number} is named in the rules and may not be destroyed (XVIII.1)")
    if len(live_numbers(state)) <= 1:
        raise IllegalAction("the board's last square may not be destroyed (VI.1)")
    owner = owner_of(state, number)
    if insured_against(ctx, owner, f"the destruction of square {number}"):
        return False
    destroyed_by(ctx, by, owner, f"square {number}")
    # XVIII.2: who and what stands on it goes to the closest Public Property
    refuge = closest_public_property(state, number)
    moved = [p.name for p in state.players.values() if p.active and p.square == number]
    for name in moved:
        state.players[name].square = refuge
        placed(ctx, name, refuge)  # an involuntary action (XXII.8)
    pseudo = api.PSEUDO.get(state)
    if pseudo is not None:
        for piece in pseudo.pieces.values():
            if piece.square == number and not piece.gone:
                piece.square = refuge
                moved.append(piece.name)
    before = dict(api.OWNERSHIP.of(state).owners)
    calls = hooks.call(ctx)
    destroy_square(state, number, calls)
    highest = live_numbers(state)[-1]
    came_from = {}
    if highest > number:  # the highest square takes the destroyed one's number
        renumber_square(state, highest, number, calls)
        came_from[number] = highest
        text = f"square {highest} is now square {number}"
    else:
        text = "it was the highest square"
        if number == len(state.squares):
            state.squares.pop()
    if came_from and (is_public_property(number) or is_national_park(number)):
        api.OWNERSHIP.of(state).owners[number] = GOVERNMENT  # X.2, X.3 by its new number
    _compensate(ctx, before, came_from)
    where = f"; {', '.join(moved)} moved to Public Property {refuge}" if moved else ""
    ctx.emit("destroyed", f"Square {number} was destroyed ({reason}): {text}{where} (XVIII.2).", rule=rule,
             data={"square": number, "renumbered": came_from.get(number), "moved": moved, "refuge": refuge})
    return True


def _compensate(ctx: UpdateContext, before: dict[int, str], came_from: dict[int, int]) -> None:
    """XVIII.3: a player's square the destruction made The Government's is paid for at its market
    value (from nowhere, IV.3); a Corporate Colour on it becomes a random Government Colour. An
    insured owner is unaffected: she keeps it (and pays the claim)."""
    state = ctx.state
    owners = api.OWNERSHIP.of(state).owners
    for number, now in sorted(owners.items()):
        was = before.get(came_from.get(number, number))
        if now != GOVERNMENT or was is None or was not in state.players:
            continue
        if insured_against(ctx, was, f"the loss of square {number}"):
            owners[number] = was
            continue
        value = market_value(state, number)
        ctx.transfer(BANK, was, value, rule="XVIII.3", reason=f"square {number} became The Government's")
        text = f"Square {number} became The Government's: {was} was paid its market value, {state.money(value)}"
        if colour_of(state, number) in CORPORATE_COLOURS:
            colour = GOVERNMENT_COLOURS[ctx.dice.roll(f"destruction/paint/{number}", len(GOVERNMENT_COLOURS)) - 1]
            set_colour(state, number, colour)
            text += f"; The Government painted it {colour}"
        ctx.emit("destruction-paid", text + " (XVIII.3).", player=was, rule="XVIII.3",
                 data={"square": number, "value": value})


def _destroy_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """The Admin destroys a square as a rule she carries out says (a piece, a product):
    ``destroy square=N [by=PLAYER]``."""
    if "square" not in r.args:
        raise RuleError("destroy needs square=N (and by=PLAYER if a player destroyed it, XVIII.5)")
    number = int(r.args["square"])
    by = str(r.args["by"]) if "by" in r.args else None
    if by is not None and by not in ctx.state.players:
        raise RuleError(f"by={by}: there is no such player")
    try:
        done = destroy(ctx, number, reason=r.note or "by the Admin's ruling", rule="XVIII.2", by=by)
    except IllegalAction as exc:
        raise RuleError(str(exc)) from exc
    return (f"The Admin destroyed square {number}" if done else
            f"Explosive Insurance averted the destruction of square {number}") + f": {r.note}"
