"""Nomopoly II XXXI: bingo cards. A card (bought with a pair at the House of Cards, XXIV.2) has 25
numbers in five columns (1-15, 16-30, 31-45, 46-60, 61-75), drawn in secret from the squares on the
board in each column's range; only its holder sees it. A player's landing in a normal turn marks
the square's number on all their cards (not on Springy Shoes, XXIX.3); BINGO <card> <pattern>
trades a card whose marks make the pattern for its prize.

Standing rulings (docs/rulings.md): a column's numbers are drawn from the live
squares in its range, five different ones when there are five or more, else with repeats among
those there are; a column with no square in its range draws five different numbers from the whole
range (the board may grow to them); there is no free centre; a number on a card twice is marked
twice; a normal turn is a turn's move (and what it lands on), not a jump by an item; the
"diagonal" prize is a right to STEAL SQUARE <n> once, at any later time, on any square that can be
owned."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine import hooks
from admin.engine.board import live_numbers
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.syntax import parse_square, quote
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomopoly2.api import BINGO_TURN, CONDITIONS, HOUSE_OF_CARDS, DealsBingoCards
from admin.games.nomopoly2.mechanics import shared
from admin.engine.model import Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square

COLUMNS = "BINGO"
#: pattern -> (the prize in words, the cells (column, row) it needs; None: computed)
PATTERNS = ("centre", "corners", "line", "diagonal", "perimeter", "full")
_ALIASES = {"center": "centre", "centre": "centre", "corners": "corners", "corner": "corners",
            "line": "line", "row": "line", "column": "line", "diagonal": "diagonal",
            "perimeter": "perimeter", "full": "full", "card": "full", "all": "full", "full card": "full",
            "entire card": "full", "four corners": "corners", "all four corners": "corners"}
PRIZES = {"centre": "a warp bubble", "corners": "rent immunity for this update and the next 3",
          "line": "$1500", "diagonal": "the right to steal one square (STEAL SQUARE <n>)",
          "perimeter": "diplomatic immunity for this update and the next 3", "full": "a mask"}


@dataclass
class BingoCard:
    number: int
    #: five columns of five numbers, top to bottom (B, I, N, G, O)
    columns: list[list[int]] = field(default_factory=list)
    #: the numbers marked off so far
    marked: list[int] = field(default_factory=list)


@dataclass
class BingoState:
    #: how many bingo cards each player holds (public; the cards themselves are private)
    held: dict[str, int] = field(default_factory=dict)
    #: the number the next card gets
    next_card: int = 1
    #: player -> squares they may still steal (the diagonal prize)
    steals: dict[str, int] = field(default_factory=dict)


@dataclass
class BingoPrivate:
    cards: dict[str, list[BingoCard]] = field(default_factory=dict)


def parse_bingo(rest: str, _line: object) -> Bingo:
    m = re.match(r"^(?:card\s*)?#?(\d+)\s+(.+)$", rest.strip().rstrip(".!"), re.IGNORECASE)
    pattern = _ALIASES.get(" ".join(m.group(2).lower().split())) if m else None
    if not m or pattern is None:
        raise CommandError(f"{quote('BINGO ' + rest)} is not understood; write BINGO <card> "
                           "CENTRE|CORNERS|LINE|DIAGONAL|PERIMETER|FULL, like BINGO 1 LINE")
    return Bingo(int(m.group(1)), pattern)


@command("BINGO <card> <pattern:CENTRE|CORNERS|LINE|DIAGONAL|PERIMETER|FULL>", parse=parse_bingo, listing=260,
         rules=("XXXI.3",), summary="trade in a bingo card whose marks make the pattern for its prize (a line: "
                                    "$1500 ...)", example="BINGO 1 LINE")
class Bingo:
    """``BINGO <card> CENTRE|CORNERS|LINE|DIAGONAL|PERIMETER|FULL`` (XXXI.3)."""

    card: int
    pattern: str


def _parse_steal(rest: str, _line: object) -> StealSquare:
    return StealSquare(parse_square(rest))


@command("STEAL SQUARE <square>", keyword="STEAL SQUARE", parse=_parse_steal, listing=261, rules=("XXXI.3",),
         summary="with a bingo diagonal's prize, take any square, owned or not", example="STEAL SQUARE 14")
class StealSquare:
    """``STEAL SQUARE <n>``: the diagonal prize (XXXI.3)."""

    square: int


class BingoModule(Mechanic[BingoState, BingoPrivate], DealsBingoCards):
    name = "bingo"
    rules = ("XXXI.1", "XXXI.2", "XXXI.3")
    # immunity_updates: "the current update and the next 3"; from_board: numbers come from the
    # squares on the board in each column's range (False: from the whole range, as in a hall)
    defaults = {"line_prize": 1500, "immunity_updates": 3, "from_board": True}
    summary = "Bingo cards from the House of Cards: landings mark their numbers; a pattern wins a prize."
    State = BingoState
    Private = BingoPrivate
    requires = ("house-of-cards", "conditions")

    def new_bingo_card(self, ctx: UpdateContext, player: Player) -> int:
        return new_card(ctx, player)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Bingo, bingo), (StealSquare, steal))

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        BINGO_TURN.of(ctx).add(player.name)

    def on_turn_end(self, ctx: UpdateContext, player: Player, turn: int, wrapped: int) -> None:
        BINGO_TURN.of(ctx).discard(player.name)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if player.name not in (BINGO_TURN.peek(ctx) or ()):
            return  # only a normal turn's landing marks (XXXI.2)
        if not shared.marks_bingo(ctx.state, player.name):
            return  # XXIX.3
        cards = self.private_of(ctx.state).cards.get(player.name, [])
        hits = [c.number for c in cards if square.number in _numbers(c) and square.number not in c.marked]
        for card in cards:
            if card.number in hits:
                card.marked = sorted(card.marked + [square.number])
        if hits:
            ctx.emit("bingo", None, player=player.name, rule="XXXI.2",
                     private=f"You marked {square.number} on bingo card{'s' if len(hits) > 1 else ''} "
                             f"{', '.join(map(str, hits))}.")

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.on_player_removed(ctx.state, player)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.private_of(state).cards.pop(player.name, None)
        self.of(state).steals.pop(player.name, None)
        _sync(state, player.name)

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key == "bingo_cards":  # a list of {columns: [[...] x5], marked: [...]}
            bs = self.of(state)
            cards = []
            for spec in value or []:
                cards.append(BingoCard(bs.next_card, [list(map(int, c)) for c in spec["columns"]],
                                       sorted(map(int, spec.get("marked", [])))))
                bs.next_card += 1
            self.private_of(state).cards[player.name] = cards
            _sync(state, player.name)
        elif key == "steals":
            self.of(state).steals[player.name] = int(value)
        else:
            return False
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("bingo_cards", self.of(state).held.get(player.name, 0), label="Bingo cards", order=66)]

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("bingo", [{"card": c.number, "columns": c.columns, "marked": c.marked}
                               for c in self.private_of(state).cards.get(player.name, [])])]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        cards = self.private_of(state).cards.get(player.name, [])
        listed = ", ".join(f"{c.number} ({len(c.marked)} marked)" for c in cards)
        return [(66, f"; bingo cards: {listed}")] if cards else []

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        lines = []
        for card in self.private_of(state).cards.get(player.name, []):
            lines.append((70, f"  Bingo card {card.number} (only you see it; * marked):"))
            lines.append((70, "    " + " ".join(f"{c:>3} " for c in COLUMNS)))
            for row in range(5):
                lines.append((70, "    " + " ".join(
                    f"{card.columns[col][row]:>3}{'*' if card.columns[col][row] in card.marked else ' '}"
                    for col in range(5))))
        steals = self.of(state).steals.get(player.name, 0)
        if steals:
            lines.append((71, f"  You may steal {steals} square{'s' if steals > 1 else ''} (STEAL SQUARE <n>)"))
        return lines


def _numbers(card: BingoCard) -> set[int]:
    return {n for column in card.columns for n in column}


def _sync(state: GameState, name: str) -> None:
    held = len(BingoModule.private_of(state).cards.get(name, []))
    bs = BingoModule.of(state)
    if held:
        bs.held[name] = held
    else:
        bs.held.pop(name, None)


def draw_column(ctx: UpdateContext, label: str, pool: list[int], low: int, high: int, player: str) -> list[int]:
    """Five numbers for one column: different ones from ``pool`` if it has five, else with repeats
    from it; from the whole range ``low``-``high`` if it is empty (XXXI.1). Drawn in secret."""
    if not pool:
        pool = list(range(low, high + 1))
    repeats = len(pool) < 5
    left, out = list(pool), []
    for k in range(5):
        choice = left if not repeats else pool
        i = ctx.dice.roll_hidden(f"{label}/{k}", len(choice), player) - 1
        out.append(choice[i])
        if not repeats:
            left.pop(i)
    return out


def new_card(ctx: UpdateContext, player: Player) -> int:
    """Give ``player`` a new bingo card (XXXI.1); returns its number."""
    bs = BingoModule.of(ctx.state)
    number = bs.next_card
    bs.next_card += 1
    live = live_numbers(ctx.state) if ctx.params("bingo")["from_board"] else []
    columns = []
    for c in range(5):
        low, high = 15 * c + 1, 15 * c + 15
        pool = [n for n in live if low <= n <= high] if ctx.params("bingo")["from_board"] else []
        columns.append(draw_column(ctx, f"bingo/{number}/{COLUMNS[c]}", pool, low, high, player.name))
    BingoModule.private_of(ctx.state).cards.setdefault(player.name, []).append(BingoCard(number, columns))
    _sync(ctx.state, player.name)
    ctx.emit("bingo", None, player=player.name, rule="XXXI.1",
             private=f"Your bingo card {number}: " + "; ".join(
                 f"{COLUMNS[c]} {' '.join(map(str, columns[c]))}" for c in range(5)) + ".")
    return number


def _cells(pattern: str) -> list[list[tuple[int, int]]]:
    """The sets of cells (column, row), any one of which makes ``pattern``."""
    every = [(c, r) for c in range(5) for r in range(5)]
    if pattern == "centre":
        return [[(2, 2)]]
    if pattern == "corners":
        return [[(0, 0), (4, 0), (0, 4), (4, 4)]]
    if pattern == "line":
        return [[(c, r) for c in range(5)] for r in range(5)] + [[(c, r) for r in range(5)] for c in range(5)]
    if pattern == "diagonal":
        return [[(i, i) for i in range(5)], [(i, 4 - i) for i in range(5)]]
    if pattern == "perimeter":
        return [[(c, r) for c, r in every if c in (0, 4) or r in (0, 4)]]
    return [every]


def makes(card: BingoCard, pattern: str) -> bool:
    marked = set(card.marked)
    return any(all(card.columns[c][r] in marked for c, r in cells) for cells in _cells(pattern))


def bingo(ctx: UpdateContext, player: Player, cmd: Bingo) -> str:
    cards = BingoModule.private_of(ctx.state).cards.get(player.name, [])
    card = next((c for c in cards if c.number == cmd.card), None)
    if card is None:
        mine = ", ".join(str(c.number) for c in cards) or "none"
        raise IllegalAction(f"you hold no bingo card {cmd.card}; your bingo cards: {mine}")
    if not makes(card, cmd.pattern):
        shown = [p for p in PATTERNS if makes(card, p)]
        raise IllegalAction(f"bingo card {card.number}'s marks do not make the {cmd.pattern} (XXXI.3); "
                            + (f"they make: {', '.join(shown)}" if shown else "they make no pattern yet"))
    state, p = ctx.state, ctx.params("bingo")
    if cmd.pattern in ("corners", "perimeter") and not CONDITIONS.on(state):
        raise IllegalAction("conditions are not kept in this game; the Admin must enable the conditions module")
    cards.remove(card)
    _sync(state, player.name)
    last = state.update + int(p["immunity_updates"])
    if cmd.pattern == "centre" or cmd.pattern == "full":
        HOUSE_OF_CARDS.of(state).items.give(player.name, "warp bubble" if cmd.pattern == "centre" else "mask")
    elif cmd.pattern == "corners":
        from admin.games.nomopoly2.mechanics.conditions import grant

        grant(state, player.name, "rent-immunity", last)
    elif cmd.pattern == "perimeter":
        from admin.games.nomopoly2.mechanics.conditions import grant

        grant(state, player.name, "diplomatic-immunity", last)
    elif cmd.pattern == "line":
        ctx.transfer(BANK, player.name, int(p["line_prize"]), rule="XXXI.3",
                     reason=f"a line on bingo card {card.number}", kind="prize")
    else:
        bs = BingoModule.of(state)
        bs.steals[player.name] = bs.steals.get(player.name, 0) + 1
    prize = PRIZES[cmd.pattern].replace("$1500", state.money(int(p["line_prize"])))
    if cmd.pattern in ("corners", "perimeter"):
        prize = prize.replace("next 3", f"next {p['immunity_updates']} (to update {last})")
    return f"{player.name} called BINGO with the {cmd.pattern} of bingo card {card.number} and won {prize}."


def steal(ctx: UpdateContext, player: Player, cmd: StealSquare) -> str:
    from admin.library.ownership import owner_of, set_owner

    bs = BingoModule.of(ctx.state)
    if not bs.steals.get(player.name):
        raise IllegalAction("you have no square to steal; a bingo card's diagonal wins one (BINGO <card> "
                            "DIAGONAL, XXXI.3)")
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    owner = owner_of(ctx.state, cmd.square)
    if owner == player.name:
        raise IllegalAction(f"square {cmd.square} is yours already")
    if not hooks.call(ctx).can_own(ctx.state, square):
        raise IllegalAction(f"square {cmd.square} may not be owned by anyone, so it may not be stolen")
    bs.steals[player.name] -= 1
    if not bs.steals[player.name]:
        del bs.steals[player.name]
    set_owner(ctx.state, cmd.square, player.name, paid=0)
    return (f"{player.name} stole square {cmd.square}" + (f" from {owner}" if owner else "")
            + " with a bingo card's diagonal prize (XXXI.3).")
