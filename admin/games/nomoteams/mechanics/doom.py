"""XXXVI: impending doom. The Tornado strikes when the Admin says so (XXXVI.1: ``ruling decide
tornado``): TISSSG kills himself as it approaches (XXXVI.7), every tree is ripped out (XXXVI.2),
the squares the rules do not mention are shuffled (XXXVI.3), every player and every piece on the
board is put on a random square and the Phantom Piece then takes three turns (XXXVI.4, its moves
the Admin's as in XXXIII.3), and time stops: the game is paused until the Admin resumes it
(XXXVI.5). Players vote for their favourite square (``FAVOURITE SQUARE <n>``); when the game ends,
the owner of the square with more votes than any other is awarded $150 (XXXVI.6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.rulings import RULINGS
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.shared import check_square, colour_of, mentioned_squares, owner_of, set_colour

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player, Square
    from admin.engine.events import Ruling
    from admin.engine.module import CommandSpec, RulingHandler


def _parse_favourite(rest: str, line: object) -> Favourite:
    words = rest.split(None, 1)
    if not words or words[0].upper() != "SQUARE" or len(words) < 2:
        raise CommandError(f"say FAVOURITE SQUARE <n>, like FAVOURITE SQUARE 12; found FAVOURITE {rest.strip()!r}.")
    return Favourite(parse_square(words[1]))


@command("FAVOURITE SQUARE <square:n>", parse=_parse_favourite, cmd="teams-favourite", listing=170,
         summary="vote for your favourite square name: at the end of the game the owner of the "
                 "square with the most votes is awarded $150", example="FAVOURITE SQUARE 12",
         rules=("XXXVI.6",))
class Favourite:
    """``FAVOURITE SQUARE <n>`` (XXXVI.6)."""

    square: int


@dataclass
class DoomState:
    #: the update the Tornado struck in (0: not yet)
    tornado: int = 0
    #: player -> the square she votes her favourite (XXXVI.6; the latest vote counts)
    favourites: dict[str, int] = field(default_factory=dict)
    #: the favourite square's prize, once paid (XXXVI.6): "square: owner"
    prize: str = ""


class DoomModule(Mechanic[DoomState, None]):
    name = "teams-doom"
    rules = ("XXXVI.2", "XXXVI.3", "XXXVI.4", "XXXVI.5", "XXXVI.6", "XXXVI.7")
    stated = {"XXXVI.4": {"phantom_turns": ("The Phantom Piece then takes {} turns",)}}
    defaults = {"favourite_prize": 150, "phantom_turns": 3}
    minimums = {"favourite_prize": 0, "phantom_turns": 0}
    summary = "The Tornado the Admin sends (trees uprooted, squares shuffled, everyone scattered, time stops); " \
              "the favourite square's $150."
    State = DoomState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Favourite, favourite))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"tornado": _tornado, "end-game": _end_game}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        self.of(state).favourites.pop(player.name, None)

    def on_square_added(self, state: GameState, square: Square) -> None:
        if square.destroyed:  # a vote for a destroyed square lapses
            ds = self.of(state)
            ds.favourites = {p: n for p, n in ds.favourites.items() if n != square.number}

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        """XVIII.2: the highest square takes a destroyed one's number; its votes go with it."""
        ds = self.of(state)
        ds.favourites = {p: new if n == old else n for p, n in ds.favourites.items()}

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("favourite_square", self.of(state).favourites.get(player.name), label="Favourite square",
                     order=49, kind="text")]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        votes = sum(1 for n in self.of(state).favourites.values() if n == square.number)
        return [Fact("favourite_votes", votes, order=60)]

    def panels(self, state: GameState) -> list[Panel]:
        ds = self.of(state)
        tally = votes(state)
        rows = tuple((n, square.name or "(unnamed)", owner_of(state, n) or "nobody", v)
                     for n, v in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))
                     if (square := state.square(n)) is not None)
        struck = f"The Tornado struck in update {ds.tornado}." if ds.tornado else "The Tornado has not struck yet."
        return [Panel("doom", "Impending Doom",
                      "A Tornado may strike soon, probably by the end of May (XXXVI). When it hits, every tree is "
                      "ripped out, the squares the rules do not mention are shuffled, every player and piece is put "
                      "on a random square, the Phantom Piece takes three turns, and time stops. " + struck +
                      " Vote for your favourite square (FAVOURITE SQUARE 12): at the end of the game the owner of "
                      "the square with more votes than any other is awarded $150.",
                      (Table("Favourite squares", ("Square", "Name", "Owner", "Votes"), rows),), order=26)]


def votes(state: GameState) -> dict[int, int]:
    tally: dict[int, int] = {}
    for name, number in DoomModule.of(state).favourites.items():
        if name in state.players and state.players[name].active:
            tally[number] = tally.get(number, 0) + 1
    return tally


def favourite(ctx: UpdateContext, player: Player, cmd: Favourite) -> str:
    square = check_square(ctx, cmd.square)
    if not square.name:
        raise IllegalAction(f"square {cmd.square} has no name yet; vote for a named square's name (XXXVI.6)")
    DoomModule.of(ctx.state).favourites[player.name] = cmd.square
    return f"{player.name} votes square {cmd.square}, {square.name}, as the favourite square name (XXXVI.6)."


def _end_game(ctx: UpdateContext, r: Ruling) -> str:
    """XXXVI.6 then the core's end of the game: the owner of the square with more votes than any
    other is awarded $150 (money from nowhere, IV.3)."""
    ds = DoomModule.of(ctx.state)
    tally = votes(ctx.state)
    top = max(tally.values(), default=0)
    leaders = [n for n, v in tally.items() if v == top]
    if top and len(leaders) == 1 and not ds.prize:
        number = leaders[0]
        owner = owner_of(ctx.state, number)
        prize = int(ctx.params(DoomModule.name)["favourite_prize"])
        payable = owner is not None and (owner in ctx.state.players and ctx.state.players[owner].active
                                         or owner in api.PSEUDO.of(ctx.state).money)
        if payable:
            assert owner is not None  # payable says so
            ctx.transfer(BANK, owner, prize, rule="XXXVI.6",
                         reason=f"the favourite square, {number}")
            ds.prize = f"{number}: {owner}"
        ctx.emit("favourite", f"Square {number} has the most votes for favourite square ({top}): "
                              + (f"{owner} is awarded {ctx.state.money(prize)} (XXXVI.6)." if payable else
                                 "nobody who can be paid owns it (XXXVI.6)."), rule="XXXVI.6",
                 data={"square": number, "votes": top})
    elif top:
        ctx.emit("favourite", f"No square has more votes for favourite square than every other "
                              f"({', '.join(map(str, sorted(leaders)))} have {top} each): no prize (XXXVI.6).",
                 rule="XXXVI.6")
    return RULINGS["end-game"](ctx, r)


def _tornado(ctx: UpdateContext, r: Ruling) -> str:
    """XXXVI.1's Tornado strikes, when the Admin says so."""
    from admin.games.nomoteams.mechanics.pseudo import PIECE_RULES

    ds, state = DoomModule.of(ctx.state), ctx.state
    if ds.tornado:
        raise RuleError(f"the Tornado struck already, in update {ds.tornado}")
    ds.tornado = state.update
    pieces = api.PSEUDO.of(state).pieces
    # XXXVI.7: as it approaches, TISSSG removes himself
    for piece in pieces.values():
        if piece.kind == "tisssg" and not piece.gone:
            piece.gone = True
            ctx.emit("tornado", f"As the Tornado approaches, {piece.name} chews off his own hand and beats himself "
                                "to death with it: he is out of the game (XXXVI.7).", rule="XXXVI.7")
    # XXXVI.2: every tree is ripped out
    wetha = api.WETHA.get(state)
    if wetha is not None and wetha.trees:
        gone, wetha.trees = wetha.trees, []
        ctx.emit("tornado", f"The Tornado ripped out every tree (squares {', '.join(map(str, gone))}) (XXXVI.2).",
                 rule="XXXVI.2")
    shuffle_squares(ctx)
    # XXXVI.4: every player and every piece on the board to a random square
    live = [s.number for s in state.live_squares()]
    placed = []
    for p in sorted(state.active_players(), key=lambda p: p.name):
        p.square = live[ctx.dice.roll(f"tornado/place/{p.name}", len(live)) - 1]
        placed.append(f"{p.name} {p.square}")
    for piece in pieces.values():
        if piece.kind in PIECE_RULES and not piece.gone:
            piece.square = live[ctx.dice.roll(f"tornado/place/{piece.name}", len(live)) - 1]
            placed.append(f"{piece.name} {piece.square}")
    ctx.emit("tornado", f"The Tornado put everyone on a random square: {', '.join(placed) or 'nobody'} (XXXVI.4).",
             rule="XXXVI.4", data={"placed": placed})
    turns = int(ctx.params(DoomModule.name)["phantom_turns"])
    for piece in pieces.values():
        if piece.kind == "phantom" and not piece.gone and turns:
            ctx.emit("admin", f"The Tornado: {piece.name} now takes {turns} turns, everyone suffering each move's "
                              f"consequences (XXXVI.4, XXXIII.3): move it {turns} times, each with nomopoly ruling "
                              f"decide piece name={piece.name} square=N, and carry out the colour's effect "
                              "(ruling adjust).", rule="XXXVI.4")
    # XXXVI.5: time stops
    state.paused = True
    ctx.emit("tornado", "Time as we know it stops: the game is paused until the Admin resumes it (XXXVI.5).",
             rule="XXXVI.5")
    ctx.emit("admin", "Time has stopped after the Tornado (XXXVI.5): the game stays paused, perhaps for the summer, "
                      "perhaps forever; resume it with nomopoly ruling unpause --reason ...", rule="XXXVI.5")
    return f"The Tornado struck (XXXVI.1): {r.note}"


def shuffle_squares(ctx: UpdateContext) -> None:
    """XXXVI.3: the squares no rule mentions, directly or indirectly, trade places at random: each
    one's name, owner, colour, renaming count and favourite votes move together to its new number
    (what other sections keep by number stays: a standing ruling)."""
    from admin.games.nomoteams.mechanics.ownership.mechanic import set_owner

    state = ctx.state
    anchored = mentioned_squares(state)
    live = {s.number: s for s in state.live_squares() if s.number not in anchored}
    loose = list(live)
    if len(loose) < 2:
        return
    order = ctx.dice.shuffle(loose, "tornado/shuffle")
    renamed = api.OWNERSHIP.of(state).renamed
    before = {n: (live[n].name, owner_of(state, n), colour_of(state, n), renamed.get(n)) for n in loose}
    for old, new in zip(loose, order):
        name, owner, colour, times = before[old]
        live[new].name = name
        set_owner(state, new, owner)
        set_colour(state, new, colour)
        if times:
            renamed[new] = times
        else:
            renamed.pop(new, None)
    ds, mapping = DoomModule.of(state), dict(zip(loose, order))
    ds.favourites = {p: mapping.get(n, n) for p, n in ds.favourites.items()}  # a vote is for a square's name
    moved = [f"{old}->{new}" for old, new in zip(loose, order) if old != new]
    ctx.emit("tornado", f"The Tornado shuffled the squares no rule mentions: {', '.join(moved) or 'none moved'} "
                        "(XXXVI.3).", rule="XXXVI.3", data={"moves": dict(zip(loose, order))})
