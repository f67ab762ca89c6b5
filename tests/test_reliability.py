"""Reliability under faults and hostile input: disk full, two updates at once, hand-broken state
files, and a corpus of hostile emails, each through real ``nomopoly`` processes.

Run alone with ``pytest -m reliability``. (Kill -9 at many points and an IMAP server restarted
during a fetch are in tests/test_crash.py.) The counts of faults injected and hostile inputs fed
are printed in the terminal summary, with or without ``-s``.
"""

from __future__ import annotations

import collections
import contextlib
import email
import email.policy
import hashlib
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml
from fixtures.games import DIR_SETTINGS, deliver

from admin.jobs import update as jobs
from admin.store.gamedir import GameDir
from admin.mail.inbound.ledger import Ledger

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent / "hostile"))
from make_corpus import CORPUS, write_corpus  # noqa: E402

CUTOFF = "2026-11-04T23:59:59+00:00"
LOCK_MESSAGE = "another nomopoly command is changing"
COUNTS: collections.Counter[str] = collections.Counter()


class _Summary:
    """Prints the counts at the end of the session (registered by the fixture below)."""

    def pytest_terminal_summary(self, terminalreporter) -> None:  # noqa: ANN001
        if COUNTS:
            terminalreporter.write_sep("-", "reliability counts")
            for key in sorted(COUNTS):
                terminalreporter.write_line(f"{key}: {COUNTS[key]}")


@pytest.fixture(scope="module", autouse=True)
def _report_counts(request):
    manager = request.config.pluginmanager
    if not manager.has_plugin("nomopoly-reliability-summary"):
        manager.register(_Summary(), "nomopoly-reliability-summary")
    yield


# -- helpers -------------------------------------------------------------------------------------
def nomopoly(game: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300,
             preexec=None) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in its own process."""
    return subprocess.run([sys.executable, "-m", "admin", *args, "--game", str(game)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          capture_output=True, text=True, timeout=timeout, preexec_fn=preexec)


def make_game(root: Path, players=("alice", "bob", "carol")) -> GameDir:
    game = jobs.init_game(root, "nomopoly2", "Reliability game", settings_text=DIR_SETTINGS)
    for name in players:
        jobs.add_player(game, name, f"{name}@example.org")
    (game.root / "mail" / "inbox").mkdir(parents=True, exist_ok=True)
    return game


def week_one_mail(game: GameDir, count: int = 3) -> None:
    bodies = ["BUY\nSTATUS\n", "PROPOSE Free parking\nADD RULE VI: Landing on 1 pays $5.\nEND\n",
              "STATUS\nNAME 3 Mayfair\n"]
    names = ["alice", "bob", "carol"]
    for i in range(count):
        deliver(game.root / "mail" / "inbox", f"{names[i % 3]}@example.org", bodies[i % 3],
                f"2026-11-0{2 + i % 3}T{10 + i // 60 % 10:02d}:{i % 60:02d}:00+00:00",
                message_id=f"<rel-{i}@test.invalid>")


def snapshot(root: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """sha256 of every file under ``root`` (the lock file and ``skip`` prefixes left out)."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and not rel.endswith(".lock") and not rel.startswith(skip):
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def state_only(root: Path) -> dict[str, str]:
    """The game's state proper: what must never change when an update fails (the mail archive
    and the ledger may gain the messages taken in; hidden temp files are checked on their own)."""
    return {k: v for k, v in snapshot(root, skip=("mail/", "state/mail/", "state/ledger", "site/")).items()
            if not Path(k).name.startswith(".")}


def temp_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(".*.tmp"))


# -- disk full -----------------------------------------------------------------------------------
def _can_mount() -> bool:
    return os.geteuid() == 0 and os.path.exists("/proc/filesystems") and \
        "tmpfs" in Path("/proc/filesystems").read_text()


def _fill(mount: Path, leave: int) -> Path:
    """Fill the file system until only about ``leave`` bytes are free."""
    filler = mount / "filler"
    st = os.statvfs(mount)
    free = st.f_bavail * st.f_frsize
    with open(filler, "wb") as fh:
        fh.write(b"\0" * max(0, free - leave))
    return filler


@contextlib.contextmanager
def _tmpfs(mount: Path, size: str):
    """A small tmpfs at ``mount`` for the block (skips the test where one cannot be mounted)."""
    if not _can_mount():
        pytest.skip("mounting a tmpfs needs root; the RLIMIT_FSIZE tests cover failing writes")
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture(scope="module")
def disk_full_runs(tmp_path_factory):
    """Run the same update with the disk full at ten different points (0 to 256 kB left on a
    4 MB tmpfs), then again with space: (bytes left, failed run or None, old or whole new state,
    state after the re-run == a reference game's, ledger statuses after the re-run)."""
    tmp = tmp_path_factory.mktemp("diskfull")
    with _tmpfs(tmp / "disk", "4m") as mount:
        reference = make_game(tmp / "reference")
        week_one_mail(reference, 12)
        assert nomopoly(reference.root, "update", "--at", CUTOFF, "--no-site").returncode == 0
        expected = _relative(state_only(reference.root))
        template = make_game(tmp / "template")
        week_one_mail(template, 12)
        runs = []
        for leave in (0, 4096, 16384, 32768, 49152, 65536, 98304, 131072, 196608, 262144):
            game_root = mount / "game"
            subprocess.run(["cp", "-a", str(template.root), str(game_root)], check=True)
            before = state_only(game_root)
            filler = _fill(mount, leave)
            run = nomopoly(game_root, "update", "--at", CUTOFF, "--no-site")
            now = state_only(game_root)
            # a failed run leaves the old state, or (the disk filled up after the commit, in the
            # mail-out) the whole new one
            intact = now == before or _no_outbox(_relative(now)) == _no_outbox(expected)
            journal_left = (game_root / "state" / ".commit-journal.json").exists()
            temps = temp_files(game_root)
            filler.unlink()
            again = nomopoly(game_root, "update", "--at", CUTOFF, "--no-site")
            assert again.returncode == 0, again.stderr
            statuses = sorted(e.status for e in Ledger.load(game_root / "state").messages.values())
            runs.append((leave, run if run.returncode != 0 else None, intact and not journal_left,
                         _relative(state_only(game_root)) == expected, statuses, temps))
            if run.returncode != 0:
                COUNTS["faults: disk full during an update"] += 1
            subprocess.run(["rm", "-rf", str(game_root)], check=True)
        yield runs


def test_a_full_disk_at_any_point_of_an_update_leaves_the_old_state_and_a_rerun_applies_each_email_once(
        disk_full_runs):
    failed = [r for r in disk_full_runs if r[1] is not None]
    assert len(failed) >= 3, "the disk never filled up: the test did not test anything"
    for leave, run, intact, same_as_reference, statuses, _ in disk_full_runs:
        if run is not None:
            assert intact, f"{leave} bytes left: the update failed and left neither the old state nor the new"
        assert same_as_reference, f"{leave} bytes left: after the re-run the state differs from a clean run"
        assert statuses == ["applied"] * 12, (leave, statuses)


def test_a_full_disk_is_reported_as_one_clear_error_and_leaves_no_temp_files(disk_full_runs):
    failed = [(leave, run, temps) for leave, run, _, _, _, temps in disk_full_runs if run is not None]
    assert failed
    for leave, run, temps in failed:
        assert run.returncode == 1, (leave, run.stderr)
        assert "Traceback" not in run.stderr, (leave, run.stderr[-600:])
        assert "space" in run.stderr.lower() or "could not write" in run.stderr.lower(), run.stderr
        assert temps == [], (leave, temps)


def _free(mount: Path) -> int:
    st = os.statvfs(mount)
    return st.f_bavail * st.f_frsize


def test_a_full_disk_during_the_site_build_keeps_the_update_sends_its_mail_and_says_what_to_do(tmp_path):
    """The state is committed, then the site build runs out of space: one clear error, exit 1, the
    mail still goes out, no half-built folder is left, and ``nomopoly build`` finishes the job."""
    with _tmpfs(tmp_path / "disk", "8m") as mount:
        game = make_game(mount / "game")
        week_one_mail(game, 3)
        subprocess.run(["cp", "-a", str(game.root), str(mount / "probe")], check=True)
        free = _free(mount)
        assert nomopoly(mount / "probe", "update", "--at", CUTOFF, "--no-site").returncode == 0
        needed = free - _free(mount)  # what the update and its mail take, without the site
        subprocess.run(["rm", "-rf", str(mount / "probe")], check=True)
        filler = _fill(mount, needed + 32768)  # the site (about 200 kB) does not fit
        run = nomopoly(game.root, "update", "--at", CUTOFF)
        COUNTS["faults: disk full during the site build"] += 1
        assert run.returncode == 1, run.stdout + run.stderr
        assert "Traceback" not in run.stderr, run.stderr[-2000:]
        assert "update 1 is saved, but could not build the site" in run.stderr, run.stderr
        assert "No space left on device" in run.stderr and "run `nomopoly build`" in run.stderr
        assert GameDir(game.root).load().update == 1
        assert "message(s) queued" in run.stdout or "sent" in run.stdout, run.stdout
        assert list((game.root / "state" / "outbox").rglob("*.eml")), "the mail-out was skipped"
        assert not list(game.root.glob(".site.*-*")), "a half-built site folder was left"
        filler.unlink()
        again = nomopoly(game.root, "build")
        assert again.returncode == 0 and (game.root / "site" / "index.html").is_file(), again.stderr


def test_a_read_only_state_folder_is_one_clear_error_and_changes_nothing(game_dir):
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root (as root, file permissions do not stop writes)")
    week_one_mail(game_dir, 3)
    state = game_dir.root / "state"
    before = state_only(game_dir.root)
    if subprocess.run(["mount", "--bind", str(state), str(state)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(state)], check=True)
        run = nomopoly(game_dir.root, "update", "--at", CUTOFF, "--no-site")
    finally:
        subprocess.run(["umount", "-l", str(state)], check=False)
    COUNTS["faults: read-only state folder"] += 1
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert "cannot write in" in run.stderr and "Read-only file system" in run.stderr, run.stderr
    assert state_only(game_dir.root) == before


def _no_outbox(snap: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in snap.items() if not k.startswith("state/outbox/")}


def _relative(snap: dict[str, str]) -> dict[str, str]:
    """For comparing two games: the outbox by file name only (its Date headers are the clock's)."""
    return {k: ("" if k.startswith("state/outbox/") else v) for k, v in snap.items()
            if not k.startswith("state/.")}


def _fsize_limit(limit: int):
    def apply() -> None:
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_state_write_that_fails_leaves_the_old_state_and_says_why(game_dir):
    """RLIMIT_FSIZE makes every write past 4 kB fail (EFBIG), a real failing write on any disk:
    the mails and the ledger are smaller, the new state and its log are not."""
    week_one_mail(game_dir, 3)
    before = state_only(game_dir.root)
    run = nomopoly(game_dir.root, "update", "--at", CUTOFF, "--no-site", preexec=_fsize_limit(4096))
    COUNTS["faults: state write past RLIMIT_FSIZE"] += 1
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert "could not write" in run.stderr and "old state is intact" in run.stderr, run.stderr
    assert state_only(game_dir.root) == before
    assert nomopoly(game_dir.root, "update", "--at", CUTOFF, "--no-site").returncode == 0
    assert GameDir(game_dir.root).load().update == 1


def test_an_archive_write_that_fails_says_why_without_a_traceback(game_dir):
    week_one_mail(game_dir, 3)
    before = state_only(game_dir.root)
    run = nomopoly(game_dir.root, "update", "--at", CUTOFF, "--no-site", preexec=_fsize_limit(64))
    COUNTS["faults: archive write past RLIMIT_FSIZE"] += 1
    assert state_only(game_dir.root) == before
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr[-600:]


# -- two updates at once -------------------------------------------------------------------------
def test_two_updates_started_at_once_apply_each_message_once(tmp_path):
    game = make_game(tmp_path / "game")
    week_one_mail(game, 400)  # enough work that the two processes overlap
    raced = 0
    for attempt in range(3):
        root = tmp_path / f"race{attempt}"
        subprocess.run(["cp", "-a", str(game.root), str(root)], check=True)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cmd = [sys.executable, "-m", "admin", "update", "--at", CUTOFF, "--no-site", "--game", str(root)]
        procs = [subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for _ in range(2)]
        results = [(p.wait(timeout=300), *p.communicate()) for p in procs]
        codes = sorted(code for code, _, _ in results)
        locked = [err for code, _, err in results if code != 0]
        assert codes in ([0, 0], [0, 1]), results
        for err in locked:
            assert LOCK_MESSAGE in err and "Traceback" not in err, err
        raced += len(locked)
        COUNTS["faults: concurrent update refused by the lock"] += len(locked)
        state = GameDir(root).load()
        assert state.update == 1
        assert len(GameDir(root).update_logs()) == 1
        ledger = Ledger.load(root / "state")
        assert [(e.status, e.update) for e in ledger.messages.values()] == [("applied", 1)] * 400
        if raced:
            break
    assert raced, "the two updates never overlapped: the lock was not exercised"


# -- state files broken by hand ------------------------------------------------------------------
def state_yaml_files(game: GameDir) -> list[str]:
    """Every YAML file of the state proper an update reads (not the log, not results)."""
    top = [p for p in game.state_dir.glob("*.yaml")]
    modules = [p for folder in ("modules", "private") for p in (game.state_dir / folder).glob("*.yaml")]
    ledger = game.state_dir / "ledger" / "pending.yaml"
    return sorted(p.relative_to(game.state_dir).as_posix()
                  for p in top + modules + ([ledger] if ledger.exists() else []))


EXPECTED_YAML = ("board.yaml", "game.yaml", "players.yaml", "private.yaml", "proposals.yaml", "secrets.yaml",
                 # each mechanic's own state (schema 2): public under modules/, private under private/
                 "modules/board.yaml", "modules/cards.yaml", "modules/health.yaml", "modules/ownership.yaml",
                 "modules/players.yaml", "modules/turns.yaml", "private/cards.yaml")


def test_the_broken_yaml_cases_cover_every_state_file(game_dir):
    week_one_mail(game_dir, 3)
    assert nomopoly(game_dir.root, "update", "--at", CUTOFF, "--no-site").returncode == 0
    names = state_yaml_files(game_dir)
    assert set(EXPECTED_YAML) <= set(names), names


@pytest.mark.parametrize("line", [1, 4])
@pytest.mark.parametrize("name", EXPECTED_YAML + ("rules_history.yaml", "ledger/pending.yaml", "pending.yaml"))
def test_a_state_file_broken_into_invalid_yaml_is_named_with_its_line_and_nothing_is_written(
        game_dir, name, line):
    week_one_mail(game_dir, 3)
    path = game_dir.state_dir / name
    if not path.exists():  # ledger/pending.yaml and pending.yaml appear after the first update/ruling
        jobs.queue_ruling(game_dir, _pause_ruling())
        deliver(game_dir.root / "mail" / "inbox", "alice@example.org", "STATUS\n",
                "2026-11-01T10:00:00+00:00", message_id="<early@test.invalid>")
        from admin.mail.inbound.intake import take_in
        from admin.mail.inbound.sources import MaildirSource

        take_in(game_dir.state_dir, MaildirSource(game_dir.root / "mail" / "inbox", move_processed=False),
                None)
    assert path.exists(), f"{name} is not a state file any more: update the test"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    line = min(line, len(lines) + 1)
    lines.insert(line - 1, "oops: [this is, not closed\n")
    path.write_text("".join(lines), encoding="utf-8")
    broken = path.read_bytes()
    before = state_only(game_dir.root)
    run = nomopoly(game_dir.root, "update", "--at", CUTOFF)
    COUNTS["faults: state file with invalid YAML"] += 1
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert f"{name}:" in run.stderr and "invalid YAML" in run.stderr, run.stderr
    reported = int(run.stderr.split(f"{name}:", 1)[1].split(":", 1)[0])
    assert line <= reported <= line + 1, run.stderr  # the broken line (or where the parser noticed)
    assert path.read_bytes() == broken, "the broken file was overwritten"
    assert state_only(game_dir.root) == before, "a state file changed although the update failed"


def _pause_ruling():
    from admin.engine.events import Ruling

    return Ruling(kind="pause", note="a ruling, so that state/pending.yaml exists")


BAD_SHAPES = {  # file -> (new content, what the message must name)
    "game.yaml": ("- just\n- a list\n", "mapping"),
    "players.yaml": ("players:\n  alice: [1, 2]\n", "alice"),
    "board.yaml": ("squares:\n- number: one\n", "number"),
    "proposals.yaml": ("proposals: 7\n", "proposals"),
    "private.yaml": ("emails: nobody\n", "emails"),
    "secrets.yaml": ("next_seed: 42\n", "next_seed"),
    "modules/health.yaml": ("health:\n  alice: lots\n", "alice"),
    "modules/ownership.yaml": ("owners: 7\n", "owners"),
    "private/cards.yaml": ("hands:\n  alice: 3\n", "alice"),
}


@pytest.mark.parametrize("name", sorted(BAD_SHAPES))
def test_a_state_file_of_the_wrong_shape_is_named_with_the_field_and_nothing_is_written(game_dir, name):
    week_one_mail(game_dir, 3)
    text, field = BAD_SHAPES[name]
    path = game_dir.state_dir / name
    path.write_text(text, encoding="utf-8")
    before = state_only(game_dir.root)
    run = nomopoly(game_dir.root, "update", "--at", CUTOFF)
    COUNTS["faults: state file of the wrong shape"] += 1
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    assert name in run.stderr and field in run.stderr, run.stderr
    assert path.read_text(encoding="utf-8") == text, "the broken file was overwritten"
    assert state_only(game_dir.root) == before, "a state file changed although the update failed"


# -- hostile input -------------------------------------------------------------------------------
KNOWN_BUGS: dict[str, str] = {}  # hostile inputs that still fail, with the reason (none now)
#: hostile inputs read only in part, and what their last verdict says
BOUNDED = {"hundred-thousand-commands": "read up to its first 500 lines",
           "hundred-thousand-junk": "read up to its first 500 lines",
           "rfc2231-content-type": "Content-Type header of", "ten-thousand-lines": "read up to its first"}
NOT_FROM_A_PLAYER = {"spoofed-sender", "header-injection", "invalid-utf8", "binary-garbage",
                     "no-sender", "empty", "from-two-addresses", "from-list", "from-encoded-domain",
                     "out-of-office"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_corpus(tmp_path_factory.mktemp("hostile"), "Alice <alice@example.org>")


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[n])) if n in KNOWN_BUGS else n
    for n in CORPUS])
def test_a_hostile_email_gets_a_verdict_and_the_update_site_and_mail_out_survive_it(game_dir, corpus, name):
    inbox = game_dir.root / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    (inbox / "new" / f"1793786400.M1P1.{name}").write_bytes(corpus[name].read_bytes())  # 2026-11-04 10:00Z
    with game_dir.settings_path.open("a") as fh:  # a site URL: the build writes the Atom feed too
        fh.write('\n[site]\nurl = "https://games.example.org/hostile"\n')
    deliver(inbox, "bob@example.org", "STATUS\n", "2026-11-04T11:00:00+00:00", message_id="<ok@test.invalid>")

    run = nomopoly(game_dir.root, "update", "--at", CUTOFF)  # builds the site and sends the mail too
    COUNTS["hostile inputs fed through an update"] += 1
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Traceback" not in run.stderr, run.stderr[-3000:]

    ledger = Ledger.load(game_dir.state_dir)
    entries = {e.key.rsplit(".", 1)[-1]: e for e in ledger.messages.values()}
    entry = entries[name]
    assert entry.status in ("applied", "rejected", "ignored", "duplicate"), entry
    assert entries["test"].status == "applied", "the ordinary email next to it was not acted on"
    if entry.status == "applied":
        log = yaml.load(game_dir.update_logs()[1].read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        lines = next(m["lines"] for m in log["inputs"]["messages"] if m["hash"] == entry.hash)
        assert all(line["command"] is not None or line["error"] for line in lines), name
        assert name not in NOT_FROM_A_PLAYER, f"{name} was acted on as {log}"
    else:
        assert entry.reason, f"{name}: {entry.status} without a reason"
    COUNTS[f"hostile inputs {entry.status}"] += 1
    if name == "huge-mail":
        assert entry.status == "rejected" and "limit" in (entry.reason or ""), entry
    if name in BOUNDED:  # read up to the limits, every other line summed up in one verdict
        log = yaml.load(game_dir.update_logs()[1].read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        lines = next(m["lines"] for m in log["inputs"]["messages"] if m["hash"] == entry.hash)
        assert len(lines) <= 501 and sum(line["command"] is not None for line in lines) <= 100, name
        said = [lines[-1]["error"] or "", *next(m.get("problems", []) for m in log["inputs"]["messages"]
                                                 if m["hash"] == entry.hash)]
        assert any(BOUNDED[name] in text for text in said), said
        COUNTS["hostile inputs bounded by the mail limits"] += 1
    receipts = [p for p in (game_dir.state_dir / "outbox").rglob("*.eml") if b"answers your email" in p.read_bytes()]
    assert all(p.stat().st_size < 100_000 for p in receipts), name
    for page in (game_dir.root / "site").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "Bcc: victim" not in text and "<script>alert" not in text, page
        assert not any(c in text for c in "\x1b\x07\u202e"), f"{name}: a control character in {page}"
    if name == "out-of-office":
        assert entry.status == "ignored", entry
    if name == "token-without-token":  # issue 30: noted, the rest carried out, the secret never kept
        assert entry.status == "applied", entry
        assert b"not-a-real-secret" not in b"".join(p.read_bytes() for p in game_dir.state_dir.rglob("*")
                                                   if p.is_file() and "/mail/" not in p.as_posix())
    for eml in (game_dir.state_dir / "outbox").rglob("*.eml"):  # issue 30: quoted lines escaped
        text = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default).get_body(("plain",))
        assert text is None or not any(c in text.get_content() for c in "\x1b\x07\u202e"), (name, eml)
    ElementTree.parse(game_dir.root / "site" / "feed.atom")  # still well-formed XML
    for eml in game_dir.state_dir.rglob("*.eml"):
        if "/mail/" in eml.as_posix() and "outbox" not in eml.as_posix():
            continue  # the archive holds the raw input itself
        head = eml.read_bytes().split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        assert b"\nBcc:" not in head and b"\nX-Injected" not in head, eml


def test_an_encoded_display_name_cannot_make_an_outsider_a_player(game_dir, corpus):
    inbox = game_dir.root / "mail" / "inbox"
    for sub in ("new", "cur", "tmp"):
        (inbox / sub).mkdir(parents=True, exist_ok=True)
    (inbox / "new" / "1793786400.M1P1.spoof").write_bytes(corpus["spoofed-sender"].read_bytes())
    run = nomopoly(game_dir.root, "update", "--at", CUTOFF, "--no-site")
    COUNTS["faults: spoofed sender"] += 1
    assert run.returncode == 0, run.stderr
    (entry,) = Ledger.load(game_dir.state_dir).messages.values()
    assert entry.status == "rejected", f"acted on as a player's email: {entry}"
