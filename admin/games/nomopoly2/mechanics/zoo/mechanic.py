"""Nomopoly II XIX: the Zoo. A player who lands on the Zoo (square 51) may SPAWN a creature there;
the creatures then move by themselves after the players (XIX.3), in a random order (XIX.5), with
100 health each, gone at 0 (XIX.4):

- the Gorilla (Sunday update): a d10 ahead, then a 50% chance of a banana peel on its square;
- the Elephant (Sunday update): one square north, south, east or west by a d4 (an impossible
  direction is rolled again), trampling every player and creature where it lands (-15);
- the MTS Bison (every update): 2d6 ahead; the players where it lands may ride it to any square
  (``RIDE BISON TO <square>`` in their next mail: an offer through the interactions facility);
- the Skunk (every update): 2d3 up and right on the grid, wrapping round (its effects on what its
  square holds are in :mod:`zoo_skunk`);
- the Blinking Jelly Dog (every update): a random square, where it acts as a random other creature.

A banana peel makes whoever lands on it, player or creature, lose 10 health and jump to a random
square; the peel is then gone. Every number is a parameter; the standing rulings are in
docs/rulings.md.

This file holds the module and its commands; the state and its small helpers are in
:mod:`zoo_state`, the creatures' moves and landings in :mod:`zoo_creatures`, the Skunk's effects
in :mod:`zoo_skunk`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.board import live_numbers
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, SquareLook, Table
from admin.engine.syntax import parse_proposal, parse_square
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.engine.model import Player
from admin.games.nomopoly2.api import HOUSE_OF_CARDS, ZOO_RIDES, KeepsCreatures
from admin.games.nomopoly2.mechanics.zoo.creatures import (  # noqa: F401 - part of the Zoo's interface
    change_creature_health, hurt_creatures_on, infect_creature, land_creature, move_creatures,
    move_random_creature, offer_ride, elephant_turn, slip_player,
)
from admin.games.nomopoly2.mechanics.zoo.state import (  # noqa: F401 - part of the Zoo's interface
    BADGES, DEFAULTS, KINDS, TITLES, _ALIASES, Creature, RideOffer, ZooState, _params, cap, creatures_on,
    find, random_square, title, title_of,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction
    from admin.engine.model import GameState, Square


def parse_creature(text: str) -> str:
    words = re.sub(r"^(an?|the)\s+", "", text.strip().rstrip(".!").lower())
    words = re.sub(r"\s+", " ", words)
    if words not in _ALIASES:
        raise CommandError(f'"{text.strip()}" is not a creature of the Zoo; write one of GORILLA, '
                           "ELEPHANT, BISON, SKUNK or JELLY DOG, like SPAWN SKUNK.")
    return _ALIASES[words]


def _parse_spawn(rest: str, line: object) -> Spawn:
    return Spawn(parse_creature(rest))


@command("SPAWN <creature>", parse=_parse_spawn, listing=130, example="SPAWN SKUNK", rules=("XIX.2",),
         summary="after landing on the Zoo, bring out a Gorilla, Elephant, Bison, Skunk or Jelly Dog")
class Spawn:
    """``SPAWN <creature>`` (XIX.2)."""

    creature: str


def _parse_ride(rest: str, line: object) -> RideBison:
    return RideBison(parse_square(re.sub(r"^to\s+", "", rest.strip(), flags=re.IGNORECASE)))


@command("RIDE BISON TO <square>", keyword="RIDE BISON", parse=_parse_ride, listing=131, example="RIDE BISON TO 45",
         summary="hop on the MTS Bison that landed on your square and jump together to any square",
         rules=("XIX.3",))
class RideBison:
    """``RIDE BISON TO <square>`` (XIX.3, the MTS Bison)."""

    square: int


def _parse_fake(rest: str, line: object) -> UseFakeId:
    m = re.fullmatch(r"id\s+(?:on\s+)?(.+)", rest.strip(), flags=re.IGNORECASE)
    if not m:
        raise CommandError("write USE FAKE ID ON <proposal>, like USE FAKE ID ON 7.")
    return UseFakeId(parse_proposal(m.group(1)))


@command("USE FAKE ID ON <proposal>", keyword="USE FAKE", parse=_parse_fake, listing=132, example="USE FAKE ID ON 7",
         summary="add one vote to your vote on a proposal (after your VOTE)", rules=("XIX.3",))
class UseFakeId:
    """``USE FAKE ID ON <proposal>`` (XIX.3, the Legislative Building)."""

    proposal: int


class ZooModule(Mechanic[ZooState, None], KeepsCreatures):
    name = "zoo"
    rules = ("XIX.1", "XIX.2", "XIX.3", "XIX.4", "XIX.5")
    stated = {"XIX.1": {"zoo_square": ("Square {} is the Zoo",)},
              "XIX.3": {"peel_health_loss": ("they lose {} health and jump",),
                        "elephant_trample_loss": ("is trampled and loses {} health",),
                        "gorilla_peels": ("banana peels onto {} squares",),
                        "hospital_health_gain": ("every player gains {} health",),
                        "spray_health_loss": ("passes out, loses {} health",),
                        "railroad_payout": ("railroads receives ${} from",),
                        "bison_sends_loss": ("to a random square and loses {} health",),
                        "crazy_elephant_turns": ("it goes mad and takes {} of its usual moves",)},
              "XIX.4": {"start_health": ("Every creature starts with {} health",)}}
    defaults = DEFAULTS
    minimums = {"zoo_square": 1, "start_health": 1, "gorilla_die": 1, "peel_percent": 0,
                "elephant_rerolls": 1, "bison_dice": 1, "bison_sides": 1, "skunk_dice_sides": 1,
                "max_chain": 1, "passed_out_updates": 0, "crazy_elephant_turns": 0, "gorilla_peels": 0}
    choices = {"property_tax": ("numbers", "prices")}
    # each counts work in one update: rolls, turns taken at once, peels thrown (issue 30)
    maximums = {"elephant_rerolls": 100, "bison_dice": 10, "bison_sides": 1000, "skunk_dice_sides": 1000,
                "max_chain": 100, "gorilla_die": 1000, "crazy_elephant_turns": 100, "gorilla_peels": 100}
    summary = ("The Zoo on square 51: land there to spawn a creature; the Gorilla, Elephant, MTS Bison, "
               "Skunk and Blinking Jelly Dog then roam the board on their own.")
    State = ZooState
    #: the Joker has no section of its own: XIX.3 defines it (the Skunk on the House of Cards)
    requires = ("board", "ownership", "health", "interactions", "conditions", "jokers")
    #: a banana peel's slip comes after the landing's own effects (on_land; docs/rulings.md)
    runs_after = ("blackjack", "blocks", "buildings", "house-of-cards", "transport", "bingo")

    def move_random_creature(self, ctx: UpdateContext, square: int, rule: str) -> str | None:
        return move_random_creature(ctx, square, rule)

    def hurt_creatures_on(self, ctx: UpdateContext, square: int, delta: int, *, rule: str, reason: str) -> list[str]:
        return hurt_creatures_on(ctx, square, delta, rule=rule, reason=reason)

    def infect_creature(self, ctx: UpdateContext, text: str) -> str | None:
        return infect_creature(ctx, text)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Spawn, spawn), (RideBison, ride_bison), (UseFakeId, use_fake_id))

    # -- lives of players and squares ----------------------------------------------------
    def on_player_removed(self, state: GameState, player: Player) -> None:
        zs = self.of(state)
        zs.spawn_rights.pop(player.name, None)
        zs.fake_ids.pop(player.name, None)
        zs.fake_votes.pop(player.name, None)
        for offer in zs.offers:
            offer.players = [p for p in offer.players if p != player.name]

    def on_square_added(self, state: GameState, square: Square) -> None:
        """A destroyed square takes its peel with it; its creatures go to the lowest square, as
        players do (a new square has neither)."""
        zs = self.of(state)
        zs.peels = [n for n in zs.peels if n != square.number]
        if square.destroyed and live_numbers(state):
            for c in zs.creatures:
                if c.square == square.number:
                    c.square = live_numbers(state)[0]

    def can_own(self, state: GameState, square: Square) -> bool:
        return square.number != int(_params(state)["zoo_square"])

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        zs = self.of(state)
        if key == "banana_peel":
            zs.peels = sorted((set(zs.peels) | {square.number}) if value else (set(zs.peels) - {square.number}))
        elif key in ("creature", "creatures"):
            wanted = value if isinstance(value, dict) else {v: None for v in (value if isinstance(value, list) else [value])}
            for name, health in wanted.items():
                kind = _ALIASES.get(str(name).replace("-", " ").lower(), str(name))
                cid = str(name).lower() if re.fullmatch(r"skunk-\d+", str(name).lower()) else kind
                kind = "skunk" if cid.startswith("skunk") else kind
                if kind not in KINDS:
                    raise RuleError(f"{name!r} is not a creature; creatures: {', '.join(KINDS)} (skunk-2 ... "
                                    "for a further Skunk)")
                if cid != kind:
                    zs.next_skunk = max(zs.next_skunk, int(cid.split("-")[1]) + 1)
                zs.creatures = [c for c in zs.creatures if c.id != cid]
                zs.creatures.append(Creature(cid, kind, square.number,
                                             int(health if health is not None else _params(state)["start_health"])))
        else:
            return False
        return True

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "fake_ids":
            return False
        if int(value):
            self.of(state).fake_ids[player.name] = int(value)
        else:
            self.of(state).fake_ids.pop(player.name, None)
        return True

    # -- the update ------------------------------------------------------------------------
    def on_update_start(self, ctx: UpdateContext) -> None:
        """A player still passed out (the Skunk's spray with ``passed_out_updates``, a pogo stick in
        glue) takes no voluntary action in this update."""
        from admin.games.nomopoly2.mechanics.shared import has_condition

        for player in ctx.state.active_players():
            if has_condition(ctx.state, player.name, "passed-out"):
                ctx.barred.add(player.name)
        if ctx.slot.index == 0 and HOUSE_OF_CARDS.on(ctx.state):  # a week begins: anthrax (XXIV.2)
            loss = int(ctx.params("house-of-cards")["anthrax_weekly_health"])
            for c in [c for c in sorted(self.of(ctx.state).creatures, key=lambda c: c.id) if c.infected]:
                change_creature_health(ctx, c, -loss, rule="XXIV.2", reason="anthrax, at the start of the week")

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        zs = self.of(ctx.state)
        if square.number == int(ctx.params(self.name)["zoo_square"]):
            zs.spawn_rights[player.name] = ctx.state.update
            ctx.emit("zoo", f"{player.name} landed on the Zoo and may spawn a creature (SPAWN <creature> in "
                            "the next mail).", player=player.name, rule="XIX.2")
        if square.number in zs.peels:
            slip_player(ctx, player, square.number)

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.of(ctx.state).spawn_rights.pop(player.name, None)

    def on_turns(self, ctx: UpdateContext) -> None:
        """After the players' turns (the turns module runs before this optional one): the creatures."""
        move_creatures(ctx)

    def on_action(self, ctx: UpdateContext, player: Player, command: Any) -> None:
        """A changed vote keeps the Fake IDs used on it (cast_vote writes the weight afresh)."""
        if getattr(command, "cmd", None) != "vote":
            return
        extra = self.of(ctx.state).fake_votes.get(player.name, []).count(command.proposal)
        proposal = ctx.state.proposal(command.proposal)
        if extra and proposal is not None and player.name in proposal.votes:
            proposal.votes[player.name].weight += extra

    def on_update_end(self, ctx: UpdateContext) -> None:
        zs, now = self.of(ctx.state), ctx.state.update
        zs.spawn_rights = {p: u for p, u in zs.spawn_rights.items() if u >= now}
        zs.offers = [o for o in zs.offers if o.update >= now]
        for name in sorted(zs.fake_votes):
            kept = [n for n in zs.fake_votes[name]
                    if (p := ctx.state.proposal(n)) is not None and p.status in ("open", "voting")]
            if kept:
                zs.fake_votes[name] = kept
            else:
                del zs.fake_votes[name]

    # -- the Bison's offers (interactions) ---------------------------------------------------
    def check_answer(self, ctx: UpdateContext, interaction: Interaction, player: Player, value: Any) -> Any:
        if str(value).lower() == "decline":
            return "decline"
        raise IllegalAction(f"to ride, write RIDE BISON TO <square> (XIX.3); DECLINE {interaction.id} "
                            "says no")

    def resolve_interaction(self, ctx: UpdateContext, interaction: Interaction, answers: dict[str, Any]) -> str:
        rides = [f"{p} rode to square {a.split()[-1]}" for p, a in sorted(answers.items())
                 if str(a).startswith("ride")]
        who = title_of(ctx.state, str(interaction.payload.get("creature", "bison")))
        return "; ".join(rides) if rides else f"nobody rode {who}"

    # -- how it shows ----------------------------------------------------------------------
    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        zs = self.of(state)
        here = [c for c in zs.creatures if c.square == square.number]
        facts = [Fact("creatures", {c.id: c.health for c in here}), Fact("banana_peel", square.number in zs.peels)]
        if square.number == int(_params(state)["zoo_square"]):
            facts.append(Fact("zoo", True))
        return facts

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        zs = self.of(state)
        flags = [(70, BADGES[c.kind], f"{title(c)} ({c.health} health)")
                 for c in zs.creatures if c.square == square.number]
        if square.number in zs.peels:
            flags.append((75, "PEEL", "a banana peel"))
        notes = [(o, long) for o, _, long in flags]
        if square.number == int(_params(state)["zoo_square"]):
            notes.insert(0, (69, "the Zoo"))
            flags.insert(0, (69, "ZOO", "the Zoo"))
        if not flags:
            return None
        return SquareLook(notes=tuple(notes), flags=tuple(flags))

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        n = self.of(state).fake_ids.get(player.name, 0)
        return [Fact("fake_ids", n, label="Fake IDs" if n else None, order=65)]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        zs, out = self.of(state), []
        if player.name in zs.spawn_rights:
            out.append((66, "  You landed on the Zoo: you may SPAWN a creature in your next mail (GORILLA, "
                            "ELEPHANT, BISON, SKUNK or JELLY DOG) (XIX.2)."))
        for offer in zs.offers:
            if player.name in offer.players:
                out.append((67, f"  {cap(title_of(state, offer.creature))} landed on your square "
                                f"{offer.square}: you may ride it to any square with RIDE BISON TO <square> "
                                f"in your next mail (#{offer.interaction}) (XIX.3)."))
        if zs.fake_ids.get(player.name):
            out.append((68, f"  Fake IDs: {zs.fake_ids[player.name]} (USE FAKE ID ON <proposal> after your vote)"))
        return out

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        n = self.of(state).fake_ids.get(player.name, 0)
        return [(65, f", {n} Fake ID{'s' if n != 1 else ''}")] if n else []

    def panels(self, state: GameState) -> list[Panel]:
        zs, p = self.of(state), _params(state)
        rows = tuple((cap(title(c)[4:]) if title(c).startswith("the ") else title(c), c.square, c.health)
                     for c in sorted(zs.creatures, key=lambda c: (KINDS.index(c.kind), c.id)))
        intro = (f"The Zoo is square {p['zoo_square']}; nobody may own it (XIX.1). A player who lands there "
                 "may spawn one creature (SPAWN GORILLA, ELEPHANT, BISON, SKUNK or JELLY DOG), one of each at a "
                 f"time (XIX.2). Creatures start with {p['start_health']} health and leave the board at 0 (XIX.4); "
                 "they move after the players, in a random order (XIX.5): the Gorilla and the Elephant on "
                 f"{p['weekly_slot']}s, the MTS Bison, the Skunk and the Blinking Jelly Dog every update. "
                 f"A banana peel costs whoever lands on it {p['peel_health_loss']} health and a jump to a "
                 "random square.")
        peels = ", ".join(map(str, zs.peels)) or "none"
        return [Panel("zoo", "The Zoo", intro,
                      (Table("The creatures on the board", ("Creature", "Square", "Health"), rows),
                       Table("Banana peels", ("Squares",), ((peels,),))), order=19)]


# -- commands ------------------------------------------------------------------------------
def spawn(ctx: UpdateContext, player: Player, cmd: Spawn) -> str:
    zs, p = ZooModule.of(ctx.state), ctx.params(ZooModule.name)
    zoo = int(p["zoo_square"])
    if player.name not in zs.spawn_rights:
        raise IllegalAction(f"only a player who landed on the Zoo (square {zoo}) may spawn a creature, in "
                            "the mail after landing (XIX.2)")
    square = ctx.state.square(zoo)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no Zoo: square {zoo} is not on the board (XIX.1)")
    if any(c.kind == cmd.creature for c in zs.creatures):
        there = [c for c in zs.creatures if c.kind == cmd.creature][0]
        raise IllegalAction(f"{TITLES[cmd.creature]} is on the board already (square {there.square}); only "
                            "one of each creature at a time (XIX.2); spawn another kind")
    del zs.spawn_rights[player.name]
    zs.creatures.append(Creature(cmd.creature, cmd.creature, zoo, int(p["start_health"])))
    return f"{player.name} spawned {TITLES[cmd.creature]} on the Zoo (square {zoo})."


def ride_bison(ctx: UpdateContext, player: Player, cmd: RideBison) -> str:
    from admin.engine.interactions import answer
    from admin.engine.movement import jump
    from admin.library.interactions import InteractionsModule

    zs = ZooModule.of(ctx.state)
    offer = next((o for o in zs.offers if player.name in o.players and o.update == ctx.state.update - 1), None)
    if offer is None:
        raise IllegalAction("only a player the MTS Bison landed on in the last update may ride it (XIX.3); "
                            "it has landed on no square of yours")
    rides = ZOO_RIDES.of(ctx)
    if player.name in rides:
        raise IllegalAction("you rode the MTS Bison already in this update; once an update (XIX.3)")
    creature = find(ctx.state, offer.creature)
    if creature is None or creature.square != offer.square:
        where = "has left the board" if creature is None else f"has moved on to square {creature.square}"
        raise IllegalAction(f"{TITLES.get(offer.creature, offer.creature)} {where}; there is nothing to ride")
    if player.square != offer.square:
        raise IllegalAction(f"you are on square {player.square}, not on square {offer.square} with "
                            f"{title(creature)}")
    target = ctx.state.square(cmd.square)
    if target is None or target.destroyed:
        raise IllegalAction(f"there is no square {cmd.square} on the board; choose one of "
                            f"{live_numbers(ctx.state)[0]}-{live_numbers(ctx.state)[-1]}")
    rides.add(player.name)
    inters = InteractionsModule.of(ctx.state)
    if any(i.id == offer.interaction for i in inters.open):
        answer(inters, InteractionsModule.private_of(ctx.state), player.name, offer.interaction,
               f"ride to {cmd.square}")
    start = player.square
    jump(ctx, player, cmd.square, rule="XIX.3", reason=f"riding {title(creature)}")
    land_creature(ctx, creature, cmd.square, how=f"jumped, carrying {player.name},", rule="XIX.3")
    return f"{player.name} rode {title(creature)} from square {start} to square {cmd.square}."


def use_fake_id(ctx: UpdateContext, player: Player, cmd: UseFakeId) -> str:
    zs = ZooModule.of(ctx.state)
    if not zs.fake_ids.get(player.name):
        raise IllegalAction("you hold no Fake ID; the Skunk gives them out on a Legislative Building (XIX.3)")
    proposal = ctx.state.proposal(cmd.proposal)
    if proposal is None or proposal.status != "voting":
        raise IllegalAction(f"proposal {cmd.proposal} is not open for voting; a Fake ID adds a vote to a "
                            "proposal being voted on (XIX.3)")
    vote = proposal.votes.get(player.name)
    if vote is None:
        raise IllegalAction(f"you have not voted on proposal {cmd.proposal}; send VOTE {cmd.proposal} "
                            f"YES or NO first, then USE FAKE ID ON {cmd.proposal} (XIX.3)")
    vote.weight += 1
    zs.fake_ids[player.name] -= 1
    if not zs.fake_ids[player.name]:
        del zs.fake_ids[player.name]
    zs.fake_votes.setdefault(player.name, []).append(cmd.proposal)
    return (f"{player.name} used a Fake ID: one more {vote.choice.upper()} vote on proposal {cmd.proposal} "
            f"({vote.weight} in all).")
