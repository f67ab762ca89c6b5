"""X.1, X.6 and XXXIII.1: the pseudoplayers. The Government and The Corporation are entities of
their own: they hold money and squares and act by rule, but they are not players (they never send
or receive mail, take no turns and have no vote). Pieces that move on the board by rule (the
Elephant, the Phantom Piece, the Corporate Player, TISSSG of XXXIII.2-5) are pseudoplayers too:
a later section adds them with :func:`add_piece`.

Their money is this module's state; the core's ``ctx.transfer`` pays to and from them by name
(the ``accounts`` hook). The site shows them on a page of their own, like players but marked as
what they are."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, StandingRow, Table
from admin.engine.capabilities import StandsInStandings
from admin.engine.errors import RuleError
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, market_value, squares_of

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Square
    from admin.engine.events import Ruling
    from admin.engine.module import RulingHandler


@dataclass
class Piece:
    """A pseudoplayer: what it is, and where it stands (0: nowhere on the board)."""

    name: str
    #: government, corporation, or a piece's kind (elephant, phantom, corporate-player, tisssg)
    kind: str
    square: int = 0
    #: a few words for the site ("the Government: owns Public Property, runs auctions")
    what: str = ""
    #: destroyed or trampled (XXXIII.5): kept for the record, no longer acts
    gone: bool = False


@dataclass
class PseudoState:
    #: every pseudoplayer by name, in the order they came into the game
    pieces: dict[str, Piece] = field(default_factory=dict)
    #: the money of each pseudoplayer that holds money (The Government, The Corporation)
    money: dict[str, int] = field(default_factory=dict)


_WHAT = {GOVERNMENT: "pseudoplayer: The Government (X): fines, Public Property, National Parks, auctions",
         CORPORATION: "pseudoplayer: The Corporation: Corporate Colours' rent share, leavers' goods for sale"}


class PseudoModule(Mechanic[PseudoState, None], StandsInStandings):
    name = "teams-pseudo"
    rules = ("X.1", "X.6", "XXXIII.1")
    defaults = {"government_money": 0, "corporation_money": 0, "government_cap": 15000}
    minimums = {"government_cap": 0}
    summary = "The Government and The Corporation: pseudoplayers that hold money and squares."
    State = PseudoState

    def setup(self, state: GameState) -> None:
        super().setup(state)
        ps = self.of(state)
        p = {**self.defaults, **state.params(self.name)}
        for name, key in ((GOVERNMENT, "government_money"), (CORPORATION, "corporation_money")):
            if name not in ps.pieces:
                ps.pieces[name] = Piece(name, "government" if name == GOVERNMENT else "corporation",
                                        what=_WHAT[name])
                ps.money[name] = int(p[key])

    def on_square_renumbered(self, state: GameState, old: int, new: int) -> None:
        for piece in self.of(state).pieces.values():  # XVIII.2: a piece stays on its square
            if piece.square == old:
                piece.square = new

    def account(self, state: GameState, party: str) -> dict[str, int] | None:
        ps = self.of(state)
        for name in (GOVERNMENT, CORPORATION):  # they always hold money, $0 at the least
            ps.money.setdefault(name, 0)
        return ps.money if party in ps.money else None

    def on_update_start(self, ctx: UpdateContext) -> None:
        disperse(ctx)

    def on_update_end(self, ctx: UpdateContext) -> None:
        if not ctx.slot.week_end:
            return
        for piece in self.of(ctx.state).pieces.values():
            if piece.kind in PIECE_RULES and not piece.gone:
                rule = PIECE_RULES[piece.kind]
                ctx.emit("admin", f"{piece.name} acts once a week ({rule}); this rulebook leaves its moves to "
                                  f"you: nomopoly ruling decide piece name={piece.name} square=N --reason ...",
                         rule=rule)

    def rulings(self) -> dict[str, RulingHandler]:
        return {"piece": _piece}

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        here = [p for p in self.of(state).pieces.values() if p.square == square.number and not p.gone]
        if not here:
            return None
        return SquareLook(notes=tuple((60, f"{p.name} (a pseudoplayer) is here") for p in here),
                          flags=tuple((60, p.name[:3].upper(), f"{p.name}, a pseudoplayer") for p in here))

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        here = [p.name for p in self.of(state).pieces.values() if p.square == square.number and not p.gone]
        return [Fact("pseudoplayers", here, order=19, kind="text")] if here else []

    def panels(self, state: GameState) -> list[Panel]:
        ps = self.of(state)
        rows = tuple((p.name, p.what or f"pseudoplayer: {p.kind}",
                      state.money(ps.money[p.name]) if p.name in ps.money else "-",
                      ", ".join(map(str, squares_of(state, p.name))) or "none",
                      p.square or "-", "gone" if p.gone else "in play")
                     for p in ps.pieces.values())
        return [Panel("pseudoplayers", "Pseudoplayers",
                      "The Government, The Corporation and the pieces that move by rule are "
                      "pseudoplayers (XXXIII): they hold money and squares and act by rule, and "
                      "the Admin decides for them where a rule leaves a choice. They are not "
                      "players: they send no mail, take no turns and have no vote.",
                      (Table("Pseudoplayers", ("Name", "What it is", "Money", "Squares owned",
                                               "On square", "State"), rows),), order=20)]

    def standing_rows(self, state: GameState) -> list[StandingRow]:
        """Every pseudoplayer in play in the standings, marked as one: its money (if it holds
        any) plus the market value of its squares, as a player's net worth counts them."""
        ps = self.of(state)
        rows = []
        for p in ps.pieces.values():
            if p.gone:
                continue
            money = ps.money.get(p.name)
            owned = squares_of(state, p.name)
            worth = (money or 0) + sum(market_value(state, n) for n in owned)
            rows.append(StandingRow(p.name, "pseudoplayer", worth, money, p.square, "pseudoplayers.html",
                                    (Fact("squares", owned, column="Squares owned", order=30, kind="squares"),)))
        return rows

#: the pieces that move by rule, and the rule the Admin carries out for each (XXXIII.2-5)
PIECE_RULES = {"elephant": "XXXIII.2", "phantom": "XXXIII.3", "corporate-player": "XXXIII.4",
               "tisssg": "XXXIII.5"}


def _piece(ctx: UpdateContext, r: Ruling) -> str:
    """The Admin brings in, moves or removes a pseudoplayer piece: ``piece name=Elephant
    kind=elephant square=12`` (``gone=true`` takes it out of play)."""
    ps = PseudoModule.of(ctx.state)
    name = str(r.args.get("name", ""))
    if not name:
        raise RuleError("piece needs name=NAME (and kind=, square= or gone=true)")
    piece = ps.pieces.get(name)
    if piece is None:
        kind = str(r.args.get("kind", ""))
        if kind not in PIECE_RULES:
            raise RuleError(f"{name!r} is no pseudoplayer yet; to bring it in give kind= one of "
                            f"{', '.join(PIECE_RULES)}")
        piece = add_piece(ctx.state, name, kind, what=f"pseudoplayer: a piece that moves by rule ({PIECE_RULES[kind]})")
    if "square" in r.args:
        number = int(r.args["square"])
        square = ctx.state.square(number)
        if square is None or square.destroyed:
            raise RuleError(f"square={number}: there is no such square on the board")
        if piece.square and piece.kind != "phantom":  # a piece moved onto grease slides on (XIII.12)
            from admin.games.nomoteams.mechanics.coatings import landing_square

            number = landing_square(ctx.state, number)
        piece.square = number
    if r.args.get("gone") in (True, "true", "yes"):
        piece.gone = True
    return f"The Admin placed {name} ({piece.kind}) on square {piece.square}" + (" (gone)" if piece.gone else "") + f": {r.note}"


def add_piece(state: GameState, name: str, kind: str, square: int = 0, what: str = "",
              money: int | None = None) -> Piece:
    """Bring a pseudoplayer into the game (a later section's piece); ``money``: it holds money."""
    ps = PseudoModule.of(state)
    if name in ps.pieces or name in state.players:
        raise RuleError(f"there is already a player or pseudoplayer named {name!r}")
    piece = ps.pieces[name] = Piece(name, kind, square, what)
    if money is not None:
        ps.money[name] = money
    return piece


def disperse(ctx: UpdateContext) -> None:
    """X.6: at the start of an update, whatever The Government holds above $15,000 is shared evenly
    among the players; a remainder that does not divide stays with it (a standing ruling)."""
    cap = int(ctx.params(PseudoModule.name)["government_cap"])
    held = PseudoModule.of(ctx.state).money.get(GOVERNMENT, 0)
    players = sorted(p.name for p in ctx.state.active_players())
    if held <= cap or not players:
        return
    share = (held - cap) // len(players)
    if share <= 0:
        return
    for name in players:
        ctx.transfer(GOVERNMENT, name, share, rule="X.6", reason="The Government's funds above the cap")
    ctx.emit("government-dispersal", f"The Government held {ctx.state.money(held)}, more than "
                                     f"{ctx.state.money(cap)}: each of the {len(players)} players "
                                     f"received {ctx.state.money(share)}.",
             rule="X.6", data={"share": share, "players": players})
