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
docs/rulings.md."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from admin.engine.board import live_numbers, step, successor
from admin.engine.commands import command_type
from admin.engine.module import CommandSpec, Fact, Mechanic, Panel, SquareLook, Table
from admin.engine.syntax import parse_proposal, parse_square
from admin.errors import CommandError, IllegalAction, RuleError
from admin.model import Player

#: the creatures of XIX.3, by the name the state keeps
KINDS = ("gorilla", "elephant", "bison", "skunk", "jelly-dog")
TITLES = {"gorilla": "the Gorilla", "elephant": "the Elephant", "bison": "the MTS Bison",
          "skunk": "the Skunk", "jelly-dog": "the Blinking Jelly Dog"}
#: the board picture's badge for each
BADGES = {"gorilla": "GOR", "elephant": "ELE", "bison": "BIS", "skunk": "SKU", "jelly-dog": "BJD"}
_ALIASES = {"gorilla": "gorilla", "elephant": "elephant", "bison": "bison", "mts bison": "bison",
            "skunk": "skunk", "jelly dog": "jelly-dog", "jelly-dog": "jelly-dog", "jellydog": "jelly-dog",
            "blinking jelly dog": "jelly-dog", "blinking jelly-dog": "jelly-dog"}
#: what the Blinking Jelly Dog may act as (XIX.3: any creature but itself)
JELLY_ROLES = ("gorilla", "elephant", "bison", "skunk")


@dataclass
class Creature:
    #: its name on the board: the kind, or "skunk-2" ... for a further Skunk (the Zoo's exception)
    id: str
    kind: str
    square: int
    health: int = 100
    #: infected with anthrax (XXIV.2: it may be used on a creature): loses health each week until
    #: it lands on the House of Cards
    infected: bool = False


@dataclass
class RideOffer:
    """Players a Bison (or the Jelly Dog acting as one) landed on, who may ride it next update."""

    creature: str
    square: int
    players: list[str] = field(default_factory=list)
    #: the update it landed in; the ride is taken in the next one
    update: int = 0
    #: the interactions facility's question (#n), answered by RIDE BISON TO <n> or DECLINE <n>
    interaction: int = 0


@dataclass
class ZooState:
    creatures: list[Creature] = field(default_factory=list)
    #: squares with a banana peel (one a square at most)
    peels: list[int] = field(default_factory=list)
    #: player -> the update they last landed on the Zoo (they may SPAWN in the next update's mail)
    spawn_rights: dict[str, int] = field(default_factory=dict)
    offers: list[RideOffer] = field(default_factory=list)
    #: player -> Fake IDs held, unused (the Skunk on a Legislative Building)
    fake_ids: dict[str, int] = field(default_factory=dict)
    #: player -> the proposals they used a Fake ID on (one number per ID), while voting is open
    fake_votes: dict[str, list[int]] = field(default_factory=dict)
    #: the number of the next extra Skunk (skunk-2, skunk-3 ...)
    next_skunk: int = 2


@command_type
@dataclass(frozen=True)
class Spawn:
    """``SPAWN <creature>`` (XIX.2)."""

    creature: str
    cmd: ClassVar[str] = "spawn"


@command_type
@dataclass(frozen=True)
class RideBison:
    """``RIDE BISON TO <square>`` (XIX.3, the MTS Bison)."""

    square: int
    cmd: ClassVar[str] = "ride-bison"


@command_type
@dataclass(frozen=True)
class UseFakeId:
    """``USE FAKE ID ON <proposal>`` (XIX.3, the Legislative Building)."""

    proposal: int
    cmd: ClassVar[str] = "use-fake-id"


def parse_creature(text: str) -> str:
    words = re.sub(r"^(an?|the)\s+", "", text.strip().rstrip(".!").lower())
    words = re.sub(r"\s+", " ", words)
    if words not in _ALIASES:
        raise CommandError(f'"{text.strip()}" is not a creature of the Zoo; write one of GORILLA, '
                           "ELEPHANT, BISON, SKUNK or JELLY DOG, like SPAWN SKUNK.")
    return _ALIASES[words]


def _parse_spawn(rest: str, line: object) -> Spawn:
    return Spawn(parse_creature(rest))


def _parse_ride(rest: str, line: object) -> RideBison:
    return RideBison(parse_square(re.sub(r"^to\s+", "", rest.strip(), flags=re.IGNORECASE)))


def _parse_fake(rest: str, line: object) -> UseFakeId:
    m = re.fullmatch(r"id\s+(?:on\s+)?(.+)", rest.strip(), flags=re.IGNORECASE)
    if not m:
        raise CommandError("write USE FAKE ID ON <proposal>, like USE FAKE ID ON 7.")
    return UseFakeId(parse_proposal(m.group(1)))


class ZooModule(Mechanic[ZooState, None]):
    name = "zoo"
    rules = ("XIX.1", "XIX.2", "XIX.3", "XIX.4", "XIX.5")
    defaults = {
        "zoo_square": 51,
        "start_health": 100,
        # the Gorilla and the Elephant move in the update of this schedule slot only (XIX.3)
        "weekly_slot": "Sunday",
        "gorilla_die": 10, "peel_percent": 50, "peel_health_loss": 10,
        "elephant_trample_loss": 15,
        # the Elephant rolls again at most this many times for a possible direction
        "elephant_rerolls": 100,
        "bison_dice": 2, "bison_sides": 6,
        "skunk_dice_sides": 3,
        # landings of one creature in a row (a slip, the Bison sending the Skunk ...) before it stops
        "max_chain": 12,
        # the Skunk's effects (zoo_skunk.py)
        "hospital_health_gain": 20, "spray_health_loss": 15,
        # a player who passes out (sprayed, or a pogo stick in glue: shared.pass_out) loses
        # spray_health_loss and stays passed out for this many updates after the current one
        "passed_out_updates": 0,
        "crazy_elephant_turns": 15, "gorilla_peels": 7, "bison_sends_loss": 20,
        "railroad_payout": 500, "credit_raise_percent": 50,
        # the Corporate Headquarters' "property tax": the sum of the numbers of one's squares, or of
        # what one paid for them (the list price, 25 x n, where nothing was paid)
        "property_tax": "numbers",
    }
    minimums = {"zoo_square": 1, "start_health": 1, "gorilla_die": 1, "peel_percent": 0,
                "elephant_rerolls": 1, "bison_dice": 1, "bison_sides": 1, "skunk_dice_sides": 1,
                "max_chain": 1, "passed_out_updates": 0, "crazy_elephant_turns": 0, "gorilla_peels": 0}
    choices = {"property_tax": ("numbers", "prices")}
    summary = ("The Zoo on square 51: land there to spawn a creature; the Gorilla, Elephant, MTS Bison, "
               "Skunk and Blinking Jelly Dog then roam the board on their own.")
    State = ZooState
    #: the Joker has no section of its own: XIX.3 defines it (the Skunk on the House of Cards)
    requires = ("board", "ownership", "health", "interactions", "conditions", "jokers")
    #: a banana peel's slip comes after the landing's own effects (on_land; docs/rulings.md)
    runs_after = ("blackjack", "blocks", "buildings", "house-of-cards", "transport", "bingo")

    def commands(self):
        return (CommandSpec("SPAWN", Spawn, spawn, _parse_spawn, "SPAWN <creature>", listing=130,
                            summary="after landing on the Zoo, bring out a Gorilla, Elephant, Bison, "
                                    "Skunk or Jelly Dog", example="SPAWN SKUNK", rules=("XIX.2",)),
                CommandSpec("RIDE BISON", RideBison, ride_bison, _parse_ride, "RIDE BISON TO <square>",
                            listing=131, summary="hop on the MTS Bison that landed on your square and "
                                                 "jump together to any square", example="RIDE BISON TO 45",
                            rules=("XIX.3",)),
                CommandSpec("USE FAKE", UseFakeId, use_fake_id, _parse_fake, "USE FAKE ID ON <proposal>",
                            listing=132, summary="add one vote to your vote on a proposal (after your VOTE)",
                            example="USE FAKE ID ON 7", rules=("XIX.3",)))

    # -- lives of players and squares ----------------------------------------------------
    def on_player_removed(self, state, player) -> None:
        zs = self.of(state)
        zs.spawn_rights.pop(player.name, None)
        zs.fake_ids.pop(player.name, None)
        zs.fake_votes.pop(player.name, None)
        for offer in zs.offers:
            offer.players = [p for p in offer.players if p != player.name]

    def on_square_added(self, state, square) -> None:
        """A destroyed square takes its peel with it; its creatures go to the lowest square, as
        players do (a new square has neither)."""
        zs = self.of(state)
        zs.peels = [n for n in zs.peels if n != square.number]
        if square.destroyed and live_numbers(state):
            for c in zs.creatures:
                if c.square == square.number:
                    c.square = live_numbers(state)[0]

    def can_own(self, state, square) -> bool:
        return square.number != int(_params(state)["zoo_square"])

    def set_square(self, state, square, key, value) -> bool:
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

    def set_player(self, state, player, key, value) -> bool:
        if key != "fake_ids":
            return False
        if int(value):
            self.of(state).fake_ids[player.name] = int(value)
        else:
            self.of(state).fake_ids.pop(player.name, None)
        return True

    # -- the update ------------------------------------------------------------------------
    def on_update_start(self, ctx) -> None:
        """A player still passed out (the Skunk's spray with ``passed_out_updates``, a pogo stick in
        glue) takes no voluntary action in this update."""
        from admin.mechanics.nomopoly2.shared import has_condition

        for player in ctx.state.active_players():
            if has_condition(ctx.state, player.name, "passed-out"):
                ctx.barred.add(player.name)
        if ctx.slot.index == 0 and ctx.state.enabled("house-of-cards"):  # a week begins: anthrax (XXIV.2)
            loss = int(ctx.params("house-of-cards")["anthrax_weekly_health"])
            for c in [c for c in sorted(self.of(ctx.state).creatures, key=lambda c: c.id) if c.infected]:
                change_creature_health(ctx, c, -loss, rule="XXIV.2", reason="anthrax, at the start of the week")

    def on_land(self, ctx, player, square) -> None:
        zs = self.of(ctx.state)
        if square.number == int(ctx.params(self.name)["zoo_square"]):
            zs.spawn_rights[player.name] = ctx.state.update
            ctx.emit("zoo", f"{player.name} landed on the Zoo and may spawn a creature (SPAWN <creature> in "
                            "the next mail).", player=player.name, rule="XIX.2")
        if square.number in zs.peels:
            slip_player(ctx, player, square.number)

    def on_player_reset(self, ctx, player) -> None:
        self.of(ctx.state).spawn_rights.pop(player.name, None)

    def on_turns(self, ctx) -> None:
        """After the players' turns (the turns module runs before this optional one): the creatures."""
        move_creatures(ctx)

    def on_action(self, ctx, player, command) -> None:
        """A changed vote keeps the Fake IDs used on it (cast_vote writes the weight afresh)."""
        if getattr(command, "cmd", None) != "vote":
            return
        extra = self.of(ctx.state).fake_votes.get(player.name, []).count(command.proposal)
        proposal = ctx.state.proposal(command.proposal)
        if extra and proposal is not None and player.name in proposal.votes:
            proposal.votes[player.name].weight += extra

    def on_update_end(self, ctx) -> None:
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
    def check_answer(self, ctx, interaction, player, value) -> Any:
        if str(value).lower() == "decline":
            return "decline"
        raise IllegalAction(f"to ride, write RIDE BISON TO <square> (XIX.3); DECLINE {interaction.id} "
                            "says no")

    def resolve_interaction(self, ctx, interaction, answers) -> str:
        rides = [f"{p} rode to square {a.split()[-1]}" for p, a in sorted(answers.items())
                 if str(a).startswith("ride")]
        who = title_of(ctx.state, str(interaction.payload.get("creature", "bison")))
        return "; ".join(rides) if rides else f"nobody rode {who}"

    # -- how it shows ----------------------------------------------------------------------
    def square_facts(self, state, square) -> list[Fact]:
        zs = self.of(state)
        here = [c for c in zs.creatures if c.square == square.number]
        facts = [Fact("creatures", {c.id: c.health for c in here}), Fact("banana_peel", square.number in zs.peels)]
        if square.number == int(_params(state)["zoo_square"]):
            facts.append(Fact("zoo", True))
        return facts

    def square_look(self, state, square) -> SquareLook | None:
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

    def player_facts(self, state, player) -> list[Fact]:
        n = self.of(state).fake_ids.get(player.name, 0)
        return [Fact("fake_ids", n, label="Fake IDs" if n else None, order=65)]

    def results_lines(self, state, player) -> list[tuple[int, str]]:
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

    def status_parts(self, state, player) -> list[tuple[int, str]]:
        n = self.of(state).fake_ids.get(player.name, 0)
        return [(65, f", {n} Fake ID{'s' if n != 1 else ''}")] if n else []

    def panels(self, state) -> list[Panel]:
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


def _params(state) -> dict[str, Any]:
    return {**ZooModule.defaults, **state.params(ZooModule.name)}


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def title(c: Creature) -> str:
    if c.id != c.kind and c.kind == "skunk":
        return f"Skunk {c.id.split('-')[-1]}"
    return TITLES[c.kind]


def title_of(state, cid: str) -> str:
    c = find(state, cid)
    return title(c) if c is not None else TITLES.get(cid, cid)


def find(state, cid: str) -> Creature | None:
    return next((c for c in ZooModule.of(state).creatures if c.id == cid), None)


def creatures_on(state, number: int) -> list[Creature]:
    if not state.enabled(ZooModule.name):
        return []
    return [c for c in ZooModule.of(state).creatures if c.square == number]


def _label(ctx, purpose: str) -> str:
    """``zoo/<purpose>#<n>``: n counts the Zoo's rolls in the update (a scenario forces them by
    the prefix, ``zoo/skunk/up``)."""
    n = ctx.scratch["zoo-rolls"] = ctx.scratch.get("zoo-rolls", 0) + 1
    return f"zoo/{purpose}#{n}"


def _roll(ctx, purpose: str, sides: int) -> int:
    return ctx.dice.roll(_label(ctx, purpose), sides)


def random_square(ctx, purpose: str, among: list[int] | None = None) -> int | None:
    squares = live_numbers(ctx.state) if among is None else among
    if not squares:
        return None
    return squares[_roll(ctx, purpose, len(squares)) - 1]


# -- commands ------------------------------------------------------------------------------
def spawn(ctx, player: Player, cmd: Spawn) -> str:
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


def ride_bison(ctx, player: Player, cmd: RideBison) -> str:
    from admin.engine.interactions import answer
    from admin.engine.movement import jump
    from admin.mechanics.interactions import InteractionsModule

    zs = ZooModule.of(ctx.state)
    offer = next((o for o in zs.offers if player.name in o.players and o.update == ctx.state.update - 1), None)
    if offer is None:
        raise IllegalAction("only a player the MTS Bison landed on in the last update may ride it (XIX.3); "
                            "it has landed on no square of yours")
    rides = ctx.scratch.setdefault("zoo-rides", set())
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


def use_fake_id(ctx, player: Player, cmd: UseFakeId) -> str:
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


# -- creatures' health, landings and moves ---------------------------------------------------
def change_creature_health(ctx, c: Creature, delta: int, *, rule: str, reason: str) -> None:
    """XIX.4: a creature at 0 or less health leaves the board (and may be spawned again)."""
    if delta == 0 or find(ctx.state, c.id) is None:
        return
    c.health += delta
    ctx.emit("zoo", f"{cap(title(c))} {'gained' if delta > 0 else 'lost'} {abs(delta)} health "
                    f"({reason}); now {c.health}.", rule=rule, data={"creature": c.id, "delta": delta})
    if c.health <= 0:
        remove_creature(ctx, c, f"its health reached {c.health}")


def remove_creature(ctx, c: Creature, why: str) -> None:
    zs = ZooModule.of(ctx.state)
    zs.creatures = [x for x in zs.creatures if x.id != c.id]
    zs.offers = [o for o in zs.offers if o.creature != c.id]
    ctx.emit("zoo", f"{cap(title(c))} left the board ({why}).", rule="XIX.4", data={"creature": c.id})


def infect_creature(ctx, text: str) -> str | None:
    """Anthrax used on a creature (XXIV.2: allowed, and no atrocity): the creature named ``text``
    ("Elephant", "the Skunk", "Skunk 2") is infected; its name, or None when there is no such one."""
    words = re.sub(r"^the\s+", "", " ".join(text.lower().split()))
    numbered = re.fullmatch(r"skunk[ -](\d+)", words)
    cid = f"skunk-{numbered.group(1)}" if numbered else _ALIASES.get(words)
    c = find(ctx.state, cid) if cid else None
    if c is None:
        return None
    c.infected = True
    return title(c)


def hurt_creatures_on(ctx, square: int, delta: int, *, rule: str, reason: str) -> list[str]:
    """What happens to players on ``square`` happens to its creatures (XIX.4): another section's
    blast or poison calls this; returns the creatures' names."""
    hit = creatures_on(ctx.state, square)
    for c in hit:
        change_creature_health(ctx, c, delta, rule=rule, reason=reason)
    return [title(c) for c in hit]


def land_creature(ctx, c: Creature, number: int, *, how: str, rule: str, acts_as: str | None = None,
                  depth: int = 0) -> None:
    """The creature lands on ``number``: a polluted square hurts (VI.14, XIX.4), the Elephant
    tramples, the Skunk acts on what is there, and a banana peel makes it slip on."""
    if find(ctx.state, c.id) is None:
        return
    start, c.square = c.square, number
    ctx.emit("zoo", f"{cap(title(c))} {how} from square {start} to square {number}.", rule=rule,
             data={"creature": c.id, "from": start, "to": number})
    role = acts_as or c.kind
    if c.infected and ctx.state.enabled("house-of-cards") and number == int(ctx.params("house-of-cards")["square"]):
        c.infected = False
        ctx.emit("cured", f"{cap(title(c))} is cured of anthrax (landing on the House of Cards).", rule="XXIV.2")
    if ctx.state.enabled("board") and ctx.state.enabled("health"):
        from admin.mechanics.board import BoardModule

        if number in BoardModule.of(ctx.state).polluted:
            loss = int(ctx.params("health")["polluted_health_loss"])
            change_creature_health(ctx, c, -loss, rule="VI.14", reason=f"landing on polluted square {number}")
    if role == "elephant":
        trample(ctx, c, number)
    elif role == "skunk":
        from admin.mechanics.nomopoly2.zoo_skunk import skunk_lands

        skunk_lands(ctx, c, number, depth=depth)
    zs = ZooModule.of(ctx.state)
    if find(ctx.state, c.id) is None or c.square != number or number not in zs.peels:
        return
    zs.peels.remove(number)
    change_creature_health(ctx, c, -int(ctx.params(ZooModule.name)["peel_health_loss"]), rule="XIX.3",
                           reason=f"slipping on a banana peel on square {number}")
    if find(ctx.state, c.id) is None:
        return
    if depth + 1 >= int(ctx.params(ZooModule.name)["max_chain"]):
        ctx.emit("zoo", f"{cap(title(c))} stops on square {number}: {depth + 1} landings in a row.")
        return
    to = random_square(ctx, f"peel/{c.kind}")
    land_creature(ctx, c, to, how="slipped and jumped", rule="XIX.3", acts_as=acts_as, depth=depth + 1)


def slip_player(ctx, player: Player, number: int) -> None:
    from admin.engine.movement import jump
    from admin.mechanics.health import change_health

    zs = ZooModule.of(ctx.state)
    zs.peels.remove(number)
    change_health(ctx, player, -int(ctx.params(ZooModule.name)["peel_health_loss"]), rule="XIX.3",
                  reason=f"slipping on a banana peel on square {number}")
    if not player.active or player.square != number:
        return  # reset by the fall: back on square 1 already
    to = random_square(ctx, f"peel/{player.name}")
    jump(ctx, player, to, rule="XIX.3", reason="slipping on a banana peel")


def trample(ctx, elephant: Creature, number: int) -> None:
    from admin.mechanics.health import change_health

    loss = int(ctx.params(ZooModule.name)["elephant_trample_loss"])
    who = title(elephant)
    for player in sorted((p for p in ctx.state.active_players() if p.square == number), key=lambda p: p.name):
        change_health(ctx, player, -loss, rule="XIX.3", reason=f"trampled by {who}")
    for other in [c for c in creatures_on(ctx.state, number) if c.id != elephant.id]:
        change_creature_health(ctx, other, -loss, rule="XIX.3", reason=f"trampled by {who}")


def drop_peel(ctx, c: Creature) -> None:
    zs = ZooModule.of(ctx.state)
    if ctx.dice.chance(int(ctx.params(ZooModule.name)["peel_percent"]), 100, _label(ctx, "gorilla/peel")):
        if c.square not in zs.peels:
            zs.peels = sorted(zs.peels + [c.square])
        ctx.emit("zoo", f"{cap(title(c))} dropped a banana peel on square {c.square}.", rule="XIX.3")
    else:
        ctx.emit("zoo", f"{cap(title(c))} dropped no banana peel.", rule="XIX.3")


def offer_ride(ctx, c: Creature) -> None:
    from admin.mechanics.interactions import ask

    riders = sorted(p.name for p in ctx.state.active_players() if p.square == c.square)
    if not riders or find(ctx.state, c.id) is None:
        return
    inter = ask(ctx, kind="offer", module=ZooModule.name, parties=riders, silence="decline",
                payload={"creature": c.id, "square": c.square})
    ZooModule.of(ctx.state).offers.append(RideOffer(c.id, c.square, riders, ctx.state.update, inter.id))
    ctx.emit("zoo", f"{cap(title(c))} landed on {', '.join(riders)} on square {c.square}: "
                    f"they may ride it to any square next update "
                    f"(RIDE BISON TO <square>, #{inter.id}).", rule="XIX.3")


def move_ahead(ctx, c: Creature, dice: int, sides: int, *, acts_as: str | None = None) -> None:
    faces = [_roll(ctx, f"{c.kind}/d{i + 1}", sides) for i in range(dice)]
    here = c.square
    for _ in range(sum(faces)):
        here = successor(ctx.state, here)
    land_creature(ctx, c, here, how=f"rolled {' and '.join(map(str, faces))} and moved", rule="XIX.3",
                  acts_as=acts_as)


DIRECTIONS = {1: "north", 2: "south", 3: "east", 4: "west"}


def elephant_turn(ctx, c: Creature) -> None:
    """One move of the Elephant: a d4 for the direction, rolled again while it leads off the board."""
    p = ctx.params(ZooModule.name)
    columns = int(ctx.params("board").get("columns", 10))
    if not any(step(ctx.state, c.square, d, columns) for d in DIRECTIONS.values()):
        ctx.emit("zoo", f"{cap(title(c))} has nowhere to go from square {c.square}.", rule="XIX.3")
        return
    for _ in range(int(p["elephant_rerolls"])):
        face = _roll(ctx, "elephant/d4", 4)
        to = step(ctx.state, c.square, DIRECTIONS[face], columns)  # type: ignore[arg-type]
        if to is not None:
            land_creature(ctx, c, to, how=f"rolled {face} and went {DIRECTIONS[face]}", rule="XIX.3")
            return
        ctx.emit("zoo", f"{cap(title(c))} rolled {face}: no square lies {DIRECTIONS[face]} of "
                        f"square {c.square}; it rolls again.", rule="XIX.3")
    ctx.emit("zoo", f"{cap(title(c))} stays on square {c.square}: no possible direction in "
                    f"{p['elephant_rerolls']} rolls.", rule="XIX.3")


def move_creature(ctx, c: Creature) -> None:
    p = ctx.params(ZooModule.name)
    if c.kind == "gorilla":
        move_ahead(ctx, c, 1, int(p["gorilla_die"]))
        if find(ctx.state, c.id) is not None:
            drop_peel(ctx, c)
    elif c.kind == "elephant":
        elephant_turn(ctx, c)
    elif c.kind == "bison":
        move_ahead(ctx, c, int(p["bison_dice"]), int(p["bison_sides"]))
        offer_ride(ctx, c)
    elif c.kind == "skunk":
        from admin.mechanics.nomopoly2.zoo_skunk import skunk_move

        skunk_move(ctx, c)
    elif c.kind == "jelly-dog":
        to = random_square(ctx, "jelly-dog/square")
        role = JELLY_ROLES[_roll(ctx, "jelly-dog/as", len(JELLY_ROLES)) - 1]
        ctx.emit("zoo", f"The Blinking Jelly Dog blinks and acts as {TITLES[role]}.", rule="XIX.3",
                 data={"creature": c.id, "as": role})
        land_creature(ctx, c, to, how="blinked", rule="XIX.3", acts_as=role)
        if find(ctx.state, c.id) is None:
            return
        if role == "gorilla":
            drop_peel(ctx, c)
        elif role == "bison":
            offer_ride(ctx, c)


def move_creatures(ctx) -> None:
    """XIX.3, XIX.5: after the players' turns, every creature moves, in a random order; the Gorilla
    and the Elephant only in the weekly slot (Sunday)."""
    zs = ZooModule.of(ctx.state)
    if not zs.creatures:
        return
    ids = [c.id for c in zs.creatures]
    order = ctx.dice.shuffle(ids, "zoo/order") if len(ids) > 1 else ids
    weekly = ctx.slot.name == str(ctx.params(ZooModule.name)["weekly_slot"])
    if len(order) > 1:
        ctx.emit("zoo", "The creatures move in this order: " + ", ".join(title_of(ctx.state, i) for i in order)
                 + ".", rule="XIX.5", data={"order": order})
    for cid in order:
        c = find(ctx.state, cid)
        if c is None:
            continue
        if c.kind in ("gorilla", "elephant") and not weekly:
            continue
        move_creature(ctx, c)


def move_random_creature(ctx, square: int, rule: str) -> str | None:
    """A Pokeball (XXIV.2): a random creature jumps to ``square`` (and lands there); its name, or
    None when there is no creature on the board."""
    if not ctx.state.enabled(ZooModule.name):
        return None
    zs = ZooModule.of(ctx.state)
    if not zs.creatures:
        return None
    target = ctx.state.square(square)
    if target is None or target.destroyed:
        raise IllegalAction(f"there is no square {square} on the board to send a creature to")
    ordered = sorted(zs.creatures, key=lambda c: c.id)
    c = ordered[_roll(ctx, "pokeball", len(ordered)) - 1] if len(ordered) > 1 else ordered[0]
    name = title(c)
    land_creature(ctx, c, square, how="was sent by a Pokeball", rule=rule)
    return name
