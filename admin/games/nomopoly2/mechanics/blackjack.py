"""Nomopoly II XVI: Blackjack. Landing on a square named "Blackjack" (NAME SQUARE, XIII.4) deals
the player two cards (XIV's deck, XIV.5's limit applies); a player who then holds cards totalling
exactly 21 (face cards 10, an ace 1 or 11, XVI.2) may trade them in for a bonus of 30% of their
money: ``CASH BLACKJACK KS AH``.

Standing rulings (docs/rulings.md): the player chooses which of their
cards make the 21 (``whole_hand``: false), any number of them; the option lasts until the end of
the update after the landing (``cash_updates``: 1, since a landing comes after that update's
actions) and is used up by cashing; the bonus is rounded down (``rounding``) and paid from the
Admin Bank Account (XV.2); with no money (or a debt) there is nothing to take 30% of, so cashing
is refused."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.playingcards import card_name, card_rank
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.syntax import parse_card_arg
from admin.engine.errors import CommandError, IllegalAction
from admin.library.cards import draw_card, hand, take
from admin.games.nomopoly2.mechanics.shared import is_blackjack
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square


def _parse(rest: str, _line: object) -> CashBlackjack:
    words = [w for w in re.split(r"[\s,]+", rest.strip()) if w and w.lower() != "and"]
    if len(words) < 2:
        raise CommandError("write CASH BLACKJACK and the cards that total 21, like CASH BLACKJACK KS AH.")
    return CashBlackjack(tuple(parse_card_arg(w) for w in words))


@command("CASH BLACKJACK <card> <card> ...", keyword="CASH BLACKJACK", parse=_parse, listing=100,
         rules=("XVI.1", "XVI.2"),
         summary="after landing on Blackjack, trade in cards totalling exactly 21 (face "
                 "cards 10, an ace 1 or 11) for 30% more money",
         example="CASH BLACKJACK KS AH")
class CashBlackjack:
    """``CASH BLACKJACK <card> <card> ...`` (XVI.1)."""

    cards: tuple[str, ...]

    def __post_init__(self) -> None:  # read back from a log as a list
        object.__setattr__(self, "cards", tuple(self.cards))


@dataclass
class BlackjackState:
    #: player -> the update they last landed on Blackjack (their option to cash is open)
    landed: dict[str, int] = field(default_factory=dict)


def totals(cards: list[str] | tuple[str, ...], *, ace_low: int = 1, ace_high: int = 11, face: int = 10) -> set[int]:
    """Every total the cards can make, each ace counting ``ace_low`` or ``ace_high`` (XVI.2)."""
    base, aces = 0, 0
    for card in cards:
        rank = card_rank(card)
        if rank == "A":
            aces += 1
        else:
            base += face if rank in ("J", "Q", "K") else int(rank)
    return {base + aces * ace_low + k * (ace_high - ace_low) for k in range(aces + 1)}


class BlackjackModule(Mechanic[BlackjackState, None]):
    name = "blackjack"
    rules = ("XVI.1", "XVI.2")
    stated = {"XVI.1": {"cards_dealt": ("is dealt {} cards",), "bonus_percent": ("a bonus of {}% of the money",)}}
    defaults = {"cards_dealt": 2, "target": 21, "bonus_percent": 30, "rounding": "down",
                "face_value": 10, "ace_low": 1, "ace_high": 11, "cash_updates": 1, "whole_hand": False}
    choices = {"rounding": ("down", "nearest", "up")}
    summary = "Land on the square named Blackjack for two cards; trade in cards totalling 21 for +30% money."
    State = BlackjackState
    requires = ("board", "cards")

    def commands(self) -> Sequence[CommandSpec]:
        return handled((CashBlackjack, cash))

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).landed.pop(player.name, None)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if not is_blackjack(square):
            return
        n = int(ctx.params(self.name)["cards_dealt"])
        for i in range(n):
            draw_card(ctx, player, f"{player.name}/blackjack/{ctx.state.update}/{ctx.landing_order}/{i}",
                      f"landed on Blackjack, square {square.number}")
        self.of(ctx.state).landed[player.name] = ctx.state.update
        ctx.emit("blackjack", f"{player.name} landed on Blackjack (square {square.number}) and was dealt "
                              f"{n} cards; cards totalling 21 may be cashed in for a "
                              f"{ctx.params(self.name)['bonus_percent']}% bonus (XVI.1).",
                 player=player.name, rule="XVI.1")

    def on_update_end(self, ctx: UpdateContext) -> None:
        window = int(ctx.params(self.name)["cash_updates"])
        landed = self.of(ctx.state).landed
        for name in [n for n, u in landed.items() if ctx.state.update >= u + window]:
            del landed[name]

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("blackjack_option", player.name in self.of(state).landed)]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        if player.name not in self.of(state).landed:
            return []
        return [(52, "  You landed on Blackjack: CASH BLACKJACK <cards> trades in cards totalling 21 "
                     "for a bonus, in the next update (XVI.1)")]


def _bonus(money: int, percent: int, rounding: str) -> int:
    whole, rest = divmod(money * percent, 100)
    if rounding == "up" and rest:
        return whole + 1
    if rounding == "nearest" and rest * 2 >= 100:
        return whole + 1
    return whole


def cash(ctx: UpdateContext, player: Player, cmd: CashBlackjack) -> str:
    p = ctx.params(BlackjackModule.name)
    if player.name not in BlackjackModule.of(ctx.state).landed:
        raise IllegalAction("you may cash in 21 only after landing on the square named Blackjack, until "
                            "the end of the next update (XVI.1); you have not landed there since")
    held = hand(ctx.state, player.name)
    short = Counter(cmd.cards) - Counter(held)
    if short:
        raise IllegalAction(f"you do not hold {', '.join(sorted(short.elements()))}; STATUS lists your cards "
                            "(only to you)")
    if p["whole_hand"] and Counter(cmd.cards) != Counter(held):
        raise IllegalAction("every card you hold must be traded in together (XVI.1: the Admin's standing ruling "
                            "whole_hand); STATUS lists your cards (only to you)")
    target = int(p["target"])
    made = totals(cmd.cards, ace_low=int(p["ace_low"]), ace_high=int(p["ace_high"]), face=int(p["face_value"]))
    if target not in made:
        raise IllegalAction(f"{' '.join(cmd.cards)} total {' or '.join(map(str, sorted(made)))}, not exactly "
                            f"{target} (XVI.1; face cards count 10, an ace 1 or 11, XVI.2)")
    if player.money <= 0:
        raise IllegalAction(f"you have {ctx.state.money(player.money)}: there is nothing to take "
                            f"{p['bonus_percent']}% of (XVI.1)")
    bonus = _bonus(player.money, int(p["bonus_percent"]), str(p["rounding"]))
    for card in cmd.cards:
        take(ctx.state, player.name, card)
    del BlackjackModule.of(ctx.state).landed[player.name]
    ctx.transfer(BANK, player.name, bonus, rule="XVI.1", reason="Blackjack: 21 cashed in", kind="prize")
    return (f"{player.name} cashed in Blackjack ({', '.join(card_name(c) for c in cmd.cards)}: 21) for a "
            f"{p['bonus_percent']}% bonus of {ctx.state.money(bonus)}.")
