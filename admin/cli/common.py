"""What the command modules share: the --game option and how a command finds its game."""

from __future__ import annotations

from pathlib import Path

import click

from admin.engine.errors import StateError
from admin.store.gamedir import GameDir

GAME_OPTION = click.option("--game", "game_dir", type=click.Path(file_okay=False, path_type=Path),
                           default=None, help="The game directory (default: the current one).")


def game(game_dir: Path | None, must_exist: bool = True) -> GameDir:
    """The game folder: --game after the command, else --game before it, else the current one.
    A folder that holds no game is refused (only ``init`` makes one): nothing is written there."""
    if game_dir is None:
        ctx = click.get_current_context(silent=True)
        root = ctx.find_root() if ctx else None
        game_dir = (root.obj or {}).get("game") if root else None
    found = GameDir(game_dir or ".")
    if must_exist and not found.exists():
        raise StateError(f"{found.root} is not a game directory (it has no state/game.yaml); make one with "
                         "`nomopoly init DIR`, or name one with --game DIR")
    _warn_insecure(found)
    if must_exist:
        from admin.jobs.check import require_valid_settings

        require_valid_settings(found)  # every command refuses a game whose settings are wrong
    return found


_warned: set[Path] = set()


def _warn_insecure(found: GameDir) -> None:
    """A loud warning on every command while a game's dice come from a public demo key."""
    if found.root in _warned or not found.settings_path.exists():
        return
    try:
        key = found.settings().insecure_seed_key
    except Exception:  # a broken nomopoly.toml is reported by the command itself
        return
    if key:
        _warned.add(found.root)
        click.echo(f"WARNING: {found.settings_path} sets [dice] insecure_demo_seed_key: every seed of this "
                   "game comes from a public key, so anyone can work out every roll and card in advance. "
                   "It is for the demo only; remove it (and start again with `nomopoly init`) for a real "
                   "game.", err=True)
