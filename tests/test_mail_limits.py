"""The work one email can cause is bounded (hardening #1): lines read, commands carried out,
MIME headers parsed, what a refused email leaves in the log, and what a receipt quotes."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
import yaml
from fixtures.games import deliver

from admin.jobs import update as jobs
from admin.engine.errors import StateError
from admin.mail.outbound.verdicts import LineResult, cap_results
from admin.mail.inbound.grammar import parse_text
from admin.mail.inbound.ledger import Ledger
from admin.mail.inbound.limits import MAX_MIME_HEADER, MailLimits
from admin.mail.outbound.mailout import mail_out
from admin.mail.inbound.message import BodyLine, read_message

ROOT = Path(__file__).resolve().parents[1]
WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")


def _inbox(game) -> Path:
    return game.root / "mail" / "inbox"


def _log_messages(game) -> dict[str, dict]:
    log = yaml.safe_load(game.update_logs()[1].read_text(encoding="utf-8"))
    return {m["sender"]: m for m in log["inputs"]["messages"]}


def test_an_email_is_read_up_to_max_lines_and_says_where_it_stopped():
    body = "".join(f"VOTE {i} yes\n" for i in range(1, 1001))
    mail = read_message(f"From: a@b.org\nSubject: x\n\n{body}".encode(), max_lines=500)
    assert len(mail.lines) == 500 and mail.lines[-1].text == "VOTE 500 yes"
    assert mail.unread_from == 501


def test_quoted_lines_and_a_signature_do_not_count_against_max_lines():
    body = "BUY\n" + "> quoted\n" * 50 + "STATUS\n-- \nAlice\n" + "sig line\n" * 50
    mail = read_message(f"From: a@b.org\nSubject: x\n\n{body}".encode(), max_lines=2)
    assert [line.text for line in mail.lines] == ["BUY", "STATUS"] and mail.unread_from is None


def test_a_player_email_of_100000_lines_gets_one_verdict_for_the_unread_rest(game_dir):
    deliver(_inbox(game_dir), "alice@example.org", "STATUS\n" * 100_000, "2026-11-03T10:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    lines = _log_messages(game_dir)["alice@example.org"]["lines"]
    assert len(lines) == 501
    assert sum(line["command"] is not None for line in lines) == 100
    assert "at most 100 commands" in lines[100]["error"]
    assert lines[-1]["first"] == 501 and "read up to its first 500 lines" in lines[-1]["error"]


def test_limits_are_settings_of_the_mail_section(game_dir):
    text = game_dir.settings_path.read_text().replace("[mail]\n", "[mail]\nmax_lines = 3\nmax_commands = 2\n")
    game_dir.settings_path.write_text(text)
    deliver(_inbox(game_dir), "alice@example.org", "STATUS\nSTATUS\nSTATUS\nSTATUS\nSTATUS\n",
            "2026-11-03T10:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    lines = _log_messages(game_dir)["alice@example.org"]["lines"]
    assert [(line["first"], line["command"] is not None) for line in lines] == [
        (1, True), (2, True), (3, False), (4, False)]
    assert "at most 2 commands" in lines[2]["error"] and "first 3 lines" in lines[3]["error"]


@pytest.mark.parametrize("value", [0, -5, "many", True, 2.5])
def test_a_bad_limit_is_an_error_naming_the_key(value):
    with pytest.raises(StateError, match=r"\[mail\] max_lines = .* whole number"):
        MailLimits.from_settings({"max_lines": value})


def test_a_strangers_email_leaves_only_its_reason_in_the_log(game_dir):
    deliver(_inbox(game_dir), "mallory@evil.example", "BUY 9\n" * 50_000, "2026-11-03T10:00:00+00:00")
    deliver(_inbox(game_dir), "newbie@example.net", "Hello!\nJOIN Newbie\nBUY 9\n", "2026-11-03T11:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    logged = _log_messages(game_dir)
    assert logged["mallory@evil.example"]["status"] == "rejected"
    assert logged["mallory@evil.example"]["lines"] == []
    assert [line["text"] for line in logged["newbie@example.net"]["lines"]] == ["Hello!", "JOIN Newbie", "BUY 9"]


def _mime_mail(params: str) -> bytes:
    return ("From: alice@example.org\r\nSubject: x\r\nMessage-ID: <ct@test.invalid>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/plain{params}\r\n\r\nSTATUS\r\n").encode()


def test_an_absurd_content_type_is_refused_before_it_is_parsed():
    params = "".join(f"; name*{i}*=utf-8''a%41" for i in range(20_000))  # 460 KB
    mail = read_message(_mime_mail(params))
    assert mail.lines == (BodyLine(0, "x"),) and mail.sender == "alice@example.org"  # the Subject
    assert any(f"limit is {MAX_MIME_HEADER:,}" in p and "Content-Type" in p for p in mail.problems)


def test_many_mime_headers_in_the_parts_are_refused_together():
    part = "--b\r\nContent-Type: text/plain; " + "x=y; " * 600 + "\r\n\r\nSTATUS\r\n"
    raw = ("From: alice@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=b\r\n\r\n" + part * 10 + "--b--\r\n").encode()
    mail = read_message(raw)
    assert mail.lines == (BodyLine(0, "x"),) and any("Content-Disposition headers hold more than" in p for p in mail.problems)


def test_ordinary_rfc2231_parameters_are_still_read():
    mail = read_message(_mime_mail("; charset*=utf-8''utf-8; format=flowed"))
    assert [line.text for line in mail.lines] == ["STATUS"] and mail.problems == ()


def _result(n: int, text: str = "BUY 9", detail: str = "x" * 100) -> LineResult:
    return LineResult(n, n, text, "not done", (detail,))


def test_a_receipt_quotes_within_its_budget_and_counts_the_rest():
    results = [_result(n) for n in range(1, 1001)]
    capped = cap_results(results, budget=10_000)
    size = sum(len(r.text) + sum(map(len, r.details)) for r in capped)
    assert size < 10_000 and len(capped) < 100
    last = capped[-1]
    assert last.last == 1000 and f"{1000 - len(capped) + 1} more lines (" in last.details[0]


def test_a_receipt_shortens_a_huge_line_and_a_huge_detail():
    (r,) = cap_results([_result(1, "PROPOSE " + "y" * 100_000, "z" * 100_000)])
    assert len(r.text) == 200 and r.text.endswith("…") and len(r.details[0]) == 600


@pytest.mark.slow
def test_an_email_of_100000_command_lines_stays_small_in_memory_and_in_its_receipt(game_dir):
    """The issue's measure: one email of 100,000 lines ``BUY 9`` from a player. (Its time is in
    bench/bench_hostile.py.) Memory is the child's own high-water mark (VmHWM): its ru_maxrss would
    include the RSS of this pytest process at the fork."""
    deliver(_inbox(game_dir), "alice@example.org", "BUY 9\n" * 100_000, "2026-11-03T10:00:00+00:00")
    run = subprocess.run([sys.executable, "-c", (
        "import sys; from admin.cli.main import main; from bench.child import peak_kb\n"
        "sys.argv = ['nomopoly', 'update', '--at', '2026-11-04T23:59:59+00:00', '--game', sys.argv[1]]\n"
        "try: main()\n"
        "except SystemExit as e: assert not e.code, e.code\n"
        "print(peak_kb())"), str(game_dir.root)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    peak_kb = int(run.stdout.strip().splitlines()[-1])
    assert peak_kb < 200 * 1024, f"peak memory {peak_kb // 1024} MB"
    entries = list(Ledger.load(game_dir.state_dir).messages.values())
    assert [e.status for e in entries] == ["applied"]
    receipts = [p for p in (game_dir.state_dir / "outbox").rglob("*.eml")
                if b"answers your email" in p.read_bytes()]
    assert len(receipts) == 1 and receipts[0].stat().st_size < 100_000


def test_a_line_over_the_length_limit_is_refused_and_the_next_line_still_read():
    verdicts = parse_text("NAME 3 " + "A" * 10_000 + "\nSTATUS\n")
    assert verdicts[0].command is None and "10,007 characters" in verdicts[0].error
    assert len(verdicts[0].text) < 100 and verdicts[1].command is not None


def test_a_proposal_with_a_line_over_the_limit_is_refused_whole():
    (verdict,) = parse_text("PROPOSE Huge\n" + "word " * 2000 + "\nEND\n")
    assert verdict.command is None and (verdict.first_line, verdict.last_line) == (1, 3)
    assert "(line 2, in the block)" in verdict.error and verdict.text == "PROPOSE Huge"


def test_a_receipt_says_what_of_the_email_could_not_be_read(game_dir):
    raw = _mime_mail("".join(f"; name*{i}*=utf-8''a%41" for i in range(2000)))
    for sub in ("new", "cur", "tmp"):
        (_inbox(game_dir) / sub).mkdir(parents=True, exist_ok=True)
    (_inbox(game_dir) / "new" / "1793786400.M1P1.ct").write_bytes(raw.replace(b"Subject: x", b"Subject: STATUS"))
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    (receipt,) = [p.read_text() for p in (game_dir.state_dir / "outbox").rglob("*.eml")
                  if "answers your email" in p.read_text()]
    assert "(Not all of it could be read. This email has a Content-Type header of" in receipt.replace("=\n", "")
    assert "subject: STATUS\n    DONE:" in receipt.replace("=\n", "")


def test_a_proposal_without_end_is_made_and_the_receipt_says_where_its_text_stopped(game_dir):
    deliver(_inbox(game_dir), "alice@example.org",
            "PROPOSE Free parking\nADD RULE VI: Landing on 1 pays $5.\nVOTE 1 yes\n\n-- \nAlice\n",
            "2026-11-03T10:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    (proposal,) = game_dir.load().proposals
    assert proposal.title == "Free parking" and proposal.text.endswith("pays $5.\nVOTE 1 yes")
    (receipt,) = [p.read_text() for p in (game_dir.state_dir / "outbox").rglob("*.eml")
                  if "answers your email" in p.read_text()]
    text = receipt.replace("=\n", "")
    assert "lines 1-3: PROPOSE Free parking" in text
    assert '"PROPOSE Free parking" has no END, so its text was read to the end of your email (line 3)' in text


def _outbox(game) -> list[bytes]:
    return [p.read_bytes() for p in (game.state_dir / "outbox").rglob("*.eml")]


def test_a_flood_of_help_leaves_the_results_mail_short(game_dir):
    for i in range(10):  # ten 500-byte emails of HELP x 100 (issue 30: a 1.4-2 MB results mail)
        deliver(_inbox(game_dir), "alice@example.org", "HELP\n" * 100, f"2026-11-03T10:{i:02d}:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    results = [m for m in _outbox(game_dir) if b"results for alice" in m]
    assert len(results) == 1 and len(results[0]) < 100_000, len(results[0])
    assert b"Valid commands" not in results[0]  # HELP is answered in the receipts


def test_a_huge_subject_is_quoted_short(game_dir):
    deliver(_inbox(game_dir), "alice@example.org", "STATUS\n", "2026-11-03T10:00:00+00:00", subject="S" * 300_000)
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    receipts = [m for m in _outbox(game_dir) if b"X-Nomopoly-Kind: receipt" in m]
    assert receipts and all(len(m) < 20_000 for m in receipts), [(len(m), m[:300]) for m in _outbox(game_dir)]


def test_what_happened_is_cut_to_its_budget_with_a_line_saying_how_many_more():
    from admin.mail.outbound.updatelog import capped

    lines = tuple(f"line {i}" for i in range(10))
    assert capped(lines, budget=30) == (*lines[:4], "... and 6 more: the update's page on the site lists what "
                                        "was public of them, and your receipts the answers to your emails.")
    assert capped(lines, budget=1000) == lines


def _text_of(raw: bytes) -> str:
    from email import message_from_bytes, policy

    return message_from_bytes(raw, policy=policy.default).get_body(("plain",)).get_content()


def test_a_refused_line_is_quoted_back_with_its_control_and_bidi_characters_escaped(game_dir):
    """A refused line was quoted back raw: ESC recoloured or cleared the reader's terminal, RLO
    showed the line's words in another order than they were read."""
    body = "BUY\x1b[2J\x1b[31m now\nHELLO \u202eevil\u202c world\x07\nSTATUS\n"
    deliver(_inbox(game_dir), "alice@example.org", body, "2026-11-03T10:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    [receipt] = [_text_of(m) for m in _outbox(game_dir) if b"X-Nomopoly-Kind: receipt" in m]
    assert "BUY\\x1b[2J\\x1b[31m now" in receipt
    assert "HELLO \\u202eevil\\u202c world\\x07" in receipt
    assert not any(c in receipt for c in "\x1b\x07\u202e\u202c"), receipt
    for results in (_text_of(m) for m in _outbox(game_dir) if b"results for alice" in m):
        assert not any(c in results for c in "\x1b\x07\u202e\u202c"), results
