"""Replay and verification: rebuild today's state from the log alone, and check the dice.

``replay_check`` is ``nomopoly replay --check``; ``verify`` is ``nomopoly verify``.
"""

from __future__ import annotations

import json
import pickle

import yaml
from pathlib import Path
from typing import Any

from admin.jobs import roster as admin_ops
from admin.jobs.preview import add_previews
from admin.jobs.handedit import explain
from admin.engine.commands import command_from_dict
from admin.engine.dice import Dice, Seeds, commitment, derive, digest_for, player_key
from admin.engine.events import Ruling
from admin.engine.update import LineCommand, Submission, UpdateResult, run_update
from admin.engine.errors import NomopolyError, StateError
from admin.store.gamedir import GameDir, archive_text, read_archive, state_files
from admin.store.statefiles import state_from_data
from admin.games.registry import REGISTRY
from admin.engine.model import GameState
from admin.store.fileio import load_json, load_yaml
from admin.store.plain import from_data, to_data
from admin.jobs.verifychain import (
    check_hidden_draws, check_hidden_keys, check_hidden_pile_draws, check_inputs, check_log_against_record,
    check_logs_present, check_pile_draws, check_record_chain, check_seed_chain, check_site_records, load_records,
)


def apply_admin_record(state: GameState, entry: dict[str, Any]) -> None:
    kind = entry["kind"]
    if kind == "player-add":
        admin_ops.add_player(state, entry["name"], entry["email"], entry.get("token_hash"))
        if entry.get("commitment"):  # their key for the next update's hidden draws (scheme 2)
            state.next_player_commitments = {**state.next_player_commitments, entry["name"]: entry["commitment"]}
    elif kind == "player-remove":
        admin_ops.remove_player(state, entry["name"])
    elif kind == "player-token":
        admin_ops.set_token(state, entry["name"], entry["token_hash"])
    else:
        raise StateError(f"unknown log entry kind {kind!r}")


def run_logged(state: GameState, inputs: dict[str, Any], seeds: Seeds,
               scheme: int = 1) -> tuple[UpdateResult, Dice]:
    """Run one update from its logged inputs (the update job and replay share this), its dice
    derived by ``scheme`` (admin/engine/dice.py); then each open proposal's preview, the same
    update run again with it in force (admin/jobs/preview.py)."""
    result, dice = _run_logged(state, inputs, seeds, scheme)
    add_previews(state, result.state, lambda trial: _run_logged(trial, inputs, seeds, scheme)[0].state)
    return result, dice


def _run_logged(state: GameState, inputs: dict[str, Any], seeds: Seeds,
                scheme: int = 1) -> tuple[UpdateResult, Dice]:
    submissions = []
    for m in inputs["messages"]:
        if m["status"] != "applied":
            continue
        cmds = [LineCommand(line["first"], line["text"], command_from_dict(line["command"]))
                for line in m["lines"] if line["command"] is not None and line["command"]["cmd"] != "token"]
        if m["player"] is None:
            cmds = [c for c in cmds if c.command.cmd == "join"]
        submissions.append(Submission(key=m["hash"], player=m["player"], sender=m["sender"],
                                      received=m["received"], commands=cmds))
    rulings = [from_data(Ruling, r, "update log") for r in inputs["rulings"]]
    dice = Dice(seed=seeds.public, digest=digest_for(inputs, scheme), update=state.update + 1,
                hidden_seed=seeds.hidden, player_keys=scheme >= 2)
    return run_update(state, submissions, rulings, dice, REGISTRY), dice


def replay(game: GameDir) -> tuple[GameState, dict[str, str]]:
    """Rebuild today's state, and the proposal archive files, from the log alone."""
    state: GameState | None = None
    # each archived proposal pickled until its week's file is written: as objects, the 780
    # proposals of 260 updates (156,000 votes) were most of a replay's memory
    archived: dict[int, list[bytes]] = {}
    for path in game.log_entries():
        entry = load_json(path)
        if entry["kind"] == "init":
            state = state_from_data(entry["state"], str(path))
            continue
        if state is None:
            raise StateError(f"{path}: the log does not start with an init entry")
        if entry["kind"] == "update":
            seeds = Seeds(bytes.fromhex(entry["dice"]["seed"]), bytes.fromhex(entry["dice"]["hidden_seed"]))
            result, _ = run_logged(state, entry["inputs"], seeds, int(entry["dice"].get("scheme", 1)))
            state = result.state
            state.next_hidden_commitment = entry["next_hidden_commitment"]
            state.next_player_commitments = dict(entry.get("next_player_commitments") or {})
            for p in result.archived:
                archived.setdefault(p.week, []).append(pickle.dumps(p, pickle.HIGHEST_PROTOCOL))
            state.next_commitment = entry["next_commitment"]
        else:
            apply_admin_record(state, entry)
    if state is None:
        raise StateError(f"{game.log_dir}: no log entries; nothing to replay")
    files = {str(game.archive_path(w).relative_to(game.root)): archive_text([pickle.loads(b) for b in blobs])
             for w, blobs in archived.items()}
    return state, files


def _same_file(path: Path, text: str) -> bool:
    """Whether ``path`` holds ``text``; a JSON record (a week's archive) holds the same data
    (records written before 2026-11-25 are indented by one space, later ones by two)."""
    on_disk = path.read_text(encoding="utf-8")
    if on_disk == text:
        return True
    if path.suffix != ".json":
        return False
    try:
        return bool(json.loads(on_disk) == json.loads(text))
    except ValueError:
        return False


def replay_check(game: GameDir) -> list[str]:
    """Differences between the replayed state and the files on disk (empty: identical)."""
    with game.lock():
        state, archives = replay(game)
        rebuilt = state_files(state) | archives
        # a game saved in an older shape is compared as it reads (migrated); the next update
        # writes it in the new shape
        on_disk = state_files(game.load()) if _old_shape(game) else None
        problems = []
        normal: dict[str, str] = {}
        for name, text in rebuilt.items():
            path = game.root / name
            if on_disk is not None and name in on_disk:
                if on_disk[name] != text:
                    problems.append(f"{name} differs from the replayed state")
            elif not path.exists():
                problems.append(f"{name} is missing; the replayed state has it")
            elif not _same_file(path, text) and not _same_as_read(game, name, text, normal):
                problems.append(explain(game, name, text))
        extra = ({f"rules_md/{p.name}" for p in game.rules_dir.glob("*.md")}
                 | {f"state/proposals/{p.name}" for p in game.archive_files()}
                 | {str(p.relative_to(game.root)) for folder in ("modules", "private")
                    for p in (game.state_dir / folder).glob("*.*")}) - set(rebuilt)
        problems += [f"{name} is not in the replayed state" for name in sorted(extra)]
        return problems


def _same_as_read(game: GameDir, name: str, text: str, normal: dict[str, str]) -> bool:
    """Whether the file holds the replayed data bar fields it lacks, which this version reads with
    their defaults: a file saved before a field was added (a proposal's ``preview``, the written
    rules' ``lost_turns``); the next update writes it in the new shape. A changed value or a key
    added by hand still differs. ``normal`` caches the state as read, written again."""
    path = game.root / name
    try:
        if path.suffix == ".json":
            disk, replayed = load_json(path), json.loads(text)
            same = archive_text(read_archive(path)) == text
        elif path.suffix == ".yaml":
            disk, replayed = load_yaml(path), yaml.safe_load(text)
            if not normal:
                normal.update(state_files(game.load()))
            same = normal.get(name) == text
        else:
            return False
    except (NomopolyError, ValueError, TypeError, KeyError, yaml.YAMLError):
        return False
    return same and disk != replayed and _lacks_only(disk, replayed)


def _lacks_only(disk: Any, replayed: Any) -> bool:
    """``disk`` is ``replayed`` with some mapping keys left out (or none), and nothing else changed."""
    if isinstance(disk, dict) and isinstance(replayed, dict):
        return all(k in replayed and _lacks_only(v, replayed[k]) for k, v in disk.items())
    if isinstance(disk, list) and isinstance(replayed, list):
        return len(disk) == len(replayed) and all(_lacks_only(a, b) for a, b in zip(disk, replayed))
    return bool(disk == replayed)


def _old_shape(game: GameDir) -> bool:
    return (load_yaml(game.state_dir / "game.yaml") or {}).get("schema") == 1


def verify(game: GameDir, update: int | None = None) -> list[str]:
    """Check the dice of one or every update; return every problem found (none: all good).

    From the public results files (what anyone can do): each revealed seed hashes to the
    commitment published before the update, and every public roll recomputes. With the private log
    (the Admin's copy): the update is replayed, and the rolls and hidden draws it makes must be
    exactly those recorded, in order (a missing, extra, moved, relabelled or changed one is named);
    the inputs hash to the digest the rolls used; the hidden seed matches its commitment."""
    problems: list[str] = []
    files = game.results_files()
    logs = game.update_logs()
    replayed = _replayed_dice(game) if logs else {}
    if update is None:  # the record as a whole: numbered, chained, on its seed chain
        records, problems = load_records(game)
        problems += check_record_chain(records) + check_seed_chain(records) + check_pile_draws(records)
        problems += check_logs_present(records, logs) + check_site_records(game)
    previous: tuple[str | None, str | None] = (None, None)
    checked = 0
    for path in files:
        data = load_json(path)
        n = int(data["update"])
        if n > 0 and (update is None or n == update):
            dice = data["dice"]
            problems += _check_seed(n, "seed", bytes.fromhex(dice["seed"]), dice["commitment"], previous[0])
            problems += _check_rolls(n, bytes.fromhex(dice["seed"]), dice["digest"], dice["rolls"])
            problems += check_inputs(n, data)
            if n in logs:
                log = load_json(logs[n])
                problems += check_log_against_record(n, log, data, replayed[n][2] if n in replayed else None)
                hidden = bytes.fromhex(log["dice"]["hidden_seed"])
                scheme = int(log["dice"].get("scheme", 1))
                if digest_for(log["inputs"], scheme) != dice["digest"]:
                    problems.append(f"update {n}: the logged inputs do not hash to the digest of its rolls")
                problems += _check_seed(n, "hidden seed", hidden, dice["hidden_commitment"], previous[1])
                problems += _check_hidden(n, hidden, dice["digest"], log["dice"]["hidden_rolls"])
                problems += check_hidden_draws(n, data, log["dice"]["hidden_rolls"], "the log")
                if n in replayed:
                    made, made_hidden, _ = replayed[n]
                    problems += _first_difference(n, "roll", made, dice["rolls"])
                    problems += _first_difference(n, "hidden draw", made_hidden, log["dice"]["hidden_rolls"])
            checked += 1
        previous = (data.get("next_commitment"), data.get("next_hidden_commitment"))
    if update is not None and checked == 0:
        raise StateError(f"there is no update {update} to verify; updates run: {len(files) - 1}")
    return problems


def _replayed_dice(game: GameDir) -> dict[int, tuple[list[list[Any]], list[list[Any]], list[dict[str, Any]]]]:
    """Each logged update's rolls, hidden draws and public events as replaying it makes them, in order."""
    out: dict[int, tuple[list[list[Any]], list[list[Any]], list[dict[str, Any]]]] = {}
    state: GameState | None = None
    for path in game.log_entries():
        entry = load_json(path)
        if entry["kind"] == "init":
            state = state_from_data(entry["state"], str(path))
        elif state is None:
            raise StateError(f"{path}: the log does not start with an init entry")
        elif entry["kind"] == "update":
            seeds = Seeds(bytes.fromhex(entry["dice"]["seed"]), bytes.fromhex(entry["dice"]["hidden_seed"]))
            result, dice = run_logged(state, entry["inputs"], seeds, int(entry["dice"].get("scheme", 1)))
            out[result.state.update] = ([[r.label, r.sides, r.value] for r in dice.rolls],
                                        [[r.label, r.sides, r.value] + ([r.player] if r.player else [])
                                         for r in dice.hidden_rolls],
                                        [{k: v for k, v in e.items() if k not in ("private", "ref")}
                                         for e in map(to_data, result.events) if e["text"] is not None])
            state = result.state
            state.next_hidden_commitment = entry["next_hidden_commitment"]
            state.next_player_commitments = dict(entry.get("next_player_commitments") or {})
            state.next_commitment = entry["next_commitment"]
        else:
            apply_admin_record(state, entry)
    return out


def _first_difference(n: int, what: str, made: list[list[Any]], recorded: list[Any]) -> list[str]:
    """The first place where the recorded rolls differ from those the replay made (one problem)."""
    recorded = [list(r) for r in recorded]
    for i, (want, got) in enumerate(zip(made, recorded)):
        if [str(x) for x in want] != [str(x) for x in got]:
            return [f"update {n}: {what} {i + 1} is recorded as {_say(got)}, but the replayed update "
                    f"made {_say(want)}"]
    if len(made) > len(recorded):
        return [f"update {n}: {what} {len(recorded) + 1} ({_say(made[len(recorded)])}) is missing from "
                f"the record ({len(recorded)} recorded, the replay made {len(made)})"]
    if len(recorded) > len(made):
        return [f"update {n}: {what} {len(made) + 1} ({_say(recorded[len(made)])}) is recorded, but the "
                f"replayed update made only {len(made)}"]
    return []


def _say(roll: list[Any]) -> str:
    return f"{roll[0]} d{roll[1]}={roll[2]}" + (f" (with {roll[3]}'s key)" if len(roll) > 3 else "")


def verify_hidden(game: GameDir) -> list[str]:
    """``nomopoly verify --hidden``: once the game is over and its hidden seeds are published
    (``results/hidden.json``), anyone checks every hidden draw of the game, and every player key."""
    path = game.hidden_seeds_path
    if not path.exists():
        raise StateError("the hidden seeds are published when the game ends (state/results/hidden-seeds.json); "
                         "until then each player checks their own draws with the key in their results mail")
    revealed = load_json(path)
    problems: list[str] = []
    for path_ in game.results_files():
        data = load_json(path_)
        n = int(data["update"])
        if n == 0:
            continue
        record = revealed["updates"].get(str(n))
        if record is None:
            problems.append(f"update {n}: the published hidden seeds have no hidden seed for it")
            continue
        hidden = bytes.fromhex(record["hidden_seed"])
        dice = data["dice"]
        problems += _check_seed(n, "hidden seed", hidden, dice["hidden_commitment"], None)
        for name, published in sorted((dice.get("player_commitments") or {}).items()):
            if commitment(player_key(hidden, name)) != published:
                problems.append(f"update {n}: {name}'s key does not hash to the commitment published for it")
        problems += _check_hidden(n, hidden, dice["digest"], record["hidden_rolls"])
        problems += check_hidden_draws(n, data, record["hidden_rolls"], "the published hidden seeds")
        before = load_json(game.results_path(n - 1)).get("pile_commitments") if game.results_path(n - 1).exists() else None
        problems += check_hidden_pile_draws(n, data, before, hidden, record.get("pile_draws") or [])
    return problems + check_hidden_keys(load_records(game)[0], revealed)


def hidden_record(game: GameDir) -> dict[str, Any]:
    """What is published when the game ends: every update's hidden seed and hidden draws."""
    updates, keys = {}, {}
    for n, path in sorted(game.update_logs().items()):
        dice = load_json(path)["dice"]
        updates[str(n)] = {"hidden_seed": dice["hidden_seed"], "hidden_rolls": dice["hidden_rolls"],
                           "pile_draws": dice.get("pile_draws") or []}
        if "hidden_key" in dice:
            keys[str(dice["chain_base"])] = dice["hidden_key"]
    return {"updates": updates, "hidden_keys": keys}


def _check_seed(n: int, what: str, seed: bytes, published: str, before: str | None) -> list[str]:
    out = []
    if commitment(seed) != published:
        out.append(f"update {n}: the {what} does not hash to its commitment")
    if before is not None and before != published:
        out.append(f"update {n}: the {what}'s commitment differs from the one published before the update")
    return out


def _check_rolls(n: int, seed: bytes, digest: str, rolls: list[Any]) -> list[str]:
    out = []
    for label, sides, value in rolls:
        expected = derive(seed, digest, label, int(sides))
        if expected != int(value):
            out.append(f"update {n}: roll {label} (d{sides}) recorded {value}, recomputes {expected}")
    return out


def _check_hidden(n: int, hidden: bytes, digest: str, rolls: list[Any]) -> list[str]:
    """Hidden draws recompute from the hidden seed, or from their player's key (scheme 2)."""
    out = []
    for roll in rolls:
        label, sides, value = roll[:3]
        key = player_key(hidden, roll[3]) if len(roll) > 3 else hidden
        expected = derive(key, digest, label, int(sides))
        if expected != int(value):
            out.append(f"update {n}: hidden draw {label} (d{sides}) recorded {value}, recomputes {expected}")
    return out
