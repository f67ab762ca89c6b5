"""Real-shaped emails in tests/mail_corpus/ and what each must yield (expected.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from admin.engine.commands import command_to_dict
from admin.mail.inbound.grammar import LineVerdict, parse_lines
from admin.mail.inbound.message import MailText, read_message

CORPUS = Path(__file__).parent / "mail_corpus"
EXPECTED: dict[str, dict[str, Any]] = yaml.safe_load(
    (CORPUS / "expected.yaml").read_text(encoding="utf-8"))
FILES = sorted(p.name for p in CORPUS.glob("*.eml"))


def read(name: str) -> tuple[MailText, list[LineVerdict]]:
    expected = EXPECTED[name]
    mail = read_message((CORPUS / name).read_bytes(),
                        max_bytes=expected.get("max_bytes", 1_000_000))
    return mail, parse_lines(mail.lines)


def describe(verdict: LineVerdict) -> str:
    if verdict.command is not None:
        return f"line {verdict.first_line}: ok {command_to_dict(verdict.command)}"
    return f"line {verdict.first_line}: error {verdict.error}"


def test_the_corpus_has_at_least_forty_messages_each_with_an_expectation() -> None:
    assert len(FILES) >= 40
    assert sorted(EXPECTED) == FILES


@pytest.mark.parametrize("name", FILES)
def test_corpus_message_yields_the_expected_kind_and_verdicts(name: str) -> None:
    expected = EXPECTED[name]
    mail, verdicts = read(name)
    assert mail.kind == expected["kind"]
    wanted = expected["verdicts"] * expected.get("repeat", 1)
    got = [describe(v) for v in verdicts]
    assert len(verdicts) == len(wanted), got[:20]
    for verdict, want, shown in zip(verdicts, wanted, got):
        if "ok" in want:
            assert verdict.command is not None, shown
            actual = command_to_dict(verdict.command)
            # every field the expectation names must match (long proposal texts name only a few)
            assert {k: actual.get(k) for k in want["ok"]} == want["ok"], shown
            assert verdict.error is None
            assert want.get("note", "") in (verdict.note or ""), shown
        else:
            assert verdict.command is None, shown
            assert want["error"] in (verdict.error or ""), shown


@pytest.mark.parametrize("name", [n for n in FILES if "first_lines" in EXPECTED[n]])
def test_corpus_verdicts_point_at_the_right_lines(name: str) -> None:
    _, verdicts = read(name)
    assert [v.first_line for v in verdicts] == EXPECTED[name]["first_lines"]


@pytest.mark.parametrize("name", [
    n for n in FILES if {"sender", "message_id", "subject"} & set(EXPECTED[n])])
def test_corpus_headers_are_read(name: str) -> None:
    expected = EXPECTED[name]
    mail, _ = read(name)
    if "sender" in expected:
        assert mail.sender == expected["sender"]
    if "message_id" in expected:
        assert mail.message_id.startswith(expected["message_id"])
    if "subject" in expected:
        assert mail.subject == expected["subject"]


@pytest.mark.parametrize("name", FILES)
def test_corpus_problems_are_reported_only_where_expected(name: str) -> None:
    mail, _ = read(name)
    wanted = EXPECTED[name].get("problems", [])
    assert len(mail.problems) == len(wanted), mail.problems
    for problem, substring in zip(mail.problems, wanted):
        assert substring in problem
