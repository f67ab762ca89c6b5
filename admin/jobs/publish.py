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
from dataclasses import dataclass, replace
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
    #: after a failure, what the Admin can do (set by :func:`publish`: only a publish that
    #: ``nomopoly run`` will retry says so)
    then: str = ""

    def summary(self) -> str:
        if self.ok:
            return f"Published: {self.how}{f' ({self.detail})' if self.detail else ''}"
        return f"Publishing failed: {self.how}: {self.detail}" + (f" ({self.then})" if self.then else "")


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
    asked = branch
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
    again = "nomopoly publish" + (f" --git {asked}" if asked else "") + (f" --remote {remote}" if remote else "")
    if result.then:
        return result
    if pending(game) and not (asked and asked != settings.get("publish_git")):
        return replace(result, then="the update is saved; `nomopoly run` tries again on its next run, "
                                    f"or run `{again}` once this is fixed")
    return replace(result, then=f"nothing was published; fix this and run `{again}` again")


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


#: the build's own records in the site folder (admin/site/writer.py's manifest, the build
#: cache): they let the next build keep unchanged pages, and are no part of the published site
BUILD_FILES = (".nomopoly-build.json", ".nomopoly-cache.json")


def _repository(game: GameDir) -> Path | None:
    """The top of the git repository the game folder is in; None when it is in none."""
    done = subprocess.run(["git", "-C", str(game.root), "rev-parse", "--show-toplevel"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    return Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None


#: hosts where a repository is often public; the game's own repository must never be
PUBLIC_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sr.ht", "gitea.com")


def public_remote_warnings(game: GameDir) -> list[str]:
    """A warning for each git remote of the game folder's repository on a public host: the game's
    own branch must never be public, since state/secrets.yaml holds the next update's seed (with
    it, anyone knows every roll and card before the update). Only the site's branch may go there."""
    try:
        if _repository(game) is None:
            return []
        remotes = _git(game.root, "remote", "-v")
    except (_GitFailed, FileNotFoundError, subprocess.TimeoutExpired):
        return []
    seen: dict[str, str] = {}
    for line in remotes.splitlines():
        name, url, *_ = line.split() + ["", ""]
        host = next((h for h in PUBLIC_HOSTS if h in url.lower()), None)
        if host and name not in seen:
            seen[name] = f"{url} is on {host}"
    return [f"the game folder's git remote {name} ({where}): keep that repository private, or push only "
            "the site's branch to it (publish_git), never the game's own: state/secrets.yaml holds the "
            "seed of the next update, and whoever reads it knows every roll and card in advance"
            for name, where in sorted(seen.items())]


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
        top = _repository(game)
        if top is None:
            return Published(False, how, f"{game.root} is not in a git repository", then=(
                "nothing was published; make the game folder one (`git init` there; keep it private, "
                "see `nomopoly check`), or publish by a command with [site] publish = \"<command>\""))
        ref = f"refs/heads/{branch}"
        _git(top, "check-ref-format", ref)
        with tempfile.TemporaryDirectory() as tmp:  # an index of our own: the Admin's stays as it is
            env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
            _git(top, "--work-tree", str(site.resolve()), "add", "--all", "--force", "--", ".",
                 *(f":(exclude){name}" for name in BUILD_FILES), env=env)
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
            title = game.settings().title or state.name or "the game"  # [site] title, as the site's
            args = ["commit-tree", tree, "-m", f"Site of {title}, update {state.update}"]
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
