"""VIII's commands: BUY, NAME SQUARE, RENAME SQUARE, GIVE, HOMESTEAD, DONATE ... TO CHARITY and
REQUEST CHARITY (the module's state is in ownership_state.py, its rules in ownership.py, which
lists these)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from admin.engine.capabilities import PricesSquares
from admin.engine.declare import Square, command, handled
from admin.engine.syntax import SQUARE_PREFIX, name_arg, parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams.mechanics.ownership.state import (CHARITY, NAME, CharityRequest, destroy, halved_for_friend,
                                                       of, section_viii_pay)
from admin.games.nomoteams.mechanics.shared import (CORPORATION, GOVERNMENT, check_square, live_player, market_value,
                                              move_object, objects_of)

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Player
    from admin.engine.model import Square as BoardSquare


def _name_parser(rename: bool) -> Callable[[str, object], NameSquare]:
    keyword = "RENAME SQUARE" if rename else "NAME SQUARE"

    def parse(rest: str, line: object) -> NameSquare:
        m = SQUARE_PREFIX.match(rest.strip())
        if not m:
            raise CommandError(f"{keyword} needs a square and a name, like {keyword} 14 Park Lane; "
                               f"found {rest.strip()!r}.")
        return NameSquare(parse_square(m.group(1)),
                          name_arg(rest.strip()[m.end():], "the name", f"{keyword} 14 Park Lane"), rename)
    return parse


_GIVE = re.compile(r"^square\s+(.+?)\s+to\s+(.+)$", re.IGNORECASE)
_GIVE_ITEM = re.compile(r"^(?:(\d{1,4})\s+)?(.+?)\s+to\s+(.+)$", re.IGNORECASE)
_ALIASES = {"GOVERNMENT": GOVERNMENT, "THE GOVERNMENT": GOVERNMENT,
            "CORPORATION": CORPORATION, "THE CORPORATION": CORPORATION}


def _parse_give(rest: str, line: object) -> GiveSquare:
    m = _GIVE.match(rest.strip())
    if m:
        to = m.group(2).strip()
        return GiveSquare(parse_square(m.group(1)), _ALIASES.get(to.upper(), to))
    m = _GIVE_ITEM.match(rest.strip())
    if not m or int(m.group(1) or 1) < 1:
        raise CommandError(f"GIVE needs SQUARE <n> TO <player> or <object> TO <player>, like GIVE SQUARE 14 "
                           f"TO bob or GIVE SOUVENIR HAT TO bob; found {rest.strip()!r}.")
    to = m.group(3).strip()
    return GiveSquare(None, _ALIASES.get(to.upper(), to), " ".join(m.group(2).split()), int(m.group(1) or 1))


def _parse_homestead(rest: str, line: object) -> Homestead:
    if rest.strip():
        raise CommandError(f"HOMESTEAD takes nothing after it (it is for the square you stand on); "
                           f"found {rest.strip()!r}.")
    return Homestead()


_DONATE = re.compile(r"^(.+?)\s+to\s+charity$", re.IGNORECASE)


def _parse_donate(rest: str, line: object) -> Charity:
    m = _DONATE.match(rest.strip())
    if not m:
        raise CommandError(f"DONATE needs a square and TO CHARITY, like DONATE 14 TO CHARITY; found {rest.strip()!r}.")
    return Charity(parse_square(m.group(1)), False)


@command("BUY [square]", cmd="teams-buy", phase=0, listing=10,
         summary="buy the unowned square you landed on, at its market value, from The Government",
         example="BUY 14", rules=("VIII.4",))
class TeamsBuy:
    """``BUY [square]`` (VIII.4)."""

    square: Square | None = None


@command("NAME SQUARE <n> <name>", keyword="NAME SQUARE", parse=_name_parser(False), cmd="teams-name", listing=20,
         summary="name an unnamed square you own (rent is due only on named squares)",
         example="NAME SQUARE 14 Park Lane", rules=("VIII.3",))
@command("RENAME SQUARE <n> <name>", keyword="RENAME SQUARE", parse=_name_parser(True),
         listing=21, summary="rename a square you own: $15, $30, $100 to everyone, then free "
                             "(and you become a Freemason); a fifth rename destroys it",
         example="RENAME SQUARE 14 Mayfair", rules=("VIII.10",))
class NameSquare:
    """``NAME SQUARE <n> <name>`` (VIII.3) and ``RENAME SQUARE <n> <name>`` (VIII.10)."""

    square: int
    name: str
    rename: bool = False


@command("GIVE SQUARE <n> TO <player> | GIVE [count] <object> TO <player>", parse=_parse_give, cmd="teams-give",
         listing=22, summary="give a square or an object you own to another player (or to The Government "
                             "or The Corporation)",
         example="GIVE SQUARE 14 TO bob", rules=("VIII.1",))
class GiveSquare:
    """``GIVE SQUARE <n> TO <player>`` or ``GIVE [count] <object> TO <player>`` (VIII.1)."""

    square: int | None
    to: str
    item: str | None = None
    count: int = 1


@command("HOMESTEAD", parse=_parse_homestead, cmd="teams-homestead", listing=23,
         summary="after three weeks' ends on one square, never pay rent for it",
         example="HOMESTEAD", rules=("VIII.12",))
class Homestead:
    """``HOMESTEAD`` (VIII.12)."""


@command("DONATE <n> TO CHARITY", parse=_parse_donate, cmd="teams-charity", listing=24,
         summary="give a square you own to Charity", example="DONATE 14 TO CHARITY", rules=("VIII.13",))
@command("REQUEST CHARITY <square:n>", keyword="REQUEST CHARITY", fixed={"request": True}, listing=25,
         hint='"" is not a square; write a square as its number, like 14, #14 or square 14.',
         summary="ask for a square Charity holds; the poorest who asked gets it",
         example="REQUEST CHARITY 14", rules=("VIII.13",))
class Charity:
    """``DONATE <n> TO CHARITY`` or ``REQUEST CHARITY <n>`` (VIII.13)."""

    square: Square
    request: bool


def buy(ctx: UpdateContext, player: Player, cmd: TeamsBuy) -> str:
    own = of(ctx.state)
    mine = [r for r in own.buy_rights if r.player == player.name]
    right = next((r for r in mine if r.square == cmd.square), None) if cmd.square is not None else \
        (mine[-1] if mine else None)
    if right is None:
        landed = ", ".join(str(r.square) for r in mine) or "none"
        raise IllegalAction("you may buy only an unowned square you landed on since your last turn "
                            f"(teams:VIII.4); yours: {landed}")
    square = check_square(ctx, right.square)
    owner = own.owners.get(square.number)
    if owner is not None:
        raise IllegalAction(f"square {square.number} is owned by {owner} now (teams:VIII.4)")
    value = market_value(ctx.state, square.number)
    discount = ctx.registry.provider(ctx.state, PricesSquares)
    if discount is not None:
        value = discount.adjust_price(ctx, player, square, value)
    if player.money < value:
        raise IllegalAction(f"square {square.number}'s market value is {ctx.state.money(value)} and you have "
                            f"{ctx.state.money(player.money)}; a buyer needs at least that much (teams:VIII.4)")
    ctx.transfer(player.name, GOVERNMENT, value, rule="teams:VIII.4", reason=f"buying square {square.number}",
                 voluntary=True)
    own.owners[square.number] = player.name
    own.buy_rights = [r for r in own.buy_rights if r.square != square.number]
    return f"{player.name} bought square {square.number} from The Government for {ctx.state.money(value)}."


def name_square(ctx: UpdateContext, player: Player, cmd: NameSquare) -> str:
    own = of(ctx.state)
    square = check_square(ctx, cmd.square)
    if own.owners.get(square.number) != player.name:
        raise IllegalAction(f"only the owner may {'rename' if cmd.rename else 'name'} square {square.number} "
                            f"(VIII.3, VIII.10); its owner is {own.owners.get(square.number) or 'nobody'}")
    new = " ".join(cmd.name.split())
    for other in ctx.state.live_squares():
        if other.name and other.name.casefold() == new.casefold() and other.number != square.number:
            raise IllegalAction(f'square {other.number} is already named "{other.name}"; choose another name')
    if not cmd.rename:
        if square.name:
            raise IllegalAction(f'square {square.number} is named "{square.name}" already; to change it, '
                                f"RENAME SQUARE {square.number} <name> (VIII.10)")
        square.name = new
        return f'{player.name} named square {square.number} "{new}" (VIII.3).'
    if not square.name:
        raise IllegalAction(f"square {square.number} has no name yet; NAME SQUARE {square.number} <name> "
                            "names it for free (VIII.3)")
    return rename(ctx, player, square, new)


def rename(ctx: UpdateContext, player: Player, square: BoardSquare, new: str) -> str:
    """VIII.10's ladder: $15, $30, then $100 to The Government, The Corporation and each other
    player; the fourth rename is free and makes the renamer a Freemason; a fifth destroys it."""
    from admin.games.nomoteams.mechanics.teams import make_freemason

    own = of(ctx.state)
    times = own.renamed.get(square.number, 0)
    fees = [int(f) for f in ctx.params(NAME)["rename_fees"]]
    if times >= len(fees) + 1:
        if not destroy(ctx, square.number, f"{player.name} tried to rename it a {times + 1}th time", "VIII.10",
                       by=player.name):
            return f"Explosive Insurance saved square {square.number} from its fifth renaming (VIII.10, XVIII.4)."
        return f"Square {square.number} had been renamed {times} times: renaming it again destroyed it (VIII.10)."
    if times == len(fees):
        old, square.name = square.name, new
        own.renamed[square.number] = times + 1
        make_freemason(ctx.state, player.name)
        return (f'{player.name} renamed square {square.number} from "{old}" to "{new}" for free, and became '
                "a Freemason (VIII.10).")
    fee = fees[times]
    payees = [GOVERNMENT, CORPORATION] + sorted(p.name for p in ctx.state.active_players() if p.name != player.name)
    total = sum(halved_for_friend(ctx.state, player.name, p, fee) for p in payees)
    if player.money < total:
        raise IllegalAction(f"renaming square {square.number} costs {ctx.state.money(fee)} to each of "
                            f"{len(payees)} ({ctx.state.money(total)} in all) and you have "
                            f"{ctx.state.money(player.money)} (VIII.10)")
    for payee in payees:
        section_viii_pay(ctx, player.name, payee, fee, rule="VIII.10", reason=f"renaming square {square.number}",
                         voluntary=True)
    old, square.name = square.name, new
    own.renamed[square.number] = times + 1
    return (f'{player.name} renamed square {square.number} from "{old}" to "{new}", paying '
            f"{ctx.state.money(total)} in all (VIII.10).")


def give(ctx: UpdateContext, player: Player, cmd: GiveSquare) -> str:
    if cmd.square is None:
        return give_object(ctx, player, cmd)
    own = of(ctx.state)
    square = check_square(ctx, cmd.square)
    if own.owners.get(square.number) != player.name:
        raise IllegalAction(f"you do not own square {square.number} (VIII.1); its owner is "
                            f"{own.owners.get(square.number) or 'nobody'}")
    if cmd.to in (GOVERNMENT, CORPORATION):
        to = cmd.to
    else:
        to = live_player(ctx, cmd.to).name
    if to == player.name:
        raise IllegalAction("you own that square already")
    own.owners[square.number] = to
    return f"{player.name} gave square {square.number} to {to} (VIII.1)."


def give_object(ctx: UpdateContext, player: Player, cmd: GiveSquare) -> str:
    """VIII.1 for objects: whatever module keeps them (``shared.objects_of``), matched by name
    without regard to case or a plural s."""
    to = cmd.to if cmd.to in (GOVERNMENT, CORPORATION) else live_player(ctx, cmd.to).name
    if to == player.name:
        raise IllegalAction("you hold it already")
    held = objects_of(ctx.state, player.name)
    wanted = (cmd.item or "").casefold().rstrip("s")
    item = next((k for k in held if k.casefold().rstrip("s") == wanted), None)
    if item is None or held[item] < cmd.count:
        listed = ", ".join(f"{k} x{v}" for k, v in held.items()) or "nothing"
        raise IllegalAction(f"you have {held.get(item, 0) if item else 0} {cmd.item}; you hold {listed} (VIII.1)")
    move_object(ctx.state, player.name, to, item, cmd.count)
    return f"{player.name} gave {cmd.count} {item} to {to} (VIII.1)."


def homestead(ctx: UpdateContext, player: Player, cmd: Homestead) -> str:
    own = of(ctx.state)
    need = int(ctx.params(NAME)["homestead_weeks"])
    stay = own.stays.get(player.name)
    weeks = stay.weeks if stay and stay.square == player.square else 0
    if weeks < need:
        raise IllegalAction(f"you have ended {weeks} consecutive week(s) on square {player.square}; a Homestead "
                            f"needs {need} (VIII.12)")
    mine = own.homesteads.setdefault(player.name, [])
    if player.square in mine:
        raise IllegalAction(f"you have a Homestead on square {player.square} already")
    mine.append(player.square)
    return f"{player.name} set up a Homestead on square {player.square}: no rent for it, ever (VIII.12)."


def charity(ctx: UpdateContext, player: Player, cmd: Charity) -> str:
    own = of(ctx.state)
    square = check_square(ctx, cmd.square)
    if cmd.request:
        if square.number not in own.charity:
            raise IllegalAction(f"square {square.number} is not with Charity; Charity holds "
                                f"{', '.join(map(str, own.charity)) or 'nothing'} (VIII.13)")
        if any(r.player == player.name and r.square == square.number for r in own.charity_requests):
            raise IllegalAction(f"you have asked for square {square.number} already")
        own.charity_requests.append(CharityRequest(player.name, square.number, ctx.state.week))
        return (f"{player.name} asked Charity for square {square.number}; it goes to the poorest who asked "
                "at the start of next week (VIII.13).")
    if own.owners.get(square.number) != player.name:
        raise IllegalAction(f"you do not own square {square.number} (VIII.13)")
    own.owners[square.number] = CHARITY
    own.charity.append(square.number)
    return f"{player.name} donated square {square.number} to Charity (VIII.13)."


COMMANDS = handled((TeamsBuy, buy), (NameSquare, name_square), (GiveSquare, give), (Homestead, homestead),
                   (Charity, charity))
