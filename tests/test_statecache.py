"""The parsed-state cache (admin/store/cache.py): a faster read and write of the same state, never
a different one."""

from __future__ import annotations

import json

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admin.store.gamedir import GameDir
from admin.store.cache import CACHE_DIR, CACHE_FILE, dump_by_entries
from admin.store.statefiles import state_files
from admin.store.fileio import Transaction, dump_yaml
from admin.store.plain import to_data


def _save(game: GameDir, state) -> None:
    tx = Transaction(game.root)
    game.stage_state(tx, state)
    tx.commit()


def _cache(game: GameDir) -> dict:
    return json.loads((game.state_dir / CACHE_DIR / CACHE_FILE).read_text(encoding="utf-8"))["files"]


def test_every_cached_file_holds_what_parsing_its_yaml_gives(game_dir):
    state = game_dir.load()
    state.squares[3].name = "tricky: a: b # not a comment\n  two  spaces, ' and \" \u00e9 \u2028 end "
    state.players["bob"].money = 1234
    _save(game_dir, state)
    files = _cache(game_dir)
    assert {"players.yaml", "game.yaml", "board.yaml"} <= set(files)
    for name, (_sha, data, _dumped) in files.items():
        assert json.loads(data) == yaml.safe_load((game_dir.state_dir / name).read_text(encoding="utf-8")), name


def test_a_read_takes_the_data_from_the_cache_when_the_file_is_the_one_recorded(game_dir):
    _save(game_dir, game_dir.load())
    path = game_dir.state_dir / CACHE_DIR / CACHE_FILE
    cache = json.loads(path.read_text(encoding="utf-8"))
    sha, data, dumped = cache["files"]["players.yaml"]
    players = json.loads(data)
    players["players"]["alice"]["money"] = 777  # only the cache says so, not the file
    cache["files"]["players.yaml"] = [sha, json.dumps(players), dumped]
    path.write_text(json.dumps(cache), encoding="utf-8")
    assert GameDir(game_dir.root).load().players["alice"].money == 777


def test_a_file_edited_by_hand_is_read_from_its_yaml_and_then_written_as_a_dump_writes_it(game_dir):
    state = game_dir.load()
    state.players["alice"].money = 1234
    _save(game_dir, state)
    path = game_dir.state_dir / "players.yaml"
    text = path.read_text(encoding="utf-8")
    assert "money: 1234" in text
    path.write_text("# edited by hand\n" + text.replace("money: 1234", "money:    1500"), encoding="utf-8")
    game = GameDir(game_dir.root)
    state = game.load()
    assert state.players["alice"].money == 1500
    _save(game, state)  # the data is unchanged, but the file is written as nomopoly writes it
    assert path.read_text(encoding="utf-8") == dump_yaml({"players": to_data(state.players)})


def test_a_damaged_or_missing_cache_is_only_slower(game_dir):
    _save(game_dir, game_dir.load())
    want = state_files(GameDir(game_dir.root).load())
    path = game_dir.state_dir / CACHE_DIR / CACHE_FILE
    path.write_text('{"format": 1, "files": {"players.yaml": ', encoding="utf-8")
    assert state_files(GameDir(game_dir.root).load()) == want
    path.unlink()
    assert state_files(GameDir(game_dir.root).load()) == want


def test_writing_through_the_cache_gives_the_bytes_a_plain_dump_gives(game_dir):
    _save(game_dir, game_dir.load())
    game = GameDir(game_dir.root)
    state = game.load()
    state.players["carol"].money -= 15
    tx = Transaction(game.root)
    game.stage_state(tx, state)
    staged = {str(p.relative_to(game.root)): data for p, data in tx.staged().items() if data is not None}
    plain = {name: text.encode("utf-8") for name, text in state_files(state).items()}
    assert {n: staged[n] for n in plain} == plain


def test_the_cache_folder_keeps_itself_out_of_git(game_dir):
    _save(game_dir, game_dir.load())
    assert (game_dir.state_dir / CACHE_DIR / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
#: long enough to be folded over several lines (dump_yaml's width is 100), blank lines and all
_long = st.lists(st.sampled_from(["word", "a: b", "#", "\n", "\n\n", " ", "  ", "'", '"', "- x", "é"]),
                 min_size=30, max_size=120).map(" ".join)
_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | _text | _long
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_text, _plain, max_size=6))
def test_what_the_cache_records_for_a_dump_is_what_parsing_the_dump_gives(data) -> None:
    """The cache records a dumped file's data as the data that was dumped, which is only right if
    PyYAML reads back exactly what it wrote, for any text, number and nesting a state may hold."""
    assert yaml.load(dump_yaml(data), Loader=yaml.CSafeLoader) == data


def _copied(data):
    """``data`` with no object in it twice (json keeps integers beyond 64 bits)."""
    return json.loads(json.dumps(data))


_entries = st.dictionaries(_text, _plain, max_size=5)
_file = st.dictionaries(_text, st.lists(_plain, max_size=6) | _entries | _plain, min_size=1, max_size=4)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_file, _file, st.randoms(use_true_random=False))
def test_a_file_written_entry_by_entry_is_byte_for_byte_its_whole_dump(old, other, rnd) -> None:
    """``dump_by_entries`` keeps the lines of what did not change and dumps the rest; the text is
    exactly ``dump_yaml`` of the new data, whatever changed (keys, items, entries added, removed,
    changed, reordered), or None (then the caller dumps the whole)."""
    new = {}
    for key in list(old) + list(other):  # a mix of the old file and another one
        source = old if key in old and (key not in other or rnd.random() < 0.5) else other
        value = source[key]
        if isinstance(value, list) and rnd.random() < 0.5:
            value = [v for v in value if rnd.random() < 0.8] + (other.get(key) if isinstance(other.get(key), list) else [])
        new[key] = value
    # as to_data makes it: no object twice (PyYAML would write a shared one once, with an anchor)
    old, new = _copied(old), _copied(new)
    made = dump_by_entries(new, old, dump_yaml(old))
    assert made is None or made == dump_yaml(new)


def test_a_long_list_with_one_item_changed_keeps_the_others_lines() -> None:
    text = " ".join(["a rule's text: long enough to fold,", "with a blank line\n\nand   spaces"] * 8)
    old = {"version": 1, "disputes": [{"number": n, "charge": f"charge {n}", "status": "settled",
                                       "arguments": {"a": ["x", "y"]}} for n in range(50)],
           "rules": {f"VI.{n}": [{"rev": 1, "text": text}, {"rev": 2, "text": text + str(n)}] for n in range(30)},
           "note": text,
           "cards": {f"p{n:04d}": [[n, n + 1], {"marked": [n]}] for n in range(20)}}
    new = json.loads(json.dumps(old))
    new["disputes"][7]["status"] = "lapsed"
    new["disputes"].append({"number": 50, "charge": "new", "status": "open", "arguments": {}})
    new["cards"]["p0003"][1]["marked"].append(99)
    new["rules"]["VI.4"].append({"rev": 3, "text": "amended"})
    new["rules"]["VI.99"] = [{"rev": 1, "text": text}]
    made = dump_by_entries(new, old, dump_yaml(old))
    assert made is not None and made == dump_yaml(new)
