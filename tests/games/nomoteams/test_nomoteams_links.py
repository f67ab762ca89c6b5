"""The Teams variant's typed links (admin/games/nomoteams/api.py): each capability is had by the
section that does it, asked of the registry and absent while that section is off; the notes keep
the update's scratch keys the variant always used (the undo snapshot of XXII.4 pickles them)."""

from __future__ import annotations

from admin.engine.context import UpdateContext
from admin.engine.dice import Dice
from admin.engine.links import NOTES
from admin.engine.schedule import Slot
from admin.games.nomoteams import api
from admin.games.nomoteams.mechanics.health import cure, make_sick
from admin.games.nomoteams.mechanics.ownership.state import destroy
from admin.games.nomoteams.mechanics.shared import GOVERNMENT, move_object, object_keepers, objects_of, owner_of
from admin.games.registry import REGISTRY
from admin.jobs.scenario import setup


def _ctx(state) -> UpdateContext:
    return UpdateContext(state=state, dice=Dice(seed=b"x", digest="t", update=1), slot=Slot("Sunday", 0),
                         registry=REGISTRY)


def _state(**extra):
    return setup({"game": "nomoteams", "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
                  **extra}, "t")


def test_each_capability_is_had_by_the_section_that_does_it():
    had = {cap.__name__: sorted(name for name, cls in REGISTRY.known.items() if issubclass(cls, cap))
           for cap in (api.DestroysSquares, api.SettlesBaths, api.KeepsObjects)}
    assert had == {"DestroysSquares": ["teams-destruction"], "SettlesBaths": ["teams-products"],
                   "KeepsObjects": ["teams-colours", "teams-government", "teams-products"]}


def test_the_notes_keep_the_scratch_keys_of_before():
    ours = {n.name for n in (api.REVERSE, api.TURNING, api.TURN_BASE, api.GLUED, api.GLUED_STILL,
                             api.PRODUCT_ROLLS, api.BATH, api.WETHA_RENT)}
    assert ours == {"teams-reverse", "teams-turn", "teams-turn-base", "teams-glue", "teams-glue-still",
                    "teams-product-rolls", "teams-bath", "wetha-rent"}
    assert all(NOTES[name] is not None for name in ours)


def test_a_square_is_destroyed_as_xviii_says_only_while_the_destruction_section_is_in_force():
    """On: the highest square takes the destroyed one's number (XVIII.2). Off: the core removes it
    and the board keeps a destroyed square 7 (no renumbering), and it says so in one event."""
    state = _state(board=20)
    ctx = _ctx(state)
    assert ctx.registry.provider(state, api.DestroysSquares) is not None
    assert destroy(ctx, 7, "t", "XVIII.2") is True
    assert len(state.squares) == 19 and owner_of(state, 7) == GOVERNMENT  # square 20 became 7

    off = _state(board=20, disable=["teams-destruction"])
    ctx = _ctx(off)
    assert ctx.registry.provider(off, api.DestroysSquares) is None
    assert destroy(ctx, 7, "t", "XVIII.2") is True
    assert len(off.squares) == 20 and off.square(7).destroyed
    assert [e.text for e in ctx.events if e.kind == "destroyed"] == ["Square 7 was destroyed: t."]


def test_a_hot_spring_bath_is_settled_when_health_changes_only_with_the_products_section():
    state = _state()
    ctx = _ctx(state)
    state.mods["teams-products"].held.give("alice", "Hot Spring Bath")
    assert make_sick(ctx, "alice", rule="VII.1", why="t") is True
    # the bath cured her at once and, its owner no longer Sick, disappeared (XIX.6)
    assert "alice" not in api.HEALTH.of(state).sick
    assert state.mods["teams-products"].held.count("alice", "Hot Spring Bath") == 0
    assert api.BATH.peek(ctx) is None  # the note is cleared after the settling

    off = _state(disable=["teams-products"])
    ctx = _ctx(off)
    assert ctx.registry.provider(off, api.SettlesBaths) is None
    assert make_sick(ctx, "bob", rule="VII.1", why="t") is True
    assert "bob" in api.HEALTH.of(off).sick
    assert cure(ctx, "bob", rule="VII.1", why="t") is True


def test_objects_pass_through_every_section_that_keeps_them_in_precedence_order():
    state = _state()
    keepers = [m.name for m in object_keepers(state)]
    assert keepers == [m.name for m in state.modules
                       if m.name in ("teams-government", "teams-colours", "teams-products")]
    api.GOVERNMENT.of(state).hats["alice"] = 2
    assert objects_of(state, "alice") == {"Souvenir Hat": 2}
    move_object(state, "alice", "bob", "Souvenir Hat", 1)
    assert objects_of(state, "alice") == {"Souvenir Hat": 1} and objects_of(state, "bob") == {"Souvenir Hat": 1}
