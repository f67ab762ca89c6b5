"""Nomopoly II's Joker (the Skunk on the House of Cards, XIX.3; bought at a Casino, XXXIII.5): a
card that may stand for any valid card, fixed once its holder declares which.

How it is kept: a hand (cards.py) is a list of real cards (``"QH"``), which every section reads
(rent, the lottery, Blackjack, the House of Cards ...). An undeclared Joker is therefore not in
the hand: this module counts each player's undeclared Jokers (private). ``DECLARE JOKER AS QH``
turns one into the queen of hearts, which joins the hand for good: from then on it *is* that
card for everything that reads a hand, and can never be changed (it is an ordinary card now).

Standing rulings (docs/rulings.md): an undeclared Joker is not one of
the 12 cards of XIV.5, and a declared Joker joins the hand even past 12 (receiving or declaring a
Joker is not drawing a card); an undeclared Joker cannot be placed, buried, traded or traded in.
Other sections give Jokers with :func:`give_joker` (they list "jokers" in their ``requires``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.playingcards import card_name
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.syntax import parse_card_arg
from admin.engine.errors import CommandError, IllegalAction
from admin.library.cards import give
from admin.engine.model import Player
from admin.games.nomopoly2.api import GivesJokers

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState


def _parse(rest: str, _line: object) -> DeclareJoker:
    words = rest.split()
    if words and words[0].upper() == "AS":
        words = words[1:]
    if len(words) != 1:
        raise CommandError("write DECLARE JOKER AS <card>, like DECLARE JOKER AS QH.")
    return DeclareJoker(parse_card_arg(words[0]))


@command("DECLARE JOKER AS <card>", keyword="DECLARE JOKER", parse=_parse, private=True, listing=45, rules=("XIX.3",),
         summary="turn a Joker you hold into any card, for good (only you are told)", example="DECLARE JOKER AS QH")
class DeclareJoker:
    """``DECLARE JOKER AS <card>`` (XIX.3)."""

    card: str


@dataclass
class JokersPrivate:
    #: player -> how many undeclared Jokers they hold
    held: dict[str, int] = field(default_factory=dict)
    #: every declaration so far: [player, card, update]
    declared: list[list[str | int]] = field(default_factory=list)


class JokersModule(Mechanic[None, JokersPrivate], GivesJokers):
    name = "jokers"
    rules = ()
    summary = "Jokers: a card its holder declares to be any card, once and for good."
    Private = JokersPrivate
    requires = ("cards",)

    def give_joker(self, ctx: UpdateContext, player: str, rule: str) -> None:
        give_joker(ctx, player, rule)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((DeclareJoker, declare))

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.private_of(state).held.pop(player.name, None)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.on_player_removed(ctx.state, player)  # a reset loses the hand, Jokers with it

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "jokers":
            return False
        held = self.private_of(state).held
        if int(value or 0) > 0:
            held[player.name] = int(value)
        else:
            held.pop(player.name, None)
        return True

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("jokers", jokers_of(state, player.name))]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        n = jokers_of(state, player.name)
        return [(51, f"  Undeclared Jokers (only you see them): {n}; DECLARE JOKER AS <card> to use one")] if n else []

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        n = jokers_of(state, player.name)
        return [(41, f"; jokers: {n}")] if n else []


def jokers_of(state: GameState, player: str) -> int:
    """How many undeclared Jokers ``player`` holds (private)."""
    if not state.enabled(JokersModule.name):
        return 0
    return int(JokersModule.private_of(state).held.get(player, 0))


def give_joker(ctx: UpdateContext, player: str, rule: str) -> None:
    """Give ``player`` an undeclared Joker (XIX.3: the Skunk on the House of Cards; XXXIII.5: one
    bought at a Casino). Told to the player only."""
    held = JokersModule.private_of(ctx.state).held
    held[player] = held.get(player, 0) + 1
    ctx.emit("card", f"{player} received a Joker.", player=player, rule=rule,
             private="You received a Joker: DECLARE JOKER AS <card> makes it any card you choose, "
                     "for good.")


def declare(ctx: UpdateContext, player: Player, cmd: DeclareJoker) -> str:
    priv = JokersModule.private_of(ctx.state)
    have = priv.held.get(player.name, 0)
    if have < 1:
        raise IllegalAction("you hold no undeclared Joker; a Joker comes from the Skunk on the House "
                            "of Cards (XIX.3) or a Casino (XXXIII.5)")
    if have == 1:
        del priv.held[player.name]
    else:
        priv.held[player.name] = have - 1
    give(ctx.state, player.name, cmd.card)
    priv.declared.append([player.name, cmd.card, ctx.state.update])
    return (f"You declared a Joker to be the {card_name(cmd.card)} ({cmd.card}); it is that card now, "
            "for good (XIX.3).")
