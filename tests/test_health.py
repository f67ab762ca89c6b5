"""XII and VI.14: health, resets, polluted squares; III.5 removal; XI the end of the game."""

from fixtures.games import mail, new_state, play, texts, total_money

from admin.engine.events import Ruling
from admin.library.board import set_polluted
from admin.library.cards import hand, set_hand
from admin.library.health import health_of, resets_of
from admin.library.ownership import owner_of, set_owner


def test_a_player_at_health_0_is_reset_to_the_start_of_week_1():
    state = new_state()
    alice = state.players["alice"]
    alice.money, alice.square = 4000, 12
    set_hand(state, "alice", ["KS", "2D"])
    state.admin_bank += 6000
    set_owner(state, 12, "alice")
    before = total_money(state)
    ruling = Ruling(kind="adjust", args={"player": "alice", "health": -100}, note="struck by lightning")
    result = play(state, rulings=[ruling], seed=b"s16")
    resets = texts(result.events, "reset")
    assert resets[0].startswith("alice's user was reset (health reached 0): back to square 1 with $10000")
    assert health_of(result.state, "alice") == 100 and resets_of(result.state, "alice") == 1
    assert hand(result.state, "alice") == []
    assert owner_of(result.state, 12) is None
    assert total_money(result.state) == before


def test_landing_on_a_polluted_square_costs_5_health():
    state = new_state()
    set_polluted(state, 6)
    result = play(state, seed=b"s16")  # both land on 6
    assert health_of(result.state, "alice") == 95
    assert health_of(result.state, "bob") == 95


def test_three_weeks_without_a_voluntary_action_removes_a_player():
    state = new_state(["alice", "bob", "carol"])
    for update in range(1, 7):
        subs = [mail("alice", "STATUS"), mail("bob", f"BUY {update + 40}")]
        state = play(state, subs, seed=f"w{update}".encode()).state
        if update == 5:
            assert all(p.active for p in state.players.values())
    # bob's failed BUYs and alice's STATUS are not voluntary game actions; carol sent nothing
    assert {n for n, p in state.players.items() if not p.active} == {"alice", "bob", "carol"}


def test_an_accepted_action_keeps_a_player_in_the_game():
    state = new_state(["alice", "bob"])
    set_hand(state, "alice", ["2S", "3S", "4S"])
    for update, card in zip(range(1, 7), ["2S", "2S", "3S", "3S", "4S", "4S"]):
        subs = [mail("alice", f"BURY {card}")] if update % 2 else []
        state = play(state, subs, seed=f"w{update}".encode()).state
    assert state.players["alice"].active and not state.players["bob"].active
    assert state.players["bob"].money == 0


def test_the_last_player_not_bankrupt_wins():
    state = new_state(["alice", "bob"])
    state.players["bob"].money = -10
    result = play(state, seed=b"s16")
    assert result.state.winner == "alice" and result.state.ended
    assert texts(result.events, "winner") == ["alice wins the game: the only player who is not bankrupt (XI.3)."]
    after = play(result.state, [mail("bob", "BUY")], seed=b"x")
    assert texts(after.events, "ended")
    assert after.state.players == result.state.players


def test_a_net_worth_above_all_others_combined_wins():
    state = new_state(["alice", "bob", "carol"])
    state.players["alice"].money = 25000
    result = play(state, seed=b"s16")
    assert result.state.winner == "alice"
