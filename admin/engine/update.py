"""The pipeline of one update: ``run_update(state, submissions, rulings, dice) -> (state, events)``.

Pure: it touches no file, clock or network, and the same inputs give the same output.
Order (IX): the Admin's rulings; join requests; every player's actions (BUY first, by landing
priority, XIII.3; PROPOSE next, numbered in the order received; then the rest round-robin in a
random order, IX.5); one turn per player in a random order (IX.1); end-of-update effects (voting,
removal, the end of the game).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from admin.engine.commands import Buy, Command, Join, Propose
from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.events import Event, Ruling
from admin.engine.registry import REGISTRY
from admin.engine.rules.schedule import slot_of
from admin.engine.rules.turns import take_turns
from admin.engine.rulings import apply_ruling
from admin.errors import IllegalAction, NomopolyError
from admin.model import GameState, JoinRequest, Proposal
from admin.nomic.proposals import archive_closed

#: commands that are not voluntary game actions (III.5 counts only the others)
_NOT_ACTIONS = frozenset({"status", "token"})


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
               dice: Dice) -> UpdateResult:
    state = copy.deepcopy(state)
    slots = REGISTRY.params(state, "schedule")["slots"]
    state.update += 1
    state.week, slot = slot_of(slots, state.update)
    ctx = UpdateContext(state=state, dice=dice, slot=slot, registry=REGISTRY)
    ctx.emit("update", f"Update {state.update}: week {state.week}, {slot.name}.",
             data={"update": state.update, "week": state.week, "slot": slot.name})
    for ruling in rulings:
        apply_ruling(ctx, ruling)
    if state.ended:
        ctx.emit("ended", f"The game is over ({state.end_reason}); nothing more happens.")
        return UpdateResult(state, ctx.events)
    for module in REGISTRY.enabled(state):
        module.on_update_start(ctx)
    _joins(ctx, [s for s in submissions if s.player is None])
    _actions(ctx, [s for s in submissions if s.player is not None])
    if state.paused:
        ctx.emit("paused", "The game is paused: no turns are taken (X.1).", rule="X.1")
    else:
        take_turns(ctx)
    for module in REGISTRY.enabled(state):
        module.on_update_end(ctx)
    return UpdateResult(state, ctx.events, archive_closed(state))


def _joins(ctx: UpdateContext, submissions: list[Submission]) -> None:
    for sub in submissions:
        for lc in sub.commands:
            ref = f"{sub.key}#{lc.line}"
            if isinstance(lc.command, Join):
                ctx.state.private.join_requests.append(
                    JoinRequest(name=lc.command.name, email=sub.sender, update=ctx.state.update))
                ctx.emit("join", f"A new player asked to join as {lc.command.name!r}; the Admin "
                                 "decides (III.4).", rule="III.4", ref=ref,
                         private="Your request to join was passed to the Admin.")
            else:
                ctx.emit("action", None, ok=False, ref=ref,
                         private=f'"{lc.text}" was not done: only JOIN <name> is accepted from an '
                                 "address that is not a player's")


def _actions(ctx: UpdateContext, submissions: list[Submission]) -> None:
    queues: dict[str, list[tuple[Submission, LineCommand]]] = {}
    for sub in sorted(submissions, key=lambda s: (s.received, s.key)):
        for lc in sub.commands:
            queues.setdefault(sub.player, []).append((sub, lc))  # type: ignore[arg-type]
    # BUY first, in the order the buyers landed (XIII.3)
    buys = [(name, item) for name, items in queues.items() for item in items
            if isinstance(item[1].command, Buy)]
    rights = {(r.player, r.square): r.order for r in ctx.state.buy_rights}
    latest = {}
    for r in ctx.state.buy_rights:
        latest[r.player] = max(latest.get(r.player, -1), r.order)

    def priority(entry):
        name, (_, lc) = entry
        sq = lc.command.square
        return rights.get((name, sq), 10**9) if sq is not None else latest.get(name, 10**9)

    for name, item in sorted(buys, key=priority):
        _do(ctx, name, *item)
    # proposals next, numbered in the order they were received (not interdependent, IX.5)
    proposals = sorted(((name, item) for name, items in queues.items() for item in items
                        if isinstance(item[1].command, Propose)),
                       key=lambda e: (e[1][0].received, e[1][0].key, e[1][1].line))
    for name, item in proposals:
        _do(ctx, name, *item)
    first = (Buy, Propose)
    rest = {name: [i for i in items if not isinstance(i[1].command, first)] for name, items in queues.items()}
    order = ctx.dice.shuffle(sorted(n for n in rest if rest[n]), "actions")
    while any(rest[n] for n in order):
        for name in order:
            if rest[name]:
                _do(ctx, name, *rest[name].pop(0))


def _do(ctx: UpdateContext, name: str, sub: Submission, lc: LineCommand) -> None:
    ref = f"{sub.key}#{lc.line}"
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
    if cmd.cmd == "join":
        ctx.emit("action", None, player=name, ok=False, ref=ref,
                 private=f'"{lc.text}" was not done: you are already a player')
        return
    table = REGISTRY.handlers(ctx.state)
    if cmd.cmd not in table:
        ctx.emit("action", f'{name}: "{lc.text}" was not done: no rule in force allows it.',
                 player=name, ok=False, ref=ref)
        return
    if name in ctx.barred:
        ctx.emit("action", f'{name}: "{lc.text}" was not done: {name} may take no voluntary action '
                           "this update.", player=name, ok=False, ref=ref)
        return
    _, handler = table[cmd.cmd]
    before = len(ctx.events)
    try:
        text = handler(ctx, player, cmd)
    except IllegalAction as exc:
        del ctx.events[before:]  # a failed action leaves no trace but its verdict
        ctx.emit("action", f'{name}: "{lc.text}" was not done: {exc}', player=name, ok=False,
                 ref=ref, data={"cmd": cmd.cmd})
        return
    except NomopolyError as exc:  # pragma: no cover - a rule module bug must not sink the update
        del ctx.events[before:]
        ctx.emit("action", f'{name}: "{lc.text}" was not done: {exc}', player=name, ok=False, ref=ref)
        return
    if cmd.cmd not in _NOT_ACTIONS:
        player.last_action_week = ctx.state.week
    private_only = cmd.cmd == "bury"
    ctx.emit("action", None if private_only else text, player=name, ok=True, ref=ref,
             private=text if private_only else None, data={"cmd": cmd.cmd})


def _status_text(ctx: UpdateContext, player) -> str:
    owned = [s.number for s in ctx.state.squares if s.owner == player.name]
    return (f"{player.name}: ${player.money}, {player.health} health, on square {player.square}; "
            f"squares owned: {', '.join(map(str, owned)) or 'none'}; "
            f"cards: {', '.join(player.cards) or 'none'}.")
