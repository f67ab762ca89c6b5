"""The Teams variant's Products (XIX), jobs (XXXII) and health (who is Sick or Hurt): what the
scenario files (tests/games/nomoteams/scenarios/xix*, xxxii*) do not reach: the payment of a job's 75%
share and the 'Bot that absorbs it (no section sells painting or Taxi rides yet, so they are
called directly), XIX.12's share of the patent holder's money, the Eye Opener's core hook
(``mail_first``), a leaver's Products, the Admin's health ruling, the pages."""

from __future__ import annotations

from collections import deque

import pytest

from admin.engine.context import UpdateContext
from admin.engine.schedule import Slot
from admin.engine.errors import IllegalAction
from admin.games.catalog import initial_state
from admin.games.registry import REGISTRY
from admin.games.nomoteams.mechanics.labor import LaborModule, pay_for_service
from admin.games.nomoteams.mechanics.products.mechanic import ProductsModule, Purchase, purchase
from admin.games.nomoteams.mechanics.shared import CORPORATION, GOVERNMENT
from admin.jobs.roster import add_player
from admin.jobs.scenario import ForcedDice, run

GAME = "nomoteams"


def _ctx(*names: str, rolls: dict[str, list[int]] | None = None) -> UpdateContext:
    state = initial_state(GAME, "t")
    for name in names:
        add_player(state, name, f"{name}@example.org")
    state.update = 1
    dice = ForcedDice(seed=b"t", digest="t", update=1, others={k: deque(v) for k, v in (rolls or {}).items()})
    return UpdateContext(state=state, dice=dice, slot=Slot(name="Sunday", index=0, week_end=True),
                         registry=REGISTRY)


def _hire(ctx: UpdateContext, job: str, holder: str) -> None:
    next(j for j in LaborModule.of(ctx.state).jobs if j.name == job).holder = holder


def _money(ctx: UpdateContext, name: str) -> int:
    if name in ctx.state.players:
        return ctx.state.players[name].money
    return ctx.state.mods["teams-pseudo"].money.get(name, 0)


def test_xxxii4_the_head_gipper_is_paid_75_percent_of_painting_and_goes_to_the_square():
    """XXXII.4: bob pays The Government $30 to paint square 7; the Head GIPPer, carol, gets 75%:
    $22.50, rounded half up to $23 (IV.4); The Government keeps $7; carol is moved to square 7."""
    ctx = _ctx("alice", "bob", "carol")
    _hire(ctx, "Head GIPPer", "carol")
    paid = pay_for_service(ctx, ctx.state.players["bob"], 30, "Head GIPPer", 7, rule="XIII.5", reason="painting")
    assert paid == 30
    assert (_money(ctx, "bob"), _money(ctx, "carol"), _money(ctx, GOVERNMENT)) == (970, 1023, 7)
    assert ctx.state.players["carol"].square == 7


def test_xxxii5_the_taxi_driver_is_paid_75_percent_of_the_ride_and_goes_to_its_end():
    """XXXII.5: a $40 ride to square 12: the Taxi Driver gets $30, The Government $10; with nobody
    in the job, The Government keeps all $40."""
    ctx = _ctx("alice", "bob")
    pay_for_service(ctx, ctx.state.players["alice"], 40, "Taxi Driver", 12, rule="XXI.1", reason="a Taxi ride")
    assert (_money(ctx, "alice"), _money(ctx, GOVERNMENT)) == (960, 40)
    _hire(ctx, "Taxi Driver", "bob")
    pay_for_service(ctx, ctx.state.players["alice"], 40, "Taxi Driver", 12, rule="XXI.1", reason="a Taxi ride")
    assert (_money(ctx, "alice"), _money(ctx, "bob"), _money(ctx, GOVERNMENT)) == (920, 1030, 50)
    assert ctx.state.players["bob"].square == 12


def test_xix10_a_bot_absorbs_a_payment_to_a_job_holder_and_explodes_on_three_pips():
    """XIX.10: alice's 'Bot absorbs the $40 Taxi fare (she pays nothing, the driver gets no share);
    three dice show 1+1+1 = 3: it explodes, destroying the closest square nobody stands on to
    alice's square 1 (everyone is on square 1): square 2; the 'Bot is gone."""
    ctx = _ctx("alice", "bob", rolls={"bot/": [1, 1, 1]})
    _hire(ctx, "Taxi Driver", "bob")
    ProductsModule.of(ctx.state).held.give("alice", "'Bot")
    paid = pay_for_service(ctx, ctx.state.players["alice"], 40, "Taxi Driver", 12, rule="XXI.1", reason="a ride")
    assert paid == 0 and (_money(ctx, "alice"), _money(ctx, "bob"), _money(ctx, GOVERNMENT)) == (1000, 1000, 0)
    # square 2 destroyed: the highest square takes its number (XVIII.2), the board is one shorter
    assert [e.text for e in ctx.events if e.kind == "destroyed"] == [
        "Square 2 was destroyed (alice's 'Bot exploded): square 20 is now square 2 (XVIII.2)."]
    assert len([sq for sq in ctx.state.squares if not sq.destroyed]) == 19
    assert ProductsModule.of(ctx.state).held.items("alice") == {}
    assert ctx.state.players["bob"].square == 12  # still transported (XXXII.5)


def test_xix10_a_bot_wears_out_after_three_payments_and_absorbs_nothing_without_a_job_holder():
    """XIX.10: 6+6+6 three times: no explosion, and after the third payment the 'Bot is gone; a
    payment of which no part goes to a job holder is paid in full and rolls nothing."""
    ctx = _ctx("alice", "bob", rolls={"bot/": [6] * 9})
    ProductsModule.of(ctx.state).held.give("alice", "'Bot")
    pay_for_service(ctx, ctx.state.players["alice"], 40, "Taxi Driver", 12, rule="XXI.1", reason="a ride")
    assert _money(ctx, "alice") == 960 and ProductsModule.of(ctx.state).held.count("alice", "'Bot") == 1
    _hire(ctx, "Taxi Driver", "bob")
    for n in range(3):
        assert ProductsModule.of(ctx.state).held.count("alice", "'Bot") == 1
        assert pay_for_service(ctx, ctx.state.players["alice"], 40, "Taxi Driver", 12, rule="XXI.1",
                               reason="a ride") == 0
    assert ProductsModule.of(ctx.state).held.items("alice") == {} and _money(ctx, "alice") == 960
    assert not any(s.destroyed for s in ctx.state.squares)


def test_xix12_half_of_what_the_impersonators_patent_holder_receives_goes_to_the_disguise_kits():
    """XIX.12: with the patents held by players in the game (dave: the Impersonator 2000, erin: the
    Disguise Kit), a Better Disguise Kit ($600, $60 royalty) pays dave $60, who passes $30 to erin;
    the other $540 has no named maker and leaves the game. The Impersonator itself is not sold."""
    ctx = _ctx("alice", "dave", "erin")
    products = {p.name: p for p in ProductsModule.of(ctx.state).products}
    products["Impersonator 2000"].patent, products["Disguise Kit"].patent = "dave", "erin"
    alice = ctx.state.players["alice"]
    purchase(ctx, alice, Purchase("better disguise kit"))
    assert (_money(ctx, "alice"), _money(ctx, "dave"), _money(ctx, "erin")) == (400, 1030, 1030)
    with pytest.raises(IllegalAction, match="not sold on the market"):
        purchase(ctx, alice, Purchase("Impersonator 2000"))


def test_xix2_a_purchase_needs_the_price_and_names_what_is_for_sale():
    ctx = _ctx("alice")
    alice = ctx.state.players["alice"]
    purchase(ctx, alice, Purchase("warp bubble"))  # $1000 - $500
    alice.money = 400
    with pytest.raises(IllegalAction, match=r"the Warp Bubble costs \$500 and you have \$400"):
        purchase(ctx, alice, Purchase("bubble"))
    with pytest.raises(IllegalAction, match="names no Product"):
        purchase(ctx, alice, Purchase("flux capacitor"))
    assert _money(ctx, CORPORATION) == 500


def _eye_opener(bob_drinks: bool):
    bob = "DRINK EYE OPENER\nPROPOSE Night owl\nBob's rule.\nEND" if bob_drinks else "PROPOSE Night owl\nx\nEND"
    return run({"game": GAME, "players": {"alice": {"team": "North"},
                                          "bob": {"team": "South", "products": {"Eye Opener": 1}}},
                "updates": [{"received": {"alice": "2026-11-07T10:00:00+00:00", "bob": "2026-11-08T22:00:00+00:00"},
                             "mail": {"alice": "PROPOSE Early bird\nx\nEND", "bob": bob}}]}, "t")


def test_xix7_the_mail_first_hook_puts_an_eye_openers_mail_before_earlier_mail():
    """XIX.7 through the core's ``mail_first`` hook: without the drink, alice's earlier mail makes
    proposal 1; with it, bob's does."""
    plain, drunk = _eye_opener(False), _eye_opener(True)
    assert [p.proposer for p in plain.state.proposals] == ["alice", "bob"]
    assert [p.proposer for p in drunk.state.proposals] == ["bob", "alice"]
    assert ProductsModule.of(drunk.state).held.items("bob") == {}


def test_xix11_a_disguise_kit_goes_to_the_admins_todo_and_wears_off_at_the_weeks_end():
    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"Disguise Kit": 1}},
                                         "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "USE DISGUISE KIT ON bob"}}]}, "t")
    texts = [e.text for e in out.events if e.text]
    assert any(t.startswith("alice used a Disguise Kit on bob (XIX.11): until this week's end") for t in texts)
    assert "alice's Disguise Kit on bob wore off at the week's end (XIX.11)." in texts
    assert ProductsModule.of(out.state).disguises == {}


def test_ii8_a_leavers_products_go_to_her_heir():
    """II.8 with Products: LEAVE TO bob hands alice's Products to bob (the objects' keeper that owns
    them takes them, not the Zoo's hats)."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"V-8": 2, "Gremlins": 1}},
                                         "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "LEAVE TO bob"}}]}, "t")
    assert ProductsModule.of(out.state).held.items("bob") == {"Gremlins": 1, "V-8": 2}
    assert out.state.mods["teams-government"].hats == {}


def test_the_admin_records_health_and_a_sick_player_rolls_one_die():
    """The health module's ruling; VII.1 reads its lists (one die for a Sick player)."""
    out = run({"game": GAME, "players": {"alice": {"team": "North"}, "bob": {"team": "South"}},
               "updates": [{"rulings": [{"kind": "health", "args": {"player": "bob", "sick": True, "hurt": True},
                                         "note": "the Elephant"}]}]}, "t")
    health = out.state.mods["teams-health"]
    assert (health.sick, health.hurt) == (["bob"], ["bob"])
    turns = REGISTRY.get("teams-turns")
    assert turns.dice_for(out.state, out.state.players["bob"]) == "1d6"
    assert turns.dice_for(out.state, out.state.players["alice"]) == "2d6"


def test_the_products_and_jobs_pages_and_player_facts():
    ctx = _ctx("alice")
    ProductsModule.of(ctx.state).held.give("alice", "V-8")
    panels = {p.slug: p for m in REGISTRY.enabled(ctx.state) for p in m.panels(ctx.state)}
    products = panels["products"].tables[0].rows
    assert ("Fake Toy Bomb", "Novelty", "$325", CORPORATION, "of Blockbuster, $275 royalty", "XIX.4") in products
    assert [r[0] for r in panels["jobs"].tables[0].rows] == ["Head GIPPer", "Taxi Driver"]
    facts = {f.key: f.value for m in REGISTRY.enabled(ctx.state) for f in m.player_facts(ctx.state,
                                                                                       ctx.state.players["alice"])}
    assert facts["products"] == {"V-8": 1} and facts["job"] is None and facts["condition"] == "well"


def test_a_repackaged_product_answers_to_its_originals_name():
    """XIX.2: a Repackaged Product does what its Original does, and a player may name either:
    PLACE BLOCKBUSTER with a Fake Toy Bomb, USE IMPERSONATOR with a Better Disguise Kit."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"Fake Toy Bomb": 1,
                                                                                "Better Disguise Kit": 1}},
                                         "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "PLACE BLOCKBUSTER ON 7\nUSE IMPERSONATOR ON bob"}}]}, "t")
    assert ProductsModule.of(out.state).held.items("alice") == {}
    assert [(b.square, b.product) for b in ProductsModule.private_of(out.state).blockbusters] == [(7, "Fake Toy Bomb")]
    assert ProductsModule.of(out.state).disguises == {}  # worn off at the week's end
    assert any((e.text or "").startswith("alice used a Better Disguise Kit on bob (XIX.12)") for e in out.events)


def test_ix8_a_sick_proposal_is_accepted_only_from_a_sick_player_and_hurt_is_not_sick():
    """IX.8 reads the health module: bob is Hurt, not Sick, so his Sick Proposal cannot be accepted;
    alice is Sick, so hers can."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "sick": True},
                                         "bob": {"team": "South", "hurt": True}},
               "updates": [{"mail": {"alice": "PROPOSE A\nx\nEND", "bob": "PROPOSE B\ny\nEND"}},
                           {"rulings": [{"kind": "judge", "args": {"proposal": 1, "verdict": "accept", "sick": True}},
                                        {"kind": "judge", "args": {"proposal": 2, "verdict": "accept", "sick": True}}],
                            "dice": [1]}]}, "t")  # alice, Sick, rolls one die; bob takes no turn
    texts = " ".join(e.text or "" for e in out.events)
    assert out.state.proposal(1).status != "open"
    assert out.state.proposal(2).status == "open" and "bob is not (IX.8)" in texts


def test_xix9_two_v8s_in_one_update_roll_their_own_dice():
    """XIX.9: alice drinks two V-8s; each draws its victim with a die of its own (v8/alice/1, /2)."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"V-8": 2}},
                                         "bob": {"team": "South"}, "carol": {"team": "East"}},
               "updates": [{"mail": {"alice": "DRINK V-8\nDRINK V-8"}, "rolls": {"v8/alice/1": [1], "v8/alice/2": [2]}}]},
              "t")
    assert out.state.mods["teams-health"].sick == ["bob", "carol"]


def test_xix4_a_blockbuster_in_a_block_destroys_the_whole_block():
    """XIX.4 with VIII.8's block: bob owns squares 5, 6 and 7, all Red, and nobody else owns a Red
    square; a Blockbuster placed on 6 goes off at the end of the next update and destroys all three
    (square 8, Red but unowned, stays)."""
    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"Blockbuster": 1}},
                                         "bob": {"team": "South"}},
               "squares": {5: {"owner": "bob"}, 6: {"owner": "bob"}, 7: {"owner": "bob"}},
               "state": {"teams-board": {"colours": {5: "Red", 6: "Red", 7: "Red", 8: "Red"}}},
               "params": {"teams-ownership": {"white_fine": 0}},
               "updates": [{"mail": {"alice": "PLACE BLOCKBUSTER ON 6"}}, {}]}, "t")
    # all three destroyed: the three highest squares take their numbers (XVIII.2); bob owns nothing
    assert len([sq for sq in out.state.squares if not sq.destroyed]) == 17
    assert not [n for n in (5, 6, 7) if out.state.mods["teams-ownership"].owners.get(n) == "bob"]
    assert ProductsModule.private_of(out.state).blockbusters == []


def test_the_board_flags_jumpgates_and_fake_vomit():
    ctx = _ctx("alice")
    ps = ProductsModule.of(ctx.state)
    ps.jumpgates.append([2, 6])
    ps.vomit[6] = "alice"
    module = REGISTRY.get("teams-products")
    look = module.square_look(ctx.state, ctx.state.squares[5])
    assert [f[1] for f in look.flags] == ["JG", "FV"] and "square 2" in look.flags[0][2]
    assert module.square_look(ctx.state, ctx.state.squares[2]) is None


def test_the_modules_states_survive_a_round_trip_through_their_files():
    """Products, Jumpgates, Fake Vomit, secret Blockbusters, jobs and their sealed bids, health: the
    state files read back as they were written."""
    from admin.store.fileio import dump_yaml
    from admin.store.plain import from_data, to_data
    import yaml

    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"Blockbuster": 1, "V-8": 1}},
                                         "bob": {"team": "South", "sick": True}},
               "state": {"teams-products": {"jumpgates": [[2, 6]], "vomit": {3: "alice"}}},
               "updates": [{"mail": {"alice": "PLACE BLOCKBUSTER ON 9\nBID JOB TAXI DRIVER 5"}}]}, "t")
    for name in ("teams-products", "teams-labor", "teams-health"):
        module = REGISTRY.get(name)
        for kind, held in ((module.State, out.state.mods[name]), (module.Private, out.state.private.mods.get(name))):
            if kind is None:
                continue
            again = from_data(kind, yaml.safe_load(dump_yaml(to_data(held))), name)
            assert again == held, name


def test_xix6_a_hot_spring_bath_rusts_non_rusty_chains_then_disappears():
    """XIX.6 with Chains (never defined here: the Admin records them): bob, in non-Rusty Chains,
    buys a Bath: his Chains become Rusty, and, neither Sick nor in non-Rusty Chains, he loses it."""
    out = run({"game": GAME, "players": {"bob": {"team": "South"}},
               "updates": [{"rulings": [{"kind": "chains", "args": {"player": "bob", "state": "non-Rusty"}}],
                            "mail": {"bob": "PURCHASE HOT SPRING BATH"}}]}, "t")
    ps = ProductsModule.of(out.state)
    assert ps.chains == {"bob": "Rusty"} and ps.held.items("bob") == {}
    assert out.state.players["bob"].money == 960 - 50  # $40; the White square 3's $50 fine at the week's end


def test_xix4_where_a_blockbuster_waits_is_told_to_its_placer_only():
    out = run({"game": GAME, "players": {"alice": {"team": "North", "products": {"Blockbuster": 1}},
                                         "bob": {"team": "South"}},
               "updates": [{"mail": {"alice": "PLACE BLOCKBUSTER ON 7"}}]}, "t")
    public = [e.text or "" for e in out.events]
    assert not any("square 7" in t for t in public)
    mine = [e.private for e in out.events if e.player == "alice" and e.private]
    assert any("placed a Blockbuster on square 7" in t for t in mine)
    facts = {f.key: f.value for f in REGISTRY.get("teams-products").private_facts(out.state, out.state.players["alice"])}
    assert facts["blockbusters_placed"] == [7]
