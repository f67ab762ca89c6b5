"""Commands about the bundled games and a game's coverage: ``nomopoly games`` and
``nomopoly rules coverage``. Registered on the main group by :mod:`admin.cli.main`."""

from __future__ import annotations

import json
from pathlib import Path

import click

from admin.games import catalog as bundled
from admin.cli.admin import rules
from admin.cli.common import game as _game


@click.command("games")
def games() -> None:
    """List the bundled games, a line each (start one with `nomopoly init DIR --game NAME`)."""
    for name in bundled.available():
        spec = bundled.spec(name)
        demo = " (demo: nomopoly demo --game " + name + ")" if spec.demo else ""
        click.echo(f"{name:16} {spec.title}: {spec.summary}{demo}")


@rules.command("coverage")
@click.option("--game", "which", help="A bundled game's name, or a game folder (default: the game "
                                      "here, else nomopoly2).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules_coverage(which: str | None, as_json: bool) -> None:
    """Rule by rule: automated (by which module, exercised by which tests), run by the core,
    routed to the Admin (which command), text with no mechanical effect, or missing."""
    from admin.jobs.coverage import coverage

    if which in bundled.available():
        state, spec = bundled.initial_state(which, which), bundled.spec(which)
    else:
        game = _game(Path(which) if which else None, must_exist=which is not None)
        if which is None and not game.exists():
            state, spec = bundled.initial_state(bundled.DEFAULT, bundled.DEFAULT), bundled.spec(bundled.DEFAULT)
        else:
            state = game.load_public()
            spec = bundled.spec(state.ruleset)
    rows = coverage(state, spec)
    counts = {s: sum(1 for r in rows if r.status == s) for s in ("automated", "core", "admin", "text", "missing")}
    if as_json:
        click.echo(json.dumps({"game": spec.name, "counts": counts, "rules": [r.as_dict() for r in rows]},
                              indent=2, ensure_ascii=False))
    else:
        for r in rows:
            detail = r.module or ""
            if r.status == "automated":
                detail += f" ({len(r.tests)} test file(s))"
            elif r.how:
                detail = r.how
            click.echo(f"{r.rule:8} {r.status:9} {detail}")
        click.echo(", ".join(f"{n} {s}" for s, n in counts.items()))
    if counts["missing"]:
        raise click.exceptions.Exit(1)
