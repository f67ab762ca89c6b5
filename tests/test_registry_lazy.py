"""The games no other game draws on (Timopoly, Technopoly, the Teams variant) are imported when a
game first asks for one of their mechanics (admin/games/registry.py ``Later``): a Nomopoly II job
does not pay for them, and whatever imports them first, every mechanic and command is the same."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from admin.engine.registry import Known, Later
from admin.games.registry import NOMOTEAMS, REGISTRY, TECHNOPOLY, TIMOPOLY

ROOT = Path(__file__).resolve().parents[1]
LATER = {TIMOPOLY.package, NOMOTEAMS.package, TECHNOPOLY.package}


def in_a_new_process(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_job_starts_without_the_games_it_does_not_play():
    loaded = in_a_new_process(
        "import sys, admin.cli.main, admin.jobs.update, admin.jobs.replay, admin.site.build\n"
        f"print(sorted(m for m in {sorted(LATER)!r} if m in sys.modules))")
    assert loaded == "[]"


@pytest.mark.parametrize("first", ["timo-board", "teams-money", "techno", "ownership"])
def test_whichever_game_is_loaded_first_every_mechanic_and_command_is_the_same(first):
    code = ("from admin.games.registry import REGISTRY\n"
            "from admin.engine.commands import COMMAND_TYPES\n"
            f"REGISTRY.known[{first!r}]\n"
            "REGISTRY.known.load_all()\n"
            "print(sorted((k, v.__module__, v.__qualname__) for k, v in COMMAND_TYPES.items()))\n"
            "print([(n, c.__qualname__) for n, c in REGISTRY.known.items()])")
    assert in_a_new_process(code) == in_a_new_process(code.replace(f"REGISTRY.known[{first!r}]\n", ""))


def test_a_logged_command_of_a_game_not_loaded_yet_is_read():
    out = in_a_new_process(
        "import sys\nfrom admin.engine.commands import command_from_dict\nimport admin.games.registry\n"
        "print(type(command_from_dict({'cmd': 'timo-buy'})).__name__, TIMO in sys.modules)".replace(
            "TIMO", repr(TIMOPOLY.package)))
    assert out == "BuyDeed True"


def test_each_later_package_names_its_mechanics_in_the_order_given():
    REGISTRY.known.load_all()  # raises, naming the package, if a Later entry is out of date
    for later in (TIMOPOLY, NOMOTEAMS, TECHNOPOLY):
        assert all(REGISTRY.known[name].name == name for name in later.names)


def test_a_later_entry_out_of_date_is_named():
    known = Known([Later(TIMOPOLY.package, ("timo-board", "timo-cards"))])
    with pytest.raises(RuntimeError, match="update its Later entry"):
        known["timo-board"]
    assert "timo-cards" in known and "timo-nothing" not in known
