"""What players write to play at a Casino (XXXIII.2): PLAY BLACKJACK, PLAY POKER and PLAY ROULETTE
with their bets, and HIT, STAND and HOLD in an open hand; each read into its typed command, declared
here with its usage line and HELP entry (@command). The games themselves are in games.py."""

from __future__ import annotations

import re
from typing import Callable

from admin.engine.playingcards import parse_card
from admin.engine.declare import command
from admin.engine.errors import CommandError
from admin.library.payment import split_on_credit
from admin.games.nomopoly2.mechanics.casinos import cards as cc


_AMOUNT = re.compile(r"^(?:bet\s+)?\$?(\d{1,9})$", re.IGNORECASE)


def _bet(text: str, keyword: str, example: str) -> int:
    m = _AMOUNT.match(text.strip())
    if not m:
        raise CommandError(f"{keyword} needs a bet in whole dollars, like {example}.")
    return int(m.group(1))


def parse_card_game(game: str, example: str) -> Callable[[str, object], PlayCasino]:
    def parse(rest: str, _line: object) -> PlayCasino:
        rest, credit = split_on_credit(rest)
        return PlayCasino(game, _bet(rest, f"PLAY {game.upper()}", example), on_credit=credit)
    return parse


def parse_target(text: str) -> str:
    """A roulette bet's category: a number 0-36, RED or BLACK, or five different numbers."""
    word = text.strip().lower().replace(" ", "")
    if word in (cc.RED, cc.BLACK):
        return word
    numbers = [n for n in word.split(",") if n]
    if not numbers or not all(re.fullmatch(r"\d{1,2}", n) for n in numbers):
        raise CommandError(f"{text.strip()!r} is not a roulette bet; bet ON a number from 0 to 36, ON RED, "
                           "ON BLACK, or ON five numbers like 1,5,9,22,36")
    values = [int(n) for n in numbers]
    if any(v > 36 for v in values):
        raise CommandError(f"the wheel runs from 0 to 36; {max(values)} is not on it")
    if len(values) not in (1, 5) or len(set(values)) != len(values):
        raise CommandError(f"{text.strip()!r}: bet on one number, or on five different numbers like 1,5,9,22,36")
    return ",".join(str(v) for v in values)


def parse_roulette(rest: str, _line: object) -> PlayCasino:
    rest, credit = split_on_credit(rest)
    m = re.match(r"^(?:bet\s+)?\$?(\d{1,9})\s+on\s+(.+)$", rest.strip(), re.IGNORECASE)
    if not m:
        raise CommandError("PLAY ROULETTE needs a bet and what it is on, like PLAY ROULETTE 20 ON RED, "
                           "PLAY ROULETTE 5 ON 17 or PLAY ROULETTE 10 ON 1,5,9,22,36.")
    return PlayCasino("roulette", int(m.group(1)), parse_target(m.group(2)), credit)


def parse_move(word: str) -> Callable[[str, object], CasinoMove]:
    def parse(rest: str, _line: object) -> CasinoMove:
        rest = rest.strip()
        number = None
        m = re.match(r"^#(\d{1,9})\s*(.*)$", rest)
        if m:
            number, rest = int(m.group(1)), m.group(2)
        if word == "hold":
            return CasinoMove(f"hold {positions_text(rest)}", number)
        if rest:
            raise CommandError(f"{word.upper()} takes nothing after it (or the hand's number, like {word.upper()} #12).")
        return CasinoMove(word, number)
    return parse


def positions_text(text: str) -> str:
    """``"1 3 5"``, ``"1,3,5"``, ``"ALL"``, ``"NONE"`` or cards (``"KH KD"``), checked for form only."""
    words = [w for w in re.split(r"[\s,]+", text.strip()) if w]
    if not words:
        raise CommandError("HOLD needs the cards to keep: their positions (HOLD 1 3 5), the cards "
                           "(HOLD KH KD), HOLD ALL or HOLD NONE.")
    if len(words) == 1 and words[0].lower() in ("all", "none"):
        return words[0].lower()
    out = []
    for w in words:
        if re.fullmatch(r"[1-5]", w):
            out.append(w)
        elif parse_card(w) is not None:
            out.append(parse_card(w))
        else:
            raise CommandError(f"{w!r} is neither a position from 1 to 5 nor a card like KH; "
                               "write HOLD 1 3 5, HOLD KH KD, HOLD ALL or HOLD NONE")
    return " ".join(out)


@command("PLAY BLACKJACK <bet>", keyword="PLAY BLACKJACK", parse=parse_card_game("blackjack", "PLAY BLACKJACK 100"),
         listing=330, rules=("XXXIII.2", "XXXIII.4"),
         summary="at a Casino: bet up to $500 on a hand of Blackjack; answer HIT or STAND by the next update",
         example="PLAY BLACKJACK 100")
@command("PLAY POKER <bet>", keyword="PLAY POKER", parse=parse_card_game("poker", "PLAY POKER 20"),
         listing=331, rules=("XXXIII.2", "XXXIII.4"),
         summary="at a Casino: bet up to $25 on five cards; answer HOLD with the cards to keep by the next update",
         example="PLAY POKER 20")
@command("PLAY ROULETTE <bet> ON <target:number|RED|BLACK|five numbers>", keyword="PLAY ROULETTE",
         parse=parse_roulette, cmd="casino-play", listing=332, rules=("XXXIII.2", "XXXIII.4"),
         summary="at a Casino: bet up to $50 on a number (36 times), a colour (2 times) or five numbers (7 times)",
         example="PLAY ROULETTE 20 ON RED")
class PlayCasino:
    """``PLAY BLACKJACK <bet>``, ``PLAY POKER <bet>``, ``PLAY ROULETTE <bet> ON <target>`` (XXXIII.2)."""

    game: str
    bet: int
    #: roulette: a number "17", "red", "black", or five numbers "1,5,9,22,36"
    target: str = ""
    on_credit: bool = False


@command("HIT", parse=parse_move("hit"), listing=333, rules=("XXXIII.2",),
         summary="draw another card in your open Blackjack hand", example="HIT")
@command("STAND", parse=parse_move("stand"), listing=334, rules=("XXXIII.2",),
         summary="stop drawing in your open Blackjack hand; the dealer draws to 17", example="STAND")
@command("HOLD <positions>", usage="HOLD <positions>|ALL|NONE", parse=parse_move("hold"), listing=335,
         rules=("XXXIII.2",),
         summary="keep these of your five Poker cards (by position 1-5, or the cards) and replace the rest",
         example="HOLD 1 2 5")
class CasinoMove:
    """``HIT``, ``STAND`` or ``HOLD <positions>``: the next step of one's open hand (XXXIII.2)."""

    move: str
    #: the question's number, when given (HIT 12)
    number: int | None = None
