"""One update is deterministic: the same cached game, copied twice and updated once in each copy with
the same mail, leaves byte-identical state.

    python -m bench --determinism --game nomopoly2-full     # on the large game's longest history

The update is a real one (Maildir intake, parse, engine, state), as the workload's histories are
made, followed by what ``nomopoly update`` does next (:func:`admin.jobs.followup.site_and_mail`): in
copy ``a`` in one process (``NOMOPOLY_WORKERS=1``), in copy ``b`` with the site's pages and the
mail-out in second processes. The copies' whole ``state/`` folders (YAML state, private state,
log, results, ledger, mail archive, the outbox but for each message's ``Date``) and their sites
(but for the build's cache of file sizes and times) are compared file by file.
"""

from __future__ import annotations

import filecmp
import os
import re
from pathlib import Path

from admin.runtime import forking
from admin.jobs.followup import site_and_mail
from admin.store.gamedir import GameDir
from bench import workload

#: what may differ between two runs: when each message was queued, and the build's file stamps
_DATE = re.compile(rb"(?m)^Date: .*\r?\n")
_STAMPED = ".nomopoly-cache.json"


def differences(a: Path, b: Path) -> list[str]:
    """The files under ``a`` and ``b`` (relative paths) that differ or exist in one only."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        out.extend(f"{prefix}{n} (only in one)" for n in sorted(cmp.left_only + cmp.right_only))
        out.extend(f"{prefix}{n}" for n in sorted(cmp.funny_files + cmp.common_funny))
        common = [n for n in cmp.common_files if n != _STAMPED]
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, common, shallow=False)
        for name in mismatch:  # an outbox message may differ only in its Date
            left, right = (Path(cmp.left) / name).read_bytes(), (Path(cmp.right) / name).read_bytes()
            if not (name.endswith(".eml") and _DATE.sub(b"", left) == _DATE.sub(b"", right)):
                errors.append(name)
        out.extend(f"{prefix}{n}" for n in sorted(errors))
        for name, sub in sorted(cmp.subdirs.items()):
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b, ignore=[]), "")
    return out


def update_twice(base: GameDir, spec: workload.Spec, into: Path) -> tuple[int, list[str]]:
    """Copy ``base`` twice under ``into``, run its next update in each copy, then its site build
    and mail-out, in one process in ``a`` and side by side in ``b``; (the update's number, the
    files of ``state/`` and ``site/`` that differ between the copies)."""
    games = []
    for name, workers in (("a", "1"), ("b", "")):
        game = workload.copy_game(base, into / name)
        workload.run_updates(game, spec, 1)
        state = game.load()
        before = os.environ.get(forking.ENV)
        os.environ[forking.ENV] = workers
        try:
            done = site_and_mail(game, state.update, state, send=False)
        finally:
            if before is None:
                del os.environ[forking.ENV]
            else:
                os.environ[forking.ENV] = before
        if done.site_error is not None:
            raise done.site_error
        games.append(game)
    update = games[0].load().update
    a, b = games
    return update, (differences(a.state_dir, b.state_dir)
                    + [f"site/{n}" for n in differences(a.root / "site", b.root / "site")])
