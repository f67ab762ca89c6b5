"""The state a user may edit by hand: what ``nomopoly replay --check`` says of a difference (which
file, which key, the value on disk and the value the log makes, and how to make it part of the
record), and ``nomopoly replay --write``, which puts back the state the log makes.

A hand edit of a state YAML is allowed (README, "Files"), but the log does not hold it, so a replay
cannot make it. The way to keep a change and a replayable game is a ruling: the next update applies
it and its log holds it."""

from __future__ import annotations

from typing import Any

import yaml

from admin.engine.errors import StateError
from admin.store.fileio import Transaction, load_yaml
from admin.store.gamedir import GameDir

#: how many differing keys of one file are named
SHOWN = 5


def _paths(disk: Any, replayed: Any, at: str = "") -> list[tuple[str, Any, Any]]:
    """Each key path where ``disk`` and ``replayed`` differ, with both values (missing: None)."""
    if isinstance(disk, dict) and isinstance(replayed, dict):
        out = []
        for key in sorted(set(disk) | set(replayed), key=str):
            here = f"{at}.{key}" if at else str(key)
            if key not in disk:
                out.append((here, _ABSENT, replayed[key]))
            elif key not in replayed:
                out.append((here, disk[key], _ABSENT))
            else:
                out += _paths(disk[key], replayed[key], here)
        return out
    if isinstance(disk, list) and isinstance(replayed, list) and len(disk) == len(replayed):
        out = []
        for i, (a, b) in enumerate(zip(disk, replayed)):
            out += _paths(a, b, f"{at}[{i}]")
        return out
    return [] if disk == replayed else [(at or "(the whole file)", disk, replayed)]


class _Absent:
    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()


def _show(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = repr(value) if isinstance(value, str) else yaml.safe_dump(value, default_flow_style=True, width=10**6).strip()
    text = text.removesuffix("\n...").removesuffix(" ...").strip()
    return text if len(text) <= 80 else text[:77] + "..."


def explain(game: GameDir, name: str, replayed_text: str) -> str:
    """Why ``name`` (a path under the game folder) differs from the replayed state: the keys that
    differ, each with its value on disk and in the replay. A file that is not YAML, or does not
    parse, is only named."""
    path = game.root / name
    if path.suffix != ".yaml":
        return f"{name} differs from the replayed state"
    try:
        disk = load_yaml(path)
    except StateError as exc:
        return f"{name} differs from the replayed state: {exc}"
    keys = _paths(disk, yaml.safe_load(replayed_text))
    if not keys:  # the same data written otherwise (order, quotes, spacing)
        return f"{name} differs from the replayed state only in how it is written (the same data)"
    said = [f"{k} is {_show(a)} on disk, {_show(b)} in the replay" for k, a, b in keys[:SHOWN]]
    more = f" (and {len(keys) - SHOWN} more key(s))" if len(keys) > SHOWN else ""
    return f"{name} differs from the replayed state: " + "; ".join(said) + more


def how_to_record(problems: list[str]) -> str:
    """What to do about the differences ``replay --check`` found: a missing or extra file is put
    right by ``replay --write``; a hand edit is put back by it, and the change made as a ruling,
    which the next update applies and its log records (for a player's money, the very command)."""
    import re

    said = []
    if any(" is missing; " in p or " is not in the replayed state" in p for p in problems):
        said.append("`nomopoly replay --write` makes a missing state file again from the log (and removes one "
                    "the log does not make).")
    if any(" differs from the replayed state" in p for p in problems):
        adjust = ""
        for line in problems:
            m = re.search(r"players\.([^.\s]+)\.money is (-?\d+) on disk, (-?\d+) in the replay", line)
            if m:
                delta = int(m.group(2)) - int(m.group(3))
                adjust = f" (here: `nomopoly ruling adjust {m.group(1)} --money {delta:+d} --reason \"...\"`)"
                break
        said.append("The log does not hold a hand edit, so replaying it cannot make it. To keep the change "
                    "and a game that replays: run `nomopoly replay --write` (it puts back the state the log "
                    "makes), then record the change as an Admin ruling, which the next update applies and "
                    f"its log keeps{adjust}; `nomopoly ruling --help` lists them. To drop the change, "
                    "`nomopoly replay --write` alone.")
    return " ".join(said)


def replay_write(game: GameDir) -> list[str]:
    """``nomopoly replay --write``: rebuild the state from the log and write it, every state file
    and weekly archive (a missing one made again, a hand edit undone, a file the log does not make
    removed); returns the files it changed, by their path in the game folder. The log, the
    results, the secrets, the ledger, the pending rulings and the mail are not touched."""
    from admin.jobs.replay import replay

    with game.lock():
        state, archives = replay(game)
        tx = Transaction(game.state_dir)
        game.stage_state(tx, state)
        for name, text in archives.items():
            tx.write(game.root / name, text)
        changed = tx.commit()
    return sorted(str(p.relative_to(game.root)) for p in changed)
