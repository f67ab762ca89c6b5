"""The admin's jobs, each one function the CLI calls: init, player changes, update, replay, verify.

Everything with side effects happens here or below (files, mail); the engine stays pure.
"""

from __future__ import annotations


from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from admin.runtime.gcpause import few_collections
from admin.runtime.crashpoints import crashpoint
from admin.jobs.deadlines import deadline, show_time, upcoming
from admin.jobs import roster as admin_ops
from admin.jobs.beacon import BeaconSettings, beacon_input
from admin.engine import hooks
from admin.engine.context import UpdateContext
from admin.engine.dice import Dice, Seeds, player_commitments, player_inputs
from admin.engine.seedchain import SeedChain, hidden_draw_hash
from admin.engine.rulings import apply_ruling
from admin.engine.events import Event, Ruling
from admin.engine.schedule import slot_of
from admin.engine.errors import StateError
from admin.store.gamedir import GameDir
from admin.store.templates import GITIGNORE, default_settings
from admin.mail.inbound.auth import AuthSettings, hash_token, normalise
from admin.mail.inbound.intake import Screened, screen, take_in
from admin.mail.inbound.ledger import Ledger, LedgerEntry
from admin.mail.inbound.limits import MailLimits
from admin.mail.inbound.sources import MaildirSource, MailSource
from admin.engine.model import GameState
from admin.engine.statecopy import copy_state
from admin.nomic.ruleset import load_ruleset
from admin.games.catalog import initial_state
from admin.games.registry import REGISTRY
from admin.jobs.replay import (  # noqa: F401 - replay_check and verify are part of the jobs' interface
    apply_admin_record, hidden_record, replay, replay_check as replay_check, run_logged, verify as verify,
)
from admin.store.fileio import Transaction, dump_json, dump_yaml, load_json
from admin.store.plain import from_data, to_data
from admin.jobs.record import hidden_roll_record, pile_record, public_results, record_link  # noqa: F401
from admin.jobs.todo import describe_ruling as describe_ruling  # part of the jobs' interface


# -- init and the admin's immediate actions -----------------------------------------------------
def init_game(root: Path, ruleset: str = "nomopoly2", name: str | None = None,
              settings_text: str | None = None, start: GameState | None = None) -> GameDir:
    """A new game in ``root``: the ruleset's game as it starts, or ``start`` (a game already set
    up, as a test needs it), logged as the init that replay starts from."""
    game = GameDir(root)
    if game.exists():
        raise StateError(f"{game.root} already holds a game (state/game.yaml); choose another folder")
    game.root.mkdir(parents=True, exist_ok=True)
    state = start if start is not None else initial_state(ruleset, name or game.root.name)
    if not game.settings_path.exists():
        game.settings_path.write_text(settings_text or default_settings(state.name), encoding="utf-8")
    ignore = game.root / ".gitignore"
    if not ignore.exists():  # what a build or a dry run makes again, and the state's cache
        ignore.write_text(GITIGNORE, encoding="utf-8")
    mail = game.settings().section("mail")
    if mail.get("source", "maildir") == "maildir":  # the players' mail goes here: make it ready
        for sub in ("new", "cur", "tmp"):
            (game.root / str(mail.get("maildir", "mail/inbox")) / sub).mkdir(parents=True, exist_ok=True)
    if game.rules_dir.exists():  # the game's own copy, if it brought one
        state.rules = load_ruleset(game.rules_dir)
    # (else the ruleset as the game starts it is written with the state, section by section)
    with game.lock():
        tx = Transaction(game.state_dir)
        _, chain = game.stage_seeds(tx, state, 1)
        game.stage_state(tx, state)
        whole = to_data(state)
        if not whole.get("rule_decisions"):  # (added later: a new game's log reads as it did before)
            whole.pop("rule_decisions", None)
        tx.write(game.next_log_path("init"), dump_json({"kind": "init", "state": whole}))
        tx.write(game.results_path(0), dump_json({"update": 0, "next_commitment": state.next_commitment,
                                                  "next_hidden_commitment": state.next_hidden_commitment,
                                                  "chain": chain, "previous": None}))  # the chain's start
        tx.commit()
    return game


#: the .gitignore ``init`` writes beside nomopoly.toml: files that are made again from the state
def admin_action(game: GameDir, kind: str, apply: Callable[[GameState], Any], record: dict[str, Any]) -> Any:
    """Apply an immediate admin action, save the state and log it (replay applies it again)."""
    with game.lock():
        state = game.load()
        result = apply(state)
        tx = Transaction(game.state_dir)
        game.stage_state(tx, state)
        tx.write(game.next_log_path(kind), dump_json({"kind": kind, **record}))
        tx.commit()
    return result


def add_player(game: GameDir, name: str, email: str, token: str | None = None) -> None:
    plus = AuthSettings.from_dict(game.settings().section("auth")).plus_addressing
    state = game.load()
    for other, addr in state.private.emails.items():  # one mailbox, one player: never two
        if (normalise(addr, plus) == normalise(email, plus) and state.players.get(other)
                and state.players[other].active):
            raise StateError(f"{email} is {other}'s address as this game reads addresses ([auth] "
                             f"plus_addressing = {plus!r}: {normalise(email, plus)}); give {name} an address "
                             "of their own")
    record = {"name": name, "email": email.strip().lower(),
              "token_hash": hash_token(token) if token else None,
              # published before the next update, so they can check their hidden draws in it
              "commitment": player_commitments(game.next_seeds(state.update + 1).hidden, [name])[name]}
    admin_action(game, "player-add", lambda s: apply_admin_record(s, {"kind": "player-add", **record}),
                 record)


def remove_player(game: GameDir, name: str) -> None:
    admin_action(game, "player-remove", lambda s: admin_ops.remove_player(s, name), {"name": name})


def set_token(game: GameDir, name: str, token: str) -> None:
    record = {"name": name, "token_hash": hash_token(token)}
    admin_action(game, "player-token", lambda s: admin_ops.set_token(s, name, record["token_hash"]), record)


def check_ruling(state: GameState, queued: list[dict[str, Any]], ruling: Ruling) -> str | None:
    """What is wrong with ``ruling``, tried on the game as it will stand at the next update (after
    the rulings already queued), or None: a typo is refused when it is given, not at the update."""
    trial = copy_state(state)
    trial.update += 1
    trial.week, slot = slot_of(REGISTRY.params(trial, "schedule")["slots"], trial.update)
    ctx = UpdateContext(state=trial, dice=Dice(seed=b"ruling-check", digest="check", update=trial.update),
                        slot=slot, registry=REGISTRY)
    for r in queued:
        apply_ruling(ctx, from_data(Ruling, r, "state/pending.yaml"))
    before = len(ctx.events)
    apply_ruling(ctx, ruling)
    failed = [e.text for e in ctx.events[before:] if e.kind == "ruling" and not e.ok and e.text]
    return failed[0].split(": ", 1)[-1] if failed else None


def queue_ruling(game: GameDir, ruling: Ruling) -> None:
    with game.lock():
        problem = check_ruling(game.load(), game.pending_rulings(), ruling)
        if problem:
            raise StateError(f"ruling {ruling.kind} not recorded: {problem}")
        rulings = game.pending_rulings() + [to_data(ruling)]
        tx = Transaction(game.state_dir)
        tx.write(game.state_dir / "pending.yaml", dump_yaml({"rulings": rulings}))
        tx.commit()


def cancel_ruling(game: GameDir, number: int) -> dict[str, Any]:
    """Take the ``number``-th queued ruling (from 1) out of the queue; returns it. The rulings after
    it are tried again on the game as it will then stand: a cancellation that would leave one of
    them impossible is refused."""
    with game.lock():
        queued = game.pending_rulings()
        if not 1 <= number <= len(queued):
            raise StateError(f"there is no queued ruling {number}: "
                             + (f"the queue holds 1 to {len(queued)} (nomopoly ruling list)" if queued
                                else "no rulings are queued"))
        rest = queued[:number - 1] + queued[number:]
        state = game.load()
        for i in range(number - 1, len(rest)):
            problem = check_ruling(state, rest[:i], from_data(Ruling, rest[i], "state/pending.yaml"))
            if problem:
                raise StateError(f"ruling {number} not cancelled: the ruling queued after it, "
                                 f"{describe_ruling(rest[i])}, would then fail ({problem}); cancel that one first")
        tx = Transaction(game.state_dir)
        tx.write(game.state_dir / "pending.yaml", dump_yaml({"rulings": rest}))
        tx.commit()
        return queued[number - 1]


# -- the update ------------------------------------------------------------------------------
@dataclass
class UpdateOutcome:
    update: int
    cutoff: datetime
    state: GameState
    events: list[Event]
    screened: list[Screened] = field(default_factory=list)
    committed: bool = False
    #: the update with this cut-off had run already (a re-run after a crash): only its mail was moved
    already_run: bool = False
    #: later deadlines that had passed too when it ran (their mail waits for their own updates)
    deadlines_passed: list[datetime] = field(default_factory=list)
    #: a dry run's files, as the update would have written them (never committed)
    staged: Transaction | None = None


def preview_mail(game: GameDir, outcome: UpdateOutcome, out: Path) -> list[Path]:
    """What a dry run's update would send, written to ``out`` as ``.eml`` files (receipts, results,
    the admin report): the update's files are laid over a scratch copy of the game, whose outbox
    only queues. Nothing of the game itself is touched, and nothing is sent."""
    import shutil
    import tempfile

    from admin.mail.outbound.mailout import mail_out, outbox_of

    assert outcome.staged is not None, "preview_mail needs a dry run's outcome"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="nomopoly-dry-run-") as scratch:
        copy = GameDir(Path(scratch) / "game")
        shutil.copytree(game.state_dir, copy.state_dir, ignore=shutil.ignore_patterns("outbox", ".lock"))
        shutil.copy2(game.settings_path, copy.settings_path)
        for path, payload in outcome.staged.staged().items():
            target = copy.root / Path(path).resolve().relative_to(game.root)
            target.parent.mkdir(parents=True, exist_ok=True)
            if payload is not None:
                target.write_bytes(payload)
            elif target.exists():
                target.unlink()  # a removal (the marker was written as the file's bytes before)
        mail_out(copy, outcome.update, state=outcome.state, send=False)
        written = []
        for eml in outbox_of(copy).pending():
            shutil.copy2(eml, out / eml.name)
            written.append(out / eml.name)
    return sorted(written)


def open_source(game: GameDir, maildir: Path | None) -> MailSource:
    if maildir is not None:
        return MaildirSource(maildir)
    mail = game.settings().section("mail")
    kind = mail.get("source", "maildir")
    if kind == "maildir":
        return MaildirSource(game.root / str(mail.get("maildir", "mail/inbox")))
    if kind == "imap":
        from admin.mail.inbound.imap import ImapSource
        from admin.mail.inbound.imapconfig import ImapConfig

        return ImapSource(ImapConfig.from_dict(game.settings().section("mail.imap"), base_dir=game.root))
    raise StateError(f'nomopoly.toml [mail] source = {kind!r}: use "maildir" or "imap"')


@few_collections
def run_update_job(game: GameDir, *, at: datetime | None = None, maildir: Path | None = None,
                   dry_run: bool = False, source: MailSource | None = None, early: bool = False,
                   now: datetime | None = None, beacon: str | None = None) -> UpdateOutcome:
    """Run the next update. With no cut-off (``at``) it takes the mail up to its deadline, and
    refuses before the deadline unless ``early``: mail sent later that week would be refused as late."""
    with game.lock():
        state = game.load()
        passed: list[datetime] = []
        if at is None:
            now = now or datetime.now(timezone.utc)
            due = deadline(game, state)
            if due is not None and now < due and not early:
                raise StateError(
                    f"update {state.update + 1}'s mail closes {show_time(game, due)}, and it is "
                    f"{show_time(game, now)}: run it then (or let `nomopoly run` do it), or run "
                    "`nomopoly update --early` to run it now (mail that comes after now waits for the "
                    "next update)")
            at = min(now, due) if due else now
            passed = [d.when for d in upcoming(game, state, 8)[1:] if d.when <= now]
        at = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
        source = source or open_source(game, maildir)
        try:
            last = last_cutoff(game, state)
            if last is not None and at <= last:  # run again after a crash: finish, never roll twice
                if not dry_run:
                    source.mark_processed(take_in(game.state_dir, source, at).settled_keys)
                return UpdateOutcome(update=state.update, cutoff=last, state=state, events=[],
                                     already_run=True)
            intake = take_in(game.state_dir, source, at, write=not dry_run)
            ledger = intake.ledger
            screened = screen_entries(game, state, ledger.pending(at), intake.fresh)
            rulings = [from_data(Ruling, r, "state/pending.yaml") for r in game.pending_rulings()]
            update = state.update + 1
            inputs = {"update": update, "cutoff": at.isoformat(),
                      "messages": [s.log_record() for s in screened],
                      "rulings": [to_data(r) for r in rulings]}
            mixed = beacon_input(BeaconSettings.from_dict(game.settings().section("dice")),
                                 deadline(game, state) or at, beacon)
            if mixed is not None:
                inputs["beacon"] = mixed
            outcome, tx = _apply(game, state, inputs, game.next_seeds(update), ledger, screened)
            outcome.deadlines_passed = passed
            if dry_run:
                outcome.staged = tx
                return outcome
            crashpoint("update.before-commit")
            tx.commit()
            outcome.committed = True
            crashpoint("update.committed")
            settled = [s.entry.key for s in screened] + intake.settled_keys
            source.mark_processed(settled)
        finally:
            source.close()
    return outcome


def screen_entries(game: GameDir, state: GameState, entries: list[LedgerEntry],
                   fresh: dict[str, bytes] | None = None) -> list[Screened]:
    """Read, authenticate and parse ledger entries with the game's [auth] and [mail] settings."""
    settings = game.settings()
    auth = AuthSettings.from_dict(settings.section("auth"))
    limits = MailLimits.from_settings(settings.section("mail"))
    return screen(game.state_dir, entries, state, auth, limits, fresh)


def last_cutoff(game: GameDir, state: GameState) -> datetime | None:
    """The cut-off of the last committed update (None before the first)."""
    path = game.results_path(state.update)
    cutoff = (load_json(path) or {}).get("cutoff") if state.update and path.exists() else None
    return datetime.fromisoformat(cutoff) if cutoff else None


def _apply(game: GameDir, state: GameState, inputs: dict[str, Any], seeds: Seeds, ledger: Ledger,
           screened: list[Screened]) -> tuple[UpdateOutcome, Transaction]:
    scheme = game.dice_scheme()
    result, dice = run_logged(state, inputs, seeds, scheme)
    update = result.state.update
    tx = Transaction(game.state_dir)
    next_seeds, chain = game.stage_seeds(tx, result.state, update + 1)
    for s in screened:
        ledger.settle(s.entry.hash, s.status, update, s.reason)
    game.stage_state(tx, result.state)
    game.stage_archive(tx, result.archived)
    for path, text in ledger.files(game.state_dir).items():
        tx.write(path, text)
    tx.write(game.state_dir / "pending.yaml", dump_yaml({"rulings": []}))
    public, hidden = seeds.commitments()
    dice_record = {"scheme": scheme, "seed": seeds.public.hex(), "commitment": public, "hidden_commitment": hidden,
                   "player_commitments": dict(state.next_player_commitments),
                   "digest": dice.digest, "players": player_inputs(inputs),
                   **({"beacon": inputs["beacon"]} if inputs.get("beacon") else {}),
                   "rolls": [[r.label, r.sides, r.value] for r in dice.rolls]}
    dice_record["hidden_draws"] = [hidden_draw_hash(hidden_roll_record(r)) for r in dice.hidden_rolls]
    face_down = hooks.call(result.state, REGISTRY).face_down_piles(result.state)
    piles = pile_record(face_down, seeds.hidden, next_seeds.hidden, dice.pile_draws)
    secret_chain = SeedChain.from_secret(game.secrets())
    private_dice = {**dice_record, "hidden_seed": seeds.hidden.hex(),
                    **({"hidden_key": secret_chain.hidden_key.hex(), "chain_base": secret_chain.base}
                       if secret_chain is not None and secret_chain.covers(update) else {}),
                    "hidden_rolls": [hidden_roll_record(r) for r in dice.hidden_rolls],
                    **({"pile_draws": piles.private_draws} if piles.private_draws else {})}
    events = [to_data(e) for e in result.events]  # once: the log keeps them all, the results the public ones
    tx.write(game.next_log_path(f"update-{update}"), dump_json({
        "kind": "update", "inputs": inputs, "dice": private_dice,
        "events": events,
        "next_commitment": result.state.next_commitment,
        "next_hidden_commitment": result.state.next_hidden_commitment,
        "next_player_commitments": result.state.next_player_commitments}))
    record = public_results(result.state, events, inputs, dice_record)
    record.update({"chain": chain} if chain else {}, previous=record_link(game, update - 1), **piles.public())
    tx.write(game.results_path(update), dump_json(record))
    if result.state.ended:  # the game is over: every hidden seed is published (verify --hidden)
        # the first update after the end reads every log once; later ones add their own seed to
        # what is published already (a finished game re-read all its logs every update)
        published = load_json(game.hidden_seeds_path) if game.hidden_seeds_path.exists() else None
        revealed = published if published and "updates" in published else hidden_record(game)
        revealed["updates"][str(update)] = {"hidden_seed": private_dice["hidden_seed"],
                                            "hidden_rolls": private_dice["hidden_rolls"],
                                            "pile_draws": piles.private_draws}
        if "hidden_key" in private_dice:
            revealed.setdefault("hidden_keys", {})[str(private_dice["chain_base"])] = private_dice["hidden_key"]
        tx.write(game.hidden_seeds_path, dump_json(revealed))
    outcome = UpdateOutcome(update=update, cutoff=datetime.fromisoformat(inputs["cutoff"]),
                            state=result.state, events=result.events, screened=screened)
    return outcome, tx
