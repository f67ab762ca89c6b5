"""Rules players wrote, carried out as written: every rule an accepted proposal added (``ADD RULE``)
whose text the controlled English reads (:mod:`admin.nomic.rulelang`) runs from the update after
the one that accepted it, as long as it stands; an ``AMEND`` changes what runs, a ``REPEAL``
stops it. Its events cite the rule.

Which rules run is read from the ruleset and its history at each update, never stored apart from
them, so the rule players see is the rule that runs. A rule runs only when it was made by a
proposal at or after the update this mechanic was switched on (a game that carried its players'
rules out by hand before keeps doing so for those), no other mechanic automates its number, and
every part of it is one this mechanic carries out (:func:`runnable`); the others stay with the
Admin.

The rules that run in an update are those in force when it starts (one read of the ruleset an
update, however many landings ask): a rule accepted or repealed during an update changes what runs
from the next. Each rule fires at most :data:`MAX_FIRINGS` times for one player in one update, so a
rule that moves its player onto its own trigger cannot run away."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from admin.engine.board import highest, lowest
from admin.engine.context import BANK, UpdateContext
from admin.engine.model import Directive, GameState, Player, Square
from admin.engine.module import Mechanic
from admin.engine.movement import jump, move
from admin.library.cards import CardsModule, draw_card
from admin.library.health import HealthModule, change_health, health_of
from admin.library.money import MoneyModule
from admin.library.ownership import OwnershipModule
from admin.nomic.rulelang.model import Condition, Effect, NotUnderstood, Rule, SquareRef, Vocabulary
from admin.nomic.rulelang.parse import parse_rule
from admin.nomic.rulelang.words import effect_words, rule_words

#: how often one rule may fire for one player in one update
MAX_FIRINGS = 10
#: the triggers and effects this mechanic carries out (the language reads a few more)
RUNS_TRIGGERS = frozenset({"lands", "passes", "lands_or_passes", "doubles", "total", "pays_rent", "buys",
                           "draws", "update_start", "update_end", "week_start", "week_end"})
RUNS_EFFECTS = frozenset({"money", "health", "move_to", "move_by", "draw", "lose_turn"})


@dataclass
class WrittenState:
    #: the update at which the mechanic was switched on: rules made before it stay the Admin's
    since: int = 0
    #: player -> the rules by which they miss their next moves, one a move ("loses a turn")
    lost_turns: dict[str, list[str]] = field(default_factory=dict)


def vocabulary(state: GameState) -> Vocabulary:
    """The words of ``state``'s game: its currency, and whether it keeps health, a board, cards."""
    return Vocabulary(currency=state.currency, health=state.enabled(HealthModule.name),
                      squares=bool(state.squares), cards=state.enabled(CardsModule.name))


@functools.lru_cache(maxsize=512)
def read_rule(text: str, vocab: Vocabulary) -> Rule | NotUnderstood:
    """``text`` read in ``vocab``'s words (the same text, read once)."""
    return parse_rule(text, vocab)


def runnable(rule: Rule) -> bool:
    """Whether every part of ``rule`` is one this mechanic carries out."""
    return rule.trigger.kind in RUNS_TRIGGERS and all(e.kind in RUNS_EFFECTS for e in rule.effects)


def written_rules(state: GameState, since: int, *, from_now: bool = False) -> list[tuple[str, Rule]]:
    """(rule id, rule) of every rule in force that runs in the update under way (``from_now``: in
    the next one), in the ruleset's order."""
    vocab = vocabulary(state)
    out = []
    for rule in state.rules.rules():
        history = state.rule_history.get(rule.id) or []
        if not history or history[0].action != "created" or history[0].proposal is None:
            continue
        if history[0].update < since or (history[-1].update >= state.update and not from_now):
            continue  # made before the mechanic, or changed in this very update: from the next
        read = read_rule(rule.text, vocab)
        if isinstance(read, Rule) and runnable(read):
            out.append((rule.id, read))
    return out


def understood_rules(state: GameState, directives: Sequence[Directive]) -> list[str]:
    """How each rule a proposal writes (ADD RULE, AMEND) is understood, in a sentence each, for the
    proposer's receipt: restated as it will run, or why the Admin will carry it out instead (the
    words the language could not read). Nothing in a game without the mechanic."""
    if not state.enabled(WrittenRulesModule.name):
        return []
    vocab = vocabulary(state)
    out = []
    for d in directives:
        if d.kind not in ("add-rule", "amend") or not d.text.strip():
            continue
        where = f"The new rule in section {d.target}" if d.kind == "add-rule" else f"Rule {d.target} as amended"
        history = state.rule_history.get(d.target) or []
        if d.kind == "amend" and not (history and history[0].proposal is not None):
            continue  # a rule of the game's own: its mechanic runs it, whatever its new words say
        read = read_rule(" ".join(d.text.split()), vocab)
        if isinstance(read, NotUnderstood):
            out.append(f"{where} is not in the rule language ({read}); if accepted, the Admin carries it out.")
        elif not runnable(read):
            out.append(f"{where} reads: {rule_words(read, vocab)} It is not one this game runs by itself yet; "
                       "if accepted, the Admin carries it out.")
        else:
            out.append(f"{where} reads: {rule_words(read, vocab)} If accepted, it runs from the next update.")
    return out


def carried_out(state: GameState) -> dict[str, int]:
    """Rule id -> the proposal that made it, for every rule this mechanic runs in ``state`` (none
    when it is not switched on)."""
    if not state.enabled(WrittenRulesModule.name):
        return {}
    since = WrittenRulesModule.of(state).since
    out = {}
    for rid, _rule in written_rules(state, since, from_now=True):
        proposal = state.rule_history[rid][0].proposal
        assert proposal is not None
        out[rid] = proposal
    return out


class WrittenRulesModule(Mechanic[WrittenState, None]):
    name = "written-rules"
    rules = ()
    summary = "Rules players add by proposal in the controlled English are carried out as written."
    State = WrittenState

    def setup(self, state: GameState) -> None:
        super().setup(state)
        self.of(state).since = state.update

    # -- when rules fire ----------------------------------------------------------------------
    def on_update_start(self, ctx: UpdateContext) -> None:
        # the rules in force as the update starts run all through it (read once: a landing asks)
        _UPDATES[id(ctx)] = _Update(written_rules(ctx.state, self.of(ctx.state).since), ctx.state)
        self._timed(ctx, "update_start")
        if ctx.slot.index == 0:
            self._timed(ctx, "week_start")

    def on_update_end(self, ctx: UpdateContext) -> None:
        self._timed(ctx, "update_end")
        if ctx.slot.week_end:
            self._timed(ctx, "week_end")
        _UPDATES.pop(id(ctx), None)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        self._player(ctx, player, ("lands", "lands_or_passes"), square)

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        square = ctx.state.square(number)
        if square is not None:
            self._player(ctx, player, ("passes", "lands_or_passes"), square)

    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None:
        self._player(ctx, player, ("passes", "lands_or_passes"), None, end=True)

    def on_doubles(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        self._player(ctx, player, ("doubles",), None)

    def on_rent_paid(self, ctx: UpdateContext, payer: Player, owner: Player, square: Square, amount: int) -> None:
        self._player(ctx, payer, ("pays_rent",), square)

    def check_roll(self, ctx: UpdateContext, player: Player, turn: int, faces: list[int]) -> list[int] | None:
        total = sum(faces)
        for rid, rule in self._rules(ctx):  # "rolls a total of 7": the faces the player moves by
            if rule.trigger.kind == "total" and rule.trigger.total == total and player.active:
                self._fire(ctx, rid, rule, player, ctx.state.square(player.square))
        return None  # the faces stay as they are

    def on_square_bought(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        self._player(ctx, player, ("buys",), square)

    def on_card_drawn(self, ctx: UpdateContext, player: Player, card: str) -> None:
        self._player(ctx, player, ("draws",), ctx.state.square(player.square))

    def misses_turn(self, ctx: UpdateContext, player: Player) -> str | None:
        lost = self.of(ctx.state).lost_turns
        if not lost.get(player.name):
            return None
        rid = lost[player.name].pop(0)
        if not lost[player.name]:
            del lost[player.name]
        return f"they lose this turn (rule {rid})"

    # -- carrying a rule out ------------------------------------------------------------------
    def _update(self, ctx: UpdateContext) -> _Update:
        known = _UPDATES.get(id(ctx))
        if known is None or known.state is not ctx.state:  # an update that did not start here
            known = _UPDATES[id(ctx)] = _Update(written_rules(ctx.state, self.of(ctx.state).since), ctx.state)
        return known

    def _rules(self, ctx: UpdateContext) -> list[tuple[str, Rule]]:
        return self._update(ctx).rules

    def _player(self, ctx: UpdateContext, player: Player, kinds: tuple[str, ...], square: Square | None,
                *, end: bool = False) -> None:
        for rid, rule in self._rules(ctx):
            trigger = rule.trigger
            if trigger.kind not in kinds or not player.active:
                continue
            if trigger.square is not None:
                if end != (trigger.square.kind == "end"):
                    continue
                if not end and (square is None or not _square_is(ctx.state, trigger.square, square, player)):
                    continue
            self._fire(ctx, rid, rule, player, square)

    def _timed(self, ctx: UpdateContext, kind: str) -> None:
        for rid, rule in self._rules(ctx):
            if rule.trigger.kind != kind:
                continue
            for player in [p for p in ctx.state.players.values() if p.active]:
                self._fire(ctx, rid, rule, player, None)

    def _fire(self, ctx: UpdateContext, rid: str, rule: Rule, player: Player, square: Square | None) -> None:
        fired = self._update(ctx).fired
        if fired[(rid, player.name)] >= MAX_FIRINGS:
            return
        if not all(_holds(ctx.state, c, player, square) for c in rule.conditions):
            return
        fired[(rid, player.name)] += 1
        vocab = vocabulary(ctx.state)
        for effect in rule.effects:
            if not player.active:
                break
            ctx.emit("written-rule", f"{player.name} {effect_words(effect, vocab)} (rule {rid}).",
                     player=player.name, rule=rid, native=True)
            _carry_out(ctx, rid, effect, player, square)


@dataclass
class _Update:
    """What the update under way knows of its written rules: those that run, and how often each
    fired for each player."""

    rules: list[tuple[str, Rule]]
    state: GameState | None = None
    fired: Counter[tuple[str, str]] = field(default_factory=Counter)


#: the updates under way, by their context's id (one at a time in a process; a context's entry is
#: made when its update starts and dropped when it ends)
_UPDATES: dict[int, _Update] = {}


def _owner(state: GameState, number: int) -> str | None:
    if not state.enabled(OwnershipModule.name):
        return None
    return OwnershipModule.of(state).owner(number)


def _square_is(state: GameState, ref: SquareRef, square: Square, player: Player) -> bool:
    owner = _owner(state, square.number)
    return {
        "number": square.number == ref.number,
        "lowest": square.number == lowest(state),
        "highest": square.number == highest(state),
        "any": True,
        "owned_by_other": owner is not None and owner != player.name,
        "owned_by_self": owner == player.name,
        "unowned": owner is None,
        "end": False,
    }[ref.kind]


def _squares_owned(state: GameState, name: str) -> int:
    if not state.enabled(OwnershipModule.name):
        return 0
    return len(OwnershipModule.of(state).owned_by(state, name))


def _holds(state: GameState, c: Condition, player: Player, square: Square | None) -> bool:
    value: int
    if c.quantity == "money":
        value = player.money
    elif c.quantity == "health":
        value = health_of(state, player.name) if state.enabled(HealthModule.name) else 0
    elif c.quantity == "squares":
        value = _squares_owned(state, player.name)
    elif c.quantity == "cards":
        value = len(CardsModule.private_of(state).hands.get(player.name, [])) if state.enabled(CardsModule.name) else 0
    elif c.quantity == "bank":
        value = state.admin_bank
    else:
        if square is None:
            return False
        value = square.number
    return {"<": value < c.value, "<=": value <= c.value, ">": value > c.value, ">=": value >= c.value,
            "==": value == c.value}[c.op]


def _carry_out(ctx: UpdateContext, rid: str, effect: Effect, player: Player, square: Square | None) -> None:
    state = ctx.state
    reason = f"rule {rid}"
    if effect.kind == "money":
        if not state.enabled(MoneyModule.name):
            return
        amount = effect.amount * (_squares_owned(state, player.name) if effect.per_square_owned else 1)
        if effect.party == "each_other":
            for other in [p for p in state.players.values() if p.active and p.name != player.name]:
                ctx.transfer(other.name, player.name, amount, rule=rid, reason=reason)
        elif effect.party == "owner":
            owner = _owner(state, square.number) if square is not None else None
            if owner is not None and owner != player.name and owner in state.players:
                ctx.transfer(owner, player.name, amount, rule=rid, reason=reason)
        else:
            ctx.transfer(BANK, player.name, amount, rule=rid, reason=reason)
    elif effect.kind == "health":
        if state.enabled(HealthModule.name):
            change_health(ctx, player, effect.amount, rule=rid, reason=reason)
    elif effect.kind == "move_by":
        move(ctx, player, abs(effect.amount), backwards=effect.amount < 0)
    elif effect.kind == "move_to":
        target = {0: lowest(state), -1: highest(state)}.get(effect.amount, effect.amount)
        if state.square(target) is not None:
            jump(ctx, player, target, rule=rid, reason=reason)
    elif effect.kind == "draw":
        if state.enabled(CardsModule.name):
            draw_card(ctx, player, f"rule/{rid}", reason)
    elif effect.kind == "lose_turn":
        WrittenRulesModule.of(state).lost_turns.setdefault(player.name, []).extend([rid] * max(1, effect.amount))
