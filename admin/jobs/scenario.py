"""Rule scenarios: a small YAML sets up a game, forces its dice and draws, plays the mail of one or
more updates, and compares the outcome with what is expected (``nomopoly scenario run``).

The format is in ``docs/scenarios.md``. In short::

    game: nomopoly2
    players: [alice, bob]               # or {alice: {money: 500, hand: [KS]}, bob: {}}
    squares: {6: {owner: bob, card: QH}}
    params: {ownership: {rent_per_number: 4}}
    updates:
      - order: [alice, bob]             # the turn order (IX.1)
        dice: [2, 3, 4, 1]              # turn dice, in the order they are rolled
        draws: [JD]                     # hidden card draws, in order
        mail: {alice: "BUY"}
        rulings: [{kind: adjust, args: {player: bob, money: 50}, note: gift}]
    expect:                             # a partial match of `status --json --private`
      players: {alice: {money: 9850}}
    expect_events: ["alice paid $60 rent to bob for square 6."]
    expect_receipts: {alice: {BUY: done}}   # each line's verdict in its sender's receipt
    expect_rules: {VI.9: "4 times"}     # words each rule's text holds at the end

Everything else random (the order of actions, a new square's chance) comes from ``seed``.
"""

from __future__ import annotations

import copy
from typing import get_type_hints
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from admin.engine import hooks
from admin.games import catalog as games
from admin.engine.playingcards import DECK, parse_card
from admin.engine.board import add_square, destroy_square
from admin.engine.config import disable_module, enable_module, set_param
from admin.engine.dice import Dice, Roll
from admin.engine.events import Event, Ruling
from admin.engine.update import LineCommand, Submission, run_update
from admin.engine.errors import NomopolyError, RuleError, StateError
from admin.mail.inbound.grammar import grammar_for, parse_text
from admin.games.registry import REGISTRY
from admin.engine.model import GameState, Player
from admin.jobs.roster import add_player
from admin.mail.outbound.verdicts import LoggedLine, LoggedMessage, events_by_ref, judge_lines
from admin.site.export import private_status, public_status
from admin.jobs.preview import add_previews
from admin.store.plain import from_data

_TOP = {"name", "game", "players", "squares", "board", "params", "enable", "disable", "admin_bank", "state", "private",
        "decks", "paused", "seed", "updates", "expect", "expect_public", "expect_events", "expect_receipts",
        "expect_rules", "rules"}
_UPDATE = {"order", "dice", "draws", "rolls", "mail", "rulings", "received", "seed"}


class ScenarioError(StateError):
    """The scenario file itself is wrong: it names the file, the key, and what is valid."""


@dataclass
class ForcedDice(Dice):
    """Dice whose turn rolls, hidden draws and turn order are forced, in order; any other roll
    is derived from the scenario's seed as usual."""

    forced: deque[int] = field(default_factory=deque)
    draws: deque[int] = field(default_factory=deque)
    order: list[str] | None = None
    #: label prefix -> values, for any other roll (``newsquare``, ``actions`` ...)
    others: dict[str, deque[int]] = field(default_factory=dict)

    def roll(self, label: str, sides: int) -> int:
        queue = self.forced if label.startswith("turn/") else next(
            (q for prefix, q in self.others.items() if label.startswith(prefix)), None)
        if queue is None:
            return super().roll(label, sides)
        if not queue:
            raise ScenarioError(f"the scenario's forced rolls ran out at u{self.update}/{label} (a d{sides}); "
                                "add a value for it")
        return self._take(queue, label, sides, self.rolls)

    def roll_hidden(self, label: str, sides: int, player: str | None = None) -> int:
        if not label.startswith("card/"):
            return super().roll_hidden(label, sides, player)
        if not self.draws:
            raise ScenarioError(f"the scenario's forced draws ran out at u{self.update}/{label}; add a "
                                "card to `draws`")
        return self._take(self.draws, label, sides, self.hidden_rolls)

    def shuffle(self, items: Any, label: str) -> list[Any]:
        if label == "order" and self.order is not None:
            if sorted(self.order) != sorted(items):
                raise ScenarioError(f"`order` {self.order} must name each player taking a turn once: "
                                    f"{sorted(items)}")
            return list(self.order)
        return super().shuffle(items, label)

    def _take(self, queue: deque[int], label: str, sides: int, record: list[Roll]) -> int:
        full = self._label(label)
        value = queue.popleft()
        if not 1 <= value <= sides:
            raise ScenarioError(f"the forced value {value} for {full} does not fit a d{sides}")
        record.append(Roll(full, sides, value))
        return value

    def leftover(self) -> list[str]:
        out = [f"{len(self.forced)} forced dice ({list(self.forced)})"] if self.forced else []
        out += [f"{len(self.draws)} forced draws"] if self.draws else []
        out += [f"{len(q)} forced '{p}' rolls" for p, q in self.others.items() if q]
        return out


@dataclass
class Outcome:
    file: str
    differences: list[str]
    state: GameState | None = None
    events: list[Event] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def run_file(path: Path) -> Outcome:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: cannot read the scenario: {exc}") from None
    return run(data, str(path))


def run(data: Any, where: str) -> Outcome:
    if not isinstance(data, dict):
        raise ScenarioError(f"{where}: a scenario is a mapping (game, players, updates, expect ...)")
    _keys(data, _TOP, where)
    state = setup(data, where)
    events: list[Event] = []
    receipts: dict[str, dict[str, str]] = {}
    for i, update in enumerate(data.get("updates") or [], 1):
        state, evs = play_update(state, update or {}, f"{where}: updates[{i}]", i, receipts)
        events += evs
    return Outcome(where, compare(data, state, events) + _compare_receipts(data, receipts), state, events)


def _compare_receipts(data: dict[str, Any], receipts: dict[str, dict[str, str]]) -> list[str]:
    """``expect_receipts: {alice: {"MINE 2 Sludge": not done}}``: the verdict the line's receipt
    gives it (done, not done, no result, not understood ...), the last time the line was sent."""
    want = data.get("expect_receipts") or {}
    if not isinstance(want, dict) or not all(isinstance(v, dict) for v in want.values()):
        return [f"expect_receipts: {want!r} is not player -> {{line: verdict}}; write "
                "expect_receipts: {alice: {BUY: done}}"]
    out = []
    for player, lines in want.items():
        got = receipts.get(str(player), {})
        for text, verdict in lines.items():
            if got.get(str(text)) != str(verdict):
                out.append(f"receipts.{player}.{text}: expected {verdict!r}, got {got.get(str(text))!r}"
                           + ("" if str(text) in got else f" (lines sent: {sorted(got)})"))
    return out


def setup(data: dict[str, Any], where: str) -> GameState:
    game = str(data.get("game", games.DEFAULT))
    if game not in games.available():
        raise ScenarioError(f"{where}: game: {game!r} is not a bundled game; bundled: "
                            f"{', '.join(games.available())}")
    state = games.initial_state(game, "scenario")
    for name in data.get("enable") or []:
        if not state.enabled(str(name)):  # one listed may have come already with another it needs
            enable_module(state, REGISTRY, str(name))
    for name in data.get("disable") or []:  # a rule tried without another mechanic's interference
        _guard(where, f"disable.{name}", lambda: disable_module(state, str(name)))
    for module, values in (data.get("params") or {}).items():
        for key, value in (values or {}).items():
            _guard(where, f"params.{module}.{key}", lambda: set_param(state, REGISTRY, module, key, value))
    # the board grows as the game's VI.17 says (params.board.new_square_percent_times_n: 0 turns it off)
    if "board" in data and (isinstance(data["board"], bool) or not isinstance(data["board"], int) or data["board"] < 1):
        raise ScenarioError(f"{where}: board: {data['board']!r}: the number of squares the board has, 1 or more")
    while len(state.squares) < int(data.get("board", len(state.squares))):
        add_square(state, hooks.call(state, REGISTRY))
    del state.squares[int(data.get("board", len(state.squares))):]  # exactly as many (a game may start with more)
    players = data.get("players") or {}
    if isinstance(players, list):
        players = {name: {} for name in players}
    for name, fields in players.items():
        _guard(where, f"players.{name}", lambda: add_player(state, str(name), f"{name}@scenario.invalid"))
        for key, value in (fields or {}).items():
            set_player(state, state.players[str(name)], str(key), value, f"{where}: players.{name}.{key}")
    for number, fields in (data.get("squares") or {}).items():
        if not str(number).isdecimal():
            raise ScenarioError(f"{where}: squares.{number}: a square is a number (squares: {{7: {{owner: bob}}}})")
        square = state.square(int(number))
        if square is None:
            raise ScenarioError(f"{where}: squares.{number}: the board has squares 1 to {len(state.squares)}")
        for key, value in (fields or {}).items():
            if key == "name":
                square.name = value
            elif key == "destroyed":  # as a missile or a ruling destroys it: every module forgets it
                if value:
                    destroy_square(state, square.number, hooks.call(state, REGISTRY))
            elif not hooks.call(state, REGISTRY).set_square(state, square, str(key), value):
                raise ScenarioError(f"{where}: squares.{number}.{key}: no module of this game keeps a "
                                    f"square's {key}; keys: name, owner, paid, card, polluted, "
                                    "contaminated, railroad ...")
    for module, values in (data.get("state") or {}).items():
        _override(state.mods, str(module), values or {}, f"{where}: state")
    for module, values in (data.get("private") or {}).items():
        _override(state.private.mods, str(module), values or {}, f"{where}: private")
    for name, cards in (data.get("decks") or {}).items():
        _stack(state, str(name), cards, f"{where}: decks.{name}")
    if "admin_bank" in data:  # after the players' starting money
        if not isinstance(data["admin_bank"], int) or isinstance(data["admin_bank"], bool):
            raise ScenarioError(f"{where}: admin_bank: {data['admin_bank']!r} is not a whole number of dollars")
        state.admin_bank = data["admin_bank"]
    state.paused = bool(data.get("paused", False))
    return state


def _stack(state: GameState, name: str, cards: Any, where: str) -> None:
    """``decks: {name: [top card, ...]}``: a face-down pile as its first shuffle leaves it (the
    deal and the draws take it from the top; it is shuffled only once it runs out)."""
    from admin.engine.decks import DeckState

    if not isinstance(cards, list) or not cards:
        raise ScenarioError(f"{where}: the pile from the top, a list of card ids ([\"7\", \"3\"])")
    piles = hooks.call(state, REGISTRY).face_down_piles(state) or {}
    pile = piles.get(name)
    if pile is None:  # a pile its mechanic makes at its first draw (Timopoly's decks)
        keeper = next((mod for mod in state.private.mods.values()
                       if isinstance(getattr(mod, "piles", None), dict)), None)
        if keeper is None:
            raise ScenarioError(f"{where}: this game has no face-down deck {name!r}; its decks: "
                                f"{', '.join(sorted(piles)) or 'none'}")
        pile = keeper.piles.setdefault(name, DeckState())
    pile.pile, pile.discard = [str(c) for c in cards], []


def set_player(state: GameState, player: Player, key: str, value: Any, where: str) -> None:
    if key == "square" and state.square(int(value)) is None:  # (a board this game does not start with)
        raise ScenarioError(f"{where}: square {value} is not on the board, which has squares 1 to "
                            f"{len(state.squares)}; set `board:` to the number of squares you need")
    if key in ("money", "square"):
        setattr(player, key, int(value))
    elif key == "status":
        player.status = value
    elif not hooks.call(state, REGISTRY).set_player(state, player, key, value):
        raise ScenarioError(f"{where}: no module of this game keeps a player's {key}; keys: money, "
                            "square, status, health, resets, hand, transport, last_action_week ...")


def play_update(state: GameState, update: dict[str, Any], where: str, n: int,
                receipts: dict[str, dict[str, str]] | None = None) -> tuple[GameState, list[Event]]:
    _keys(update, _UPDATE, where)
    subs, parse_errors, logged = [], [], []
    for i, (name, text) in enumerate((update.get("mail") or {}).items()):
        who = str(name)
        player = who if who in state.players else None
        commands, lines = [], []
        for v in parse_text(str(text), grammar_for(state)):
            lines.append(LoggedLine(v.first_line, v.last_line, v.text,
                                    None if v.command is None else {"cmd": v.command.cmd}, v.error))
            if v.command is None:
                parse_errors.append(Event("parse-error", v.error, player=player))
            else:
                commands.append(LineCommand(v.first_line, v.text, v.command))
        logged.append((who, LoggedMessage(f"scenario-{n}-{i}", "", "", player, who, "", "mail", "acted",
                                          None, tuple(lines))))
        when = (update.get("received") or {}).get(name) or f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00"
        subs.append(Submission(key=f"scenario-{n}-{i}", player=player, sender=f"{who}@scenario.invalid",
                               received=str(when), commands=commands))
    rulings = [Ruling(kind=str(r["kind"]), args=dict(r.get("args") or {}), note=str(r.get("note", "")))
               for r in update.get("rulings") or []]
    def forced_dice() -> ForcedDice:
        return ForcedDice(
            seed=str(update.get("seed", "scenario")).encode(), digest=f"scenario/{n}", update=state.update + 1,
            forced=deque(int(v) for v in update.get("dice") or []),
            draws=deque(_card_index(c, where) for c in update.get("draws") or []),
            order=[str(p) for p in update["order"]] if update.get("order") is not None else None,
            others={str(k): deque(int(v) for v in vs) for k, vs in (update.get("rolls") or {}).items()})

    dice = forced_dice()
    try:
        result = run_update(state, subs, rulings, dice, REGISTRY)
    except ScenarioError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    left = dice.leftover()
    if left:
        raise ScenarioError(f"{where}: unused: {'; '.join(left)}; the update did not roll them")
    if receipts is not None:
        by_ref = events_by_ref(result.events)
        for who, message in logged:
            for r in judge_lines(message, by_ref):
                receipts.setdefault(who, {})[r.text] = r.verdict
    # each open proposal's preview: the update again with it in force, on the same forced dice
    add_previews(state, result.state, lambda trial: run_update(trial, subs, rulings, forced_dice(), REGISTRY).state)
    return result.state, parse_errors + result.events


def compare(data: dict[str, Any], state: GameState, events: list[Event]) -> list[str]:
    out: list[str] = []
    if data.get("expect"):
        _match(data["expect"], private_status(state), "", out)
    for rule_id, words in (data.get("expect_rules") or {}).items():  # what the rules page says
        try:
            text = state.rules.rule(str(rule_id)).text
        except RuleError as exc:
            out.append(f"expect_rules.{rule_id}: {exc}")
            continue
        if str(words) not in " ".join(text.split()):
            out.append(f"expect_rules.{rule_id}: expected the text to say {words!r}; it reads {text!r}")
    if data.get("expect_public"):  # what the site's state.json shows, to everyone
        _match(data["expect_public"], public_status(state), "public", out)
    said = {t for e in events for t in (e.text, e.private) if t}
    for text in data.get("expect_events") or []:
        if not isinstance(text, str):  # "a: b" unquoted in YAML is a mapping
            out.append(f"expect_events: {text!r} is not a text; quote a line that holds ': ' "
                       "(- 'alice received $30: ...')")
            continue
        if text not in said:
            near = sorted(said, key=lambda t: -_common(t, text))[:1]
            out.append(f"events: expected {text!r}, not said" + (f" (closest: {near[0]!r})" if near else ""))
    return out


def _match(expected: Any, got: Any, path: str, out: list[str]) -> None:
    if isinstance(expected, dict) and isinstance(got, list):  # players by name, squares by number
        index = {str(item["number"] if "number" in item else item.get("name")): item
                 for item in got if isinstance(item, dict)}
        for key, value in expected.items():
            if value is None:  # null: no such entry (a square destroyed is none either)
                if str(key) in index and not index[str(key)].get("destroyed"):
                    out.append(f"{path}.{key}: expected none, got {index[str(key)]!r}")
            elif str(key) not in index:
                out.append(f"{path}.{key}: expected an entry, got none (have: {', '.join(sorted(index))})")
            else:
                _match(value, index[str(key)], f"{path}.{key}", out)
    elif isinstance(expected, dict) and isinstance(got, dict):
        if not expected and got:  # {} means empty: nothing held, nothing kept
            out.append(f"{path}: expected nothing, got {got!r}")
        for key, value in expected.items():
            if isinstance(key, bool):  # YAML 1.1 reads a bare key yes/no as true/false
                key = "yes" if key else "no"
            here = f"{path}.{key}" if path else str(key)
            found = got.get(key, got.get(str(key), _MISSING))
            if value is None and found in (_MISSING, None, {}, []):
                continue  # null: absent, or nothing there
            if found is _MISSING:
                out.append(f"{here}: expected {value!r}, got nothing")
            else:
                _match(value, found, here, out)
    elif expected != got:
        out.append(f"{path}: expected {expected!r}, got {got!r}")


_MISSING = object()


def _common(a: str, b: str) -> int:
    return len(set(a.split()) & set(b.split()))


def _card_index(card: Any, where: str) -> int:
    parsed = parse_card(str(card))
    if parsed is None:
        raise ScenarioError(f"{where}: draws: {card!r} is not a card; write rank and suit, like QH or 10S")
    return DECK.index(parsed) + 1


def _override(mods: dict[str, Any], module: str, values: dict[str, Any], where: str) -> None:
    """Set fields of a module's state from plain data, typed as the field says (a pile of cards,
    a fixed order of seats ...)."""
    target = mods.get(module)
    if target is None:
        raise ScenarioError(f"{where}.{module}: the game has no module {module!r} keeping state there; "
                            f"modules that do: {', '.join(sorted(mods))}")
    hints = get_type_hints(type(target))
    for key, value in values.items():
        if key not in hints:
            raise ScenarioError(f"{where}.{module}.{key}: no such field; fields: {', '.join(sorted(hints))}")
        setattr(target, key, from_data(hints[key], copy.deepcopy(value), f"{where}.{module}.{key}"))


def _keys(data: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(map(str, data)) - allowed)
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(unknown)}; valid: {', '.join(sorted(allowed))}")


def _guard(where: str, key: str, fn: Any) -> None:
    try:
        fn()
    except NomopolyError as exc:
        raise ScenarioError(f"{where}: {key}: {exc}") from None
