"""Nomopoly II XXIV, the House of Cards: square 42 belongs to nobody; cards from a player's hand
buy items there in exact combinations; each item does what XXIV.2 says when used.

The board is grown to 50 squares so that square 42 exists; games are paused (no turns) unless a
test forces the dice through a scenario."""

from fixtures.games import new_state, play, texts
from fixtures.n2_sections import governing, riding, with_block, with_buildings

from admin.engine.events import Ruling
from admin.engine.update import LineCommand, Submission
from admin.mail.inbound.grammar import grammar_for, parse_text
from admin.library import cards
from admin.library.health import health_of
from admin.games.nomopoly2.mechanics.house_of_cards import items as hoc_items
from admin.games.nomopoly2.mechanics.house_of_cards.combos import buys, fits, is_straight
from admin.games.nomopoly2.mechanics.shared import has_condition
from admin.library.ownership import set_owner
from admin.engine.model import Square

PLAYERS = ("alice", "bob", "carol")


def gmail(state, player, text):
    """An email parsed by the game's own grammar (USE JETPACK is the first Nomopoly's too)."""
    verdicts = parse_text(text, grammar_for(state))
    assert not [v.error for v in verdicts if v.error]
    return Submission(key=f"{player}-{abs(hash(text)) % 10**8}", player=player, sender=f"{player}@example.org",
                      received="2026-11-04T10:00:00+00:00",
                      commands=[LineCommand(v.first_line, v.text, v.command) for v in verdicts])


def _game(modules=("house-of-cards",)):
    state = play(new_state(PLAYERS), rulings=[Ruling("enable", {"module": m}, "test") for m in modules]).state
    while len(state.squares) < 50:
        state.squares.append(Square(number=len(state.squares) + 1))
    state.paused = True
    for p in state.players.values():
        p.money = 10000
    return state


def items(state, name):
    return hoc_items.hs(state).items.items(name)


def test_combinations_are_exact_and_aces_are_low_or_high_but_never_wrap():
    assert buys(["7S"]) == ["jetpack"] and buys(["7H"]) == []
    assert buys(["7S", "7S"]) == ["card remover", "medicine", "bingo card", "pokeball"]
    assert buys(["7S", "7H", "2D", "2C"]) == ["time bomb"]
    assert not fits("time bomb", ["7S", "7H", "7D", "7C"])  # four of a kind is not two pairs
    assert buys(["7S", "7H", "7D"]) == ["warp bubble"]
    assert is_straight(["AS", "2H", "3D", "4C", "5S"]) and is_straight(["10S", "JH", "QD", "KC", "AS"])
    assert not is_straight(["QS", "KH", "AD", "2C", "3S"])
    assert buys(["2H", "5H", "9H", "JH", "KH"]) == ["glue"]
    assert buys(["7S", "7H", "7D", "2C", "2D"]) == ["anthrax"]
    assert buys(["9C", "10C", "JC", "QC", "KC"]) == ["hammer", "glue", "mask"]
    assert not fits("medicine", ["7S", "7H", "2D"])  # no extra cards


def test_nobody_may_buy_the_house_of_cards_and_landing_there_gives_no_right_to_buy():
    state = _game()
    square = state.square(42)
    from admin.games.registry import REGISTRY

    assert not all(m.can_own(state, square) for m in REGISTRY.enabled(state))
    assert all(m.can_own(state, state.square(41)) for m in REGISTRY.enabled(state))


def test_an_exchange_on_square_42_takes_exactly_the_cards_and_gives_the_item():
    state = _game()
    state.players["alice"].square = 42
    cards.set_hand(state, "alice", ["7S", "7H", "KD", "2S"])
    result = play(state, [gmail(state, "alice", "EXCHANGE 7S 7H FOR MEDICINE\nEXCHANGE 2S FOR A JETPACK")])
    assert cards.hand(result.state, "alice") == ["KD"]
    assert items(result.state, "alice") == {"jetpack": 1, "medicine": 1}
    assert texts(result.events, "action") == [
        "alice traded 2 cards at the House of Cards for medicine.",
        "alice traded 1 card at the House of Cards for a jetpack."]
    assert "You traded 7S, 7H for medicine." in [e.private for e in result.events]


def test_an_exchange_off_the_square_or_with_the_wrong_cards_is_refused_and_costs_nothing():
    state = _game()
    state.players["alice"].square = 41
    state.players["bob"].square = 42
    cards.set_hand(state, "alice", ["7S"])
    cards.set_hand(state, "bob", ["7S", "8S", "9H"])
    result = play(state, [gmail(state, "alice", "EXCHANGE 7S FOR JETPACK"),
                          gmail(state, "bob", "EXCHANGE 7S 8S FOR MEDICINE\nEXCHANGE 9H 9D FOR MEDICINE")])
    assert cards.hand(result.state, "alice") == ["7S"] and cards.hand(result.state, "bob") == ["7S", "8S", "9H"]
    assert sorted(texts(result.events, "action")) == sorted([
        'alice: "EXCHANGE 7S FOR JETPACK" was not done: you are on square 41; items are traded on the '
        "House of Cards, square 42 (XXIV.1)",
        'bob: "EXCHANGE 7S 8S FOR MEDICINE" was not done: 7S 8S is not a pair (two cards of the same rank), '
        "the price of medicine (XXIV.2); those cards would buy card remover",
        'bob: "EXCHANGE 9H 9D FOR MEDICINE" was not done: you do not hold the 9 of diamonds (9D); you '
        "hold 7S, 8S, 9H"])


def test_a_shovel_costs_50_dollars_and_digs_up_the_cards_buried_under_ones_square():
    state = _game()
    state.players["alice"].square = 42
    buried = cards.CardsModule.private_of(state).buried
    buried += [cards.BuriedCard(1, 42, "bob", "QH"), cards.BuriedCard(1, 7, "bob", "2C"),
               cards.BuriedCard(1, 42, "carol", "3D")]
    result = play(state, [gmail(state, "alice", "BUY SHOVEL\nUSE SHOVEL")])
    assert result.state.players["alice"].money == 9950
    assert cards.hand(result.state, "alice") == ["QH", "3D"]
    assert [b.card for b in cards.buried_cards(result.state)] == ["2C"]
    assert "You dug up QH, 3D under square 42." in [e.private for e in result.events]
    assert items(result.state, "alice") == {}


def test_a_shovel_stops_at_25_cards_and_tells_the_digger_what_stays_buried():
    state = _game()
    state.players["alice"].square = 42
    cards.set_hand(state, "alice", ["2S"] * 24)
    hoc_items.hs(state).items.give("alice", "shovel")
    buried = cards.CardsModule.private_of(state).buried
    buried += [cards.BuriedCard(1, 42, "bob", c) for c in ("QH", "KH", "AH")]
    result = play(state, [gmail(state, "alice", "USE SHOVEL")])
    hand = cards.hand(result.state, "alice")
    assert len(hand) == 25
    got = hand[-1]
    left = [b.card for b in cards.buried_cards(result.state)]
    assert sorted([got, *left]) == ["AH", "KH", "QH"] and len(left) == 2
    assert (f"You dug up {got} under square 42; still buried there (you hold 25 cards, the most a shovel "
            f"brings you to): {', '.join(left)}.") in [e.private for e in result.events]


def test_medicine_heals_15_and_a_hammer_hurts_15_only_on_the_same_square():
    state = _game()
    for name, sq in (("alice", 10), ("bob", 10), ("carol", 11)):
        state.players[name].square = sq
    hoc_items.hs(state).items.give("alice", "hammer", 2)
    hoc_items.hs(state).items.give("bob", "medicine")
    result = play(state, [gmail(state, "alice", "USE HAMMER ON bob\nUSE HAMMER ON carol"),
                          gmail(state, "bob", "USE MEDICINE")])
    assert health_of(result.state, "bob") == 100 and health_of(result.state, "carol") == 100
    assert items(result.state, "alice") == {"hammer": 1}
    assert ('alice: "USE HAMMER ON carol" was not done: carol is on square 11 and you on square 10; a '
            "hammer hits a player on your own square (XXIV.2)") in texts(result.events, "action")
    assert "bob lost 15 health (alice's hammer); now 85." in texts(result.events)


def test_a_card_remover_takes_the_card_off_ones_own_square_only():
    state = _game()
    set_owner(state, 14, "alice")
    set_owner(state, 15, "bob")
    cards.place_card(state, 14, "KD")
    cards.place_card(state, 15, "QS")
    hoc_items.hs(state).items.give("alice", "card remover", 2)
    result = play(state, [gmail(state, "alice", "USE CARD REMOVER ON 14\nUSE CARD REMOVER ON 15")])
    assert cards.placed_on(result.state, 14) is None and cards.placed_on(result.state, 15) == "QS"
    assert items(result.state, "alice") == {"card remover": 1}
    assert texts(result.events, "action") == [
        "alice used a card remover on square 14: the king of diamonds is gone.",
        'alice: "USE CARD REMOVER ON 15" was not done: a card remover works on a square you own (XXIV.2); '
        "square 15 is owned by bob"]


def test_a_time_bomb_is_hidden_and_one_a_square():
    state = _game()
    state.players["alice"].square = 33
    hoc_items.hs(state).items.give("alice", "time bomb", 2)
    result = play(state, [gmail(state, "alice", "PLACE TIME BOMB\nPLACE TIME BOMB")])
    assert hoc_items.hp(result.state).bombs == {33: "alice"}
    placed = [e for e in result.events if e.kind == "action" and e.ok]
    assert placed[0].text is None and placed[0].private.startswith("You placed a time bomb on square 33")
    assert placed[1].text is None and placed[1].private == (
        "Your time bomb was not placed: square 33 holds a time bomb already, and a square holds one at "
        "most (XXIV.2). You keep yours.")
    assert items(result.state, "alice") == {"time bomb": 1}
    from admin.games.registry import REGISTRY

    assert all(f.key != "time_bombs" for m in REGISTRY.enabled(result.state)
               for f in m.square_facts(result.state, result.state.square(33)))


def test_a_warp_bubble_jumps_and_lands_once_an_update_never_to_blackjack():
    state = _game()
    state.square(30).name = "Blackjack"
    set_owner(state, 25, "bob")
    hoc_items.hs(state).items.give("alice", "warp bubble", 3)
    result = play(state, [gmail(state, "alice", "USE WARP BUBBLE TO 30\nUSE WARP BUBBLE TO 25\n"
                                                "USE WARP BUBBLE TO 26")])
    alice = result.state.players["alice"]
    assert alice.square == 25 and alice.money == 10000 - 75  # landed: rent 3 x 25
    assert items(result.state, "alice") == {"warp bubble": 2}  # one used; the refusals keep theirs
    assert texts(result.events, "action")[0] == ('alice: "USE WARP BUBBLE TO 30" was not done: square 30 is '
                                                 "named Blackjack; a warp bubble may not go there (XXIV.2)")
    assert texts(result.events, "action")[2] == ('alice: "USE WARP BUBBLE TO 26" was not done: you used a '
                                                 "warp bubble this update already; one an update (XXIV.2)")


def test_anthrax_infects_until_the_house_of_cards_cures_and_costs_5_health_each_week_start():
    state = _game(("house-of-cards",))
    hoc_items.hs(state).items.give("alice", "anthrax")
    hoc_items.hs(state).items.give("bob", "warp bubble")
    one = play(state, [gmail(state, "alice", "USE ANTHRAX ON bob")])  # update 2: Sunday
    assert has_condition(one.state, "bob", "infected")
    three = play(one.state)  # update 3: the start of week 2
    assert health_of(three.state, "bob") == 95
    assert "bob lost 5 health (anthrax, at the start of the week); now 95." in texts(three.events)
    four = play(three.state, [gmail(three.state, "bob", "USE WARP BUBBLE TO 42")])
    assert not has_condition(four.state, "bob", "infected")
    assert "bob is cured of anthrax (landing on the House of Cards)." in texts(four.events)
    five = play(play(four.state).state)  # week 3 starts: no loss
    assert health_of(five.state, "bob") == 95


def test_glue_stops_a_passing_player_who_lands_there_and_the_glue_wears_off():
    state = _game()
    state.paused = False
    hoc_items.hs(state).glued = [44]
    set_owner(state, 44, "bob")
    for name, sq in (("alice", 40), ("bob", 1), ("carol", 1)):
        state.players[name].square = sq
    from admin.engine.movement import move
    from admin.games.registry import REGISTRY
    from admin.engine.context import UpdateContext
    from admin.engine.dice import Dice
    from admin.engine.schedule import Slot

    ctx = UpdateContext(state=state, dice=Dice(seed=b"s", digest="d", update=9), slot=Slot("t", 0),
                        registry=REGISTRY)
    move(ctx, state.players["alice"], 7)
    assert state.players["alice"].square == 44 and hoc_items.hs(state).glued == []
    assert state.players["alice"].money == 10000 - 132  # landed: rent 3 x 44
    assert texts(ctx.events, "move") == ["alice moved 4 from square 40 to square 44."]
    move(ctx, state.players["alice"], 3)  # over no glue now
    assert state.players["alice"].square == 47


def test_glue_on_the_square_one_lands_on_stays_there():
    state = _game()
    hoc_items.hs(state).glued = [44]
    from admin.engine.movement import move
    from admin.games.registry import REGISTRY
    from admin.engine.context import UpdateContext
    from admin.engine.dice import Dice
    from admin.engine.schedule import Slot

    ctx = UpdateContext(state=state, dice=Dice(seed=b"s", digest="d", update=9), slot=Slot("t", 0),
                        registry=REGISTRY)
    state.players["alice"].square = 40
    move(ctx, state.players["alice"], 4)
    assert state.players["alice"].square == 44 and hoc_items.hs(state).glued == [44]


def test_a_mask_makes_the_wearers_landing_happen_to_the_impersonated_player():
    state = _game()
    set_owner(state, 6, "carol")
    for name, sq in (("alice", 3), ("bob", 20)):
        state.players[name].square = sq
    hoc_items.hs(state).masks = {"alice": "bob"}
    from admin.engine.movement import move
    from admin.games.registry import REGISTRY
    from admin.engine.context import UpdateContext
    from admin.engine.dice import Dice
    from admin.engine.schedule import Slot

    ctx = UpdateContext(state=state, dice=Dice(seed=b"s", digest="d", update=9), slot=Slot("t", 0),
                        registry=REGISTRY)
    move(ctx, state.players["alice"], 3)
    alice, bob = state.players["alice"], state.players["bob"]
    assert (alice.square, bob.square) == (6, 20)
    assert (alice.money, bob.money, state.players["carol"].money) == (10000, 10000 - 18, 10018)
    assert "bob paid $18 rent to carol for square 6." in texts(ctx.events)


def test_using_a_mask_lasts_one_update_and_not_on_oneself():
    state = _game()
    hoc_items.hs(state).items.give("alice", "mask", 2)
    result = play(state, [gmail(state, "alice", "USE MASK ON alice\nUSE MASK ON bob\nUSE MASK ON carol")])
    assert items(result.state, "alice") == {"mask": 1}
    assert hoc_items.hs(result.state).masks == {}  # lapsed at the update's end
    assert texts(result.events, "action") == [
        'alice: "USE MASK ON alice" was not done: a mask impersonates another player, not yourself',
        "alice put on a mask of bob: for this update, what alice's moves do on landing, leaving and "
        "passing squares happens to bob.",
        'alice: "USE MASK ON carol" was not done: you wear a mask already this update (as bob)']


def test_the_governor_may_not_buy_time_bombs_or_hammers():
    state = _game()
    state.players["alice"].square = 42
    cards.set_hand(state, "alice", ["7S", "7H", "2D", "2C"])
    governing(state, "alice")
    result = play(state, [gmail(state, "alice", "EXCHANGE 7S 7H 2D 2C FOR TIME BOMB")])
    assert texts(result.events, "action") == [
        'alice: "EXCHANGE 7S 7H 2D 2C FOR TIME BOMB" was not done: the Governor may not buy or use '
        "time bombs (XXXV.3)"]
    assert cards.hand(result.state, "alice") == ["7S", "7H", "2D", "2C"]


def test_a_pokeball_without_the_zoo_is_refused_and_kept():
    state = _game()
    hoc_items.hs(state).items.give("alice", "pokeball")
    result = play(state, [gmail(state, "alice", "USE POKEBALL TO 12")])
    assert items(result.state, "alice") == {"pokeball": 1}
    assert texts(result.events, "action") == [
        'alice: "USE POKEBALL TO 12" was not done: there are no creatures on the board, so a Pokeball '
        "may not be used (XXIV.2)"]


def test_a_jetpack_adds_one_die_to_the_next_turn():
    state = _game()
    state.paused = False
    hoc_items.hs(state).items.give("alice", "jetpack")
    result = play(state, [gmail(state, "alice", "USE JETPACK")])
    roll = next(e for e in result.events if e.kind == "roll" and e.player == "alice")
    assert len(roll.data["faces"]) == 3
    assert hoc_items.hs(result.state).jetpacks == [] and items(result.state, "alice") == {}
    other = next(e for e in result.events if e.kind == "roll" and e.player == "bob")
    assert len(other.data["faces"]) == 2


# -- what other sections' facts do to the items (those sections in force, their state set) --------
from admin.engine.context import UpdateContext  # noqa: E402
from admin.engine.dice import Dice  # noqa: E402
from admin.engine.movement import jump, move  # noqa: E402
from admin.engine.schedule import Slot  # noqa: E402
from admin.games.registry import REGISTRY  # noqa: E402


def _ctx(state):
    return UpdateContext(state=state, dice=Dice(seed=b"s", digest="d", update=9), slot=Slot("t", 1),
                         registry=REGISTRY)


def test_clogs_walk_over_glue_which_stays():
    state = _game()
    hoc_items.hs(state).glued = [44]
    state.players["alice"].square = 40
    riding(state, "clogs", "alice")
    move(_ctx(state), state.players["alice"], 6)
    assert state.players["alice"].square == 46 and hoc_items.hs(state).glued == [44]


def test_a_pogo_stick_in_glue_stops_and_its_rider_passes_out():
    state = _game()
    hoc_items.hs(state).glued = [44]
    state.players["alice"].square = 40
    riding(state, "pogo-stick", "alice")
    ctx = _ctx(state)
    move(ctx, state.players["alice"], 6)
    assert state.players["alice"].square == 44 and hoc_items.hs(state).glued == []
    assert health_of(state, "alice") == 85 and "alice" in ctx.barred
    from admin.games.nomopoly2.mechanics.conditions import ConditionsModule

    assert ConditionsModule.of(state).until["alice"] == {"passed-out": state.update}  # this update only


def test_a_krazy_carpet_rides_over_a_time_bomb_which_waits_for_the_next_lander():
    state = _game()
    hoc_items.hp(state).bombs = {30: "carol"}
    riding(state, "krazy-carpet", "alice")
    ctx = _ctx(state)
    jump(ctx, state.players["alice"], 30, rule="t", reason="t")
    jump(ctx, state.players["bob"], 30, rule="t", reason="t")
    assert health_of(state, "alice") == 100 and health_of(state, "bob") == 80
    assert hoc_items.hp(state).bombs == {}


def test_anthrax_may_not_be_used_on_a_helicopter_user():
    state = _game()
    hoc_items.hs(state).items.give("alice", "anthrax")
    riding(state, "helicopter", "bob")
    result = play(state, [gmail(state, "alice", "USE ANTHRAX ON bob")])
    assert not has_condition(result.state, "bob", "infected")
    assert items(result.state, "alice") == {"anthrax": 1}
    assert texts(result.events, "action") == [
        'alice: "USE ANTHRAX ON bob" was not done: bob travels by helicopter, and anthrax may not be '
        "used on a helicopter user (XXIX.3)"]


def test_the_governor_may_commit_no_atrocity_so_no_anthrax_on_others_nor_a_mask():
    state = _game()
    hoc_items.hs(state).items.give("alice", "anthrax")
    hoc_items.hs(state).items.give("alice", "mask")
    governing(state, "alice")
    result = play(state, [gmail(state, "alice", "USE ANTHRAX ON bob\nUSE MASK ON bob")])
    assert items(result.state, "alice") == {"anthrax": 1, "mask": 1}
    assert texts(result.events, "action") == [
        'alice: "USE ANTHRAX ON bob" was not done: the Governor may not commit any atrocities (XXXV.3)',
        'alice: "USE MASK ON bob" was not done: the Governor may not commit any atrocities (XXXV.3)']


def test_a_hospital_in_a_block_one_owns_part_of_cures_anthrax_and_another_does_not():
    from admin.games.nomopoly2.mechanics.conditions import grant

    state = _game()
    grant(state, "alice", "infected", 0)
    grant(state, "bob", "infected", 0)
    set_owner(state, 13, "alice")
    with_buildings(state, {12: ["hospital"]})
    with_block(state, "residential", [12, 13])
    ctx = _ctx(state)
    jump(ctx, state.players["alice"], 12, rule="t", reason="t")
    jump(ctx, state.players["bob"], 12, rule="t", reason="t")
    assert not has_condition(state, "alice", "infected") and has_condition(state, "bob", "infected")
    assert ("alice is cured of anthrax (landing on the Hospital of square 12, in a block they own part "
            "of).") in texts(ctx.events)


def test_a_pokeball_moves_the_zoos_random_creature_and_is_used_up():
    from admin.games.nomopoly2.mechanics.zoo.state import Creature, zoo_of

    state = _game(("house-of-cards", "zoo"))
    zoo_of(state).creatures = [Creature(id="elephant", kind="elephant", square=3)]  # the only one: no roll
    hoc_items.hs(state).items.give("alice", "pokeball")
    result = play(state, [gmail(state, "alice", "USE POKEBALL TO 12")])
    assert [(c.id, c.square) for c in zoo_of(result.state).creatures] == [("elephant", 12)]
    assert items(result.state, "alice") == {}
    assert "alice threw a Pokeball: the Elephant jumped to square 12." in texts(result.events, "action")


def test_a_masked_move_that_passes_the_end_pays_the_1000_to_the_impersonated_player():
    state = _game()
    for name, sq in (("alice", 48), ("bob", 20)):
        state.players[name].square = sq
    hoc_items.hs(state).masks = {"alice": "bob"}
    ctx = _ctx(state)
    assert move(ctx, state.players["alice"], 4) == 0
    assert (state.players["alice"].square, state.players["bob"].square) == (2, 20)
    assert (state.players["alice"].money, state.players["bob"].money) == (10000, 11000)


def test_a_reset_takes_the_items_and_the_infection():
    from admin.library.health import reset_player
    from admin.games.nomopoly2.mechanics.conditions import grant

    state = _game()
    grant(state, "alice", "infected", 0)
    hoc_items.hs(state).items.give("alice", "glue")
    ctx = _ctx(state)
    reset_player(ctx, state.players["alice"], reason="test")
    assert items(state, "alice") == {} and not has_condition(state, "alice", "infected")


def test_the_board_shows_the_house_of_cards_and_glue_but_never_a_time_bomb():
    from admin.games.nomopoly2.mechanics.house_of_cards.mechanic import HouseOfCardsModule

    state = _game()
    hoc_items.hs(state).glued = [12]
    hoc_items.hp(state).bombs = {13: "alice"}
    m = HouseOfCardsModule()
    assert m.square_look(state, state.square(42)).flags == ((58, "HC", "the House of Cards"),)
    assert m.square_look(state, state.square(12)).flags == ((82, "GL", "glue"),)
    assert m.square_look(state, state.square(13)) is None
    assert [f.key for f in m.square_facts(state, state.square(13))] == ["glue"]
    assert [f.value for f in m.private_facts(state, state.players["alice"])] == [[13]]
    assert [f.value for f in m.private_facts(state, state.players["bob"])] == [[]]
