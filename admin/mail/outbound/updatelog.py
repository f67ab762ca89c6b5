"""What an update tells mail out: its log (emails, lines, events) and each player's results view.

``state/log/*-update-<n>.json`` holds every event of the update (thousands in a large game).
Mail out answers each email from the events of its lines and shows each player the events about
them, their squares, cards and votes. :class:`EventIndex` and :class:`ResultsIndex` sort all of
that by player in one pass per update, so composing an update's mail costs in proportion to the
players and emails, not to players times events (or times squares).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from admin.engine.playingcards import DECK
from admin.engine.dice import commitment, player_key
from admin.engine.events import Event
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.mail.outbound import compose
from admin.mail.outbound import texts
from admin.engine.module import ordered
from admin.games.registry import REGISTRY
from admin.engine.model import GameState, Player, Proposal
from admin.store.fileio import load_json
from admin.store.plain import from_data


@dataclass(frozen=True)
class UpdateLog:
    """What ``state/log/*-update-<n>.json`` says: the emails and their lines, and the events."""

    update: int
    week: int
    slot: str
    cutoff: str
    messages: tuple[compose.LoggedMessage, ...]
    events: tuple[Event, ...]
    rulings: tuple[dict[str, Any], ...]
    #: the update's dice as the private log keeps them (seeds, digest, hidden draws)
    dice: dict[str, Any] | None = None


def load_update_log(game: GameDir, update: int) -> UpdateLog:
    path = game.update_logs().get(update)
    if path is None:
        raise StateError(f"there is no log of update {update} in {game.log_dir}; updates run: "
                         f"{', '.join(map(str, sorted(game.update_logs()))) or 'none'}")
    data = load_json(path)
    inputs = data["inputs"]
    events = tuple(event_of(e, path, i) for i, e in enumerate(data.get("events") or []))
    head = next((e.data for e in events if e.kind == "update"), {})
    return UpdateLog(update=update, week=int(head.get("week", 0)), slot=str(head.get("slot", "")),
                     cutoff=str(inputs.get("cutoff", "")),
                     messages=tuple(compose.LoggedMessage.from_record(m)
                                    for m in inputs.get("messages") or []),
                     events=events, rulings=tuple(inputs.get("rulings") or []), dice=data.get("dice"))


_NONE = type(None)
_EVENT_TYPES: dict[str, tuple[type, ...]] = {
    "kind": (str,), "text": (str, _NONE), "player": (str, _NONE), "private": (str, _NONE),
    "rule": (str, _NONE), "ok": (bool,), "ref": (str, _NONE), "data": (dict,),
}
assert set(_EVENT_TYPES) == {f.name for f in dataclasses.fields(Event)}, "Event changed: update this"


def event_of(record: Any, path: Path, index: int) -> Event:
    """``from_data(Event, record)``, checked as strictly, at a fraction of its cost per event.

    A record as the update wrote it (known fields of the right types; JSON keys are text) is
    passed to ``Event`` directly; anything else goes through :func:`~admin.store.plain.from_data`, whose
    error names the file, the event and the field.
    """
    if (type(record) is dict and "kind" in record
            and all(type(v) in _EVENT_TYPES.get(k, ()) for k, v in record.items())):
        return Event(**record)
    return from_data(Event, record, f"{path}: events[{index}]")


@dataclass(frozen=True)
class EventIndex:
    """An update's events, indexed once: by the email line they answer and by the player each is
    about (see :meth:`of`), in the update's order."""

    by_ref: dict[str, list[Event]]
    by_player: dict[str, list[Event]]
    public: tuple[str, ...]
    """Every public text, for the "everything that happened" part of each player's results."""

    @classmethod
    def of(cls, events: Iterable[Event]) -> EventIndex:
        events = list(events)
        by_player: dict[str, list[Event]] = {}
        for e in events:
            for name in about(e):
                by_player.setdefault(name, []).append(e)
        return cls(by_ref=compose.events_by_ref(events), by_player=by_player,
                   public=tuple(e.text for e in events if e.text))

    def about(self, player: str) -> list[Event]:
        return self.by_player.get(player, [])


def about(e: Event) -> list[str]:
    """The players an event is about, each once: its own player, and with a public text, the
    players it names as ``owner``, ``to`` or ``from`` (a rent paid to you, a square you lost)."""
    names = [e.player] if e.player is not None else []
    if e.text:
        for key in ("owner", "to", "from"):
            value = e.data.get(key)
            if isinstance(value, str) and value not in names:
                names.append(value)
    return names


# -- each player's results -----------------------------------------------------------------------
def _square(state: GameState, number: int) -> str:
    sq = state.square(number)
    return f"{number} ({sq.name})" if sq is not None and sq.name else str(number)


@dataclass(frozen=True)
class ResultsIndex:
    """What every player's results draw on, gathered once per update (see :meth:`of`), so that
    each player's view costs only what is theirs."""

    update: int
    week: int
    slot: str
    events: EventIndex
    voting: tuple[Proposal, ...]
    deadline: datetime | None
    link: str | None
    game_over: str | None
    #: the update's dice (private log), for each player's check of their own hidden draws
    dice: dict[str, Any] | None = None
    #: the hidden draws made with each player's key, gathered once (each player's results show theirs)
    draws: dict[str, list[Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, game: GameDir, state: GameState, log: UpdateLog, events: EventIndex,
           site_url: str) -> ResultsIndex:
        from admin.jobs.deadlines import deadline

        over = None
        if state.ended:
            over = f"{state.winner} won" if state.winner else (state.end_reason or "it has ended")
        return cls(update=log.update, week=log.week, slot=log.slot, events=events,
                   voting=tuple(p for p in state.proposals if p.status == "voting"),
                   deadline=deadline(game, state), game_over=over, dice=log.dice,
                   draws=draws_by_player(log.dice),
                   link=f"{site_url}/updates/{log.update:04d}.html" if site_url else None)


def standing(state: GameState, player: Player) -> tuple[str, ...]:
    """"Where you stand": money and square, and each module's lines (private ones too)."""
    kept = state.enabled("money") and bool(REGISTRY.params(state, "money").get("kept", True))
    parts = [(0, f"  Money: {state.money(player.money)}")] if kept else []  # Technopoly keeps none
    if state.layout != "none":  # a game without a board has no squares to stand on
        parts.append((20, f"  Square: {_square(state, player.square)}"))
    for module in REGISTRY.enabled(state):
        parts += module.results_lines(state, player)
    return tuple(ordered(parts))


#: events that answer a question (HELP, STATUS): the receipt carries them, the results do not
ANSWERS_ONLY = frozenset({"help", "status"})


def results_view(index: ResultsIndex, state: GameState, name: str) -> texts.ResultsView:
    player = state.players[name]
    proposals = []
    for p in index.voting:
        vote = p.votes.get(name)
        mine = (f"your vote: {vote.choice.upper()} (you may change it)" if vote else
                f"not voted yet: send VOTE {p.number} YES, NO or ABSTAIN")
        proposals.append(f"{p.number}. {p.title} (by {p.proposer}): {mine}")
    return texts.ResultsView(
        player=name, update=index.update, week=index.week, slot=index.slot,
        happened=tuple(line for e in index.events.about(name) if e.kind not in ANSWERS_ONLY
                       for line in [texts.event_line(e, name)] if line),
        standing=standing(state, player), proposals=tuple(proposals), deadline=index.deadline, link=index.link,
        everything=index.events.public, game_over=index.game_over,
        draws=own_draws(index.dice, name, index.draws.get(name, [])), votes=state.enabled("proposals"))


def draws_by_player(dice: dict[str, Any] | None) -> dict[str, list[Any]]:
    """The update's hidden draws made with a player's key, by player, in order."""
    out: dict[str, list[Any]] = {}
    for r in (dice or {}).get("hidden_rolls") or []:
        if len(r) > 3:
            out.setdefault(r[3], []).append(r)
    return out


def own_draws(dice: dict[str, Any] | None, name: str, mine: list[Any]) -> tuple[str, ...]:
    """How ``name`` checks their hidden draws of this update from this email alone (scheme 2):
    their key, its commitment (published before the update), the digest, and each of ``mine``
    (their draws, from :func:`draws_by_player`)."""
    if not mine:
        return ()
    key = player_key(bytes.fromhex(dice["hidden_seed"]), name)  # type: ignore[index]
    lines = [f"  Your key for this update: {key.hex()}",
             f"  Its SHA-256, published before the update: {commitment(key)}",
             f"  The update's digest: {dice['digest']}"]  # type: ignore[index]
    for label, sides, value, _ in mine:
        card = f" = {DECK[int(value) - 1]}" if label.split("/", 1)[-1].startswith("card/") else ""
        lines.append(f"  {label}: a d{sides} gave {value}{card}")
    return tuple(lines)
