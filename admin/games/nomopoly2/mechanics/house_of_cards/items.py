"""Nomopoly II XXIV.2: the House of Cards' items once bought, and what using each does. The mechanic
(``mechanic.py``) hands these commands to the engine and registers the hooks; this file declares the
items' commands and keeps their state and their uses, and ``effects.py`` what they then do to moves
and landings.

Standing rulings (docs/rulings.md): a jetpack's extra die has as many sides as the
player's own dice; a card remover's card leaves the game (``removed_card``); a time bomb and glue go
on the user's square, one of each a square; a bomb is hidden (only its planter is told where), glue
is shown on the board; the infection lasts until cured; a mask lasts the update it is used in."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from admin.engine.playingcards import card_name
from admin.engine.declare import command
from admin.engine.syntax import parse_square, quote
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly2.api import CONDITIONS, MASKED, KeepsCreatures
from admin.games.nomopoly2.mechanics import shared
from admin.engine.model import Player
from admin.games.nomopoly2.mechanics.house_of_cards.state import (  # the state, read from here too
    NAME as NAME, HouseOfCardsPrivate as HouseOfCardsPrivate, HouseOfCardsState as HouseOfCardsState, hp as hp,
    hs as hs,
)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square

# -- commands -------------------------------------------------------------------------------
def _words(rest: str) -> list[str]:
    return rest.strip().rstrip(".!").lower().split()


def bare(item: str, tail: str, usage: str,
         make: Callable[[str], UseItem] | None = None) -> Callable[[str, object], UseItem]:
    """A parser for an item used alone: ``USE MEDICINE``, ``PLACE TIME`` + ``BOMB`` (``make``: its
    command, a :class:`UseItem` unless said)."""
    def parse(rest: str, _line: object) -> UseItem:
        if _words(rest) != tail.split():
            keyword = " ".join(usage.split()[:len(usage.split()) - len(tail.split())])  # PLACE TIME (+ BOMB)
            raise CommandError(f"{quote(f'{keyword} {rest}'.strip())} is not understood; write {usage}, with "
                               "nothing after it")
        return make(item) if make else UseItem(item)
    return parse


def at_square(item: str, lead: str, word: str, usage: str) -> Callable[[str, object], UseItem]:
    """A parser for ``USE CARD`` + ``REMOVER ON <n>``, ``USE WARP`` + ``BUBBLE TO <n>`` ..."""
    def parse(rest: str, _line: object) -> UseItem:
        m = re.match(rf"^{lead}\s*(?:(?:{word})\s+)?(.+)$", rest.strip().rstrip(".!"), re.IGNORECASE)
        if not m:
            raise CommandError(f"write {usage}, like {usage.replace('<square>', '14')}")
        return UseItem(item, square=parse_square(m.group(1)))
    return parse


def on_player(item: str, lead: str, usage: str) -> Callable[[str, object], UseItem]:
    """A parser for ``USE HAMMER ON <player>`` (``lead``: what follows the keyword before ON)."""
    def parse(rest: str, _line: object) -> UseItem:
        m = re.match(rf"^{lead}\s*(?:on\s+)?(\S+)$", rest.strip().rstrip(".!"), re.IGNORECASE)
        if not m:
            raise CommandError(f"write {usage}, like {usage.replace('<player>', 'bob')}")
        return UseItem(item, target=m.group(1))
    return parse


@command("USE JETPACK", keyword="USE JETPACK", parse=bare("jetpack", "", "USE JETPACK"), cmd="hoc-use", listing=242,
         rules=("XXIV.2",), summary="roll an extra die on your next turn", example="USE JETPACK")
@command("USE CARD REMOVER ON <square>", keyword="USE CARD", listing=243, rules=("XXIV.2",),
         parse=at_square("card remover", "remover", "on|from", "USE CARD REMOVER ON <square>"),
         summary="take the card off a square you own", example="USE CARD REMOVER ON 14")
@command("USE MEDICINE", keyword="USE MEDICINE", parse=bare("medicine", "", "USE MEDICINE"), listing=244,
         rules=("XXIV.2",), summary="gain 15 health", example="USE MEDICINE")
@command("USE POKEBALL TO <square>", keyword="USE POKEBALL", listing=245, rules=("XXIV.2",),
         parse=at_square("pokeball", "", "to|on", "USE POKEBALL TO <square>"),
         summary="a random creature on the board jumps to the square you choose", example="USE POKEBALL TO 20")
@command("USE WARP BUBBLE TO <square>", keyword="USE WARP", listing=247, rules=("XXIV.2",),
         parse=at_square("warp bubble", "bubble", "to", "USE WARP BUBBLE TO <square>"),
         summary="jump to a square of your choice (not one named Blackjack; one an update)",
         example="USE WARP BUBBLE TO 30")
@command("USE HAMMER ON <target:player>", keyword="USE HAMMER", listing=248, rules=("XXIV.2",),
         parse=on_player("hammer", "", "USE HAMMER ON <player>"),
         summary="a player on your square loses 15 health", example="USE HAMMER ON bob")
@command("PLACE GLUE", keyword="PLACE GLUE", parse=bare("glue", "", "PLACE GLUE"), listing=249, rules=("XXIV.2",),
         summary="glue your square: the next player to pass over it stops there", example="PLACE GLUE")
@command("USE ANTHRAX ON <target:player>", keyword="USE ANTHRAX", listing=250, rules=("XXIV.2",),
         parse=on_player("anthrax", "", "USE ANTHRAX ON <player>"),
         summary="infect a player (a minor atrocity) or a creature: -5 health each week until cured",
         example="USE ANTHRAX ON bob")
@command("USE MASK ON <target:player>", keyword="USE MASK", listing=251, rules=("XXIV.2",),
         parse=on_player("mask", "", "USE MASK ON <player>"),
         summary="for this update, what your moves do happens to another player (a minor atrocity)",
         example="USE MASK ON bob")
@command("USE SHOVEL", keyword="USE SHOVEL", parse=bare("shovel", "", "USE SHOVEL"), listing=252,
         rules=("XXIV.2",), summary="dig up the cards buried under your square (up to 25 cards in hand)",
         example="USE SHOVEL")
class UseItem:
    """``USE JETPACK``, ``USE MEDICINE``, ``USE SHOVEL``, ``PLACE TIME BOMB``, ``PLACE GLUE``,
    ``USE CARD REMOVER ON <n>``, ``USE POKEBALL TO <n>``, ``USE WARP BUBBLE TO <n>``,
    ``USE HAMMER ON <player>``, ``USE ANTHRAX ON <player>``, ``USE MASK ON <player>`` (XXIV.2)."""

    item: str
    square: int | None = None
    target: str | None = None


@command("PLACE TIME BOMB", keyword="PLACE TIME", cmd="hoc-place-time-bomb", listing=246, rules=("XXIV.2",),
         parse=bare("time bomb", "bomb", "PLACE TIME BOMB", lambda item: PlaceTimeBomb(item)), private=True,
         summary="hide a time bomb on your square: the next player to land there loses 20 health",
         example="PLACE TIME BOMB")
class PlaceTimeBomb(UseItem):
    """``PLACE TIME BOMB`` (XXIV.2): a command of its own, as only its planter is told of it."""


def a(item: str) -> str:
    """``"a jetpack"``, ``"an ..."``, ``"medicine"``, ``"glue"``, ``"anthrax"`` (no article)."""
    if item in ("medicine", "glue", "anthrax"):
        return item
    return f"{'an' if item[0] in 'aeiou' else 'a'} {item}"


def _take(ctx: UpdateContext, player: Player, item: str) -> None:
    if not hs(ctx.state).items.count(player.name, item):
        raise IllegalAction(f"you have no {item}; trade cards for one at the House of Cards "
                            f"(EXCHANGE <cards> FOR {item.upper()}, XXIV.2)")
    hs(ctx.state).items.take(player.name, item)


def _check_has(ctx: UpdateContext, player: Player, item: str) -> None:
    if not hs(ctx.state).items.count(player.name, item):
        raise IllegalAction(f"you have no {item}; trade cards for one at the House of Cards "
                            f"(EXCHANGE <cards> FOR {item.upper()}, XXIV.2)")


def _other(ctx: UpdateContext, name: str, what: str) -> Player:
    target = next((p for n, p in ctx.state.players.items() if n.lower() == name.lower() and p.active), None)
    if target is None:
        names = ", ".join(sorted(p.name for p in ctx.state.active_players()))
        raise IllegalAction(f"there is no player {quote(name)} to {what}; the players are {names}")
    return target


def _square(ctx: UpdateContext, number: int) -> Square:
    square = ctx.state.square(number)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {number} on the board")
    return square


def _no_governor(ctx: UpdateContext, player: Player, item: str) -> None:
    if shared.governor(ctx.state) == player.name:
        raise IllegalAction(f"the Governor may not buy or use {item}s (XXXV.3)")


def _atrocity_allowed(ctx: UpdateContext, player: Player) -> None:
    why = shared.may_commit_atrocity(ctx.state, player.name)
    if why:
        raise IllegalAction(why)


def use_item(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    return _USES[cmd.item](ctx, player, cmd)


def _jetpack(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    state = hs(ctx.state)
    if player.name in state.jetpacks:
        raise IllegalAction("you used a jetpack already and have not rolled since; one extra die a turn (XXIV.2)")
    _take(ctx, player, "jetpack")
    state.jetpacks.append(player.name)
    return f"{player.name} used a jetpack: their next turn rolls an extra die."


def _medicine(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    _take(ctx, player, "medicine")
    gain = int(ctx.params(NAME)["medicine_health"])
    change_health(ctx, player, gain, rule="XXIV.2", reason="medicine")
    return f"{player.name} took medicine (+{gain} health)."


def _card_remover(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    from admin.library import cards
    from admin.library.ownership import owner_of

    number = int(cmd.square or 0)
    _square(ctx, number)
    owner = owner_of(ctx.state, number)
    if owner != player.name:
        raise IllegalAction(f"a card remover works on a square you own (XXIV.2); square {number} is "
                            f"owned by {owner or 'nobody'}")
    card = cards.placed_on(ctx.state, number)
    if card is None:
        raise IllegalAction(f"square {number} has no card on it to remove")
    _take(ctx, player, "card remover")
    cards.place_card(ctx.state, number, None)
    if ctx.params(NAME)["removed_card"] == "hand":
        cards.give(ctx.state, player.name, card)
        return (f"{player.name} used a card remover on square {number}: the {card_name(card)} is back "
                "in their hand.")
    return f"{player.name} used a card remover on square {number}: the {card_name(card)} is gone."


def _pokeball(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    number = int(cmd.square or 0)
    _square(ctx, number)
    _check_has(ctx, player, "pokeball")
    zoo = ctx.registry.provider(ctx.state, KeepsCreatures)  # None while the Zoo is not in force
    creature = zoo.move_random_creature(ctx, number, "XXIV.2") if zoo is not None else None
    if creature is None:
        raise IllegalAction("there are no creatures on the board, so a Pokeball may not be used (XXIV.2)")
    hs(ctx.state).items.take(player.name, "pokeball")
    return f"{player.name} threw a Pokeball: {creature} jumped to square {number}."


def _time_bomb(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    _no_governor(ctx, player, "time bomb")
    bombs = hp(ctx.state).bombs
    _check_has(ctx, player, "time bomb")
    if player.square in bombs:  # told to the planter only: a refusal would be public (XXIV.2)
        return (f"Your time bomb was not placed: square {player.square} holds a time bomb already, and a "
                "square holds one at most (XXIV.2). You keep yours.")
    _take(ctx, player, "time bomb")
    bombs[player.square] = player.name
    return f"You placed a time bomb on square {player.square}; the next player to land there loses 20 health."


def _glue(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    glued = hs(ctx.state).glued
    if player.square in glued:
        raise IllegalAction(f"square {player.square} has glue on it already")
    _take(ctx, player, "glue")
    hs(ctx.state).glued = sorted(glued + [player.square])
    return (f"{player.name} put glue on square {player.square}: the next player to pass over it stops "
            "there.")


def _warp(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    from admin.engine.movement import jump

    number = int(cmd.square or 0)
    square = _square(ctx, number)
    state = hs(ctx.state)
    if state.warped.get(player.name) == ctx.state.update:
        raise IllegalAction("you used a warp bubble this update already; one an update (XXIV.2)")
    if (square.name or "").strip().lower() == "blackjack":
        raise IllegalAction(f"square {number} is named Blackjack; a warp bubble may not go there (XXIV.2)")
    _take(ctx, player, "warp bubble")
    state.warped[player.name] = ctx.state.update
    who = impersonated(ctx, player)
    if who is not player:
        move_as(ctx, player, who, lambda: jump(ctx, who, number, rule="XXIV.2", reason=f"{player.name}'s warp bubble"))
    else:
        jump(ctx, player, number, rule="XXIV.2", reason="a warp bubble")
    return f"{player.name} used a warp bubble to square {number}."


def _hammer(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    _no_governor(ctx, player, "hammer")
    target = _other(ctx, cmd.target or "", "hit with a hammer")
    if target.name == player.name:
        raise IllegalAction("a hammer is used on another player on your square, not on yourself")
    if target.square != player.square:
        raise IllegalAction(f"{target.name} is on square {target.square} and you on square "
                            f"{player.square}; a hammer hits a player on your own square (XXIV.2)")
    _take(ctx, player, "hammer")
    change_health(ctx, target, -int(ctx.params(NAME)["hammer_health"]), rule="XXIV.2",
                  reason=f"{player.name}'s hammer")
    return f"{player.name} hit {target.name} with a hammer."


def _anthrax(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    zoo = ctx.registry.provider(ctx.state, KeepsCreatures)
    if cmd.target and zoo is not None and not any(n.lower() == cmd.target.lower() for n in ctx.state.players):
        _check_has(ctx, player, "anthrax")
        creature = zoo.infect_creature(ctx, cmd.target)  # a creature: allowed, and no atrocity (XXIV.2)
        if creature is not None:
            _take(ctx, player, "anthrax")
            return f"{player.name} used anthrax on {creature}, which is infected."
    target = _other(ctx, cmd.target or "", "infect")
    if shared.immune_to_anthrax(ctx.state, target.name):
        raise IllegalAction(f"{target.name} travels by helicopter, and anthrax may not be used on a "
                            "helicopter user (XXIX.3)")
    if target.name != player.name:
        _atrocity_allowed(ctx, player)
    _take(ctx, player, "anthrax")
    infect(ctx, target)
    if target.name != player.name:
        shared.commit_atrocity(ctx, player.name, major=False, rule="XXIV.2", what=f"anthrax on {target.name}")
    return f"{player.name} used anthrax on {target.name}, who is infected."


def _mask(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    target = _other(ctx, cmd.target or "", "impersonate")
    if target.name == player.name:
        raise IllegalAction("a mask impersonates another player, not yourself")
    masks = hs(ctx.state).masks
    if player.name in masks:
        raise IllegalAction(f"you wear a mask already this update (as {masks[player.name]})")
    _atrocity_allowed(ctx, player)
    _take(ctx, player, "mask")
    masks[player.name] = target.name
    shared.commit_atrocity(ctx, player.name, major=False, rule="XXIV.2", what=f"a mask of {target.name}")
    return (f"{player.name} put on a mask of {target.name}: for this update, what {player.name}'s moves "
            f"do on landing, leaving and passing squares happens to {target.name}.")


def _shovel(ctx: UpdateContext, player: Player, cmd: UseItem) -> str:
    from admin.library import cards

    _check_has(ctx, player, "shovel")
    private = cards.CardsModule.private_of(ctx.state)
    here = [b for b in private.buried if b.square == player.square]
    p = ctx.params(NAME)
    cap = int(p["governor_max_cards" if shared.governor(ctx.state) == player.name else "shovel_max_cards"])
    room = max(0, cap - len(cards.hand(ctx.state, player.name)))
    chosen = list(range(len(here)))
    if len(here) > room:  # a random set of them, drawn in secret (XXIV.2)
        for i in range(len(chosen) - 1, 0, -1):
            j = ctx.dice.roll_hidden(f"shovel/{player.name}/{i}", i + 1, player.name) - 1
            chosen[i], chosen[j] = chosen[j], chosen[i]
        chosen = sorted(chosen[:room])
    hs(ctx.state).items.take(player.name, "shovel")
    dug = [here[i] for i in chosen]
    left = [b for i, b in enumerate(here) if i not in chosen]
    gone = {id(b) for b in dug}
    private.buried = [b for b in private.buried if id(b) not in gone]
    for b in dug:
        cards.give(ctx.state, player.name, b.card)
    told = (f"You dug up {', '.join(b.card for b in dug) or 'no cards'} under square {player.square}"
            + (f"; still buried there (you hold {cap} cards, the most a shovel brings you to): "
               f"{', '.join(b.card for b in left)}" if left else "") + ".")
    ctx.emit("shovel", None, player=player.name, private=told, rule="XXIV.2")
    return f"{player.name} dug under square {player.square} with a shovel."


_USES = {"jetpack": _jetpack, "medicine": _medicine, "card remover": _card_remover, "pokeball": _pokeball,
         "time bomb": _time_bomb, "glue": _glue, "warp bubble": _warp, "hammer": _hammer,
         "anthrax": _anthrax, "mask": _mask, "shovel": _shovel}


# -- what a use does to other players ----------------------------------------------------------
def infect(ctx: UpdateContext, target: Player) -> None:
    from admin.games.nomopoly2.mechanics.conditions import grant

    if CONDITIONS.on(ctx.state):
        grant(ctx.state, target.name, "infected", 0)  # until cured (XXIV.2)


def impersonated(ctx: UpdateContext, player: Player) -> Player:
    """The player whose moves ``player``'s count as this update (a mask), or ``player`` themself."""
    other = hs(ctx.state).masks.get(player.name)
    target = ctx.state.players.get(other) if other else None
    return target if target is not None and target.active else player


def move_as(ctx: UpdateContext, wearer: Player, target: Player, moving: Callable[[], object]) -> None:
    """Make a move of ``wearer``'s happen to ``target`` (a mask, XXIV.2): ``target`` is put where
    ``wearer`` stands and moved; ``wearer`` ends where the move ended; ``target`` goes back where
    they were (unless the move reset them, which put them on the first square)."""
    from admin.library.health import resets_of

    home, resets = target.square, resets_of(ctx.state, target.name)
    target.square = wearer.square
    MASKED.of(ctx).add(target.name)
    try:
        moving()
    finally:
        MASKED.of(ctx).discard(target.name)
    wearer.square = target.square
    if resets_of(ctx.state, target.name) == resets and target.active:
        target.square = home
