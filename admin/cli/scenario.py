"""``nomopoly scenario run FILE.yaml ...``: rule scenarios with forced dice (admin/jobs/scenario.py).
Registered on the main group by :mod:`admin.cli.main`."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def scenario() -> None:
    """Try rules with forced dice and draws, and compare the outcome with what you expect."""


@scenario.command("run")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def scenario_run(files: tuple[Path, ...]) -> None:
    """Run each scenario FILE; print every difference (path: expected, got). Exit 1 if any differ."""
    from admin.jobs.scenario import run_file

    failed = 0
    for path in files:
        outcome = run_file(path)
        if outcome.ok:
            click.echo(f"ok    {path}")
            continue
        failed += 1
        click.echo(f"FAIL  {path}")
        for line in outcome.differences:
            click.echo(f"  {line}")
    if len(files) > 1:
        click.echo(f"{len(files) - failed} of {len(files)} scenario(s) as expected")
    if failed:
        raise click.exceptions.Exit(1)
