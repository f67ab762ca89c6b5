"""The benchmark's mail and the Admin's rulings for the Teams and Government variant (``--game nomoteams``).

In this variant players never vote and turns come only from proposals the Admin judges (IX), so
the shared workload's Nomopoly II mail (VOTE, PLACE, BURY ...) would leave the game standing
still. Here every player's email is drawn from her situation in the state before the update:

- buying the square she stands on when nobody owns it (VIII.4), naming her unnamed squares
  (VIII.3), painting them a Corporate Colour (XIII.3), Government Issue Paint bought and poured
  (XIII.4), glue and grease (XIII.11-12);
- Easy Moves (WALK FORWARD/BACK, a TAXI to a square, XXI), REGISTER TO VOTE and sealed bids on
  The Government's lots (X.4, X.5);
- Products bought and used (an Eye Opener, a V-8, Fake Vomit, XIX), Dues to the WETHA and trees
  (XXVIII), bids for the jobs on offer (XXXII);
- accusations (XXVII) and the parties' choice of a Court or a Trial, STATUS;
- ``proposals_per_week`` PROPOSE blocks a week (IX.1).

And the Admin's part, queued before each update exactly as ``nomopoly ruling decide ...`` queues
it (:func:`admin.jobs.update.queue_ruling`, checked on the game as it will stand): a ``judge`` ruling for
every proposal waiting for judgement, every player's first undecided proposal before any second
(IX.7), about two in three accepted, some rejected as a complete waste of time; a ``dispute``
ruling for each dispute in the Government Court; a new ``job`` every thirteen weeks.

Everything is drawn from ``random.Random(f"{seed}/{update}")`` (a separate stream for the
rulings), so the same spec gives the same bytes. The shared workload calls :func:`emails_for` and
:func:`queue_rulings` when ``Spec.game`` is ``nomoteams``.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from admin.jobs import update as jobs
from admin.engine.events import Ruling
from admin.store.gamedir import GameDir
from admin.games.nomoteams.mechanics.disputes.mechanic import DisputesModule
from admin.games.nomoteams.mechanics.government import GovernmentModule
from admin.games.nomoteams.mechanics.labor import LaborModule
from admin.games.nomoteams.mechanics.ownership.mechanic import TeamsOwnershipModule
from admin.games.nomoteams.mechanics.proposals import ranks, undecided
from admin.games.nomoteams.mechanics.shared import balance, market_value, owner_of
from admin.engine.model import GameState
from bench.spec import START, STREETS, WORDS, Spec, cutoff, message

GAME = "nomoteams"
CORPORATE = ("Red", "Orange", "Yellow", "Green", "Blue", "Indigo")
GOVERNMENT_PAINT = ("Maroon", "Khaki", "Navy", "Teal", "Lime", "Fuschia")
PRODUCTS = ("Eye Opener", "V-8", "Fake Vomit", "Hot Spring Bath")
CHARGES = ("he parked on my square", "she never paid the rent she owed", "he painted my square",
           "she walked through my garden", "he sold me a broken Warp Bubble")
JOBS = ("Dog Catcher", "Square Inspector", "Paint Mixer", "Tree Surgeon", "Auctioneer", "Court Clerk")


def emails_for(state: GameState, spec: Spec, update: int) -> list[tuple[datetime, bytes]]:
    """The (received time, raw message) of every email of ``update``, from the state before it."""
    rng = random.Random(f"{spec.seed}/{update}")
    start = cutoff(update - 1) if update > 1 else START - timedelta(days=1)
    window = int((cutoff(update) - start).total_seconds())
    names = sorted(n for n, p in state.players.items() if p.active)
    proposers = set(rng.sample(names, min(spec.proposals_per_week, len(names))))
    rule_ids = [r.id for r in state.rules.rules()] if state.rules else []
    sections = sorted({i.split(".")[0] for i in rule_ids}) or ["II"]
    world = _World.of(state)
    out = []
    for name in names:
        lines = _commands(rng, state, world, name, rng.randint(1, 5))
        if name in proposers:
            lines += _proposal(rng, rule_ids, sections)
        received = start + timedelta(seconds=rng.randint(1, window))
        out.append((received, message(name, update, spec.seed, received, lines, rng)))
    out.sort(key=lambda m: m[0])
    return out


class _World:
    """What every player's mail is drawn from, read once per update."""

    def __init__(self, state: GameState) -> None:
        self.squares = [s.number for s in state.live_squares()]
        self.owned: dict[str, list[int]] = {}
        self.named: set[int] = set()
        for sq in state.live_squares():
            owner = owner_of(state, sq.number)
            if owner:
                self.owned.setdefault(owner, []).append(sq.number)
            if sq.name:
                self.named.add(sq.number)
        gov = GovernmentModule.of(state)
        self.registered = set(gov.registered)
        self.lots = [lot.square for lot in gov.lots if lot.square and lot.stage in ("Going Once", "Going Twice")]
        self.jobs = [j.name for j in LaborModule.of(state).jobs if not j.holder and j.offer]
        self.disputes = [d for d in DisputesModule.of(state).disputes if d.status == "open"]
        self.players = sorted(n for n, p in state.players.items() if p.active)
        self.may_buy: dict[str, list[int]] = {}
        for right in TeamsOwnershipModule.of(state).buy_rights:
            self.may_buy.setdefault(right.player, []).append(right.square)

    @classmethod
    def of(cls, state: GameState) -> _World:
        return cls(state)


def _commands(rng: random.Random, state: GameState, world: _World, name: str, count: int) -> list[str]:
    player = state.players[name]
    here, money = player.square, balance(state, name)
    mine = world.owned.get(name, [])
    lines: list[str] = []
    for d in world.disputes:  # a party to a dispute chooses how it is settled, now and then
        if name in (d.accuser, d.defendant) and name not in d.choices and rng.random() < 0.7:
            lines.append(f"DISPUTE {d.number} {'TRIAL' if rng.random() < 0.8 else 'COURT'}")
    if world.may_buy.get(name) and rng.random() < 0.8:  # VIII.4: until her next turn
        lines.append("BUY" if rng.random() < 0.7 else f"BUY {rng.choice(world.may_buy[name])}")
    while len(lines) < count:
        kind = rng.choice(("NAME", "NAME", "PAINT", "GOVPAINT", "MOVE", "MOVE", "TAXI", "VOTER", "BID", "PRODUCT",
                           "DUES", "TREE", "JOB", "ACCUSE", "GLUE", "STATUS"))
        if kind == "NAME":
            unnamed = [n for n in mine if n not in world.named]
            if not unnamed and rng.random() < 0.9:
                continue
            target = rng.choice(unnamed) if unnamed and rng.random() < 0.9 else rng.choice(world.squares)
            lines.append(f"NAME SQUARE {target} {rng.choice(_streets())} {rng.randint(1, 99)}")
        elif kind == "PAINT":
            target = rng.choice(mine) if mine else here
            lines.append(f"PAINT {target} {rng.choice(CORPORATE)}")
        elif kind == "GOVPAINT":
            colour = rng.choice(GOVERNMENT_PAINT)
            lines += [f"BUY PAINT {colour}", f"POUR PAINT {colour}"] if money > 400 else [f"BUY PAINT {colour}"]
        elif kind == "MOVE":
            lines.append(rng.choice(("WALK FORWARD", "WALK BACK")))
            if money > 300 and rng.random() < 0.4:  # buy where the walk lands, if nobody owns it
                lines.append("BUY")
        elif kind == "TAXI":
            lines.append(f"TAXI! {rng.choice(world.squares)}")
        elif kind == "VOTER":
            if name in world.registered or money < 300:
                lines.append("STATUS")
            else:
                lines.append("REGISTER TO VOTE")
        elif kind == "BID":
            if world.lots:
                lot = rng.choice(world.lots)
                bid = market_value(state, lot) // 2 + rng.randint(1, 60)
                lines.append(f"BID {bid} ON {lot}")
            else:
                lines.append("STATUS")
        elif kind == "PRODUCT":
            product = rng.choice(PRODUCTS)
            lines.append(f"PURCHASE {product}")
            if product == "Eye Opener":
                lines.append("DRINK EYE OPENER")
            elif product == "V-8" and rng.random() < 0.5:
                lines.append("DRINK V-8")
            elif product == "Fake Vomit" and rng.random() < 0.3:
                lines.append("DROP FAKE VOMIT")
        elif kind == "DUES":
            lines.append(f"PAY DUES {rng.randint(1, 20)}")
        elif kind == "TREE":
            lines.append(f"PLANT TREE ON {rng.choice(mine) if mine and rng.random() < 0.7 else rng.choice(world.squares)}")
        elif kind == "JOB":
            if world.jobs:
                lines.append(f"BID JOB {rng.choice(world.jobs)} {rng.randint(10, 200)}")
            else:
                lines.append("STATUS")
        elif kind == "ACCUSE":
            if rng.random() < 0.15:  # about 1 command in 100: some six accusations a week among 200
                other = rng.choice(world.players)
                amount = rng.choice((10, 20, 50))
                lines.append(f"ACCUSE {other} PENALTY PAY {amount}: {rng.choice(CHARGES)}")
            else:
                lines.append("STATUS")
        elif kind == "GLUE":
            lines.append(f"GLUE {rng.choice(mine)}" if mine and money > 600 else "STATUS")
        else:
            lines.append("STATUS")
    return lines


def _proposal(rng: random.Random, rule_ids: list[str], sections: list[str]) -> list[str]:
    """A PROPOSE block (IX.1): ADD RULE to one of the game's sections, or AMEND one of its rules."""
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 30)))
    title = " ".join(rng.choice(WORDS) for _ in range(3)).capitalize()
    if rule_ids and rng.random() < 0.3:
        directive = f"AMEND {rng.choice(rule_ids)}: A {words}."
    else:
        directive = f"ADD RULE {rng.choice(sections)}: A {words}."
    return [f"PROPOSE {title}", f"Because the {rng.choice(WORDS)} needs it.", "", directive, "END"]


def _streets() -> tuple[str, ...]:
    return STREETS


# -- the Admin's rulings --------------------------------------------------------------------------
def rulings_for(state: GameState, spec: Spec, update: int) -> list[Ruling]:
    """The Admin's rulings for ``update``, from the state before it: every proposal waiting for
    judgement judged (IX.7's order: each player's first undecided before any second), the
    Government Court's disputes decided, a job offered every thirteen weeks."""
    rng = random.Random(f"{spec.seed}/{update}/admin")
    out: list[Ruling] = []
    rank = ranks(state)
    for p in sorted(undecided(state), key=lambda p: (rank[p.number], p.number)):
        roll = rng.random()
        if roll < 0.65:
            args = {"proposal": p.number, "verdict": "accept", **({"simplifies": True} if roll < 0.1 else {})}
            reason = "a fair change to the rules"
        elif roll < 0.9:
            args, reason = {"proposal": p.number, "verdict": "reject"}, "it would not work as written"
        else:
            args, reason = {"proposal": p.number, "verdict": "reject", "waste": True}, "a complete waste of time"
        out.append(Ruling("judge", args, reason))
    for d in DisputesModule.of(state).disputes:
        if d.status == "court":
            winner = d.accuser if rng.random() < 0.5 else d.defendant
            out.append(Ruling("dispute", {"dispute": d.number, "winner": winner}, "the better argument"))
    if update % 13 == 1:
        name = f"{JOBS[(update // 13) % len(JOBS)]} {update // 13 + 1}"
        employer = "Government" if (update // 13) % 2 == 0 else "Corporation"
        out.append(Ruling("job", {"name": name, "employer": employer, "pay": "$20 a week"}, "an accepted proposal"))
    return out


def queue_rulings(game: GameDir, spec: Spec) -> int:
    """Queue the next update's rulings as ``nomopoly ruling decide ...`` does; how many."""
    state = game.load()
    rulings = rulings_for(state, spec, state.update + 1)
    for ruling in rulings:
        jobs.queue_ruling(game, ruling)
    return len(rulings)


__all__ = ["GAME", "emails_for", "queue_rulings", "rulings_for"]
