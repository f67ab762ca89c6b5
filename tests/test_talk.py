"""Talk through the game (admin/library/talk.py), end to end over a Maildir: press relayed in the
addressees' results mail and never to anyone else, the Press page, comments on proposals, questions
answered by the Admin on the Judgements page, and the hostile cases."""

from datetime import datetime

import pytest
from fixtures.games import deliver

from admin.engine.events import Ruling
from admin.engine.errors import StateError
from admin.jobs import update as jobs
from admin.jobs.todo import game_todo
from admin.library.talk import TalkModule
from admin.mail.inbound.grammar import grammar_for, parse_text
from admin.mail.outbound.mailout import mail_out, outbox_of
from admin.mail.outbound.outbox import iter_messages
from admin.site.build import build_site

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")


def _send(game, sender, body, when="2026-11-03T10:00", **kw):
    deliver(game.root / "mail" / "inbox", sender, body, when, **kw)


def _mail(game, update):
    mail_out(game, update)
    out = {}
    for m in iter_messages(outbox_of(game).sent_dir):
        out.setdefault(str(m["To"]), []).append(m.get_content())
    return out


def _results(mail, name):
    return [t for to, texts in mail.items() if f"{name}@" in to for t in texts if "results" in t[:200] or "has run" in t]


def _site_text(game, tmp_path):
    out = tmp_path / "site"
    build_site(game, out)
    return {p.name: p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file() and p.suffix in (".html", ".json", ".xml", ".atom")}


def test_press_to_one_player_reaches_only_that_player_signed_by_name(game_dir, tmp_path):
    _send(game_dir, "alice@example.org", "PRESS TO bob\nSecret plan: vote no on 1.\nEND")
    jobs.run_update_job(game_dir, at=WED)
    mail = _mail(game_dir, 1)
    bob = "\n".join(_results(mail, "bob"))
    assert "From alice to you:\n  Secret plan: vote no on 1." in bob
    assert "alice@example.org" not in bob
    for other in ("carol", "admin"):
        assert not any("Secret plan" in t for to, texts in mail.items() if other in to
                       for t in texts if "From alice" in t)
    assert not any("Secret plan" in t for t in "\n".join(_results(mail, "carol")).split("\n"))
    pages = _site_text(game_dir, tmp_path)
    assert not [name for name, text in pages.items() if "Secret plan" in text]  # the privacy test


def test_press_to_all_reaches_everyone_but_those_who_turned_it_off_and_the_press_page(game_dir, tmp_path):
    _send(game_dir, "carol@example.org", "PRESS OFF", "2026-11-03T09:00")
    _send(game_dir, "alice@example.org", "PRESS TO ALL\nLet us build a railroad.\nEND")
    jobs.run_update_job(game_dir, at=WED)
    mail = _mail(game_dir, 1)
    assert "From alice to everyone:\n  Let us build a railroad." in "\n".join(_results(mail, "bob"))
    assert "Let us build a railroad." not in "\n".join(_results(mail, "carol"))
    assert "From alice" not in "\n".join(_results(mail, "alice"))
    assert TalkModule.private_of(game_dir.load()).muted == ["carol"]
    assert "muted" not in _site_text(game_dir, tmp_path)["state.json"]
    press = _site_text(game_dir, tmp_path)["press.html"]
    assert "Let us build a railroad." in press and "alice" in press and "2026-11-03" in press


def test_grey_press_is_refused_unless_the_game_allows_it_and_then_hides_the_sender(game_dir, tmp_path):
    _send(game_dir, "alice@example.org", "PRESS GREY TO ALL\nWho ate the donut?\nEND")
    jobs.run_update_job(game_dir, at=WED)
    assert TalkModule.of(game_dir.load()).press == []
    jobs.queue_ruling(game_dir, Ruling("set-param", {"module": "talk", "key": "grey", "value": True}, "grey press"))
    _send(game_dir, "alice@example.org", "PRESS GREY TO ALL\nWho ate the donut?\nEND", "2026-11-05T10:00")
    jobs.run_update_job(game_dir, at=SAT)
    state = game_dir.load()
    (item,) = TalkModule.of(state).press
    assert item.sender == "Anonymous"
    assert TalkModule.private_of(state).grey_senders == {item.number: "alice"}
    bob = "\n".join(_results(_mail(game_dir, 2), "bob"))
    assert "From Anonymous to everyone:\n  Who ate the donut?" in bob and "alice" not in bob.split("Press")[1].split("Where you stand")[0]
    press = _site_text(game_dir, tmp_path)["press.html"]
    assert "Who ate the donut?" in press and ">alice<" not in press


def test_a_flood_of_press_costs_the_sender_a_refusal_not_the_others_inboxes(game_dir):
    body = "\n".join(f"PRESS TO bob\nmessage {i}\nEND" for i in range(8))
    _send(game_dir, "alice@example.org", body)
    _send(game_dir, "carol@example.org", "PRESS TO bob\n" + "x" * 2001 + "\nEND")
    jobs.run_update_job(game_dir, at=WED)
    mail = _mail(game_dir, 1)
    bob = "\n".join(_results(mail, "bob"))
    assert bob.count("From alice to you:") == 5 and "message 5" not in bob
    assert "xxxx" not in bob
    receipts = "\n".join(t for to, texts in mail.items() for t in texts if "alice@" in to or "carol@" in to)
    assert "you have sent 5 press, comments and questions this update, the most allowed" in receipts
    assert "the text is 2,001 characters long; at most 2,000 are allowed" in receipts


def test_press_from_a_stranger_or_to_a_non_player_is_not_relayed(game_dir):
    _send(game_dir, "mallory@evil.example", "PRESS TO ALL\nClick my link\nEND")
    _send(game_dir, "alice@example.org", "PRESS TO zed\nHello?\nEND\nPRESS TO alice\nme\nEND\nPRESS TO bob@example.org\nx\nEND")
    _send(game_dir, "bob@example.org", "PRESS TO ALL\nI am away\nEND", headers={"Auto-Submitted": "auto-replied"})
    jobs.run_update_job(game_dir, at=WED)
    mail = _mail(game_dir, 1)
    everything = "\n".join(t for texts in mail.values() for t in texts)
    assert "Click my link" not in everything.replace('"Click my link"', "") or "From mallory" not in everything
    assert "From mallory" not in everything and "From bob" not in everything
    assert '"zed" is not a player of this game' in everything
    assert "press to yourself is not sent" in everything
    assert '"bob@example.org" is not a player\'s name' in everything
    assert not any("mallory" in to for to in mail)


def test_press_text_with_markup_is_shown_as_text_on_the_site(game_dir, tmp_path):
    _send(game_dir, "alice@example.org", "PRESS TO ALL\n<script>alert(1)</script> [x](javascript:alert(2)) **bold**\nEND\n"
                                         "COMMENT 1\n<img src=x onerror=alert(3)>\nEND\nPROPOSE Idea\nA rule.\nEND")
    jobs.run_update_job(game_dir, at=WED)
    pages = _site_text(game_dir, tmp_path)
    for name, text in pages.items():
        if not name.endswith(".html"):
            continue  # the JSON export carries the text as data, read as text by whoever reads it
        assert "<script>alert" not in text and "<img src=x" not in text and 'href="javascript' not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["press.html"]


def test_a_comment_shows_under_its_proposal_and_in_the_next_results(game_dir, tmp_path):
    _send(game_dir, "alice@example.org", "PROPOSE Idea\nA rule.\nEND", "2026-11-03T09:00")
    _send(game_dir, "bob@example.org", "COMMENT 1\nThis breaks VI.11.\nEND\nCOMMENT 9\nnothing\nEND")
    jobs.run_update_job(game_dir, at=WED)
    mail = _mail(game_dir, 1)
    assert "bob commented on proposal 1: “This breaks VI.11.”" in "\n".join(_results(mail, "carol"))
    assert "there is no proposal 9 to comment on" in "\n".join(t for to, ts in mail.items() if "bob@" in to for t in ts)
    page = _site_text(game_dir, tmp_path)["proposals.html"]
    assert "Comments (1)" in page and "This breaks VI.11." in page


def test_a_question_is_on_the_todo_answered_by_a_ruling_published_and_told_to_the_asker(game_dir, tmp_path):
    settings = game_dir.root / "nomopoly.toml"
    settings.write_text(settings.read_text().replace("[mail]\n", '[mail]\nadmin_address = "boss@example.org"\n'))
    _send(game_dir, "carol@example.org", "QUESTION\nDoes VI.11 pay when I land on square 1?\nEND")
    jobs.run_update_job(game_dir, at=WED)
    (report,) = _mail(game_dir, 1)["boss@example.org"]
    assert "Question 1 from carol, open for 0 update(s)" in report.split("To do now")[1].split("events;")[0]
    todo = [t.line() for t in game_todo(game_dir)]
    assert any("Question 1 from carol, open for 0 update(s)" in t and "nomopoly ruling answer 1" in t for t in todo)
    (q,) = TalkModule.of(game_dir.load()).questions
    assert q.rules == ["VI.11"] and q.answer is None
    jobs.queue_ruling(game_dir, Ruling("answer", {"question": 1, "text": "Yes: landing counts.", "standing": True}, "x"))
    jobs.run_update_job(game_dir, at=SAT)
    assert not [t for t in game_todo(game_dir) if t.kind == "question"]
    carol = "\n".join(_results(_mail(game_dir, 2), "carol"))
    assert "The Admin answered your question 1: Yes: landing counts." in carol
    page = _site_text(game_dir, tmp_path)["judgements.html"]
    assert "Does VI.11 pay when I land on square 1?" in page and "Yes: landing counts." in page
    assert "Standing rulings made by answers" in page and page.count("Yes: landing counts.") == 2


def test_an_answer_to_a_missing_question_is_refused_when_recorded(game_dir):
    with pytest.raises(StateError, match="names question 4, which does not exist; 0 question"):
        jobs.queue_ruling(game_dir, Ruling("answer", {"question": 4, "text": "No."}, "x"))
    assert game_dir.pending_rulings() == []


@pytest.mark.parametrize("line, error", [
    ("PRESS bob\nhi\nEND", "write PRESS TO <player> or PRESS TO ALL"),
    ("PRESS TO bob\nEND", "the press has no text"),
    ("COMMENT\nhi\nEND", "COMMENT needs a proposal number"),
    ("COMMENT seven\nhi\nEND", "is not a proposal number"),
    ("QUESTION\nEND", "the question has no text"),
    ("PRESS OFF now", "PRESS OFF takes nothing after it"),
    ("PRESS TO bob\nhi \u202e there\nEND", "invisible control character"),
])
def test_malformed_talk_commands_are_refused_with_what_to_write(game_dir, line, error):
    (verdict,) = parse_text(line, grammar_for(game_dir.load()))
    assert verdict.command is None and error in verdict.error


def test_talk_is_enabled_in_every_bundled_game():
    from admin.games import catalog

    for name in catalog.available():
        assert "talk" in [m.name for m in catalog.spec(name).modules], name


def test_help_and_the_how_to_play_page_say_how_to_talk_in_every_bundled_game():
    from admin.engine.howto import help_lines
    from admin.games import catalog
    from admin.games.registry import REGISTRY

    for name in catalog.available():
        state = catalog.initial_state(name, "t")
        said = "\n".join(help_lines(state, REGISTRY))
        for usage in ("PRESS TO <player>|ALL ... END", "PRESS OFF", "COMMENT <proposal> ... END", "QUESTION ... END"):
            assert usage in said, (name, usage)


def test_the_how_to_play_page_lists_the_talk_commands(game_dir, tmp_path):
    page = _site_text(game_dir, tmp_path)["howto.html"]
    assert "PRESS TO" in page and "QUESTION" in page and "COMMENT" in page


@pytest.mark.dovecot
def test_press_over_imap_reaches_only_its_addressee_and_a_strangers_is_not_relayed(game_dir, dovecot):
    from test_intake import TUE, email, imap

    account = dovecot.new_user()
    from admin.runtime.dovecot import Message

    raws = [email(1, "alice@example.org", "PRESS TO carol\nMeet me on square 8.\nEND"),
            email(2, "mallory@evil.example", "PRESS TO ALL\nFree money at evil.example\nEND"),
            email(3, "Bob <bob@example.org>", "PRESS TO ALL\nI propose peace.\nEND")]
    dovecot.append_many(account, [Message(r, TUE) for r in raws])
    outcome = jobs.run_update_job(game_dir, at=WED, source=imap(dovecot, account))
    assert sorted(s.status for s in outcome.screened) == ["applied", "applied", "rejected"]
    mail = _mail(game_dir, 1)
    carol, bob, alice = ("\n".join(_results(mail, n)) for n in ("carol", "bob", "alice"))
    assert "From alice to you:\n  Meet me on square 8." in carol
    assert "Meet me on square 8." not in bob and "Meet me on square 8." not in alice.split("Press")[-1]
    assert "From bob to everyone:\n  I propose peace." in carol and "I propose peace." in alice
    everything = "\n".join(t for texts in mail.values() for t in texts)
    assert "From mallory" not in everything and not any("mallory" in to for to in mail)
    assert "@example.org" not in carol.split("\nPress\n")[1].split("Where you stand")[0]


def test_ruling_answer_on_the_command_line_queues_the_answer_and_refuses_a_missing_question(game_dir):
    from click.testing import CliRunner

    from admin.cli.main import cli

    _send(game_dir, "bob@example.org", "QUESTION Is a bus a car?\nUnder XXIX.2, I mean.\nEND")
    jobs.run_update_job(game_dir, at=WED)
    runner = CliRunner()
    bad = runner.invoke(cli, ["ruling", "answer", "2", "No.", "--game", str(game_dir.root)])
    assert bad.exit_code != 0 and "names question 2, which does not exist" in bad.output + str(bad.exception)
    empty = runner.invoke(cli, ["ruling", "answer", "1", "  ", "--game", str(game_dir.root)])
    assert empty.exit_code != 0 and "the answer is empty" in empty.output
    ok = runner.invoke(cli, ["ruling", "answer", "1", "No: a bus is not a car.", "--standing",
                             "--game", str(game_dir.root)])
    assert ok.exit_code == 0, ok.output
    todo = runner.invoke(cli, ["todo", "--game", str(game_dir.root)])
    assert "Question 1 from bob" in todo.output and "ruling answer question=1 standing=True" in todo.output
    jobs.run_update_job(game_dir, at=SAT)
    (q,) = TalkModule.of(game_dir.load()).questions
    assert (q.text, q.answer, q.standing) == ("Is a bus a car?\nUnder XXIX.2, I mean.", "No: a bus is not a car.", True)


@pytest.mark.parametrize("key, value, error", [
    ("max_per_update", -1, "max_per_update"),
    ("max_chars", 0, "max_chars"),
    ("comments", "digest", "digest"),
    ("grey", "perhaps", "grey"),
])
def test_a_talk_parameter_out_of_bounds_is_refused_when_recorded(game_dir, key, value, error):
    with pytest.raises(StateError, match=error):
        jobs.queue_ruling(game_dir, Ruling("set-param", {"module": "talk", "key": key, "value": value}, "x"))
    assert game_dir.pending_rulings() == []


def test_with_comments_on_the_site_only_the_results_do_not_quote_them(game_dir, tmp_path):
    jobs.queue_ruling(game_dir, Ruling("set-param", {"module": "talk", "key": "comments", "value": "site"}, "x"))
    _send(game_dir, "alice@example.org", "PROPOSE Idea\nA rule.\nEND", "2026-11-03T09:00")
    _send(game_dir, "bob@example.org", "COMMENT P1\nQuiet words.\nEND")
    jobs.run_update_job(game_dir, at=WED)
    carol = "\n".join(_results(_mail(game_dir, 1), "carol"))
    assert "bob commented on proposal 1 (on the proposals page)." in carol and "Quiet words." not in carol
    assert "Quiet words." in _site_text(game_dir, tmp_path)["proposals.html"]


def test_an_open_question_shows_its_age_in_updates_on_the_todo(game_dir):
    _send(game_dir, "carol@example.org", "QUESTION Who wins a tie?\nEND")
    jobs.run_update_job(game_dir, at=WED)
    jobs.run_update_job(game_dir, at=SAT)
    todo = [t.line() for t in game_todo(game_dir) if t.kind == "question"]
    assert todo == ['Question 1 from carol, open for 1 update(s) (asked in update 1): Who wins a tie? → '
                    'nomopoly ruling answer 1 "..." (--standing to make it a standing ruling)']
