"""The ``nomopoly`` command: thin. It parses options, calls one job per command, prints, and maps
errors to exit codes (0 ok, 1 error, 2 usage, 75 a mail server could not be reached)."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path

import click

from admin import jobs
from admin.engine.events import Ruling
from admin.errors import NomopolyError
from admin.game import GameDir

GAME_OPTION = click.option("--game", "game_dir", type=click.Path(file_okay=False, path_type=Path),
                           default=None, help="The game directory (default: the current one).")


def _game(game_dir: Path | None) -> GameDir:
    """The game folder: --game after the command, else --game before it, else the current one."""
    if game_dir is None:
        ctx = click.get_current_context(silent=True)
        root = ctx.find_root() if ctx else None
        game_dir = (root.obj or {}).get("game") if root else None
    return GameDir(game_dir or ".")


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
@click.option("--ruleset", default="nomopoly2", show_default=True, help="The bundled ruleset to start from.")
@click.option("--name", help="The game's name (default: the folder's name).")
def init(directory: Path, ruleset: str, name: str | None) -> None:
    """Make a new game in DIRECTORY from a bundled ruleset."""
    game = jobs.init_game(directory, ruleset, name)
    click.echo(f"New {ruleset} game in {game.root}. Next: edit nomopoly.toml, then "
               f"`nomopoly --game {directory} player add NAME EMAIL` for each player.")


@cli.group()
def player() -> None:
    """Add and remove players (the Admin's approval, III.4)."""


@player.command("add")
@click.argument("name")
@click.argument("email")
@click.option("--token/--no-token", default=False, help="Also issue a secret token for TOKEN lines.")
@GAME_OPTION
def player_add(name: str, email: str, token: bool, game_dir: Path | None) -> None:
    """Add player NAME with address EMAIL (they start as though just reset)."""
    from admin.mail.auth import new_token

    secret = new_token() if token else None
    jobs.add_player(_game(game_dir), name, email, secret)
    click.echo(f"Added {name} <{email}>.")
    if secret:
        click.echo(f"Their secret token (shown once; send it to them privately): {secret}")


@player.command("remove")
@click.argument("name")
@GAME_OPTION
def player_remove(name: str, game_dir: Path | None) -> None:
    """Remove player NAME from the game."""
    jobs.remove_player(_game(game_dir), name)
    click.echo(f"Removed {name}.")


@player.command("token")
@click.argument("name")
@GAME_OPTION
def player_token(name: str, game_dir: Path | None) -> None:
    """Issue a new secret token to player NAME (the old one stops working)."""
    from admin.mail.auth import new_token

    secret = new_token()
    jobs.set_token(_game(game_dir), name, secret)
    click.echo(f"New token for {name} (shown once; send it to them privately): {secret}")


@cli.command()
@click.option("--at", "at", help="The cut-off (ISO time): mail received after it waits. "
                                 "Default: now, or the update's deadline if that has passed.")
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path),
              help="Read mail from this Maildir instead of the source in nomopoly.toml.")
@click.option("--dry-run", is_flag=True, help="Run the update and show it, but save nothing.")
@click.option("--no-site", is_flag=True, help="Do not rebuild the site afterwards.")
@click.option("--no-mail", is_flag=True, help="Do not send receipts, results and the admin report "
                                              "(send them later with `nomopoly mail-out`).")
@GAME_OPTION
def update(at: str | None, maildir: Path | None, dry_run: bool, no_site: bool, no_mail: bool,
           game_dir: Path | None) -> None:
    """Read the mail up to the cut-off, run one update, save the state and build the site."""
    game = _game(game_dir)
    outcome = jobs.run_update_job(game, at=_parse_time(at), maildir=maildir, dry_run=dry_run)
    verb = "Would run" if dry_run else "Ran"
    applied = sum(1 for s in outcome.screened if s.status == "applied")
    refused = [s for s in outcome.screened if s.status != "applied"]
    click.echo(f"{verb} update {outcome.update} (week {outcome.state.week}) with mail up to "
               f"{outcome.cutoff.isoformat()}: {applied} email(s) acted on, {len(refused)} not.")
    for s in refused:
        click.echo(f"  not acted on: {s.mail.sender if s.mail else '?'}: {s.reason}")
    for ev in outcome.events:
        if ev.text and ev.kind in ("winner", "loop-guard", "join"):
            click.echo(f"  {ev.text}")
    if not dry_run and not no_site:
        _build(game, None)
    if not dry_run and not no_mail:
        from admin.mail.mailout import mail_out

        # the update is committed: mail trouble is reported, and `nomopoly mail-out` retries it
        click.echo(mail_out(game, outcome.update).summary())


def _build(game: GameDir, out: Path | None, full: bool = False) -> Path:
    from admin.site.build import build_site

    path = build_site(game, out, full=full)
    click.echo(f"Site: {path / 'index.html'}")
    return path


def _delivered(report) -> None:
    """Print a mail-out run; exit 75 when the server could not be reached (cron retries)."""
    from admin.errors import MailError, TemporaryError

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
    from admin.mail.mailout import mail_out

    game = _game(game_dir)
    _delivered(mail_out(game, update_no if update_no is not None else game.load().update))


@cli.command()
@click.option("--at", "at", help="Pretend it is this time (ISO); default: now.")
@GAME_OPTION
def remind(at: str | None, game_dir: Path | None) -> None:
    """Remind players who have not voted, [mail] remind_hours before the deadline (run it from
    cron every hour: each player gets one reminder per deadline)."""
    from admin.mail.mailout import remind as remind_players

    _delivered(remind_players(_game(game_dir), _parse_time(at) or datetime.now(timezone.utc)))


@cli.command()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), help="Default: GAME/site.")
@click.option("--full", is_flag=True, help="Rewrite every page, not only the changed ones.")
@GAME_OPTION
def build(out: Path | None, full: bool, game_dir: Path | None) -> None:
    """Build the static site from the game's public state."""
    _build(_game(game_dir), out, full)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the public state as JSON (see the README).")
@GAME_OPTION
def status(as_json: bool, game_dir: Path | None) -> None:
    """Show the game's public state."""
    from admin.site.export import public_status

    data = public_status(_game(game_dir).load_public())
    if as_json:
        click.echo(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
        return
    click.echo(f"Week {data['week']}, {data['update']} update(s) run; next: {data['phase']}. "
               f"Admin Bank Account: ${data['admin_bank']}.")
    for p in data["players"]:
        click.echo(f"  {p['name']:<16} ${p['money']:>7}  health {p['health']:>3}  square {p['square']:>3}"
                   f"  cards {p['cards_held']:>2}  squares {', '.join(map(str, p['squares'])) or '-'}"
                   + ("" if p["status"] == "active" else f"  ({p['status']})"))


@cli.command()
@click.option("--check", is_flag=True, required=True, help="Compare the replay with the state on disk.")
@GAME_OPTION
def replay(check: bool, game_dir: Path | None) -> None:
    """Rebuild the state from the update logs and check it is byte for byte the same."""
    problems = jobs.replay_check(_game(game_dir))
    if problems:
        for p in problems:
            click.echo(p, err=True)
        raise click.exceptions.Exit(1)
    click.echo("Replay matches the state on disk, byte for byte.")


@cli.command()
@click.argument("update_no", metavar="[UPDATE]", required=False, type=int)
@GAME_OPTION
def verify(update_no: int | None, game_dir: Path | None) -> None:
    """Check the dice: each revealed seed matches its commitment and every roll recomputes."""
    problems = jobs.verify(_game(game_dir), update_no)
    if problems:
        for p in problems:
            click.echo(p, err=True)
        raise click.exceptions.Exit(1)
    click.echo("Every seed matches its commitment and every roll recomputes.")


@cli.group()
def ruling() -> None:
    """Record a ruling of the Admin's; the next update applies it first (II.3)."""


def _queue(game_dir: Path | None, kind: str, note: str, **args: object) -> None:
    jobs.queue_ruling(_game(game_dir), Ruling(kind=kind, args={k: v for k, v in args.items() if v is not None},
                                              note=note))
    click.echo(f"Ruling {kind} recorded; the next update applies it.")


@ruling.command("adjust")
@click.argument("player_name")
@click.option("--money", type=int, default=0, help="Dollars to add (negative to take).")
@click.option("--health", type=int, default=0, help="Health to add (negative to take).")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_adjust(player_name: str, money: int, health: int, reason: str, game_dir: Path | None) -> None:
    """Adjust a player's money or health."""
    _queue(game_dir, "adjust", reason, player=player_name, money=money, health=health)


@ruling.command("pause")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_pause(reason: str, game_dir: Path | None) -> None:
    """Pause the game (X.1): no turns, no player proposals."""
    _queue(game_dir, "pause", reason)


@ruling.command("unpause")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_unpause(reason: str, game_dir: Path | None) -> None:
    """Unpause the game."""
    _queue(game_dir, "unpause", reason)


@ruling.command("veto")
@click.argument("proposal", type=int)
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_veto(proposal: int, reason: str, game_dir: Path | None) -> None:
    """Veto a proposal (VIII.5)."""
    _queue(game_dir, "veto", reason, proposal=proposal)


@ruling.command("send-back")
@click.argument("proposal", type=int)
@click.option("--comment", required=True, help="How the proposer can fix it.")
@GAME_OPTION
def ruling_send_back(proposal: int, comment: str, game_dir: Path | None) -> None:
    """Send an unclear proposal back to its proposer (VIII.2)."""
    _queue(game_dir, "send-back", comment, proposal=proposal)


@ruling.command("reject-name")
@click.argument("square", type=int)
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_reject_name(square: int, reason: str, game_dir: Path | None) -> None:
    """Reject an inappropriate square name (XIII.4)."""
    _queue(game_dir, "reject-name", reason, square=square)


@ruling.command("set")
@click.argument("module")
@click.argument("key")
@click.argument("value")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_set(module: str, key: str, value: str, reason: str, game_dir: Path | None) -> None:
    """Set a rule module's parameter (VALUE is read as YAML: 5, true, add, [1, 2])."""
    import yaml

    _queue(game_dir, "set-param", reason, module=module, key=key, value=yaml.safe_load(value))


@ruling.command("end-game")
@click.option("--winner", help="The winner, if there is one.")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_end(winner: str | None, reason: str, game_dir: Path | None) -> None:
    """End the game (XI.1, XI.2)."""
    _queue(game_dir, "end-game", reason, winner=winner)


@ruling.command("propose")
@click.option("--title", required=True)
@click.option("--text", "text_file", type=click.File("r"), required=True,
              help="A file with the proposal's text ('-' for standard input); directives allowed.")
@GAME_OPTION
def ruling_propose(title: str, text_file, game_dir: Path | None) -> None:
    """Make the Admin's proposal (during a pause, the only one; X.2)."""
    _queue(game_dir, "propose", "", title=title, text=text_file.read().strip())


@ruling.command("vote")
@click.argument("proposal", type=int)
@click.argument("choice", type=click.Choice(["yes", "no", "abstain"], case_sensitive=False))
@GAME_OPTION
def ruling_vote(proposal: int, choice: str, game_dir: Path | None) -> None:
    """The Admin's own vote, in games where the Admin votes."""
    _queue(game_dir, "vote", "", proposal=proposal, choice=choice.lower())


@ruling.command("amend")
@click.argument("proposal", type=int)
@click.argument("directives")
@GAME_OPTION
def ruling_amend(proposal: int, directives: str, game_dir: Path | None) -> None:
    """Carry out an accepted free-form proposal, e.g. "AMEND VI.9: Rent is 4 times the number."

    Several directives may be given on separate lines."""
    _queue(game_dir, "amend", "", proposal=proposal, directives=directives.replace("\\n", "\n"))


@ruling.command("done")
@click.argument("proposal", type=int)
@click.option("--reason", required=True, help="What was done instead of changing the rules' text.")
@GAME_OPTION
def ruling_done(proposal: int, reason: str, game_dir: Path | None) -> None:
    """Mark an accepted proposal carried out without a change to rules_md (a one-off change)."""
    _queue(game_dir, "done", reason, proposal=proposal)


@ruling.command("grant-votes")
@click.argument("player_name")
@click.option("--extra", type=int, default=1, show_default=True)
@click.option("--week", type=int, help="The week they apply to (default: the next update's).")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_grant_votes(player_name: str, extra: int, week: int | None, reason: str, game_dir: Path | None) -> None:
    """Give a player extra votes on each proposal of a week (capped by VIII.4)."""
    _queue(game_dir, "grant-votes", reason, player=player_name, extra=extra, week=week)


@cli.group()
def rules() -> None:
    """Read the ruleset: a rule's history, and which of two rules prevails."""


@rules.command("history")
@click.argument("rule_id")
@GAME_OPTION
def rules_history(rule_id: str, game_dir: Path | None) -> None:
    """Every revision of a rule: created, amended, repealed, by which proposal."""
    state = _game(game_dir).load_public()
    history = state.rule_history.get(rule_id.upper())
    if not history:
        raise click.BadParameter(f"no history for rule {rule_id!r}")
    for r in history:
        by = f"proposal {r.proposal}" if r.proposal else "the start of the game"
        click.echo(f"rev {r.rev}: {r.action} at update {r.update} (week {r.week}) by {by}")
        if r.text:
            click.echo("    " + r.text.replace("\n", "\n    "))


@rules.command("precedence")
@click.argument("first")
@click.argument("second")
@GAME_OPTION
def rules_precedence(first: str, second: str, game_dir: Path | None) -> None:
    """Which of two contradicting rules prevails (I.3), and why."""
    from admin.nomic.amendments import precedence

    winner, reason = precedence(_game(game_dir).load_public(), first.upper(), second.upper())
    click.echo(f"{winner or 'Undecided'}: {reason}")


@cli.command()
@click.argument("directory", required=False, default="demo-game",
                type=click.Path(file_okay=False, path_type=Path))
def demo(directory: Path) -> None:
    """Run the bundled demo: 5 players, two weeks (four updates) of email; build its site."""
    from admin.demo import run_demo

    site = run_demo(directory, echo=click.echo)
    click.echo(f"Site: {site / 'index.html'}")


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
