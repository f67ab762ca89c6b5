"""What the Timopoly mechanics share: who holds which deed (with its Noms, Rocket, mortgage), the
board's state (seats, jail, last throws), and the operations several of them need: going to jail,
paying what one owes (raising cash, Fandomruptcy), auctions, a used jail card going back. A leaf
of the package: the modules import it, and it imports none of them (their state is read by key)."""

from __future__ import annotations

from dataclasses import dataclass, field

from admin.engine import hooks
from admin.engine.context import BANK, UpdateContext
from admin.engine.decks import DeckState
from admin.engine.turnorder import FixedOrder
from admin.engine.errors import IllegalAction
from admin.library.api import INTERACTIONS
from admin.library.interactions import ask
from admin.games.timopoly.api import TIMO_BOARD, TIMO_CARDS_PRIVATE, TIMO_DEEDS
from admin.games.timopoly.mechanics.spaces import Space, first_of, group, space
from admin.engine.model import GameState, Player

DEEDS, BOARD, BUILDING, CARDS = "timo-deeds", "timo-board", "timo-building", "timo-cards"


@dataclass
class Deed:
    owner: str
    noms: int = 0
    rocket: bool = False
    mortgaged: bool = False


@dataclass
class TimoDeedsState:
    #: space number -> its deed, once someone controls it
    deeds: dict[int, Deed] = field(default_factory=dict)
    #: standing buying orders: player -> the highest price to buy at once (-1: never, auction)
    buy_under: dict[str, int] = field(default_factory=dict)


@dataclass
class TimoBoardState:
    seats: FixedOrder = field(default_factory=FixedOrder)
    #: whether the opening throw has decided who starts
    started: bool = False
    #: players in jail -> the jailed turns they have had
    jail: dict[str, int] = field(default_factory=dict)
    #: Get Out of Social Media Jail Free cards held: player -> the decks they came from
    jail_cards: dict[str, list[str]] = field(default_factory=dict)
    #: each player's last throw (Publishers' rant is 5 times it)
    last_roll: dict[str, int] = field(default_factory=dict)
    #: how each jailed player leaves on their next jailed turn ("fine", "card"), once
    leave: dict[str, str] = field(default_factory=dict)
    #: standing orders for jail: player -> "fine" or "card"
    standing: dict[str, str] = field(default_factory=dict)


def deeds_of(state: GameState) -> TimoDeedsState:
    return TIMO_DEEDS.of(state)


def board_of(state: GameState) -> TimoBoardState:
    return TIMO_BOARD.of(state)


def owns_group(state: GameState, owner: str, spec: Space) -> bool:
    deeds = deeds_of(state).deeds
    return all(deeds.get(s.number) is not None and deeds[s.number].owner == owner
               for s in group(state, spec.group))


def _improved(state: GameState, spec: Space) -> bool:
    deeds = deeds_of(state).deeds
    return any(deeds[s.number].noms or deeds[s.number].rocket for s in group(state, spec.group) if s.number in deeds)


def _levels(state: GameState, spec: Space) -> list[int]:
    """Each category of the group's level: its Noms, a Rocket counting as one more than five."""
    deeds = deeds_of(state).deeds
    return [6 if deeds[s.number].rocket else deeds[s.number].noms for s in group(state, spec.group)]


def _sell_nom(ctx: UpdateContext, player: Player, spec: Space, deed: Deed) -> str:
    if deed.rocket or not deed.noms:
        raise IllegalAction(f"{spec.name} has {'a Rocket: SELL ROCKET ON it' if deed.rocket else 'no Nom'}")
    if deed.noms < max(_levels(ctx.state, spec)):
        raise IllegalAction(f"sell evenly (XV.2): another category of {spec.group} has more Noms than {spec.name}")
    back = spec.nom * int(ctx.params(BUILDING)["sell_back"]) // 100
    ctx.transfer(BANK, player.name, back, rule="XV.2", reason=f"a Nom of {spec.name} sold back", kind="sale")
    deed.noms -= 1
    return f"{player.name} sold a Nom of {spec.name} back for {ctx.state.money(back)}"


def _sell_rocket(ctx: UpdateContext, player: Player, spec: Space, deed: Deed) -> str:
    if not deed.rocket:
        raise IllegalAction(f"{spec.name} has no Rocket")
    back = spec.nom * int(ctx.params(BUILDING)["sell_back"]) // 100
    ctx.transfer(BANK, player.name, back, rule="XV.2", reason=f"the Rocket of {spec.name} sold back", kind="sale")
    deed.rocket, deed.noms = False, int(ctx.params(BUILDING)["max_noms"])
    return f"{player.name} sold the Rocket of {spec.name} back for {ctx.state.money(back)}; its five Noms stand again"


def mortgage_value(ctx: UpdateContext, spec: Space) -> int:
    return spec.price * int(ctx.params(BUILDING)["mortgage"]) // 100


def _mortgage(ctx: UpdateContext, player: Player, spec: Space, deed: Deed) -> str:
    if deed.mortgaged:
        raise IllegalAction(f"{spec.name} is mortgaged already")
    if _improved(ctx.state, spec):
        raise IllegalAction(f"sell the Noms and Rockets of {spec.group} back first (XVI.1)")
    value = mortgage_value(ctx, spec)
    ctx.transfer(BANK, player.name, value, rule="XVI.1", reason=f"mortgaging {spec.name}", kind="mortgage")
    deed.mortgaged = True
    return f"{player.name} mortgaged {spec.name} for {ctx.state.money(value)}"


def send_to_jail(ctx: UpdateContext, player: Player, why: str) -> None:
    st = board_of(ctx.state)
    player.square = first_of(ctx.state, "jail")
    st.jail[player.name] = 0
    ctx.emit("jail", f"{player.name} goes to Social Media Jail ({why}); no Fn 20 for this move.",
             player=player.name, rule="XI.1")


def return_jail_card(ctx: UpdateContext, deck: str) -> None:
    """A used Get Out of Social Media Jail Free card goes back under its deck."""
    pile = TIMO_CARDS_PRIVATE.of(ctx.state).piles.setdefault(deck, DeckState())
    for i, card in enumerate((ctx.params(CARDS)["decks"] or {}).get(deck) or []):
        if (card.get("effect") or {}).get("jail_card") and str(i) not in pile.pile:
            pile.pile.append(str(i))
            return


def auction(ctx: UpdateContext, spec: Space, why: str) -> None:
    """The Fandom auctions a deed it still holds (VII.2, IV.1): never one a player has bought
    meanwhile, nor a second time while its auction is open (two landers both silent)."""
    if spec.number in deeds_of(ctx.state).deeds:
        return
    if any(i.module == DEEDS and i.kind == "auction" and i.payload.get("space") == spec.number
           for i in INTERACTIONS.of(ctx.state).open):
        return
    bidders = sorted(p.name for p in ctx.state.active_players())
    inter = ask(ctx, kind="auction", module=DEEDS, parties=bidders, silence="none",
                payload={"space": spec.number}, sealed=True)
    ctx.emit("auction", f"{spec.name} is up for auction ({why}): sealed bids by the next update, "
                        f"BID {inter.id} <amount>.", rule="VII.2", data={"square": spec.number, "id": inter.id})


def settle(ctx: UpdateContext, payer: Player, payee: str, amount: int, *, rule: str, reason: str, kind: str = "other") -> None:
    """Pay what is owed; one who cannot, even by selling Noms and Rockets back and mortgaging, is
    Fandomrupt (XVII)."""
    if amount <= 0:
        return
    if payer.money < amount:
        raise_cash(ctx, payer, amount)
    if payer.money >= amount:
        ctx.transfer(payer.name, payee, amount, rule=rule, reason=reason, kind=kind)
        return
    fandomrupt(ctx, payer, payee, reason)


def fandomrupt(ctx: UpdateContext, player: Player, creditor: str, reason: str) -> None:
    deeds = deeds_of(ctx.state).deeds
    mine = sorted(n for n, d in deeds.items() if d.owner == player.name)
    if player.money > 0:
        ctx.transfer(player.name, creditor, player.money, rule="XVII.2", reason=f"all {player.name} has ({reason})")
    if creditor != BANK:
        for n in mine:
            deeds[n].owner = creditor
        to = f"{creditor}, who takes their deeds ({', '.join(space(ctx.state, n).name for n in mine) or 'none'})"
    else:
        for n in mine:
            del deeds[n]
        to = "the Fandom, which auctions their deeds"
    if player.money < 0:  # the debt beyond everything: the Fandom writes it off
        ctx.transfer(BANK, player.name, -player.money, rule="XVII.1", reason="a debt written off")
    player.status = "removed"
    hooks.call(ctx).on_player_removed(ctx.state, player)
    ctx.emit("fandomrupt", f"{player.name} is Fandomrupt ({reason}) and retires; everything goes to {to}.",
             player=player.name, rule="XVII.1")
    if creditor == BANK:
        for n in mine:
            auction(ctx, space(ctx.state, n), f"{player.name} went Fandomrupt")


def raise_cash(ctx: UpdateContext, player: Player, amount: int) -> None:
    """Before Fandomruptcy (XVII.1): sell Noms and Rockets back, evenly, then mortgage deeds, in
    board order, until ``amount`` can be paid."""
    deeds = deeds_of(ctx.state).deeds
    mine = [n for n, d in sorted(deeds.items()) if d.owner == player.name]
    def said(text: str) -> None:
        ctx.emit("raise-cash", f"{text} (to pay what {player.name} owes).", player=player.name, rule="XVII.1")

    for n in mine:
        spec = space(ctx.state, n)
        while player.money < amount and (deeds[n].noms or deeds[n].rocket):
            top = max(_levels(ctx.state, spec))
            for s in group(ctx.state, spec.group):
                d = deeds.get(s.number)
                if d and (6 if d.rocket else d.noms) == top and player.money < amount:
                    said((_sell_rocket if d.rocket else _sell_nom)(ctx, player, s, d))
    for n in mine:
        if player.money >= amount:
            return
        if not deeds[n].mortgaged and not _improved(ctx.state, space(ctx.state, n)):
            said(_mortgage(ctx, player, space(ctx.state, n), deeds[n]))
