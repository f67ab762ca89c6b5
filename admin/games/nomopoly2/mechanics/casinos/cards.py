"""The arithmetic of Nomopoly II's casino games (XXXIII.2-3), apart from any state: one deck a
round, Blackjack totals and the dealer's draws, Poker hands, the Roulette wheel.

A casino card is drawn from a fresh 52-card deck for each round (one Blackjack or Poker hand), so
no card shows twice in a round (XXXIII.3). Each draw is a hidden roll over the whole deck, labelled
``card/casino/...`` (the hole card must stay secret until the hand ends, and the one label scheme
lets a scenario force casino cards with ``draws:`` as it forces XIV's); a card already out in the
round is drawn again under the next label. These are not XIV's cards: nobody's hand changes."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from admin.engine.playingcards import DECK, RANKS, card_rank

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext

#: the wheel's colours (XXXIII.2): 0 green, even numbers black, odd numbers red
GREEN, BLACK, RED = "green", "black", "red"


def draw(ctx: UpdateContext, used: list[str], label: str) -> str:
    """One card of this round's deck that is not in ``used`` (added to it); a hidden roll."""
    if len(used) >= len(DECK):
        raise ValueError("the round's deck is empty")
    for attempt in range(len(DECK) * 8):
        card = DECK[ctx.dice.roll_hidden(f"card/casino/{label}" + (f"/again{attempt}" if attempt else ""),
                                         len(DECK)) - 1]
        if card not in used:
            used.append(card)
            return card
    card = next(c for c in DECK if c not in used)  # pragma: no cover - astronomically unlikely
    used.append(card)
    return card


# -- Blackjack --------------------------------------------------------------------------------
def blackjack_total(cards: list[str]) -> int:
    """The best total: face cards 10, aces 11 unless that goes over 21, then 1 (XXXIII.2)."""
    total, aces = 0, 0
    for card in cards:
        rank = card_rank(card)
        if rank == "A":
            total, aces = total + 11, aces + 1
        elif rank in ("J", "Q", "K"):
            total += 10
        else:
            total += int(rank)
    while total > 21 and aces:
        total, aces = total - 10, aces - 1
    return total


def dealer_plays(ctx: UpdateContext, dealer: list[str], used: list[str], label: str, stand_on: int = 17) -> list[str]:
    """The dealer draws until his total is ``stand_on`` or more (XXXIII.2); returns his cards."""
    n = 0
    while blackjack_total(dealer) < stand_on:
        dealer.append(draw(ctx, used, f"{label}/dealer{n}"))
        n += 1
    return dealer


def blackjack_outcome(player: list[str], dealer: list[str]) -> str:
    """"bust" (the player went over 21), "win", "tie" or "lose", once the dealer has drawn."""
    mine, his = blackjack_total(player), blackjack_total(dealer)
    if mine > 21:
        return "bust"
    if his > 21 or mine > his:
        return "win"
    return "tie" if mine == his else "lose"


# -- Poker ------------------------------------------------------------------------------------
#: the hands XXXIII.2 pays for, best first, with the parameter naming each one's multiple
POKER_HANDS = (("royal flush", "royal_flush"), ("straight flush", "straight_flush"),
               ("four of a kind", "four_of_a_kind"), ("full house", "full_house"), ("flush", "flush"),
               ("straight", "straight"), ("three of a kind", "three_of_a_kind"), ("two pairs", "two_pairs"),
               ("pair", "pair"))


def _rank_number(card: str) -> int:
    return RANKS.index(card_rank(card)) + 1  # ace 1 ... king 13


def poker_hand(cards: list[str]) -> str | None:
    """The best hand of XXXIII.2's list the five cards make, or None (no winning hand). A
    straight may run ace-low (A 2 3 4 5) or ace-high (10 J Q K A); it does not wrap round."""
    numbers = sorted(_rank_number(c) for c in cards)
    counts = sorted(Counter(numbers).values(), reverse=True)
    flush = len({c[-1] for c in cards}) == 1
    distinct = len(set(numbers)) == 5
    high_ace = numbers == [1, 10, 11, 12, 13]
    straight = distinct and (numbers[-1] - numbers[0] == 4 or high_ace)
    if straight and flush:
        return "royal flush" if high_ace else "straight flush"
    if counts[0] == 4:
        return "four of a kind"
    if counts[:2] == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts[:2] == [2, 2]:
        return "two pairs"
    if counts[0] == 2:
        return "pair"
    return None


# -- Roulette ---------------------------------------------------------------------------------
def colour(number: int) -> str:
    return GREEN if number == 0 else (BLACK if number % 2 == 0 else RED)


def roulette_wins(target: str, number: int) -> bool:
    """Whether a bet on ``target`` ("17", "red", "black", or "1,5,9,22,36") wins when the wheel
    stops on ``number``."""
    if target in (RED, BLACK):
        return colour(number) == target
    return number in {int(n) for n in target.split(",")}


def roulette_kind(target: str) -> str:
    """"colour", "number" or "five": which of XXXIII.2's three bets ``target`` is."""
    if target in (RED, BLACK):
        return "colour"
    return "five" if "," in target else "number"
