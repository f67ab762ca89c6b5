"""Timopoly's two decks (STUFF HAPPENS & CROWD FUND, and the cards of each): landing on a card
space draws the top card of its deck; the card's effect, a small declarative action, is carried
out, and the card goes back under the deck, except a Get Out of Social Media Jail Free card, which
its drawer keeps until it is used (or sold: ``SELL JAIL CARD TO <player> FOR <amount>``).

Each deck is shuffled once, with the update's hidden seed (the order is face down), the first
time a card is drawn from it; a drawn card is public. The cards are the game's data
(``timo-cards`` parameters): ``collect``, ``pay``, ``goto`` (advance to a space; Fn 20 when passing
HUGE-O), ``nearest`` (a kind of space; ``rant_times`` or ``throw_times`` for what its owner gets),
``move`` (back), ``jail``, ``jail_card``, ``pay_each`` / ``collect_each`` (every other player),
``pay_per_nom``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from admin.engine import hooks
from admin.engine.context import BANK, UpdateContext
from admin.engine.declare import command, handled
from admin.engine.decks import DeckSpec, DeckState, shuffle, take_top
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.movement import jump, move
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.engine.params import MAX_INT
from admin.library.interactions import replace_offer, replaced_text
from admin.games.timopoly.mechanics.deeds import land_on_deed
from admin.games.timopoly.mechanics.holdings import board_of, deeds_of, send_to_jail, settle
from admin.games.timopoly.mechanics.spaces import KINDS, nearest, space, spaces
from admin.engine.model import GameState, Player, Square

if TYPE_CHECKING:
    from admin.engine.interactions import Interaction


@dataclass
class TimoCardsPrivate:
    #: deck name -> its pile (the top card first), face down: private
    piles: dict[str, DeckState] = field(default_factory=dict)


def _parse_sell(rest: str, line: object) -> SellJailCard:
    m = re.fullmatch(r"card\s+to\s+(\S+)\s+for\s+(?:fn\s*)?(\d{1,6})", rest.strip(), re.IGNORECASE)
    if not m:
        raise CommandError("write SELL JAIL CARD TO <player> FOR <amount>, like SELL JAIL CARD TO bob FOR 10.")
    return SellJailCard(m.group(1), int(m.group(2)))


@command("SELL JAIL CARD TO <player> FOR <amount>", keyword="SELL JAIL", parse=_parse_sell,
         cmd="timo-sell-jail-card", listing=50, summary="offer your Get Out of Social Media Jail Free card to a "
                                                        "player (they answer ACCEPT)",
         example="SELL JAIL CARD TO bob FOR 10", rules=("XI.6",))
class SellJailCard:
    """``SELL JAIL CARD TO <player> FOR <amount>`` (IX.2, XI.6)."""

    buyer: str
    amount: int


#: what a card may do (``do`` below), and what each takes: a whole number (``-`` one that may be
#: below zero: a move back), a yes, or the kind of the nearest space to go to
EFFECTS = {"collect": "+", "pay": "+", "pay_per_nom": "+", "pay_each": "+", "collect_each": "+", "goto": "+",
           "rant_times": "+", "throw_times": "+", "move": "-", "jail": "yes", "jail_card": "yes", "nearest": "text"}


def check_decks(value: Any) -> None:
    """The ``timo-cards.decks`` a proposal or a game may set: each deck a list of cards, each card
    its ``text`` and an ``effect`` of the things a card can do (:data:`EFFECTS`), of the right kinds."""
    if not isinstance(value, dict):
        raise RuleError("the decks are a mapping of a deck's name to its cards, like {stuff: [{text: ..., effect: ...}]}")
    for deck, cards in value.items():
        if not isinstance(cards, list):
            raise RuleError(f"the {deck!r} deck is a list of cards, not {str(cards)[:60]!r}")
        for i, card in enumerate(cards, 1):
            where = f"card {i} of the {deck!r} deck"
            if not isinstance(card, dict) or not isinstance(card.get("text"), str):
                raise RuleError(f"{where} is a mapping with its text, like {{text: Collect Fn 5., effect: {{collect: 5}}}}")
            if set(card) - {"text", "effect"}:
                raise RuleError(f"{where} has only a text and an effect, not {sorted(map(str, set(card) - {'text', 'effect'}))[0]!r}")
            effect = card.get("effect") or {}
            if not isinstance(effect, dict):
                raise RuleError(f"{where}'s effect is a mapping like {{collect: 5}}, not {str(effect)[:60]!r}")
            for key, amount in effect.items():
                kind = EFFECTS.get(key)
                number = amount if isinstance(amount, int) and not isinstance(amount, bool) else None
                if kind is None:
                    raise RuleError(f"{where}: a card cannot {key!r}; it can {', '.join(EFFECTS)}")
                if kind == "yes" and not isinstance(amount, bool):
                    raise RuleError(f"{where}: {key} is true or false, not {str(amount)[:60]!r}")
                if kind == "text" and amount not in KINDS:
                    raise RuleError(f"{where}: {key} names a kind of space ({', '.join(KINDS)}), not {str(amount)[:60]!r}")
                if kind in "+-" and (number is None or not (-MAX_INT if kind == "-" else 0) <= number <= MAX_INT):
                    raise RuleError(f"{where}: {key} is a whole number{' from 0' if kind == '+' else ''}, "
                                    f"not {str(amount)[:60]!r}")


class TimoCardsModule(Mechanic[None, TimoCardsPrivate]):
    name = "timo-cards"
    rules = ("II.4", "IX.1", "IX.2", "XI.6", *(f"XX.{i}" for i in range(1, 17)),
             *(f"XXI.{i}" for i in range(1, 17)))
    defaults = {"decks": {}, "rocket_noms": 5}
    validators = {"decks": check_decks}
    summary = "Stuff Happens and Crowd Fund: draw the top card, do what it says, put it back under."
    Private = TimoCardsPrivate
    requires = ("timo-deeds",)

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((SellJailCard, sell_jail_card))

    def face_down_piles(self, state: GameState) -> dict[str, DeckState]:
        return dict(self.private_of(state).piles)

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        spec = space(ctx.state, square.number)
        if spec.kind == "card" and spec.deck:
            draw_and_do(ctx, player, spec.deck)

    def resolve_interaction(self, ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
        # the card's seller: sell_jail_card() opens every such offer with one
        buyer, seller, amount = inter.payload["buyer"], cast(str, inter.proposer), int(inter.payload["amount"])
        board = board_of(ctx.state)
        if answers[buyer] != "accept":
            return f"{buyer} did not buy {seller}'s Get Out of Social Media Jail Free card"
        if not board.jail_cards.get(seller) or ctx.state.players[buyer].money < amount:
            return "the card could no longer be sold"
        ctx.transfer(buyer, seller, amount, rule="XI.6", reason="a Get Out of Social Media Jail Free card", kind="purchase")
        board.jail_cards.setdefault(buyer, []).append(board.jail_cards[seller].pop(0))
        return f"{buyer} bought {seller}'s Get Out of Social Media Jail Free card for {ctx.state.money(amount)}"


def deck_spec(ctx: UpdateContext, name: str) -> DeckSpec:
    cards = (ctx.params(TimoCardsModule.name)["decks"] or {}).get(name) or []
    if not cards:
        raise IllegalAction(f"the game has no {name!r} deck")
    return DeckSpec(name, tuple(str(i) for i in range(len(cards))), policy="pile", hidden=True)


def draw_and_do(ctx: UpdateContext, player: Player, deck: str) -> None:
    piles = TimoCardsModule.private_of(ctx.state).piles
    pile = piles.setdefault(deck, DeckState())
    spec = deck_spec(ctx, deck)
    if not pile.pile and not pile.discard:  # the first draw: shuffle the deck, face down (II.4)
        shuffle(spec, pile, ctx.dice, f"{deck}/{ctx.state.update}/{len(ctx.dice.hidden_rolls)}")
    if not pile.pile:
        raise IllegalAction(f"every {deck} card is held")
    index = take_top(spec, pile, ctx.dice, player.name, public=True)
    card = (ctx.params(TimoCardsModule.name)["decks"][deck])[int(index)]
    title = {"stuff": "Stuff Happens", "crowd": "Crowd Fund"}.get(deck, deck)
    ctx.emit("card", f"{player.name} drew {title}: {card['text']}", player=player.name, rule="IX.1",
             data={"deck": deck, "card": int(index)})
    effect = dict(card.get("effect") or {})
    if effect.get("jail_card"):
        board_of(ctx.state).jail_cards.setdefault(player.name, []).append(deck)
    else:
        pile.pile.append(index)  # back under the deck (IX.1)
    do(ctx, player, effect, card["text"])


def do(ctx: UpdateContext, player: Player, effect: dict[str, Any], text: str) -> None:
    """Carry out a card's effect."""
    reason = f"the card: {text}"
    if "collect" in effect:
        ctx.transfer(BANK, player.name, int(effect["collect"]), rule="IX.1", reason=reason, kind="bonus")
    if "pay" in effect:
        settle(ctx, player, BANK, int(effect["pay"]), rule="IX.1", reason=reason)
    if "pay_per_nom" in effect:
        rocket = int(ctx.params(TimoCardsModule.name)["rocket_noms"])
        noms = sum((rocket if d.rocket else d.noms) for d in deeds_of(ctx.state).deeds.values()
                   if d.owner == player.name)
        settle(ctx, player, BANK, noms * int(effect["pay_per_nom"]), rule="IX.1", reason=reason)
    others = [p for p in sorted(ctx.state.active_players(), key=lambda p: p.name) if p.name != player.name]
    if "pay_each" in effect:
        for other in others:
            if player.active:
                settle(ctx, player, other.name, int(effect["pay_each"]), rule="IX.1", reason=reason)
    if "collect_each" in effect:
        for other in others:
            settle(ctx, other, player.name, int(effect["collect_each"]), rule="IX.1", reason=reason)
    if effect.get("jail"):
        send_to_jail(ctx, player, "a card")
    if "goto" in effect:
        _advance(ctx, player, int(effect["goto"]))
    if "nearest" in effect:
        target = nearest(ctx.state, player.square, str(effect["nearest"]))
        _advance(ctx, player, target, land=False)
        land_on_deed(ctx, player, space(ctx.state, target), multiplier=int(effect.get("rant_times", 1)),
                     throw_times=effect.get("throw_times"))
    if "move" in effect:
        count = len(spaces(ctx.state))
        jump(ctx, player, (player.square - 1 + int(effect["move"])) % count + 1, rule="IX.1", reason=text)


def _advance(ctx: UpdateContext, player: Player, target: int, *, land: bool = True) -> None:
    """Move forward to ``target`` (Fn 20 when passing HUGE-O), landing there unless told not to."""
    count = len(spaces(ctx.state))
    steps = (target - player.square) % count or count
    if land:
        move(ctx, player, steps)
        return
    # move without landing (the card says what happens there): pass HUGE-O, then stand there
    if player.square + steps > count:
        hooks.call(ctx).on_pass_end(ctx, player)
    player.square = target
    ctx.emit("move", f"{player.name} advanced to {space(ctx.state, target).name}.", player=player.name,
             rule="IX.1", data={"to": target})


def sell_jail_card(ctx: UpdateContext, player: Player, cmd: SellJailCard) -> str:
    if not board_of(ctx.state).jail_cards.get(player.name):
        raise IllegalAction("you hold no Get Out of Social Media Jail Free card")
    buyer = ctx.state.players.get(cmd.buyer)
    if buyer is None or not buyer.active or buyer.name == player.name:
        raise IllegalAction(f"{cmd.buyer} is not another player in the game")
    inter, replaced = replace_offer(ctx, kind="offer", module=TimoCardsModule.name, parties=[buyer.name],
                                    silence="decline", proposer=player.name,
                                    payload={"buyer": buyer.name, "amount": cmd.amount}, same=("buyer",))
    return (f"{player.name} offered a Get Out of Social Media Jail Free card to {buyer.name} for "
            f"{ctx.state.money(cmd.amount)} ({buyer.name}: ACCEPT {inter.id} by the next update)"
            f"{replaced_text(ctx, replaced)}.")
