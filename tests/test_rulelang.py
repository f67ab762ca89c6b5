"""The controlled English of rules players write (admin/nomic/rulelang): what it reads, the words it
restates them in, and what it refuses, quoting the words it could not read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from admin.nomic.rulelang.model import (
    MAX_AMOUNT, Condition, Effect, NotUnderstood, Rule, SquareRef, Trigger, Vocabulary,
)
from admin.nomic.rulelang.parse import parse_rule
from admin.nomic.rulelang.words import rule_words

BANK_200 = Effect("money", 200, "bank")

# the rules issue 33 names, as a player of Nomopoly II would propose them
EXAMPLES = {
    "A player who lands on the lowest numbered square receives $200 from the Admin Bank Account.":
        Rule("player", Trigger("lands", SquareRef("lowest")), (), (BANK_200,)),
    "A player who rolls doubles pays $50 to the Admin Bank Account.":
        Rule("player", Trigger("doubles"), (), (Effect("money", -50, "bank"),)),
    "At the end of each week, every player with less than $100 receives $100 from the Admin Bank Account.":
        Rule("every_player", Trigger("week_end"), (Condition("money", "<", 100),), (Effect("money", 100, "bank"),)),
    "A player who passes square 10 loses 5 health.":
        Rule("player", Trigger("passes", SquareRef("number", 10)), (), (Effect("health", -5),)),
    "A player who lands on a square owned by another player also pays $10 to the Admin Bank Account.":
        Rule("player", Trigger("lands", SquareRef("owned_by_other")), (), (Effect("money", -10, "bank"),)),
}


@pytest.mark.parametrize("text", list(EXAMPLES))
def test_the_issues_example_rules_are_read_as_a_player_means_them(text):
    assert parse_rule(text) == EXAMPLES[text]


def test_a_rule_is_restated_in_plain_words():
    rule = parse_rule("At the end of each week, every player with less than $100 receives $100 from the "
                      "Admin Bank Account.")
    assert isinstance(rule, Rule)
    assert rule_words(rule) == ("At the end of every week: every player who has less than $100 receives $100 "
                                "from the Admin Bank Account.")


@pytest.mark.parametrize("text, rule", [
    ("Every time a player lands on or passes Square #1, he receives $1200.",
     Rule("player", Trigger("lands_or_passes", SquareRef("number", 1)), (), (Effect("money", 1200, "bank"),))),
    ("When a player lands on a square they own, they gain 10 health and draw a card.",
     Rule("player", Trigger("lands", SquareRef("owned_by_self")), (), (Effect("health", 10), Effect("draw", 1)))),
    ("If a player rolls a total of 12, he must pay $5 for each square he owns to the Admin Bank Account.",
     Rule("player", Trigger("total", total=12), (), (Effect("money", -5, "bank", per_square_owned=True),))),
    ("Whenever a player lands on an unowned square and has more than $500, they pay $25 to each other player.",
     Rule("player", Trigger("lands", SquareRef("unowned")), (Condition("money", ">", 500),),
          (Effect("money", -25, "each_other"),))),
    ("A player who lands on square 7 moves back 3 squares and loses a turn.",
     Rule("player", Trigger("lands", SquareRef("number", 7)), (), (Effect("move_by", -3), Effect("lose_turn", 1)))),
    ("At the start of each update, if the Admin Bank Account has more than $5,000, every player who owns no "
     "squares receives $50.",
     Rule("every_player", Trigger("update_start"), (Condition("bank", ">", 5000), Condition("squares", "==", 0)),
          (Effect("money", 50, "bank"),))),
    ("A player who pays rent receives $1 from each other player.",
     Rule("player", Trigger("pays_rent"), (), (Effect("money", 1, "each_other"),))),
])
def test_rules_written_as_the_seeds_write_them_are_read(text, rule):
    assert parse_rule(text) == rule


@pytest.mark.parametrize("text, unread, expected", [
    ("A player who lands on square 7 dances a jig.", "dances a jig.", "what happens"),
    ("Players who like cheese get $5.", "Players who like cheese get $5.", "a rule that starts"),
    ("A player who lands on square 7 receives $5 on Tuesdays.", "on Tuesdays.", "the end of the rule"),
    ("A player who juggles receives $5.", "juggles receives $5.", "what the player does"),
    ("A player who lands on square 99999999999 receives $5.", "99999999999", "a square number of at most 10,000"),
    ("A player who lands on square 3 receives $1000001.", "1000001", f"an amount of money of at most {MAX_AMOUNT:,}"),
])
def test_a_rule_it_cannot_read_names_the_words_where_reading_stopped(text, unread, expected):
    result = parse_rule(text)
    assert isinstance(result, NotUnderstood)
    assert result.unread == unread and expected in result.expected
    assert f"could not read {unread!r}" in str(result)


def test_a_rule_speaks_the_games_own_words_and_nothing_it_lacks():
    fans = Vocabulary(currency="Fn {}", health=False)
    rule = parse_rule("A player who lands on square 3 receives Fn 5.", fans)
    assert rule == Rule("player", Trigger("lands", SquareRef("number", 3)), (), (Effect("money", 5, "bank"),))
    assert isinstance(rule, Rule) and rule_words(rule, fans).endswith("receives Fn 5 from the Admin Bank Account.")
    refused = parse_rule("A player who lands on square 3 loses 5 health.", fans)
    assert isinstance(refused, NotUnderstood)
    assert refused.unread == "loses 5 health." and "keeps no health" in refused.expected
    boardless = parse_rule("A player who passes square 3 receives $5.", Vocabulary(squares=False))
    assert isinstance(boardless, NotUnderstood) and "no board" in boardless.expected


def test_a_very_long_rule_is_refused_without_being_read():
    result = parse_rule("A player who lands on square 3 receives $5" + " and receives $5" * 500 + ".")
    assert isinstance(result, NotUnderstood) and "at most 2,000 characters" in result.expected


# every rule the language can say: its restatement reads back as the very same rule
amounts = st.integers(min_value=1, max_value=MAX_AMOUNT)
squares = st.one_of(st.builds(SquareRef, st.just("number"), st.integers(1, 10_000)),
                    st.sampled_from([SquareRef(k) for k in ("lowest", "highest", "any", "owned_by_other",
                                                            "owned_by_self", "unowned")]))
player_triggers = st.one_of(
    st.builds(Trigger, st.sampled_from(["lands", "passes", "lands_or_passes"]), squares),
    st.builds(Trigger, st.sampled_from(["passes", "lands_or_passes"]), st.just(SquareRef("end"))),
    st.builds(lambda n: Trigger("total", total=n), st.integers(2, 1000)),
    st.sampled_from([Trigger(k) for k in ("doubles", "pays_rent", "buys", "draws")]),
)
timed = st.sampled_from([Trigger(k) for k in ("update_start", "update_end", "week_start", "week_end")])
ops = st.sampled_from(["<", "<=", ">", ">=", "=="])
conditions = st.one_of(
    st.builds(Condition, st.sampled_from(["money", "health", "squares", "cards", "bank", "number"]), ops,
              st.integers(1, 10_000)),
    st.sampled_from([Condition("squares", "==", 0), Condition("cards", "==", 0)]),
)
effects = st.one_of(
    st.builds(lambda n, party, each: Effect("money", n, party, each), amounts, st.sampled_from(["bank", "each_other"]),
              st.booleans()),
    st.builds(lambda n, party, each: Effect("money", -n, party, each), amounts,
              st.sampled_from(["bank", "each_other", "owner"]), st.booleans()),
    st.builds(lambda n, sign: Effect("health", n * sign), amounts, st.sampled_from([1, -1])),
    st.builds(lambda n, sign: Effect("move_by", n * sign), st.integers(1, 10_000), st.sampled_from([1, -1])),
    st.builds(lambda n: Effect("move_to", n), st.integers(1, 10_000)),
    st.sampled_from([Effect("move_to", 0), Effect("move_to", -1), Effect("draw", 1), Effect("lose_turn", 1)]),
)
rules = st.one_of(
    st.builds(Rule, st.just("player"), player_triggers, st.lists(conditions, max_size=3).map(tuple),
              st.lists(effects, min_size=1, max_size=3).map(tuple)),
    st.builds(Rule, st.sampled_from(["every_player", "every_other_player"]), timed,
              st.lists(conditions, max_size=3).map(tuple), st.lists(effects, min_size=1, max_size=3).map(tuple)),
)


def _canonical(rule: Rule) -> Rule:
    """The order the restatement puts conditions in: for everyone, those on the Admin Bank Account
    and the square first."""
    if rule.who == "player":
        return rule
    first = tuple(c for c in rule.conditions if c.quantity in ("bank", "number"))
    rest = tuple(c for c in rule.conditions if c.quantity not in ("bank", "number"))
    return Rule(rule.who, rule.trigger, first + rest, rule.effects)


@settings(max_examples=400, deadline=None)
@given(rules)
def test_every_rule_restated_in_words_reads_back_as_the_same_rule(rule):
    words = rule_words(rule)
    assert parse_rule(words) == _canonical(rule), words


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_either_a_rule_or_says_where_reading_stopped(text):
    result = parse_rule(text)
    assert isinstance(result, (Rule, NotUnderstood))
