"""The Teams variant's sections XXVII (disputes), XXVIII (the WETHA) and XXXVI (impending doom):
what their scenario files (tests/games/nomoteams/scenarios/xxvii*, xxviii*, xxxvi*) do not reach: the
Penalties' limits and refusals, Chains for a payment one cannot make, the WETHA's extra dollar of
rent, Lodges as the board grows and their standing through destruction, trees, the Tornado's
anchored squares, a tied favourite, the Admin's to-do, the site's pages, and coverage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fixtures.browser import write_state

from admin.jobs import update as jobs
from admin.engine.context import UpdateContext
from admin.engine.schedule import Slot
from admin.games.registry import REGISTRY
from admin.games.nomoteams.mechanics.board import new_square
from admin.games.nomoteams.mechanics.ownership.mechanic import destroy
from admin.games.nomoteams.mechanics.shared import WETHA, marked, mentioned_squares, owner_of
from admin.jobs.scenario import run
from admin.site.build import build_site
from admin.jobs.todo import todo_items

GAME = "nomoteams"
TWO = {"alice": {"team": "North"}, "bob": {"team": "South"}}


def _said(out, player: str) -> list[str]:
    return [e.private or e.text or "" for e in out.events if e.player == player]


def test_xxvii1_accusations_are_refused_with_what_is_valid():
    """XXVII.1, XXVII.4, XXVII.5: no self-accusation, no Penalty to the WETHA, Chains of 1-100 lb only,
    a Penalty that is not recognised, a dispute that is not one's own."""
    out = run({"game": GAME, "players": {**TWO, "carol": {"team": "East"}},
               "updates": [{"mail": {"alice": "ACCUSE alice PENALTY PAY 5: me\nACCUSE bob PENALTY PAY 5 TO WETHA: x\n"
                                              "ACCUSE bob PENALTY CHAINS 150: x\nACCUSE bob PENALTY JAIL: x\n"
                                              "ACCUSE bob PENALTY CHAINS 50: he scratched my car",
                                     "carol": "DISPUTE 1 TRIAL"}}]}, "refusals")
    said = " | ".join(_said(out, "alice"))
    assert "you cannot accuse yourself (XXVII.1)" in said
    assert "never to the WETHA (XXVII.4)" in said
    assert "a Chains Penalty is 1 to 100 pounds (XXVII.5); found 150" in said
    assert "'JAIL' is not a recognised Penalty; say PAY <amount>" in said
    assert "alice accused bob (dispute 1)" in said
    assert "dispute 1 is not one of yours; yours still open: none (XXVII.1)" in " | ".join(_said(out, "carol"))
    from admin.games.nomoteams.mechanics.disputes.state import _parse_dispute

    assert _parse_dispute("1 BUY 1 EXTRA DIE", None).value == "1" and _parse_dispute("#2 buy 3 dice", None).value == "3"
    assert _parse_dispute("1 court", None).value == "Court"
    assert _parse_dispute("1 refuse to pay", None).action == "refuse"


def test_xxvii5_a_chains_penalty_and_xxvii4_a_payment_one_cannot_make():
    """XXVII.5: 50 lb of Chains attached to the loser. XXVII.4: bob cannot pay $1000 (he has $950
    after a week's White fine): 10 x ceil(log2 1000) = 100 lb instead, and no money moves."""
    base = {"game": GAME, "players": TWO}
    chains = run({**base, "updates": [{"mail": {"alice": "ACCUSE bob PENALTY CHAINS 50: x"}},
                                      {"rolls": {"dispute/1/1/alice": [6, 6], "dispute/1/1/bob": [1, 2]}}]}, "c")
    assert chains.state.mods["teams-disputes"].chains == {"bob": 50}
    broke = run({**base, "updates": [{"mail": {"alice": "ACCUSE bob PENALTY PAY 1000 TO GOVERNMENT: x"}},
                                     {"rolls": {"dispute/1/1/alice": [6, 6], "dispute/1/1/bob": [1, 2]}}]}, "p")
    assert broke.state.mods["teams-disputes"].chains == {"bob": 100}
    assert broke.state.players["bob"].money == 900  # two White fines only
    assert broke.state.mods["teams-pseudo"].money["The Government"] == 0
    assert "Dispute 1: alice won; bob cannot pay $1000: 100 lb of Chains instead (XXVII.4)." in [
        e.text for e in broke.events]


def test_xxvii2_a_court_waits_in_the_admins_todo_until_decided():
    """XXVII.2: a dispute in the Court is on the Admin's to-do every update until the ruling."""
    data = {"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South", "square": 9}},
            "squares": {9: {"colour": "Red"}},
            "updates": [{"mail": {"alice": "ACCUSE bob PENALTY PAY 10: x"}}, {}, {}]}
    out = run(data, "court")
    last = [e for e in out.events if e.kind == "update"][-1]
    events = out.events[out.events.index(last):]
    todo = [t.line() for t in todo_items(out.state, events)]
    assert any("Dispute 1" in t and "nomopoly ruling decide dispute dispute=1 winner=alice|bob" in t for t in todo)
    data["updates"].append({"rulings": [{"kind": "dispute", "args": {"dispute": 1, "winner": "bob"}, "note": "no"}]})
    done = run(data, "court")
    assert done.state.mods["teams-disputes"].disputes[0].outcome == "bob won (Court); alice: paid $10 to bob (XXVII.4)"
    last = [e for e in done.events if e.kind == "update"][-1]
    assert not [t for t in todo_items(done.state, done.events[done.events.index(last):]) if "Dispute 1" in t.text]


def test_xxviii3_no_roll_under_five_adds_a_dollar_of_rent():
    out = run({"game": GAME, "players": {"alice": {"team": "North", "dues": 1}, "bob": {"team": "South"}},
               "squares": {9: {"owner": "bob", "name": "Elm Street"}},
               "updates": [{"mail": {"alice": "PROPOSE Trees\nMore.\nEND"}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 1, "verdict": "reject"}, "note": "no"}],
                            "dice": [3, 5], "rolls": {"wetha/alice/9/1/1": [2, 2, 2, 2]}}]}, "extra")
    rent = [e for e in out.events if e.kind == "rent"]
    assert [e.text for e in rent] == ["alice paid $19 rent to bob for square 9."]


def test_xxviii4_lodges_come_with_their_squares_and_are_never_destroyed():
    """XXVIII.4: the WETHA owns 28 and 53 once the board reaches them, and 83 only at 83 squares;
    ownership.destroy leaves a Lodge standing; Lodges are pollutants and named in the rules."""
    out = run({"game": GAME, "board": 82, "players": TWO, "updates": []}, "lodges")
    state = out.state
    assert state.mods["teams-wetha"].lodges == [28, 53]
    assert {28, 53} <= mentioned_squares(state) and 83 not in mentioned_squares(state)
    new_square(state)
    assert state.mods["teams-wetha"].lodges == [28, 53, 83] and owner_of(state, 83) == WETHA
    assert marked(state, 53, "pollutant") and marked(state, 53, "lodge") and not marked(state, 52, "pollutant")
    ctx = UpdateContext(state=state, dice=None, slot=Slot("t", 0), registry=REGISTRY)  # type: ignore[arg-type]
    assert destroy(ctx, 28, "a test", "XVIII.1") is False
    assert not state.square(28).destroyed and owner_of(state, 28) == WETHA
    live = len([sq for sq in state.squares if not sq.destroyed])
    assert destroy(ctx, 27, "a test", "XVIII.1") is True  # XVIII.2: the highest square takes its number
    assert len([sq for sq in state.squares if not sq.destroyed]) == live - 1


def test_xxviii5_a_square_named_in_the_rules_is_not_taken():
    """XXVIII.5: alice's second least valuable square is 25 (a National Park given to her): named
    in the rules, so the WETHA takes nothing."""
    out = run({"game": GAME, "board": 30, "players": {"alice": {"team": "North", "square": 20}},
               "squares": {25: {"owner": "alice"}},
               "updates": [{"mail": {"alice": "PROPOSE L\nx\nEND"}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 1, "verdict": "reject"}, "note": "no"}],
                            "dice": [3, 5]}]}, "named")
    assert owner_of(out.state, 25) == "alice" and out.state.mods["teams-wetha"].queue == []
    assert any("25, is part of a Jumpgate or named in the rules" in (e.text or "") for e in out.events)


def test_xxviii8_trees_need_dues_and_a_clean_square_and_go_with_the_square():
    out = run({"game": GAME, "board": 30, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "updates": [{"mail": {"bob": "PLANT TREE ON 12",
                                     "alice": "PAY DUES 1\nPLANT TREE ON 28\nPLANT TREE ON 12\nPLANT TREE ON 12\n"
                                              "PLANT TREE ON 99"}}]}, "trees")
    assert out.state.mods["teams-wetha"].trees == [12]
    assert marked(out.state, 12, "tree")
    said = " | ".join(_said(out, "alice"))
    assert "square 28 has a pollutant: a tree may grow only on a square with no Store" in said
    assert "square 12 has a tree already (XXVIII.8)" in said and "there is no square 99" in said
    assert "only a player who has paid Dues to the WETHA may plant a tree" in " | ".join(_said(out, "bob"))
    ctx = UpdateContext(state=out.state, dice=None, slot=Slot("t", 0), registry=REGISTRY)  # type: ignore[arg-type]
    destroy(ctx, 12, "a test", "XVIII.1")
    assert out.state.mods["teams-wetha"].trees == []


def test_xxviii8_no_tree_on_tefflon_and_no_tefflon_on_a_tree_or_any_coat_on_a_lodge():
    """XXVIII.8: a tree grows on no Tefflon coat, and a tree's square takes no Tefflon (glue is
    none of those); XXVIII.4: a Lodge (28) can be coated with nothing. Refused, nothing paid: alice
    pays Dues $1 and glue on 12 ($10 x 12 = $120); then the week's White square fines (VIII.11): she
    pays $50 on each of 2, 5 and 12 and, the only Dues payer, receives $50 of each of the four fines
    (bob's on 3 too): 1000 - 1 - 120 - 150 + 200 = $929."""
    out = run({"game": GAME, "board": 30, "paused": True,
               "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "squares": {5: {"owner": "alice", "coating": "Tefflon"}, 12: {"owner": "alice"},
                           28: {"owner": "The WETHA"}},
               "updates": [{"mail": {"alice": "PAY DUES 1\nPLANT TREE ON 5\nPLANT TREE ON 12\nTEFFLON 12\nGLUE 12"}}]},
              "tefflon")
    said = " | ".join(_said(out, "alice"))
    assert "square 5 has a Tefflon coat: a tree may grow only on a square with no Store" in said
    assert "square 12 has a tree, so it can take no Tefflon coat (XXVIII.8)" in said
    assert out.state.mods["teams-wetha"].trees == [12]
    assert out.state.mods["teams-coatings"].coatings == {5: "Tefflon", 12: "glue"}
    assert out.state.players["alice"].money == 929
    lodge = run({"game": GAME, "board": 30, "paused": True, "players": {"alice": {"team": "North", "square": 28}},
                 "updates": [{"mail": {"alice": "GLUE 28"}}]}, "lodge")
    assert "square 28 is a Lodge of the WETHA, which can be neither coated nor destroyed (XXVIII.4)" in \
        " | ".join(_said(lodge, "alice"))
    assert lodge.state.mods["teams-coatings"].coatings == {}
    assert not [e for e in lodge.events if e.kind == "coating" or "glue" in (e.data or {}).get("reason", "")]


def test_xxxvi3_the_tornado_leaves_mentioned_squares_in_place():
    """XXXVI.3: squares 1, 10, 20, 25, 28 and 30 are mentioned by the rules: their names and owners
    stay whatever the dice; the others keep what they had, only elsewhere."""
    out = run({"game": GAME, "board": 30, "players": TWO,
               "squares": {10: {"name": "Hall"}, 28: {"name": "Lodge"}, 7: {"name": "Oak", "owner": "bob"}},
               "updates": [{"rulings": [{"kind": "tornado", "args": {}, "note": "now"}], "seed": "storm"}]}, "anchor")
    state = out.state
    assert state.square(10).name == "Hall" and owner_of(state, 10) == "The Government"
    assert state.square(28).name == "Lodge" and owner_of(state, 28) == WETHA
    oak = [s.number for s in state.squares if s.name == "Oak"]
    assert len(oak) == 1 and owner_of(state, oak[0]) == "bob" and oak[0] not in mentioned_squares(state)
    again = run({"game": GAME, "players": TWO, "updates": [{"rulings": [
        {"kind": "tornado", "args": {}, "note": "a"}, {"kind": "tornado", "args": {}, "note": "b"}],
        "seed": "s"}]}, "2")
    assert any("the Tornado struck already, in update 1" in (e.text or "") for e in again.events)


def test_xxxvi6_a_tie_pays_nobody_and_votes_need_a_named_square():
    out = run({"game": GAME, "players": TWO, "squares": {5: {"owner": "bob", "name": "Oak"},
                                                         6: {"owner": "alice", "name": "Elm"}},
               "updates": [{"mail": {"alice": "FAVOURITE SQUARE 5", "bob": "FAVOURITE SQUARE 6\nFAVOURITE SQUARE 7"}},
                           {"rulings": [{"kind": "end-game", "args": {}, "note": "done"}]}]}, "tie")
    assert "square 7 has no name yet" in " | ".join(_said(out, "bob"))
    assert "No square has more votes for favourite square than every other (5, 6 have 1 each): no prize (XXXVI.6)." \
        in [e.text for e in out.events]
    assert out.state.ended and out.state.players["alice"].money == 900


def test_the_disputes_wetha_and_doom_pages_on_the_site(tmp_path: Path):
    out = run({"game": GAME, "board": 30,
               "players": {"alice": {"team": "North", "dues": 3}, "bob": {"team": "South"}},
               "squares": {12: {"tree": True}},
               "updates": [{"mail": {"alice": "ACCUSE bob PENALTY CHAINS 20: he shouted"}}]}, "site")
    game = jobs.init_game(tmp_path / "g", GAME, "Teams")
    write_state(game.root, out.state)
    site = build_site(game)
    disputes = (site / "disputes.html").read_text(encoding="utf-8")
    assert "he shouted" in disputes and "20 lb of Chains" in disputes
    wetha = (site / "wetha.html").read_text(encoding="utf-8")
    assert "Giveaway Queue" in wetha and "alice" in wetha and "$3" in wetha
    assert "Favourite squares" in (site / "doom.html").read_text(encoding="utf-8")


def test_the_commands_are_in_help_and_do_not_clash():
    out = run({"game": GAME, "players": TWO, "updates": [{"mail": {"alice": "HELP"}}]}, "help")
    text = " | ".join(_said(out, "alice"))
    for usage in ("ACCUSE <player> PENALTY <penalty>: <charge>", "PAY DUES <amount>", "PLANT TREE ON <square>",
                  "FAVOURITE SQUARE <n>", "DISPUTE <n> COURT|TRIAL"):
        assert usage in text, usage


def test_every_rule_of_xxvii_xxviii_and_xxxvi_is_automated_or_routed():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", GAME, "--json"],
                         capture_output=True, text=True)
    rules = {r["rule"]: r for r in json.loads(out.stdout)["rules"]}
    mine = [r for r in rules.values() if r["rule"].split(".")[0] in ("XXVII", "XXVIII", "XXXVI")]
    assert len(mine) == 6 + 8 + 7
    assert [r["rule"] for r in mine if r["status"] == "missing"] == []
    assert rules["XXXVI.1"]["status"] == "admin" and rules["XXVIII.1"]["status"] == "text"
    assert rules["XXVII.2"]["module"] == "teams-disputes" and rules["XXVIII.5"]["module"] == "teams-wetha"
    untested = [r["rule"] for r in mine if r["status"] == "automated"
                and not any("nomoteams" in t for t in r["tests"])]
    assert not untested, untested


def test_where_you_stand_shows_open_disputes_chains_and_dues():
    from admin.games.nomoteams.mechanics.disputes.mechanic import DisputesModule
    from admin.games.nomoteams.mechanics.wetha import WethaModule

    out = run({"game": GAME, "players": {"alice": {"team": "North", "dues": 2, "chains": 30},
                                         "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "ACCUSE bob PENALTY CHAINS 5: x\nDISPUTE 1 TRIAL"}}]}, "stand")
    alice = out.state.players["alice"]
    lines = [t for _, t in DisputesModule().results_lines(out.state, alice)
             + WethaModule().results_lines(out.state, alice)]
    assert lines == ["  Dispute 1 with bob: settled at update 2; your choice: Trial (DISPUTE 1 COURT|TRIAL)",
                     "  Chains: 30 lb", "  WETHA Dues paid: $2 (a rent roll of four dice for each dollar)"]


def test_settled_disputes_are_pickled_once_and_the_rest_each_time():
    """XXII.4's snapshot pickles the state before every action: the settled and lapsed disputes
    (never changed again) go as one blob made once; an open one's change is in the next pickle."""
    import copy
    import pickle

    from admin.engine.settled import KEY
    from admin.games.nomoteams.mechanics.disputes.state import Dispute, DisputesState

    ds = DisputesState([Dispute(1, "a", "b", "x", "pay", 5, status="settled", outcome="b won"),
                        Dispute(2, "a", "b", "y", "pay", 5, status="lapsed"),
                        Dispute(3, "b", "a", "z", "pay", 5)], next_number=4, chains={"a": 40})
    first = pickle.dumps(ds, 5)
    again = pickle.loads(first)
    assert again == ds and pickle.dumps(again, 5) == first and copy.deepcopy(ds) == ds
    ds.disputes[2].choices["b"] = "Court"
    assert pickle.loads(pickle.dumps(ds, 5)).disputes[2].choices == {"b": "Court"}
    ds.disputes[2].status = "settled"  # now three settled: the blob is made again
    assert pickle.loads(pickle.dumps(ds, 5)) == ds and len(ds.__dict__[KEY][0]) == 3


def test_a_copy_of_the_disputes_shares_the_settled_ones_and_copies_the_rest():
    """The copy of the state an update starts from (deepcopy) shares the settled and lapsed
    disputes, never changed again, as their pickle does; an open one and the Chains are its own."""
    import copy

    from admin.games.nomoteams.mechanics.disputes.state import Dispute, DisputesState

    ds = DisputesState([Dispute(1, "a", "b", "x", "pay", 5, status="settled", outcome="b won"),
                        Dispute(2, "a", "b", "y", "pay", 5)], next_number=3, chains={"a": 40})
    again = copy.deepcopy(ds)
    assert again == ds and again.disputes[0] is ds.disputes[0] and again.disputes[1] is not ds.disputes[1]
    again.disputes[1].choices["b"] = "Court"
    again.chains["a"] = 50
    assert ds.disputes[1].choices == {} and ds.chains == {"a": 40}
    again.disputes[1].status = "settled"
    assert copy.deepcopy(again) == again and ds.disputes[1].status == "open"
