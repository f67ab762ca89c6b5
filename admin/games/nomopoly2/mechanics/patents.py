"""Nomopoly II XXXIV: Patents. A player pays $100 to apply for a patent on a new casino game or
item, its rules in their own words (``PATENT GAME|ITEM <name>`` ... ``END``, XXXIV.1); the Admin
accepts or rejects it (``nomopoly ruling patent accept|reject N``; a rejection refunds $50,
XXXIV.2). An accepted patent is an item its owner holds and may trade (XXXIV.3: ``ruling patent
transfer N --to <player>`` records a trade), and its game or item is offered at every Casino its
owner owns (XXXIV.4): ``PLAY <name>`` there records a request, which the Admin settles by the
patent's own rules (``ruling patent settle R --paid X --won Y``), since no engine can read them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.syntax import MAX_NAME, check_text
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomopoly2.api import CASINOS
from admin.games.nomopoly2.mechanics.casinos.state import casino_here, check_play, note_play, pay_out, take_in
from admin.games.nomopoly2.mechanics.shared import charge, split_on_credit, squares_with
from admin.library.ownership import owner_of
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.module import CommandSpec, RulingHandler


@dataclass
class Patent:
    id: int
    #: "game" or "item"
    kind: str
    name: str
    applicant: str
    #: the application: rules, bets and payouts (a game); price, use and effects (an item)
    text: str
    update: int
    #: pending, accepted or rejected
    status: str = "pending"
    #: who holds the accepted patent (XXXIV.3: it may be traded)
    owner: str | None = None
    #: the Admin's reason, for a rejection
    reason: str = ""


@dataclass
class PatentRequest:
    """A player's request to play a patented game or use a patented item (XXXIV.4)."""

    id: int
    patent: int
    player: str
    square: int
    text: str
    update: int
    #: open or settled
    status: str = "open"
    outcome: str = ""


@dataclass
class PatentsState:
    patents: list[Patent] = field(default_factory=list)
    requests: list[PatentRequest] = field(default_factory=list)
    next_id: int = 1
    next_request: int = 1


def _parse_patent(rest: str, line: object, block: Sequence[object]) -> ApplyPatent:
    rest, credit = split_on_credit(rest)
    m = re.match(r"^(game|item)\s*:?\s+(.+)$", rest.strip(), re.IGNORECASE)
    if not m:
        raise CommandError("write PATENT GAME <name> or PATENT ITEM <name>, then its rules on the lines "
                           "below, then a line END")
    name = check_text(m.group(2).strip().rstrip(":"), "the name")
    if len(name) > MAX_NAME:
        raise CommandError(f"the name is {len(name)} characters long; at most {MAX_NAME} are allowed")
    texts = [getattr(b, "text", str(b)).rstrip() for b in block]
    while texts and not texts[-1].strip():
        texts.pop()
    while texts and not texts[0].strip():
        texts.pop(0)
    if not texts:
        raise CommandError("the application has no text; write the game's rules, bets and payouts (or the "
                           "item's price, use and effects) between PATENT and END (XXXIV.1)")
    body = check_text("\n".join(t.replace("\t", "    ") for t in texts), "the application")
    return ApplyPatent(m.group(1).lower(), name, body, credit)


@command("PATENT <kind:GAME|ITEM> <name> ... END", parse=_parse_patent, cmd="patent", block=True, listing=360,
         rules=("XXXIV.1",), summary="apply for a patent ($100): the name, then the rules (a game: rules, bets, "
                                     "payouts; an item: price, use, effects) on the lines below, then END",
         example="PATENT GAME Dice Duel")
class ApplyPatent:
    """``PATENT GAME|ITEM <name>`` then its rules up to ``END`` (XXXIV.1)."""

    kind: str
    name: str
    text: str
    on_credit: bool = False


def _parse_play(rest: str, _line: object) -> PlayPatented:
    if not rest.strip():
        raise CommandError("PLAY needs a game: PLAY BLACKJACK <bet>, PLAY POKER <bet>, PLAY ROULETTE <bet> "
                           "ON <bet>, or PLAY <a patented game or item>")
    return PlayPatented(check_text(rest.strip(), "the request"))


@command("PLAY <text:patented game or item> [details]", parse=_parse_play, listing=361, rules=("XXXIV.4",),
         summary="at a Casino whose owner holds its patent: ask to play a patented game or "
                 "use a patented item (the Admin settles it)", example="PLAY Dice Duel 20")
class PlayPatented:
    """``PLAY <name> [what you do]``: a patented game or item at a Casino (XXXIV.4)."""

    text: str


class PatentsModule(Mechanic[PatentsState, None]):
    name = "patents"
    rules = ("XXXIV.1", "XXXIV.3", "XXXIV.4")
    defaults = {"fee": 100, "refund": 50, "patented_games_count_as_plays": True}
    summary = ("Patent a new casino game or item ($100, the Admin decides; $50 back if rejected); it is "
               "offered at every Casino its owner owns.")
    State = PatentsState
    # no "casinos" here: enabling patents must not switch Casinos on without their section; a
    # patented game is played only where Casinos are in force (XXXIV.4)
    requires = ()

    def commands(self) -> Sequence[CommandSpec]:
        return handled((ApplyPatent, apply), (PlayPatented, play))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"patent": patent_ruling}

    def on_player_removed(self, state: GameState, player: Player) -> None:
        for p in self.of(state).patents:
            if p.owner == player.name:
                p.owner = None

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        owned = [p.name for p in self.of(state).patents if p.status == "accepted" and p.owner == player.name]
        return [Fact("patents", ", ".join(owned) or "none", label="Patents", order=75, kind="text")]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        ps = self.of(state)
        lines = [(75, f"  Your patent application #{p.id} ({p.kind} {p.name}) awaits the Admin.")
                 for p in ps.patents if p.status == "pending" and p.applicant == player.name]
        lines += [(76, f"  Your request R{r.id} ({r.text}) at square {r.square} awaits the Admin.")
                  for r in ps.requests if r.status == "open" and r.player == player.name]
        return lines

    def panels(self, state: GameState) -> list[Panel]:
        ps = self.of(state)
        p = {**self.defaults, **state.params(self.name)}
        casinos = squares_with(state, "casino") if CASINOS.on(state) else []
        accepted = tuple((x.id, x.kind, x.name, x.owner or "nobody",
                          ", ".join(str(n) for n in casinos if x.owner and owner_of(state, n) == x.owner) or "nowhere",
                          x.text) for x in ps.patents if x.status == "accepted")
        pending = tuple((x.id, x.kind, x.name, x.applicant) for x in ps.patents if x.status == "pending")
        requests = tuple((f"R{r.id}", r.player, _by_id(ps, r.patent).name, r.square, r.text)
                         for r in ps.requests if r.status == "open")
        intro = (f"A player may patent a new casino game or item for {state.money(int(p['fee']))}: PATENT GAME "
                 "or PATENT ITEM with its name, then its rules on the lines below, then END (XXXIV.1). The "
                 f"Admin accepts or rejects it; a rejection gives {state.money(int(p['refund']))} back (XXXIV.2). "
                 "A patent is an item its owner may trade (XXXIV.3), and its game or item is offered at every "
                 "Casino its owner owns: PLAY <name> there, and the Admin settles it by its rules (XXXIV.4).")
        return [Panel("patents", "Patents", intro,
                      (Table("Patents granted", ("No.", "Kind", "Name", "Owner", "Offered at the Casinos on", "Rules"),
                             accepted),
                       Table("Applications awaiting the Admin", ("No.", "Kind", "Name", "Applicant"), pending),
                       Table("Requests to play awaiting the Admin", ("Request", "Player", "Patent", "Square",
                                                                     "Asked"), requests)),
                      order=34)]


def _by_id(ps: PatentsState, number: int) -> Patent:
    for p in ps.patents:
        if p.id == number:
            return p
    raise RuleError(f"there is no patent application #{number}; there are "
                    f"{', '.join(f'#{p.id}' for p in ps.patents) or 'none'}")


def accepted_named(state: GameState, text: str) -> tuple[Patent, str] | None:
    """The accepted patent whose name ``text`` starts with (the longest such name), and the rest."""
    best = None
    for p in PatentsModule.of(state).patents:
        if p.status != "accepted":
            continue
        name = p.name.lower()
        low = text.lower()
        if (low == name or low.startswith(name + " ")) and (best is None or len(p.name) > len(best.name)):
            best = p
    return (best, text[len(best.name):].strip()) if best else None


def apply(ctx: UpdateContext, player: Player, cmd: ApplyPatent) -> str:
    ps = PatentsModule.of(ctx.state)
    same = next((p for p in ps.patents if p.name.lower() == cmd.name.lower() and p.status != "rejected"), None)
    if same is not None:
        raise IllegalAction(f"{cmd.name!r} is the name of patent #{same.id} ({same.status}); choose another "
                            "name (XXXIV.2: too similar to a patented game or item)")
    first = cmd.name.split()[0].rstrip(":").upper()
    if any(spec.keyword.upper() == f"PLAY {first}" for _, spec in ctx.registry.specs(ctx.state)):
        raise IllegalAction(f"PLAY {cmd.name} would be read as PLAY {first}, another command; choose a name "
                            f"that does not start with {cmd.name.split()[0]}")
    fee = int(ctx.params(PatentsModule.name)["fee"])
    charge(ctx, player.name, BANK, fee, rule="XXXIV.1", on_credit=cmd.on_credit,
           reason=f"a patent application for the {cmd.kind} {cmd.name}")
    patent = Patent(ps.next_id, cmd.kind, cmd.name, player.name, cmd.text, ctx.state.update)
    ps.next_id += 1
    ps.patents.append(patent)
    return (f"{player.name} applied for a patent on the {cmd.kind} {cmd.name} (#{patent.id}) for "
            f"{ctx.state.money(fee)}; the Admin will accept or reject it (XXXIV.2).")


def play(ctx: UpdateContext, player: Player, cmd: PlayPatented) -> str:
    found = accepted_named(ctx.state, cmd.text)
    if found is None:
        names = [p.name for p in PatentsModule.of(ctx.state).patents if p.status == "accepted"]
        casino = "BLACKJACK, POKER or ROULETTE, or " if CASINOS.on(ctx.state) else ""
        raise IllegalAction(f"{cmd.text!r} names no game this game knows; play {casino}a patented game or "
                            f"item: {', '.join(names) or 'there are none yet'}")
    patent, details = found
    if not CASINOS.on(ctx.state):
        raise IllegalAction(f"{patent.name} is offered at Casinos (XXXIV.4), and there are none in this game "
                            "(XXXIII is not in force)")
    square = casino_here(ctx.state, player, f"play {patent.name}")
    owner = owner_of(ctx.state, square)
    if patent.owner is None or owner != patent.owner:
        raise IllegalAction(f"{patent.name} is offered only at the Casinos of its patent's owner, "
                            f"{patent.owner or 'nobody'} (XXXIV.4); square {square} is {owner or 'nobody'}'s")
    counts = patent.kind == "game" and ctx.params(PatentsModule.name)["patented_games_count_as_plays"]
    if counts:
        check_play(ctx, player)
    ps = PatentsModule.of(ctx.state)
    request = PatentRequest(ps.next_request, patent.id, player.name, square, cmd.text, ctx.state.update)
    ps.next_request += 1
    ps.requests.append(request)
    if counts:
        note_play(ctx, player)
    return (f"{player.name} asked to {'play' if patent.kind == 'game' else 'use'} {patent.name} at the Casino "
            f"on square {square}" + (f" ({details})" if details else "")
            + f"; request R{request.id} goes to the Admin, who settles it by the patent's rules (XXXIV.4).")


def transfer_patent(state: GameState, number: int, to: str) -> Patent:
    """Patent ``number`` changes hands (XXXIV.3: a patent is an item, and may be traded): for a
    trade a section carries out, or the Admin's ruling."""
    patent = _by_id(PatentsModule.of(state), number)
    if patent.status != "accepted":
        raise RuleError(f"patent #{number} is {patent.status}; only an accepted patent is held and traded")
    if to not in state.players or not state.players[to].active:
        raise RuleError(f"{to!r} is not a player in the game")
    patent.owner = to
    return patent


def patent_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``nomopoly ruling patent accept|reject|settle|transfer N``."""
    ps = PatentsModule.of(ctx.state)
    verdict, number, note = str(r.args.get("verdict")), int(r.args.get("number", 0)), r.note or ""
    if verdict in ("accept", "reject"):
        patent = _by_id(ps, number)
        if patent.status != "pending":
            raise RuleError(f"patent application #{number} was {patent.status} already")
        if verdict == "accept":
            clash = next((p for p in ps.patents if p.status == "accepted" and p.name.lower() == patent.name.lower()),
                         None)
            if clash is not None:
                raise RuleError(f"patent #{clash.id} has the name {clash.name!r} already; reject #{number}")
            patent.status, patent.owner = "accepted", patent.applicant
            ctx.emit("patent", f"The Admin granted {patent.applicant} a patent on the {patent.kind} {patent.name} "
                               f"(#{number}); it is offered at {patent.applicant}'s Casinos.",
                     player=patent.applicant, rule="XXXIV.3")
            return f"Patent #{number} ({patent.name}) accepted{': ' + note if note else ''}."
        patent.status, patent.reason = "rejected", note
        refund = int(ctx.params(PatentsModule.name)["refund"])
        if patent.applicant in ctx.state.players and ctx.state.players[patent.applicant].active:
            ctx.transfer(BANK, patent.applicant, refund, rule="XXXIV.2",
                         reason=f"the refund of patent application #{number}")
        ctx.emit("patent", f"The Admin rejected {patent.applicant}'s patent application #{number} ({patent.name})"
                           f"{': ' + note if note else ''}; {ctx.state.money(refund)} of the fee is refunded.",
                 player=patent.applicant, rule="XXXIV.2")
        return f"Patent #{number} ({patent.name}) rejected{': ' + note if note else ''}."
    if verdict == "transfer":
        to = str(r.args.get("to") or "")
        patent = transfer_patent(ctx.state, number, to)
        return f"Patent #{number} ({patent.name}) now belongs to {to}{': ' + note if note else ''}."
    if verdict == "settle":
        request = next((q for q in ps.requests if q.id == number), None)
        if request is None or request.status != "open":
            raise RuleError(f"there is no open request R{number}; open: "
                            f"{', '.join(f'R{q.id}' for q in ps.requests if q.status == 'open') or 'none'}")
        paid, won = int(r.args.get("paid") or 0), int(r.args.get("won") or 0)
        if paid < 0 or won < 0:
            raise RuleError("--paid and --won are amounts of $0 or more")
        player = ctx.state.players.get(request.player)
        if player is None or not player.active:
            raise RuleError(f"{request.player} is not in the game any more")
        what = f"{_by_id(ps, request.patent).name} at the Casino on square {request.square}"
        casino = CASINOS.on(ctx.state)  # the casino's takings, for its owner's share (XXXIII.6)
        if paid:
            ctx.transfer(player.name, BANK, paid, rule="XXXIII.4", reason=what, kind="purchase")
            if casino:
                take_in(ctx.state, request.square, paid)
        if casino:
            pay_out(ctx, request.square, player.name, won, rule="XXXIV.4", reason=what)
        elif won:
            ctx.transfer(BANK, player.name, won, rule="XXXIV.4", reason=what, kind="prize")
        request.status, request.outcome = "settled", note
        money = ctx.state.money
        return (f"Request R{number} ({request.player}: {request.text}) settled: paid {money(paid)}, won "
                f"{money(won)}{': ' + note if note else ''}.")
    raise RuleError(f"ruling patent {verdict!r}: write accept, reject, settle or transfer")
