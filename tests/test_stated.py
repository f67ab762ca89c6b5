"""A rule's text and its parameters are one (issue 33, item 1): the numbers a rule states are its
mechanic's parameters; a SET rewrites the rule, an AMEND that changes only those numbers sets the
parameters, one that changes more goes to the Admin with the difference, and ``nomopoly check``
fails when a rule's text and its parameter disagree."""

from __future__ import annotations


import pytest
from click.testing import CliRunner

from admin.cli.main import cli
from admin.engine.config import set_param
from admin.engine.model import Directive
from admin.games import catalog as games
from admin.games.registry import REGISTRY
from admin.jobs import update as jobs
from admin.nomic.amendments import carry_out, check
from admin.nomic.stated import WORDS, amended_values, disagreements, find, stated, word_diff, written


#: the library's mechanics that state numbers (the games' own are tested game by game below)
LIBRARY = {"money", "turns", "health", "cards", "players", "ownership"}


def _state(game: str = "nomopoly2"):
    return games.initial_state(game, "test")


VI9 = ("Landing on a square that belongs to another player in the game costs you {} times the square's "
       "number in Nomopoly dollars, paid to that owner.")


@pytest.mark.parametrize("text, value, style", [
    ("costs you three times the square's number", 3, "word"),
    ("costs you 4 times the square's number", 4, "digits"),
    ("pays the owner twice the square's number", 2, "multiple"),
    ("costs you Twenty-five  times\nthe square's number", 25, "word"),
])
def test_a_phrase_finds_the_number_it_states(text, value, style):
    found = find(text, ("{} times the square's number",))
    assert found is not None and (found.value, found.style) == (value, style)


def test_a_phrase_needs_the_whole_number_and_its_words():
    assert find("costs you thirty-three times the square's number", ("{} times the square's number",)).value == 33
    assert find("costs you three times the board's number", ("{} times the square's number",)) is None
    assert find("at most 100 characters", ("at most {} characters",)).value == 100
    assert find("at most 100 charactersX", ("at most {} characters",)) is None


def test_every_number_word_and_nothing_else_is_read_as_a_number():
    near_misses = ["twenty-zero", "twenty-ten", "ten-one", "tenty", "twentyone", "one-twenty", "hundred",
                   "ninety-nine-one", "eleventy", "zeroes"]
    for word, value in WORDS.items():
        for spelled in (word, word.upper(), word.capitalize()):
            found = find(f"pay {spelled} pounds", ("pay {} pounds",))
            assert found is not None and found.value == value, spelled
    for word in near_misses:
        assert find(f"pay {word} pounds", ("pay {} pounds",)) is None, word


def test_a_new_value_is_written_as_the_old_one_was():
    found = find("Three times the square's number", ("{} times the square's number",))
    assert written(4, found) == "Four"
    assert written(140, found) == "140"
    assert written(2, find("twice the square's number", ("{} times the square's number",))) == "twice"
    assert written(5, find("twice the square's number", ("{} times the square's number",))) == "five times"


def test_every_bundled_game_starts_with_its_rules_and_parameters_agreeing():
    for game in games.available():
        assert disagreements(_state(game), REGISTRY) == [], game
    found = {(s.rule, s.key): s.found.value for s in stated(_state("nomopoly2"), REGISTRY) if s.found}
    assert found == {("VI.9", "rent_per_number"): 3, ("XIII.1", "price_per_number"): 25,
                     ("XIII.4", "rename_cost"): 50, ("XIII.4", "name_max_length"): 100,
                     ("VI.11", "pass_bonus"): 1000, ("XIV.5", "max_cards"): 12, ("XII.1", "start_health"): 100,
                     ("VI.14", "polluted_health_loss"): 5, ("III.5", "inactive_weeks"): 3}
    # the first game words them its own way, under its own numbers
    found = _found("nomopoly1", LIBRARY)
    assert found == {("X.3", "rent_per_number"): 3, ("X.1", "price_per_number"): 10, ("X.2", "rename_cost"): 100,
                     ("IV.1", "start_money"): 10000, ("V.7", "pass_bonus"): 1200}


def test_setting_a_parameter_rewrites_the_rule_that_states_it():
    state = _state()
    set_param(state, REGISTRY, "ownership", "rent_per_number", 4)
    assert state.rules.rule("VI.9").text == VI9.format("four")
    last = state.rule_history["VI.9"][-1]  # the rules page shows the change
    assert (last.action, last.proposal, last.old_text, last.text) == ("amended", None, VI9.format("three"),
                                                                      VI9.format("four"))
    revisions = len(state.rule_history["VI.9"])
    set_param(state, REGISTRY, "ownership", "rent_per_number", 4)  # the same value: no new revision
    assert len(state.rule_history["VI.9"]) == revisions
    set_param(state, REGISTRY, "ownership", "price_per_number", 30)
    assert "the price is $30 times the square's number" in state.rules.rule("XIII.1").text
    assert disagreements(state, REGISTRY) == []
    first = _state("nomopoly1")
    set_param(first, REGISTRY, "ownership", "rent_per_number", 5)
    assert first.rules.rule("X.3").text.endswith("rent of five times the square's number.")


def test_an_amend_of_only_the_number_sets_the_parameter():
    state = _state()
    assert amended_values(state, REGISTRY, "VI.9", VI9.format("4")) == [("ownership", "rent_per_number", 3, 4)]
    assert amended_values(state, REGISTRY, "VI.9", VI9.format("3")) == []  # the same value, in digits
    changes = carry_out(state, 7, [Directive("amend", "VI.9", VI9.format("4"))], REGISTRY)
    assert REGISTRY.params(state, "ownership")["rent_per_number"] == 4
    assert state.rules.rule("VI.9").text == VI9.format("4")  # the words the players voted on
    assert [c.params for c in changes] == [[("ownership", "rent_per_number", 3, 4)]]
    assert disagreements(state, REGISTRY) == []


def test_an_amend_that_changes_more_sets_nothing():
    state = _state()
    more = "A player who lands on a square owned by another player pays the owner twice the square's number."
    assert amended_values(state, REGISTRY, "VI.9", more) is None
    assert amended_values(state, REGISTRY, "VI.9", VI9.format("4").replace("that owner", "the Bank")) is None
    changes = carry_out(state, 7, [Directive("amend", "VI.9", more)], REGISTRY)
    assert changes[0].params is None
    assert REGISTRY.params(state, "ownership")["rent_per_number"] == 3
    # the text now says 2 while the engine charges 3: that is what check reports
    assert disagreements(state, REGISTRY) == [
        "rule VI.9 says 2 but ownership.rent_per_number is 3; make them agree with "
        "`nomopoly ruling set ownership rent_per_number 2` (or correct the text)"]


def test_an_amend_to_a_value_out_of_bounds_is_refused_when_checked():
    state = _state()
    problem = check(state, [Directive("amend", "VI.9", VI9.format("2000000000"))], REGISTRY)
    assert problem is not None and "ownership.rent_per_number" in problem


def test_the_word_diff_shows_what_went_out_and_came_in():
    assert word_diff("costs you three times the square's number", "costs you twice the square's number") == \
        "costs you -three -times +twice the square's number"


def test_an_amend_that_changes_more_asks_the_admin_with_the_difference():
    from admin.jobs.scenario import run
    from admin.jobs.todo import todo_items

    outcome = run({
        "game": "nomopoly2", "players": ["alice", "bob"], "disable": ["endgame"],
        "updates": [
            {"mail": {"alice": "PROPOSE Cheaper\nAMEND VI.9: A player who lands on a square owned by another "
                               "player pays the owner twice the square's number.\nEND"},
             "order": ["alice", "bob"], "dice": [1, 2, 1, 3]},
            {"mail": {"alice": "VOTE 1 YES", "bob": "VOTE 1 YES"}, "order": ["alice", "bob"],
             "dice": [1, 2, 1, 2], "draws": ["2S", "3S", "4S"]},
        ]}, "inline")
    assert ("alice made proposal 1: Cheaper (1 change(s) to the rules). Rule VI.9 as amended changes more than "
            "the numbers it states: if accepted, the Admin decides what the game does.") in [
        e.text for e in outcome.events]
    review = [e.text for e in outcome.events if e.kind == "review"]
    assert len(review) == 1 and review[0].endswith(
        "Its text changed more than its numbers (- out, + in): -Landing +A +player +who +lands on a square "
        "-that -belongs -to +owned +by another player -in +pays the -game -costs -you -three -times +owner "
        "+twice the square's -number -in -Nomopoly -dollars, -paid -to -that -owner. +number.")
    assert REGISTRY.params(outcome.state, "ownership")["rent_per_number"] == 3
    todo = [t.text for t in todo_items(outcome.state, outcome.events)]
    assert review[0] in todo


def test_check_fails_when_a_rule_was_edited_by_hand(tmp_path):
    root = tmp_path / "g"
    jobs.init_game(root)
    ok = CliRunner().invoke(cli, ["check", "--game", str(root)])
    assert ok.exit_code == 0, ok.output
    board = next((root / "rules_md").glob("06-*.md"))
    board.write_text(board.read_text(encoding="utf-8").replace("costs you three times", "costs you five times"),
                     encoding="utf-8")
    bad = CliRunner().invoke(cli, ["check", "--game", str(root)])
    assert bad.exit_code == 1
    assert "rule VI.9 says 5 but ownership.rent_per_number is 3" in bad.output


def test_the_admins_ruling_set_rewrites_the_rule_on_the_rules_page_and_check_stays_happy(game_dir):
    from datetime import datetime

    from admin.jobs import update as jobs
    from admin.site.build import build

    queued = CliRunner().invoke(cli, ["--game", str(game_dir.root), "ruling", "set", "ownership",
                                      "rent_per_number", "4", "--reason", "dearer rent"])
    assert queued.exit_code == 0, queued.output
    jobs.run_update_job(game_dir, at=datetime.fromisoformat("2026-11-04T23:59:59+00:00"))
    assert game_dir.load().rules.rule("VI.9").text == VI9.format("four")
    build(game_dir, game_dir.root / "site")
    page = " ".join((game_dir.root / "site" / "rules.html").read_text(encoding="utf-8").split())
    assert "costs you four times the square's number" in page and "costs you three times" not in page
    ok = CliRunner().invoke(cli, ["check", "--game", str(game_dir.root)])
    assert ok.exit_code == 0, ok.output


def _found(game: str, modules: set[str]) -> dict[tuple[str, str], int]:
    return {(s.rule, s.key): s.found.value for s in stated(_state(game), REGISTRY)
            if s.found and s.module in modules}


def test_nomopoly2s_sections_state_their_mechanics_numbers():
    found = _found("nomopoly2-full", {"bank", "casinos", "credit-cards", "blocks", "railroads"})
    assert found == {("XXVII.1", "square"): 30, ("XXVII.1", "interest_percent"): 2,
                     ("XXVII.1", "governor_interest_percent"): 3,
                     ("XXXIII.1", "weekly_income"): 50, ("XXXIII.2", "plays_per_update"): 3,
                     ("XXXIII.2", "blackjack_max_bet"): 500, ("XXXIII.2", "dealer_stands_on"): 17,
                     ("XXXIII.2", "poker_max_bet"): 25, ("XXXIII.2", "roulette_max_bet"): 50,
                     ("XXXIII.2", "roulette_number_pays"): 36, ("XXXIII.2", "roulette_colour_pays"): 2,
                     ("XXXIII.2", "roulette_five_pays"): 7, ("XXXIII.5", "salad_health"): 5,
                     ("XXXIII.5", "grease_health"): 3, ("XXXIII.5", "grease_max_per_move"): 12,
                     ("XXVIII.2", "start_limit"): 1000, ("XXVIII.3", "start_limit"): 1000,
                     ("XXVIII.5", "interest_percent"): 10, ("XXVIII.5", "minimum_payment"): 50,
                     ("XXVIII.5", "minimum_percent"): 5,
                     ("XXI.3", "cost_residential"): 500, ("XXI.4", "cost_industrial"): 500,
                     ("XXI.5", "cost_commercial"): 1000, ("XXI.6", "cost_government"): 750,
                     ("XVII.1", "build_cost"): 25}
    buildings = _found("nomopoly2-full", {"buildings"})
    assert len(buildings) == 20 and buildings[("XXII.4", "cost_corporate_headquarters")] == 1000
    assert _found("nomopoly2-full", {"missiles"})[("XXVI.6", "icbm_cost")] == 1000


def test_setting_a_games_own_parameter_rewrites_its_rule_in_its_own_words():
    state = _state("nomopoly2-full")
    set_param(state, REGISTRY, "buildings", "cost_casino", 650)
    set_param(state, REGISTRY, "casinos", "roulette_colour_pays", 3)
    assert "Casino (any block; $650): see section XXXIII." in state.rules.rule("XXII.4").text
    assert "on its colour, 3 times the bet" in state.rules.rule("XXXIII.2").text
    assert disagreements(state, REGISTRY) == []


def test_the_teams_variants_rules_state_their_mechanics_numbers():
    found = _found("nomoteams", {m.name for m in _state("nomoteams").modules if m.name.startswith("teams")})
    assert found == {("VIII.6", "corporate_rent_percent"): 20, ("VIII.7", "property_tax_percent"): 5,
                     ("VIII.12", "homestead_weeks"): 3, ("XXVIII.3", "dice_per_roll"): 4,
                     ("XXVIII.6", "lodge_fine"): 50, ("X.3", "park_fee"): 10, ("X.4", "register_cost"): 100,
                     ("X.7", "zoo_fine"): 25, ("X.7", "zoo_extra_fine"): 5, ("XIII.3", "paint_cost"): 50,
                     ("XIII.4", "can_cost"): 100, ("XIII.5", "gipper_fee"): 50, ("XIII.9", "tefflon_cost"): 300,
                     ("XIII.10", "detefflon_cost"): 300, ("XIII.11", "glue_per_number"): 10,
                     ("VII.4", "speeding_fine"): 40, ("VII.4", "speeding_fine_step"): 15,
                     ("VII.6", "lucky_speeding_fine"): 50, ("IX.6", "accepted_award"): 100,
                     ("IX.6", "rejected_fine"): 10, ("IX.9", "simplifies_award"): 100,
                     ("II.4", "friendship_gap_weeks"): 2, ("II.8", "corporate_markup_percent"): 120,
                     ("XVIII.4", "insurance_cost"): 500, ("XXI.1", "per_week"): 2, ("XXI.4", "taxi_per_move"): 10,
                     ("XXI.4", "through_blockbusters"): 500, ("XXI.5", "through_blockbusters"): 500,
                     ("XXVII.2", "court_fee"): 150, ("XXVII.3", "extra_die_cost"): 50,
                     ("XXVII.4", "chains_per_bit"): 10, ("XXVII.5", "max_chains"): 100,
                     ("XIX.1", "expire_weeks"): 2, ("XIX.4", "disarm_payment"): 50,
                     ("IV.6", "clear_credit_cost"): 200, ("IX.2", "undecided_max"): 2,
                     ("XXVII.3", "trial_dice"): 2, ("XIX.10", "bot_absorptions"): 3,
                     ("XIX.10", "bot_explodes_at"): 3, ("XXXVI.4", "phantom_turns"): 3}
    state = _state("nomoteams")
    set_param(state, REGISTRY, "teams", "friendship_gap_weeks", 3)
    assert "until three weeks after her last friendship ended" in state.rules.rule("II.4").text


def test_the_first_nomopolys_rules_state_its_mechanics_numbers():
    found = _found("nomopoly1", {"wages", "fountains", "bank-of-nomopoly", "donuts", "weapons"})
    assert found == {("XXXVI.2", "base_wage"): 100, ("XXXVI.2", "steal_percent"): 5,
                     ("XXXVI.2", "heal_cost"): 200, ("XXXVI.2", "heal_amount"): 10, ("XXXVI.2", "health_max"): 100,
                     ("XV.1", "donation"): 10, ("XV.2", "health_step"): 10,
                     ("XV.2", "health_max"): 100, ("XV.2", "wealth_gain"): 30, ("XV.2", "wealth_loss"): 50,
                     ("XXXIII.1", "square"): 10, ("XXXIII.2", "max_loan"): 2500,
                     ("XXXIII.2", "interest_percent"): 5, ("XXXIII.3", "bond_price"): 100,
                     ("XXXIII.3", "bond_return"): 103, ("XII.3", "poison_health_loss"): 5,
                     ("XII.4", "shop_digit"): 8, ("XII.4", "antidote_price"): 150, ("XII.5", "lucky_cash"): 500,
                     ("XXXII.1", "shop"): 62, ("XXXII.2", "bomb_weeks"): 2, ("XXXII.2", "bomb_reach"): 3,
                     ("XXXII.2", "bomb_damage"): 15, ("XXXII.2", "flame_damage"): 15}
    assert len(_found("nomopoly1", {m.name for m in _state("nomopoly1").modules})) == 64
    state = _state("nomopoly1")
    set_param(state, REGISTRY, "fountains", "wealth_loss", 75)
    set_param(state, REGISTRY, "latex-suits", "wear_out_in", 60)
    assert "a non-donor who rolls 1-3 loses $75." in state.rules.rule("XV.2").text
    assert "breaks from wear one time in sixty," in state.rules.rule("XXXV.4").text


def test_timopolys_and_technopolys_rules_state_their_mechanics_numbers():
    assert _found("timopoly", {"timo-board", "timo-deeds", "timo-building"}) == {
        ("V.7", "doubles_to_jail"): 3, ("VI.1", "huge_o"): 20, ("VI.3", "huge_o"): 20,
        ("XI.1", "doubles_to_jail"): 3, ("XI.4", "jail_turns"): 3, ("XI.7", "jail_fine"): 5,
        ("XI.8", "jail_fine"): 5, ("XIX.2", "web_rent"): 2, ("XIX.3", "publisher_rent"): 5,
        ("XIII.3", "max_noms"): 5, ("XV.2", "max_noms"): 5, ("XVI.1", "unmortgage_interest"): 10}
    assert _found("technopoly", {"techno"}) == {("III.1", "hand"): 3, ("III.1", "robots"): 2}
    state = _state("timopoly")
    set_param(state, REGISTRY, "timo-deeds", "publisher_rent", 2)
    assert state.rules.rule("XIX.3").text.startswith("The rant of a Publisher is two times the lander's last throw")
    set_param(state, REGISTRY, "timo-board", "huge_o", 25)
    assert "collects Fn 25 from the Fandom" in state.rules.rule("VI.1").text
    assert "collects Fn 25 twice" in state.rules.rule("VI.3").text


def test_a_proposal_that_amends_a_rule_and_sets_its_parameter_to_the_same_number_is_carried_out():
    # the nomopoly2-full demo's proposal 1: before XXXIII.1 stated weekly_income, players wrote both
    state = _state("nomopoly2-full")
    new = "Each week, the owner of a square that has a Casino on it receives $75 from that Casino."
    changes = carry_out(state, 1, [Directive("amend", "XXXIII.1", new),
                                   Directive("set", "casinos.weekly_income", "75")], REGISTRY)
    assert state.rules.rule("XXXIII.1").text == new
    assert REGISTRY.params(state, "casinos")["weekly_income"] == 75
    assert [(c.rule_id, c.action) for c in changes] == [("XXXIII.1", "amended"), ("module:casinos", "set")]
    assert [r.proposal for r in state.rule_history["XXXIII.1"]][-1] == 1  # one revision, by the proposal
    assert disagreements(state, REGISTRY) == []
