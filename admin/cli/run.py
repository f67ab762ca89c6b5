"""``nomopoly run`` (the one cron line), ``nomopoly publish`` and ``nomopoly todo``."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import click

from admin.cli.common import GAME_OPTION, game as _game


@click.command("run")
@click.option("--now", "now", help="Pretend it is this time (ISO 8601); default: the clock.")
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path),
              help="Read mail from this Maildir instead of the source in nomopoly.toml.")
@click.option("--quiet", is_flag=True, help="Print nothing when nothing was due (for cron mail).")
@GAME_OPTION
def run(now: str | None, maildir: Path | None, quiet: bool, game_dir: Path | None) -> None:
    """Do what is due now and nothing else: past a deadline, fetch, update, build, mail out and
    publish; otherwise send the reminders that are due. Safe every few minutes from cron."""
    from admin.jobs.run import run_due

    report = run_due(_game(game_dir), _parse(now), maildir=maildir, echo=click.echo)
    for error in report.errors:
        click.echo(f"error: {error}", err=True)
    if report.idle and not quiet:
        click.echo("Nothing is due.")
    if report.errors:
        sys.exit(1)


@click.command("publish")
@click.option("--git", "branch", help="Commit the site as the whole tree of this branch of the game's "
                                      "git repository (e.g. gh-pages).")
@click.option("--remote", help="With --git: push the branch to this remote afterwards.")
@GAME_OPTION
def publish(branch: str | None, remote: str | None, game_dir: Path | None) -> None:
    """Publish the built site: by [site] publish (a command), publish_git (a branch), or --git."""
    from admin.jobs.publish import public_remote_warnings, publish as publish_site

    game = _game(game_dir)
    for warning in public_remote_warnings(game):
        click.echo(f"WARNING: {warning}.", err=True)
    done = publish_site(game, branch=branch, remote=remote)
    click.echo(done.summary(), err=not done.ok)
    if not done.ok:
        sys.exit(1)


@click.command("todo")
@GAME_OPTION
def todo(game_dir: Path | None) -> None:
    """What waits for you now: join requests, accepted proposals to carry out, what a module
    asked you to decide or review, rulings queued for the next update. Exit 0 either way."""
    from admin.jobs.todo import game_todo

    items = game_todo(_game(game_dir))
    if not items:
        click.echo("Nothing waits for you.")
    for item in items:
        click.echo(f"- {item.line()}")


def _parse(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO 8601 time, like 2026-11-04T23:59:59+00:00",
                                 param_hint="--now") from None
