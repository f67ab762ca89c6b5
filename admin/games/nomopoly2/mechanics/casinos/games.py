"""The casino games of Nomopoly II XXXIII.2: Blackjack and Poker, each a hand over several mails
(a ``game`` question of the interactions facility: HIT or STAND, HOLD <positions>), and Roulette,
settled at once. Bets are paid up front (XXXIII.4) to the casino; winnings come from it. What players
write to play is read in syntax.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from admin.engine.context import BANK
from admin.engine.declare import handled
from admin.engine.module import CommandSpec
from admin.engine.errors import CommandError, IllegalAction
from admin.library.api import INTERACTIONS
from admin.games.nomopoly2.mechanics.casinos import cards as cc
from admin.games.nomopoly2.mechanics.casinos.syntax import CasinoMove, PlayCasino, positions_text
from admin.games.nomopoly2.mechanics.casinos.state import (
    NAME, private_of, casino_here, check_play, note_play, pay_out, take_in,
)
from admin.games.nomopoly2.mechanics.shared import charge
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction


def game_commands() -> tuple[CommandSpec, ...]:
    return handled((PlayCasino, play), (CasinoMove, move))


# -- playing --------------------------------------------------------------------------------
def play(ctx: UpdateContext, player: Player, cmd: PlayCasino) -> str:
    square = casino_here(ctx.state, player, "play")
    check_play(ctx, player)
    p = ctx.params(NAME)
    limit = int(p[f"{cmd.game}_max_bet"])
    if not 1 <= cmd.bet <= limit:
        raise IllegalAction(f"a bet at {cmd.game} is from $1 to {ctx.state.money(limit)}, not "
                            f"{ctx.state.money(cmd.bet)} (XXXIII.2)")
    if cmd.game != "roulette":
        hand = open_hand(ctx.state, player.name, cmd.game)
        if hand is not None:
            raise IllegalAction(f"your {cmd.game} hand #{hand.id} is still open; finish it "
                                f"({_answer_hint(hand)}) before you play another {cmd.game} hand")
    charge(ctx, player.name, BANK, cmd.bet, rule="XXXIII.4", on_credit=cmd.on_credit,
           reason=f"a bet of {ctx.state.money(cmd.bet)} at {cmd.game} at the Casino on square {square}")
    take_in(ctx.state, square, cmd.bet)
    n = note_play(ctx, player)
    label = f"{cmd.game}/{player.name}/{n}"
    if cmd.game == "roulette":
        return _roulette(ctx, player, square, cmd, label)
    if cmd.game == "blackjack":
        return _deal_blackjack(ctx, player, square, cmd.bet, label)
    return _deal_poker(ctx, player, square, cmd.bet, label)


def _roulette(ctx: UpdateContext, player: Player, square: int, cmd: PlayCasino, label: str) -> str:
    p = ctx.params(NAME)
    number = ctx.dice.roll(f"casino/{label}", 37) - 1
    kind = cc.roulette_kind(cmd.target)
    on = {"colour": cmd.target.upper(), "number": cmd.target, "five": cmd.target.replace(",", ", ")}[kind]
    spun = f"The wheel stopped on {number} ({cc.colour(number)})"
    if not cc.roulette_wins(cmd.target, number):
        return (f"{player.name} bet {ctx.state.money(cmd.bet)} at roulette on {on} at the Casino on square "
                f"{square}. {spun}: the bet is lost.")
    multiple = int(p[f"roulette_{kind}_pays"])
    won = multiple * cmd.bet
    pay_out(ctx, square, player.name, won, rule="XXXIII.2", reason=f"roulette, {on} came up")
    return (f"{player.name} bet {ctx.state.money(cmd.bet)} at roulette on {on} at the Casino on square "
            f"{square}. {spun}: {player.name} won {ctx.state.money(won)} ({multiple} times the bet).")


def _cards(cards: list[str]) -> str:
    return " ".join(cards)


def _deal_blackjack(ctx: UpdateContext, player: Player, square: int, bet: int, label: str) -> str:
    from admin.library.interactions import ask

    used: list[str] = []
    cards = [cc.draw(ctx, used, f"{label}/p0"), cc.draw(ctx, used, f"{label}/p1")]
    up = cc.draw(ctx, used, f"{label}/up")
    hole = cc.draw(ctx, used, f"{label}/hole")
    total = cc.blackjack_total(cards)
    head = (f"{player.name} bet {ctx.state.money(bet)} at blackjack at the Casino on square {square}: "
            f"dealt {_cards(cards)} ({total}); the dealer shows {up}.")
    payload = {"game": "blackjack", "square": square, "bet": bet, "cards": cards, "dealer": [up], "step": 0}
    if total == 21:  # nothing to gain by drawing: the player stands (a standing ruling)
        _finish_blackjack(ctx, player, payload, hole, used, f"{label}/end")
        return head + f" 21: {player.name} stands."
    if not INTERACTIONS.on(ctx.state):  # pragma: no cover - casinos requires it
        raise IllegalAction("a hand over several mails needs the interactions module")
    after = int(ctx.params(NAME)["answer_updates"])
    inter = ask(ctx, kind="game", module=NAME, parties=[player.name], silence="stand",
                after=after, payload=payload)
    private_of(ctx.state).hole[inter.id] = hole
    return head + f" Answer HIT or STAND by update {inter.deadline} (hand #{inter.id}); no answer stands."


def _deal_poker(ctx: UpdateContext, player: Player, square: int, bet: int, label: str) -> str:
    from admin.library.interactions import ask

    used: list[str] = []
    cards = [cc.draw(ctx, used, f"{label}/c{i}") for i in range(5)]
    after = int(ctx.params(NAME)["answer_updates"])
    inter = ask(ctx, kind="game", module=NAME, parties=[player.name], silence="hold all",
                after=after, payload={"game": "poker", "square": square, "bet": bet, "cards": cards})
    return (f"{player.name} bet {ctx.state.money(bet)} at poker at the Casino on square {square}: dealt "
            + ", ".join(f"{i + 1}. {c}" for i, c in enumerate(cards))
            + f". Answer HOLD with the cards to keep (like HOLD 1 3) by update {inter.deadline} "
              f"(hand #{inter.id}); no answer keeps all five.")


# -- the hand's next steps --------------------------------------------------------------------
def open_hand(state: GameState, player: str, game: str | None = None) -> Interaction | None:
    """The player's open Blackjack or Poker hand (an open ``game`` question), or None: one of
    each game at a time (a standing ruling)."""
    interactions = INTERACTIONS.get(state)
    if interactions is None:
        return None
    return next((i for i in interactions.open
                 if i.module == NAME and player in i.parties
                 and (game is None or i.payload.get("game") == game)), None)


def _answer_hint(inter: Interaction) -> str:
    return "HIT or STAND" if inter.payload.get("game") == "blackjack" else "HOLD <positions>"


def move(ctx: UpdateContext, player: Player, cmd: CasinoMove) -> str:
    from admin.library.interactions import Answer, give_answer

    hand = open_hand(ctx.state, player.name, "poker" if cmd.move.startswith("hold") else "blackjack")
    if cmd.number is not None:
        if hand is None or hand.id != cmd.number:
            raise IllegalAction(f"you have no open casino hand #{cmd.number}"
                                + (f"; your open hand is #{hand.id}" if hand else ""))
    if hand is None:
        raise IllegalAction(f"you have no open casino hand to {cmd.move.split()[0].upper()} in; start one "
                            "with PLAY BLACKJACK <bet> or PLAY POKER <bet> at a Casino")
    return give_answer(ctx, player, Answer(hand.id, cmd.move))


def check_answer(ctx: UpdateContext, inter: Interaction, player: Player, value: Any) -> str:
    text = str(value).strip().lower()
    if inter.payload.get("game") == "blackjack":
        if text not in ("hit", "stand"):
            raise IllegalAction(f"{value!r} is not a Blackjack move; answer HIT or STAND (XXXIII.2)")
        return text
    if not text.startswith("hold"):
        raise IllegalAction(f"{value!r} is not a Poker answer; answer HOLD with the cards to keep, like "
                            "HOLD 1 3, HOLD KH KD, HOLD ALL or HOLD NONE (XXXIII.2)")
    try:
        keep = positions_text(text[4:]) if text[4:].strip() else "none"
    except CommandError as exc:
        raise IllegalAction(str(exc)) from None
    cards = list(inter.payload["cards"])
    if keep in ("all", "none"):
        return f"hold {keep}"
    positions = []
    for w in keep.split():
        if w.isdecimal():
            positions.append(int(w))
        elif w.upper() in cards:
            positions.append(cards.index(w.upper()) + 1)
        else:
            raise IllegalAction(f"{w.upper()} is not one of your cards ({_cards(cards)}); HOLD names the "
                                "cards you keep, by position 1-5 or by card")
    return "hold " + " ".join(str(n) for n in sorted(set(positions)))


def resolve(ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
    player = ctx.state.players.get(inter.parties[0])
    hole = private_of(ctx.state).hole.pop(inter.id, None)
    if player is None or not player.active:
        return f"{inter.parties[0]} is out of the game; the bet stays with the casino"
    answer = str(answers.get(player.name, inter.silence)).lower()
    label = f"{inter.payload['game']}/hand{inter.id}"
    if inter.payload["game"] == "poker":
        return _draw_poker(ctx, player, inter.payload, answer, label)
    return _step_blackjack(ctx, player, inter, hole or "", answer, label)


def _step_blackjack(ctx: UpdateContext, player: Player, inter: Interaction, hole: str, answer: str, label: str) -> str:
    from admin.library.interactions import ask

    payload = {**inter.payload, "cards": list(inter.payload["cards"]), "dealer": list(inter.payload["dealer"])}
    used = payload["cards"] + payload["dealer"] + [hole]
    if answer != "hit":
        return f"{player.name} stood on {cc.blackjack_total(payload['cards'])}: " + \
            _finish_blackjack(ctx, player, payload, hole, used, label)
    card = cc.draw(ctx, used, f"{label}/hit")
    payload["cards"].append(card)
    total = cc.blackjack_total(payload["cards"])
    drew = f"{player.name} drew {card}: {_cards(payload['cards'])} ({total})."
    if total >= 21:
        return f"{player.name} drew {card}: " + _finish_blackjack(ctx, player, payload, hole, used, label)
    payload["step"] = int(payload.get("step", 0)) + 1
    after = int(ctx.params(NAME)["answer_updates"])
    nxt = ask(ctx, kind="game", module=NAME, parties=[player.name], silence="stand", after=after,
              payload=payload)
    private_of(ctx.state).hole[nxt.id] = hole
    ctx.emit("casino", drew + f" The dealer shows {payload['dealer'][0]}. Answer HIT or STAND by update "
                              f"{nxt.deadline} (hand #{nxt.id}); no answer stands.",
             player=player.name, rule="XXXIII.2", data={"hand": nxt.id, "cards": payload["cards"]})
    return f"{player.name} drew {card}; the hand goes on as #{nxt.id}"


def _finish_blackjack(ctx: UpdateContext, player: Player, payload: dict[str, Any], hole: str, used: list[str],
                      label: str) -> str:
    """The hand ends: the dealer turns his hole card, draws to 17 unless the player went over 21,
    and the bet is settled (XXXIII.2), said in full as an event. Returns the outcome, briefly."""
    p = ctx.params(NAME)
    cards, dealer, bet, square = payload["cards"], list(payload["dealer"]) + [hole], int(payload["bet"]), int(payload["square"])
    money = ctx.state.money
    if cc.blackjack_total(cards) > 21:
        text = (f"{player.name} went over 21 and lost the bet of {money(bet)} (the dealer's hole card was "
                f"{hole}).")
        brief = f"over 21, {player.name} lost {money(bet)}"
    else:
        cc.dealer_plays(ctx, dealer, used, f"{label}/dealer", int(p["dealer_stands_on"]))
        outcome = cc.blackjack_outcome(cards, dealer)
        shown = (f"{player.name} has {_cards(cards)} ({cc.blackjack_total(cards)}), the dealer "
                 f"{_cards(dealer)} ({cc.blackjack_total(dealer)})")
        if outcome == "win":
            won = int(p["blackjack_win_multiple"]) * bet
            pay_out(ctx, square, player.name, won, rule="XXXIII.2", reason="a hand of blackjack won")
            text = f"{shown}: {player.name} won {money(won)}."
            brief = f"{player.name} won {money(won)}"
        elif outcome == "tie":
            pay_out(ctx, square, player.name, bet, rule="XXXIII.2", reason="a hand of blackjack tied")
            text = f"{shown}: a tie, and {player.name} has the bet of {money(bet)} back."
            brief = f"a tie, {player.name} has {money(bet)} back"
        else:
            text = f"{shown}: {player.name} lost the bet of {money(bet)}."
            brief = f"{player.name} lost {money(bet)}"
    ctx.emit("casino", f"Blackjack at the Casino on square {square}: {text}", player=player.name,
             rule="XXXIII.2", data={"cards": cards, "dealer": dealer, "bet": bet})
    return brief


def _draw_poker(ctx: UpdateContext, player: Player, payload: dict[str, Any], answer: str, label: str) -> str:
    p = ctx.params(NAME)
    cards, bet, square = list(payload["cards"]), int(payload["bet"]), int(payload["square"])
    keep_words = answer.split()[1:]
    if keep_words == ["all"] or answer == "hold all":
        keep = {1, 2, 3, 4, 5}
    elif keep_words == ["none"] or not keep_words:
        keep = set()
    else:
        keep = {int(w) for w in keep_words}
    used = list(cards)
    for i in range(5):
        if i + 1 not in keep:
            cards[i] = cc.draw(ctx, used, f"{label}/r{i + 1}")
    hand = cc.poker_hand(cards)
    kept = "every card" if len(keep) == 5 else ("no card" if not keep else
                                                 ", ".join(payload["cards"][i - 1] for i in sorted(keep)))
    head = f"{player.name} kept {kept}: {_cards(cards)}"
    if hand is None:
        text = f"{head}, no winning hand; the bet of {ctx.state.money(bet)} is lost."
        brief = f"no winning hand, {player.name} lost {ctx.state.money(bet)}"
    else:
        key = dict(cc.POKER_HANDS)[hand]
        multiple = int(dict(p["poker_pays"])[key])
        won = multiple * bet
        pay_out(ctx, square, player.name, won, rule="XXXIII.2", reason=f"poker, {hand}")
        text = f"{head}, {hand}: {player.name} won {ctx.state.money(won)} ({multiple} times the bet)."
        brief = f"{hand}, {player.name} won {ctx.state.money(won)}"
    ctx.emit("casino", f"Poker at the Casino on square {square}: {text}", player=player.name, rule="XXXIII.2",
             data={"cards": cards, "bet": bet, "hand": hand})
    return brief


def open_hand_lines(state: GameState, player: str) -> list[str]:
    lines = []
    for game in ("blackjack", "poker"):
        hand = open_hand(state, player, game)
        if hand is None:
            continue
        pl = hand.payload
        if game == "blackjack":
            lines.append(f"  Your Blackjack hand #{hand.id}: {_cards(pl['cards'])} "
                         f"({cc.blackjack_total(pl['cards'])}); the dealer shows {pl['dealer'][0]}. "
                         f"Answer HIT or STAND by update {hand.deadline}.")
        else:
            lines.append(f"  Your Poker hand #{hand.id}: " + ", ".join(f"{i + 1}. {c}" for i, c in enumerate(pl["cards"]))
                         + f". Answer HOLD with the cards to keep by update {hand.deadline}.")
    return lines

