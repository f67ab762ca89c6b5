"""The game state as files, and back: the one place that decides what goes where.

::

    state/game.yaml           the core: update, week, bank, the modules and their parameters ...
    state/board.yaml          the squares (number, name, destroyed)
    state/players.yaml        the players (name, money, square, status, week joined)
    state/proposals.yaml      the live proposals
    state/rules_history.yaml  every rule's revisions
    state/modules/<m>.yaml    each mechanic's public state, with the version of its shape
    state/private.yaml        PRIVATE: addresses, token hashes, join requests
    state/private/<m>.yaml    PRIVATE: each mechanic's private state
    state/private/<m>.<f>.tsv PRIVATE: a table of a mechanic (a field whose metadata says
                              ``table``: a list of flat rows that grows all game long), one line
                              per row under a header naming the columns
    rules_md/*.md             the ruleset, one file per section

Schema 1 (before mechanics owned their state) is migrated on reading (:mod:`admin.store.migrate`).
"""

from __future__ import annotations

import dataclasses
import operator
from pathlib import Path
from typing import Any, Callable

from admin.engine.errors import StateError
from admin.games.registry import REGISTRY
from admin.store.migrate import migrate_v1
from admin.engine.model import GameState, Player, PrivateState, Proposal, RuleRevision, Square
from admin.nomic.ruleset import dump_section, load_ruleset
from admin.store.fileio import dump_yaml
from admin.store.plain import from_data, to_data

SCHEMA = 2
PUBLIC_FILES = ("game.yaml", "board.yaml", "players.yaml", "proposals.yaml", "rules_history.yaml")
#: writes one YAML state file: (its path under state/, its data) -> its text
Dump = Callable[[str, Any], str]
_SPLIT = ("squares", "players", "proposals", "private", "rules", "rule_history", "mods")


# -- tables ------------------------------------------------------------------------------------
def table_fields(cls: type) -> list[dataclasses.Field[Any]]:
    return [f for f in dataclasses.fields(cls) if f.metadata.get("table")]


def _row_type(cls: type, name: str) -> type:
    from typing import get_args, get_type_hints

    row: type
    (row,) = get_args(get_type_hints(cls)[name])
    return row


def table_text(rows: list[Any], row_type: type) -> str:
    """Rows of a flat dataclass as tab-separated lines, with a header naming the columns."""
    names = [f.name for f in dataclasses.fields(row_type)]
    get = operator.attrgetter(*names)
    lines = ["\t".join(names)]
    if len(names) == 1:
        lines += [str(get(r)) for r in rows]
    else:
        lines += ["\t".join(map(str, get(r))) for r in rows]
    return "\n".join(lines) + "\n"


def parse_table(text: str, row_type: type, where: Path) -> list[Any]:
    """The rows of a table written by :func:`table_text`; a damaged line is named with its number.
    (Tens of thousands of rows are read on every update: the columns are converted by position.)"""
    from typing import get_type_hints

    hints = get_type_hints(row_type)
    names = [f.name for f in dataclasses.fields(row_type)]
    lines = text.split("\n")
    header = lines[0].split("\t") if lines and lines[0].strip() else names
    if sorted(header) != sorted(names):
        raise StateError(f"{where}:1: the header names the columns {header}; expected {names}")
    order = [names.index(h) for h in header]
    convert = [int if hints[h] is int else str for h in header]
    width = len(header)
    out = []
    for number, line in enumerate(lines[1:], 2):
        if not line:
            continue
        cells = line.split("\t")
        try:
            if len(cells) != width:
                raise ValueError
            values: list[Any] = [None] * width
            for i, cell in enumerate(cells):
                values[order[i]] = convert[i](cell)
            out.append(row_type(*values))
        except (ValueError, TypeError):
            whole = [h for h, c in zip(header, convert) if c is int]
            raise StateError(f"{where}:{number}: expected {width} tab-separated columns "
                             f"({', '.join(header)}; {', '.join(whole)} whole numbers), found {line!r}; "
                             "fix the line or restore the file with git") from None
    return out


# -- a module's state --------------------------------------------------------------------------
def _module_files(folder: str, name: str, value: Any, version: int, dump: Dump) -> dict[str, str]:
    cls = type(value)
    tables = {f.name for f in table_fields(cls)}
    data = {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(cls) if f.name not in tables}
    files = {f"state/{folder}/{name}.yaml": dump(f"{folder}/{name}.yaml", {"version": version, **data})}
    for field_name in sorted(tables):
        files[f"state/{folder}/{name}.{field_name}.tsv"] = table_text(
            getattr(value, field_name), _row_type(cls, field_name))
    return files


def _decode_module(cls: type, data: dict[str, Any], files: dict[str, Any], folder: str, name: str,
                   where: Path) -> Any:
    data = dict(data or {})
    data.pop("version", None)
    tables = {}
    for f in table_fields(cls):
        key = f"{folder}/{name}.{f.name}.tsv"
        rows = data.pop(f.name, None)  # a whole state (a log's init entry) holds the rows
        row_type = _row_type(cls, f.name)
        if rows is None:
            rows = parse_table(files.get(key, ""), row_type, where / key)
        else:
            rows = [r if isinstance(r, row_type) else from_data(row_type, r, str(where / key)) for r in rows]
        tables[f.name] = rows
    value: Any = from_data(cls, data, f"{where / folder / name}.yaml")
    for key, rows in tables.items():
        setattr(value, key, rows)
    return value


# -- the whole state ---------------------------------------------------------------------------
#: GameState fields added within schema 2 (empty by default)
_LATER = ("rule_aliases", "next_player_commitments", "rule_decisions")


def state_files(state: GameState, dump: Dump | None = None) -> dict[str, str]:
    """The state as path (relative to the game folder) -> text. ``dump`` writes one YAML file's
    data (its path under state/, the data), :func:`dump_yaml` by default; a game folder passes
    its cache's, which keeps a file's text when its data has not changed."""
    dump = dump or (lambda _name, data: dump_yaml(data))
    game = {f.name: to_data(getattr(state, f.name)) for f in dataclasses.fields(state) if f.name not in _SPLIT}
    for name in _LATER:  # fields added after games began: written only when set, so a game saved
        if not game.get(name):  # before reads back (and replays) byte for byte
            game.pop(name, None)
    game["schema"] = SCHEMA
    files = {
        "state/game.yaml": dump("game.yaml", game),
        "state/board.yaml": dump("board.yaml", {"squares": to_data(state.squares)}),
        "state/players.yaml": dump("players.yaml", {"players": to_data(state.players)}),
        "state/proposals.yaml": dump("proposals.yaml", {"proposals": to_data(state.proposals)}),
        "state/rules_history.yaml": dump("rules_history.yaml", {"rules": to_data(state.rule_history)}),
        "state/private.yaml": dump("private.yaml", {f.name: to_data(getattr(state.private, f.name))
                                                    for f in dataclasses.fields(state.private) if f.name != "mods"}),
    }
    for folder, mods in (("modules", state.mods), ("private", state.private.mods)):
        for name, value in sorted(mods.items()):
            files.update(_module_files(folder, name, value, REGISTRY.known[name].version, dump))
    for section in state.rules.sections:
        files[f"rules_md/{section.filename}"] = dump_section(section)
    return files


def state_from_files(files: dict[str, Any], where: Path, rules_dir: Path | None = None) -> GameState:
    """The state from its files' data (YAML parsed, tables as text), keyed by path under state/."""
    schema = (files["game.yaml"] or {}).get("schema")
    if schema == 1:
        files = migrate_v1(files)
    elif schema != SCHEMA:
        raise StateError(f"{where / 'game.yaml'}: schema {schema!r}, this nomopoly reads schemas 1 "
                         f"and {SCHEMA}; upgrade nomopoly")
    game = dict(files["game.yaml"])
    game.pop("schema", None)

    def field_of(name: str, key: str, cls: Any, default: Any) -> Any:
        data = files[name].get(key, default)
        return from_data(cls, data, f"{where / name}: {key}")

    state = from_data(GameState, {**game, "squares": [], "players": {}, "proposals": [], "rule_history": {}},
                      f"{where / 'game.yaml'}")
    state.squares = field_of("board.yaml", "squares", list[Square], [])
    state.players = field_of("players.yaml", "players", dict[str, Player], {})
    state.proposals = field_of("proposals.yaml", "proposals", list[Proposal], [])
    state.private = from_data(PrivateState, files["private.yaml"] or {}, f"{where / 'private.yaml'}")
    state.rule_history = field_of("rules_history.yaml", "rules", dict[str, list[RuleRevision]], {})
    decode_mods(state, files, where)
    if rules_dir is not None and rules_dir.is_dir():
        state.rules = load_ruleset(rules_dir)
    for name, player in state.players.items():
        if player.name != name:
            raise StateError(f"{where / 'players.yaml'}: players.{name}.name is {player.name!r}; "
                             "the key and the name must match")
    return state


def decode_mods(state: GameState, files: dict[str, Any], where: Path) -> None:
    """Each module's state from its files (``modules/<m>.yaml``, ``private/<m>.yaml``)."""
    for folder, target, attr in (("modules", state.mods, "State"), ("private", state.private.mods, "Private")):
        for key in sorted(files):
            if not (key.startswith(f"{folder}/") and key.endswith(".yaml")):
                continue
            name = key[len(folder) + 1:-len(".yaml")]
            cls = REGISTRY.known.get(name)
            if cls is None or getattr(cls, attr) is None:
                raise StateError(f"{where / key}: no module {name!r} keeps state here; known "
                                 f"modules: {', '.join(sorted(REGISTRY.known))}")
            target[name] = _decode_module(getattr(cls, attr), files[key], files, folder, name, where)


def state_from_data(data: dict[str, Any], where: str) -> GameState:
    """A whole state as one mapping (a log's init entry), of either schema."""
    from admin.store.migrate import split_v1_state

    from admin.nomic.ruleset import Ruleset

    files = split_state(data) if "mods" in data else migrate_v1(split_v1_state(data))
    state = state_from_files(files, Path(where))
    state.rules = from_data(Ruleset, data.get("rules") or {"sections": []}, f"{where}: rules")
    return state


def split_state(data: dict[str, Any]) -> dict[str, Any]:
    """A whole state as one mapping (``to_data(state)``) -> its files' data."""
    data = dict(data)
    private = dict(data.pop("private", {}) or {})
    files: dict[str, Any] = {
        "board.yaml": {"squares": data.pop("squares", [])},
        "players.yaml": {"players": data.pop("players", {})},
        "proposals.yaml": {"proposals": data.pop("proposals", [])},
        "rules_history.yaml": {"rules": data.pop("rule_history", {})},
    }
    for name, value in (data.pop("mods", {}) or {}).items():
        files[f"modules/{name}.yaml"] = value
    for name, value in (private.pop("mods", {}) or {}).items():
        files[f"private/{name}.yaml"] = value
    data.pop("rules", None)
    files["private.yaml"] = private
    files["game.yaml"] = {**data, "schema": SCHEMA}
    return files
