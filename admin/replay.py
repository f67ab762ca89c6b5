"""Replay and verification: rebuild today's state from the log alone, and check the dice.

``replay_check`` is ``nomopoly replay --check``; ``verify`` is ``nomopoly verify``.
"""

from __future__ import annotations

from typing import Any

from admin import roster as admin_ops
from admin.engine.commands import command_from_dict
from admin.engine.dice import Dice, Seeds, commitment, derive, inputs_digest
from admin.engine.events import Ruling
from admin.engine.update import LineCommand, Submission, UpdateResult, run_update
from admin.errors import StateError
from admin.game import GameDir, archive_text, state_files
from admin.statefiles import state_from_data
from admin.mechanics import REGISTRY
from admin.model import GameState
from admin.store import from_data, load_json


def apply_admin_record(state: GameState, entry: dict[str, Any]) -> None:
    kind = entry["kind"]
    if kind == "player-add":
        admin_ops.add_player(state, entry["name"], entry["email"], entry.get("token_hash"))
    elif kind == "player-remove":
        admin_ops.remove_player(state, entry["name"])
    elif kind == "player-token":
        admin_ops.set_token(state, entry["name"], entry["token_hash"])
    else:
        raise StateError(f"unknown log entry kind {kind!r}")


def run_logged(state: GameState, inputs: dict[str, Any], seeds: Seeds) -> tuple[UpdateResult, Dice]:
    """Run one update from its logged inputs (the update job and replay share this)."""
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
    dice = Dice(seed=seeds.public, digest=inputs_digest(inputs), update=state.update + 1,
                hidden_seed=seeds.hidden)
    return run_update(state, submissions, rulings, dice, REGISTRY), dice


def replay(game: GameDir) -> tuple[GameState, dict[str, str]]:
    """Rebuild today's state, and the proposal archive files, from the log alone."""
    state: GameState | None = None
    archived: dict[int, list] = {}
    for path in game.log_entries():
        entry = load_json(path)
        if entry["kind"] == "init":
            state = state_from_data(entry["state"], str(path))
            continue
        if state is None:
            raise StateError(f"{path}: the log does not start with an init entry")
        if entry["kind"] == "update":
            seeds = Seeds(bytes.fromhex(entry["dice"]["seed"]), bytes.fromhex(entry["dice"]["hidden_seed"]))
            result, _ = run_logged(state, entry["inputs"], seeds)
            state = result.state
            state.next_hidden_commitment = entry["next_hidden_commitment"]
            for p in result.archived:
                archived.setdefault(p.week, []).append(p)
            state.next_commitment = entry["next_commitment"]
        else:
            apply_admin_record(state, entry)
    if state is None:
        raise StateError(f"{game.log_dir}: no log entries; nothing to replay")
    files = {str(game.archive_path(w).relative_to(game.root)): archive_text(ps) for w, ps in archived.items()}
    return state, files


def replay_check(game: GameDir) -> list[str]:
    """Differences between the replayed state and the files on disk (empty: identical)."""
    with game.lock():
        state, archives = replay(game)
        rebuilt = state_files(state) | archives
        # a game saved in an older shape is compared as it reads (migrated); the next update
        # writes it in the new shape
        on_disk = state_files(game.load()) if _old_shape(game) else None
        problems = []
        for name, text in rebuilt.items():
            path = game.root / name
            if on_disk is not None and name in on_disk:
                if on_disk[name] != text:
                    problems.append(f"{name} differs from the replayed state")
            elif not path.exists():
                problems.append(f"{name} is missing; the replayed state has it")
            elif path.read_text(encoding="utf-8") != text:
                problems.append(f"{name} differs from the replayed state")
        extra = ({f"rules_md/{p.name}" for p in game.rules_dir.glob("*.md")}
                 | {f"state/proposals/{p.name}" for p in game.archive_files()}
                 | {str(p.relative_to(game.root)) for folder in ("modules", "private")
                    for p in (game.state_dir / folder).glob("*.*")}) - set(rebuilt)
        problems += [f"{name} is not in the replayed state" for name in sorted(extra)]
        return problems


def _old_shape(game: GameDir) -> bool:
    from admin.store import load_yaml

    return (load_yaml(game.state_dir / "game.yaml") or {}).get("schema") == 1


def verify(game: GameDir, update: int | None = None) -> list[str]:
    """Check the dice of one or every update; return every problem found (none: all good).

    From the public results files (what anyone can do): each revealed seed hashes to the
    commitment published before the update, and every public roll recomputes. From the private
    log, when this is the admin's copy: the inputs hash to the digest the rolls used, the hidden
    seed matches its commitment, and every hidden draw recomputes."""
    problems: list[str] = []
    files = game.results_files()
    logs = game.update_logs()
    previous: tuple[str | None, str | None] = (None, None)
    checked = 0
    for path in files:
        data = load_json(path)
        n = int(data["update"])
        if n > 0 and (update is None or n == update):
            dice = data["dice"]
            problems += _check_seed(n, "seed", bytes.fromhex(dice["seed"]), dice["commitment"], previous[0])
            problems += _check_rolls(n, bytes.fromhex(dice["seed"]), dice["digest"], dice["rolls"])
            if n in logs:
                log = load_json(logs[n])
                hidden = bytes.fromhex(log["dice"]["hidden_seed"])
                if inputs_digest(log["inputs"]) != dice["digest"]:
                    problems.append(f"update {n}: the logged inputs do not hash to the digest of its rolls")
                problems += _check_seed(n, "hidden seed", hidden, dice["hidden_commitment"], previous[1])
                problems += _check_rolls(n, hidden, dice["digest"], log["dice"]["hidden_rolls"])
            checked += 1
        previous = (data.get("next_commitment"), data.get("next_hidden_commitment"))
    if update is not None and checked == 0:
        raise StateError(f"there is no update {update} to verify; updates run: {len(files) - 1}")
    return problems


def _check_seed(n: int, what: str, seed: bytes, published: str, before: str | None) -> list[str]:
    out = []
    if commitment(seed) != published:
        out.append(f"update {n}: the {what} does not hash to its commitment")
    if before is not None and before != published:
        out.append(f"update {n}: the {what}'s commitment differs from the one published before the update")
    return out


def _check_rolls(n: int, seed: bytes, digest: str, rolls: list) -> list[str]:
    out = []
    for label, sides, value in rolls:
        expected = derive(seed, digest, label, int(sides))
        if expected != int(value):
            out.append(f"update {n}: roll {label} (d{sides}) recorded {value}, recomputes {expected}")
    return out

