"""A TOML error in nomopoly.toml explained: the line, the key and its table, and how to fix it
(tomllib says only "Invalid value (at line 2, column 9)")."""

from __future__ import annotations

import re
import tomllib

_WHERE = re.compile(r"\(at line (\d+), column (\d+)\)")


def explain(text: str, exc: tomllib.TOMLDecodeError) -> str:
    """``exc`` as a sentence naming the line, key and table, with a fix for the usual slips."""
    message = str(exc)
    where = _WHERE.search(message)
    if where is None:
        return f"invalid TOML: {message}"
    number = int(where.group(1))
    lines = text.splitlines()
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    table = ""
    for earlier in lines[:number - 1]:
        head = re.match(r"\s*\[+\s*([^\]]+?)\s*\]+", earlier)
        if head:
            table = head.group(1)
    key = line.split("=", 1)[0].strip() if "=" in line else ""
    place = f"line {number}" + (f" ({key} in [{table}])" if key and table else f" ({key})" if key else "")
    what = message[:where.start()].strip()
    if what.startswith("Cannot overwrite") or what.startswith("Cannot declare"):
        fix = (f"`{key}` is given twice in [{table or 'the top'}]: keep one and delete or comment out the other"
               if key else "a table or key is given twice: keep one and delete the other")
    elif what.startswith("Invalid value") and key:
        value = line.split("=", 1)[1].strip()
        fix = (f"put text in double quotes: {key} = \"{value.strip(chr(39))}\" (numbers, true and false "
               "go without)")
    else:
        fix = "check the line against the template (`nomopoly init` writes one)"
    shown = f": {line}" if line else ""
    return f"invalid TOML at {place}{shown}: {what}; {fix}"
