"""One update is deterministic: the same cached game, copied twice and updated once in each copy with
the same mail, leaves byte-identical state.

    python -m bench --determinism --game nomopoly2-full     # on the large game's longest history

The update is a real one (Maildir intake, parse, engine, state), as the workload's histories are
made; the copies' whole ``state/`` folders (YAML state, private state, log, results, ledger, mail
archive) are compared file by file.
"""

from __future__ import annotations

import filecmp
from pathlib import Path

from admin.game import GameDir
from bench import workload


def differences(a: Path, b: Path) -> list[str]:
    """The files under ``a`` and ``b`` (relative paths) that differ or exist in one only."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        out.extend(f"{prefix}{n} (only in one)" for n in sorted(cmp.left_only + cmp.right_only))
        out.extend(f"{prefix}{n}" for n in sorted(cmp.funny_files + cmp.common_funny))
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        out.extend(f"{prefix}{n}" for n in sorted(mismatch + errors))
        for name, sub in sorted(cmp.subdirs.items()):
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b, ignore=[]), "")
    return out


def update_twice(base: GameDir, spec: workload.Spec, into: Path) -> tuple[int, list[str]]:
    """Copy ``base`` twice under ``into``, run its next update in each copy; (the update's number,
    the files of ``state/`` that differ between the copies)."""
    games = []
    for name in ("a", "b"):
        game = workload.copy_game(base, into / name)
        workload.run_updates(game, spec, 1)
        games.append(game)
    update = games[0].load().update
    return update, differences(games[0].state_dir, games[1].state_dir)
