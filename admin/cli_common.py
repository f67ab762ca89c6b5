"""What the command modules share: the --game option and how a command finds its game."""

from __future__ import annotations

from pathlib import Path

import click

from admin.game import GameDir

GAME_OPTION = click.option("--game", "game_dir", type=click.Path(file_okay=False, path_type=Path),
                           default=None, help="The game directory (default: the current one).")


def game(game_dir: Path | None) -> GameDir:
    """The game folder: --game after the command, else --game before it, else the current one."""
    if game_dir is None:
        ctx = click.get_current_context(silent=True)
        root = ctx.find_root() if ctx else None
        game_dir = (root.obj or {}).get("game") if root else None
    return GameDir(game_dir or ".")
