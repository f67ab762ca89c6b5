"""``nomopoly run`` (one cron line runs the game) and publishing, over a simulated week."""

from __future__ import annotations

import filecmp
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from fixtures.games import deliver

from admin.jobs.run import run_due
from admin.mail.outbound.mailout import outbox_of
from admin.mail.outbound.outbox import iter_messages
from admin.jobs.publish import PENDING, publish


ROOT = Path(__file__).resolve().parents[1]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text + "+00:00")


def _inbox(game) -> Path:
    return game.root / "mail" / "inbox"


def _settings(game, text: str) -> None:
    with game.settings_path.open("a") as fh:
        fh.write(text)


def _sent(game) -> list[str]:
    return sorted(str(m["X-Nomopoly-Kind"]) + ":" + str(m["To"]) for m in iter_messages(outbox_of(game).sent_dir))


def test_a_simulated_week_runs_each_update_once_at_its_deadline_and_each_reminder_once(game_dir):
    text = game_dir.settings_path.read_text().replace("[mail]\n", '[mail]\nremind_hours = 24\n', 1)
    game_dir.settings_path.write_text(text)
    deliver(_inbox(game_dir), "alice@example.org", "PROPOSE Free parking\nA new rule.\nEND\n",
            "2026-11-02T10:00:00+00:00")
    runs = {}
    for when in ("2026-11-03T12:00:00", "2026-11-04T23:59:58", "2026-11-05T00:00:30", "2026-11-05T00:10:00",
                 "2026-11-06T12:00:00", "2026-11-07T08:00:00", "2026-11-07T08:10:00", "2026-11-08T00:01:00",
                 "2026-11-08T00:06:00"):
        if when == "2026-11-06T12:00:00":  # bob votes on Friday; alice and carol do not
            deliver(_inbox(game_dir), "bob@example.org", "VOTE 1 YES\n", "2026-11-06T11:00:00+00:00")
        report = run_due(game_dir, at(when))
        runs[when] = (game_dir.load().update, report)
    updates = {when: update for when, (update, _) in runs.items()}
    assert updates == {"2026-11-03T12:00:00": 0, "2026-11-04T23:59:58": 0, "2026-11-05T00:00:30": 1,
                       "2026-11-05T00:10:00": 1, "2026-11-06T12:00:00": 1, "2026-11-07T08:00:00": 1,
                       "2026-11-07T08:10:00": 1, "2026-11-08T00:01:00": 2, "2026-11-08T00:06:00": 2}
    idle = [when for when, (_, report) in runs.items() if report.idle]
    assert idle == ["2026-11-03T12:00:00", "2026-11-04T23:59:58", "2026-11-05T00:10:00", "2026-11-06T12:00:00",
                    "2026-11-07T08:10:00", "2026-11-08T00:06:00"]
    reminders = [s for s in _sent(game_dir) if s.startswith("reminder:")]
    assert reminders == ["reminder:alice <alice@example.org>", "reminder:carol <carol@example.org>"]
    assert runs["2026-11-05T00:00:30"][1].lines[0].startswith(
        "Ran update 1 (mail up to 2026-11-04T23:59:59+00:00): 1 email(s) acted on.")
    assert (game_dir.root / "site" / "index.html").is_file()
    # bob's YES against no NO (alice and carol counted as abstaining, VIII.3): accepted on Sunday
    assert [p.status for p in game_dir.load_public(archive=True).proposals] == ["accepted"]


def test_a_run_after_days_off_runs_one_update_per_missed_deadline_each_with_its_own_mail(game_dir):
    deliver(_inbox(game_dir), "alice@example.org", "STATUS\n", "2026-11-03T10:00:00+00:00")
    deliver(_inbox(game_dir), "bob@example.org", "STATUS\n", "2026-11-06T10:00:00+00:00")
    report = run_due(game_dir, at("2026-11-09T09:00:00"))
    assert game_dir.load().update == 2
    assert [line.split(":")[0] for line in report.lines if line.startswith("Ran")] == [
        "Ran update 1 (mail up to 2026-11-04T23", "Ran update 2 (mail up to 2026-11-07T23"]
    assert "1 email(s) acted on" in report.lines[0]


def test_the_published_copy_equals_the_built_site(game_dir, tmp_path):
    target = tmp_path / "www"
    _settings(game_dir, f'\n[site]\npublish = "mkdir -p {target} && cp -a site/. {target}/"\n')
    run_due(game_dir, at("2026-11-05T00:00:30"))
    compared = filecmp.dircmp(game_dir.root / "site", target)
    assert (compared.left_only, compared.right_only, compared.diff_files) == ([], [], [])
    assert not (game_dir.state_dir / PENDING).exists()


def test_a_failing_publish_is_reported_and_retried_on_the_next_run(game_dir, tmp_path):
    target = tmp_path / "www"
    marker = tmp_path / "server-up"
    _settings(game_dir, f'\n[site]\npublish = "test -e {marker} && mkdir -p {target} && cp -a site/. {target}/"\n')
    first = run_due(game_dir, at("2026-11-05T00:00:30"))
    assert game_dir.load().update == 1  # the update is saved whatever the publish does
    assert any(e.startswith("Publishing failed: test -e") and "exit 1" in e for e in first.errors), first.errors
    assert (game_dir.state_dir / PENDING).exists() and not target.exists()
    marker.touch()
    second = run_due(game_dir, at("2026-11-05T00:05:00"))
    assert second.errors == [] and any(line.startswith("Published:") for line in second.lines)
    assert (target / "index.html").read_bytes() == (game_dir.root / "site" / "index.html").read_bytes()
    assert run_due(game_dir, at("2026-11-05T00:10:00")).idle


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def test_publish_to_a_git_branch_commits_the_site_as_the_branchs_tree(game_dir):
    _git(game_dir.root, "init", "-q")
    run_due(game_dir, at("2026-11-05T00:00:30"))
    done = publish(game_dir, branch="gh-pages")
    assert done.ok, done.detail
    files = sorted(_git(game_dir.root, "ls-tree", "-r", "--name-only", "gh-pages").split())
    site = game_dir.root / "site"
    # the site only: the build's own records (manifest, cache) stay in the folder
    assert {".nomopoly-build.json", ".nomopoly-cache.json"} <= {p.name for p in site.iterdir()}
    assert files == sorted(p.relative_to(site).as_posix() for p in site.rglob("*")
                           if p.is_file() and p.name not in (".nomopoly-build.json", ".nomopoly-cache.json"))
    assert _git(game_dir.root, "show", "gh-pages:index.html") == (site / "index.html").read_text(encoding="utf-8")
    assert _git(game_dir.root, "status", "--porcelain").strip() != ""  # the work tree and index are the Admin's
    again = publish(game_dir, branch="gh-pages")
    assert again.ok and again.detail == "unchanged"
    assert len(_git(game_dir.root, "log", "--oneline", "gh-pages").splitlines()) == 1


def test_publishing_with_nothing_configured_says_what_to_set(game_dir):
    from admin.engine.errors import StateError
    from admin.site.build import build_site

    build_site(game_dir)
    with pytest.raises(StateError, match=r"\[site\] publish = \"<command>\""):
        publish(game_dir)


def _todo(game) -> str:
    done = subprocess.run([sys.executable, "-m", "admin", "todo", "--game", str(game.root)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_todo_lists_what_waits_for_the_admin_and_says_so_when_nothing_does(game_dir):
    from admin.jobs import update as jobs
    from admin.engine.events import Ruling

    assert _todo(game_dir) == "Nothing waits for you.\n"
    deliver(_inbox(game_dir), "dora@example.org", "JOIN dora\n", "2026-11-03T10:00:00+00:00")
    run_due(game_dir, at("2026-11-05T00:00:30"))
    jobs.queue_ruling(game_dir, Ruling("adjust", {"player": "bob", "money": 50}, "a refund"))
    assert _todo(game_dir).splitlines() == [
        "- dora <dora@example.org> asked to join (update 1) → nomopoly player add dora dora@example.org",
        "- Queued for the next update: ruling adjust money=50 player=bob (a refund) → nomopoly ruling cancel 1, "
        "if it is a mistake"]


def test_a_rule_added_by_an_accepted_proposal_that_nothing_runs_is_on_the_admins_todo():
    """A rule accepted and recorded as VI.19 that no mechanic carries out (the rule language cannot
    read it): the Admin's to-do (and so the report) says so, naming the rule and the proposal."""
    from admin.jobs.scenario import run
    from admin.jobs.todo import todo_items

    out = run({"players": ["alice", "bob", "carol"], "updates": [
        {"mail": {"alice": "PROPOSE Free money\nADD RULE VI: A player who lands on the lowest numbered "
                           "square sings a song for the Admin.\nEND"},
         "order": ["alice", "bob", "carol"], "dice": [1, 2, 1, 2, 1, 2]},
        {"mail": {"alice": "VOTE 1 YES", "bob": "VOTE 1 YES", "carol": "VOTE 1 YES"},
         "order": ["alice", "bob", "carol"], "dice": [1, 2, 1, 2, 1, 2], "draws": ["AS", "2S", "3S", "4S"]},
    ]}, "added-rule")
    added = [e.text for e in out.events if e.kind == "rule-change"]
    assert added == ["Rule VI.19 was added by proposal 1."]
    lines = [t.line() for t in todo_items(out.state, out.events)]
    assert ("Rule VI.19 added by proposal 1 is text only: nothing runs it; carry it out by ruling, or mark it "
            "as flavour → nomopoly ruling settle VI.19 --as by-hand (or --as flavour) --reason \"...\"") in lines
    # a rule the game's own mechanics run is not listed: VI.9 stays automated
    assert not any("VI.9" in line for line in lines)


def test_rules_coverage_lists_a_rule_added_by_a_proposal_as_text_only_with_the_admin(tmp_path):
    from admin.games.catalog import spec
    from admin.jobs.coverage import coverage
    from admin.nomic.ruleset import Rule

    from admin.engine.model import RuleRevision
    from admin.jobs.scenario import setup

    state = setup({"players": ["alice"]}, "coverage")
    section = next(s for s in state.rules.sections if s.numeral == "VI")
    section.rules.append(Rule.make("VI", 99, "A player who lands on square 1 sings a song."))
    state.rule_history["VI.99"] = [RuleRevision(1, "created", 2, 1, proposal=3, text="...")]
    [row] = [r for r in coverage(state, spec("nomopoly2")) if r.rule == "VI.99"]
    assert (row.status, row.how) == ("admin", "added by proposal 3: text only, with the Admin (by hand or by ruling)")


def _cli(*args: str):
    from click.testing import CliRunner

    from admin.cli.main import cli

    return CliRunner().invoke(cli, list(args))


def test_the_published_branch_is_titled_with_the_sites_title_not_the_folders_name(game_dir):
    _git(game_dir.root, "init", "-q")
    _settings(game_dir, '\n[site]\ntitle = "The Grand Game of Bloomsbury"\n')
    run_due(game_dir, at("2026-11-05T00:00:30"))
    assert publish(game_dir, branch="gh-pages").ok
    assert _git(game_dir.root, "log", "-1", "--format=%s", "gh-pages").strip() == \
        "Site of The Grand Game of Bloomsbury, update 1"


def test_publish_git_outside_a_git_repository_explains_and_promises_no_retry(game_dir):
    from admin.site.build import build_site

    build_site(game_dir)
    out = _cli("publish", "--git", "gh-pages", "--game", str(game_dir.root))
    assert out.exit_code == 1
    assert f"{game_dir.root} is not in a git repository" in out.output
    assert "git init" in out.output
    assert "fatal" not in out.output and "tries again" not in out.output


def test_a_failed_manual_publish_says_to_publish_again_not_that_run_will(game_dir, tmp_path):
    """`nomopoly run` retries only a site an update marked for publishing; before this, a manual
    publish that failed said "`nomopoly run` tries again", and run answered "Nothing is due"."""
    from admin.site.build import build_site

    _settings(game_dir, f'\n[site]\npublish = "test -e {tmp_path}/up"\n')
    build_site(game_dir)
    out = _cli("publish", "--game", str(game_dir.root))
    assert out.exit_code == 1
    assert "tries again" not in out.output
    assert "fix this and run `nomopoly publish` again" in out.output
    assert run_due(game_dir, at("2026-11-04T12:00:00")).idle  # indeed nothing for run to retry
    # after an update, the site waits to be published: then run does try again, and says so
    first = run_due(game_dir, at("2026-11-05T00:00:30"))
    assert any("`nomopoly run` tries again" in e for e in first.errors), first.errors


@pytest.mark.parametrize("url, warned", [("https://github.com/alice/our-game.git", True),
                                          ("git@gitlab.com:alice/our-game.git", True),
                                          ("ssh://git@git.alice.example/srv/our-game.git", False)])
def test_check_and_publish_warn_when_the_game_folders_remote_is_on_a_public_host(game_dir, url, warned):
    from admin.site.build import build_site

    _git(game_dir.root, "init", "-q")
    _git(game_dir.root, "remote", "add", "origin", url)
    build_site(game_dir)
    for args in (("check",), ("publish", "--git", "gh-pages")):
        out = _cli(*args, "--game", str(game_dir.root))
        said = "WARNING: the game folder's git remote origin" in out.output
        assert said == warned, (args, out.output)
        if warned:
            assert "state/secrets.yaml holds the seed of the next update" in out.output


def test_no_warning_without_a_repository_or_a_remote(game_dir):
    from admin.jobs.publish import public_remote_warnings

    assert public_remote_warnings(game_dir) == []
    _git(game_dir.root, "init", "-q")
    assert public_remote_warnings(game_dir) == []
