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

from admin.library.money import MoneyModule
from admin.nomic.proposals import ProposalsModule
from admin.engine import hooks
from admin.engine.playingcards import DECK
from admin.engine.dice import commitment, player_key
from admin.engine.seedchain import next_link
from admin.engine.events import Event
from admin.engine.plaintext import visible
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.mail.outbound import verdicts
from admin.mail.outbound import texts
from admin.engine.shows import ordered
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
    messages: tuple[verdicts.LoggedMessage, ...]
    events: tuple[Event, ...]
    rulings: tuple[dict[str, Any], ...]
    #: the update's dice as the private log keeps them (seeds, digest, hidden draws)
    dice: dict[str, Any] | None = None
    #: the update's public record (its results file), and its link in the record chain
    record: dict[str, Any] | None = None
    link: str | None = None


def load_update_log(game: GameDir, update: int) -> UpdateLog:
    path = game.update_logs().get(update)
    if path is None:
        raise StateError(f"there is no log of update {update} in {game.log_dir}; updates run: "
                         f"{', '.join(map(str, sorted(game.update_logs()))) or 'none'}")
    data = load_json(path)
    inputs = data["inputs"]
    public = game.results_path(update)
    record = load_json(public) if public.exists() else None
    if record is not None and "previous" not in record:  # written before the record chain
        record = None
    events = tuple(event_of(e, path, i) for i, e in enumerate(data.get("events") or []))
    head = next((e.data for e in events if e.kind == "update"), {})
    return UpdateLog(update=update, week=int(head.get("week", 0)), slot=str(head.get("slot", "")),
                     cutoff=str(inputs.get("cutoff", "")),
                     messages=tuple(verdicts.LoggedMessage.from_record(m)
                                    for m in inputs.get("messages") or []),
                     events=events, rulings=tuple(inputs.get("rulings") or []), dice=data.get("dice"),
                     record=record, link=next_link(record.get("previous"), record) if record else None)


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
        return cls(by_ref=verdicts.events_by_ref(events), by_player=by_player,
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
    #: the public record and its link (each player's results carry the commitments and the link)
    record: dict[str, Any] | None = None
    chain_link: str | None = None

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
                   draws=draws_by_player(log.dice), record=log.record, chain_link=log.link,
                   link=f"{site_url}/updates/{log.update:04d}.html" if site_url else None)


def standing(state: GameState, player: Player) -> tuple[str, ...]:
    """"Where you stand": money and square, and each module's lines (private ones too)."""
    kept = state.enabled(MoneyModule.name) and bool(REGISTRY.params(state, "money").get("kept", True))
    parts = [(0, f"  Money: {state.money(player.money)}")] if kept else []  # Technopoly keeps none
    if state.layout != "none":  # a game without a board has no squares to stand on
        parts.append((20, f"  Square: {_square(state, player.square)}"))
    parts += hooks.call(state, REGISTRY).results_lines(state, player)
    return tuple(ordered(parts))



def results_view(index: ResultsIndex, state: GameState, name: str) -> texts.ResultsView:
    player = state.players[name]
    proposals = []
    for p in index.voting:
        vote = p.votes.get(name)
        mine = (f"your vote: {vote.choice.upper()} (you may change it)" if vote else
                f"not voted yet: send VOTE {p.number} YES, NO or ABSTAIN")
        proposals.append(f"{p.number}. {visible(p.title)} (by {p.proposer}): {mine}")
    return texts.ResultsView(
        player=name, update=index.update, week=index.week, slot=index.slot,
        happened=capped(tuple(line for e in index.events.about(name) if e.kind not in REPLIES
                              for line in [texts.event_line(e, name)] if line)),
        press=tuple(visible(e.private, newlines=True) for e in index.events.about(name)
                    if e.kind == "press" and e.player == name and e.private),
        standing=standing(state, player), proposals=tuple(proposals), deadline=index.deadline, link=index.link,
        everything=index.events.public, game_over=index.game_over,
        draws=own_draws(index.dice, name, index.draws.get(name, [])),
        record=record_lines(index.record, index.chain_link, name), votes=state.enabled(ProposalsModule.name))


#: events told elsewhere: the answers to an email (HELP, STATUS) in its receipt, press in its own section
REPLIES = ("help", "status", "press")
#: the characters of "What happened to you" one results mail holds
HAPPENED_BUDGET = 50_000


def capped(lines: tuple[str, ...], budget: int = HAPPENED_BUDGET) -> tuple[str, ...]:
    """``lines`` within ``budget`` characters, and a last line saying how many were left out and
    where to read them."""
    spent = 0
    for i, line in enumerate(lines):
        spent += len(line) + 1
        if spent > budget:
            return (*lines[:i], f"... and {len(lines) - i} more: the update's page on the site lists what "
                                "was public of them, and your receipts the answers to your emails.")
    return lines


def record_lines(record: dict[str, Any] | None, link: str | None, name: str) -> tuple[str, ...]:
    """What ``name`` keeps of the update's record: its seed and the commitment it answered, what of
    theirs entered the dice, the next update's commitments (theirs too), and the record chain's
    head. Another copy of any of these, later, that differs from this one is a rewrite."""
    if not record or not link:
        return ()
    n, dice = int(record["update"]), record.get("dice") or {}
    lines = [f"  Update {n}'s seed: {dice.get('seed', '')}",
             f"  Its commitment, sent to you before the update: {dice.get('commitment', '')}"]
    if int(dice.get("scheme", 1)) >= 3:
        lines.append(f"  Your commands as they entered the dice: {(dice.get('players') or {}).get(name) or 'none'}")
    lines += [f"  Commitment for update {n + 1}: {record.get('next_commitment', '')}",
              f"  Hidden-seed commitment for update {n + 1}: {record.get('next_hidden_commitment', '')}"]
    mine = (record.get("next_player_commitments") or {}).get(name)
    if mine:
        lines.append(f"  Your key's commitment for update {n + 1}: {mine}")
    lines.append(f"  Record chain to update {n}: {link}")
    return tuple(lines)


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
    (their draws, from :func:`draws_by_player`); and each card they took face down from a pile,
    with its place in the order the last update committed to and that place's salt."""
    piles = [d for d in (dice or {}).get("pile_draws") or [] if d[4] == name and d[1] is not None]
    lines = [f"  From the {deck} pile: {card}, place {place + 1} of the order committed in the last update's "
             f"record (\"pile_commitments\"), salt {salt}; SHA-256(salt bytes + card) is that place's hash"
             for deck, place, card, salt, _ in piles]
    return _key_lines(dice, name, mine) + tuple(lines)


def _key_lines(dice: dict[str, Any] | None, name: str, mine: list[Any]) -> tuple[str, ...]:
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
