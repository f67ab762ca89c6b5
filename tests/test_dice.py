"""Dice: derived from a committed seed, uniform, recorded, verifiable."""

from collections import Counter

from admin.engine.dice import Dice, Roll, commitment, derive, verify_rolls


def test_the_same_seed_inputs_and_label_give_the_same_face():
    assert derive(b"k" * 32, "d", "u1/x", 6) == derive(b"k" * 32, "d", "u1/x", 6)


def test_faces_depend_on_the_inputs_digest():
    faces_a = [derive(b"k" * 32, "a", f"u1/{i}", 6) for i in range(40)]
    faces_b = [derive(b"k" * 32, "b", f"u1/{i}", 6) for i in range(40)]
    assert faces_a != faces_b


def test_faces_are_roughly_uniform():
    counts = Counter(derive(b"seed", "d", f"l{i}", 6) for i in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts


def test_vii3_an_n_sided_die_shows_each_of_1_to_n_about_equally_often():
    """VII.3: an n-sided die bears 1 to n, each equally likely (200 rolls a face expected)."""
    dice = Dice(seed=b"s" * 32, digest="d", update=1)
    for sides in (2, 10, 20):
        counts = Counter(dice.roll(f"t/{sides}/{i}", sides) for i in range(200 * sides))
        assert set(counts) == set(range(1, sides + 1)), sides
        assert all(150 < c < 250 for c in counts.values()), (sides, counts)


def test_every_roll_is_recorded_and_verifies():
    dice = Dice(seed=b"s" * 32, digest="d", update=3)
    dice.roll("turn/alice/0/d0", 6)
    dice.shuffle(["a", "b", "c"], "order")
    assert [r.label for r in dice.rolls][0] == "u3/turn/alice/0/d0"
    assert verify_rolls(b"s" * 32, "d", dice.rolls) == []
    forged = [Roll(r.label, r.sides, r.sides + 1 - r.value if r.sides > 1 else 1) for r in dice.rolls]
    assert verify_rolls(b"s" * 32, "d", forged)


def test_a_commitment_is_the_sha256_of_the_seed():
    assert commitment(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_chance_is_certain_at_or_above_one():
    dice = Dice(seed=b"x", digest="d", update=1)
    assert dice.chance(20, 20, "c") and dice.chance(30, 20, "c2")
    assert dice.rolls == []
