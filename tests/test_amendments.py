"""An amendment round trip on disk: an accepted AMEND and REPEAL change rules_md/, the history
names the proposal, the site shows the new text, and replay reproduces it all."""

from datetime import datetime

from fixtures.games import deliver

from admin.jobs import update as jobs

WED = datetime.fromisoformat("2026-11-04T23:59:59+00:00")
SAT = datetime.fromisoformat("2026-11-07T23:59:59+00:00")
NEW_RENT = "A player landing on a square owned by someone else pays its owner 4 times the square's number."


def test_an_accepted_amend_and_repeal_change_rules_md_with_history(game_dir):
    inbox = game_dir.root / "mail" / "inbox"
    deliver(inbox, "alice@example.org", f"PROPOSE Dearer rent\nRent is too low.\n\nAMEND VI.9: {NEW_RENT}\n"
                                         "REPEAL XIV.6\nEND", "2026-11-03T10:00")
    jobs.run_update_job(game_dir, at=WED)
    for who in ("alice", "bob"):
        deliver(inbox, f"{who}@example.org", "VOTE 1 YES", "2026-11-06T10:00")
    jobs.run_update_job(game_dir, at=SAT)

    board = (game_dir.rules_dir / "06-the-board.md").read_text()
    assert f"## VI.9\n{NEW_RENT}\n" in board
    assert "## XIV.6" not in (game_dir.rules_dir / "14-cards.md").read_text()
    state = game_dir.load()
    vi9 = state.rule_history["VI.9"]
    assert [(r.rev, r.action, r.proposal, r.week, r.update) for r in vi9] == [
        (1, "created", None, 0, 0), (2, "amended", 1, 1, 2)]
    assert vi9[-1].old_text.startswith("Landing on a square") or vi9[-1].old_text
    assert vi9[-1].text == NEW_RENT
    assert [(r.action, r.proposal) for r in state.rule_history["XIV.6"]][-1] == ("repealed", 1)
    assert state.proposal(1).changed_rules == ["VI.9", "XIV.6"]
    results = (game_dir.state_dir / "results" / "0002.json").read_text()
    assert "Rule VI.9 is automated by the ownership module" in results
    assert jobs.replay_check(game_dir) == []


def test_a_free_form_proposal_waits_for_the_admin_who_carries_it_out(game_dir):
    from admin.engine.events import Ruling

    inbox = game_dir.root / "mail" / "inbox"
    deliver(inbox, "bob@example.org", "PROPOSE Kinder\nRent should be lower.\nEND", "2026-11-03T10:00")
    jobs.run_update_job(game_dir, at=WED)
    for who in ("alice", "bob"):
        deliver(inbox, f"{who}@example.org", "VOTE 1 YES", "2026-11-06T10:00")
    jobs.run_update_job(game_dir, at=SAT)
    assert game_dir.load().proposal(1).awaiting_admin
    jobs.queue_ruling(game_dir, Ruling("amend", {"proposal": 1, "directives": "AMEND VI.9: Rent is 2 times the number."}))
    jobs.run_update_job(game_dir, at=datetime.fromisoformat("2026-11-11T23:59:59+00:00"))
    state = game_dir.load_public(archive=True)  # proposal 1 is archived now that it is carried out
    assert not state.proposal(1).awaiting_admin and state.archived == {1: "accepted"}
    assert state.rules.rule("VI.9").text == "Rent is 2 times the number."
    assert state.rule_history["VI.9"][-1].proposal == 1
    assert jobs.replay_check(game_dir) == []


def test_replay_check_notices_a_hand_edited_rule(game_dir):
    jobs.run_update_job(game_dir, at=WED)
    path = game_dir.rules_dir / "06-the-board.md"
    path.write_text(path.read_text().replace("## VI.9\n", "## VI.9\nSneaky. "))
    assert jobs.replay_check(game_dir) == ["rules_md/06-the-board.md differs from the replayed state"]


def test_directives_are_carried_out_on_a_copy_leaving_the_ruleset_given_as_it_was():
    import copy

    from admin.engine.model import Directive
    from admin.nomic.amendments import apply_directives
    from admin.jobs.scenario import setup

    rules = setup({"game": "nomoteams", "players": {"alice": {"team": "North"}}}, "t").rules
    rule = next(iter(rules.rules()))
    before = copy.deepcopy(rules)
    applied = apply_directives(rules, [Directive("amend", rule.id, "New text."),
                                       Directive("add-section", "Extras")])
    assert rules == before and applied.ruleset != rules
    assert applied.ruleset.rule(rule.id).text == "New text." and rules.rule(rule.id).text == rule.text


def test_rules_of_one_module_amended_together_ask_one_review_that_stays_on_the_todo(game_dir):
    """Issue 31: a proposal that amends XIII.1-3 and VI.9 (all the ownership module's) asks the Admin
    once, naming them all (not four lines in the report and every player's mail); and each amended
    rule stays on `nomopoly todo` after the update that asked, since the module runs its parameters,
    not the new words."""
    from admin.jobs.todo import game_todo

    inbox = game_dir.root / "mail" / "inbox"
    amends = "".join(f"AMEND {r}: {NEW_RENT}\n" for r in ("VI.9", "XIII.1", "XIII.2", "XIII.3"))
    deliver(inbox, "alice@example.org", f"PROPOSE Dearer\nRent.\n\n{amends}END", "2026-11-03T10:00")
    jobs.run_update_job(game_dir, at=WED)
    for who in ("alice", "bob"):
        deliver(inbox, f"{who}@example.org", "VOTE 1 YES", "2026-11-06T10:00")
    jobs.run_update_job(game_dir, at=SAT)
    results = (game_dir.state_dir / "results" / "0002.json").read_text()
    assert results.count("automated by the ownership module") == 1
    assert "Rules VI.9, XIII.1, XIII.2 and XIII.3 are automated by the ownership module" in results
    todo = [t.line() for t in game_todo(game_dir)]
    assert sum("automated by the ownership module" in t for t in todo) == 1, todo
    assert not any(t.startswith("Rule VI.9 was amended") for t in todo)  # the ask says it this update
    jobs.run_update_job(game_dir, at=datetime.fromisoformat("2026-11-11T23:59:59+00:00"))
    todo = [t.line() for t in game_todo(game_dir)]
    for rule in ("VI.9", "XIII.1", "XIII.2", "XIII.3"):
        assert (f"Rule {rule} was amended by proposal 1; the ownership module carries it out by its parameters, "
                "not by its words: check that they say what the new words say → nomopoly ruling set ownership "
                "KEY VALUE, where they do not") in todo, todo
