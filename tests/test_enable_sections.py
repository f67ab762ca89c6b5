"""Issue 12: a game of ``nomopoly2`` in which accepted proposals switch on sections one by one,
each adding its rules and its commands; at the end ``replay --check`` and ``verify`` pass."""

from __future__ import annotations

from datetime import datetime, timedelta

from fixtures.games import deliver

from admin.jobs import update as jobs
from admin.engine.howto import commands_in_force
from admin.games.catalog import module_section, spec
from admin.games.registry import REGISTRY

#: the sections enabled one after another (the first three of the package's optional ones)
SECTIONS = list(spec("nomopoly2").optional)[:3]
MONDAY = datetime.fromisoformat("2026-11-02T10:00:00+00:00")


def test_proposals_enable_sections_one_by_one_and_the_game_replays_and_verifies(game_dir):
    inbox = game_dir.root / "mail" / "inbox"
    for week, module in enumerate(SECTIONS):
        monday = MONDAY + timedelta(weeks=week)
        number = week + 1
        deliver(inbox, "alice@example.org", f"PROPOSE Enable {module}\nENABLE {module}\nEND\n",
                monday.isoformat(), message_id=f"<p{number}@test.invalid>")
        jobs.run_update_job(game_dir, at=monday + timedelta(days=2, hours=13, minutes=59, seconds=59))
        for name in ("alice", "bob", "carol"):
            deliver(inbox, f"{name}@example.org", f"VOTE {number} YES\n",
                    (monday + timedelta(days=4)).isoformat(), message_id=f"<v{number}{name}@test.invalid>")
        before = {h.keyword for h in commands_in_force(game_dir.load(), REGISTRY)}
        had = {m.name for m in game_dir.load().modules}
        jobs.run_update_job(game_dir, at=monday + timedelta(days=5, hours=13, minutes=59, seconds=59))
        state = game_dir.load()
        assert state.enabled(module), f"week {week + 1}: {module} was not switched on"
        section = module_section("nomopoly2", module)
        assert section is not None and section.numeral in [s.numeral for s in state.rules.sections]
        new = {h.keyword for h in commands_in_force(state, REGISTRY)} - before
        # the section's commands, and those of the modules it needs that came with it (interactions ...)
        came = [m.name for m in state.modules if m.name not in had]
        assert module in came
        assert new == {spec.keyword.upper() for name in came for spec in REGISTRY.get(name).commands()} - before
    assert [m for m in SECTIONS if not game_dir.load().enabled(m)] == []
    assert jobs.replay_check(game_dir) == []
    assert jobs.verify(game_dir) == []
