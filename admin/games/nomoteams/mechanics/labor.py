"""XXXII: Labor. The Government and The Corporation offer jobs; players bid for a week (sealed,
like The Government's auctions); the highest bidder pays her bid to the employer and gets the
job (XXXII.1). A player quits with ``QUIT JOB``, and the job is offered again (XXXII.2); she holds
one job at most: winning a second quits the first (XXXII.3). The Government offers the Head
GIPPer (XXXII.4) and the Taxi Driver (XXXII.5): each is paid 75% of what The Government collects
for painting or gluing, or for a Taxi ride, and is transported to that square.

The sections that sell painting, gluing and Taxi rides call :func:`pay_for_service`: it takes the
payment (unless a 'Bot absorbs it, XIX.10), pays the job holder's share and moves her."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from admin.engine.declare import command, handled
from admin.engine.interactions import auction_winner
from admin.engine.module import CommandSpec, Mechanic, RulingHandler
from admin.engine.shows import Fact, Panel, Table
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, dollars

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling
    from admin.engine.model import GameState, Player

#: the jobs the rulebook has The Government offer, and the rule of each
STANDING_JOBS = {"Head GIPPer": "XXXII.4", "Taxi Driver": "XXXII.5"}


@dataclass
class Job:
    name: str
    employer: str = GOVERNMENT
    requirements: str = ""
    pay: str = ""
    perks: str = ""
    rule: str = "XXXII.1"
    #: who holds it ("" while it is offered)
    holder: str = ""
    #: the update its current offering was announced (0: not offered)
    offer: int = 0


@dataclass
class LaborState:
    jobs: list[Job] = field(default_factory=list)


@dataclass
class LaborPrivate:
    #: the sealed bids of each job on offer: job -> player -> amount
    bids: dict[str, dict[str, int]] = field(default_factory=dict)


def job_named(state: GameState, text: str) -> Job:
    key = re.sub(r"[^a-z0-9]", "", text.lower())
    jobs = LaborModule.of(state).jobs
    found = [j for j in jobs if re.sub(r"[^a-z0-9]", "", j.name.lower()) == key]
    if not found:
        raise IllegalAction(f"there is no job {text!r}; jobs: {', '.join(j.name for j in jobs) or 'none'}")
    return found[0]


def job_of(state: GameState, name: str) -> Job | None:
    """The job ``name`` holds (XXXII.3: one at most)."""
    if not state.enabled(LaborModule.name):
        return None
    return next((j for j in LaborModule.of(state).jobs if j.holder == name), None)


def holder_of(state: GameState, job: str) -> str | None:
    if not state.enabled(LaborModule.name):
        return None
    return next((j.holder for j in LaborModule.of(state).jobs if j.name == job and j.holder), None)


def offer(ctx: UpdateContext, job: Job) -> None:
    """Announce ``job`` and open a week of sealed bids (XXXII.1): they close at the end of the next
    update (the players read the offer, then bid)."""
    job.holder, job.offer = "", ctx.state.update
    LaborModule.private_of(ctx.state).bids[job.name] = {}
    details = "; ".join(f"{k}: {v}" for k, v in (("requirements", job.requirements), ("pay", job.pay),
                                                  ("perks", job.perks)) if v)
    ctx.emit("job", f"{job.employer} offers the job of {job.name}{': ' + details if details else ''}. Sealed bids "
                    f"(BID JOB {job.name.upper()} <amount>) until update {job.offer + 1}; the highest bidder pays it "
                    f"to {job.employer} and gets the job (XXXII.1).", rule="XXXII.1",
             data={"job": job.name, "until": job.offer + 1})


def bid_job(ctx: UpdateContext, player: Player, cmd: BidJob) -> str:
    job = job_named(ctx.state, cmd.job)
    if not job.offer:
        raise IllegalAction(f"the job of {job.name} is not offered now (it is {job.holder}'s)")
    amount = check_job_bid(player, cmd.amount, ctx)
    LaborModule.private_of(ctx.state).bids.setdefault(job.name, {})[player.name] = amount
    return (f"Your sealed bid of {ctx.state.money(amount)} for the job of {job.name} is recorded; nobody sees it "
            f"until the bids close at the end of update {job.offer + 1} (XXXII.1).")


def check_job_bid(player: Player, value: int, ctx: UpdateContext) -> int:
    amount = int(value)
    if amount < 1:
        raise IllegalAction("a bid for a job is $1 or more (a standing ruling)")
    if amount > player.money:
        raise IllegalAction(f"you bid {ctx.state.money(amount)} and have {ctx.state.money(player.money)}")
    return amount


def close_offer(ctx: UpdateContext, job: Job) -> None:
    """The week of bids is over: the highest bidder who can pay it pays and gets the job; every bid
    is published; no bid: the job is offered again (ties: the dice)."""
    answers = LaborModule.private_of(ctx.state).bids.pop(job.name, {})
    bids = {p: a for p, a in answers.items()
            if p in ctx.state.players and ctx.state.players[p].active and ctx.state.players[p].money >= a}
    winner, top = auction_winner(bids, tie="dice", dice=ctx.dice, label=f"job/{job.name}/{ctx.state.update}")
    shown = ", ".join(f"{p} {ctx.state.money(b)}" for p, b in sorted(bids.items(), key=lambda kv: (-kv[1], kv[0])))
    job.offer = 0
    if winner is None:
        ctx.emit("job", f"Nobody bid for the job of {job.name}: it is offered again (XXXII.1).", rule="XXXII.1")
        offer(ctx, job)
        return
    ctx.transfer(winner, job.employer, top, rule="XXXII.1", reason=f"the job of {job.name}")
    old = job_of(ctx.state, winner)
    job.holder = winner
    ctx.emit("job", f"{winner} bid {ctx.state.money(top)} and is the {job.name} (XXXII.1). Bids: {shown}.",
             player=winner, rule="XXXII.1", data={"job": job.name, "holder": winner, "bid": top})
    if old is not None and old is not job:
        quit_job(ctx, old, "she took another job (XXXII.3)")


def quit_job(ctx: UpdateContext, job: Job, why: str) -> None:
    """XXXII.2: the job is reposted as a new offering."""
    who = job.holder
    job.holder = ""
    ctx.emit("job", f"{who} quit the job of {job.name}: {why}.", player=who, rule="XXXII.2")
    offer(ctx, job)


def quit_command(ctx: UpdateContext, player: Player, cmd: QuitJob) -> str:
    job = job_of(ctx.state, player.name)
    if job is None:
        raise IllegalAction("you hold no job")
    quit_job(ctx, job, "she chose to")
    return f"{player.name} quit the job of {job.name}; it is offered again (XXXII.2)."


def pay_for_service(ctx: UpdateContext, player: Player, amount: int, job: str, square: int, *, rule: str,
                    reason: str) -> int:
    """``player`` pays The Government ``amount`` for painting or gluing (``job`` "Head GIPPer",
    XXXII.4) or a Taxi ride ("Taxi Driver", XXXII.5) that ends on ``square``. If someone holds the
    job, a 'Bot of the payer's absorbs the payment (XIX.10); otherwise the job holder gets 75% of it
    from The Government. The job holder is transported to ``square`` (without landing: a standing
    ruling). Returns what the player paid."""
    from admin.games.nomoteams.mechanics.bots import absorbs

    holder = holder_of(ctx.state, job)
    if holder and holder != player.name and absorbs(ctx, player):
        paid = 0
    else:
        ctx.transfer(player.name, GOVERNMENT, amount, rule=rule, reason=reason, voluntary=True)
        paid = amount
    if holder:
        share = dollars(paid * int(ctx.params(LaborModule.name)["share_percent"]) / 100)
        if share:
            ctx.transfer(GOVERNMENT, holder, share, rule=STANDING_JOBS.get(job, "XXXII.1"),
                         reason=f"the {job}'s share of {reason}")
        ctx.state.players[holder].square = square
        ctx.emit("job", f"The {job}, {holder}, was transported to square {square}"
                        + (f" and paid {ctx.state.money(share)}" if share else "")
                        + f" ({STANDING_JOBS.get(job, 'XXXII.1')}).", player=holder,
                 rule=STANDING_JOBS.get(job, "XXXII.1"))
    return paid


def _job_ruling(ctx: UpdateContext, r: Ruling) -> str:
    """``job name="..." [employer=Government|Corporation] [requirements=...] [pay=...] [perks=...]``:
    The Government or The Corporation offers a job (XXXII.1)."""
    ls = LaborModule.of(ctx.state)
    name = str(r.args.get("name", "")).strip()
    employer = {"government": GOVERNMENT, "thegovernment": GOVERNMENT, "corporation": CORPORATION,
                "thecorporation": CORPORATION}.get(re.sub(r"[^a-z]", "", str(r.args.get("employer", "Government")).lower()))
    if not name or employer is None:
        raise RuleError('job needs name="..." and employer=Government or Corporation')
    if any(j.name.lower() == name.lower() for j in ls.jobs):
        raise RuleError(f"there is a job named {name!r} already")
    job = Job(name, employer, str(r.args.get("requirements", "")), str(r.args.get("pay", "")),
              str(r.args.get("perks", "")))
    ls.jobs.append(job)
    offer(ctx, job)
    return f"{employer} offers the job of {name}: {r.note}"


def _parse_bid_job(rest: str, line: object) -> BidJob:
    m = re.match(r"^(.+?)\s+\$?(\d{1,9})$", " ".join(rest.split()))
    if not m:
        raise CommandError(f"say BID JOB <job> <amount>, like BID JOB TAXI DRIVER 40; found BID JOB {rest.strip()!r}.")
    return BidJob(m.group(1), int(m.group(2)))


def _parse_quit(rest: str, line: object) -> QuitJob:
    if rest.strip().upper() != "JOB":
        raise CommandError(f"say QUIT JOB, with nothing after it; found QUIT {rest.strip()!r}.")
    return QuitJob()


@command("BID JOB <job> <amount>", keyword="BID JOB", parse=_parse_bid_job, cmd="teams-bid-job", listing=170,
         private=True, summary="a sealed bid for a job on offer; the highest pays it and gets the job",
         example="BID JOB TAXI DRIVER 40", rules=("XXXII.1",))
class BidJob:
    """``BID JOB <job> <amount>`` (XXXII.1)."""

    job: str
    amount: int


@command("QUIT JOB", parse=_parse_quit, cmd="teams-quit-job", listing=171,
         summary="quit your job; it is offered again", example="QUIT JOB", rules=("XXXII.2",))
class QuitJob:
    """``QUIT JOB`` (XXXII.2)."""


class LaborModule(Mechanic[LaborState, LaborPrivate]):
    name = "teams-labor"
    rules = ("XXXII.1", "XXXII.2", "XXXII.3", "XXXII.4", "XXXII.5")
    defaults = {"share_percent": 75}
    summary = "Jobs The Government and The Corporation offer, won by the highest sealed bid; the Head GIPPer and the Taxi Driver."
    State = LaborState
    Private = LaborPrivate

    def setup(self, state: GameState) -> None:
        super().setup(state)
        ls = self.of(state)
        for name, rule in STANDING_JOBS.items():
            if not any(j.name == name for j in ls.jobs):
                pay = "75% of what The Government collects for " + ("painting or gluing" if rule == "XXXII.4"
                                                                     else "Taxi rides")
                ls.jobs.append(Job(name, GOVERNMENT, pay=pay, rule=rule,
                                   perks="transported to the " + ("square painted or glued" if rule == "XXXII.4"
                                                                  else "Taxi ride's destination")))

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BidJob, bid_job), (QuitJob, quit_command))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"job": _job_ruling}

    def on_update_start(self, ctx: UpdateContext) -> None:
        for job in self.of(ctx.state).jobs:  # a job nobody holds and nobody is bidding for is offered
            if not job.holder and not job.offer:
                offer(ctx, job)

    def on_update_end(self, ctx: UpdateContext) -> None:
        for job in self.of(ctx.state).jobs:
            if job.offer and ctx.state.update >= job.offer + 1:
                close_offer(ctx, job)

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        bids = {job: b[player.name] for job, b in self.private_of(state).bids.items() if player.name in b}
        return [Fact("job_bids", bids, label="Your sealed job bids", kind="text")]

    def on_player_removed(self, state: GameState, player: Player) -> None:
        for job in self.of(state).jobs:
            if job.holder == player.name:
                job.holder = ""  # offered again at the next update's start

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        job = job_of(state, player.name)
        return [Fact("job", job.name if job else None, label="Job", column="Job", order=49, kind="text")]

    def panels(self, state: GameState) -> list[Panel]:
        rows = tuple((j.name, j.employer, j.holder or (f"offered until update {j.offer + 1}" if j.offer else "to be offered"),
                      j.pay or "-", j.perks or "-") for j in self.of(state).jobs)
        return [Panel("jobs", "Jobs", "Jobs The Government and The Corporation offer (XXXII): a week of sealed bids "
                                      "(BID JOB <job> <amount>); the highest bidder pays the employer and gets the "
                                      "job. One job at a time; QUIT JOB offers it again.",
                      (Table("Jobs", ("Job", "Employer", "Holder", "Pay", "Perks"), rows),), order=32)]
