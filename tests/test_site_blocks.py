"""A player's page is cut into its update blocks with str.find: the same blocks the regular
expression that defines them finds, on any text."""

from __future__ import annotations

from hypothesis import given, strategies as st

from admin.site.content import _BLOCK, _blocks

_PIECES = st.sampled_from(["<!-- block ", "<!-- /block -->\n", "12 ", "a" * 64 + " -->\n",
                           "7 " + "b" * 64 + " -->\n", "x", "\n", " -->\n", "<!-- block 3 " + "c" * 63])


@given(st.lists(_PIECES | st.text(max_size=5), max_size=14))
def test_blocks_are_those_the_pattern_matches(pieces: list[str]) -> None:
    page = "".join(pieces)
    assert _blocks(page) == {(int(m[1]), m[2]): m[0] for m in _BLOCK.finditer(page)}


def test_a_page_with_two_blocks_gives_both_whole() -> None:
    one, two = "1" * 64, "2" * 64
    first = f"<!-- block 4 {one} -->\n<h3>Update 4</h3>\n<!-- /block -->\n"
    second = f"<!-- block 5 {two} -->\n<ol></ol>\n<!-- /block -->\n"
    assert _blocks("<main>" + first + "<p>between</p>" + second + "</main>") == {(4, one): first, (5, two): second}
