"""XXVII's module: ACCUSE and DISPUTE, the week's end that settles a dispute, what the site and the
results show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence
from admin.engine.declare import handled
from admin.engine.module import Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.errors import IllegalAction
from admin.games.nomoteams.mechanics.disputes.settle import _decide, settle
from admin.games.nomoteams.mechanics.disputes.state import (COURT, NAME, Accuse, Dispute, DisputeAction,
                                                            DisputesState, _dice, penalty_text)
from admin.games.nomoteams.mechanics.shared import PSEUDOPLAYERS, WETHA, live_player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player
    from admin.engine.module import CommandSpec, RulingHandler


class DisputesModule(Mechanic[DisputesState, None]):
    name = NAME
    rules = ("XXVII.1", "XXVII.2", "XXVII.3", "XXVII.4", "XXVII.5", "XXVII.6")
    stated = {"XXVII.2": {"court_fee": ("Both players pay The Government ${}",)},
              "XXVII.3": {"extra_die_cost": ("for one trial at ${} each",), "trial_dice": ("Each player rolls {} dice",)},
              "XXVII.4": {"chains_per_bit": ("given {} pounds of Chains for each",)},
              "XXVII.5": {"max_chains": ("at most {} pounds of Chains",)}}
    requires = ("teams-pseudo",)
    defaults = {"court_fee": 150, "extra_die_cost": 50, "trial_dice": 2, "max_chains": 100, "chains_per_bit": 10,
                "settle_after_weeks": 1}
    minimums = {"court_fee": 0, "extra_die_cost": 0, "trial_dice": 1, "max_chains": 0, "settle_after_weeks": 1}
    summary = "Disputes: an accusation, a Government Court the Admin decides or a Corporate Trial by dice, a Penalty."
    State = DisputesState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((Accuse, accuse), (DisputeAction, dispute_action))

    def rulings(self) -> dict[str, RulingHandler]:
        return {"dispute": _decide}

    def on_update_end(self, ctx: UpdateContext) -> None:
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

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "chains":
            return False
        self.of(state).chains[player.name] = int(value)
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("chains", self.of(state).chains.get(player.name, 0), label="Chains (lb)", order=48)]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
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

    def panels(self, state: GameState) -> list[Panel]:
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


def accuse(ctx: UpdateContext, player: Player, cmd: Accuse) -> str:
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


def dispute_action(ctx: UpdateContext, player: Player, cmd: DisputeAction) -> str:
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
