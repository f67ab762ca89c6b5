"""How long an answer may be: the characters of a quoted line, of a verdict's detail and of a
quoted subject. A sender decides how much they write, never how much the game writes back."""

from __future__ import annotations


#: the characters of one line a receipt quotes, and of one verdict's detail
QUOTE_CHARS, DETAIL_CHARS = 200, 600
#: the characters of the subject an answer quotes ("Re: ...")
SUBJECT_CHARS = 200


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis ending a cut one."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
