"""``nomopoly replay``: the state rebuilt from the log, compared with the files on disk or written
over them (admin/jobs/handedit.py says what a difference is and how to record it)."""

from __future__ import annotations

from pathlib import Path

import click

from admin.cli.common import GAME_OPTION, game as _game


@click.command("replay")
@click.option("--check", is_flag=True, help="Compare the replay with the state on disk; name each difference.")
@click.option("--write", is_flag=True, help="Write the replayed state over the state files (a missing one made "
                                            "again, a hand edit undone).")
@GAME_OPTION
def replay(check: bool, write: bool, game_dir: Path | None) -> None:
    """Rebuild the state from the update logs: check it is the state on disk (--check: byte for byte,
    or, for a file saved before a field was added, as this version reads it), or write it back (--write)."""
    from admin.jobs.handedit import how_to_record, replay_write
    from admin.jobs.replay import replay_check

    if check == write:
        raise click.UsageError("say what to do with the replayed state: --check (compare) or --write (write it)")
    game = _game(game_dir, must_exist=False)  # --write makes a missing state file again
    if write:
        changed = replay_write(game)
        for name in changed:
            click.echo(f"wrote {name}")
        click.echo(f"The state is the one the log makes ({len(changed)} file(s) written)." if changed
                   else "The state on disk was already the one the log makes; nothing was written.")
        return
    problems = replay_check(game)
    if problems:
        for p in problems:
            click.echo(p, err=True)
        click.echo(how_to_record(problems), err=True)
        raise click.exceptions.Exit(1)
    click.echo("Replay matches the state on disk.")
