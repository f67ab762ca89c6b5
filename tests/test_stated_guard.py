"""A guard so the games' future parameters are declared stated (issue 33, item 1): a mechanic's
whole-number parameter whose default value appears in the text of one of its rules near a word of
the parameter's name must be declared in the mechanic's ``stated`` for that rule, or be listed
below with the reason it is not (a heuristic: each entry is a false positive or a known gap)."""

from __future__ import annotations

import re

from admin.games import catalog as games
from admin.games.registry import REGISTRY
from admin.nomic.stated import _NAMES

#: characters either side of the number that are searched for a word of the parameter's name
WIDTH = 30

_SAME_VALUE = "another parameter of the same value stands there (a false positive)"
_TWICE = "the rule states it twice; a declaration rewrites one place only (a known gap)"
_NEEDS_OTHER = "the only phrase that pins it down holds another parameter's number (a known gap)"
ALLOWED: dict[tuple[str, str, str], str] = {
    ("bingo", "XXXI.3", "immunity_updates"): _TWICE,
    ("blocks", "XXI.3", "cost_industrial"): _SAME_VALUE,
    ("blocks", "XXI.4", "cost_residential"): _SAME_VALUE,
    ("buildings", "XXII.4", "store_dollars"): "the Mall's $200 comes first; the Store's phrase holds its price",
    ("casinos", "XXXIII.2", "answer_updates"): _SAME_VALUE,
    ("casinos", "XXXIII.5", "answer_updates"): _SAME_VALUE,
    ("chili", "XXIII.4", "feed_per_week"): "a damage in the weight table (a false positive)",
    ("governor", "XXXV.1", "first_week"): _SAME_VALUE,
    ("governor", "XXXV.2", "first_week"): _SAME_VALUE,
    ("lottery", "XVIII.1", "bonus_line_numbers"): _SAME_VALUE,
    ("lottery", "XVIII.3", "numbers"): _SAME_VALUE,
    ("lottery", "XVIII.4", "bonus_line_numbers"): "the prize table's '7 numbers right' (numbers drawn, stated in XVIII.1)",
    ("lottery", "XVIII.4", "line_numbers"): "the prize table's '6 numbers right' (stated in XVIII.3)",
    ("lottery", "XVIII.4", "numbers"): "the prize table's '7 numbers right' (stated in XVIII.1)",
    ("missiles", "XXVI.1", "per_update"): "'one missile': another number would need 'missiles' (a known gap)",
    ("missiles", "XXVI.6", "biological_chance"): _NEEDS_OTHER,
    ("missiles", "XXVI.6", "biological_range"): _NEEDS_OTHER,
    ("missiles", "XXVI.6", "chemical_chance"): _NEEDS_OTHER,
    ("missiles", "XXVI.6", "chemical_range"): _NEEDS_OTHER,
    ("missiles", "XXVI.6", "cruise_chance"): _NEEDS_OTHER,
    ("missiles", "XXVI.6", "cruise_range"): _NEEDS_OTHER,
    ("missiles", "XXVI.6", "icbm_chance"): _NEEDS_OTHER,
    ("store", "XVII.3", "health_max"): _NEEDS_OTHER,
    ("store", "XVII.3", "jetpack_squares"): _TWICE,
    ("teams-colours", "XIII.5", "paint_cost"): _SAME_VALUE,
    ("teams-ownership", "VIII.11", "white_fine"): _TWICE,
    ("teams-ownership", "X.2", "market_value_per_number"): "'a multiple of 10' (a false positive)",
    ("teams-products", "XIX.4", "disarm_payers"): _TWICE,
    ("teams-proposals", "IX.6", "simplifies_award"): _SAME_VALUE,
    ("teams-proposals", "IX.9", "accepted_award"): _SAME_VALUE,
    ("teams-pseudo", "X.6", "government_cap"): "'$15,000': a rewrite would drop the comma (a known gap)",
    ("techno", "VIII.23", "last_round_without_roll"): "the Transmitter's 'add ten' (a false positive)",
    ("timo-board", "XI.4", "doubles_to_jail"): _SAME_VALUE,
    ("timo-building", "XIV.1", "max_noms"): _TWICE,
    ("transport", "XXIX.3", "fuel_max"): _TWICE,
    ("zoo", "XIX.3", "bison_dice"): "the Skunk's 'two three-sided dice' (a false positive)",
}


def undeclared() -> dict[tuple[str, str, str], str]:
    """(mechanic, rule id, parameter) -> the text around the number, for every game's own
    mechanic whose whole-number default stands near its name's words in a rule not declaring it."""
    out = {}
    for game in games.available():
        state = games.initial_state(game, "guard")
        for config in state.modules:
            mechanic = REGISTRY.known.get(config.name)
            if mechanic is None or not mechanic.__module__.startswith("admin.games."):
                continue
            for key, value in mechanic.defaults.items():
                if isinstance(value, bool) or not isinstance(value, int):
                    continue
                words = [w[:5].lower() for w in key.split("_") if len(w) >= 4]
                forms = {str(value), f"{value:,}"} | ({_NAMES[value]} if value in _NAMES else set())
                number = re.compile(r"(?<![\w.,-])(?:" + "|".join(map(re.escape, forms)) + r")(?![\w-])", re.I)
                for rule_id in REGISTRY.rules_of(state, mechanic.name):
                    if key in mechanic.stated.get(rule_id, {}):
                        continue
                    try:
                        text = state.rules.rule(state.rule_aliases.get(rule_id, rule_id)).text
                    except Exception:  # noqa: BLE001 - a rule this game's rulebook does not have
                        continue
                    for m in number.finditer(text):
                        near = text[max(0, m.start() - WIDTH):m.end() + WIDTH].lower()
                        if any(w in near for w in words):
                            out[(mechanic.name, rule_id, key)] = " ".join(near.split())
    return out


def test_every_number_a_rule_states_of_its_mechanic_is_declared_or_allowed():
    found = undeclared()
    missing = {k: v for k, v in found.items() if k not in ALLOWED}
    assert missing == {}, "declare these in the mechanic's `stated` (or allow them with a reason)"
    assert sorted(k for k in ALLOWED if k not in found) == []  # an entry that no longer fires goes


def test_the_guard_would_catch_an_undeclared_number(monkeypatch):
    from admin.games.nomopoly1.mechanics.wages import WagesModule
    stated = {rule: dict(keys) for rule, keys in WagesModule.stated.items()}
    del stated["XXXVI.2"]["base_wage"]
    monkeypatch.setattr(WagesModule, "stated", stated)
    assert "the starting wage is $100." in undeclared()[("wages", "XXXVI.2", "base_wage")]
