"""The ``nomopoly`` command: thin. It parses options, calls one job per command, prints, and maps
errors to exit codes (0 ok, 1 error, 2 usage, 75 a mail server could not be reached)."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from admin.runtime import forking
from admin.jobs import update as jobs
from admin.engine.errors import NomopolyError, StateError
from admin.store.gamedir import GameDir
from admin.cli.common import GAME_OPTION, game as _game

if TYPE_CHECKING:
    from admin.mail.outbound.outbox import DeliveryReport
    from admin.site.writer import BuildReport


def _parse_time(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an ISO time like 2026-11-04T23:59:59+00:00") from None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="nomopoly")
@click.option("--game", "game_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The game directory for every command (default: the current one).")
@click.pass_context
def cli(ctx: click.Context, game_dir: Path | None) -> None:
    """Run a play-by-email game of Nomic and Monopoly.

    Each week: players email their actions, proposals and votes; `nomopoly update` reads the mail,
    runs the update with verifiable dice, saves the state and rebuilds the site.
    """
    ctx.obj = {"game": game_dir}


@cli.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--game", "game_name", default="nomopoly2", show_default=True,
              help="The bundled game to start (`nomopoly games` lists them).")
@click.option("--ruleset", hidden=True, help="The old name of --game.")
@click.option("--name", help="The game's name (default: the folder's name).")
def init(directory: Path, game_name: str, ruleset: str | None, name: str | None) -> None:
    """Make a new game in DIRECTORY: one of the bundled games."""
    game_name = ruleset or game_name
    game = jobs.init_game(directory, game_name, name)
    click.echo(f"New {game_name} game in {game.root}. Next: edit nomopoly.toml, then "
               f"`nomopoly --game {directory} player add NAME EMAIL` for each player.")


@cli.command()
@click.option("--at", "at", help="The cut-off (ISO time): mail received after it waits. "
                                 "Default: now, or the update's deadline if that has passed.")
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path),
              help="Read mail from this Maildir instead of the source in nomopoly.toml.")
@click.option("--early", is_flag=True, help="Run it before its deadline (mail that comes later waits "
                                           "for the next update).")
@click.option("--dry-run", is_flag=True, help="Run the update and show its events, and write the mail it "
                                             "would send to a folder (--preview); save nothing.")
@click.option("--preview", type=click.Path(file_okay=False, path_type=Path),
              help="With --dry-run: where to write that mail (default: GAME/dry-run/update-N).")
@click.option("--beacon", "beacon", help="With [dice] beacon = true: the beacon's value (hex) for the round after "
                                         "the update's deadline, when it cannot be fetched (docs/fairness.md).")
@click.option("--no-site", is_flag=True, help="Do not rebuild the site afterwards.")
@click.option("--no-mail", is_flag=True, help="Do not send receipts, results and the admin report "
                                              "(send them later with `nomopoly mail-out`).")
@GAME_OPTION
def update(at: str | None, early: bool, maildir: Path | None, dry_run: bool, preview: Path | None,
           beacon: str | None, no_site: bool, no_mail: bool, game_dir: Path | None) -> None:
    """Read the mail up to the cut-off (default: the update's deadline, once it has passed), run
    one update, save the state and build the site."""
    game = _game(game_dir)
    forking.workers()  # a bad NOMOPOLY_WORKERS is refused before the update runs, not after
    cutoff = _parse_time(at)
    now = datetime.now(timezone.utc)
    if cutoff is not None and cutoff > now and not dry_run:
        raise click.BadParameter(f"{at} is in the future (it is {now.isoformat(timespec='seconds')}): mail sent "
                                 "between now and then would miss this update and be late for the next; give "
                                 "a time that has passed, leave --at out (with --early to run before the "
                                 "deadline), or try it with --dry-run", param_hint="--at")
    outcome = jobs.run_update_job(game, at=cutoff, maildir=maildir, dry_run=dry_run, early=early,
                                  beacon=beacon)
    verb = "Would run" if dry_run else "Ran"
    applied = sum(1 for s in outcome.screened if s.status == "applied")
    refused = [s for s in outcome.screened if s.status != "applied"]
    if outcome.already_run:
        click.echo(f"Update {outcome.update} (mail up to {outcome.cutoff.isoformat()}) had already run, so "
                   "nothing was run again; any of its mail still in the inbox (left by a run that stopped "
                   "before moving it) is moved out of it now.")
    else:
        click.echo(f"{verb} update {outcome.update} (week {outcome.state.week}) with mail up to "
                   f"{outcome.cutoff.isoformat()}: {applied} email(s) acted on, {len(refused)} not.")
    for s in refused:
        click.echo(f"  not acted on: {s.mail.sender if s.mail else '?'}: {s.reason}")
    if outcome.deadlines_passed:
        from admin.jobs.deadlines import show_time

        later = outcome.deadlines_passed
        click.echo(f"  {len(later)} more deadline(s) have passed since (the next: {show_time(game, later[0])}); "
                   "their mail waits: run `nomopoly update` again for each, or `nomopoly run`.")
    for ev in outcome.events:
        if dry_run and ev.text:  # everything it would do, to check before the real run
            click.echo(f"  {'' if ev.ok else 'refused: '}{ev.text}")
        elif ev.text and ev.kind in ("winner", "loop-guard", "join"):
            click.echo(f"  {ev.text}")
    if dry_run and not outcome.already_run:
        folder = preview or game.root / "dry-run" / f"update-{outcome.update}"
        written = jobs.preview_mail(game, outcome, folder)
        click.echo(f"The {len(written)} message(s) it would send (receipts, results, your report) are in "
                   f"{folder}; nothing was saved or sent.")
    site_error = None
    if not dry_run and not (no_site and no_mail):
        from admin.jobs.followup import site_and_mail

        # the update is committed: mail trouble is reported, and `nomopoly mail-out` retries it
        done = site_and_mail(game, outcome.update, outcome.state, site=not no_site, mail=not no_mail)
        if done.site is not None:
            _said_built(done.site)
        site_error = done.site_error
        if site_error is not None:  # the update is saved: its mail went out all the same
            click.echo(f"error: update {outcome.update} is saved, but {site_error}", err=True)
        if done.mail is not None:
            click.echo(done.mail.summary())
    if site_error is not None:
        sys.exit(site_error.exit_code)
    if not dry_run and not no_site and not _published(game):
        sys.exit(1)


@cli.command()
@click.option("--at", "at", help="Take in mail received up to this ISO time (default: now).")
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path),
              help="Read mail from this Maildir instead of the source in nomopoly.toml.")
@click.option("--ack", is_flag=True, help="Answer each new email now with how its lines were read "
                                          "(the results come with the update).")
@GAME_OPTION
def fetch(at: str | None, maildir: Path | None, ack: bool, game_dir: Path | None) -> None:
    """Take in new mail now (archive and ledger) without running an update; the next update acts
    on it. Safe to run as often as you like, e.g. from cron: each message is taken in once. Exit
    code 75 when the mail server cannot be reached (try again later)."""
    from admin.jobs.fetch import fetch as fetch_mail

    game = _game(game_dir)
    report = fetch_mail(game, at=_parse_time(at), maildir=maildir)
    click.echo(f"Fetched mail: {report.new} new, {report.known} known, {report.duplicates} duplicate(s).")
    if ack:
        from admin.jobs.fetch import taken
        from admin.mail.outbound.mailout import ack as ack_mail

        state = game.load()
        screened = jobs.screen_entries(game, state, [e for e in taken(report) if e.status == "pending"],
                                       report.fresh)
        click.echo(ack_mail(game, [s for s in screened if s.status == "applied"], state).summary())


def _build(game: GameDir, out: Path | None, full: bool = False) -> Path:
    from admin.site.build import build as build_site_report

    report = build_site_report(game, out, full=full)
    _said_built(report)
    return report.out


def _said_built(report: BuildReport) -> None:
    click.echo(f"Site: {report.out / 'index.html'} ({report.summary()})")


@cli.command()
@click.option("--port", type=int, default=8000, show_default=True,
              help="The port on 127.0.0.1 to serve on (0: any free one).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: GAME/site.")
@click.option("--interval", type=float, default=1.0, show_default=True,
              help="Seconds between two looks for changed files.")
@GAME_OPTION
def serve(port: int, out: Path | None, interval: float, game_dir: Path | None) -> None:
    """Preview the site on http://127.0.0.1:PORT/, rebuilt whenever state/, rules_md/ or
    site_templates/ change (reload the page to see it). Ctrl-C stops it."""
    from admin.site.serve import serve as serve_site

    serve_site(_game(game_dir), port=port, out=out, interval=interval, echo=click.echo)


def _delivered(report: DeliveryReport) -> None:
    """Print a mail-out run; exit 75 when the server could not be reached (cron retries)."""
    from admin.engine.errors import MailError, TemporaryError

    click.echo(report.summary())
    if report.temporary:
        raise TemporaryError(f"mail not sent: {report.connection_error}")
    if report.failed:
        raise MailError(f"{len(report.failed)} message(s) not sent; they stay queued (see above)")


@cli.command("mail-out")
@click.argument("update_no", metavar="[UPDATE]", required=False, type=int)
@GAME_OPTION
def mail_out_command(update_no: int | None, game_dir: Path | None) -> None:
    """Send an update's receipts, results and admin report (default: the last update), and retry
    whatever failed before. Nothing is ever sent twice."""
    from admin.mail.outbound.mailout import mail_out

    game = _game(game_dir)
    _delivered(mail_out(game, update_no if update_no is not None else game.load().update))


@cli.command()
@click.option("--at", "at", help="Pretend it is this time (ISO); default: now.")
@GAME_OPTION
def remind(at: str | None, game_dir: Path | None) -> None:
    """Remind players who have not voted, [mail] remind_hours before the deadline (run it from
    cron every hour: each player gets one reminder per deadline). New mail is taken in first, so
    a vote already sent counts."""
    from admin.jobs.run import remind_after_fetch

    _delivered(remind_after_fetch(_game(game_dir), _parse_time(at) or datetime.now(timezone.utc)))


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: GAME/site.")
@click.option("--full", is_flag=True, help="Rewrite every page, not only the changed ones.")
@GAME_OPTION
def build(out: Path | None, full: bool, game_dir: Path | None) -> None:
    """Build the static site from the game's public state (and publish it, when nomopoly.toml
    says how, unless --out builds it elsewhere)."""
    game = _game(game_dir)
    _build(game, out, full)
    if out is None and not _published(game):
        sys.exit(1)


def _published(game: GameDir) -> bool:
    """After a build into the game's site/: publish it when [site] says how. False if that failed
    (reported; `nomopoly run` tries again)."""
    from admin.jobs import publish

    if not publish.configured(game):
        return True
    publish.mark_pending(game, game.load_public().update)
    done = publish.publish(game)
    click.echo(done.summary(), err=not done.ok)
    return done.ok


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the public state as JSON (see the README).")
@click.option("--private", is_flag=True, help="Everything, private parts included (hands, addresses, "
                                              "every module's state): for the Admin only.")
@GAME_OPTION
def status(as_json: bool, private: bool, game_dir: Path | None) -> None:
    """Show the game's state: public, or with --private everything."""
    from admin.site.export import fact_text, next_update, parts, player_facts, private_status, public_status

    game = _game(game_dir)
    state = game.load() if private else game.load_public()
    data = private_status(state) if private else public_status(state)
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return
    has = parts(state)  # speak only of the parts the game has (no board, money or bank in some)
    click.echo(f"Week {data['week']}, {data['update']} update(s) run; next: {next_update(game, state, data)}."
               + (f" Admin Bank Account: {state.money(data['admin_bank'])}." if has["has_admin_bank"] else ""))
    for p in sorted(state.players.values(), key=lambda p: p.name):
        facts = [f for f in player_facts(state, p) if f.column or f.label]
        shown = "  ".join(f"{(f.column or f.label or '').lower()} {fact_text(f)}" for f in facts if f.kind != "hand")
        click.echo(f"  {p.name:<16} " + (f"{state.money(p.money):>8}  " if has["has_money"] else "")
                   + (f"square {p.square:>3}  " if has["has_board"] else "") + shown
                   + ("" if p.status == "active" else f"  ({p.status})"))
        if private:  # what --private adds: the parts the site never shows
            mine: dict[str, Any] = next((x for x in data["players"] if x.get("name") == p.name), {})
            hand = ", ".join(map(str, mine.get("hand") or [])) or "no cards"
            click.echo(f"  {'':<16} private: {mine.get('email') or 'no address'}; hand: {hand}")
    if private:
        click.echo("  (every module's private state: nomopoly status --private --json)")


@cli.command()
@GAME_OPTION
def check(game_dir: Path | None) -> None:
    """Check the game's settings (every key of nomopoly.toml: types, allowed values, a Monday start,
    an IANA timezone, addresses, the site URL, the mail folder) and that its state loads. Every
    other command runs the same checks on the settings before it does anything."""
    from admin.cli.common import game as find_game
    from admin.jobs.check import check_settings, check_state, squares_off_the_board
    from admin.jobs.publish import public_remote_warnings

    found = find_game(game_dir, must_exist=False)
    if not found.exists():
        raise StateError(f"{found.root} is not a game directory (it has no state/game.yaml); make one with "
                         "`nomopoly init DIR`, or name one with --game DIR")
    problems = check_settings(found) + check_state(found)
    for warning in public_remote_warnings(found):
        click.echo(f"WARNING: {warning}.", err=True)
    for p in problems:
        click.echo(str(p), err=True)
    for p in squares_off_the_board(found):
        click.echo(f"warning: {p}", err=True)
    if problems:
        click.echo(f"{len(problems)} problem(s); nothing was changed.", err=True)
        raise click.exceptions.Exit(1)
    click.echo(f"{found.settings_path} and {found.state_dir} are fine.")


@cli.command()
@click.argument("update_no", metavar="[UPDATE]", required=False, type=int)
@click.option("--hidden", is_flag=True, help="Once the game is over: check every hidden draw (cards dealt) "
                                             "from the hidden seeds published at its end.")
@click.option("--mail", "mails", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A player's saved results email (.eml): check the record against the commitments and "
                   "the record chain it carries (may be given more than once).")
@GAME_OPTION
def verify(update_no: int | None, hidden: bool, mails: tuple[Path, ...], game_dir: Path | None) -> None:
    """Check the dice and the record: each revealed seed matches its commitment and the seed chain,
    every roll recomputes, the records are chained, and (with the log) replaying each update makes
    exactly the rolls and events recorded, in order (docs/fairness.md)."""
    from admin.jobs.replay import verify_hidden
    from admin.jobs.verifychain import check_mail

    game = _game(game_dir)
    problems = verify_hidden(game) if hidden else jobs.verify(game, update_no)
    for path in mails:
        problems += check_mail(game, path)
    if problems:
        for p in problems:
            click.echo(p, err=True)
        raise click.exceptions.Exit(1)
    click.echo("Every hidden seed matches its commitment and every hidden draw recomputes." if hidden
               else "Every seed matches its commitment and every roll recomputes.")


@cli.command()
@click.argument("directory", required=False, default="demo-game",
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--game", "game_name", default="nomopoly2", show_default=True,
              help="Which bundled game's demo to play (`nomopoly games` lists them).")
def demo(directory: Path, game_name: str) -> None:
    """Run a bundled game's demo (Nomopoly II: 5 players, two weeks of email); build its site."""
    from admin.jobs.demo import run_demo

    index = run_demo(directory, echo=click.echo, game_name=game_name) / "index.html"
    try:  # as the README shows it: relative to where you are, when it is below
        index = index.relative_to(Path.cwd().resolve())
    except ValueError:
        pass
    click.echo(f"Site: {index}")


from admin.cli.admin import player, ruling, rules  # noqa: E402
from admin.cli.games import games  # noqa: E402
from admin.cli.run import publish, run, todo  # noqa: E402
from admin.cli.proposal import proposal  # noqa: E402
from admin.cli.scenario import scenario  # noqa: E402
from admin.cli.state import replay  # noqa: E402

for _group in (player, ruling, rules, proposal, games, scenario, run, publish, todo, replay):
    cli.add_command(_group)


def main() -> None:
    try:
        # without standalone mode, click returns the code of a ctx.exit()/Exit instead of exiting
        code = cli.main(standalone_mode=False)
        sys.exit(code if isinstance(code, int) else 0)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except NomopolyError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except OSError as exc:  # a file the jobs did not expect to fail (each write they expect says more)
        where = f"{exc.filename}: " if exc.filename else ""
        click.echo(f"error: {where}{exc.strerror or exc}; fix the file's permissions, the disk or the "
                   "path and run again (a game's state is only ever replaced whole)", err=True)
        sys.exit(1)
