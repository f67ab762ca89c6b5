"""The ruleset as markdown: one file per section, one ``## ID`` heading per rule.

A section file is named ``NN-slug.md`` (``06-the-board.md``, NN being the section's number) and
reads, in its canonical form::

    # VI. The Board

    ## VI.1
    The game is played on ...

    ## VI.2
    ...

A rule's text is markdown (paragraphs, bullet lists) without headings of its own. Rule numbers
rise through a file but may have gaps: a repealed rule is simply removed from its file (its
history is kept elsewhere), and later rules keep their numbers so that citations stay valid.

:func:`dump_section` writes exactly the canonical form, so ``load(dump(x)) == x`` and a file in
canonical form survives ``dump(load(file))`` byte for byte. The loader also accepts a few
harmless variations (extra blank lines, trailing spaces on headings, CRLF line ends, a BOM) and
saving rewrites them canonically.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from admin.engine.errors import RuleError
# rule ids and numerals live in numbering.py; the public ones are this module's too
from admin.nomic.numbering import ROMAN as _ROMAN, describe as _describe, ranges as _ranges
from admin.nomic.numbering import split_rule_id as _split_rule_id
from admin.nomic.numbering import (from_roman as from_roman, roman as roman, rule_anchor as rule_anchor,
                                   section_filename as section_filename, slugify as slugify)
from admin.store.fileio import write_atomic

_SECTION_HEADING = re.compile(r"^# ([IVXLCDM]+)\. (\S.*?)[ \t]*$")
_RULE_HEADING = re.compile(r"^##[ \t]+(.*?)[ \t]*$")
#: Any markdown ATX heading (up to three spaces of indentation, one to six ``#``).
_ANY_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
#: A line that turns the text line above it into a setext heading.
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")
_FILENAME = re.compile(r"^([0-9]{2,})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$")


@dataclass
class Rule:
    id: str  # "VI.11"
    section: str  # "VI"
    number: int  # 11
    text: str  # markdown, stripped

    def __post_init__(self) -> None:
        numeral, number = _split_rule_id(self.id)
        if (numeral, number) != (self.section, self.number):
            raise RuleError(
                f"rule id {self.id!r} does not match section {self.section!r} and number {self.number!r}"
            )

    @classmethod
    def make(cls, section: str, number: int, text: str) -> Rule:
        return cls(id=f"{section}.{number}", section=section, number=number, text=text)


@dataclass
class Section:
    numeral: str  # "VI"
    title: str  # "The Board"
    filename: str  # "06-the-board.md"
    rules: list[Rule] = field(default_factory=list)

    @property
    def order(self) -> int:
        return from_roman(self.numeral)


@dataclass
class Ruleset:
    sections: list[Section]  # in numeral order

    def section(self, numeral: str) -> Section:
        for section in self.sections:
            if section.numeral == numeral:
                return section
        raise RuleError(f"no section {numeral!r}; {self._sections_phrase()}")

    def rule(self, rule_id: str) -> Rule:
        """The rule cited as ``rule_id`` (``"VI.11"``; a lower-case numeral is accepted)."""
        head, dot, tail = rule_id.strip().partition(".")
        try:
            numeral, number = _split_rule_id(head.upper() + dot + tail)
        except RuleError:
            raise RuleError(
                f"{rule_id!r} is not a rule id; expected a section numeral, a dot and a rule number, like 'VI.11'"
            ) from None
        section = next((s for s in self.sections if s.numeral == numeral), None)
        if section is None:
            raise RuleError(f"no rule {rule_id!r}; there is no section {numeral}, {self._sections_phrase()}")
        for rule in section.rules:
            if rule.number == number:
                return rule
        if not section.rules:
            raise RuleError(f"no rule {rule_id!r}; section {numeral} has no rules")
        existing = _describe(numeral, [r.number for r in section.rules])
        raise RuleError(f"no rule {rule_id!r}; section {numeral} has rules {existing}")

    def rules(self) -> Iterator[Rule]:
        for section in self.sections:
            yield from section.rules

    def _sections_phrase(self) -> str:
        if not self.sections:
            return "the ruleset has no sections"
        spans = _ranges(sorted(s.order for s in self.sections))
        return "sections are " + ", ".join(
            roman(low) if low == high else f"{roman(low)}–{roman(high)}" for low, high in spans
        )


# --------------------------------------------------------------------------- parsing


def _text_problem(lines: list[str]) -> tuple[int, str] | None:
    """The first line (index into ``lines``) of rule text that is not allowed, and why."""
    for i, line in enumerate(lines):
        if _ANY_HEADING.match(line):
            return i, (
                f"unexpected heading {line.strip()!r}; only '# NUMERAL. Title' on the first line and "
                "'## NUMERAL.NUMBER' rule headings are allowed, rule text may not contain headings"
            )
        if i > 0 and lines[i - 1].strip() and _SETEXT_UNDERLINE.match(line) and not _ANY_HEADING.match(lines[i - 1]):
            return i, (
                f"the line {line.strip()!r} under text makes that text a markdown heading; "
                "rule text may not contain headings (put a blank line before it)"
            )
    return None


def _check_text(rule_id: str, text: str) -> None:
    """Raise RuleError unless ``text`` would load back as exactly the same rule text."""
    if not text:
        raise RuleError(f"rule {rule_id} has no text")
    if text != text.strip():
        raise RuleError(f"the text of rule {rule_id} must not start or end with whitespace")
    if "\r" in text:
        raise RuleError(f"the text of rule {rule_id} contains a carriage return; use '\\n' line ends")
    problem = _text_problem(text.split("\n"))
    if problem is not None:
        raise RuleError(f"rule {rule_id}, line {problem[0] + 1} of its text: {problem[1]}")


def parse_section(text: str, filename: str, *, where: str | None = None) -> Section:
    """Parse one section file's contents; errors name ``where`` (default ``filename``) and the line."""
    where = where or filename
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")

    def fail(index: int, message: str) -> RuleError:
        return RuleError(f"{where}, line {index + 1}: {message}")

    m = _FILENAME.match(filename)
    if not m:
        raise RuleError(
            f"{where}: the file name {filename!r} is not a section file name; "
            "expected two or more digits, a dash, a lower-case slug and '.md', like '06-the-board.md'"
        )
    file_number = int(m.group(1))

    heading = _SECTION_HEADING.match(lines[0])
    if not heading:
        raise fail(0, f"expected the section heading, like '# VI. The Board', found {lines[0]!r}")
    numeral, title = heading.group(1), heading.group(2)
    try:
        section_number = from_roman(numeral)
    except RuleError as e:
        raise fail(0, str(e)) from None
    if section_number != file_number:
        raise fail(
            0,
            f"the heading names section {numeral} ({section_number}) but the file name starts with "
            f"{m.group(1)!r}; rename the file to start with '{section_number:02d}-'",
        )

    section = Section(numeral=numeral, title=title, filename=filename, rules=[])
    seen: dict[int, int] = {}  # rule number -> line index of its heading
    current: tuple[str, int, int] | None = None  # rule id, number, heading line index
    body: list[str] = []

    def finish() -> None:
        if current is None:
            return
        rule_id, number, at = current
        start = at + 1
        problem = _text_problem(body)
        if problem is not None:
            raise fail(start + problem[0], problem[1])
        rule_text = "\n".join(body).strip()
        if not rule_text:
            raise fail(at, f"rule {rule_id} has no text")
        section.rules.append(Rule(id=rule_id, section=numeral, number=number, text=rule_text))

    for index in range(1, len(lines)):
        line = lines[index]
        if "\r" in line:
            raise fail(index, "stray carriage return; lines must end in '\\n' (or '\\r\\n')")
        rule_heading = _RULE_HEADING.match(line)
        if rule_heading:
            finish()
            rule_id = rule_heading.group(1)
            try:
                rule_numeral, number = _split_rule_id(rule_id)
            except RuleError as e:
                raise fail(index, f"bad rule heading {line!r}: {e}; a rule heading is '## ' and the id only") from None
            if rule_numeral != numeral:
                raise fail(index, f"rule {rule_id} belongs to section {rule_numeral}, not to section {numeral}")
            if number in seen:
                raise fail(index, f"duplicate rule id {rule_id} (first at line {seen[number] + 1})")
            if current is not None and number < current[1]:
                raise fail(
                    index,
                    f"rule {rule_id} is out of order: it comes after {numeral}.{current[1]}; "
                    "rules must appear in increasing order",
                )
            seen[number] = index
            current = (rule_id, number, index)
            body = []
        elif current is None:
            if _ANY_HEADING.match(line):
                raise fail(index, _text_problem([line])[1])  # type: ignore[index]  # a heading: refused
            if line.strip():
                raise fail(
                    index,
                    f"text outside a rule: {line.strip()[:60]!r}; every paragraph must follow a "
                    f"rule heading like '## {numeral}.1'",
                )
        else:
            body.append(line)
    finish()
    return section


def dump_section(section: Section) -> str:
    """The canonical text of a section file, ending in exactly one newline."""
    if not _ROMAN.match(section.numeral or ""):
        raise RuleError(f"section numeral {section.numeral!r} is not an upper-case roman numeral like 'VI'")
    if not section.title or section.title != section.title.strip() or "\n" in section.title:
        raise RuleError(f"section {section.numeral} has title {section.title!r}; expected one line of text")
    parts = [f"# {section.numeral}. {section.title}"]
    previous = 0
    for rule in section.rules:
        if rule.section != section.numeral or rule.id != f"{rule.section}.{rule.number}":
            raise RuleError(f"rule {rule.id!r} cannot be written in section {section.numeral}")
        if rule.number <= previous:
            raise RuleError(
                f"rule {rule.id} comes after {section.numeral}.{previous} in section {section.numeral}; "
                "rules must be in increasing order without duplicates"
            )
        previous = rule.number
        _check_text(rule.id, rule.text)
        parts.append(f"## {rule.id}\n{rule.text}")
    return "\n\n".join(parts) + "\n"


# --------------------------------------------------------------------------- files


def _section_files(directory: Path) -> list[Path]:
    return sorted(
        p for p in directory.iterdir() if p.is_file() and p.suffix == ".md" and not p.name.startswith(".")
    )


def load_ruleset(directory: Path) -> Ruleset:
    """Read every ``NN-slug.md`` section file of ``directory``, in numeral order."""
    directory = Path(directory)
    if not directory.is_dir():
        raise RuleError(f"ruleset directory {str(directory)!r} does not exist or is not a directory")
    sections: list[Section] = []
    for path in _section_files(directory):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raise RuleError(f"{path}: not valid UTF-8 ({e.reason} at byte {e.start})") from None
        sections.append(parse_section(text, path.name, where=str(path)))
    if not sections:
        raise RuleError(f"ruleset directory {str(directory)!r} has no section files (like '01-the-rules.md')")
    sections.sort(key=lambda s: s.order)
    for before, after in zip(sections, sections[1:]):
        if before.numeral == after.numeral:
            raise RuleError(
                f"{directory / after.filename}: section {after.numeral} is also in {before.filename}; "
                "each section must be in exactly one file"
            )
    return Ruleset(sections=sections)


def save_ruleset(ruleset: Ruleset, directory: Path) -> None:
    """Write the ruleset to ``directory``, touching only files whose text changed.

    Every section is rendered before anything is written, so an invalid ruleset writes nothing.
    Section files in ``directory`` that no section uses any more (a renamed or removed section)
    are deleted, so that the directory loads back as exactly ``ruleset``.
    """
    directory = Path(directory)
    rendered: dict[str, str] = {}
    numerals: set[str] = set()
    previous = 0
    for section in ruleset.sections:
        name = _FILENAME.match(section.filename)
        if name is None or int(name.group(1)) != section.order:
            raise RuleError(
                f"section {section.numeral} has file name {section.filename!r}; expected "
                f"{section_filename(section.numeral, section.title)!r} (the number must be {section.order:02d})"
            )
        if section.numeral in numerals or section.filename in rendered:
            raise RuleError(f"section {section.numeral} ({section.filename}) appears twice in the ruleset")
        if section.order < previous:
            raise RuleError(f"section {section.numeral} is out of order; sections must be in numeral order")
        previous = section.order
        numerals.add(section.numeral)
        rendered[section.filename] = dump_section(section)
    directory.mkdir(parents=True, exist_ok=True)
    for filename, text in rendered.items():
        path = directory / filename
        if path.is_file() and path.read_bytes() == text.encode("utf-8"):
            continue
        write_atomic(path, text)
    for path in _section_files(directory):
        if path.name not in rendered and _FILENAME.match(path.name):
            path.unlink()
