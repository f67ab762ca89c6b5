"""XXII: actions. What the engine already does by its design, and this module makes sure of:

- every command line of a player's email is a voluntary action; what a rule makes a player do
  (a turn's move, a fine, being moved off a destroyed square) is involuntary (XXII.1, XXII.2);
- a line that is no command is discussion: it gets no verdict beyond a note and changes nothing
  (XXII.3, the core's grammar);
- a failed action leaves the game as it was: the core undoes anything it did before it failed
  (XXII.4, :attr:`undo_failed_actions`), and a voluntary payment that would leave a player
  Bankrupt fails with nothing paid (XXII.5, the core's ``transfer(..., voluntary=True)``);
- every action's result, failed or not, is posted in the update that judges the week's
  proposals (XXII.6: one update a week carries out the mail and judges);
- a submitted action is never taken back: there is no command to withdraw an email's lines,
  and a later email only adds actions (XXII.7);
- a player put on a square by an involuntary action acts from it at the start of the next
  update (XXII.8): the week's mail is carried out before any turn or rule moves anyone, so she
  is still there; :func:`acting_square` is the square she acts from, and :func:`placed` records
  an involuntary placement so STATUS and the site say it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine.module import Mechanic
from admin.engine.shows import Fact
from admin.engine.errors import IllegalAction
from admin.games.nomoteams import api

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player

NAME = "teams-actions"


@dataclass
class ActionsState:
    #: player -> the square an involuntary action put her on in the last update (XXII.8)
    placed: dict[str, int] = field(default_factory=dict)
    #: the update those placements were made in
    update: int = 0


class ActionsModule(Mechanic[ActionsState, None]):
    name = NAME
    rules = ("XXII.1", "XXII.2", "XXII.3", "XXII.4", "XXII.5", "XXII.6", "XXII.7", "XXII.8")
    summary = "Actions: failed ones undone and refunded, none that bankrupts, all posted, none taken back."
    State = ActionsState
    undo_failed_actions = True  # XXII.4

    def on_update_start(self, ctx: UpdateContext) -> None:
        acts = self.of(ctx.state)
        if acts.update < ctx.state.update - 1:  # placements older than the last update have served
            acts.placed.clear()

    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        placed(ctx, player.name, player.square)  # a turn's move is involuntary (XXII.2)

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        acts = self.of(state)
        acts.placed = {n: (new if s == old else s) for n, s in acts.placed.items()}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).placed.pop(player.name, None)

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        where = self.of(state).placed.get(player.name)
        return [Fact("placed_on", where, label="Put on square (acts from it, XXII.8)", order=48)]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        where = self.of(state).placed.get(player.name)
        if where is None or where != player.square:
            return []
        return [(21, f" (put there by the rules: you act from square {where}, XXII.8)")]


def placed(ctx: UpdateContext, name: str, square: int) -> None:
    """An involuntary action put ``name`` on ``square`` during this update (XXII.8)."""
    acts = api.ACTIONS.get(ctx.state)
    if acts is None:
        return
    if acts.update != ctx.state.update:
        acts.placed.clear()
        acts.update = ctx.state.update
    acts.placed[name] = square


def acting_square(state: GameState, name: str) -> int:
    """The square ``name`` takes her voluntary actions from (XXII.8): where she stands, which is
    where the last update's involuntary actions left her, since the mail is carried out first."""
    return state.players[name].square


def affordable(state: GameState, player: Player, cost: int, what: str) -> None:
    """XXII.5: a voluntary action that would leave its player Bankrupt (less than $0, IV.5) is
    invalid and fails, costing her nothing."""
    if player.money - cost < 0:
        raise IllegalAction(f"{what} costs {state.money(cost)} and you have {state.money(player.money)}: no "
                            "voluntary action may make you Bankrupt (XXII.5)")
