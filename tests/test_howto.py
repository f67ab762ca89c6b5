"""How to play (issue "For players and admins"): HELP by mail and the how-to-play page list
exactly the commands the rules in force allow, each with usage, example, what it does and its
rule; deadlines.ics lists the coming deadlines; every mail links to the page."""

from __future__ import annotations

from datetime import datetime, timezone

import icalendar
import pytest
from bs4 import BeautifulSoup
from fixtures.games import deliver, mail, new_state, play

from admin.jobs import update as jobs
from admin.engine.events import Ruling
from admin.engine.howto import commands_in_force, help_lines
from admin.games.catalog import initial_state
from admin.mail.inbound.grammar import grammar_for
from admin.mail.outbound.mailout import ack, mail_out
from admin.games.registry import REGISTRY
from admin.site.build import build_site

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")


def _keywords(state) -> list[str]:
    return [h.keyword for h in commands_in_force(state, REGISTRY)]


def test_help_lists_the_same_commands_as_the_grammar_of_the_game():
    for game in ("nomopoly2", "timopoly"):
        state = initial_state(game, "g")
        grammar = grammar_for(state)
        listed = [usage.split()[0] for usage in grammar.valid_commands().split(", ")]
        assert sorted(k.split()[0] for k in _keywords(state)) == sorted([*listed, "HELP"]), game


def test_every_command_of_the_library_says_what_it_does_and_gives_an_example():
    missing = [(m.name, spec.keyword) for m, spec in REGISTRY.all_commands() if not (spec.summary and spec.example)]
    assert missing == []


def test_help_for_one_command_gives_its_usage_example_and_rule():
    state = initial_state("nomopoly2", "g")
    assert help_lines(state, REGISTRY, "buy") == [
        "BUY [square]: buy the unowned square you landed on since your last turn (XIII.1). Example: BUY 14"]
    assert help_lines(state, REGISTRY, "BUILD RAILROAD")[0].startswith(
        "BUILD RAILROAD is not a command of this game now. Its commands: BUY, NAME,")


def test_enabling_a_mechanic_adds_its_commands_to_help():
    state = new_state(("alice", "bob"))
    before = _keywords(state)
    after = play(state, rulings=[Ruling("enable", {"module": "railroads"}, "test")]).state
    added = [k for k in _keywords(after) if k not in before]
    assert added == ["BUILD RAILROAD", "RIDE RAILROAD", "REMOVE RAILROAD"]
    assert help_lines(after, REGISTRY, "build railroad") == [
        "BUILD RAILROAD ON <square>: build a railroad station on a square you own (XVII.1). "
        "Example: BUILD RAILROAD ON 14"]


def test_help_by_mail_is_answered_line_by_line_in_the_update():
    state = new_state(("alice", "bob"))
    result = play(state, [mail("alice", "HELP\nHELP vote\nHELP fly")])
    private = [e.private for e in result.events if e.kind == "help"]
    everything = help_lines(state, REGISTRY)
    assert private[:len(everything)] == everything
    assert private[len(everything)].startswith("VOTE <proposal> YES|NO|ABSTAIN: vote on an open proposal")
    assert private[-1].startswith("FLY is not a command of this game now.")
    assert all(e.player == "alice" and e.text is None for e in result.events if e.kind == "help")


def _receipt(game_dir) -> str:
    (text,) = [p.read_text() for p in (game_dir.state_dir / "outbox").rglob("*.eml")
               if "answers your email" in p.read_text() or "has arrived" in p.read_text()]
    return text.replace("=\n", "")


def test_a_help_mail_gets_the_command_list_in_its_receipt(game_dir):
    deliver(game_dir.root / "mail" / "inbox", "alice@example.org", "HELP BUY\n", "2026-11-03T10:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    receipt = _receipt(game_dir)
    assert "line 1: HELP BUY\n    DONE: BUY [square]: buy the unowned square you landed on since your " \
           "last turn (XIII.1). Example: BUY 14" in receipt


def test_help_is_answered_at_once_when_mail_is_acknowledged(game_dir):
    from admin.jobs.fetch import fetch, taken

    deliver(game_dir.root / "mail" / "inbox", "alice@example.org", "HELP\n", "2026-11-03T10:00:00+00:00")
    report = fetch(game_dir, at=WED)
    state = game_dir.load()
    screened = jobs.screen_entries(game_dir, state, [e for e in taken(report) if e.status == "pending"],
                                   report.fresh)
    ack(game_dir, screened, state)
    receipt = _receipt(game_dir)
    assert "line 1: HELP\n    DONE: BUY [square]:" in receipt
    assert "VOTE <proposal> YES|NO|ABSTAIN: vote on an open proposal" in receipt


def _page_commands(site) -> list[str]:
    soup = BeautifulSoup((site / "howto.html").read_text(encoding="utf-8"), "html.parser")
    return [row.th.code.get_text() for row in soup.select("table.commands tbody tr")]


def test_the_how_to_play_page_lists_exactly_the_commands_in_force_before_and_after_an_enable(game_dir):
    site = build_site(game_dir)
    state = game_dir.load()
    assert _page_commands(site) == [h.usage for h in commands_in_force(state, REGISTRY)]
    assert "BUILD RAILROAD ON <square>" not in _page_commands(site)
    jobs.queue_ruling(game_dir, Ruling("enable", {"module": "railroads"}, "test"))
    jobs.run_update_job(game_dir, at=WED)
    site = build_site(game_dir)
    after = _page_commands(site)
    assert after == [h.usage for h in commands_in_force(game_dir.load(), REGISTRY)]
    assert {"BUILD RAILROAD ON <square>", "RIDE RAILROAD TO <square>"} <= set(after)
    html = (site / "howto.html").read_text(encoding="utf-8")
    assert 'href="rules.html#rule-XVII.1"' in html or "XVII.1" in html


def test_deadlines_ics_lists_the_coming_deadlines_and_parses(game_dir):
    site = build_site(game_dir)
    cal = icalendar.Calendar.from_ical((site / "deadlines.ics").read_bytes())
    events = cal.walk("VEVENT")
    ends = [e.decoded("dtend") for e in events]
    # the game starts on Monday 2026-11-02: mail closes at midnight Wednesday and Saturday (IX.4)
    assert ends[:4] == [datetime(2026, 11, 4, 23, 59, 59, tzinfo=timezone.utc),
                        datetime(2026, 11, 7, 23, 59, 59, tzinfo=timezone.utc),
                        datetime(2026, 11, 11, 23, 59, 59, tzinfo=timezone.utc),
                        datetime(2026, 11, 14, 23, 59, 59, tzinfo=timezone.utc)]
    assert str(events[0]["summary"]) == "Test game: mail for update 1 closes"
    assert len({str(e["uid"]) for e in events}) == len(events) == 6
    assert 'href="deadlines.ics"' in (site / "howto.html").read_text(encoding="utf-8")
    assert 'href="deadlines.ics"' in (site / "index.html").read_text(encoding="utf-8")


def test_the_calendar_is_the_same_file_when_built_again(game_dir):
    first = (build_site(game_dir) / "deadlines.ics").read_bytes()
    assert (build_site(game_dir, full=True) / "deadlines.ics").read_bytes() == first


@pytest.mark.parametrize("with_url", [True, False])
def test_every_mail_links_to_the_how_to_play_page_when_the_site_has_an_address(game_dir, with_url):
    if with_url:
        with game_dir.settings_path.open("a") as fh:
            fh.write('\n[site]\nurl = "https://games.example.org/n2"\n')
    deliver(game_dir.root / "mail" / "inbox", "alice@example.org", "STATUS\n", "2026-11-03T10:00:00+00:00")
    jobs.run_update_job(game_dir, at=WED)
    mail_out(game_dir, 1)
    mails = [p.read_text() for p in (game_dir.state_dir / "outbox").rglob("*.eml")]
    link = "How to play (every command, HELP by mail): https://games.example.org/n2/howto.html"
    assert mails and all((link in m.replace("=\n", "")) == with_url for m in mails)


def test_the_calendars_dtstamp_is_when_the_state_was_made_not_each_deadline(game_dir):
    """RFC 5545: DTSTAMP is when the calendar was made. Read from the state (the game's start, then
    each update's cutoff), never the clock, so a rebuild of the same state is the same file."""
    def stamps():
        cal = icalendar.Calendar.from_ical((build_site(game_dir) / "deadlines.ics").read_bytes())
        return {e.decoded("dtstamp") for e in cal.walk("VEVENT")}, [e.decoded("dtend") for e in cal.walk("VEVENT")]

    made, ends = stamps()
    assert made == {datetime(2026, 11, 2, tzinfo=timezone.utc)}  # the game's start (nomopoly.toml)
    assert ends[0] == WED
    jobs.run_update_job(game_dir, at=WED)
    made, ends = stamps()
    assert made == {WED}  # update 1's cutoff: the file is made after it, and lists update 2 on
    assert ends[0] == datetime(2026, 11, 7, 23, 59, 59, tzinfo=timezone.utc)
