"""Nomopoly II XXIII: terrorism. A player who consents to an act that leads straight to an
atrocity is a terrorist for a while: this week and the next one for a minor atrocity (a
Biological Missile, anthrax), this week and the next six for a major one (an ICBM).

The acts themselves are other sections' (they call :func:`shared.commit_atrocity`, which keeps
the condition in the conditions module); this module holds the lengths (``minor_weeks``,
``major_weeks``), withholds what a terrorist may not have (the $1000 for going round the board,
VI.11, and the chance of a new square, VI.17), shows who is a terrorist, and gives the Admin a
ruling for an atrocity no mechanic saw (``nomopoly ruling decide atrocity player=NAME
[major=true] what="..." --reason ...``); the net-worth section counts a terrorist's -$2500. The lottery section refuses a
terrorist's tickets (:func:`is_terrorist`); a terrorist's trade with a player who is not one is
refused here (``refuses_partners``, the trading section's capability)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.capabilities import DeniesBenefits
from admin.engine.errors import RuleError
from admin.games.nomopoly2.api import CONDITIONS
from admin.games.nomopoly2.mechanics.shared import commit_atrocity, is_terrorist, may_commit_atrocity
from admin.library.trading import RefusesPartners

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player
    from admin.engine.module import RulingHandler




def terrorist_until(state: GameState, player: str) -> int | None:
    """The last week ``player`` is a terrorist in, or None."""
    if not is_terrorist(state, player):
        return None
    cs = CONDITIONS.get(state)
    return cs.weeks.get(player, {}).get("terrorist") if cs is not None else None


class TerrorismModule(Mechanic[None, None], DeniesBenefits, RefusesPartners):
    name = "terrorism"
    rules = ("XXIII.1", "XXIII.2")
    stated = {"XXIII.1": {"major_weeks": ("the whole of the {} weeks after it",)}}
    defaults = {"minor_weeks": 1,          # a minor atrocity: this week and the next one (XXIII.1)
                "major_weeks": 6}          # a major atrocity: this week and the next six (XXIII.1)
    minimums = {"minor_weeks": 0, "major_weeks": 0}
    summary = ("Consenting to an atrocity makes a player a terrorist for a while: no $1000 for going "
               "round the board, no lottery tickets, trades only with other terrorists.")
    requires = ("conditions",)

    def denies(self, ctx: UpdateContext, player: Player, benefit: str) -> str | None:
        if benefit in ("pass-bonus", "new-square") and is_terrorist(ctx.state, player.name):
            return f"{player.name} is a terrorist (XXIII.2)" if benefit == "pass-bonus" else \
                f"{player.name} is a terrorist (VI.17, XXIII.2)"
        return None

    def refuses_partners(self, state: GameState, a: str, b: str) -> str | None:
        """XXIII.2: a terrorist may not trade with a player who is not one."""
        ta, tb = is_terrorist(state, a), is_terrorist(state, b)
        if ta == tb:
            return None
        terrorist, other = (a, b) if ta else (b, a)
        return f"{terrorist} is a terrorist and {other} is not; a terrorist trades only with terrorists (XXIII.2)"

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        until = terrorist_until(state, player.name)
        return [Fact("terrorist_until", until, label="Terrorist until" if until else None, kind="num",
                     order=61)]

    def rulings(self) -> dict[str, RulingHandler]:
        return {"atrocity": _atrocity}

    def panels(self, state: GameState) -> list[Panel]:
        rows = tuple((p.name, terrorist_until(state, p.name)) for p in state.active_players()
                     if is_terrorist(state, p.name))
        if not rows:
            return []
        return [Panel("terrorists", "Terrorists",
                      "A terrorist gets no $1000 for going round the board, may buy no lottery ticket and "
                      "may trade only with other terrorists (XXIII.2).",
                      (Table("Terrorists now", ("Player", "Until the end of week"), rows),), order=23)]


def _atrocity(ctx: UpdateContext, ruling: Ruling) -> str:
    """The Admin's ruling that a player consented to an atrocity no mechanic saw (XXIII.1):
    ``args: {player, major: bool, what}``."""
    name = str(ruling.args.get("player", ""))
    player = ctx.state.players.get(name)
    if player is None or not player.active:
        raise RuleError(f"the atrocity ruling names {name!r}, who is not a player in the game")
    why = may_commit_atrocity(ctx.state, name)
    if why:
        raise RuleError(why)
    major = bool(ruling.args.get("major", False))
    what = str(ruling.args.get("what") or ruling.note or "as the Admin ruled")
    commit_atrocity(ctx, name, major=major, rule="XXIII.1", what=what)
    return f"The Admin ruled that {name} committed a {'major' if major else 'minor'} atrocity ({what}) (XXIII.1)."
