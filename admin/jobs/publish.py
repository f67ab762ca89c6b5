"""Publishing the built site: by a command the Admin configures, or to a git branch.

- ``[site] publish = "rsync -a --delete site/ host:/var/www/game/"``: run by the shell in the game
  folder after each build (``nomopoly publish``, ``nomopoly run``);
- ``[site] publish_git = "gh-pages"`` (or ``nomopoly publish --git gh-pages``): the site is
  committed as the whole tree of that branch of the game folder's git repository, without
  touching the work tree or the index, and pushed to ``publish_remote`` when one is set.

A publish that fails is reported (with the end of its output) and never touches the game: the
update is saved whatever happens here. The site waiting to be published is marked by a file in
``state/`` (:data:`PENDING`), written when a build finishes and removed when a publish succeeds,
so ``nomopoly run`` tries again on its next run until one does.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from admin.engine.errors import StateError
from admin.store.gamedir import GameDir

#: in state/: the site was built and not yet published (its content: the update it shows)
PENDING = "publish-pending"
#: how long a publish command may take
TIMEOUT = 600


@dataclass(frozen=True)
class Published:
    """What a publish did: ``how`` (the command, or the branch and commit) and whether it worked."""

    ok: bool
    how: str
    detail: str = ""

    def summary(self) -> str:
        if self.ok:
            return f"Published: {self.how}{f' ({self.detail})' if self.detail else ''}"
        return f"Publishing failed: {self.how}: {self.detail} (the update is saved; `nomopoly run` tries again)"


def configured(game: GameDir) -> bool:
    site = game.settings().section("site")
    return bool(site.get("publish") or site.get("publish_git"))


def mark_pending(game: GameDir, update: int) -> None:
    """Note that the site of ``update`` waits to be published (only when publishing is set up)."""
    if configured(game):
        (game.state_dir / PENDING).write_text(f"{update}\n", encoding="utf-8")


def pending(game: GameDir) -> bool:
    return (game.state_dir / PENDING).exists()


def publish(game: GameDir, *, branch: str | None = None, remote: str | None = None,
            site: Path | None = None) -> Published:
    """Publish ``site`` (default: the game's site/) as nomopoly.toml says, or to ``branch``."""
    settings = game.settings().section("site")
    site = site or game.root / "site"
    if not (site / "index.html").is_file():
        raise StateError(f"{site}: no built site to publish; run `nomopoly build` first")
    branch = branch or settings.get("publish_git")
    if branch:
        result = _to_branch(game, site, str(branch), remote or settings.get("publish_remote"))
    elif settings.get("publish"):
        result = _by_command(game, str(settings["publish"]))
    else:
        raise StateError("nomopoly.toml: nothing to publish with; set [site] publish = \"<command>\" "
                         "(e.g. \"rsync -a --delete site/ host:/var/www/game/\") or publish_git = "
                         "\"<branch>\", or pass --git BRANCH")
    if result.ok:
        (game.state_dir / PENDING).unlink(missing_ok=True)
    return result


def _by_command(game: GameDir, command: str) -> Published:
    try:
        done = subprocess.run(command, shell=True, cwd=game.root, capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return Published(False, command, f"still running after {TIMEOUT} s; stopped")
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return Published(False, command, f"exit {done.returncode}" + (f": {' / '.join(tail)}" if tail else ""))
    return Published(True, command)


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=TIMEOUT)
    if done.returncode != 0:
        raise _GitFailed(f"git {' '.join(args)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.strip()


class _GitFailed(Exception):
    pass


def _to_branch(game: GameDir, site: Path, branch: str, remote: str | None) -> Published:
    """Commit ``site`` as the whole tree of ``branch`` (a new commit only when the site changed)."""
    how = f"git branch {branch}" + (f" pushed to {remote}" if remote else "")
    try:
        top = Path(_git(game.root, "rev-parse", "--show-toplevel"))
        ref = f"refs/heads/{branch}"
        _git(top, "check-ref-format", ref)
        with tempfile.TemporaryDirectory() as tmp:  # an index of our own: the Admin's stays as it is
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            _git(top, "--work-tree", str(site.resolve()), "add", "--all", "--force", ".", env=env)
            tree = _git(top, "write-tree", env=env)
        try:
            parent = _git(top, "rev-parse", "--verify", "--quiet", ref)
        except _GitFailed:
            parent = ""
        if parent and _git(top, "rev-parse", f"{parent}^{{tree}}") == tree:
            commit, detail = parent, "unchanged"
        else:
            author = {"GIT_AUTHOR_NAME": "nomopoly", "GIT_AUTHOR_EMAIL": "nomopoly@localhost",
                      "GIT_COMMITTER_NAME": "nomopoly", "GIT_COMMITTER_EMAIL": "nomopoly@localhost"}
            state = game.load_public()
            args = ["commit-tree", tree, "-m", f"Site of {state.name or 'the game'}, update {state.update}"]
            commit = _git(top, *args, *(["-p", parent] if parent else []), env=author)
            _git(top, "update-ref", ref, commit, *([parent] if parent else []))
            detail = f"commit {commit[:12]}"
        if remote:
            _git(top, "push", "--quiet", remote, f"{ref}:{ref}")
    except _GitFailed as exc:
        return Published(False, how, str(exc))
    except FileNotFoundError:
        return Published(False, how, "git is not installed")
    return Published(True, how, detail)
