"""What a rule written in the controlled English means: a typed record of its trigger, its
conditions and its effects, and the game's words it was read with.

Every number in a rule is bounded here (an amount of money, of health, of squares, a dice total),
so a rule a player writes can never ask for more work or money than these bounds allow."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

#: the largest amount of money, health or squares a rule may name: any rule within it keeps the
#: work of an update bounded (a rule runs once per trigger, and a trigger is a landing, a pass ...)
MAX_AMOUNT = 1_000_000
#: the most squares a rule may move a player by, or the highest square number it may name
MAX_SQUARE = 10_000
#: the largest dice total a rule may name
MAX_TOTAL = 1_000

TriggerKind = Literal["lands", "passes", "lands_or_passes", "doubles", "total", "pays_rent", "buys",
                      "draws", "update_start", "update_end", "week_start", "week_end"]
SquareKind = Literal["number", "lowest", "highest", "any", "owned_by_other", "owned_by_self", "unowned",
                     "end"]
Quantity = Literal["money", "health", "squares", "cards", "number", "bank"]
Op = Literal["<", "<=", ">", ">=", "=="]
EffectKind = Literal["money", "health", "move_to", "move_by", "draw", "lose_turn"]
Party = Literal["bank", "owner", "each_other", "none"]
Who = Literal["player", "every_player", "every_other_player"]


@dataclass(frozen=True)
class SquareRef:
    """A square a rule names: ``square 10``, ``the lowest numbered square``, ``a square owned by
    another player``, ``the end of the board`` ..."""

    kind: SquareKind
    number: int | None = None


@dataclass(frozen=True)
class Trigger:
    """When the rule runs: a player's landing, pass, roll, rent, purchase or draw, or the start or
    end of every update or week."""

    kind: TriggerKind
    square: SquareRef | None = None
    #: the dice total of a ``total`` trigger
    total: int | None = None


@dataclass(frozen=True)
class Condition:
    """A test the rule's player, square or the Admin Bank Account must pass: ``with less than
    $100``, ``who owns 3 or more squares``, ``if the Admin Bank Account has more than $5000``."""

    quantity: Quantity
    op: Op
    value: int


@dataclass(frozen=True)
class Effect:
    """What happens to the rule's player: money paid or received (``amount`` is what they gain:
    negative when they pay) to or from a party, health gained or lost, a move, a card, a lost turn.
    ``per_square_owned``: the amount is for each square the player owns."""

    kind: EffectKind
    amount: int = 0
    party: Party = "none"
    per_square_owned: bool = False


@dataclass(frozen=True)
class Rule:
    """A rule as the language reads it: who it is for, when it runs, what must hold, what happens."""

    who: Who
    trigger: Trigger
    conditions: tuple[Condition, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Vocabulary:
    """The game's words: how it writes money (``$150``, ``Fn 150``), and what it has to speak of.
    A rule that speaks of what the game lacks (health in a game without health) is not understood,
    and the reason says so."""

    currency: str = "${}"
    health: bool = True
    squares: bool = True
    cards: bool = True

    def money(self, amount: int) -> str:
        return self.currency.format(amount)

    def money_pattern(self) -> str:
        """A regular expression of an amount in the game's currency, the number in group ``n``:
        ``$200`` and ``200 dollars``; ``Fn 200`` for ``Fn {}``."""
        before, _, after = self.currency.partition("{}")
        forms = [re.escape(before.strip()) + r"\s*(?P<n>\d[\d,]*)" + re.escape(after.strip())]
        if before.strip() != "$":
            forms.append(r"\$\s*(?P<n2>\d[\d,]*)")
        return "(?:" + "|".join(forms) + r"|(?P<n3>\d[\d,]*) dollars?)"


@dataclass(frozen=True)
class NotUnderstood:
    """A rule the language cannot read: the words where reading stopped, and what it expected there."""

    unread: str
    expected: str

    def __str__(self) -> str:
        return f"could not read {self.unread!r}: expected {self.expected}"
