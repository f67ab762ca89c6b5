"""Invariants over random games (hypothesis): money is conserved, every change of a player's money
is a recorded payment, positions stay on the board, hands stay within the limit, and the engine is
deterministic."""

from fixtures.games import mail, new_state, play, total_money
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from admin.engine.playingcards import DECK
from admin.engine.context import BANK
from admin.store.gamedir import state_files
from admin.library.cards import hand
from admin.library.ownership import owner_of

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]

square = st.integers(min_value=1, max_value=25)
command = st.one_of(
    st.just("BUY"), square.map(lambda n: f"BUY {n}"),
    st.tuples(square, st.sampled_from(["Park", "Mayfair", "Zoo", "x" * 30])).map(lambda t: f"NAME {t[0]} {t[1]}"),
    st.tuples(st.sampled_from(DECK), square).map(lambda t: f"PLACE {t[0]} ON {t[1]}"),
    st.sampled_from(DECK).map(lambda c: f"BURY {c}"),
    st.just("PROPOSE Idea\nDo something.\nEND"),
    st.tuples(st.integers(1, 6), st.sampled_from(["YES", "NO", "ABSTAIN"])).map(lambda t: f"VOTE {t[0]} {t[1]}"),
    st.just("STATUS"),
)
email = st.tuples(st.integers(0, 5), st.lists(command, min_size=1, max_size=4))
game = st.tuples(
    st.integers(2, 6),  # players
    st.lists(st.lists(email, max_size=6), min_size=1, max_size=6),  # updates
    st.binary(min_size=1, max_size=8),  # seed
    st.booleans(),  # new squares on
)


def _run(n_players, updates, seed, new_squares):
    state = new_state(NAMES[:n_players], new_squares=new_squares)
    history = [(state, None)]
    for u, emails in enumerate(updates):
        subs = [mail(NAMES[i % n_players], "\n".join(cmds), key=f"m{u}-{j}")
                for j, (i, cmds) in enumerate(emails)]
        result = play(state, subs, seed=seed + bytes([u]))
        history.append((result.state, result))
        state = result.state
    return history


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game)
def test_money_is_conserved_and_every_change_is_a_recorded_payment(g):
    history = _run(*g)
    start_total = total_money(history[0][0])
    for (before, _), (after, result) in zip(history, history[1:]):
        assert total_money(after) == start_total
        flows = {}
        for e in result.events:
            if e.kind == "money":
                flows[e.data["from"]] = flows.get(e.data["from"], 0) - e.data["amount"]
                flows[e.data["to"]] = flows.get(e.data["to"], 0) + e.data["amount"]
        for name, p in after.players.items():
            assert p.money - before.players[name].money == flows.get(name, 0), name
        assert after.admin_bank - before.admin_bank == flows.get(BANK, 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game)
def test_positions_stay_on_live_squares_and_hands_within_the_limit(g):
    for state, _ in _run(*g):
        live = {s.number for s in state.squares if not s.destroyed}
        for p in state.players.values():
            assert p.square in live
            assert len(hand(state, p.name)) <= 12
        owners = [o for s in state.squares if (o := owner_of(state, s.number))]
        assert all(o in state.players and state.players[o].active for o in owners)


@settings(max_examples=15, deadline=None)
@given(game)
def test_the_same_state_inputs_and_seed_give_byte_identical_state(g):
    a = _run(*g)[-1][0]
    b = _run(*g)[-1][0]
    assert state_files(a) == state_files(b)
