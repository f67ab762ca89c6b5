"""Nomopoly II XXXIV, patents: an application costs $100 and goes to the Admin, who accepts it
(the applicant holds the patent) or rejects it ($50 back); a patented game is offered at its
owner's Casinos, where PLAY <name> records a request the Admin settles."""

from fixtures.games import texts
from test_n2_casinos import game, money, play

from admin.engine.events import Ruling
from admin.games.nomopoly2.mechanics.casinos.mechanic import CasinosModule
from admin.games.nomopoly2.mechanics.patents import PatentsModule

APPLICATION = "PATENT GAME Dice Duel\nEach of us rolls a die; the higher wins twice the bet, up to $30.\nEND"


def patents_game():
    state = game("commercial")
    state = play(state, rulings=[Ruling("enable", {"module": "patents"}, "test")]).state  # casinos are on already
    for p in state.players.values():
        p.money = 10000
    return state


def ruling(verdict, number, note="", **args):
    return Ruling("patent", {"verdict": verdict, "number": number, **args}, note)


def test_an_application_costs_100_and_waits_for_the_admin():
    result = play(patents_game(), {"bob": APPLICATION})
    (patent,) = PatentsModule.of(result.state).patents
    assert (patent.id, patent.kind, patent.name, patent.applicant, patent.status, patent.owner) == \
        (1, "game", "Dice Duel", "bob", "pending", None)
    assert patent.text == "Each of us rolls a die; the higher wins twice the bet, up to $30."
    assert money(result.state)["bob"] == 9900
    assert "bob applied for a patent on the game Dice Duel (#1) for $100; the Admin will accept or reject it " \
           "(XXXIV.2)." in texts(result.events)


def test_a_rejection_refunds_50_and_an_acceptance_makes_the_applicant_its_owner():
    state = play(patents_game(), {"bob": APPLICATION}).state
    state = play(state, {"alice": "PATENT ITEM Lucky Hat\nCosts $5; does nothing.\nEND"}).state
    result = play(state, rulings=[ruling("reject", 2, "just plain stupid"), ruling("accept", 1)])
    ps = PatentsModule.of(result.state)
    assert [(p.status, p.owner) for p in ps.patents] == [("accepted", "bob"), ("rejected", None)]
    assert money(result.state) == {"alice": 9950, "bob": 9900 + 50}  # and the casino's $50 at the week's end
    assert "The Admin rejected alice's patent application #2 (Lucky Hat): just plain stupid; $50 of the fee is " \
           "refunded." in texts(result.events)


def test_a_second_application_under_a_taken_name_is_refused():
    state = play(patents_game(), {"bob": APPLICATION}).state
    result = play(state, {"alice": APPLICATION})
    assert money(result.state)["alice"] == 10000
    assert texts(result.events, "action") == [
        "alice: \"PATENT GAME Dice Duel\" was not done: 'Dice Duel' is the name of patent #1 (pending); choose "
        "another name (XXXIV.2: too similar to a patented game or item)"]


def test_a_patented_game_is_played_at_its_owners_casino_and_the_admin_settles_it():
    state = play(patents_game(), {"bob": APPLICATION}).state
    state = play(state, rulings=[ruling("accept", 1)]).state
    state.players["alice"].square = 14  # bob's casino
    asked = play(state, {"alice": "PLAY Dice Duel for $20"})
    assert "alice asked to play Dice Duel at the Casino on square 14 (for $20); request R1 goes to the Admin, " \
           "who settles it by the patent's rules (XXXIV.4)." in texts(asked.events)
    settled = play(asked.state, rulings=[ruling("settle", 1, "alice rolled 6, the casino 2", paid=20, won=40)])
    assert money(settled.state)["alice"] == 10020
    assert PatentsModule.of(settled.state).requests[0].status == "settled"
    # update 6 ends week 3: the casino lost $20, and bob (commercial, 50%) pays $10 of it, after his $50
    assert CasinosModule.of(settled.state).last_week == [
        {"square": 14, "owner": "bob", "in": 20, "out": 40, "net": -20, "percent": 50, "share": -10}]
    assert money(settled.state)["bob"] == 9900 + 50 + 50 - 10


def test_a_patented_game_is_not_offered_at_another_owners_casino_and_a_traded_patent_moves_it():
    state = play(patents_game(), {"alice": APPLICATION}).state
    state = play(state, rulings=[ruling("accept", 1)]).state
    state.players["bob"].square = 14  # bob's own casino, but alice holds the patent
    refused = play(state, {"bob": "PLAY Dice Duel"})
    assert texts(refused.events, "action") == [
        'bob: "PLAY Dice Duel" was not done: Dice Duel is offered only at the Casinos of its patent\'s owner, '
        "alice (XXXIV.4); square 14 is bob's"]
    traded = play(refused.state, {"bob": "PLAY Dice Duel"}, rulings=[ruling("transfer", 1, "a trade", to="bob")])
    assert PatentsModule.of(traded.state).patents[0].owner == "bob"
    assert len(PatentsModule.of(traded.state).requests) == 1


def test_the_patents_page_lists_granted_patents_and_pending_names():
    from admin.games.registry import REGISTRY

    state = play(patents_game(), {"bob": APPLICATION}).state
    state = play(state, {"alice": "PATENT ITEM Lucky Hat\nCosts $5.\nEND"}).state
    state = play(state, rulings=[ruling("accept", 1)]).state
    (panel,) = REGISTRY.get("patents").panels(state)
    granted, pending, _ = panel.tables
    assert granted.rows == ((1, "game", "Dice Duel", "bob", "14",
                             "Each of us rolls a die; the higher wins twice the bet, up to $30."),)
    assert pending.rows == ((2, "item", "Lucky Hat", "alice"),)


def test_the_admins_patent_ruling_is_checked_when_it_is_given(game_dir):
    from click.testing import CliRunner

    from admin.cli.main import cli

    where = ["--game", str(game_dir.root)]
    enabled = CliRunner().invoke(cli, ["ruling", "enable", "patents", "--reason", "XXXIV", *where])
    assert enabled.exit_code == 0, enabled.output
    wrong = CliRunner().invoke(cli, ["ruling", "patent", "accept", "1", *where])
    assert str(wrong.exception) == "ruling patent not recorded: there is no patent application #1; there are none"


def test_patents_switch_on_alone_and_a_patented_game_needs_casinos_in_force():
    from fixtures.games import new_state

    from admin.engine.update import run_update
    from admin.games.registry import REGISTRY
    from admin.jobs.scenario import ForcedDice

    state = new_state(("alice", "bob", "carol"))
    state.paused = True
    state = run_update(state, [], [Ruling("enable", {"module": "patents"}, "test")], ForcedDice(b"s", "t", 1),
                       REGISTRY).state
    assert not state.enabled("casinos")
    state = play(state, {"bob": APPLICATION}).state
    state = play(state, {"bob": "PLAY Dice Duel"}, rulings=[ruling("accept", 1)]).state
    result = play(state, {"bob": "PLAY Dice Duel"})
    assert texts(result.events, "action") == [
        'bob: "PLAY Dice Duel" was not done: Dice Duel is offered at Casinos (XXXIV.4), and there are none in '
        "this game (XXXIII is not in force)"]


def test_casinos_and_patents_state_is_saved_and_read_back_unchanged(game_dir):
    from admin.store.statefiles import state_files

    state = play(patents_game(), {"bob": APPLICATION, "alice": "PLAY BLACKJACK 30\nBUY FLOWER 2\nBUY SALAD"},
                 draws=["10H", "6C", "9S", "7D"]).state
    CasinosModule.of(state).items.give("alice", "weighted-die", 1)
    CasinosModule.of(state).greased = [14]
    CasinosModule.of(state).weighted["bob"] = 4
    assert CasinosModule.private_of(state).hole  # the dealer's hole card is kept, privately
    files = state_files(state)
    for name, text in files.items():
        path = game_dir.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert "7D" not in files["state/modules/interactions.yaml"] and "7D" in files["state/private/casinos.yaml"]
    again = game_dir.load()
    assert state_files(again) == files


def test_play_of_an_unknown_name_lists_what_may_be_played():
    state = patents_game()
    result = play(state, {"alice": "PLAY BLACKJAK 100"})
    assert texts(result.events, "action") == [
        "alice: \"PLAY BLACKJAK 100\" was not done: 'BLACKJAK 100' names no game this game knows; play BLACKJACK, "
        "POKER or ROULETTE, or a patented game or item: there are none yet"]
