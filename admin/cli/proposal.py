"""``nomopoly proposal``: what an open proposal would do. Registered on the main group by
:mod:`admin.cli.main`."""

from __future__ import annotations

from pathlib import Path

import click

from admin.cli.common import GAME_OPTION, game as _game


@click.group()
def proposal() -> None:
    """Look at a proposal before it is decided."""


@proposal.command("preview")
@click.argument("number", type=click.IntRange(1, 10**9))
@GAME_OPTION
def proposal_preview(number: int, game_dir: Path | None) -> None:
    """What proposal NUMBER would have done in the last update, had it been in force (the same mail
    and dice), player by player; made by every update for each open proposal that changes what runs."""
    state = _game(game_dir).load_public()
    found = state.proposal(number)
    if found is None:
        known = ", ".join(str(p.number) for p in state.proposals) or "none"
        raise click.BadParameter(f"there is no live proposal {number} (live proposals: {known})")
    click.echo(f"Proposal {found.number}: {found.title} ({found.status})")
    if found.status not in ("open", "voting"):
        click.echo("It is decided: no preview.")
    elif not found.preview:
        click.echo("It changes only the rules' words, or nothing the engine runs: no preview.")
    for line in found.preview if found.status in ("open", "voting") else []:
        click.echo(f"  {line}")
