"""Nomopoly II XVIII.4-5: the lottery's prizes, and the winner's choice of eliminating or taking
over a player (asked through the interactions facility: ``ELIMINATE bob``, ``TAKE OVER bob``, or
``ANSWER <n> TWO VOTES`` where two votes are on offer). Part of the lottery module.

Eliminating removes the target from the game (the core's removal: their money goes to the Admin
Bank Account); taking over gives the winner every square the target owns (XVIII.5). The winner
may not choose themselves. Silence: nothing for a 6 or 7 (the votes are theirs anyway), and the
``silent_five`` parameter (two votes) for a 5."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any

from admin.engine.context import BANK
from admin.engine.interactions import Interaction, answer
from admin.engine.declare import As, command, handled
from admin.engine.module import CommandSpec
from admin.engine.errors import IllegalAction
from admin.library.interactions import InteractionsModule, ask
from admin.games.nomopoly2.mechanics.conditions import grant, grant_weeks
from admin.library.ownership import OwnershipModule, set_owner
from admin.engine.model import Player, VoteGrant

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

_REASON = "the lottery (XVIII.4)"


def _name(word: str) -> str:
    """The player named, without a full stop or an exclamation mark after it."""
    return word.rstrip(".!")


@command("ELIMINATE <target:player>", fixed={"verb": "eliminate"},
         hint="write ELIMINATE <player>, like ELIMINATE bob.", listing=116, rules=("XVIII.5",),
         summary="a lottery winner's prize: remove a player from the game", example="ELIMINATE bob")
@command("TAKE OVER <target:player>", keyword="TAKE OVER", fixed={"verb": "take over"}, cmd="lottery-prize",
         hint="write TAKE OVER <player>, like TAKE OVER bob.", listing=117, rules=("XVIII.5",),
         summary="a lottery winner's prize: every square of a player becomes yours", example="TAKE OVER bob")
class PrizeChoice:
    """``ELIMINATE <player>`` or ``TAKE OVER <player>`` (XVIII.5): a lottery winner's choice."""

    verb: str
    target: Annotated[str, As(_name)]


def prize_commands() -> tuple[CommandSpec, ...]:
    return handled((PrizeChoice, choose))


def _two_votes(ctx: UpdateContext, player: str, week: int) -> None:
    """Two votes on every proposal of ``week`` (XVIII.4); a second grant adds nothing."""
    if not any(g.player == player and g.week == week and g.reason == _REASON for g in ctx.state.vote_grants):
        ctx.state.vote_grants.append(VoteGrant(player=player, extra=1, week=week, reason=_REASON))
    grant_weeks(ctx.state, player, "double-votes", week)


def award(ctx: UpdateContext, player: str, matched: int, ticket: int) -> str:
    """Give the prize for a ticket with ``matched`` numbers right; the prize in words ("" if none)."""
    state, week = ctx.state, ctx.state.week + 1
    p = ctx.params("lottery")
    if matched >= 7:
        pot = max(state.admin_bank, 0)
        ctx.transfer(BANK, player, pot, rule="XVIII.4", reason="the lottery: 7 numbers right", kind="prize")
        grant_weeks(state, player, "rent-immunity", week)
        _two_votes(ctx, player, week)
        words = (f"the Admin Bank Account ({state.money(pot)}), no rent and two votes in week {week}, "
                 "and eliminating or taking over a player")
        _ask(ctx, player, ticket, matched, two_votes=False, silence="nothing", week=week)
    elif matched == 6:
        _two_votes(ctx, player, week)
        words = f"two votes in week {week}, and eliminating or taking over a player"
        _ask(ctx, player, ticket, matched, two_votes=False, silence="nothing", week=week)
    elif matched == 5:
        words = f"eliminating or taking over a player, or two votes in week {week}"
        _ask(ctx, player, ticket, matched, two_votes=True, silence=str(p["silent_five"]), week=week)
    elif matched == 4:
        grant(state, player, "rent-immunity", state.update + 1)
        words = "no rent on the next roll"
    else:
        return ""
    ctx.emit("lottery", f"{player}'s lottery ticket #{ticket} has {matched} numbers right: {words} (XVIII.4).",
             player=player, rule="XVIII.4", data={"ticket": ticket, "matched": matched})
    return words


def _ask(ctx: UpdateContext, player: str, ticket: int, matched: int, *, two_votes: bool, silence: str,
         week: int) -> None:
    inter = ask(ctx, kind="prize", module="lottery", parties=[player], silence=silence, proposer=None,
                payload={"winner": player, "ticket": ticket, "matched": matched, "two_votes": two_votes,
                         "week": week})
    options = "ELIMINATE <player> or TAKE OVER <player>" + (f", or ANSWER {inter.id} TWO VOTES" if two_votes else "")
    ctx.emit("lottery", None, player=player, rule="XVIII.5",
             private=f"Your lottery prize #{inter.id}: send {options} by update {inter.deadline} "
                     f"(silence: {silence}).")


_ANSWER = re.compile(r"^(eliminate|take\s+over)\s+(\S+)$|^(two\s+votes|nothing)$", re.IGNORECASE)


def check_choice(ctx: UpdateContext, inter: Interaction, player: Player, value: Any) -> str:
    """A winner's answer as it is kept: "eliminate bob", "take over bob", "two votes", "nothing"."""
    m = _ANSWER.match(" ".join(str(value).split()).rstrip(".!"))
    two = bool(inter.payload.get("two_votes"))
    valid = "ELIMINATE <player>, TAKE OVER <player>" + (", TWO VOTES" if two else "")
    if not m:
        raise IllegalAction(f"{value!r} is not a lottery prize; answer #{inter.id} with {valid} (XVIII.4-5)")
    if m.group(3):
        choice = " ".join(m.group(3).lower().split())
        if choice == "two votes" and not two:
            raise IllegalAction(f"two votes are yours already with this prize; answer #{inter.id} with {valid}")
        return choice
    verb, target = " ".join(m.group(1).lower().split()), m.group(2)
    other = ctx.state.players.get(target)
    if other is None or not other.active:
        active = ", ".join(sorted(p.name for p in ctx.state.active_players() if p.name != player.name))
        raise IllegalAction(f"there is no player {target!r} to {verb}; players: {active or 'none'}")
    if other.name == player.name:
        raise IllegalAction(f"you may not {verb} yourself (XVIII.5)")
    return f"{verb} {other.name}"


def choose(ctx: UpdateContext, player: Player, cmd: PrizeChoice) -> str:
    """``ELIMINATE bob`` / ``TAKE OVER bob``: the answer to the player's oldest open prize question."""
    state, sealed = InteractionsModule.of(ctx.state), InteractionsModule.private_of(ctx.state)
    mine = [i for i in state.open if i.module == "lottery" and i.kind == "prize" and player.name in i.parties]
    waiting = [i for i in mine if player.name not in i.answers] or mine
    if not waiting:
        raise IllegalAction(f"only a lottery winner with 5, 6 or 7 numbers right may {cmd.verb} a player "
                            "(XVIII.4-5), and you have no such prize waiting")
    inter = waiting[0]
    value = check_choice(ctx, inter, player, f"{cmd.verb} {cmd.target}")
    answer(state, sealed, player.name, inter.id, value)
    return f"{player.name} chose their lottery prize #{inter.id}: {value} (XVIII.5), done at update {inter.deadline}."


def carry_out_choice(ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
    winner = inter.payload["winner"]
    choice = str(answers.get(winner, inter.silence))
    me = ctx.state.players.get(winner)
    if me is None or not me.active:
        return f"{winner} has left the game; the prize lapses"
    if choice == "two votes":
        _two_votes(ctx, winner, int(inter.payload["week"]))
        return f"{winner} took two votes on every proposal of week {inter.payload['week']} (XVIII.4)"
    if choice == "nothing":
        return f"{winner} made no choice; the prize lapses"
    verb, target = choice.rsplit(" ", 1)
    other = ctx.state.players.get(target)
    if other is None or not other.active:
        return f"{target} has left the game already; the prize lapses"
    if verb == "eliminate":
        from admin.library.players import remove_player

        remove_player(ctx, other, f"eliminated by {winner}'s lottery prize (XVIII.5)")
        return f"{winner} eliminated {target} from the game (XVIII.5)"
    squares = [s.number for s in OwnershipModule.of(ctx.state).owned_by(ctx.state, target)]
    paid = OwnershipModule.of(ctx.state).paid
    for number in squares:
        set_owner(ctx.state, number, winner, paid.get(number))
    return (f"{winner} took over {target}: square(s) {', '.join(map(str, squares)) or 'none'} are "
            f"{winner}'s now (XVIII.5)")
