"""XXVII at the end of the week after an accusation: the way a dispute is settled, a Government
Court's fees (the Admin decides it), a Corporate Trial by dice, and the loser's Penalty."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from admin.engine.errors import RuleError
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.disputes.state import COURT, NAME, TRIAL, Dispute, _dice, of
from admin.games.nomoteams.mechanics.shared import CORPORATE_COLOURS, CORPORATION, GOVERNMENT, PSEUDOPLAYERS, colour_of

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.events import Ruling


def settle(ctx: UpdateContext, d: Dispute) -> None:
    """XXVII.1 at the end of the week after the accusation: the way to settle it, then the Court's
    fees or the Trial."""
    state = ctx.state
    found = [state.players.get(d.accuser), state.players.get(d.defendant)]
    if not all(p is not None and p.active for p in found):
        d.status, d.outcome = "lapsed", "lapsed: a party left the game"
        ctx.emit("dispute-settled", f"Dispute {d.number} lapsed: a party left the game.", rule="XXVII.1")
        return
    parties = [p for p in found if p is not None]  # both of them, as just checked
    chosen = {d.choices.get(d.accuser), d.choices.get(d.defendant)}
    if len(chosen) == 1 and None not in chosen:
        d.mechanism, why = chosen.pop(), "both chose it"
    else:
        corporate = [colour_of(state, p.square) in CORPORATE_COLOURS for p in parties]
        d.mechanism = COURT if corporate[0] != corporate[1] else TRIAL
        why = ("one stands on a Corporate Colour and the other does not" if d.mechanism == COURT else
               "they did not agree, and neither or both stand on a Corporate Colour")
    if d.mechanism == COURT:
        fee = int(ctx.params(NAME)["court_fee"])
        for p in parties:
            ctx.transfer(p.name, GOVERNMENT, fee, rule="XXVII.2",
                         reason=f"the Government Court of dispute {d.number}")
        d.status = "court"
        ctx.emit("dispute-court", f"Dispute {d.number} goes to a Government Court ({why}): {d.accuser} and "
                                  f"{d.defendant} each paid The Government {state.money(fee)}; the Admin decides "
                                  "(XXVII.2).", rule="XXVII.2", data={"dispute": d.number})
        return
    trial(ctx, d, why)


def trial(ctx: UpdateContext, d: Dispute, why: str) -> None:
    """XXVII.3: each party rolls two dice and her Extra Dice (bought now at $50 each, as many as she
    can pay of those she allotted); the higher total wins; a tie is tried again with two dice each."""
    from admin.games.nomoteams.mechanics.shared import balance

    p = ctx.params(NAME)
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


def decided(ctx: UpdateContext, d: Dispute, winner: str) -> None:
    """XXVII.1: the loser suffers the Penalty."""
    loser = d.defendant if winner == d.accuser else d.accuser
    d.winner, d.status = winner, "settled"
    d.outcome = f"{winner} won ({d.mechanism}); {loser}: " + apply_penalty(ctx, d, loser, winner)


def apply_penalty(ctx: UpdateContext, d: Dispute, loser: str, winner: str) -> str:
    state, p = ctx.state, ctx.params(NAME)
    ds = of(state)
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
        gov = api.GOVERNMENT.get(state)
        was = False
        if gov is not None and loser in gov.registered:
            gov.registered.remove(loser)
            was = True
        text = "lost Registered Voter status (XXVII.6)" if was else "was no Registered Voter: nothing to lose (XXVII.6)"
    ctx.emit("dispute-settled", f"Dispute {d.number}: {winner} won; {loser} {text}.", rule="XXVII.1",
             data={"dispute": d.number, "winner": winner, "loser": loser})
    return text


def _decide(ctx: UpdateContext, r: Ruling) -> str:
    """The Admin decides a Government Court: ``dispute dispute=N winner=NAME``."""
    ds = of(ctx.state)
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
