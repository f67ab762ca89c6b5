"""The nomopoly.toml that ``init`` writes: every commented line can be uncommented at once and the
file still reads, with no key given twice; it refers to no README section that does not exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import admin
from admin.store.templates import default_settings

README = Path(admin.__file__).resolve().parent.parent / "README.md"


def _uncommented(text: str) -> str:
    """The template with each commented setting or table line made live (the explanations dropped)."""
    out = []
    for line in text.splitlines():
        live = re.match(r"# (\[[\w.]+\]|\w+ = .*)$", line.split("  #")[0].rstrip())
        out.append(live.group(1) if live else line)
    return "\n".join(out) + "\n"


def test_the_template_reads_with_every_commented_setting_switched_on_and_no_key_twice() -> None:
    text = default_settings("My game")
    assert tomllib.loads(text)["game"]["title"] == "My game"
    live = _uncommented(text)
    assert live != text
    data = tomllib.loads(live)  # a key given twice raises here
    assert data["mail"]["from_address"] == "game@example.org"
    assert "from_address" not in data["mail"]["smtp"]
    assert data["mail"]["imap"]["host"] == "imap.example.org"
    assert len(re.findall(r"^# from_address = ", text, re.M)) == 1


def test_the_template_names_no_readme_section_that_does_not_exist() -> None:
    readme = README.read_text(encoding="utf-8")
    text = default_settings("My game")
    for ref in re.findall(r"see (\S+) in the README", text):
        assert ref in readme, ref
    for table in re.findall(r"\[([\w.]+)\] below", text):
        assert f"[{table}]" in text.split("below", 1)[1]


def test_init_writes_a_gitignore_for_the_site_dry_runs_and_the_cache_and_keeps_one_that_exists(tmp_path: Path) -> None:
    from admin.jobs.update import init_game

    game = init_game(tmp_path / "game", "nomopoly2", "My game")
    lines = (game.root / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert {"site/", "dry-run/", "state/.cache/"} <= set(lines)
    own = tmp_path / "other"
    own.mkdir()
    (own / ".gitignore").write_text("mine\n", encoding="utf-8")
    init_game(own, "nomopoly2", "Other")
    assert (own / ".gitignore").read_text(encoding="utf-8") == "mine\n"


def _settings_error(tmp_path: Path, text: str) -> str:
    from admin.engine.errors import StateError
    from admin.store.gamedir import GameDir

    game = GameDir(tmp_path)
    game.settings_path.write_text(text, encoding="utf-8")
    try:
        game.settings()
    except StateError as exc:
        return str(exc)
    raise AssertionError("the settings were read")


def test_a_key_given_twice_is_named_with_its_table_and_the_fix(tmp_path: Path) -> None:
    text = _uncommented(default_settings("g")).replace(
        'admin_address = "admin@example.org"', 'admin_address = "admin@example.org"\nfrom_address = "x@y.org"')
    message = _settings_error(tmp_path, text)
    assert "from_address in [mail]" in message and "given twice" in message
    assert "keep one" in message


def test_an_unquoted_text_value_is_named_and_shown_quoted(tmp_path: Path) -> None:
    message = _settings_error(tmp_path, '[game]\ntitle = My game\n')
    assert "line 2 (title in [game]): title = My game" in message
    assert 'title = "My game"' in message


def test_a_broken_table_line_still_gets_a_sentence_with_its_line(tmp_path: Path) -> None:
    message = _settings_error(tmp_path, '[game\ntitle = "x"\n')
    assert "line 1" in message and "invalid TOML" in message
