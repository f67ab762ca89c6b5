"""XXVII: disputes. A player (the Accuser) accuses another (the Defendant) with a charge, its
facts and a recognised Penalty (``ACCUSE``); the accusation is posted. During the following week
each may choose a way to settle it (``DISPUTE n COURT|TRIAL``), argue for a Government Court and
allot Extra Dice for a Corporate Trial. At the end of that week it is settled: by what both
chose, else by Court when exactly one of them stands on a Corporate Colour, else by Trial.

A Government Court (XXVII.2) costs each party $150 to The Government and goes to the Admin
(``ruling decide dispute dispute=N winner=NAME``); a Corporate Trial (XXVII.3) is two dice each
plus Extra Dice at $50, ties tried again. The loser suffers the Penalty: a payment (XXVII.4;
refused or unaffordable, Chains instead: 10 lb x the ceiling of its binary logarithm), at most
100 lb of Chains (XXVII.5), or the loss of Registered Voter status (XXVII.6)."""

from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from admin.engine.commands import command_type
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.settled import keep, settled, unpickled
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, PSEUDOPLAYERS, WETHA, live_player

COURT, TRIAL = "Court", "Trial"
MECHANISMS = {"COURT": COURT, "GOVERNMENT": COURT, "TRIAL": TRIAL, "CORPORATE": TRIAL}


@command_type
@dataclass(frozen=True)
class Accuse:
    """``ACCUSE <player> PENALTY <penalty>: <charge and facts>`` (XXVII.1)."""

    defendant: str
    penalty: str
    amount: int
    payee: str | None
    charge: str
    cmd: ClassVar[str] = "teams-accuse"


@command_type
@dataclass(frozen=True)
class DisputeAction:
    """``DISPUTE <n> COURT|TRIAL``, ``DISPUTE <n> ARGUE <text>``, ``DISPUTE <n> BUY <k> EXTRA DICE``,
    ``DISPUTE <n> REFUSE TO PAY`` (XXVII.1, XXVII.3, XXVII.4)."""

    number: int
    action: str
    value: str = ""
    cmd: ClassVar[str] = "teams-dispute"


@dataclass
class Dispute:
    number: int
    accuser: str
    defendant: str
    charge: str
    #: "pay", "chains" or "unregister"
    penalty: str
    amount: int = 0
    #: who a payment goes to (None: the winner)
    payee: str | None = None
    update: int = 0
    #: party -> Court or Trial (XXVII.1)
    choices: dict[str, str] = field(default_factory=dict)
    #: party -> her arguments for a Court
    arguments: dict[str, list[str]] = field(default_factory=dict)
    #: party -> Extra Dice allotted for a Trial (XXVII.3)
    extra_dice: dict[str, int] = field(default_factory=dict)
    #: parties who said they refuse to pay a payment Penalty (XXVII.4)
    refuses: list[str] = field(default_factory=list)
    mechanism: str | None = None
    #: open (the week to choose), court (waiting for the Admin), settled, lapsed
    status: str = "open"
    winner: str | None = None
    outcome: str = ""


#: a dispute in one of these is never changed again
FINAL = ("settled", "lapsed")


@dataclass
class DisputesState:
    disputes: list[Dispute] = field(default_factory=list)
    next_number: int = 1
    #: player -> pounds of Chains (XXVII.4, XXVII.5)
    chains: dict[str, int] = field(default_factory=dict)

    def __reduce__(self):
        """Pickled (XXII.4's snapshot before every action) with the disputes already settled or
        lapsed, which are never changed again and are most of them (hundreds in a long game), as
        one blob pickled once and kept (admin/engine/settled.py), so that each snapshot does not
        pickle them again."""
        final, blob = settled(self, self.disputes, _is_final)
        return (_unpickle_disputes, (blob, self.disputes[len(final):], self.next_number, self.chains))

    def __deepcopy__(self, memo: dict[int, Any]) -> DisputesState:
        """The copy of the state an update starts from shares the settled disputes (as it shares
        buried cards), instead of unpickling them all from their blob, and copies the rest."""
        final, blob = settled(self, self.disputes, _is_final)
        copied = DisputesState(final + copy.deepcopy(self.disputes[len(final):], memo), self.next_number,
                               copy.deepcopy(self.chains, memo))
        keep(copied, final, blob)
        memo[id(self)] = copied
        return copied


def _is_final(dispute: Dispute) -> bool:
    return dispute.status in FINAL


def _unpickle_disputes(final: bytes, rest: list[Dispute], next_number: int, chains: dict[str, int]) -> DisputesState:
    done = unpickled(final)
    ds = DisputesState(done + rest, next_number, chains)
    keep(ds, done, final)
    return ds


_ACCUSE = re.compile(r"^(\S+)\s+PENALTY\s+(.+?)\s*:\s*(.+)$", re.IGNORECASE | re.DOTALL)


def _parse_penalty(text: str) -> tuple[str, int, str | None]:
    words = text.split()
    up = [w.upper() for w in words]
    if up and up[0] == "PAY" and len(words) >= 2 and re.fullmatch(r"\$?\d{1,9}", words[1]):
        amount = int(words[1].lstrip("$"))
        if len(words) == 2:
            return "pay", amount, None
        if up[2] == "TO" and len(words) >= 4:
            target = " ".join(words[3:])
            named = {"GOVERNMENT": GOVERNMENT, "THE GOVERNMENT": GOVERNMENT, "CORPORATION": CORPORATION,
                     "THE CORPORATION": CORPORATION, "WETHA": WETHA, "THE WETHA": WETHA}
            return "pay", amount, named.get(target.upper(), target)
    if up and up[0] == "CHAINS" and len(words) == 2 and words[1].isdigit():
        return "chains", int(words[1]), None
    if up == ["UNREGISTER"]:
        return "unregister", 0, None
    raise CommandError(f"{text!r} is not a recognised Penalty; say PAY <amount> [TO <player>|GOVERNMENT|CORPORATION] "
                       "(XXVII.4), CHAINS <pounds, at most 100> (XXVII.5) or UNREGISTER (XXVII.6).")


def _parse_accuse(rest: str, line: object) -> Accuse:
    m = _ACCUSE.match(rest.strip())
    if not m:
        raise CommandError("ACCUSE needs a player, a Penalty and the charge with its facts, like ACCUSE bob "
                           "PENALTY PAY 100: he took my hat on square 12 in week 3.")
    kind, amount, payee = _parse_penalty(m.group(2))
    return Accuse(m.group(1), kind, amount, payee, " ".join(m.group(3).split()))


def _parse_dispute(rest: str, line: object) -> DisputeAction:
    m = re.match(r"^#?(\d{1,6})\s+(.*)$", rest.strip(), re.DOTALL)
    usage = ("DISPUTE <n> COURT, DISPUTE <n> TRIAL, DISPUTE <n> ARGUE <text>, DISPUTE <n> BUY <k> EXTRA DICE or "
             "DISPUTE <n> REFUSE TO PAY")
    if not m:
        raise CommandError(f"DISPUTE needs the dispute's number and what to do: {usage}; found {rest.strip()!r}.")
    number, tail = int(m.group(1)), m.group(2).strip()
    words = tail.upper().split()
    if len(words) == 1 and words[0] in MECHANISMS:
        return DisputeAction(number, "choose", MECHANISMS[words[0]])
    if words[:1] == ["ARGUE"] and len(words) > 1:
        return DisputeAction(number, "argue", " ".join(tail.split()[1:]))
    dice = re.fullmatch(r"BUY\s+(\d{1,3})\s+(?:EXTRA\s+)?(?:DICE|DIE)", " ".join(words))
    if dice:
        return DisputeAction(number, "dice", dice.group(1))
    if " ".join(words) in ("REFUSE", "REFUSE TO PAY"):
        return DisputeAction(number, "refuse")
    raise CommandError(f"say {usage}; found DISPUTE {rest.strip()!r}.")


class DisputesModule(Mechanic[DisputesState, None]):
    name = "teams-disputes"
    rules = ("XXVII.1", "XXVII.2", "XXVII.3", "XXVII.4", "XXVII.5", "XXVII.6")
    requires = ("teams-pseudo",)
    defaults = {"court_fee": 150, "extra_die_cost": 50, "trial_dice": 2, "max_chains": 100, "chains_per_bit": 10,
                "settle_after_weeks": 1}
    minimums = {"court_fee": 0, "extra_die_cost": 0, "trial_dice": 1, "max_chains": 0, "settle_after_weeks": 1}
    summary = "Disputes: an accusation, a Government Court the Admin decides or a Corporate Trial by dice, a Penalty."
    State = DisputesState

    def commands(self):
        return (CommandSpec("ACCUSE", Accuse, accuse, _parse_accuse, "ACCUSE <player> PENALTY <penalty>: <charge>",
                            listing=160, summary="start a dispute: the charge and its facts, and a Penalty for the "
                                                 "loser: PAY <amount> [TO <whom>], CHAINS <pounds> or UNREGISTER",
                            example="ACCUSE bob PENALTY PAY 100: he sold me square 12 and kept it",
                            rules=("XXVII.1", "XXVII.4", "XXVII.5", "XXVII.6")),
                CommandSpec("DISPUTE", DisputeAction, dispute_action, _parse_dispute,
                            "DISPUTE <n> COURT|TRIAL|ARGUE <text>|BUY <k> EXTRA DICE|REFUSE TO PAY", listing=161,
                            summary="in a dispute of yours: choose a Government Court or a Corporate Trial, argue "
                                    "for the Court, allot Extra Dice ($50 each) for a Trial, refuse to pay",
                            example="DISPUTE 1 TRIAL", rules=("XXVII.1", "XXVII.3", "XXVII.4")))

    def rulings(self):
        return {"dispute": _decide}

    def on_update_end(self, ctx) -> None:
        if ctx.slot.week_end:
            weeks = int(ctx.params(self.name)["settle_after_weeks"])
            for d in self.of(ctx.state).disputes:
                if d.status == "open" and ctx.state.update >= d.update + weeks:
                    settle(ctx, d)
        for d in self.of(ctx.state).disputes:
            if d.status == "court":
                said = "; ".join(f"{p}: {' / '.join(a)}" for p, a in sorted(d.arguments.items())) or "no arguments"
                command = (f"nomopoly ruling decide dispute dispute={d.number} winner={d.accuser}|{d.defendant} "
                           "--reason ...")
                ctx.emit("dispute", f"Dispute {d.number} ({d.accuser} accuses {d.defendant}: {d.charge}; Penalty: "
                                    f"{penalty_text(ctx.state, d)}) is in the Government Court (XXVII.2): decide who "
                                    f"wins ({said}): {command}", rule="XXVII.2",
                         data={"dispute": d.number, "command": command})

    def set_player(self, state, player, key, value) -> bool:
        if key != "chains":
            return False
        self.of(state).chains[player.name] = int(value)
        return True

    def player_facts(self, state, player) -> list[Fact]:
        return [Fact("chains", self.of(state).chains.get(player.name, 0), label="Chains (lb)", order=48)]

    def results_lines(self, state, player) -> list[tuple[int, str]]:
        ds, lines = self.of(state), []
        weeks = int(state.params(self.name).get("settle_after_weeks", self.defaults["settle_after_weeks"]))
        for d in ds.disputes:
            if player.name not in (d.accuser, d.defendant) or d.status in ("settled", "lapsed"):
                continue
            other = d.defendant if player.name == d.accuser else d.accuser
            if d.status == "court":
                lines.append((75, f"  Dispute {d.number} with {other}: in the Government Court, waiting for the Admin"))
            else:
                lines.append((75, f"  Dispute {d.number} with {other}: settled at update {d.update + weeks}; your "
                                  f"choice: {d.choices.get(player.name, 'none')} (DISPUTE {d.number} COURT|TRIAL)"))
        if ds.chains.get(player.name):
            lines.append((76, f"  Chains: {ds.chains[player.name]} lb"))
        return lines

    def panels(self, state) -> list[Panel]:
        ds = self.of(state)
        rows = tuple((d.number, d.accuser, d.defendant, d.charge, penalty_text(state, d),
                      ", ".join(f"{p}: {c}" for p, c in sorted(d.choices.items())) or "-",
                      "; ".join(f"{p}: {' / '.join(a)}" for p, a in sorted(d.arguments.items())) or "-",
                      d.mechanism or "-", d.outcome or d.status) for d in ds.disputes)
        return [Panel("disputes", "Disputes",
                      "Disputes (XXVII): ACCUSE bob PENALTY PAY 100: the charge and its facts. During the week "
                      "after, each party may choose a Government Court or a Corporate Trial (DISPUTE 1 COURT, "
                      "DISPUTE 1 TRIAL), argue for the Court (DISPUTE 1 ARGUE ...) and allot Extra Dice for a Trial "
                      "(DISPUTE 1 BUY 2 EXTRA DICE, $50 each). If they do not agree: a Court when exactly one of "
                      "them stands on a Corporate Colour, else a Trial. A Court costs each $150 and the Admin "
                      "decides; a Trial is two dice each, the higher total wins. The loser suffers the Penalty.",
                      (Table("Disputes", ("#", "Accuser", "Defendant", "Charge", "Penalty", "Chosen", "Arguments",
                                          "Settled by", "Outcome"), rows),
                       Table("Chains", ("Player", "Pounds"),
                             tuple((n, lb) for n, lb in sorted(ds.chains.items()) if lb))), order=24)]


def _dice(k: int) -> str:
    return "Die" if k == 1 else "Dice"


def penalty_text(state, d: Dispute) -> str:
    if d.penalty == "pay":
        return f"pay {state.money(d.amount)} to {d.payee or 'the winner'}"
    if d.penalty == "chains":
        return f"{d.amount} lb of Chains"
    return "loses Registered Voter status"


def accuse(ctx, player, cmd: Accuse) -> str:
    state, p = ctx.state, ctx.params(DisputesModule.name)
    defendant = live_player(ctx, cmd.defendant)
    if defendant.name == player.name:
        raise IllegalAction("a dispute is with another player: you cannot accuse yourself (XXVII.1)")
    if cmd.penalty == "pay":
        if cmd.amount < 1:
            raise IllegalAction("a payment Penalty is at least $1 (XXVII.4)")
        if cmd.payee == WETHA:
            raise IllegalAction("a payment Penalty may go to a player, The Government or The Corporation, but "
                                "never to the WETHA (XXVII.4)")
        if cmd.payee is not None and cmd.payee not in PSEUDOPLAYERS:
            live_player(ctx, cmd.payee)
    if cmd.penalty == "chains" and not 1 <= cmd.amount <= int(p["max_chains"]):
        raise IllegalAction(f"a Chains Penalty is 1 to {p['max_chains']} pounds (XXVII.5); found {cmd.amount}")
    ds = DisputesModule.of(state)
    d = Dispute(ds.next_number, player.name, defendant.name, cmd.charge, cmd.penalty, cmd.amount,
                cmd.payee, state.update)
    ds.next_number += 1
    ds.disputes.append(d)
    ctx.emit("dispute-posted", f"Dispute {d.number}: {player.name} accuses {defendant.name}: {d.charge}. Penalty: "
                               f"{penalty_text(state, d)}. Each may choose COURT or TRIAL this week (DISPUTE "
                               f"{d.number} COURT|TRIAL) (XXVII.1).", rule="XXVII.1",
             data={"dispute": d.number, "accuser": player.name, "defendant": defendant.name})
    return f"{player.name} accused {defendant.name} (dispute {d.number}); the accusation is posted (XXVII.1)."


def dispute_action(ctx, player, cmd: DisputeAction) -> str:
    ds = DisputesModule.of(ctx.state)
    d = next((x for x in ds.disputes if x.number == cmd.number), None)
    mine = [x.number for x in ds.disputes if x.status == "open" and player.name in (x.accuser, x.defendant)]
    if d is None or player.name not in (d.accuser, d.defendant):
        raise IllegalAction(f"dispute {cmd.number} is not one of yours; yours still open: "
                            f"{', '.join(map(str, mine)) or 'none'} (XXVII.1)")
    if cmd.action == "refuse":
        if d.penalty != "pay" or d.status in ("settled", "lapsed"):
            raise IllegalAction(f"dispute {d.number} has no payment still to make (XXVII.4)")
        if player.name not in d.refuses:
            d.refuses.append(player.name)
        return (f"If you lose dispute {d.number} you will not pay; you will be awarded Chains instead (XXVII.4).")
    if d.status != "open":
        raise IllegalAction(f"dispute {d.number} is past its week to choose ({d.outcome or d.status}); yours still "
                            f"open: {', '.join(map(str, mine)) or 'none'} (XXVII.1)")
    if cmd.action == "choose":
        d.choices[player.name] = cmd.value
        way = "Government Court" if cmd.value == COURT else "Corporate Trial"
        return f"{player.name} chose a {way} for dispute {d.number} (XXVII.1)."
    if cmd.action == "argue":
        d.arguments.setdefault(player.name, []).append(cmd.value)
        return f"Your argument for dispute {d.number} is recorded for a Government Court (XXVII.1)."
    k = int(cmd.value)
    d.extra_dice[player.name] = k
    cost = int(ctx.params(DisputesModule.name)["extra_die_cost"])
    return (f"{player.name} allotted {k} Extra {_dice(k)} for a Corporate Trial in dispute {d.number}; "
            f"{ctx.state.money(k * cost)} is paid to The Corporation if a Trial is held (XXVII.3).")


def settle(ctx, d: Dispute) -> None:
    """XXVII.1 at the end of the week after the accusation: the way to settle it, then the Court's
    fees or the Trial."""
    from admin.games.nomoteams.mechanics.board import colour_of
    from admin.games.nomoteams.mechanics.ownership.mechanic import CORPORATE_COLOURS

    state = ctx.state
    parties = [state.players.get(d.accuser), state.players.get(d.defendant)]
    if not all(p is not None and p.active for p in parties):
        d.status, d.outcome = "lapsed", "lapsed: a party left the game"
        ctx.emit("dispute-settled", f"Dispute {d.number} lapsed: a party left the game.", rule="XXVII.1")
        return
    chosen = {d.choices.get(d.accuser), d.choices.get(d.defendant)}
    if len(chosen) == 1 and None not in chosen:
        d.mechanism, why = chosen.pop(), "both chose it"
    else:
        corporate = [colour_of(state, p.square) in CORPORATE_COLOURS for p in parties]  # type: ignore[union-attr]
        d.mechanism = COURT if corporate[0] != corporate[1] else TRIAL
        why = ("one stands on a Corporate Colour and the other does not" if d.mechanism == COURT else
               "they did not agree, and neither or both stand on a Corporate Colour")
    if d.mechanism == COURT:
        fee = int(ctx.params(DisputesModule.name)["court_fee"])
        for p in parties:
            ctx.transfer(p.name, GOVERNMENT, fee, rule="XXVII.2",  # type: ignore[union-attr]
                         reason=f"the Government Court of dispute {d.number}")
        d.status = "court"
        ctx.emit("dispute-court", f"Dispute {d.number} goes to a Government Court ({why}): {d.accuser} and "
                                  f"{d.defendant} each paid The Government {state.money(fee)}; the Admin decides "
                                  "(XXVII.2).", rule="XXVII.2", data={"dispute": d.number})
        return
    trial(ctx, d, why)


def trial(ctx, d: Dispute, why: str) -> None:
    """XXVII.3: each party rolls two dice and her Extra Dice (bought now at $50 each, as many as she
    can pay of those she allotted); the higher total wins; a tie is tried again with two dice each."""
    from admin.games.nomoteams.mechanics.shared import balance

    p = ctx.params(DisputesModule.name)
    cost, base = int(p["extra_die_cost"]), int(p["trial_dice"])
    extra = {}
    for name in (d.accuser, d.defendant):
        want = d.extra_dice.get(name, 0)
        k = min(want, max(0, balance(ctx.state, name)) // cost) if cost else want
        if k:
            ctx.transfer(name, CORPORATION, k * cost, rule="XXVII.3",
                         reason=f"{k} Extra {_dice(k)} in dispute {d.number}")
        extra[name] = k
    rounds = []
    for attempt in range(1, 101):
        totals = {}
        for name in (d.accuser, d.defendant):
            n = base + (extra[name] if attempt == 1 else 0)
            faces = [ctx.dice.roll(f"dispute/{d.number}/{attempt}/{name}/d{i + 1}", 6) for i in range(n)]
            totals[name] = sum(faces)
        rounds.append(", ".join(f"{n} {t}" for n, t in totals.items()))
        if totals[d.accuser] != totals[d.defendant]:
            winner = max(totals, key=lambda n: totals[n])
            break
    else:  # pragma: no cover - a hundred ties
        d.status = "court"
        return
    dice = "; ".join(f"{n} {k} Extra {_dice(k)}" for n, k in extra.items() if k)
    ctx.emit("dispute-trial", f"Dispute {d.number} goes to a Corporate Trial ({why})"
                              + (f" ({dice})" if dice else "") + f": {' / then '.join(rounds)}: {winner} wins "
                              "(XXVII.3).", rule="XXVII.3", data={"dispute": d.number, "winner": winner})
    decided(ctx, d, winner)


def decided(ctx, d: Dispute, winner: str) -> None:
    """XXVII.1: the loser suffers the Penalty."""
    loser = d.defendant if winner == d.accuser else d.accuser
    d.winner, d.status = winner, "settled"
    d.outcome = f"{winner} won ({d.mechanism}); {loser}: " + apply_penalty(ctx, d, loser, winner)


def apply_penalty(ctx, d: Dispute, loser: str, winner: str) -> str:
    state, p = ctx.state, ctx.params(DisputesModule.name)
    ds = DisputesModule.of(state)
    if d.penalty == "pay":
        payee = d.payee or winner
        if payee == loser:
            payee = winner
        if payee not in PSEUDOPLAYERS and not (payee in state.players and state.players[payee].active):
            payee = GOVERNMENT
        player = state.players[loser]
        if loser in d.refuses or player.money < d.amount:
            pounds = int(p["chains_per_bit"]) * math.ceil(math.log2(d.amount))
            ds.chains[loser] = ds.chains.get(loser, 0) + pounds
            why = "refused to pay" if loser in d.refuses else f"cannot pay {state.money(d.amount)}"
            text = f"{why}: {pounds} lb of Chains instead (XXVII.4)"
        else:
            ctx.transfer(loser, payee, d.amount, rule="XXVII.4", reason=f"the Penalty of dispute {d.number}")
            text = f"paid {state.money(d.amount)} to {payee} (XXVII.4)"
    elif d.penalty == "chains":
        ds.chains[loser] = ds.chains.get(loser, 0) + d.amount
        text = f"{d.amount} lb of Chains attached (XXVII.5)"
    else:
        gov = state.mods.get("teams-government") if state.enabled("teams-government") else None
        was = gov is not None and loser in gov.registered
        if was:
            gov.registered.remove(loser)
        text = "lost Registered Voter status (XXVII.6)" if was else "was no Registered Voter: nothing to lose (XXVII.6)"
    ctx.emit("dispute-settled", f"Dispute {d.number}: {winner} won; {loser} {text}.", rule="XXVII.1",
             data={"dispute": d.number, "winner": winner, "loser": loser})
    return text


def _decide(ctx, r) -> str:
    """The Admin decides a Government Court: ``dispute dispute=N winner=NAME``."""
    ds = DisputesModule.of(ctx.state)
    number = int(r.args.get("dispute", r.args.get("id", 0)) or 0)
    d = next((x for x in ds.disputes if x.number == number), None)
    waiting = [x.number for x in ds.disputes if x.status == "court"]
    if d is None or d.status != "court":
        raise RuleError(f"dispute={number} is not waiting for a Government Court; waiting: "
                        f"{', '.join(map(str, waiting)) or 'none'}")
    winner = str(r.args.get("winner", ""))
    if not all(n in ctx.state.players and ctx.state.players[n].active for n in (d.accuser, d.defendant)):
        d.status, d.outcome = "lapsed", "lapsed: a party left the game"
        return f"Dispute {d.number} lapsed: a party left the game before the Court's decision: {r.note}"
    if winner not in (d.accuser, d.defendant):
        raise RuleError(f"winner={winner!r}: say winner={d.accuser} or winner={d.defendant}")
    decided(ctx, d, winner)
    return f"The Admin decided dispute {d.number} in the Government Court for {winner} (XXVII.2): {r.note}"
