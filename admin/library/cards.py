"""XIV: cards on doubles, placing cards on squares, card rent, burying.

Hands are private (``state/private/cards.yaml``); the public state keeps how many cards each
player holds, and the hands themselves only where the game makes them public (``public_hands``).
Buried cards pile up all game long, so they are a table of their own (one line each)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Sequence

from admin.engine import hooks
from admin.engine.playingcards import DECK, card_name, card_value, parse_card
from admin.engine.declare import As, command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_card_arg
from admin.engine.errors import CommandError, IllegalAction
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square


def _parse_place(rest: str, line: object) -> Place:
    import re

    from admin.engine.syntax import parse_square

    m = re.match(r"^(\S+)\s+on\s+(.+)$", rest, re.IGNORECASE)
    if not m:
        words = rest.split()
        if words and parse_card(words[0]) is None:
            parse_card_arg(words[0])
        raise CommandError("PLACE needs a card and a square: PLACE <card> ON <square>, "
                           "like PLACE AS ON 14.")
    return Place(parse_card_arg(m.group(1)), parse_square(m.group(2)))


@command("PLACE <card> ON <square>", parse=_parse_place, listing=30,
         summary="put a card from your hand on a square, where it changes the rent",
         example="PLACE KD ON 14", rules=("XIV.3",))
class Place:
    """``PLACE <card> ON <square>``: put a held card on a square (XIV.3)."""

    card: str
    square: int


@command("BURY <card>", hint="BURY needs a card, like BURY AS.", private=True, listing=40,
         summary="bury a card from your hand under the square you stand on (only you are told)",
         example="BURY 7S", rules=("XIV.6",))
class Bury:
    """``BURY <card>``: bury a held card under the player's current square (XIV.6)."""

    #: the rest of the line is the card ('"AS KH" is not a card')
    card: Annotated[str, As(parse_card_arg, rest=True)]


@dataclass(frozen=True)
class BuriedCard:
    """A card buried under a square (XIV.5-6). Immutable: the engine copies the state at each
    update, and by the end of a long game there are tens of thousands of these to not copy."""

    update: int
    square: int
    player: str
    card: str

    def __deepcopy__(self, memo: dict[int, object]) -> "BuriedCard":
        return self


@dataclass
class CardsState:
    #: how many cards each player holds (public)
    held: dict[str, int] = field(default_factory=dict)
    #: each player's hand, only where hands are public (``public_hands``)
    shown: dict[str, list[str]] = field(default_factory=dict)
    #: square number -> the card placed face up on it (XIV.3)
    placed: dict[int, str] = field(default_factory=dict)


@dataclass
class CardsPrivate:
    hands: dict[str, list[str]] = field(default_factory=dict)
    #: stored as a table, one line per card (``state/private/cards.buried.tsv``)
    buried: list[BuriedCard] = field(default_factory=list, metadata={"table": True})


class CardsModule(Mechanic[CardsState, CardsPrivate]):
    name = "cards"
    rules = ("XIV.1", "XIV.2", "XIV.3", "XIV.4", "XIV.5", "XIV.6")
    # card_rent: "instead" of the 3 × n rent, or "add" to it: XIV.4 does not say (a standing ruling)
    defaults = {"max_cards": 12, "ace_value": 11, "face_value": 10, "card_rent": "instead",
                "public_hands": False}
    choices = {"card_rent": ("instead", "add")}
    stated = {"XIV.5": {"max_cards": ("above {} cards",)}}
    summary = "A card on doubles; place cards on squares for card rent; more than 12 and it is buried."
    State = CardsState
    Private = CardsPrivate

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Place, place), (Bury, bury))

    def on_player_added(self, state: GameState, player: Player) -> None:
        self.private_of(state).hands.setdefault(player.name, [])
        _sync(state, player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.private_of(state).hands[player.name] = []
        _sync(state, player.name)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.on_player_removed(ctx.state, player)

    def on_square_added(self, state: GameState, square: Square) -> None:
        self.of(state).placed.pop(square.number, None)

    def on_update_end(self, ctx: UpdateContext) -> None:
        for name in sorted(self.private_of(ctx.state).hands):  # a ruling may change public_hands
            _sync(ctx.state, name)

    def on_doubles(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        draw_card(ctx, player, f"{player.name}/doubles/{turn}", "rolled doubles")

    def adjust_rent(self, ctx: UpdateContext, square: Square, rent: int) -> int:
        card = self.of(ctx.state).placed.get(square.number)
        if card is None:
            return rent
        p = ctx.params("cards")
        card_rent = square.number * card_value(card, ace=int(p["ace_value"]), face=int(p["face_value"]))
        return rent + card_rent if p["card_rent"] == "add" else card_rent

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        facts = [Fact("cards_held", self.of(state).held.get(player.name, 0), label="Cards held",
                      column="Cards", order=40)]
        if state.params(self.name).get("public_hands", self.defaults["public_hands"]):
            shown = self.of(state).shown.get(player.name)
            if shown is None and self.name in state.private.mods:  # the admin's full state
                shown = self.private_of(state).hands.get(player.name, [])
            facts.append(Fact("cards", list(shown or []), label="Cards in hand", order=90, kind="hand"))
        return facts

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        p = self.private_of(state)
        return [Fact("hand", list(p.hands.get(player.name, []))),
                Fact("buried", [{"card": b.card, "square": b.square, "update": b.update}
                                for b in p.buried if b.player == player.name])]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "hand":
            return False
        set_hand(state, player.name, [str(c).upper() for c in value or []])
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "card":
            return False
        place_card(state, square.number, None if value is None else str(value).upper())
        return True

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("card", self.of(state).placed.get(square.number), column="Card", order=20,
                     kind="text")]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        card = self.of(state).placed.get(square.number)
        if card is None:
            return None
        return SquareLook(notes=((20, f"the {card_name(card)} placed on it"),),
                          marker=(card[:-1] + _SUITS.get(card[-1], card[-1]), card[-1] in ("H", "D")))

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        hand = self.private_of(state).hands.get(player.name, [])
        lines = [(50, "  Your cards (only you see them): "
                      + (", ".join(f"{c} ({card_name(c)})" for c in hand) or "none"))]
        buried = buried_by_player(state).get(player.name, [])
        if buried:
            lines.append((60, f"  Cards you buried (only you see them): {', '.join(buried)}"))
        return lines

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        hand = self.private_of(state).hands.get(player.name, [])
        return [(40, f"; cards: {', '.join(hand) or 'none'}")]


_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def buried_by_player(state: GameState) -> dict[str, list[str]]:
    """Each player's buried cards as their results list them ("QS on square 3"). The pile grows
    all game long (tens of thousands of cards), so the index is made once and kept with it until
    a card is added (cards are only ever added to it)."""
    buried = CardsModule.private_of(state).buried
    cached = _INDEX.get(id(buried))
    if cached is None or cached[0] != len(buried) or cached[1] is not buried:
        index: dict[str, list[str]] = {}
        for b in buried:
            index.setdefault(b.player, []).append(f"{b.card} on square {b.square}")
        cached = (len(buried), buried, index)
        _INDEX.clear()  # one state's pile at a time
        _INDEX[id(buried)] = cached
    return cached[2]


_INDEX: dict[int, tuple[int, list[BuriedCard], dict[str, list[str]]]] = {}


def hand(state: GameState, name: str) -> list[str]:
    """A copy of the cards ``name`` holds (private)."""
    return list(CardsModule.private_of(state).hands.get(name, []))


def _sync(state: GameState, name: str) -> None:
    """The public count (and the public hand, where hands are public) follow the private hand."""
    cards = CardsModule.private_of(state).hands.get(name, [])
    public = CardsModule.of(state)
    public.held[name] = len(cards)
    if state.params("cards").get("public_hands", CardsModule.defaults["public_hands"]):
        public.shown[name] = list(cards)
    else:
        public.shown.pop(name, None)


def give(state: GameState, name: str, card: str) -> None:
    CardsModule.private_of(state).hands.setdefault(name, []).append(card)
    _sync(state, name)


def take(state: GameState, name: str, card: str) -> None:
    cards = CardsModule.private_of(state).hands.setdefault(name, [])
    if card not in cards:
        held = ", ".join(cards) or "no cards"
        raise IllegalAction(f"you do not hold the {card_name(card)} ({card}); you hold {held}")
    cards.remove(card)
    _sync(state, name)


def draw_card(ctx: UpdateContext, player: Player, label: str, reason: str) -> str:
    """Deal ``player`` a random card (a hidden draw); over the limit it is buried (XIV.5)."""
    card = DECK[ctx.dice.roll_hidden(f"card/{label}", len(DECK), player.name) - 1]
    limit = int(ctx.params("cards").get("max_cards", 12))
    private = CardsModule.private_of(ctx.state)
    if len(private.hands.get(player.name, [])) >= limit:
        private.buried.append(BuriedCard(square=player.square, card=card, player=player.name,
                                         update=ctx.state.update))
        ctx.emit("card", f"{player.name} received a card ({reason}).", player=player.name,
                 private=f"You would have received the {card_name(card)} ({card}), but you hold "
                         f"{limit} cards already, so it was buried under square {player.square} (XIV.5).",
                 rule="XIV.5")
    else:
        give(ctx.state, player.name, card)
        ctx.emit("card", f"{player.name} received a card ({reason}).", player=player.name,
                 private=f"You received the {card_name(card)} ({card}).", rule="XIV.2")
    hooks.call(ctx).on_card_drawn(ctx, player, card)
    return card


def place(ctx: UpdateContext, player: Player, cmd: Place) -> str:
    square = ctx.state.square(cmd.square)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board")
    placed = CardsModule.of(ctx.state).placed
    if square.number in placed:
        raise IllegalAction(f"square {square.number} already holds the {card_name(placed[square.number])}; "
                            "a square holds one card at most (XIV.3)")
    take(ctx.state, player.name, cmd.card)
    placed[square.number] = cmd.card
    return f"{player.name} placed the {card_name(cmd.card)} ({cmd.card}) on square {square.number}."


def bury(ctx: UpdateContext, player: Player, cmd: Bury) -> str:
    take(ctx.state, player.name, cmd.card)
    CardsModule.private_of(ctx.state).buried.append(
        BuriedCard(square=player.square, card=cmd.card, player=player.name, update=ctx.state.update))
    # The fact of burying is private (XIV.5): the public result says nothing of which card.
    return f"You buried the {card_name(cmd.card)} ({cmd.card}) under square {player.square}."


def set_hand(state: GameState, name: str, cards: list[str]) -> None:
    """Give ``name`` exactly these cards (a scenario or a test sets up a hand)."""
    CardsModule.private_of(state).hands[name] = list(cards)
    _sync(state, name)


def placed_on(state: GameState, number: int) -> str | None:
    """The card placed face up on square ``number`` (None: none)."""
    return CardsModule.of(state).placed.get(number)


def place_card(state: GameState, number: int, card: str | None) -> None:
    placed = CardsModule.of(state).placed
    if card is None:
        placed.pop(number, None)
    else:
        placed[number] = card


def buried_cards(state: GameState) -> list[BuriedCard]:
    """Every buried card (private)."""
    return CardsModule.private_of(state).buried
