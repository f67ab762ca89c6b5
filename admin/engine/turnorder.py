"""Turn structures: who takes a turn in an update, and in what order.

- every player once per update, in a random order (Nomopoly II IX.1): :func:`random_order`;
- a fixed order where the turn passes to the left, some turns per update (Timopoly; the first
  Nomopoly's two moves a week): :class:`FixedOrder`, whose pointer lives in a mechanic's state;
- rounds that end on a die (Technopoly: after each round past the tenth, a d20 at or under the
  round number ends the game): :func:`round_ends`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from admin.engine.dice import Dice


def random_order(dice: Dice, players: Sequence[str], label: str = "order") -> list[str]:
    """Every player once, in an order every swap of which is a recorded roll."""
    return dice.shuffle(sorted(players), label)


@dataclass
class FixedOrder:
    """Seats in order; the turn passes to the left (the next seat), skipping players gone."""

    seats: list[str] = field(default_factory=list)
    #: the seat whose turn is next
    next: int = 0
    #: completed rounds (every seat has had its turn once)
    rounds: int = 0

    def seat(self, player: str) -> None:
        """A new player takes the last seat of the table."""
        if player not in self.seats:
            self.seats.append(player)

    def take(self, active: set[str], turns: int = 1) -> list[str]:
        """The next ``turns`` players whose turn it is (a player gone is skipped), advancing."""
        out: list[str] = []
        if not self.seats or not active & set(self.seats):
            return out
        while len(out) < turns:
            player = self.seats[self.next]
            self.next = (self.next + 1) % len(self.seats)
            if self.next == 0:
                self.rounds += 1
            if player in active:
                out.append(player)
        return out


def round_ends(dice: Dice, round_number: int, *, after: int = 10, sides: int = 20,
               modifier: int = 0, label: str = "endgame") -> tuple[bool, int | None]:
    """Technopoly's end: after every round past round ``after``, roll a d``sides``; the game ends
    when the roll (plus ``modifier``, e.g. a Transmitter's +/-10) is at most the round number.
    Returns (ends, the roll) and rolls nothing before then."""
    if round_number <= after:
        return False, None
    roll = dice.roll(f"{label}/round{round_number}", sides)
    return roll + modifier <= round_number, roll
