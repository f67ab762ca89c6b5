"""The ``techno`` mechanic: Technopoly's world, robots, tasks, inventions, rounds and scoring
(admin/games/technopoly). By email each update is one round: every player's turn, in seat order
(the order they joined), carrying out the task lines of their email; see tasks.py and
invention.py. After the last turn the round ends, and after round ten a d20 is rolled (with the
Transmitters' +/-10): at or under the round number, the game ends and the highest score wins."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from admin.engine.declare import command, handled
from admin.engine.decks import draw
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.turnorder import round_ends
from admin.engine.errors import CommandError, IllegalAction, NomopolyError
from admin.library.api import INTERACTIONS, SEALED_ANSWERS
from admin.games.technopoly.api import TECHNO_PRIVATE
from admin.games.technopoly.mechanics import invention
from admin.games.technopoly.mechanics.objects import (
    ROBOT, WORLD, EndRoll, TechnoPrivate, TechnoState, add_units, card_name, cards_out, deck_spec, describe,
    find_object, fuel_text, give_card, held, illegal, parse_card, score, world,
)
from admin.games.technopoly.mechanics.machines import activate, resolve_unpredictable
from admin.games.technopoly.mechanics.tasks import (
    Task, Turn, attack, draw_card, end_of_turn, make, orders, parse_task, start_of_turn, use_robots,
)
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction


def _task_parser(verb: str) -> Callable[[str, object], TechnoOrder]:
    def parse(rest: str, line: object) -> TechnoOrder:
        parse_task(verb, rest)  # its syntax now; it is read again in the player's turn
        return TechnoOrder(verb, rest.strip())
    return parse


def _parse_respond(rest: str, line: object) -> Respond:
    number, _ = invention.parse_response(rest, line)
    return Respond(number, rest.strip().split(None, 2)[-1])


# the acknowledgement is the player's: what a task does is told when the turn carries it out
@command("INVENT", usage="INVENT <name> WITH <card>[, <card>...]", parse=_task_parser("INVENT"), listing=10,
         private=True, summary="a Robot invents a new Object with cards from your hand; opponents may RESPOND "
                               "until the next update", example="INVENT Death Ray WITH Destroyer, Automatic",
         rules=("IV.2",))
@command("CREATE <k> <machine>", parse=_task_parser("CREATE"), listing=11, private=True,
         summary="k Robots build k of a Machine you hold the Technology for (its creation Fuel burnt)",
         example="CREATE 2 Robot", rules=("IV.5",))
@command("MINE <k> <fuel>", parse=_task_parser("MINE"), listing=12, private=True,
         summary="k Robots mine k of a Fuel you hold the Mining Rights for", example="MINE 3 Titanium",
         rules=("IV.4",))
@command("ACTIVATE", usage="ACTIVATE <machine> <what it does>", parse=_task_parser("ACTIVATE"), listing=13,
         private=True, summary="activate a Machine you own (a Robot's task unless it is Automatic)",
         example="ACTIVATE Death Ray DESTROY bob's Robot", rules=("IV.6",))
@command("ATTACK", usage="ATTACK <player>'s <object>", parse=_task_parser("ATTACK"), listing=14, private=True,
         summary="a Robot attacks one of a player's objects (d6 against d6)", example="ATTACK bob's Titanium",
         rules=("IV.8",))
@command("MONITOR <object>", parse=_task_parser("MONITOR"), listing=15, private=True,
         summary="a Robot monitors your High-Maintenance objects of a type this turn", example="MONITOR Reactor",
         rules=("IV.7", "X.15"))
@command("DRAW", parse=_task_parser("DRAW"), listing=16, private=True,
         summary="spend your turn drawing an Attribute card instead of giving Robots tasks", example="DRAW",
         rules=("III.2",))
@command("REPLACE MYSTERIOUS ON <object> WITH <card>", parse=_task_parser("REPLACE"), listing=17, private=True,
         summary="skip your turn to replace a Mysterious attribute with a card from your hand",
         example="REPLACE MYSTERIOUS ON Phonebox WITH Fragile", rules=("IX.2",))
class TechnoOrder:
    """A task line for the player's turn: INVENT, CREATE, MINE, ACTIVATE, ATTACK, MONITOR, DRAW, REPLACE."""

    verb: str
    rest: str
    #: named here, not by cmd=, as the log's lines are looked up by it (_line_of)
    cmd: ClassVar[str] = "techno-task"


@command("RESPOND", usage="RESPOND <number> WITH <card>[, <card>]", parse=_parse_respond, cmd="techno-respond",
         listing=30, summary="play cards from your hand on an opponent's announced invention",
         example="RESPOND 4 WITH Fuel: 1A", rules=("IV.3",))
class Respond:
    """``RESPOND <n> WITH <card>[, <card>]``: cards on an opponent's invention (IV.3)."""

    number: int
    #: the cards as written, comma-separated (read again when carried out)
    cards: str


def _parse_fuel(rest: str, line: object) -> NominateFuel:
    m = re.fullmatch(r"(.+?)\s*=\s*(.+)", rest.strip())
    if not m:
        raise CommandError("write FUEL <object> = <fuel>, <fuel>, like FUEL Death Ray = Electricity, Titanium")
    return NominateFuel(m.group(1).strip(), tuple(f.strip() for f in m.group(2).split(",") if f.strip()))


@command("FUEL", usage="FUEL <object> = <fuel>[, <fuel>...]", parse=_parse_fuel, cmd="techno-fuel", listing=31,
         phase=20, summary="nominate the Fuel your invention's \"requires Fuel\" cards ask for",
         example="FUEL Death Ray = Electricity, Titanium, Titanium", rules=("V.2",))
class NominateFuel:
    """``FUEL <object> = <fuel>[, <fuel>...]`` (V.2-V.4)."""

    object: str
    fuels: tuple[str, ...]


class TechnoModule(Mechanic[TechnoState, TechnoPrivate]):
    name = WORLD
    rules = (*(f"II.{i}" for i in range(1, 5)), *(f"III.{i}" for i in range(1, 5)),
             *(f"IV.{i}" for i in range(1, 9)), *(f"V.{i}" for i in range(1, 6)), "VII.1",
             *(f"VIII.{i}" for i in range(1, 24)), "IX.1", "IX.2",
             *(f"X.{i}" for i in range(1, 29)), "XII.1", "XII.3")
    stated = {"III.1": {"hand": ("starts with {} Attribute cards",), "robots": ("kept secret, and {} Robots",)}}
    defaults = {"hand": 3, "robots": 2, "last_round_without_roll": 10, "end_die": 20,
                                "attack_die": 6, "create_fuel": True}
    summary = "Robots invent, create, mine, activate, attack; attribute cards; rounds and the end roll."
    State = TechnoState
    Private = TechnoPrivate
    requires = ("interactions",)

    def face_down_piles(self, state: GameState) -> dict[str, Any]:
        return {deck_spec().name: self.private_of(state).pile}

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((TechnoOrder, order_task), (Respond, respond), (NominateFuel, nominate_fuel))

    def on_player_added(self, state: GameState, player: Player) -> None:
        st = self.of(state)
        if player.name not in st.seats:
            st.seats.append(player.name)
            st.holdings.setdefault(player.name, {})
            add_units(st, player.name, ROBOT, int(state.params(self.name).get("robots", self.defaults["robots"])))
            st.hand_size.setdefault(player.name, 0)
            self.private_of(state).hands.setdefault(player.name, [])

    def on_player_removed(self, state: GameState, player: Player) -> None:
        st = self.of(state)
        st.seats = [s for s in st.seats if s != player.name]

    def on_update_start(self, ctx: UpdateContext) -> None:
        """III.1: each new player's starting hand, drawn face down with the hidden seed."""
        st, priv = self.of(ctx.state), self.private_of(ctx.state)
        n = int(ctx.params(self.name)["hand"])
        for name in st.seats:
            if name not in priv.dealt and ctx.state.players[name].active:
                priv.dealt.append(name)
                dealt = 0
                for i in range(n):
                    try:
                        card = draw(deck_spec(), ctx.dice, f"deal/{name}/{i}", priv.pile, player=name,
                                    whole_deck=not cards_out(priv))
                    except IllegalAction:  # every card is in a hand (VII.1): deal what there is
                        break
                    give_card(priv, st, name, card)
                    dealt += 1
                short = "" if dealt == n else f" (of {n}: every other card is in a hand, VII.1)"
                ctx.emit("techno", f"{name} was dealt {dealt} Attribute cards{short}.", player=name, rule="III.1",
                         private=f"Your hand: {', '.join(priv.hands.get(name, [])) or 'no cards'}.")

    def on_turns(self, ctx: UpdateContext) -> None:
        st = self.of(ctx.state)
        queued = orders(ctx)
        for name in list(st.seats):
            player = ctx.state.players.get(name)
            if player is None or not player.active or ctx.state.ended:
                continue
            st.turns += 1
            turn = Turn(name, held(st, name, ROBOT), st.turns)
            start_of_turn(ctx, turn)
            for text, task, at in queued.get(name, []):
                ref = _line_of(ctx, name, at)  # the outcome answers the email line: its receipt tells it
                try:
                    said = run(ctx, turn, task)
                except NomopolyError as exc:  # refused (or a Manipulator's task mis-written)
                    said = f'{name}: "{text}" was not done: {exc}'
                    if task.verb in ("INVENT", "REPLACE"):  # the line names cards still in the hand
                        ctx.emit("action", None, player=name, ok=False, private=said, ref=ref,
                                 data={"cmd": "techno-task"})
                    else:
                        ctx.emit("action", said, player=name, ok=False, ref=ref, data={"cmd": "techno-task"})
                    continue
                if said:
                    ctx.emit("techno", said, player=name, rule="IV.1", ref=ref)
            end_of_turn(ctx, turn)
        st.round += 1
        end_of_round(ctx)

    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> Any:
        if "machine" in interaction.payload:  # an Unpredictable Machine's choices, read at the close
            return str(value)
        if isinstance(value, str):  # ANSWER <n> <card>, <card>
            value = [parse_card(c) for c in value.split(",") if c.strip()]
        return invention.check_response(ctx, interaction, player.name, list(value))

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        if "machine" in interaction.payload:
            return resolve_unpredictable(ctx, interaction, answers, lambda t, v, rest: run(ctx, t, parse_task(v, rest)))
        return invention.resolve(ctx, interaction, answers)

    # -- how it shows -----------------------------------------------------------------------
    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        st = self.of(state)
        hold = st.holdings.get(player.name, {})
        things = ", ".join(f"{n} {name}" for name, n in sorted(hold.items()) if name != ROBOT) or "nothing"
        rights = ", ".join(f"{o.rights_name} {o.name}" for o in st.objects.values()
                           if player.name in o.rights and o.kind != "robot") or "none"
        return [Fact("robots", hold.get(ROBOT, 0), label="Robots", column="Robots", order=30),
                Fact("holdings", things, label="Objects", order=31, kind="text"),
                Fact("rights", rights, label="Technology and Mining Rights", order=32, kind="text"),
                Fact("score", score(st, player.name), label="Score", column="Score", order=33),
                Fact("cards_held", st.hand_size.get(player.name, 0), label="Attribute cards held",
                     column="Cards", order=34)]

    def worth(self, state: GameState, player: Player) -> int:
        """The standings' net worth is the score (III.4): there is no money."""
        return score(self.of(state), player.name)

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("hand", list(self.private_of(state).hands.get(player.name, [])))]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        st = self.of(state)
        priv = TECHNO_PRIVATE.get(state)
        hand = priv.hands.get(player.name, []) if priv is not None else []
        lines = [(30, f"  Round {st.round} done; your Robots: {held(st, player.name, ROBOT)}; score {score(st, player.name)}"),
                 (31, "  Your objects: " + (", ".join(f"{n} {k}" for k, n in sorted(st.holdings.get(player.name, {}).items())) or "none")),
                 (32, "  Your hand (private): " + (", ".join(hand) or "no cards"))]
        for obj in st.objects.values():
            if obj.inventor == player.name and obj.pending_fuel:
                lines.append((33, f"  {obj.name} waits for its Fuel: send FUEL {obj.name} = <fuel>, ..."))
        return lines

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        st = self.of(state)
        hand = self.private_of(state).hands.get(player.name, [])
        return [(30, f"; round {st.round}; score {score(st, player.name)}; objects: "
                     + (", ".join(f"{n} {k}" for k, n in sorted(st.holdings.get(player.name, {}).items())) or "none")
                     + f"; hand: {', '.join(hand) or 'no cards'}")]

    def panels(self, state: GameState) -> list[Panel]:
        st = self.of(state)
        objects = tuple((o.name, o.kind.title(), describe(o), fuel_text(o), o.inventor or "everyone",
                         "everyone" if o.kind == "robot" else (", ".join(o.rights) or "nobody"),
                         "announced: taking responses" if o.status == "announced" else "known")
                        for o in st.objects.values())
        holdings = tuple((p, name, n) for p in st.seats for name, n in sorted(st.holdings.get(p, {}).items()))
        rolls = tuple((r.round, r.roll, f"{r.modifier:+d}" if r.modifier else "0", r.roll + r.modifier,
                       "the game ends" if r.ended else "play on") for r in st.end_rolls)
        scores = tuple((p, score(st, p), "yes" if illegal(st, p) else "no") for p in st.seats)
        intro = (f"Round {st.round} completed. After round {int(state.params(self.name).get('last_round_without_roll', 10))}"
                 " a d20 is rolled at the end of every round: at or under the round number, the game ends. "
                 "Hands of Attribute cards are private.")
        return [Panel("objects", "Objects", intro, (
            Table("Every object invented", ("Object", "Kind", "Attributes", "Fuel", "Inventor",
                                            "Technology / Mining Rights", "Status"), objects),
            Table("Holdings", ("Player", "Object", "Units"), holdings),
            Table("Scores", ("Player", "Score", "Owns an Illegal object"), scores),
            Table("End rolls", ("After round", "d20", "Transmitters", "Total", "Result"), rolls)), order=20)]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        st, priv = self.of(state), self.private_of(state)
        if key == "hand":
            priv.hands[player.name] = [card_name(str(c)) for c in value or []]
            st.hand_size[player.name] = len(priv.hands[player.name])
            if player.name not in priv.dealt:
                priv.dealt.append(player.name)
            return True
        if key == "holdings":
            # by name as written: a scenario's `state:` may define the objects after its players
            st.holdings[player.name] = {str(k): int(v) for k, v in (value or {}).items() if int(v) > 0}
            return True
        return False


def order_task(ctx: UpdateContext, player: Player, cmd: TechnoOrder) -> str:
    """A task line waits for the player's turn, when the round is played in seat order."""
    text = f"{cmd.verb} {cmd.rest}".strip()
    # where the line's own verdict will be: its outcome in the turn is added to that line's answer
    orders(ctx).setdefault(player.name, []).append((text, parse_task(cmd.verb, cmd.rest), len(ctx.events)))
    return f"{player.name} queued: {text} (in {player.name}'s turn this round; the outcome follows)."


def _line_of(ctx: UpdateContext, name: str, at: int) -> str | None:
    """The email line (``ref``) of the task queued when the update had ``at`` events: the first
    accepted task line of ``name``'s after it."""
    return next((e.ref for e in ctx.events[at:] if e.kind == "action" and e.player == name and e.ok
                 and e.data.get("cmd") == TechnoOrder.cmd), None)


def respond(ctx: UpdateContext, player: Player, cmd: Respond) -> str:
    from admin.engine.interactions import answer, find
    state, sealed = INTERACTIONS.of(ctx.state), SEALED_ANSWERS.of(ctx.state)
    inter = find(state, cmd.number)
    if player.name not in inter.parties:
        raise IllegalAction(f"#{cmd.number} is not yours to answer; it asks {', '.join(inter.parties)}")
    _, cards = invention.parse_response(f"{cmd.number} WITH {cmd.cards}", None)
    value = invention.check_response(ctx, inter, player.name, list(cards))
    answer(state, sealed, player.name, cmd.number, value)
    return f"{player.name} responded to {inter.payload['object']} (#{inter.id}) with {', '.join(value)}."


def nominate_fuel(ctx: UpdateContext, player: Player, cmd: NominateFuel) -> str:
    return invention.nominate(ctx, player.name, cmd.object, list(cmd.fuels))


def run(ctx: UpdateContext, turn: Turn, task: Task, robot: bool = True) -> str:
    """Carry out one task in the player's turn."""
    verb = task.verb
    if turn.mode != "tasks":
        raise IllegalAction(f"{turn.player} spent this turn on {'drawing a card' if turn.mode == 'draw' else 'a Mysterious attribute'}")
    if verb == "DRAW":
        if turn.made or turn.robots < held(world(ctx.state), turn.player, ROBOT):
            raise IllegalAction("a turn either draws a card or gives Robots tasks; tasks were given already (III.2)")
        turn.mode = "draw"
        draw_card(ctx, turn.player, "III.2")
        return f"{turn.player} spent the turn drawing an Attribute card (III.2)."
    if verb == "REPLACE":
        if turn.made or turn.robots < held(world(ctx.state), turn.player, ROBOT):
            raise IllegalAction("replacing a Mysterious attribute takes the whole turn; tasks were given already (IX.2)")
        said = invention.replace_mysterious(ctx, turn, *task.args)
        turn.mode = "replace"
        return said
    if verb == "INVENT":
        return invention.invent(ctx, turn, *task.args)
    if verb in ("CREATE", "MINE"):
        return make(ctx, turn, verb, *task.args)
    if verb == "ATTACK":
        owner, target = task.args
        attack(ctx, turn, owner, target, with_=ROBOT, check=True)
        use_robots(turn, 1, "an attack")
        return attack(ctx, turn, owner, target, with_=ROBOT)
    if verb == "MONITOR":
        obj = find_object(world(ctx.state), task.args[0])
        if held(world(ctx.state), turn.player, obj.name) < 1:
            raise IllegalAction(f"{turn.player} owns no {obj.name} to monitor")
        use_robots(turn, 1, "monitoring")
        turn.monitored.add(obj.name)
        return f"a Robot of {turn.player}'s monitored {obj.name} this turn (IV.7)."
    if verb == "ACTIVATE":
        return activate(ctx, turn, task.args[0],
                        lambda t, v, rest: run(ctx, t, parse_task(v, rest)))
    raise IllegalAction(f"{verb} is not a task")


def end_of_round(ctx: UpdateContext) -> None:
    """III.3: after every round past the tenth, a d20 (with the Transmitters' +/-10, VIII.23)."""
    st = world(ctx.state)
    params = ctx.params(WORLD)
    modifier = sum(st.transmit.values())
    ends, roll = round_ends(ctx.dice, st.round, after=int(params["last_round_without_roll"]),
                            sides=int(params["end_die"]), modifier=modifier)
    st.transmit = {}
    if roll is None:
        ctx.emit("techno", f"Round {st.round} is over.", rule="III.3", data={"round": st.round})
        return
    st.end_rolls.append(EndRoll(st.round, roll, modifier, ends))
    said = f"{roll}" + (f" {modifier:+d} (Transmitters) = {roll + modifier}" if modifier else "")
    ctx.emit("techno", f"Round {st.round} is over; the end roll is {said}: "
                       + ("at or under the round number, the game ends." if ends else "over the round number, play on."),
             rule="III.3", data={"round": st.round, "roll": roll, "modifier": modifier, "ends": ends})
    if ends:
        finish_game(ctx)


def finish_game(ctx: UpdateContext) -> None:
    """III.4: the highest score wins; a player owning an Illegal object cannot (X.16)."""
    st = world(ctx.state)
    st.scores = {p: score(st, p) for p in st.seats}
    able = {p: s for p, s in st.scores.items() if not illegal(st, p) and ctx.state.players[p].active}
    ctx.state.ended = True
    text = ", ".join(f"{p} {s}" for p, s in st.scores.items())
    if not able:
        ctx.state.end_reason = f"round {st.round}'s end roll; no player may win (scores: {text})"
        ctx.emit("winner", f"The game is over: nobody may win (scores: {text}).", rule="III.4")
        return
    top = max(able.values())
    winners = [p for p, s in able.items() if s == top]
    ctx.state.winner = " and ".join(winners)
    ctx.state.end_reason = f"round {st.round}'s end roll; the highest score, {top} (scores: {text})"
    ctx.emit("winner", f"{ctx.state.winner} win{'s' if len(winners) == 1 else ''} the game with a score of {top} "
                       f"(scores: {text}).", player=winners[0], rule="III.4")

