"""The Admin settles a text-only rule (issue 31): ``nomopoly ruling settle RULE --as flavour|by-hand``
takes a rule a proposal added that nothing runs off the to-do, the rules page and ``rules coverage``
say what the Admin decided, an amendment of the rule makes it undecided again, and replay rebuilds it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import yaml
from fixtures.games import deliver

from admin.jobs.run import run_due

ROOT = Path(__file__).resolve().parents[1]
SONG = "A player who lands on the lowest numbered square sings a song for the Admin."
DANCE = "A player who lands on the lowest numbered square dances for the Admin."


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text + "+00:00")


def _cli(game, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "admin", *args, "--game", str(game.root)],
                          capture_output=True, text=True, cwd=ROOT)


def _mail(game, who: str, text: str, when: str) -> None:
    deliver(game.root / "mail" / "inbox", f"{who}@example.org", text, when + "+00:00")


def _vote_all(game, number: int, when: str) -> None:
    for who in ("alice", "bob", "carol"):
        _mail(game, who, f"VOTE {number} YES\n", when)


def _todo(game) -> str:
    done = _cli(game, "todo")
    assert done.returncode == 0, done.stderr
    return done.stdout


def _coverage(game, rule: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--json", "--game", str(game.root)],
                          capture_output=True, text=True, cwd=ROOT)
    return next(r for r in json.loads(done.stdout)["rules"] if r["rule"] == rule)


def _reports(game, needle: str) -> int:
    """How many of the Admin's reports sent so far say ``needle``."""
    from admin.mail.outbound.mailout import outbox_of
    from admin.mail.outbound.outbox import iter_messages

    texts = [m.get_payload(decode=True).decode("utf-8") if not m.is_multipart() else
             "".join(p.get_payload(decode=True).decode("utf-8") for p in m.walk() if p.get_content_type() == "text/plain")
             for m in iter_messages(outbox_of(game).sent_dir) if m["X-Nomopoly-Kind"] == "report"]
    assert texts, "no report was sent"
    return sum(needle in " ".join(t.split()) for t in texts)


def _rulings(game, update: int) -> list[str]:
    from admin.mail.outbound.updatelog import load_update_log

    return [e.text for e in load_update_log(game, update).events if e.kind == "ruling"]


def _article(game, rule_id: str) -> str:
    html = (game.root / "site" / "rules.html").read_text(encoding="utf-8")
    anchor = "rule-" + rule_id.replace(".", "-")
    return re.search(rf'<article class="rule-item" id="{anchor}">(.*?)</article>', html, re.S).group(1)


def test_a_text_only_rule_settled_as_flavour_leaves_the_todo_until_a_proposal_amends_it(game_dir):
    game = game_dir
    text = game.settings_path.read_text().replace("[mail]\n", '[mail]\nadmin_address = "admin@example.org"\n', 1)
    game.settings_path.write_text(text)
    _mail(game, "alice", f"PROPOSE A song\nADD RULE VI: {SONG}\nEND\n", "2026-11-02T10:00:00")
    run_due(game, _at("2026-11-05T00:00:30"))
    _vote_all(game, 1, "2026-11-06T10:00:00")
    run_due(game, _at("2026-11-08T00:01:00"))
    assert game.load().rules.rule("VI.19").text == SONG
    todo = _todo(game)
    assert ("- Rule VI.19 added by proposal 1 is text only: nothing runs it; carry it out by ruling, or mark it "
            "as flavour → nomopoly ruling settle VI.19 --as by-hand (or --as flavour) --reason \"...\"") in todo
    assert "not carried out automatically: the Admin applies it" in _article(game, "VI.19")
    assert _coverage(game, "VI.19") == {"rule": "VI.19", "status": "admin", "how": "added by proposal 1: text only, "
                                        "with the Admin (by hand or by ruling)"}

    # what cannot be settled is refused when it is given, saying why, and nothing is queued
    refused = {
        ("VI.9", "flavour", "x"): "rule 'VI.9' is not text only",
        ("VI.99", "flavour", "x"): "rule 'VI.99' is not in this game's rules",
        ("VI.19", "flavour", "a \x1b[31mred\x1b[0m reason"): "the reason holds U+001B (a control character) at "
                                                             "character 3",
        ("VI.19", "flavour", "   "): "give the reason for the record",
    }
    for (rule, kind, reason), message in refused.items():
        done = _cli(game, "ruling", "settle", rule, "--as", kind, "--reason", reason)
        assert done.returncode != 0 and message in done.stderr, (rule, reason, done.stderr)
    done = _cli(game, "ruling", "settle", "VI.19", "--as", "decoration", "--reason", "x")
    assert done.returncode == 2 and "'decoration' is not one of 'flavour', 'by-hand'" in done.stderr
    assert game.pending_rulings() == []

    done = _cli(game, "ruling", "settle", "vi.19", "--as", "flavour", "--reason", "a song has no effect in play")
    assert done.returncode == 0, done.stderr
    # the same decision twice is refused (the queued one counts)
    again = _cli(game, "ruling", "settle", "VI.19", "--as", "flavour", "--reason", "again")
    assert again.returncode != 0 and "rule VI.19 is settled as flavour already" in again.stderr
    _mail(game, "alice", f"PROPOSE A dance\nAMEND VI.19: {DANCE}\nEND\n", "2026-11-09T10:00:00")
    run_due(game, _at("2026-11-12T00:00:30"))  # update 3 applies the ruling first

    state = game.load()
    assert state.rule_decisions["VI.19"].kind == "flavour"
    assert _reports(game, "Rule VI.19 added by proposal 1 is text only") == 1  # update 2's, not update 3's
    assert "VI.19" not in _todo(game)
    article = _article(game, "VI.19")
    assert "flavour: no effect in play" in article and "not carried out automatically" not in article
    assert _coverage(game, "VI.19") == {"rule": "VI.19", "status": "text", "how": "added by proposal 1; settled as "
                                        "flavour by the Admin's ruling in update 3: a song has no effect in play"}
    assert _rulings(game, 3) == ["The Admin settled rule VI.19 as flavour: no effect in play: a song has no "
                                 "effect in play"]
    twice = _cli(game, "ruling", "settle", "VI.19", "--as", "flavour", "--reason", "again")
    assert twice.returncode != 0 and "settled as flavour already (update 3: a song has no effect in play)" in twice.stderr

    # an amendment's new words are undecided: the note comes back
    _vote_all(game, 2, "2026-11-13T10:00:00")
    run_due(game, _at("2026-11-15T00:01:00"))
    assert game.load().rules.rule("VI.19").text == DANCE
    assert ("- Rule VI.19 amended by proposal 2 is text only: nothing runs it; carry it out by ruling, or mark "
            "it as flavour") in _todo(game)
    article = _article(game, "VI.19")
    assert "not carried out automatically: the Admin applies it" in article and "flavour" not in article
    assert _coverage(game, "VI.19")["status"] == "admin"
    assert _reports(game, "Rule VI.19 amended by proposal 2 is text only") == 1

    # settled by hand this time
    done = _cli(game, "ruling", "settle", "VI.19", "--as", "by-hand", "--reason", "I judge each dance")
    assert done.returncode == 0, done.stderr
    run_due(game, _at("2026-11-19T00:00:30"))
    assert "VI.19" not in _todo(game)
    assert _reports(game, "Rule VI.19 amended by proposal 2 is text only") == 1  # update 4's, not update 5's
    assert "applied by the Admin&#39;s rulings" in _article(game, "VI.19") or \
        "applied by the Admin's rulings" in _article(game, "VI.19")
    assert _coverage(game, "VI.19") == {"rule": "VI.19", "status": "admin", "how": "amended by proposal 2; settled "
                                        "as by-hand by the Admin's ruling in update 5: I judge each dance"}

    check = _cli(game, "replay", "--check")
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_repealed_rule_and_a_changed_decision(game_dir):
    game = game_dir
    _mail(game, "alice", f"PROPOSE A song\nADD RULE VI: {SONG}\nEND\n", "2026-11-02T10:00:00")
    run_due(game, _at("2026-11-05T00:00:30"))
    _vote_all(game, 1, "2026-11-06T10:00:00")
    run_due(game, _at("2026-11-08T00:01:00"))
    assert _cli(game, "ruling", "settle", "VI.19", "--as", "flavour", "--reason", "a song").returncode == 0
    run_due(game, _at("2026-11-12T00:00:30"))
    # the Admin may change the decision: by hand, no longer flavour
    assert _cli(game, "ruling", "settle", "VI.19", "--as", "by-hand", "--reason", "songs are judged").returncode == 0
    _mail(game, "bob", "PROPOSE No song\nREPEAL VI.19\nEND\n", "2026-11-16T10:00:00")
    run_due(game, _at("2026-11-19T00:00:30"))
    assert game.load().rule_decisions["VI.19"].kind == "by-hand"
    assert _rulings(game, 4) == ["The Admin settled rule VI.19 as applied by the Admin's rulings, no longer "
                                 "flavour: songs are judged"]
    _vote_all(game, 2, "2026-11-20T10:00:00")
    run_due(game, _at("2026-11-22T00:01:00"))
    assert "VI.19" not in {r.id for r in game.load().rules.rules()}
    done = _cli(game, "ruling", "settle", "VI.19", "--as", "flavour", "--reason", "x")
    assert done.returncode != 0 and "rule 'VI.19' was repealed by proposal 2" in done.stderr
    assert _cli(game, "replay", "--check").returncode == 0


def test_a_decision_is_written_to_game_yaml_only_when_there_is_one_and_holds_for_its_revision_only():
    from admin.engine.model import RuleDecision, RuleRevision
    from admin.jobs.scenario import setup
    from admin.nomic.review import decision, words_not_run
    from admin.nomic.ruleset import Rule
    from admin.store.statefiles import state_files

    state = setup({"players": ["alice"]}, "settle")
    assert "rule_decisions" not in state_files(state)["state/game.yaml"]  # a game saved before reads the same
    section = next(s for s in state.rules.sections if s.numeral == "VI")
    section.rules.append(Rule.make("VI", 99, SONG))
    state.rule_history["VI.99"] = [RuleRevision(1, "created", 2, 1, proposal=3, text=SONG)]
    assert words_not_run(state) == {"VI.99": ("added", 3, None)}
    state.rule_decisions["VI.99"] = RuleDecision("flavour", "a song", update=3, rev=1, rev_update=2)
    assert words_not_run(state) == {} and decision(state, "VI.99").reason == "a song"
    saved = yaml.safe_load(state_files(state)["state/game.yaml"])["rule_decisions"]
    assert saved == {"VI.99": {"kind": "flavour", "reason": "a song", "update": 3, "rev": 1, "rev_update": 2}}
    # a later revision (an amendment), or a new rule 1 made at another update under the same id: undecided
    state.rule_history["VI.99"].append(RuleRevision(2, "amended", 5, 3, proposal=4, text=DANCE, old_text=SONG))
    assert decision(state, "VI.99") is None and words_not_run(state) == {"VI.99": ("amended", 4, None)}
    state.rule_history["VI.99"] = [RuleRevision(1, "created", 7, 4, proposal=6, text=DANCE)]
    assert decision(state, "VI.99") is None


def test_a_renumbered_text_only_rule_keeps_its_note_and_the_admins_decision():
    from admin.engine.model import RuleDecision
    from admin.games.registry import REGISTRY
    from admin.jobs.scenario import setup
    from admin.nomic.amendments import carry_out, parse_directives
    from admin.nomic.review import decision, words_not_run

    def played(decided: bool):
        state = setup({"players": ["alice"]}, "renumber")
        state.update = 2
        carry_out(state, 3, parse_directives(f"ADD RULE II: {SONG}"), REGISTRY)
        assert state.rules.rule("II.4").text == SONG
        if decided:
            state.rule_decisions["II.4"] = RuleDecision("flavour", "a song", update=3, rev=1, rev_update=2)
        state.update = 4
        carry_out(state, 5, parse_directives("REPEAL II.3\nRENUMBER"), REGISTRY)
        assert state.rules.rule("II.3").text == SONG and "II.4" not in {r.id for r in state.rules.rules()}
        return state

    state = played(decided=False)
    assert words_not_run(state) == {"II.3": ("added", 3, None)}  # still text only under its new number
    state = played(decided=True)
    assert words_not_run(state) == {} and list(state.rule_decisions) == ["II.3"]
    assert decision(state, "II.3").reason == "a song"
