"""Nomopoly II XXIII, terrorism: an atrocity makes its consenters terrorists for this week and the
next one (minor) or the next six (major); a terrorist gets no $1000 for going round the board
(VI.11) and no chance of a new square (VI.17), counts -$2500 in net worth (XXX.1), and is shown
as one. A player with diplomatic immunity (XXXI.3) is not made one, nor may the Governor commit one."""

from fixtures.games import texts
from fixtures.n2_missiles_gov import game, run

from admin.engine.events import Ruling
from admin.games.registry import REGISTRY
from admin.games.nomopoly2.mechanics.conditions import grant, grant_weeks
from admin.games.nomopoly2.mechanics.shared import has_condition
from admin.games.nomopoly2.mechanics.terrorism import TerrorismModule, is_terrorist, terrorist_until


def test_a_minor_atrocity_lasts_this_week_and_the_next_and_a_major_one_six_more():
    s = game(enable=("terrorism",))
    r = run(s, rulings=[Ruling("atrocity", {"player": "alice"}, "anthrax on bob"),
                        Ruling("atrocity", {"player": "bob", "major": True}, "a dirty bomb")])
    assert (terrorist_until(r.state, "alice"), terrorist_until(r.state, "bob")) == (2, 7)
    assert "alice committed a minor atrocity (anthrax on bob) and is a terrorist until the end of week 2." \
        in texts(r.events)
    later = r.state
    later.update = 4  # the next is week 3's first update: alice's two weeks are over, bob's seven are not
    after = run(later)
    assert is_terrorist(after.state, "bob") and not is_terrorist(after.state, "alice")


def test_a_terrorist_gets_no_pass_bonus_and_no_new_square_chance():
    s = game(("alice", "bob"), enable=("terrorism",))
    s.paused = False
    grant_weeks(s, "alice", "terrorist", 1)
    for p in s.players.values():
        p.square = 19
    r = run(s, order=["alice", "bob"], dice=[1, 2, 1, 2])  # both go round to square 2
    assert (r.state.players["alice"].money, r.state.players["bob"].money) == (10000, 11000)
    assert "alice passed the end of the board and receives no $1000: alice is a terrorist (XXIII.2)." in texts(r.events)
    assert "alice passed the end of the board, with no chance of a new square: alice is a terrorist (VI.17, " \
           "XXIII.2)." in texts(r.events)
    assert "bob received $1000 for passing the end of the board." in texts(r.events)


def test_a_terrorist_is_shown_with_the_last_week_and_counts_minus_2500_with_the_net_worth_section():
    s = game(enable=("terrorism", "net-worth"))
    grant_weeks(s, "carol", "terrorist", 3)
    assert REGISTRY.net_worth(s, s.players["carol"]) - REGISTRY.net_worth(s, s.players["bob"]) == -2500
    facts = {f.key: f.value for f in TerrorismModule().player_facts(s, s.players["carol"])}
    assert facts == {"terrorist_until": 3}
    [panel] = TerrorismModule().panels(s)
    assert panel.tables[0].rows == (("carol", 3),)


def test_diplomatic_immunity_keeps_a_player_from_being_a_terrorist():
    s = game(enable=("terrorism",))
    grant(s, "alice", "diplomatic-immunity", 4)
    r = run(s, rulings=[Ruling("atrocity", {"player": "alice", "major": True}, "an ICBM")])
    assert not has_condition(r.state, "alice", "terrorist")
    assert "alice's diplomatic immunity keeps them from being a terrorist for an ICBM." in texts(r.events)


def test_the_admin_cannot_make_the_governor_commit_an_atrocity():
    s = game(enable=("terrorism", "governor"))
    gs = s.mods["governor"]
    gs.governor, gs.term_from, gs.term_to = "bob", 1, 3
    r = run(s, rulings=[Ruling("atrocity", {"player": "bob"}, "anthrax")])
    assert not is_terrorist(r.state, "bob")
    assert "The Admin's ruling atrocity could not be carried out: the Governor may not commit any atrocities " \
           "(XXXV.3)" in texts(r.events)


def test_without_the_terrorism_section_nobody_is_a_terrorist_and_the_pass_bonus_is_paid():
    s = game(("alice",), enable=("conditions",))
    s.paused = False
    grant_weeks(s, "alice", "terrorist", 1)
    s.players["alice"].square = 19
    r = run(s, dice=[1, 2])
    assert r.state.players["alice"].money == 11000


def test_the_admin_rules_an_atrocity_from_the_command_line(tmp_path):
    import json
    import subprocess
    import sys

    def cli(*args):
        out = subprocess.run([sys.executable, "-m", "admin", "--game", str(tmp_path / "g"), *args],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout

    subprocess.run([sys.executable, "-m", "admin", "init", str(tmp_path / "g"), "--game", "nomopoly2-full"], check=True,
                   capture_output=True)
    cli("player", "add", "alice", "alice@example.org")
    cli("ruling", "decide", "atrocity", "player=alice", "major=true", "what=poisoning the well on square 4",
        "--reason", "seen by the Admin")
    cli("update", "--at", "2026-11-04T23:59:59+00:00")
    [alice] = json.loads(cli("status", "--json"))["players"]
    assert alice["terrorist_until"] == 7 and alice["conditions"] == "terrorist"
