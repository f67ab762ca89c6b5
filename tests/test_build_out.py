"""`nomopoly build --out DIR` never destroys a folder it did not build (issue: hardening #2)."""

import json

import pytest

from admin.engine.errors import StateError
from admin.site import build as build_module
from admin.site.build import build, build_site
from admin.site.writer import MANIFEST, read_manifest
from fixtures.browser import make_game


@pytest.fixture
def game(tmp_path):
    return make_game(tmp_path / "g", updates=1)


@pytest.mark.parametrize("where", [".", "state", "rules_md", "state/log", ".."])
def test_the_game_folder_its_parents_and_its_own_folders_are_refused(game, where):
    target = game.root / where
    before = sorted(p.name for p in target.iterdir())
    with pytest.raises(StateError, match="refusing to build the site there"):
        build_site(game, target)
    assert sorted(p.name for p in target.iterdir()) == before


def test_a_folder_of_unrelated_files_is_refused_and_left_alone(game, tmp_path):
    other = tmp_path / "photos"
    other.mkdir()
    (other / "holiday.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(StateError, match="files that no nomopoly build wrote"):
        build_site(game, other)
    assert (other / "holiday.jpg").read_bytes() == b"\xff\xd8"


def test_an_empty_folder_and_a_site_built_before_are_built_into(game, tmp_path):
    out = tmp_path / "www"
    out.mkdir()
    assert (build_site(game, out) / "index.html").is_file()
    assert (build_site(game, out) / "index.html").is_file()  # its own site: rebuilt in place


def test_what_a_killed_build_left_is_removed_by_the_next(game):
    site = build_site(game)
    stale_new = game.root / ".site.new-k1ll3d"
    (stale_new / "players").mkdir(parents=True)
    (stale_new / "index.html").write_text("half a page")
    stale_old = game.root / ".site.old-k1ll3d"
    (stale_old / "site").mkdir(parents=True)
    build_site(game)
    assert not stale_new.exists() and not stale_old.exists()
    assert (site / "index.html").is_file()


def test_a_site_taken_away_by_a_killed_swap_is_put_back_before_the_build(game):
    site = build_site(game)
    old = game.root / ".site.old-k1ll3d"
    old.mkdir()
    site.rename(old / "site")  # killed between taking the old site away and moving the new one in
    report = build(game)
    assert not old.exists() and (site / "index.html").is_file()
    assert report.rendered == [] and report.kept == report.files  # the old site was there to keep


def test_a_build_that_cannot_write_says_so_and_leaves_the_old_site(game, monkeypatch):
    site = build_site(game)
    before = (site / "index.html").read_bytes()

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("admin.site.build._copy_static", full)
    with pytest.raises(StateError, match=r"could not build the site into .*No space left on device.*"
                                         r"the old site is still there.*nomopoly build"):
        build_site(game)
    assert (site / "index.html").read_bytes() == before
    assert not list(game.root.glob(".site.new-*"))


def test_a_rebuild_keeps_what_the_user_put_beside_the_site(game):
    """`.git/`, `CNAME` and a file in a folder the build writes into are the user's: a rebuild
    (incremental or full) keeps them, byte for byte, and removes only what the last build wrote."""
    site = build_site(game)
    (site / ".git" / "objects" / "ab").mkdir(parents=True)
    (site / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (site / ".git" / "objects" / "ab" / "cdef").write_bytes(b"\x78\x01blob")
    (site / "CNAME").write_text("game.example.org\n")
    (site / "players" / "notes.txt").write_text("mine\n")
    (site / "static" / "extra.css").write_text("body{}\n")  # beside the build's static files
    (site / "empty-dir").mkdir()
    build_site(game)
    build_site(game, full=True)
    assert (site / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert (site / ".git" / "objects" / "ab" / "cdef").read_bytes() == b"\x78\x01blob"
    assert (site / "CNAME").read_text() == "game.example.org\n"
    assert (site / "players" / "notes.txt").read_text() == "mine\n"
    assert (site / "static" / "extra.css").read_text() == "body{}\n"
    assert (site / "empty-dir").is_dir()
    assert (site / "index.html").is_file()


def test_a_rebuild_still_removes_a_page_the_last_build_wrote_and_this_one_does_not(game):
    site = build_site(game)
    manifest = json.loads((site / MANIFEST).read_text())
    manifest["pages"]["players/ghost.html"] = next(iter(manifest["pages"].values()))
    (site / MANIFEST).write_text(json.dumps(manifest))
    (site / "players" / "ghost.html").write_text("a page of a player gone")
    build_site(game)
    assert not (site / "players" / "ghost.html").exists()
    assert "players/ghost.html" not in json.loads((site / MANIFEST).read_text())["pages"]


def test_the_users_files_survive_a_build_killed_before_the_swap(game, monkeypatch):
    site = build_site(game)
    (site / "CNAME").write_text("game.example.org\n")

    def killed(new, out):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "_swap_in", killed)
    with pytest.raises(KeyboardInterrupt):
        build_site(game)
    assert (site / "CNAME").read_text() == "game.example.org\n"


def test_the_manifests_look_ups_are_read_as_they_were_written_each_value_once(game):
    site = build_site(game)
    as_written = json.loads((site / MANIFEST).read_text())

    manifest = read_manifest(site / MANIFEST)

    deps = [d for page in manifest["pages"].values() for d in page["deps"]]
    assert len({id(d) for d in deps}) == len(set(deps)) < len(deps)  # equal look-ups are one object
    assert json.loads(json.dumps(manifest)) == as_written


@pytest.mark.parametrize("edit", ["pages a list", "look-ups not a list", "a look-up holding a list",
                                  "a look-up of two items", "not JSON"])
def test_a_manifest_edited_by_hand_into_another_shape_is_built_past(game, edit):
    site = build_site(game)
    manifest = json.loads((site / MANIFEST).read_text())
    page = next(p for p, entry in manifest["pages"].items() if entry["deps"])
    if edit == "pages a list":
        manifest["pages"] = list(manifest["pages"])
    elif edit == "look-ups not a list":
        manifest["pages"][page]["deps"] = "rule"
    elif edit == "a look-up holding a list":
        manifest["pages"][page]["deps"][0][1] = ["IX.1"]
    elif edit == "a look-up of two items":
        manifest["pages"][page]["deps"][0] = manifest["pages"][page]["deps"][0][:2]
    (site / MANIFEST).write_text("{not json" if edit == "not JSON" else json.dumps(manifest))

    report = build(game)

    assert page in report.rendered
    assert json.loads((site / MANIFEST).read_text())["pages"][page]["deps"]
