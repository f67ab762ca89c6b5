"""The pipeline of one update: ``run_update(state, submissions, rulings, dice) -> (state, events)``.

Pure: it touches no file, clock or network, and the same inputs give the same output.
Order (IX): the Admin's rulings; join requests; every player's actions (BUY first, by landing
priority, XIII.3; PROPOSE next, numbered in the order received; then the rest round-robin in a
random order, IX.5); one turn per player in a random order (IX.1); end-of-update effects (voting,
removal, the end of the game).
"""

from __future__ import annotations

import copy
import operator
import pickle
from dataclasses import dataclass, field

from typing import Any

from admin.engine import hooks
from admin.engine.capabilities import MailFirst, OrdersActions
from admin.engine.commands import Command, Join
from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.events import Event, Ruling
from admin.engine.howto import help_lines
from admin.engine.module import Mechanic
from admin.engine.registry import Registry
from admin.engine.shows import ordered
from admin.engine.statecopy import copy_state
from admin.engine.rulings import apply_ruling
from admin.engine.schedule import slot_of
from admin.engine.syntax import PLAYER_NAME
from admin.engine.errors import IllegalAction, NomopolyError
from admin.engine.model import GameState, JoinRequest, Player, Proposal

#: the phase of commands a module does not place earlier: every player's in turn, round-robin
ROUND_ROBIN = 50


@dataclass
class LineCommand:
    line: int
    text: str
    command: Command


@dataclass
class Submission:
    """One authenticated email's commands (``player`` None: an unknown sender, JOIN only)."""

    key: str
    player: str | None
    sender: str
    received: str
    commands: list[LineCommand] = field(default_factory=list)


@dataclass
class UpdateResult:
    state: GameState
    events: list[Event]
    #: proposals closed before this update, taken out of the live state to be archived
    archived: list[Proposal] = field(default_factory=list)


def run_update(state: GameState, submissions: list[Submission], rulings: list[Ruling],
               dice: Dice, registry: Registry) -> UpdateResult:
    # a copy, so the caller's state stays as it was (not the pickled snapshot below: the state's
    # immutable tables, 26,000 buried cards by update 260, are shared, not copied)
    state = copy_state(state)
    slots = registry.params(state, "schedule")["slots"]
    state.update += 1
    state.week, slot = slot_of(slots, state.update)
    ctx = UpdateContext(state=state, dice=dice, slot=slot, registry=registry)
    ctx.emit("update", f"Update {state.update}: week {state.week}, {slot.name}.",
             data={"update": state.update, "week": state.week, "slot": slot.name})
    for ruling in rulings:
        apply_ruling(ctx, ruling)
    if state.ended:
        ctx.emit("ended", f"The game is over ({state.end_reason}); nothing more happens.")
        return UpdateResult(state, ctx.events)
    h = hooks.call(ctx)
    h.on_update_start(ctx)
    _joins(ctx, [s for s in submissions if s.player is None])
    _actions(ctx, [s for s in submissions if s.player is not None])
    if state.paused:
        ctx.emit("paused", "The game is paused: no turns are taken (X.1).", rule="X.1")
    else:
        h.on_turns(ctx)
    h.on_update_end(ctx)
    return UpdateResult(state, ctx.events, ctx.archived)


def _joins(ctx: UpdateContext, submissions: list[Submission]) -> None:
    """Requests to join from addresses that are not players'. Nothing about them is published
    before the Admin accepts one (a stranger's words never reach the site): a valid name, one
    request per address (the latest counts), told to the Admin in the report."""
    asked: set[str] = set()
    for sub in submissions:
        for lc in sub.commands:
            ref = f"{sub.key}#{lc.line}"
            if isinstance(lc.command, Join):
                name, sender = lc.command.name, sub.sender.lower()
                if not PLAYER_NAME.fullmatch(name):
                    ctx.emit("action", None, ok=False, ref=ref,
                             private=f'"{lc.text}" was not done: a player\'s name is 1 to 40 letters, digits, '
                                     "'_', '-' or '.', starting with a letter")
                    continue
                if sender in asked:
                    ctx.emit("action", None, ok=False, ref=ref,
                             private=f'"{lc.text}" was not done: one request to join per address an update')
                    continue
                asked.add(sender)
                requests = [j for j in ctx.state.private.join_requests if j.email.lower() != sender]
                ctx.state.private.join_requests = requests + [
                    JoinRequest(name=name, email=sub.sender, update=ctx.state.update)]
                ctx.emit("join", None, rule="III.4", ref=ref,
                         private=f"Your request to join as {name} was passed to the Admin (III.4).")
            else:
                ctx.emit("action", None, ok=False, ref=ref,
                         private=f'"{lc.text}" was not done: only JOIN <name> is accepted from an '
                                 "address that is not a player's")


def _actions(ctx: UpdateContext, submissions: list[Submission]) -> None:
    """Every player's actions. A module may run its commands in an earlier phase (BUY first, in
    landing order, XIII.3; PROPOSE next, in order of receipt); the rest go round-robin, one
    action per player at a time, in a random order of players (IX.5)."""
    queues: dict[str, list[tuple[Submission, LineCommand]]] = {}
    first = _mail_first(ctx, submissions)
    for sub in sorted(submissions, key=lambda s: (s.player not in first, s.received, s.key)):
        for lc in sub.commands:
            # (the caller passes the players' submissions only: ``player`` is set)
            queues.setdefault(sub.player, []).append((sub, lc))  # type: ignore[arg-type]
    table = ctx.registry.command_table(ctx.state)
    phased: dict[int, list[tuple[Any, str, Submission, LineCommand]]] = {}
    rest: dict[str, list[tuple[Submission, LineCommand]]] = {}
    for name, items in queues.items():
        rest[name] = []
        for sub, lc in items:
            entry = table.get(lc.command.cmd)
            if entry is None or entry[1].phase >= ROUND_ROBIN:
                rest[name].append((sub, lc))
                continue
            phased.setdefault(entry[1].phase, []).append(
                (_order_key(ctx, entry[0], name, sub, lc, name in first), name, sub, lc))
    clean: list[Any] = [None]  # the snapshot that still matches the state (after a failed action)
    for phase in sorted(phased):
        for _, name, sub, lc in sorted(phased[phase], key=lambda e: e[0]):
            _do(ctx, name, sub, lc, clean)
    order = ctx.dice.shuffle(sorted(n for n in rest if rest[n]), "actions")
    order = [n for n in order if n in first] + [n for n in order if n not in first]
    while any(rest[n] for n in order):
        for name in order:
            if rest[name]:
                _do(ctx, name, *rest[name].pop(0), clean)


def _mail_first(ctx: UpdateContext, submissions: list[Submission]) -> set[str]:
    """The players whose mail a module counts as arriving before everyone else's (XIX.7). Only
    the modules that decide it are asked, each player's commands gathered once."""
    decider = ctx.registry.provider(ctx.state, MailFirst)
    if decider is None:
        return set()
    commands: dict[str, list[Any]] = {}
    for s in submissions:
        if s.player:
            commands.setdefault(s.player, []).extend(lc.command for lc in s.commands)
    return {n for n, said in commands.items() if decider.mail_first(ctx, n, said)}


def _order_key(ctx: UpdateContext, module: Mechanic[Any, Any], name: str, sub: Submission,
               lc: LineCommand, first: bool = False) -> tuple[Any, ...]:
    """A module's own order for its early commands (BUY: landing order), else order of receipt
    (mail that counts as arriving first, XIX.7, before the rest)."""
    own = module.action_order(ctx, name, lc.command) if isinstance(module, OrdersActions) else None
    return (own,) if own is not None else (0, not first, sub.received, sub.key, lc.line)


def _do(ctx: UpdateContext, name: str, sub: Submission, lc: LineCommand, clean: list[Any] | None = None) -> None:
    """One action. ``clean`` (from :func:`_actions`) carries the snapshot of the state from one
    action to the next while nothing has changed it (a failed action is undone), so it is not
    taken again."""
    ref = f"{sub.key}#{lc.line}"
    ctx.scratch["received"] = sub.received  # when the email being carried out arrived
    player = ctx.state.players.get(name)
    cmd = lc.command
    if player is None or not player.active:
        ctx.emit("action", None, player=name, ok=False, ref=ref,
                 private=f'"{lc.text}" was not done: {name} is not in the game')
        return
    if cmd.cmd == "token":
        return  # checked by authentication before the update; nothing to do here
    if cmd.cmd == "status":
        ctx.emit("status", None, player=name, ref=ref, private=_status_text(ctx, player))
        return
    if cmd.cmd == "help":  # one event a command, each a line of the reply
        for line in help_lines(ctx.state, ctx.registry, cmd.topic):
            ctx.emit("help", None, player=name, ref=ref, private=line)
        return
    if cmd.cmd == "join":
        ctx.emit("action", None, player=name, ok=False, ref=ref,
                 private=f'"{lc.text}" was not done: you are already a player')
        return
    entry = ctx.registry.command_table(ctx.state).get(cmd.cmd)
    if entry is None:
        ctx.emit("action", f'{name}: "{lc.text}" was not done: no rule in force allows it.',
                 player=name, ok=False, ref=ref)
        return
    _, spec = entry

    def refused(why: str, **kw: Any) -> None:
        """The verdict of a line not carried out: public, unless the command is private (its line
        may name hidden things: a card offered face down), then told to its player only."""
        said = f'{name}: "{lc.text}" was not done: {why}'
        ctx.emit("action", None if spec.private else said, player=name, ok=False, ref=ref,
                 private=said if spec.private else None, **kw)

    if name in ctx.barred:
        refused(f"{name} may take no voluntary action this update.")
        return
    before = len(ctx.events)
    undo = ctx.registry.undoes_failed_actions(ctx.state)
    clean = clean if clean is not None else [None]
    saved = (clean[0] or _snapshot(ctx.state, ctx.scratch)) if undo else None
    clean[0] = None
    try:
        text = spec.handler(ctx, player, cmd)
    except IllegalAction as exc:
        del ctx.events[before:]  # a failed action leaves no trace but its verdict
        if saved is not None:  # nor any change it made before it failed
            if _unchanged(saved, ctx.state, ctx.scratch):
                clean[0] = saved
            else:  # put back (the state's rule histories are new lists then: the next action snapshots anew)
                state, scratch = _restore(saved)
                ctx.state.__dict__.update(state.__dict__)
                ctx.scratch.clear()
                ctx.scratch.update(scratch)
                ctx.scratch["received"] = sub.received
        refused(str(exc), data={"cmd": cmd.cmd})
        return
    except NomopolyError as exc:  # pragma: no cover - a rule module bug must not sink the update
        del ctx.events[before:]
        refused(str(exc))
        return
    except Exception as exc:  # a fault in a mechanic: this line is set aside, never the update
        del ctx.events[before:]
        if saved is not None:
            state, scratch = _restore(saved)
            ctx.state.__dict__.update(state.__dict__)
            ctx.scratch.clear()
            ctx.scratch.update(scratch)
        fault = f"{type(exc).__name__}: {exc}"[:300]
        refused(f"the game could not carry it out ({fault}); it is set aside and the Admin is told")
        ctx.emit("admin", None, private=f'{name}\'s line "{lc.text}" was set aside: carrying it out failed with '
                                        f"{fault}. Look at it, and tell the player.", data={"cmd": cmd.cmd})
        return
    if spec.voluntary:
        hooks.call(ctx).on_action(ctx, player, cmd)
    ctx.emit("action", None if spec.private else text, player=name, ok=True, ref=ref,
             private=text if spec.private else None, data={"cmd": cmd.cmd})


_NONE = object()


@dataclass
class _Snapshot:
    """The state before an action (XXII.4): pickled, but for the rules and their history."""

    blob: bytes
    rules: Any
    #: each rule's history (the same list objects as the state's then) and, in the same order,
    #: their lengths then: a history is only ever added to, so its first ``n`` revisions are the
    #: history as it was, and nothing is copied unless an action has to be undone
    rule_history: dict[str, list[Any]]
    lengths: list[int]


def _snapshot(state: GameState, scratch: dict[str, Any]) -> _Snapshot | tuple[GameState, dict[str, Any]]:
    """The state before an action, kept to put back if the action fails (XXII.4). Pickled: the
    same copy as ``copy.deepcopy`` at a fraction of its cost, which is paid before every action of
    a 200-player update, while the copy is read back only when an action fails. The rules are
    kept by reference (they are never changed in place: a change makes a new Ruleset, see
    ``apply_directives``) and their history as its lists and their lengths (it is only ever added
    to), so that the snapshot's cost does not grow with every accepted proposal. Something
    that cannot be pickled falls back to ``copy.deepcopy``."""
    rules, history = state.rules, state.rule_history
    # (left out of the pickle for a moment: put back below, whatever happens)
    state.rules, state.rule_history = None, {}  # type: ignore[assignment]
    # the email being carried out is set before each action: not part of what an action changes
    received = scratch.pop("received", _NONE)
    try:
        blob = pickle.dumps((state, scratch), pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        blob = None
    finally:
        state.rules, state.rule_history = rules, history
        if received is not _NONE:
            scratch["received"] = received
    if blob is None:
        return copy.deepcopy((state, scratch))
    return _Snapshot(blob, rules, dict(history), list(map(len, history.values())))


def _unchanged(saved: _Snapshot | tuple[GameState, dict[str, Any]], state: GameState, scratch: dict[str, Any]) -> bool:
    """Whether a failed action left the state as the snapshot has it (most fail before changing
    anything): then there is nothing to put back, and the snapshot serves the next action too.
    The rules and every rule's history list, which the snapshot keeps aside, must be the very
    objects it kept, the lists no longer than they were."""
    if not isinstance(saved, _Snapshot) or state.rules is not saved.rules or \
            list(state.rule_history) != list(saved.rule_history) or \
            not all(map(operator.is_, state.rule_history.values(), saved.rule_history.values())) or \
            list(map(len, state.rule_history.values())) != saved.lengths:
        return False
    again = _snapshot(state, scratch)
    return isinstance(again, _Snapshot) and again.blob == saved.blob


def _restore(saved: _Snapshot | tuple[GameState, dict[str, Any]]) -> tuple[GameState, dict[str, Any]]:
    if not isinstance(saved, _Snapshot):
        return saved
    state, scratch = pickle.loads(saved.blob)
    state.rules = saved.rules
    state.rule_history = {k: v[:n] for (k, v), n in zip(saved.rule_history.items(), saved.lengths)}
    return state, scratch


def _status_text(ctx: UpdateContext, player: Player) -> str:
    """The reply to STATUS: money and square, and what each module adds (private parts too)."""
    parts = [(20, f", on square {player.square}")] if player.square else []  # 0: a game with no board
    parts += hooks.call(ctx).status_parts(ctx.state, player)
    return f"{player.name}: {ctx.state.money(player.money)}" + "".join(ordered(parts)) + "."
