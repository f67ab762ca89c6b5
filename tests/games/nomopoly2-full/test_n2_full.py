"""Nomopoly II with its whole rulebook in force (the bundled game nomopoly2-full): what no single
section's tests can see. Every command keyword is claimed by one module only, and a two-word
keyword (BUY TRANSPORT) never hides a line a player would write for a one-word command (BUY 14);
the modules run in the order precedence needs. The cross-section paths themselves are scenarios
(tests/games/nomopoly2/scenarios/, run by test_scenarios.py)."""

import json
import subprocess
import sys
from collections import Counter

import pytest

from admin.engine.errors import CommandError
from admin.games.catalog import initial_state, spec
from admin.mail.inbound.grammar import _core_only, grammar_for, parse_text
from admin.games.registry import REGISTRY

FULL = "nomopoly2-full"


@pytest.fixture(scope="module")
def full():
    return initial_state(FULL, "full")


def keywords(state) -> Counter:
    core = _core_only()
    return Counter([*core.line, *core.block, *(sp.keyword.upper() for _, sp in REGISTRY.specs(state))])


def test_no_two_modules_claim_the_same_keyword(full):
    assert sorted(k for k, n in keywords(full).items() if n > 1) == []
    # nor the same typed command (the command table keeps the first module's)
    cmds = Counter((sp.command.cmd, m.name) for m, sp in REGISTRY.specs(full))
    by_cmd = Counter(cmd for cmd, _ in cmds)
    assert sorted(c for c, n in by_cmd.items() if n > 1) == []


#: what a player writes after a one-word command's keyword, in every shape its parser reads
TAILS = ("", " 14", " ON 14", " 1 YES", " alice", " 100", " AT 14", " Night 20", " TO 14")

#: a one-word command whose argument is free text: the module that makes such names refuses one a
#: two-word keyword would hide (xxxiv1-a-patent-name-that-starts-another-command.yaml)
FREE_TEXT = {"PLAY"}


def test_a_two_word_keyword_hides_no_one_word_command(full):
    specs = {sp.keyword.upper(): sp for _, sp in REGISTRY.specs(full)}
    pairs = sorted(k for k in specs if " " in k and k.split()[0] in specs)
    # the pairs there are with every section in force: if one is added, look at it here
    assert pairs == ["BID GOVERNOR", "BUILD RAILROAD", "BUY AUTO-SHUFFLER", "BUY FLOWER", "BUY FUEL", "BUY GREASE",
                     "BUY JOKER", "BUY MISSILE", "BUY SALAD", "BUY SHOVEL", "BUY TRANSPORT", "BUY WEIGHTED",
                     "PLACE GLUE", "PLACE GREASE", "PLACE TIME", "PLAY BLACKJACK", "PLAY POKER", "PLAY ROULETTE",
                     "PRESS OFF", "PRESS ON", "VOTE GOVERNOR", "WITHDRAW MONEY"]
    hidden = []
    for pair in pairs:
        one, second = pair.split()
        if one in FREE_TEXT:
            continue
        for tail in TAILS:
            try:
                if specs[one].block:  # PRESS: "PRESS TO ..." then its text; PRESS OFF reads as no press
                    specs[one].parse(second + tail, None, [])
                else:
                    specs[one].parse(second + tail, None)
            except CommandError:
                continue
            hidden.append(f"{one} {second}{tail}")
    assert hidden == []


@pytest.mark.parametrize("line, cmd", [
    ("BUY 14", "buy"), ("BUY", "buy"), ("BUY TRANSPORT CAR", "transport-buy"), ("BUY FUEL 100", "transport-fuel"),
    ("BUY MISSILE CRUISE AT 15", "buy-missile"), ("BUY JOKER", "casino-buy"), ("BUILD HOUSE ON 14", "build"),
    ("BUILD RAILROAD ON 14", "build-railroad"), ("PLACE QH ON 14", "place"), ("PLACE GLUE", "hoc-use"),
    ("PLACE TIME BOMB", "hoc-place-time-bomb"), ("WITHDRAW 7", "withdraw"), ("WITHDRAW MONEY 100", "bank-move"),
    ("VOTE 7 YES", "vote"), ("VOTE GOVERNOR alice", "vote-governor"), ("BID 3 250", "answer"),
    ("BID GOVERNOR 100", "bid-governor"), ("PLAY BLACKJACK 100", "casino-play"), ("PLAY Dice Duel 20", "play-patented"),
])
def test_each_line_reads_as_the_command_its_writer_meant(full, line, cmd):
    [verdict] = parse_text(line, grammar_for(full))
    assert verdict.error is None, verdict.error
    assert verdict.command.cmd == cmd


RULEBOOK = ["blackjack", "railroads", "lottery", "zoo", "trading", "blocks", "buildings", "terrorism",
            "house-of-cards", "nonsense", "missiles", "bank", "credit-cards", "transport", "net-worth", "bingo",
            "exploit-blocks", "casinos", "patents", "governor"]


def test_the_optional_sections_are_listed_and_enabled_in_the_rulebooks_order():
    assert list(spec("nomopoly2").optional) == RULEBOOK
    assert spec(FULL).enabled_optional == RULEBOOK


def test_the_full_games_modules_run_in_the_order_precedence_needs(full):
    names = [m.name for m in full.modules]
    assert names == ["schedule", "board", "money", "turns", "ownership", "cards", "health", "proposals", "players",
                     "written-rules", "endgame", "talk", "jokers", "blackjack", "railroads", "interactions",
                     "conditions", "lottery", "blocks",
                     "buildings", "casinos", "transport", "house-of-cards", "bingo", "zoo", "trading", "terrorism",
                     "nonsense", "missiles", "bank", "credit-cards", "net-worth", "exploit-blocks", "patents",
                     "governor"]


def _before(names, first, then):
    return names.index(first) < names.index(then)


@pytest.mark.parametrize("order", [RULEBOOK, list(reversed(RULEBOOK))])
def test_precedence_holds_whatever_order_proposals_enable_the_sections_in(order):
    from admin.engine.config import enable_module

    state = initial_state("nomopoly2", "by-proposals")
    for name in order:
        if not state.enabled(name):
            enable_module(state, REGISTRY, name)
    names = [m.name for m in state.modules]
    assert _before(names, "casinos", "transport")          # the Weighted Die, then the car's fuel
    assert _before(names, "transport", "house-of-cards")   # a helicopter's move is not a mask's
    for landing in ("blackjack", "blocks", "buildings", "house-of-cards", "transport", "bingo"):
        assert _before(names, landing, "zoo")              # the banana peel's slip comes last
    assert _before(names, "conditions", "bank")            # rent immunity, then the mortgage (last)
    assert _before(names, "cards", "health") and _before(names, "health", "buildings")  # XIV.4, VI.14, XXII.5


def test_every_commands_example_reads_as_that_command_with_every_section_in_force(full):
    """The how-to page's example of each command (a block's lines are written " / ") is read as that
    command by the full game's grammar: no other module's keyword takes it."""
    wrong = []
    for module, sp in REGISTRY.specs(full):
        text = sp.example.replace(" / ", "\n") if sp.block else sp.example
        if sp.block and not text.rstrip().endswith("END"):
            text += "\nIts text.\nEND"
        [verdict, *_] = parse_text(text, grammar_for(full))
        if verdict.error or type(verdict.command) is not sp.command:
            wrong.append((module.name, sp.keyword, sp.example, verdict.error))
    assert wrong == []


def test_a_line_with_more_after_a_bare_item_is_quoted_as_written(full):
    [verdict] = parse_text("PLACE TIME BOMB ON 14", grammar_for(full))
    assert verdict.error == ('"PLACE TIME BOMB ON 14": "PLACE TIME BOMB ON 14" is not understood; write PLACE TIME '
                             'BOMB, with nothing after it')


def test_nothing_private_of_any_section_reaches_the_public_export_panels_or_events():
    """A bank balance, a credit card's balance and limit, a hand, a lottery ticket's lines, the
    dealer's hole card and a hidden time bomb, with every section in force."""
    import json

    from admin.games.nomopoly2.mechanics.lottery import LotteryModule
    from admin.jobs.scenario import run
    from admin.site.export import public_status

    outcome = run({
        "game": FULL, "board": 40, "paused": True,
        "players": {
            "alice": {"square": 14, "bank_balance": 4321, "credit_card": True, "credit_limit": 1313,
                      "credit_balance": 777, "hand": ["QS", "9C"]},
            "bob": {"square": 17, "hoc_items": {"time bomb": 1}},
            "carol": {}},
        "squares": {7: {"owner": "bob", "block": "commercial 7 8 13 14"}, 8: {"owner": "bob"},
                    13: {"owner": "bob"}, 14: {"owner": "bob", "buildings": ["casino"]}},
        "updates": [{"mail": {"alice": "PLAY BLACKJACK 100\nLOTTERY TICKET 9C", "bob": "PLACE TIME BOMB"},
                     "draws": ["10H", "6C", "9S", "7D"]}],
    }, "privacy")
    state = outcome.state
    (ticket,) = LotteryModule.private_of(state).tickets
    assert state.private.mods["casinos"].hole and state.private.mods["house-of-cards"].bombs == {17: "bob"}
    public = json.dumps(public_status(state))
    public += " ".join(repr(m.panels(state)) for m in REGISTRY.enabled(state))
    public += " ".join(e.text or "" for e in outcome.events)
    secrets = ["4321", "1313", "777", "QS", "queen of spades", "7D", "7 of diamonds", "time bomb on square 17",
               *(" ".join(map(str, line)) for line in ticket.lines)]
    assert [s for s in secrets if s in public] == []
    # the private side holds them: they were really there to leak
    from admin.site.export import private_status

    private = json.dumps(private_status(state), default=str) + " ".join(e.private or "" for e in outcome.events)
    assert [s for s in secrets if s not in private] == ["queen of spades", "7 of diamonds"]  # kept as QS, 7D


def test_on_credit_added_to_buy_and_build_railroad_leaves_their_logged_form_and_the_dice_as_they_were():
    """A field added later is left out of the log while it has its default: games played before
    it (the demo's story) draw the same dice from the same mail."""
    from admin.engine.commands import command_from_dict, command_to_dict
    from admin.library.ownership import Buy
    from admin.games.nomopoly2.mechanics.railroads import BuildRailroad

    assert command_to_dict(Buy(14)) == {"cmd": "buy", "square": 14}
    assert command_to_dict(BuildRailroad(9)) == {"cmd": "build-railroad", "square": 9}
    assert command_to_dict(Buy(14, True)) == {"cmd": "buy", "square": 14, "on_credit": True}
    assert command_from_dict({"cmd": "buy", "square": 14}) == Buy(14)
    assert command_from_dict(command_to_dict(BuildRailroad(9, True))) == BuildRailroad(9, True)


@pytest.mark.parametrize("game", ["nomopoly2", FULL])
def test_every_automated_rule_has_a_test_or_scenario_of_its_own_game_family(game):
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", game, "--json"],
                         capture_output=True, text=True, check=True)
    untested = [r["rule"] for r in json.loads(out.stdout)["rules"] if r["status"] == "automated" and not r["tests"]]
    assert untested == []
