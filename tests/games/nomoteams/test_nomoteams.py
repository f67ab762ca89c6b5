"""The Teams and Government variant (nomoteams): what its scenario files (tests/games/nomoteams/scenarios)
do not reach well: the board's geometry at several sizes (VI.3, VI.5, VI.6), the pseudoplayers'
accounts in the core's transfer (X.1, XXXIII.1), sealed bids kept private until the close (X.5),
the Teams' standings and the pseudoplayers on the site, the Admin's judging order (IX.7, IX.8),
leaving (II.8), and the game package's coverage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fixtures.browser import write_state

from admin.jobs import update as jobs
from admin.engine.board import layout_of
from admin.engine.context import UpdateContext
from admin.engine.errors import IllegalAction
from admin.games.catalog import initial_state
from admin.games.registry import REGISTRY
from admin.games.nomoteams.mechanics.board import base, corners, new_square
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT, dollars, owner_of, squares_of
from admin.jobs.roster import add_player
from admin.jobs.scenario import run
from admin.site.build import build_site
from admin.site.export import public_status

GAME = "nomoteams"


def _game(*names: str, squares: int = 20):
    state = initial_state(GAME, "t")
    while len(state.squares) < squares:
        new_square(state)
    for name in names:
        add_player(state, name, f"{name}@example.org")
    return state


def _width(state) -> int:
    return layout_of(state).size(len(state.squares))[1]


def test_vi3_the_rows_are_floor_sqrt_of_the_squares_wide_as_squares_are_added():
    """VI.3: 20 squares: rows of 4; 24: still 4; 25: 5; 35: 5; 36: 6; 48: 6; 49: 7. The snake runs east
    in the first row, north, then west."""
    state = _game()
    widths = {}
    for n in (20, 24, 25, 35, 36, 48, 49):
        while len(state.squares) < n:
            new_square(state)
        widths[n] = _width(state)
    assert widths == {20: 4, 24: 4, 25: 5, 35: 5, 36: 6, 48: 6, 49: 7}
    lay = layout_of(state)  # 49 squares, 7 to a row
    assert lay.cell(1, 49) == (0, 0) and lay.cell(7, 49) == (0, 6) and lay.cell(8, 49) == (1, 6)
    assert lay.cell(14, 49) == (1, 0) and lay.cell(15, 49) == (2, 0)


def test_vi3_a_board_relaid_when_it_grows_past_a_square_number():
    """VI.3: at 24 squares square 5 is the first of the second row (north of 4, at its east end); at 25
    it is the east end of the first row."""
    state = _game(squares=24)
    lay = layout_of(state)
    assert lay.cell(5, 24) == (1, 3) and lay.cell(4, 24) == (0, 3)
    new_square(state)
    assert lay.cell(5, 25) == (0, 4) and lay.cell(6, 25) == (1, 4)


def test_vi5_vi6_corners_and_the_teams_bases():
    """VI.5, VI.6 at 20 squares (rows of 4, five full rows) and at 10 (rows of 3 and a last row of one)."""
    state = _game()
    assert corners(state) == {"Southwest": 1, "Southeast": 4, "Northwest": 17, "Northeast": 20}
    assert base(state, "West") == [1, 8, 9, 16, 17] and base(state, "East") == [4, 5, 12, 13, 20]
    assert base(state, "South") == [1, 2, 3, 4] and base(state, "North") == [17, 18, 19, 20]
    small = initial_state(GAME, "t")
    small.squares = small.squares[:10]
    assert corners(small) == {"Southwest": 1, "Southeast": 3, "Northwest": 7, "Northeast": 9}
    assert base(small, "West") == [1, 6, 7] and base(small, "North") == [7, 8, 9]
    small.squares = small.squares[:8]
    assert base(small, "West") == []  # fewer than nine squares: no bases


def test_ii7_a_joiner_with_no_free_square_gets_one_by_new_clear_fishing():
    """II.7: 20 squares hold 17 the rules do not mention (all but 1, 10 and 20); the 18th player gets a
    new square 21, and nobody pays for it."""
    names = [f"p{i:02d}" for i in range(18)]
    state = _game(*names)
    assert squares_of(state, "p00") == [2] and squares_of(state, "p08") == [11]
    assert squares_of(state, "p17") == [21] and len(state.squares) == 21
    assert all(state.players[n].money == 1000 for n in names)


def test_x2_x3_the_government_owns_public_property_and_national_parks_as_the_board_grows():
    state = _game(squares=50)
    gov = squares_of(state, GOVERNMENT)
    assert gov == [10, 20, 25, 30, 35, 40, 45, 50]  # 15 is not above 20 (X.3)


def test_x1_pseudoplayers_hold_money_through_the_cores_transfer():
    """X.1, XXXIII.1: ctx.transfer pays to and from The Government and The Corporation by name (the
    accounts hook); a voluntary payment they cannot make is refused; a player's is unchanged."""
    state = _game("alice")
    ctx = UpdateContext(state=state, dice=None, slot=None, registry=REGISTRY)  # type: ignore[arg-type]
    ctx.transfer("alice", GOVERNMENT, 30, rule="IV.2", reason="a fine")
    ctx.transfer(GOVERNMENT, CORPORATION, 20, rule="X.5", reason="a test")
    money = state.mods["teams-pseudo"].money
    assert (state.players["alice"].money, money[GOVERNMENT], money[CORPORATION]) == (970, 10, 20)
    with pytest.raises(IllegalAction, match=r"that costs \$25 and The Government has \$10"):
        ctx.transfer(GOVERNMENT, "alice", 25, rule="X", reason="x", voluntary=True)
    assert ctx.events[0].data["summary"] == "alice paid $30 to The Government: a fine"


def test_iv4_amounts_round_to_the_nearest_dollar_half_up():
    """IV.4: to the nearest dollar, a half dollar up."""
    assert [dollars(x) for x in (3.6, 3.5, 3.4, 2.5)] == [4, 4, 3, 3]


def test_x6_the_government_shares_what_it_holds_above_15000():
    """X.6: at the start of an update The Government shares its money above $15,000 evenly."""
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"},
                                         "carol": {"team": "East"}},
               "state": {"teams-pseudo": {"money": {GOVERNMENT: 15100, CORPORATION: 0}}},
               "updates": [{}]}, "x6")
    # $100 above the cap: $33 each, $1 stays; then the week's White square fines ($50 each) go nowhere
    assert [out.state.players[n].money for n in ("alice", "bob", "carol")] == [983, 983, 983]
    assert out.state.mods["teams-pseudo"].money[GOVERNMENT] == 15001


def _auction(updates: list[dict], params: dict | None = None):
    return run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
                "squares": {7: {"owner": GOVERNMENT}}, "updates": updates, "params": params or {}}, "auction")


def test_x5_the_highest_bid_is_public_but_not_its_bidder_until_the_auction_closes():
    """X.5's words: the Government page shows the highest bid to date, not the name of its bidder."""
    one = _auction([{"mail": {"alice": "BID 55 ON 7"}}])
    assert one.state.public_copy().mods["teams-government"].lots[0].high == 55
    for e in one.events:
        if "alice" in (e.text or ""):
            assert "55" not in e.text, e.text
    assert "The highest bid on square 7 is now $55 (X.5)." in [e.text for e in one.events]
    two = _auction([{"mail": {"alice": "BID 55 ON 7"}}, {"mail": {"bob": "BID 54 ON 7"}}])
    assert two.state.mods["interactions"].closed[0].answers == {"alice": 55, "bob": "0"}  # 54 refused: silence


def test_x5_sealed_bids_option_keeps_bids_invisible_until_the_auction_closes_then_published():
    """The option against X.5's words (sealed_bids): after week 1 alice's bid is in the private
    state only: not in the public export (the site's data), and not in any public event or bob's
    results; at the close every bid is published."""
    sealed = {"teams-government": {"sealed_bids": True}}
    one = _auction([{"mail": {"alice": "BID 55 ON 7"}}], sealed)
    public = json.dumps(public_status(one.state.public_copy()))
    assert "55" not in public
    answers = one.state.private.mods["interactions"].answers
    assert answers == {1: {"alice": 55}}
    for e in one.events:
        assert "55" not in (e.text or ""), e.text
        if e.private and "55" in e.private:
            assert e.player == "alice"
    two = _auction([{"mail": {"alice": "BID 55 ON 7"}}, {"mail": {"bob": "BID 54 ON 7"}}], sealed)
    closed = two.state.mods["interactions"].closed[0]
    assert closed.answers == {"alice": 55, "bob": 54}
    assert "Bids: alice $55, bob $54" in closed.outcome
    lot = two.state.mods["teams-government"].lots[0]
    assert (lot.square, lot.stage, lot.winner, lot.bid) == (7, "Gone", "alice", 55)


def test_x5_a_bid_must_beat_the_corporations_and_be_money_one_has():
    out = run({"game": GAME, "players": {"alice": {"team": "North", "money": 100}},
               "squares": {7: {"owner": GOVERNMENT}},
               "state": {"teams-pseudo": {"money": {GOVERNMENT: 0, CORPORATION: 1000}}},
               "updates": [{"mail": {"alice": "BID 35 ON 7\nBID 200 ON 7\nBID 9 ON 12"}}]}, "bids")
    said = [e.private or e.text for e in out.events if e.player == "alice"]
    assert any("must be more than the current bid, $35 (X.5)" in (t or "") for t in said), said
    assert any("you bid $200 and have $100" in (t or "") for t in said), said
    assert any("square 12 is not Going in an auction; Going: square 7 (X.5)" in (t or "") for t in said), said


def test_x5_no_bid_leaves_the_square_with_the_government_to_be_auctioned_again():
    out = _auction([{}, {}, {}])
    lots = out.state.mods["teams-government"].lots
    assert owner_of(out.state, 7) == GOVERNMENT
    assert [(lot.square, lot.stage) for lot in lots] == [(7, "Going Once")] and lots[0].auction == 2


def test_ix7_first_proposals_are_judged_before_seconds_and_ix8_sick_ones_need_a_sick_proposer():
    mail = {"alice": "PROPOSE A\none\nEND\nPROPOSE B\ntwo\nEND", "bob": "PROPOSE C\nthree\nEND"}
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "updates": [{"mail": mail},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 2, "verdict": "accept"}},
                                        {"kind": "judge", "args": {"proposal": 3, "verdict": "accept",
                                                                   "sick": True}}]}]}, "ix7")
    failed = [e.text for e in out.events if e.kind == "ruling" and not e.ok]
    assert any("proposal 2 is alice's undecided proposal no. 2; judge every player's earlier ones first "
               "(IX.7): 3" in t for t in failed), failed
    assert any("a Sick Proposal is never accepted from a player who is not Sick" in t for t in failed), failed


def test_ii8_leaving_to_the_corporation_puts_the_squares_on_sale_at_120_percent():
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "squares": {7: {"owner": "alice"}},
               "updates": [{"mail": {"alice": "LEAVE CORPORATION"}},
                           {"mail": {"bob": "BUY FROM CORPORATION 7"}}]}, "leave")
    state = out.state
    assert not state.players["alice"].active
    assert owner_of(state, 7) == "bob" and owner_of(state, 2) == CORPORATION
    assert state.mods["teams-leaving"].for_sale == {2: 24}
    # The Corporation: alice's $1000 (she leaves before the week's fines) + 84 for square 7 (120% of $70)
    assert state.mods["teams-pseudo"].money[CORPORATION] == 1084


def test_ii8_leaving_at_random_hands_out_things_of_a_square_and_up_to_200():
    """II.8's third way: $450 and squares 2 and 7 make three things (a square and $200, a square and
    $200, $50); the first two go to the two others in the order the dice say, the third to either."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "money": 450}, "bob": {"team": "South"},
                                         "carol": {"team": "East"}},
               "squares": {7: {"owner": "alice"}},
               "updates": [{"mail": {"alice": "LEAVE RANDOM"},
                            "rolls": {"leave/alice/0": [2], "leave/alice/2": [1]}}]}, "random")
    state = out.state
    assert owner_of(state, 2) == "carol" and owner_of(state, 7) == "bob"
    # bob: 1000 + 200 + 50 - 50 - 50 (squares 3 and 7 are White); carol: 1000 + 200 - 100
    assert (state.players["bob"].money, state.players["carol"].money) == (1150, 1100)


def test_the_teams_standings_and_the_pseudoplayers_are_on_the_site(tmp_path: Path):
    out = run({"game": GAME, "players": {"alice": {"team": "North", "money": 500}, "bob": {"team": "North"},
                                         "carol": {"team": "South"}, "dave": {"team": "Freemason"}},
               "updates": [{}]}, "site")
    game = jobs.init_game(tmp_path / "g", GAME, "Teams")
    write_state(game.root, out.state)
    site = build_site(game)
    teams = (site / "teams.html").read_text(encoding="utf-8")
    # North: alice 450 + bob 950 (after the week's White fines, shared by dave, the one Freemason)
    assert '<th scope="row">North</th>' in teams and "alice, bob" in teams and "1400" in teams
    pseudo = (site / "pseudoplayers.html").read_text(encoding="utf-8")
    assert "The Government" in pseudo and "The Corporation" in pseudo and "pseudoplayer:" in pseudo
    assert "they send no mail" in pseudo
    players = json.dumps(public_status(out.state.public_copy())["players"])
    assert GOVERNMENT not in players  # not a player: no mail, no turn, no vote


def test_every_rule_of_the_variant_is_automated_or_routed_and_every_automated_one_tested():
    out = subprocess.run([sys.executable, "-m", "admin", "rules", "coverage", "--game", GAME, "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rules = {r["rule"]: r for r in data["rules"]}
    sections = {"II": 9, "IV": 6, "VI": 8, "VII": 6, "VIII": 13, "IX": 9, "X": 7, "XIII": 13, "XVIII": 5,
                "XIX": 14, "XXI": 6, "XXII": 8, "XXVII": 6, "XXVIII": 8, "XXXII": 5, "XXXIII": 5, "XXXVI": 7}
    assert len(rules) == sum(sections.values())  # all seventeen sections of the seed
    assert [r["rule"] for r in rules.values() if r["status"] == "missing"] == []
    assert rules["XXXIII.2"]["status"] == "admin" and rules["X.5"]["module"] == "teams-government"
    untested = [r["rule"] for r in rules.values() if r["status"] == "automated" and not r["tests"]]
    assert not untested, untested


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from admin.jobs.demo import run_demo
    from admin.store.gamedir import GameDir

    out = tmp_path_factory.mktemp("nomoteams") / "demo"
    run_demo(out, echo=lambda _: None, game_name=GAME)
    return GameDir(out)


def test_the_demo_replays_and_verifies(demo):
    assert jobs.replay_check(demo) == []
    assert jobs.verify(demo) == []


def test_the_demos_sealed_bids_reach_only_their_bidders_mail_until_the_close(demo):
    """X.5: alice's $40 and bob's $45 (week 2) are in their own mail only; week 3's close publishes
    every bid on the site."""
    import email

    mails = [email.message_from_bytes(p.read_bytes()) for p in (demo.state_dir / "outbox" / "sent").glob("*.eml")]
    def text(m) -> str:
        return m.get_payload(decode=True).decode("utf-8") if not m.is_multipart() else \
            "".join(part.get_payload(decode=True).decode("utf-8") for part in m.walk()
                    if part.get_content_type() == "text/plain")
    for m in mails:
        body = text(m)
        if "sealed bid of $40" in body:
            assert "alice" in m["To"], m["To"]
        if "sealed bid of $45" in body:
            assert "bob" in m["To"], m["To"]
        if "Update 2 results" in m["Subject"]:
            assert "$40 on" not in body or "alice" in m["To"]
    site = (demo.root / "site" / "government.html").read_text(encoding="utf-8")
    assert "carol" in site and "$60" in site and "Gone" in site


def test_ii8_leaving_to_a_player_or_to_the_team():
    """II.8's fifth way (everything to one surviving player) and fourth (the things go to the Team's
    other players only; with one Teammate left, no roll is needed)."""
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"},
                                         "carol": {"team": "North", "money": 300}, "dave": {"team": "North"}},
               "updates": [{"mail": {"alice": "LEAVE TO bob"}},
                           {"mail": {"carol": "LEAVE TEAM"}}]}, "leave")
    s = out.state
    assert owner_of(s, 2) == "bob" and owner_of(s, 4) == "dave"
    # bob: 1000 + 1000 (alice's, before the week's fines) - 100 (White squares 2 and 3) in each week
    assert s.players["bob"].money == 1800
    # dave: 1000 - 50 (week 1), + carol's 300 - 50 = $250 as two things (square 4 and $200, then $50),
    # - 100 (week 2: squares 4 and 5)
    assert s.players["dave"].money == 1000 - 50 + 250 - 100
    assert any(e.text == "carol left the game: dave: square 4 + $200, $50." for e in out.events), \
        [e.text for e in out.events if e.kind == "action"]


def test_ii4_a_friendship_ended_bars_new_ones_for_two_weeks():
    """II.4: END FRIENDSHIP in week 2; BEST FRIEND is refused in weeks 2 and 3 and holds in week 4
    (an END FRIENDSHIP line inside a proposal is the proposal's text)."""
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "BEST FRIEND bob", "bob": "BEST FRIEND alice"}},
                           {"mail": {"alice": "END FRIENDSHIP\nBEST FRIEND bob",
                                     "bob": "PROPOSE X\nEND FRIENDSHIP is a phrase\nEND"}},
                           {"mail": {"alice": "BEST FRIEND bob"}},
                           {"mail": {"alice": "BEST FRIEND bob", "bob": "BEST FRIEND alice"}}]}, "ii4")
    said = [e.text or e.private for e in out.events if e.kind == "action"]
    assert said.count("alice: \"BEST FRIEND bob\" was not done: alice's last friendship ended in week 2; "
                      "no new Best Friend before week 4 (II.4)") == 2
    assert out.state.mods["teams"].best_friends == {"alice": "bob", "bob": "alice"}
    assert out.state.proposals[0].text == "END FRIENDSHIP is a phrase"


def test_events_cite_this_rulebooks_numbers():
    """The core's move cites VII.1 here (Nomopoly II's VI.7), New Clear Fishing VI.7, a ruling IX.3,
    a Team drawn II.3, buying's landing VIII.4."""
    out = run({"game": GAME, "players": {"alice": {"money": 2000}},
               "updates": [{"mail": {"alice": "PROPOSE A\nx\nEND\nNEW CLEAR FISHING"}, "rolls": {"team/": [1]}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 1, "verdict": "accept"}}],
                            "dice": [2, 3]}]}, "rules")
    cited = {e.kind: e.rule for e in out.events if e.rule}
    assert (cited["move"], cited["new-square"], cited["ruling"], cited["team"], cited["land"]) == \
        ("VII.1", "VI.7", "IX.3", "II.3", "VIII.4")


def test_ii8_x5_a_leavers_objects_are_auctioned_as_one_grab_bag():
    """II.8's first way: alice's two Souvenir Hats go to The Government as Grab Bag 1, Going Once the
    next week; bob's sealed $30 wins it (no Corporation bid: a Grab Bag has no market value) and it
    passes to him two weeks after the close."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "hats": 2}, "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "LEAVE GOVERNMENT"}},
                           {"mail": {"bob": "BID 30 ON GRAB BAG 1"}}, {}, {}, {}]}, "bag")
    said = [e.text for e in out.events if e.text]
    assert "alice's objects went to The Government as Grab Bag 1 (Souvenir Hat x2), auctioned from next week " \
           "(II.8)." in said
    assert "Grab Bag 1 (Souvenir Hat x2) passed to bob, who paid The Government $30 (X.5)." in said
    gs = out.state.mods["teams-government"]
    assert gs.hats == {"bob": 2} and not any(not lot.square for lot in gs.lots)
