"""`nomopoly build --out DIR` never destroys a folder it did not build (issue: hardening #2)."""

import pytest

from admin.errors import StateError
from admin.site.build import build_site
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
