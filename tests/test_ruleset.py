"""The markdown ruleset: the shipped rules_md/, its file format, and the helpers around it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from admin.engine.errors import RuleError
from admin.nomic.ruleset import (
    Rule,
    Ruleset,
    Section,
    dump_section,
    from_roman,
    load_ruleset,
    roman,
    rule_anchor,
    save_ruleset,
    section_filename,
)

REPO = Path(__file__).resolve().parents[1]
RULES_MD = REPO / "rules_md"
SEED = Path(os.environ.get("NOMOPOLY_SEEDS", "/work/shared/seeds")) / "004_6d4f951dee63cf1d.txt"

SEED_COUNTS = {
    "I": 3, "II": 3, "III": 5, "IV": 3, "V": 2, "VI": 18, "VII": 4, "VIII": 6,
    "IX": 5, "X": 2, "XI": 4, "XII": 2, "XIII": 5, "XIV": 6, "XV": 2,
}
TITLES = [
    "The Rules", "The Admin", "Players", "Money", "Items", "The Board", "Turns", "Proposals",
    "Schedule of Events", "Disruption of Gameplay", "Ending the Game", "Health", "Ownership",
    "Cards", "The Admin Bank Account",
]


def write(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_bytes(text.encode("utf-8"))
    return path


def load_error(tmp_path: Path, name: str, text: str) -> str:
    write(tmp_path, name, text)
    with pytest.raises(RuleError) as caught:
        load_ruleset(tmp_path)
    return str(caught.value)


def seed_core() -> str:
    if not SEED.is_file():
        pytest.skip(f"seed document {SEED} is not available")
    text = SEED.read_text(encoding="utf-8")
    return text[text.index("I: The Rules"):text.index("XVI: Blackjack")]


# --------------------------------------------------------------------------- the shipped rules


def test_shipped_rules_have_the_fifteen_core_sections_in_order():
    ruleset = load_ruleset(RULES_MD)
    assert [s.numeral for s in ruleset.sections] == list(SEED_COUNTS)
    assert [s.title for s in ruleset.sections] == TITLES
    assert [s.filename for s in ruleset.sections] == [
        section_filename(s.numeral, s.title) for s in ruleset.sections
    ]
    assert ruleset.sections[0].filename == "01-the-rules.md"
    assert ruleset.sections[-1].filename == "15-the-admin-bank-account.md"


def test_shipped_rules_have_the_seed_rule_counts_without_gaps():
    ruleset = load_ruleset(RULES_MD)
    assert {s.numeral: len(s.rules) for s in ruleset.sections} == SEED_COUNTS
    expected = [f"{numeral}.{n}" for numeral, count in SEED_COUNTS.items() for n in range(1, count + 1)]
    assert [rule.id for rule in ruleset.rules()] == expected


def test_shipped_rules_number_exactly_the_rules_of_the_seed():
    seed_ids = []
    numeral = None
    for line in seed_core().splitlines():
        heading = re.match(r"^([IVXLC]+): ", line)
        if heading:
            numeral = heading.group(1)
        rule = re.match(r"^  (\d+)\. ", line)
        if rule:
            seed_ids.append(f"{numeral}.{rule.group(1)}")
    assert [rule.id for rule in load_ruleset(RULES_MD).rules()] == seed_ids


def test_shipped_admin_rule_names_no_particular_admin():
    ruleset = load_ruleset(RULES_MD)
    assert "the Admin named in the game's settings" in ruleset.rule("II.1").text
    assert not any("Yakel" in rule.text for rule in ruleset.rules())


def test_shipped_rules_keep_key_amounts():
    ruleset = load_ruleset(RULES_MD)
    assert "$10000" in ruleset.rule("IV.2").text
    assert "$1000 " in ruleset.rule("VI.11").text
    assert "$100." in ruleset.rule("VIII.3").text
    assert "$50" in ruleset.rule("XIII.4").text
    assert "100 characters" in ruleset.rule("XIII.4").text
    assert "(2000/n)%" in ruleset.rule("VI.17").text
    assert "above 12 cards" in ruleset.rule("XIV.5").text
    assert "$25 times the square's number" in ruleset.rule("XIII.1").text


def test_shipped_files_round_trip_byte_identical():
    ruleset = load_ruleset(RULES_MD)
    for section in ruleset.sections:
        assert dump_section(section) == (RULES_MD / section.filename).read_text(encoding="utf-8")


def test_shipped_files_end_in_exactly_one_newline():
    for path in sorted(RULES_MD.glob("*.md")):
        data = path.read_bytes()
        assert data.endswith(b"\n") and not data.endswith(b"\n\n"), path.name
        assert b"\r" not in data, path.name


# --------------------------------------------------------------------------- copy check


def words(text: str) -> list[str]:
    """Lower-case words; punctuation, hyphens and runs of whitespace all count as one separator."""
    return re.findall(r"[a-z0-9$#%']+", text.lower())


def seed_sentences(seed: str) -> list[list[str]]:
    seed = re.sub(r"(?m)^\s*(?:\d+\.|•)\s", "\n", seed)
    return [words(s) for s in re.split(r"[.!?;:\n]+\s", seed) if s.strip()]


def copied_passages(seed: str, ours: str, length: int = 12) -> list[str]:
    """Every run of ``length`` consecutive words of a seed sentence that also appears in ``ours``."""
    our_words = words(ours)
    ours_grams = {tuple(our_words[i:i + length]) for i in range(len(our_words) - length + 1)}
    found = []
    for sentence in seed_sentences(seed):
        for i in range(len(sentence) - length + 1):
            gram = tuple(sentence[i:i + length])
            if gram in ours_grams:
                found.append(" ".join(gram))
    return found


def test_copy_check_catches_a_copied_seed_sentence():
    seed = seed_core()
    copied = "## VI.9\nIf you land on a square that is owned by another player in the game, you must pay up.\n"
    assert copied_passages(seed, copied)
    assert copied_passages(seed, copied.upper().replace(" ", "\n  "))


def test_no_twelve_word_run_of_the_seed_appears_in_the_rules():
    seed = seed_core()
    ours = "\n".join(p.read_text(encoding="utf-8") for p in sorted(RULES_MD.glob("*.md")))
    assert copied_passages(seed, ours) == []


# --------------------------------------------------------------------------- format


CANONICAL = """# VI. The Board

## VI.1
First paragraph.

Second paragraph with a list:

- one item
- another item

## VI.3
A rule after a gap, because VI.2 was repealed.
"""


def test_canonical_file_with_paragraphs_lists_and_gaps_round_trips_byte_identical(tmp_path):
    write(tmp_path, "06-the-board.md", CANONICAL)
    ruleset = load_ruleset(tmp_path)
    section = ruleset.sections[0]
    assert (section.numeral, section.title, section.filename) == ("VI", "The Board", "06-the-board.md")
    assert [r.id for r in section.rules] == ["VI.1", "VI.3"]
    assert section.rules[0].text == (
        "First paragraph.\n\nSecond paragraph with a list:\n\n- one item\n- another item"
    )
    assert section.rules[1] == Rule(id="VI.3", section="VI", number=3, text=section.rules[1].text)
    assert dump_section(section) == CANONICAL


def test_dump_then_load_gives_back_the_same_ruleset(tmp_path):
    ruleset = Ruleset(sections=[
        Section("II", "The Admin", "02-the-admin.md", [Rule.make("II", 1, "One.\n\n* a\n* b")]),
        Section("XVI", "Blackjack", "16-blackjack.md", [Rule.make("XVI", 2, "Two.")]),
        Section("XX", "Empty After Repeals", "20-empty-after-repeals.md", []),
    ])
    save_ruleset(ruleset, tmp_path)
    assert load_ruleset(tmp_path) == ruleset
    assert (tmp_path / "20-empty-after-repeals.md").read_text() == "# XX. Empty After Repeals\n"


def test_loose_layout_loads_and_is_saved_canonically(tmp_path):
    loose = "# VI. The Board  \r\n\r\n\r\n## VI.1  \r\n\r\nFirst.\r\n\r\n\r\n\r\n## VI.3\r\nThird.\r\n\r\n\r\n"
    write(tmp_path, "06-the-board.md", loose)
    ruleset = load_ruleset(tmp_path)
    assert [(r.id, r.text) for r in ruleset.rules()] == [("VI.1", "First."), ("VI.3", "Third.")]
    save_ruleset(ruleset, tmp_path)
    assert (tmp_path / "06-the-board.md").read_bytes() == b"# VI. The Board\n\n## VI.1\nFirst.\n\n## VI.3\nThird.\n"


def test_ruleset_sections_are_sorted_by_numeral_not_file_name(tmp_path):
    write(tmp_path, "09-nine.md", "# IX. Nine\n\n## IX.1\nNine.\n")
    write(tmp_path, "10-ten.md", "# X. Ten\n\n## X.1\nTen.\n")
    write(tmp_path, "100-hundred.md", "# C. Hundred\n\n## C.1\nHundred.\n")
    assert [s.numeral for s in load_ruleset(tmp_path).sections] == ["IX", "X", "C"]


# --------------------------------------------------------------------------- malformed files


def test_rule_heading_out_of_order_names_file_and_line(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.2\nTwo.\n\n## VI.1\nOne.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 6:" in message
    assert "VI.1 is out of order" in message and "after VI.2" in message


def test_rule_of_another_section_names_file_and_line(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\n\n## VII.2\nTwo.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 6:" in message
    assert "VII.2 belongs to section VII, not to section VI" in message


def test_duplicate_rule_id_names_file_both_lines(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\n\n## VI.1\nAgain.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 6:" in message
    assert "duplicate rule id VI.1 (first at line 3)" in message


def test_text_outside_a_rule_names_file_and_line(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\nStray words.\n\n## VI.1\nOne.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 3:" in message
    assert "text outside a rule: 'Stray words.'" in message


def test_missing_section_heading_names_file_and_line(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "## VI.1\nOne.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 1:" in message
    assert "expected the section heading, like '# VI. The Board'" in message


def test_section_heading_that_disagrees_with_the_file_number_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VII. Turns\n\n## VII.1\nOne.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 1:" in message
    assert "start with '07-'" in message


def test_extra_heading_inside_rule_text_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\n\n### Notes\nMore.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 6:" in message
    assert "unexpected heading '### Notes'" in message


def test_second_section_heading_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\n\n# VII. Turns\n")
    assert f"{tmp_path / '06-the-board.md'}, line 6:" in message
    assert "unexpected heading '# VII. Turns'" in message


def test_setext_underline_in_rule_text_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\nTitle\n-----\n")
    assert f"{tmp_path / '06-the-board.md'}, line 6:" in message
    assert "'-----'" in message


def test_rule_without_text_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\n\n## VI.2\nTwo.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 3:" in message
    assert "rule VI.1 has no text" in message


def test_rule_heading_with_more_than_an_id_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1 Squares\nOne.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 3:" in message
    assert "'VI.1 Squares' is not a rule id" in message


def test_rule_number_with_leading_zero_is_rejected(tmp_path):
    message = load_error(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.01\nOne.\n")
    assert f"{tmp_path / '06-the-board.md'}, line 3:" in message
    assert "'VI.01' is not a rule id" in message


def test_markdown_file_with_a_non_section_name_is_rejected(tmp_path):
    message = load_error(tmp_path, "notes.md", "# Notes\n")
    assert str(tmp_path / "notes.md") in message
    assert "like '06-the-board.md'" in message


def test_same_section_in_two_files_is_rejected(tmp_path):
    write(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\n")
    message = load_error(tmp_path, "06-board.md", "# VI. Board\n\n## VI.2\nTwo.\n")
    assert "section VI is also in" in message


def test_missing_or_empty_directory_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match="does not exist"):
        load_ruleset(tmp_path / "nowhere")
    with pytest.raises(RuleError, match="has no section files"):
        load_ruleset(tmp_path)


# --------------------------------------------------------------------------- dump and save


def test_dump_refuses_text_that_would_not_load_back():
    def section(text: str) -> Section:
        return Section("VI", "The Board", "06-the-board.md", [Rule.make("VI", 1, text)])

    with pytest.raises(RuleError, match="rule VI.1, line 2 of its text: unexpected heading"):
        dump_section(section("One.\n## VI.2\nSmuggled."))
    with pytest.raises(RuleError, match="must not start or end with whitespace"):
        dump_section(section("One.\n"))
    with pytest.raises(RuleError, match="has no text"):
        dump_section(section(""))


def test_dump_refuses_rules_out_of_order():
    section = Section("VI", "The Board", "06-the-board.md", [Rule.make("VI", 2, "Two."), Rule.make("VI", 1, "One.")])
    with pytest.raises(RuleError, match="increasing order"):
        dump_section(section)


def test_rule_with_inconsistent_id_cannot_be_built():
    with pytest.raises(RuleError, match="does not match section 'VI' and number 12"):
        Rule(id="VI.11", section="VI", number=12, text="x")


def test_save_writes_only_the_files_that_changed(tmp_path):
    save_ruleset(load_ruleset(RULES_MD), tmp_path)
    old = 1_000_000_000
    for path in tmp_path.iterdir():
        os.utime(path, (old, old))
    ruleset = load_ruleset(tmp_path)
    ruleset.rule("VI.11").text = "A new text for VI.11."
    save_ruleset(ruleset, tmp_path)
    changed = sorted(p.name for p in tmp_path.iterdir() if p.stat().st_mtime != old)
    assert changed == ["06-the-board.md"]
    assert load_ruleset(tmp_path).rule("VI.11").text == "A new text for VI.11."


def test_save_removes_a_repealed_rule_from_its_file(tmp_path):
    save_ruleset(load_ruleset(RULES_MD), tmp_path)
    ruleset = load_ruleset(tmp_path)
    board = ruleset.section("VI")
    board.rules = [r for r in board.rules if r.id != "VI.15"]
    save_ruleset(ruleset, tmp_path)
    text = (tmp_path / "06-the-board.md").read_text()
    assert "## VI.15\n" not in text and "## VI.14\n" in text and "## VI.16\n" in text
    with pytest.raises(RuleError, match=r"section VI has rules VI\.1–VI\.14, VI\.16–VI\.18"):
        load_ruleset(tmp_path).rule("VI.15")


def test_save_deletes_the_old_file_of_a_renamed_section(tmp_path):
    write(tmp_path, "06-the-board.md", "# VI. The Board\n\n## VI.1\nOne.\n")
    ruleset = load_ruleset(tmp_path)
    ruleset.sections[0].title = "The Grid"
    ruleset.sections[0].filename = section_filename("VI", "The Grid")
    save_ruleset(ruleset, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["06-the-grid.md"]
    assert load_ruleset(tmp_path) == ruleset


def test_save_of_an_invalid_ruleset_writes_nothing(tmp_path):
    write(tmp_path, "06-the-board.md", CANONICAL)
    ruleset = load_ruleset(tmp_path)
    ruleset.sections[0].rules[0].text = "Changed."
    ruleset.sections.append(Section("VII", "Turns", "07-turns.md", [Rule.make("VII", 1, "# heading")]))
    with pytest.raises(RuleError):
        save_ruleset(ruleset, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["06-the-board.md"]
    assert (tmp_path / "06-the-board.md").read_text() == CANONICAL


def test_save_refuses_a_file_name_with_the_wrong_number(tmp_path):
    ruleset = Ruleset([Section("VI", "The Board", "07-the-board.md", [Rule.make("VI", 1, "One.")])])
    with pytest.raises(RuleError, match="expected '06-the-board.md'"):
        save_ruleset(ruleset, tmp_path)
    assert not tmp_path.joinpath("07-the-board.md").exists()


# --------------------------------------------------------------------------- looking rules up


def test_rule_lookup_finds_rules_and_accepts_a_lower_case_numeral():
    ruleset = load_ruleset(RULES_MD)
    assert ruleset.rule("VI.11").id == "VI.11"
    assert ruleset.rule(" vi.11 ") is ruleset.rule("VI.11")
    assert ruleset.rule("XV.2").section == "XV"


def test_unknown_rule_number_lists_the_rules_of_its_section():
    with pytest.raises(RuleError) as caught:
        load_ruleset(RULES_MD).rule("VI.99")
    assert str(caught.value) == "no rule 'VI.99'; section VI has rules VI.1–VI.18"


def test_unknown_section_lists_the_sections():
    with pytest.raises(RuleError) as caught:
        load_ruleset(RULES_MD).rule("XL.1")
    assert str(caught.value) == "no rule 'XL.1'; there is no section XL, sections are I–XV"


@pytest.mark.parametrize("bad", ["foo", "VI", "VI.", "VI.0", "6.11", "IIII.1", "VI.x", ""])
def test_malformed_rule_id_is_a_rule_error_quoting_it(bad):
    with pytest.raises(RuleError) as caught:
        load_ruleset(RULES_MD).rule(bad)
    assert str(caught.value).startswith(f"{bad!r} is not a rule id; expected")


def test_section_with_every_rule_repealed_says_so():
    ruleset = Ruleset([Section("VI", "The Board", "06-the-board.md", [])])
    with pytest.raises(RuleError, match="section VI has no rules"):
        ruleset.rule("VI.1")


# --------------------------------------------------------------------------- numerals and anchors


@pytest.mark.parametrize(
    "number, numeral",
    [(1, "I"), (4, "IV"), (6, "VI"), (9, "IX"), (14, "XIV"), (15, "XV"), (16, "XVI"), (19, "XIX"),
     (35, "XXXV"), (40, "XL"), (90, "XC"), (400, "CD"), (1994, "MCMXCIV"), (3999, "MMMCMXCIX")],
)
def test_roman_numerals_known_values(number, numeral):
    assert roman(number) == numeral
    assert from_roman(numeral) == number


def test_roman_numerals_round_trip_over_their_whole_range():
    assert all(from_roman(roman(n)) == n for n in range(1, 4000))
    assert len({roman(n) for n in range(1, 4000)}) == 3999


@pytest.mark.parametrize("bad", ["", "IIII", "VV", "IC", "vi", "ABC", "XIV "])
def test_from_roman_rejects_non_canonical_numerals(bad):
    with pytest.raises(RuleError, match="is not a section numeral"):
        from_roman(bad)


@pytest.mark.parametrize("bad", [0, -1, 4000])
def test_roman_rejects_numbers_out_of_range(bad):
    with pytest.raises(ValueError, match="1 to 3999"):
        roman(bad)


def test_rule_anchor():
    assert rule_anchor("VI.11") == "rule-VI-11"
    assert rule_anchor("XV.2") == "rule-XV-2"
    assert rule_anchor("XXXV.10") == "rule-XXXV-10"
    with pytest.raises(RuleError, match="'VI-11' is not a rule id"):
        rule_anchor("VI-11")


def test_every_shipped_rule_has_a_distinct_anchor():
    anchors = [rule_anchor(rule.id) for rule in load_ruleset(RULES_MD).rules()]
    assert len(set(anchors)) == len(anchors) == sum(SEED_COUNTS.values())
