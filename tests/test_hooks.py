"""The hooks' structure (issue 28): one dispatcher and no hand-written fan-out loops; every hook a
spec with a documented combination, the documentation's table the specs' own; a hook with one
implementer is a capability instead; the combinations behave as declared; and the Free Parking
pot, docs/architecture.md's worked example, works exactly as written there."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from admin.engine import capabilities, hooks
from admin.engine.hooks import CONCERNS, OWN, SPECS
from admin.engine.model import ModuleConfig, Player
from admin.engine.module import Mechanic
from admin.engine.registry import Registry
from admin.games.catalog import initial_state, spec
from admin.games.registry import REGISTRY
from admin.jobs.scenario import run_file
from admin.library.free_parking import FreeParkingModule

ROOT = Path(__file__).resolve().parents[1]
ADMIN = ROOT / "admin"
DOC = ROOT / "docs" / "architecture.md"
DISPATCHER = {ADMIN / "engine" / "hooks.py", ADMIN / "engine" / "module.py", ADMIN / "engine" / "registry.py"}
#: lookups over the enabled modules that call no hook (duck-typed, left to the typed links' work)
NOT_HOOKS = {ADMIN / "games" / "nomoteams" / "mechanics" / "shared.py": "object_keepers"}
#: a hook the core offers as a seam before a second module uses it
SEAMS = {"on_payment": "every payment, with its kind (the Free Parking pot hears of taxes)",
         "on_square_bought": "every purchase of a square (a rule players write may start there)",
         "on_card_drawn": "every card drawn (a rule players write may start there)"}
CAPABILITIES = [c for c in vars(capabilities).values()
                if isinstance(c, type) and c.__module__ == capabilities.__name__]
NOT_HOOK_METHODS = {"of", "private_of", "new_state", "commands", "describe"}


def expected_table() -> str:
    """docs/architecture.md's table of hooks, as the specs make it."""
    rows = ["| concern | hook | its answers combine by | what it is for |", "| --- | --- | --- | --- |"]
    for concern in CONCERNS:
        for s in SPECS.values():
            if s.concern == concern:
                fold = f" (`{s.fold}`)" if s.fold else ""
                rows.append(f"| {concern} | `{s.name}` | {s.combine.value}{fold} | {s.doc.replace('``', '`')} |")
    return "\n".join(rows)


def test_no_loop_over_the_enabled_mechanics_calls_a_hook_outside_the_dispatcher():
    loop = re.compile(r"(registry|REGISTRY)\.enabled\(|for \w+ in (modules|deciders)\b")
    names = set(SPECS) | set(OWN) | {m for c in CAPABILITIES for m in vars(c) if not m.startswith("_")}
    call = re.compile(r"\.(%s)\(" % "|".join(sorted(names)))
    found = []
    for path in sorted(ADMIN.rglob("*.py")):
        if path in DISPATCHER:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if loop.search(line):
                window = "\n".join(lines[i:i + 5])
                if path not in NOT_HOOKS or call.search(window):
                    found.append(f"{path.relative_to(ROOT)}:{i + 1}: {line.strip()}")
    assert found == [], "call hooks through admin.engine.hooks.call(...), not a loop:\n" + "\n".join(found)


def test_every_hook_method_of_a_mechanic_has_a_spec_and_every_spec_a_method():
    methods = {n for n, v in vars(Mechanic).items()
               if not n.startswith("_") and (callable(v) or isinstance(v, classmethod))} - NOT_HOOK_METHODS
    assert methods - set(SPECS) - set(OWN) == set(), "a Mechanic method with no spec in admin/engine/hooks.py"
    assert set(SPECS) - methods == set()
    assert all(s.doc and s.doc.endswith(".") and s.concern in CONCERNS for s in SPECS.values())


def test_a_hook_has_two_implementers_or_more_and_a_capability_is_no_method_of_every_mechanic():
    for name in SPECS:
        implementers = [c.name for c in REGISTRY.known.values() if getattr(c, name) is not getattr(Mechanic, name)]
        assert len(implementers) >= 2 or name in SEAMS, (name, implementers)
    for cap in CAPABILITIES:
        for method in (m for m in vars(cap) if not m.startswith("_")):
            assert not hasattr(Mechanic, method), f"{cap.__name__}.{method} is still a hook of every Mechanic"
            assert [c for c in REGISTRY.known.values() if issubclass(c, cap)], f"nothing has {cap.__name__}"


def test_the_documented_hook_table_is_the_specs_table_with_no_row_twice():
    doc = DOC.read_text(encoding="utf-8")
    listed = re.findall(r"^\| \w+ \| `(\w+)` \|", doc, re.M)
    assert sorted(set(listed) - set(SPECS)) == [], "docs/architecture.md lists hooks that do not exist"
    assert sorted(set(SPECS) - set(listed)) == [], "docs/architecture.md leaves out hooks"
    assert len(listed) == len(set(listed)), "a hook is listed twice"
    assert expected_table() in doc, "paste this table into docs/architecture.md:\n" + expected_table()
    rows = re.findall(r"^\| (its hooks|the lives of players and squares) \|", doc, re.M)
    assert len(rows) == len(set(rows)) == 2


# -- the combinations, on two small mechanics of a registry of their own ------------------------
class _Seen:
    calls: list[str] = []


class _First(Mechanic[None, None]):
    name = "first"

    def can_own(self, state, square) -> bool:
        _Seen.calls.append("first.can_own")
        return False

    def adjust_rent(self, ctx, square, rent) -> int:
        _Seen.calls.append(f"first.adjust_rent({rent})")
        return rent * 2

    def dice_for(self, state, player) -> str | None:
        return None

    def on_land(self, ctx, player, square) -> None:
        _Seen.calls.append("first.on_land")
        player.status = "removed"


class _Second(Mechanic[None, None]):
    name = "second"

    def can_own(self, state, square) -> bool:
        _Seen.calls.append("second.can_own")
        return True

    def adjust_rent(self, ctx, square, rent) -> int:
        _Seen.calls.append(f"second.adjust_rent({rent})")
        return rent + 1

    def dice_for(self, state, player) -> str | None:
        return "1d4"

    def on_land(self, ctx, player, square) -> None:
        _Seen.calls.append("second.on_land")


def _two(order: list[str]):
    state = initial_state("nomopoly2", "hooks")
    state.modules = [ModuleConfig(name=n) for n in order]
    return state, Registry([_First, _Second])


def test_the_dispatcher_folds_in_precedence_order_and_stops_all_at_the_first_false():
    state, registry = _two(["second", "first"])
    _Seen.calls = []
    calls = hooks.call(state, registry)
    assert calls.adjust_rent(None, state.squares[0], 10) == 22  # (10 + 1) * 2: second, then first
    assert calls.can_own(state, state.squares[0]) is False
    assert _Seen.calls == ["second.adjust_rent(10)", "first.adjust_rent(11)", "second.can_own", "first.can_own"]
    state, registry = _two(["first", "second"])
    _Seen.calls = []
    assert hooks.call(state, registry).can_own(state, state.squares[0]) is False
    assert _Seen.calls == ["first.can_own"]  # all() asks no further


def test_the_dispatcher_gives_the_first_answer_and_stops_on_land_once_the_player_left():
    state, registry = _two(["first", "second"])
    player = Player(name="alice", money=0, square=1, joined_week=1)
    assert hooks.call(state, registry).dice_for(state, player) == "1d4"
    assert hooks.call(state, registry, skip=registry.get("second")).dice_for(state, player) is None
    _Seen.calls = []
    hooks.call(state, registry).on_land(None, player, state.squares[0])
    assert _Seen.calls == ["first.on_land"]  # the first removed the player: the second is not asked


# -- the worked example -----------------------------------------------------------------------
def test_the_free_parking_example_works_exactly_as_docs_architecture_writes_it():
    doc = DOC.read_text(encoding="utf-8")
    example = doc[doc.index("## Worked example: adding a mechanic"):]
    module = re.search(r"\*\*The module\*\*, `([\w/.]+)`", example).group(1)
    line = re.search(r"\*\*One line of `game.yaml`\*\*, Timopoly's .*?\n\s+`(optional: [^`]+)`", example, re.S).group(1)
    scenario = re.search(r"\*\*The scenario\*\*, `([\w/.-]+)`", example).group(1)
    assert (ROOT / module).is_file() and FreeParkingModule.name == "free-parking"
    assert FreeParkingModule in REGISTRY.known.values()
    game_yaml = (ADMIN / "games" / "timopoly" / "game.yaml").read_text(encoding="utf-8")
    assert line in game_yaml.splitlines() and yaml.safe_load(line) == {"optional": {"free-parking": "sections/22-free-parking.md"}}
    assert "free-parking" in spec("timopoly").optional and "free-parking" not in spec("timopoly").enabled_optional
    assert not initial_state("timopoly", "t").enabled("free-parking")  # not on by default
    outcome = run_file(ROOT / scenario)
    assert outcome.differences == [], outcome.differences
    data = yaml.safe_load((ROOT / scenario).read_text(encoding="utf-8"))
    assert data["expect"]["players"] == {"alice": {"money": 130, "square": 5}, "bob": {"money": 190, "square": 1}}
    for said in ("Fn 130", "Fn 190", "square 38", "square 5", "Fn 20 tax"):
        assert said in example


def test_enable_free_parking_in_timopoly_switches_it_on_with_its_section_and_an_empty_pot():
    from admin.engine.model import Directive
    from admin.nomic.amendments import carry_out

    state = initial_state("timopoly", "t")
    carry_out(state, None, [Directive("enable", "free-parking")], REGISTRY)
    assert state.enabled("free-parking") and FreeParkingModule.of(state).pot == {"Free Parking": 0}
    assert "the lowest-numbered space takes everything in the pot" in state.rules.rule("XXII.2").text


def test_a_payment_of_another_kind_or_to_a_player_leaves_the_pot_alone():
    from admin.engine.context import BANK, UpdateContext
    from admin.engine.dice import Dice
    from admin.engine.model import Directive
    from admin.engine.schedule import slot_of
    from admin.nomic.amendments import carry_out

    state = initial_state("timopoly", "t")
    carry_out(state, None, [Directive("enable", "free-parking")], REGISTRY)
    state.players["alice"] = Player(name="alice", money=100, square=1, joined_week=1)
    state.players["bob"] = Player(name="bob", money=100, square=1, joined_week=1)
    slot = slot_of(REGISTRY.params(state, "schedule")["slots"], 1)[1]
    ctx = UpdateContext(state=state, dice=Dice(seed=b"seed", digest="", update=1), slot=slot, registry=REGISTRY)
    ctx.transfer("alice", BANK, 7, rule="X.1", reason="a fine", kind="fine")
    ctx.transfer("alice", "bob", 5, rule="X.1", reason="a tax between players", kind="tax")
    assert FreeParkingModule.of(state).pot == {"Free Parking": 0}
    ctx.transfer("alice", BANK, 3, rule="X.1", reason="a tax", kind="tax")
    assert FreeParkingModule.of(state).pot == {"Free Parking": 3} and state.players["alice"].money == 85
