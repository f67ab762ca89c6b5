"""The code's shape, checked: the layers as folders, no import cycle, modules of a few hundred
lines, each game's code in its own folder, the library free of any game.

A limit some files still break is a list of those files with their size today: a listed file may
shrink (and must then be struck off), never grow, and no new file may join it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ADMIN = ROOT / "admin"
MAX_LINES = 400

#: modules over MAX_LINES today, with their length: each to be split (issue 28)
TOO_LONG = {
}

#: library modules that reach into a game's code, and the games they reach: none (what a library
#: mechanic needs of a game is a hook or a capability the game's mechanics implement, issue 28)
LIBRARY_REACHES_INTO_GAMES: dict[str, set[str]] = {}

#: the layers, one folder each, and the package's own two files
TOP_LEVEL = {"__init__.py", "__main__.py", "engine", "nomic", "library", "games", "store", "mail",
             "site", "jobs", "runtime", "cli"}


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    out = {}
    for path in sorted(ADMIN.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(parts)] = path
    return out


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def top_level_imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``path`` imports when it is loaded (not in functions, not under
    ``if TYPE_CHECKING``)."""
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                if not _type_checking(node):
                    visit(node.body)
                    visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    if sub in known:
                        found.add(sub)
                    elif node.module in known:
                        found.add(node.module)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: top_level_imports(path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), or a module importing
    itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_the_package_imports_no_module_in_a_cycle():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle_of_three_and_a_module_importing_itself():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["d"]]


def test_the_top_level_of_the_package_is_the_map_of_its_layers():
    entries = {p.name for p in ADMIN.iterdir() if p.name != "__pycache__" and not p.name.startswith(".")}
    assert entries == TOP_LEVEL
    assert len(entries) <= 12


def _length(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_grows_past_four_hundred_lines():
    over = {str(p.relative_to(ROOT)): _length(p) for p in modules().values() if _length(p) > MAX_LINES}
    new = {name: n for name, n in over.items() if name not in TOO_LONG}
    grown = {name: (TOO_LONG[name], n) for name, n in over.items() if name in TOO_LONG and n > TOO_LONG[name]}
    assert not new, f"modules over {MAX_LINES} lines: split them {new}"
    assert not grown, f"modules over {MAX_LINES} lines that grew (listed, now): {grown}"
    shrunk = sorted(set(TOO_LONG) - set(over))
    assert not shrunk, f"now {MAX_LINES} lines or fewer: strike them off TOO_LONG: {shrunk}"


def _games() -> list[str]:
    return sorted(p.parent.name for p in (ADMIN / "games").glob("*/game.yaml"))


def _code_games() -> list[str]:
    return sorted(p.name for p in (ADMIN / "games").iterdir() if (p / "__init__.py").is_file())


def test_every_bundled_games_code_is_in_its_own_folder():
    """Every mechanic the registry knows lives in the library, in nomic (proposals), or in the
    folder of the one game family that enables it."""
    from admin.games.catalog import spec
    from admin.games.registry import REGISTRY

    users: dict[str, set[str]] = {}
    for game in _games():
        s = spec(game)
        family = s.base or game
        for name in [m.name for m in s.modules] + list(s.optional):
            users.setdefault(name, set()).add(family)
    misplaced = []
    for cls in REGISTRY.known.values():
        where = cls.__module__.split(".")
        if where[1] in ("library", "nomic"):
            continue
        assert where[1] == "games" and where[3] == "mechanics", cls.__module__
        owners = users.get(cls.name, set())
        if owners and owners != {where[2]}:
            misplaced.append((cls.name, cls.__module__, sorted(owners)))
    assert misplaced == []
    # and no game folder holds code but a game's
    assert set(_code_games()) <= set(_games())


def test_the_library_and_the_engine_import_no_game():
    known = modules()
    reaches: dict[str, set[str]] = {}
    for name, path in known.items():
        layer = name.split(".")[1] if "." in name else ""
        if layer not in ("engine", "library", "nomic"):
            continue
        text = path.read_text(encoding="utf-8")
        games = set(re.findall(r"admin\.games\.(\w+)\.", text)) - {"registry", "catalog"}
        if games:
            reaches[str(path.relative_to(ROOT))] = games
    assert reaches == LIBRARY_REACHES_INTO_GAMES


@pytest.mark.parametrize("pattern", ['mods.get("', 'mods["', 'use("', 'provides("', "ctx.scratch", 'enabled("'])
def test_no_mechanic_links_to_another_by_a_string(pattern):
    """A link no import, type or test shows: outside the engine's own plumbing, mechanics reach each
    other through typed links (admin/engine/links.py: Link, Note; capabilities), never by name."""
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for name, path in modules().items() if not name.startswith("admin.engine")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern in line]
    assert found == [], f"string-keyed links ({pattern!r}); use a Link, a Note or a capability:\n" + "\n".join(found)


#: the games whose mechanics link to each other only by typed links (their api.py, the library's)
TYPED_GAMES = ("nomopoly1", "technopoly", "timopoly")
_STRING_LINK = re.compile(r"""\.mods\b|\.scratch\b|\benabled\(\s*["']|\buse\(\s*["']|\bprovides\(""")


@pytest.mark.parametrize("game", TYPED_GAMES)
def test_a_typed_games_mechanics_hold_no_string_keyed_link(game):
    """No ``state.mods[...]``, ``ctx.scratch``, ``enabled("...")``, ``use``/``provides`` left in
    the game's code: a link to another mechanic's state is a Link, a per-update value a Note."""
    found = [f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
             for path in sorted((ADMIN / "games" / game).rglob("*.py"))
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if _STRING_LINK.search(line)]
    assert found == []


def test_every_command_is_declared_once():
    """One declaration gives a command's dataclass, parser, usage line and HELP entry
    (``@command`` in admin/engine/declare.py): no hand-made ``CommandSpec`` or ``@command_type``
    outside the engine."""
    found = sorted(str(path.relative_to(ROOT)) for name, path in modules().items()
                   if not name.startswith("admin.engine")
                   and ("CommandSpec(" in (text := path.read_text(encoding="utf-8")) or "@command_type" in text))
    assert found == [], f"declare these commands with @command: {found}"
