"""The Admin's commands: players (``nomopoly player``), rulings (``nomopoly ruling``) and the
ruleset (``nomopoly rules``). Registered on the main group by :mod:`admin.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import IO

import click

from admin.jobs import update as jobs
from admin.cli.common import GAME_OPTION, game as _game
from admin.engine.events import Ruling
from admin.engine.errors import StateError


@click.group()
def player() -> None:
    """Add and remove players (the Admin's approval, III.4)."""


@player.command("add")
@click.argument("name")
@click.argument("email")
@click.option("--token/--no-token", default=False, help="Also issue a secret token for TOKEN lines.")
@GAME_OPTION
def player_add(name: str, email: str, token: bool, game_dir: Path | None) -> None:
    """Add player NAME with address EMAIL (they start as though just reset)."""
    from admin.mail.inbound.auth import new_token

    from admin.mail.outbound.mailout import welcome_player

    game = _game(game_dir)
    secret = new_token() if token else None
    jobs.add_player(game, name, email, secret)
    click.echo(f"Added {name} <{email}>.")
    if secret:
        click.echo(f"Their secret token (shown once here; it is in their welcome email): {secret}")
    sent = welcome_player(game, name, secret)  # how to play, the deadlines, the address, the token
    click.echo(f"Welcome email for {name}: {sent.summary()}")


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
    from admin.mail.inbound.auth import new_token

    secret = new_token()
    jobs.set_token(_game(game_dir), name, secret)
    click.echo(f"New token for {name} (shown once; send it to them privately): {secret}")


@click.group()
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
@click.option("--yes", "sure", is_flag=True, help="Record it even though the result looks absurd.")
@GAME_OPTION
def ruling_adjust(player_name: str, money: int, health: int, reason: str, sure: bool,
                  game_dir: Path | None) -> None:
    """Adjust a player's money or health."""
    if not sure:
        state = _game(game_dir).load_public()
        player = state.players.get(player_name)
        odd = []
        if player is not None and money and (player.money + money < 0
                                             or (abs(money) > 1000 and abs(money) > 10 * abs(player.money))):
            odd.append(f"--money {money} would take {player_name} from {state.money(player.money)} to "
                       f"{state.money(player.money + money)}")
        if abs(health) > 100:
            odd.append(f"--health {health} is more than a whole health of 100")
        if odd:
            raise StateError(f"{'; '.join(odd)}: nothing was recorded. If you mean it, add --yes; if it is a "
                             "typo, run the command again with the amount you meant.")
    _queue(game_dir, "adjust", reason, player=player_name, money=money or None, health=health or None)


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


@ruling.command("enable")
@click.argument("module")
@click.option("--after", help="Place it just after this module (precedence); default: last.")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="A parameter to set as it starts (repeatable; VALUE read as YAML).")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_enable(module: str, after: str | None, params: tuple[str, ...], reason: str,
                  game_dir: Path | None) -> None:
    """Switch a mechanic on; the next update sets it up for every player and square."""
    import yaml

    values = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE, like --param price=100")
        values[key.strip()] = yaml.safe_load(value)
    args: dict[str, object] = {"module": module, "params": values}
    if after:
        args["after"] = after
    _queue(game_dir, "enable", reason, **args)


@ruling.command("disable")
@click.argument("module")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_disable(module: str, reason: str, game_dir: Path | None) -> None:
    """Switch a mechanic off (its state is kept; enabling it again resumes it)."""
    _queue(game_dir, "disable", reason, module=module)


@ruling.command("end-game")
@click.option("--winner", help="The winner, if there is one.")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_end(winner: str | None, reason: str, game_dir: Path | None) -> None:
    """End the game (XI.1, XI.2)."""
    _queue(game_dir, "end-game", reason, winner=winner)


@ruling.command("settle")
@click.argument("rule_id")
@click.option("--as", "kind", required=True, type=click.Choice(["flavour", "by-hand"]),
              help="flavour: no effect in play; by-hand: you apply it by rulings when it applies.")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_settle(rule_id: str, kind: str, reason: str, game_dir: Path | None) -> None:
    """Decide a rule a proposal added or amended that nothing runs (text only, in `nomopoly todo`):
    flavour text, or applied by your rulings. It leaves the to-do until a proposal amends it."""
    _queue(game_dir, "settle", reason, rule=rule_id.upper(), **{"as": kind})


@ruling.command("propose")
@click.option("--title", required=True)
@click.option("--text", "text_file", type=click.File("r"), required=True,
              help="A file with the proposal's text ('-' for standard input); directives allowed.")
@GAME_OPTION
def ruling_propose(title: str, text_file: IO[str], game_dir: Path | None) -> None:
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
@click.option("--reason", default="", help="Why, if you want it recorded (as every other ruling may).")
@GAME_OPTION
def ruling_amend(proposal: int, directives: str, reason: str, game_dir: Path | None) -> None:
    """Carry out an accepted free-form proposal, e.g. "AMEND VI.9: Rent is 4 times the number."

    Several directives may be given on separate lines."""
    _queue(game_dir, "amend", reason, proposal=proposal, directives=directives.replace("\\n", "\n"))


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


@ruling.command("decide")
@click.argument("kind")
@click.argument("values", nargs=-1, metavar="[KEY=VALUE]...")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_decide(kind: str, values: tuple[str, ...], reason: str, game_dir: Path | None) -> None:
    """Any ruling a mechanic of this game adds, by its KIND, with KEY=VALUE arguments (values
    read as YAML: 5, true, alice): e.g. `ruling decide patent number=2 verdict=accept --reason
    "clear rules"`. The module's own help and docs/rulings.md name its kinds and keys."""
    import yaml

    args: dict[str, object] = {}
    for item in values:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="VALUES")
        args[key] = yaml.safe_load(value) if value else ""
    _queue(game_dir, kind, reason, **args)


@ruling.command("answer")
@click.argument("question", type=int)
@click.argument("text")
@click.option("--standing", is_flag=True, help="Make the answer a standing ruling (listed as one on the Judgements page).")
@GAME_OPTION
def ruling_answer(question: int, text: str, standing: bool, game_dir: Path | None) -> None:
    """Answer a player's QUESTION number QUESTION with TEXT: published on the Judgements page and
    mailed to the asker by the next update."""
    if not text.strip():
        raise click.BadParameter("the answer is empty; write it in quotes", param_hint="TEXT")
    _queue(game_dir, "answer", text, question=question, text=text, standing=standing or None)


@ruling.command("list")
@GAME_OPTION
def ruling_list(game_dir: Path | None) -> None:
    """The rulings queued for the next update, numbered (cancel one with `ruling cancel N`)."""
    queued = _game(game_dir).pending_rulings()
    if not queued:
        click.echo("No rulings are queued; the next update applies none.")
    for n, r in enumerate(queued, 1):
        click.echo(f"{n}. {jobs.describe_ruling(r)}")


@ruling.command("cancel")
@click.argument("number", type=int)
@GAME_OPTION
def ruling_cancel(number: int, game_dir: Path | None) -> None:
    """Take ruling NUMBER (as `ruling list` shows it) out of the queue before the update applies it."""
    gone = jobs.cancel_ruling(_game(game_dir), number)
    click.echo(f"Cancelled ruling {number}: {jobs.describe_ruling(gone)}")


@click.group()
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




@ruling.command("pu-rule")
@click.argument("verdict", type=click.Choice(["accept", "reject"]))
@click.argument("number", type=int)
@click.option("--note", default="", help="Why (sent to its author with a rejection).")
@GAME_OPTION
def ruling_pu_rule(verdict: str, number: int, note: str, game_dir: Path | None) -> None:
    """The first Nomopoly: accept or reject secret Parallel Universe rule NUMBER (XXVII.4)."""
    _queue(game_dir, "pu-rule", note, verdict=verdict, number=number)


@ruling.command("nonsense")
@click.argument("number", type=int)
@click.option("--undo", is_flag=True, help="Take the proposal out of Nonsense again.")
@click.option("--note", default="", help="Why, for the record.")
@GAME_OPTION
def ruling_nonsense(number: int, undo: bool, note: str, game_dir: Path | None) -> None:
    """Nomopoly II: proposal NUMBER made it into the Nonsense section (XXV), worth $25 to its
    proposer's net worth (XXX.1)."""
    _queue(game_dir, "nonsense", note, proposal=number, undo=undo or None)
@ruling.command("free-block")
@click.option("--reason", required=True)
@GAME_OPTION
def ruling_free_block(reason: str, game_dir: Path | None) -> None:
    """Nomopoly II: a random block made free of charge from owned squares outside blocks (XIX.3's Mall)."""
    _queue(game_dir, "free-block", reason)
@ruling.command("patent")
@click.argument("verdict", type=click.Choice(["accept", "reject", "settle", "transfer"]))
@click.argument("number", type=int)
@click.option("--reason", default="", help="Why (told to the applicant with a rejection).")
@click.option("--paid", type=int, default=0, help="settle: what the player paid (a bet, a price).")
@click.option("--won", type=int, default=0, help="settle: what the casino pays the player.")
@click.option("--to", "to", default=None, help="transfer: the patent's new owner (a trade, XXXIV.3).")
@GAME_OPTION
def ruling_patent(verdict: str, number: int, reason: str, paid: int, won: int, to: str | None,
                  game_dir: Path | None) -> None:
    """Nomopoly II: accept or reject patent application NUMBER (XXXIV.2; a rejection refunds $50),
    settle request NUMBER to play a patented game (XXXIV.4), or transfer patent NUMBER."""
    _queue(game_dir, "patent", reason, verdict=verdict, number=number, paid=paid or None, won=won or None, to=to)
