"""Nomopoly II XIX, the Zoo: spawning (XIX.1-2), the five creatures and banana peels (XIX.3), the
Skunk's effects, creature health (XIX.4) and their random order (XIX.5).

The board has 55 squares, so its top row (51-55, running west from the east edge) is short:
51 sits above 50 (column 9), 55 above 46 (column 5); columns 0-4 have five rows, 5-9 six."""

from collections import deque

from fixtures.games import mail, new_state, texts
from fixtures.n2_sections import with_buildings

from admin.engine import hooks
from admin.engine.board import add_square
from admin.engine.context import UpdateContext
from admin.engine.events import Ruling
from admin.engine.schedule import slot_of
from admin.engine.update import run_update
from admin.games.registry import REGISTRY
from admin.library.board import BoardModule
from admin.library.health import health_of, set_health
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.zoo.mechanic import Creature, ZooModule, land_creature, move_random_creature
from admin.library.ownership import owner_of, set_owner
from admin.jobs.scenario import ForcedDice

PLAYERS = ("alice", "bob", "carol")


def _zoo(squares: int = 55, players=PLAYERS, **params):
    """A game with the Zoo on and ``squares`` squares, before update 1 (a Thursday)."""
    state = new_state(players)
    from fixtures.games import play

    state.paused = True  # the enabling update moves nobody
    state = play(state, rulings=[Ruling("enable", {"module": "zoo"}, "test")]).state
    state.update, state.paused = 0, False  # update 1 is a Thursday again
    while len(state.squares) < squares:
        add_square(state)
    for m in state.modules:
        if m.name == "zoo":
            m.params.update(params)
    return state


def _put(state, *creatures):
    ZooModule.of(state).creatures = [Creature(cid, cid.split("-")[0] if cid.startswith("skunk") else cid, sq, hp)
                                     for cid, sq, hp in creatures]


def _run(state, subs=(), *, dice=(), order=None, rolls=None, seed=b"zoo"):
    """One update with forced turn dice, turn order and other rolls (label prefix -> values)."""
    d = ForcedDice(seed=seed, digest="test", update=state.update + 1, forced=deque(dice),
                   order=list(order) if order is not None else None,
                   others={k: deque(v) for k, v in (rolls or {}).items()})
    result = run_update(state, list(subs), [], d, REGISTRY)
    assert not d.leftover(), d.leftover()
    return result


def _ctx(state, rolls=None):
    """A context to call the Zoo's functions directly (no update around them)."""
    dice = ForcedDice(seed=b"zoo", digest="test", update=state.update + 1,
                      others={k: deque(v) for k, v in (rolls or {}).items()})
    _, slot = slot_of(REGISTRY.params(state, "schedule")["slots"], state.update + 1)
    return UpdateContext(state=state, dice=dice, slot=slot, registry=REGISTRY)


def _creatures(state):
    return {c.id: (c.square, c.health) for c in ZooModule.of(state).creatures}


# -- XIX.1, XIX.2 ----------------------------------------------------------------------------
def test_landing_on_the_zoo_gives_a_spawn_right_and_no_right_to_buy_square_51():
    state = _zoo()
    state.players["alice"].square = 47
    result = _run(state, dice=[1, 3, 1, 2, 1, 2], order=["alice", "bob", "carol"])
    assert state is not result.state and result.state.players["alice"].square == 51
    said = texts(result.events)
    assert "alice landed on the Zoo and may spawn a creature (SPAWN <creature> in the next mail)." in said
    assert not any("unowned square 51" in t for t in said)  # XIX.1: nobody may own it
    assert ZooModule.of(result.state).spawn_rights == {"alice": 1}
    assert not ZooModule().can_own(result.state, result.state.square(51))


def test_spawn_puts_the_creature_on_the_zoo_one_of_each_kind_and_only_after_landing():
    state = _zoo()
    ZooModule.of(state).spawn_rights = {"alice": 0, "bob": 0}
    _put(state, ("skunk", 12, 100))
    state.paused = True
    result = _run(state, [mail("alice", "SPAWN THE MTS BISON"), mail("bob", "SPAWN SKUNK"),
                          mail("carol", "SPAWN GORILLA")])
    assert _creatures(result.state) == {"skunk": (12, 100), "bison": (51, 100)}
    assert sorted(texts(result.events, "action")) == sorted([
        "alice spawned the MTS Bison on the Zoo (square 51).",
        'bob: "SPAWN SKUNK" was not done: the Skunk is on the board already (square 12); only one of each '
        "creature at a time (XIX.2); spawn another kind",
        'carol: "SPAWN GORILLA" was not done: only a player who landed on the Zoo (square 51) may spawn a '
        "creature, in the mail after landing (XIX.2)"])
    # the right lapses at the end of the update after the landing
    assert ZooModule.of(result.state).spawn_rights == {}


def test_a_spawned_creature_does_not_land_on_the_zoo():
    state = _zoo()
    ZooModule.of(state).spawn_rights = {"alice": 0}
    ZooModule.of(state).peels = [51]
    state.paused = True
    result = _run(state, [mail("alice", "SPAWN ELEPHANT")])
    assert _creatures(result.state) == {"elephant": (51, 100)}
    assert ZooModule.of(result.state).peels == [51]  # no slip: it did not land


# -- XIX.3: the Skunk's move -------------------------------------------------------------------
def test_the_skunk_goes_right_along_its_row_then_up_its_column_wrapping_round_the_short_top_row():
    state = _zoo()
    _put(state, ("skunk", 45, 100))
    # 45 is row 4, column 4; right 2: column 6 (square 47); up 3 in column 6 (rows 0-5): row 1 = square 14
    result = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/skunk/up": [3], "zoo/skunk/right": [2]})
    assert _creatures(result.state) == {"skunk": (14, 100)}
    assert "The Skunk rolled 3 up and 2 right and went from square 45 to square 14." in texts(result.events)


def test_the_skunk_wraps_past_the_east_edge_and_over_the_top_of_a_short_column():
    state = _zoo()
    _put(state, ("skunk", 50, 100))
    # 50 is row 4, column 9; right 3 wraps to column 2 (square 43); column 2 has rows 0-4: up 1 wraps to row 0 = 3
    result = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/skunk/up": [1], "zoo/skunk/right": [3]})
    assert _creatures(result.state) == {"skunk": (3, 100)}


# -- XIX.3: the Gorilla, banana peels, the Elephant ----------------------------------------------
def test_the_gorilla_moves_only_in_the_sunday_update_and_may_drop_a_peel():
    state = _zoo()
    _put(state, ("gorilla", 20, 100))
    thursday = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"])
    assert _creatures(thursday.state) == {"gorilla": (20, 100)}
    sunday = _run(thursday.state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/gorilla/d1": [7], "zoo/gorilla/peel": [50]})
    assert _creatures(sunday.state) == {"gorilla": (27, 100)}
    assert ZooModule.of(sunday.state).peels == [27]
    assert "The Gorilla dropped a banana peel on square 27." in texts(sunday.events)


def test_a_player_landing_on_a_banana_peel_loses_10_health_and_jumps_to_a_random_square():
    state = _zoo()
    ZooModule.of(state).peels = [9]
    state.players["alice"].square = 5
    result = _run(state, dice=[1, 3, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/peel/alice": [33]})
    alice = result.state.players["alice"]
    assert (alice.square, health_of(result.state, "alice")) == (33, 90)
    assert ZooModule.of(result.state).peels == []
    assert "alice jumped from square 9 to square 33 (slipping on a banana peel)." in texts(result.events)


def test_the_elephant_rolls_again_off_the_board_and_tramples_players_and_creatures_for_15():
    state = _zoo()
    _put(state, ("elephant", 1, 100), ("bison", 2, 100))
    state.update = 1  # the next update is a Sunday
    state.players["bob"].square = 2
    # the Elephant first (order roll 2: no swap); from square 1, 2 (south) and 4 (west) lead off the
    # board, 3 (east) onto the Bison on square 2; the Bison then rolls 1 + 2 to square 5, onto bob
    result = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/order": [2], "zoo/elephant": [2, 4, 3], "zoo/bison": [1, 2]})
    assert _creatures(result.state) == {"elephant": (2, 100), "bison": (5, 85)}
    said = texts(result.events)
    assert "The Elephant rolled 2: no square lies south of square 1; it rolls again." in said
    assert "The Elephant rolled 4: no square lies west of square 1; it rolls again." in said
    assert "The MTS Bison lost 15 health (trampled by the Elephant); now 85." in said


def test_a_trampled_player_loses_15_health():
    state = _zoo()
    _put(state, ("elephant", 7, 100))
    state.players["carol"].square = 14
    ctx = _ctx(state, {"zoo/elephant": [1]})
    from admin.games.nomopoly2.mechanics.zoo.mechanic import elephant_turn

    elephant_turn(ctx, ZooModule.of(state).creatures[0])
    assert _creatures(state) == {"elephant": (14, 100)}  # north of 7 is 14
    assert health_of(state, "carol") == 85


# -- XIX.3: the MTS Bison, ridden by mail --------------------------------------------------------
def test_the_bison_landing_on_players_offers_them_a_ride_for_the_next_update():
    state = _zoo()
    _put(state, ("bison", 2, 100))
    state.players["alice"].square = 8
    first = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                 rolls={"zoo/bison": [1, 1]})
    assert [first.state.players[n].square for n in PLAYERS] == [11, 4, 4]
    assert _creatures(first.state)["bison"] == (4, 100)
    offers = ZooModule.of(first.state).offers
    assert [(o.creature, o.square, o.players, o.update) for o in offers] == [("bison", 4, ["bob", "carol"], 1)]
    assert ("The MTS Bison landed on bob, carol on square 4: they may ride it to any square next update "
            "(RIDE BISON TO <square>, #1).") in texts(first.events)


def test_riding_the_bison_jumps_rider_and_bison_to_the_square_named_once_an_update():
    state = _zoo()
    _put(state, ("bison", 10, 100))
    for name, square in (("alice", 10), ("bob", 10), ("carol", 5)):
        state.players[name].square = square
    state.paused = True
    from admin.library.interactions import ask

    ctx = _ctx(state)
    state.update = 1
    from admin.games.nomopoly2.mechanics.zoo.mechanic import offer_ride

    offer_ride(ctx, ZooModule.of(state).creatures[0])
    result = _run(state, [mail("alice", "RIDE BISON TO 45\nRIDE BISON TO 3"), mail("carol", "RIDE BISON TO 30")])
    assert (result.state.players["alice"].square, _creatures(result.state)["bison"]) == (45, (45, 100))
    assert (result.state.players["bob"].square, result.state.players["carol"].square) == (10, 5)
    said = texts(result.events, "action")
    assert "alice rode the MTS Bison from square 10 to square 45." in said
    assert ('alice: "RIDE BISON TO 3" was not done: you rode the MTS Bison already in this update; once an '
            "update (XIX.3)") in said
    assert ('carol: "RIDE BISON TO 30" was not done: only a player the MTS Bison landed on in the last update '
            "may ride it (XIX.3); it has landed on no square of yours") in said
    assert "The MTS Bison jumped, carrying alice, from square 10 to square 45." in texts(result.events)
    assert "#1 (offer) closed: alice rode to square 45" in texts(result.events)
    assert ask  # the offer went through the interactions facility


# -- XIX.3: the Skunk's effects ----------------------------------------------------------------
def _skunk_on(state, number, buildings=(), rolls=None):
    """The Skunk lands on square ``number`` holding ``buildings`` (the real buildings section's
    state: the Skunk reads what stands there, XIX.3)."""
    if buildings or state.enabled("buildings"):
        with_buildings(state, {number: buildings} if buildings else {})
    _put(state, ("skunk", 1, 100), *[(c.id, c.square, c.health) for c in ZooModule.of(state).creatures])
    skunk = ZooModule.of(state).creatures[0]
    ctx = _ctx(state, rolls)
    land_creature(ctx, skunk, number, how="went", rule="XIX.3")
    return ctx


def test_skunk_on_a_hospital_heals_every_player_20_and_on_a_house_nothing():
    state = _zoo()
    set_health(state, "bob", 50)
    ctx = _skunk_on(state, 12, ["house", "hospital"])
    assert [health_of(state, n) for n in PLAYERS] == [120, 70, 120]
    assert "The Skunk on the House on square 12: no effect." in texts(ctx.events)


def test_skunk_on_a_store_gives_the_player_with_fewest_squares_the_lowest_unowned_one():
    state = _zoo()
    for n, who in ((1, "alice"), (2, "bob"), (4, "bob"), (5, "carol")):
        set_owner(state, n, who)
    _skunk_on(state, 12, ["store"], {"zoo/skunk/store": [2]})
    assert owner_of(state, 3) == "carol"  # alice and carol own one each; the die picks carol


def test_skunk_on_corporate_headquarters_charges_each_player_the_sum_of_their_square_numbers():
    state = _zoo()
    for n, who in ((3, "alice"), (14, "alice"), (20, "bob")):
        set_owner(state, n, who)
    bank = state.admin_bank
    _skunk_on(state, 12, ["corporate-headquarters"])
    assert [state.players[n].money for n in PLAYERS] == [10000 - 17, 10000 - 20, 10000]
    assert state.admin_bank == bank + 37


def test_skunk_on_an_anti_missile_battery_pollutes_a_random_clean_square():
    state = _zoo()
    _skunk_on(state, 12, ["anti-missile-battery"], {"zoo/skunk/pollute": [40]})
    assert BoardModule.of(state).polluted == [40]


def test_skunk_on_players_sprays_them_passed_out_minus_15_and_barred():
    state = _zoo()
    state.players["alice"].square = 12
    ctx = _skunk_on(state, 12)
    assert health_of(state, "alice") == 85 and health_of(state, "bob") == 100
    assert ctx.barred == {"alice"}
    assert shared.has_condition(state, "alice", "passed-out")


def test_a_player_passed_out_for_the_next_update_too_has_their_mail_refused():
    state = _zoo(passed_out_updates=1)
    from admin.games.nomopoly2.mechanics.conditions import grant

    grant(state, "alice", "passed-out", 1)
    state.paused = True
    ZooModule.of(state).spawn_rights = {"alice": 0}
    result = _run(state, [mail("alice", "SPAWN SKUNK")])
    assert texts(result.events, "action") == [
        'alice: "SPAWN SKUNK" was not done: alice may take no voluntary action this update.']


def test_skunk_on_the_zoo_spawns_another_skunk_and_two_skunks_meeting_both_die():
    state = _zoo()
    _skunk_on(state, 51)
    assert _creatures(state) == {"skunk": (51, 100), "skunk-2": (51, 100)}
    ctx = _ctx(state)
    land_creature(ctx, ZooModule.of(state).creatures[1], 51, how="went", rule="XIX.3")
    # Skunk 2 lands on the Zoo too: a third Skunk appears (not there when it landed), then the fight
    assert _creatures(state) == {"skunk-3": (51, 100)}
    assert "Skunk 2 and the Skunk fight on square 51, so violently that both die." in texts(ctx.events)


def test_skunk_on_a_railroad_pays_500_to_players_on_railroads_joined_to_it():
    state = _zoo()
    from fixtures.games import play

    state = play(state, rulings=[Ruling("enable", {"module": "railroads"}, "test")]).state
    state.update = 0
    from admin.games.nomopoly2.mechanics.railroads import RailroadsModule

    RailroadsModule.of(state).squares = [5, 6, 15, 9]
    state.players["alice"].square = 15
    state.players["bob"].square = 9
    state.players["carol"].square = 7
    _skunk_on(state, 6)
    assert [state.players[n].money for n in PLAYERS] == [10500, 10000, 10000]


def test_skunk_on_the_elephant_makes_it_take_15_turns_and_on_the_gorilla_7_peels():
    state = _zoo()
    _put(state, ("elephant", 12, 100), ("gorilla", 12, 100))
    # 15 turns: north (12 -> 29), then east and west seven times (29 -> 30 -> 29 ...)
    _skunk_on(state, 12, (), {"zoo/elephant": [1] + [3, 4] * 7,
                                           "zoo/gorilla/throw": [1, 1, 1, 1, 1, 1, 1]})
    assert _creatures(state) == {"skunk": (12, 100), "elephant": (29, 100), "gorilla": (12, 100)}
    assert ZooModule.of(state).peels == [1, 2, 3, 4, 5, 6, 7]


def test_skunk_on_the_bison_is_sent_to_a_random_square_and_the_bison_loses_20():
    state = _zoo()
    _put(state, ("bison", 12, 100))
    _skunk_on(state, 12, (), {"zoo/skunk/sent": [33]})
    assert _creatures(state) == {"skunk": (33, 100), "bison": (12, 80)}


def test_skunk_on_a_legislative_building_gives_the_nearest_players_a_fake_id_used_on_a_vote():
    state = _zoo()
    state.players["alice"].square = 13  # one step west of 12
    state.players["bob"].square = 9     # one step south of 12
    state.players["carol"].square = 40
    _skunk_on(state, 12, ["legislative-building"])
    assert ZooModule.of(state).fake_ids == {"alice": 1, "bob": 1}


def test_a_fake_id_adds_one_vote_after_the_players_vote_and_survives_a_change_of_vote():
    from fixtures.games import play

    state = _zoo()
    ZooModule.of(state).fake_ids = {"alice": 1}
    made = play(state, [mail("bob", "PROPOSE Nothing\nTEXT Nothing happens.\nEND")])
    number = made.state.proposals[-1].number
    voted = play(made.state, [mail("alice", f"USE FAKE ID ON {number}\nVOTE {number} NO\nUSE FAKE ID ON {number}")])
    said = texts(voted.events, "action")
    assert said[0] == (f'alice: "USE FAKE ID ON {number}" was not done: you have not voted on proposal {number}; '
                       f"send VOTE {number} YES or NO first, then USE FAKE ID ON {number} (XIX.3)")
    assert said[2] == f"alice used a Fake ID: one more NO vote on proposal {number} (2 in all)."
    assert ZooModule.of(voted.state).fake_ids == {}
    assert f"Proposal {number} (Nothing) is rejected: 0 Yes, 2 No, 2 Abstain." in texts(voted.events)
    changed = play(made.state, [mail("alice", f"VOTE {number} NO\nUSE FAKE ID ON {number}\nVOTE {number} YES")])
    assert f"Proposal {number} (Nothing) is accepted: 2 Yes, 0 No, 2 Abstain." in texts(changed.events)


# -- XIX.3: the Blinking Jelly Dog; XIX.4; XIX.5; the Pokeball -----------------------------------
def test_the_jelly_dog_lands_on_a_random_square_and_acts_as_the_elephant_there():
    state = _zoo()
    _put(state, ("jelly-dog", 3, 100))
    result = _run(state, dice=[1, 2, 3, 4, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/jelly-dog/square": [8], "zoo/jelly-dog/as": [2]})
    assert result.state.players["bob"].square == 8
    assert _creatures(result.state) == {"jelly-dog": (8, 100)}
    assert health_of(result.state, "bob") == 85
    assert "The Blinking Jelly Dog blinks and acts as the Elephant." in texts(result.events)


def test_a_creature_at_0_health_leaves_the_board_and_may_be_spawned_again():
    state = _zoo()
    _put(state, ("elephant", 7, 100), ("gorilla", 14, 10))
    ctx = _ctx(state, {"zoo/elephant": [1]})
    from admin.games.nomopoly2.mechanics.zoo.mechanic import elephant_turn

    elephant_turn(ctx, ZooModule.of(state).creatures[0])
    assert _creatures(state) == {"elephant": (14, 100)}
    assert "The Gorilla left the board (its health reached -5)." in texts(ctx.events)
    ZooModule.of(state).spawn_rights = {"alice": 0}
    state.paused = True
    result = _run(state, [mail("alice", "SPAWN GORILLA")])
    assert _creatures(result.state) == {"elephant": (14, 100), "gorilla": (51, 100)}


def test_creatures_move_in_a_random_order_after_the_players():
    state = _zoo()
    _put(state, ("bison", 3, 100), ("skunk", 45, 100))
    result = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/order": [1], "zoo/bison": [1, 2], "zoo/skunk/up": [3], "zoo/skunk/right": [2]})
    said = texts(result.events)
    assert "The creatures move in this order: the Skunk, the MTS Bison." in said
    assert said.index("The creatures move in this order: the Skunk, the MTS Bison.") > max(
        i for i, t in enumerate(said) if t.startswith("carol moved"))


def test_a_pokeball_sends_a_random_creature_to_the_square_chosen():
    state = _zoo()
    _put(state, ("bison", 3, 100), ("gorilla", 9, 100))
    ctx = _ctx(state, {"zoo/pokeball": [2]})
    assert move_random_creature(ctx, 40, "XXIV.2") == "the Gorilla"
    assert _creatures(state) == {"bison": (3, 100), "gorilla": (40, 100)}
    _put(state)
    assert move_random_creature(ctx, 40, "XXIV.2") is None


def test_skunk_on_a_springboard_swaps_two_random_players_who_do_not_land():
    state = _zoo()
    for name, square in (("alice", 3), ("bob", 8), ("carol", 17)):
        state.players[name].square = square
    # the first die picks from alice, bob, carol (3: carol), the second from alice, bob (1: alice)
    ctx = _skunk_on(state, 12, ["springboard"], {"zoo/skunk/springboard": [3, 1]})
    assert [state.players[n].square for n in PLAYERS] == [17, 8, 3]
    assert not [e for e in ctx.events if e.kind == "land"]


def test_skunk_on_blackjack_brings_every_player_there():
    state = _zoo()
    state.square(12).name = "Blackjack"
    state.players["bob"].square = 12
    ctx = _skunk_on(state, 12)
    assert [state.players[n].square for n in PLAYERS] == [12, 12, 12]
    said = texts(ctx.events)
    assert "alice jumped from square 1 to square 12 (the Skunk on Blackjack)." in said
    assert not any(t.startswith("bob jumped") for t in said)
    assert "The Skunk sprayed bob, who passes out: no voluntary actions this update." in said


def test_skunk_effects_through_sections_not_in_force_do_nothing_and_say_so():
    state = _zoo()
    ctx = _skunk_on(state, 12, ["missile-silo"])  # buildings in force, missiles not
    assert not state.enabled("missiles")
    assert texts(ctx.events)[-1] == (
        "The Skunk on the Missile Silo on square 12: nothing happens, XXVI (missiles) is not in force.")


def test_the_jelly_dog_acting_as_the_skunk_sprays_in_its_own_name():
    state = _zoo()
    _put(state, ("jelly-dog", 3, 100))
    result = _run(state, dice=[1, 2, 3, 4, 1, 2], order=["alice", "bob", "carol"],
                  rolls={"zoo/jelly-dog/square": [8], "zoo/jelly-dog/as": [4]})
    assert health_of(result.state, "bob") == 85
    assert "The Blinking Jelly Dog sprayed bob, who passes out: no voluntary actions this update." in texts(result.events)


def test_a_destroyed_square_takes_its_peel_and_sends_its_creatures_to_the_lowest_square():
    from admin.engine.board import destroy_square

    state = _zoo()
    _put(state, ("bison", 12, 100))
    ZooModule.of(state).peels = [12, 20]
    destroy_square(state, 12, hooks.call(state, REGISTRY))
    assert _creatures(state) == {"bison": (1, 100)} and ZooModule.of(state).peels == [20]


def test_the_jelly_dog_acting_as_the_bison_offers_a_ride_on_itself():
    state = _zoo()
    _put(state, ("jelly-dog", 3, 100))
    first = _run(state, dice=[1, 2, 3, 4, 1, 2], order=["alice", "bob", "carol"],
                 rolls={"zoo/jelly-dog/square": [8], "zoo/jelly-dog/as": [3]})
    assert [(o.creature, o.square, o.players) for o in ZooModule.of(first.state).offers] == [("jelly-dog", 8, ["bob"])]
    lines = ZooModule().results_lines(first.state, first.state.players["bob"])
    assert lines == [(67, "  The Blinking Jelly Dog landed on your square 8: you may ride it to any square with "
                          "RIDE BISON TO <square> in your next mail (#1) (XIX.3).")]
    first.state.paused = True
    second = _run(first.state, [mail("bob", "ACCEPT 1\nRIDE BISON TO 30")])
    assert texts(second.events, "action") == [
        'bob: "ACCEPT 1" was not done: to ride, write RIDE BISON TO <square> (XIX.3); DECLINE 1 says no',
        "bob rode the Blinking Jelly Dog from square 8 to square 30."]
    assert _creatures(second.state) == {"jelly-dog": (30, 100)}


def test_a_spawn_right_is_told_in_the_players_results():
    state = _zoo()
    ZooModule.of(state).spawn_rights = {"alice": 0}
    assert ZooModule().results_lines(state, state.players["alice"]) == [
        (66, "  You landed on the Zoo: you may SPAWN a creature in your next mail (GORILLA, ELEPHANT, BISON, "
             "SKUNK or JELLY DOG) (XIX.2).")]
    assert ZooModule().results_lines(state, state.players["bob"]) == []


def test_other_sections_hurt_the_creatures_on_a_square():
    from admin.games.nomopoly2.mechanics.zoo.mechanic import hurt_creatures_on

    state = _zoo()
    _put(state, ("bison", 12, 100), ("skunk", 12, 20), ("gorilla", 13, 100))
    ctx = _ctx(state)
    assert hurt_creatures_on(ctx, 12, -25, rule="XXVI.6", reason="an ICBM") == ["the MTS Bison", "the Skunk"]
    assert _creatures(state) == {"bison": (12, 75), "gorilla": (13, 100)}


def test_an_offer_nobody_takes_closes_saying_so():
    state = _zoo()
    _put(state, ("bison", 2, 100))
    first = _run(state, dice=[1, 2, 1, 2, 1, 2], order=["alice", "bob", "carol"], rolls={"zoo/bison": [1, 1]})
    first.state.paused = True
    second = _run(first.state, [mail("bob", "DECLINE 1")])
    assert "#1 (offer) closed: nobody rode the MTS Bison" in texts(second.events)
    assert ZooModule.of(second.state).offers == []


def test_property_tax_may_be_read_as_the_prices_paid():
    state = _zoo(property_tax="prices")
    set_owner(state, 3, "alice", paid=0)   # a gift
    set_owner(state, 14, "alice")          # nothing recorded: the list price, 25 x 14
    set_owner(state, 20, "bob", paid=600)
    _skunk_on(state, 12, ["corporate-headquarters"])
    assert [state.players[n].money for n in PLAYERS] == [10000 - 350, 10000 - 600, 10000]


