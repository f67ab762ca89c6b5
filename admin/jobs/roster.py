"""The Admin's immediate actions on the roster: adding and removing players, with the rules of
III.1 (unique usernames) and III.4 (a new player starts as though just reset; each mechanic sets
up its part of the player). Pure functions: the CLI logs each one, and replay applies them again."""

from __future__ import annotations

import re

from admin.engine import hooks
from admin.engine.board import live_numbers, lowest
from admin.engine.syntax import PLAYER_NAME
from admin.engine.errors import IllegalAction
from admin.games.registry import REGISTRY
from admin.engine.model import GameState, Player

_NAME = PLAYER_NAME
#: an address as a player's mail program sends it: a dot-atom local part (no commas, semicolons,
#: quotes or spaces) and a domain of labels
_EMAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")


def add_player(state: GameState, name: str, email: str, token_hash: str | None = None) -> Player:
    if not _NAME.fullmatch(name):  # fullmatch: "alice\n" is not a name ($ matches before a newline)
        raise IllegalAction(f"player name {name!r} is not valid: use 1 to 40 letters, digits, '_', "
                            "'-' or '.', starting with a letter")
    if not _EMAIL.fullmatch(email.strip()) or ".." in email:
        raise IllegalAction(f"{email!r} is not an email address like name@example.org")
    for other in state.players.values():
        if other.name.casefold() == name.casefold() and other.active:
            raise IllegalAction(f"there is already a player named {other.name!r} (III.1)")
    email = email.strip().lower()
    for holder, addr in state.private.emails.items():
        if addr == email and state.players.get(holder) and state.players[holder].active:
            raise IllegalAction(f"{email} is already the address of player {holder!r}")
    start_money = int(REGISTRY.params(state, "money")["start_money"])
    week = state.week if state.update == 0 else state.week + 1
    # a game with no board (layout none, Technopoly) has no square to stand on: 0
    square = lowest(state) if live_numbers(state) else 0
    player = Player(name=name, money=start_money, square=square, joined_week=week)
    if REGISTRY.params(state, "money").get("start_money_from_bank", True):
        state.admin_bank -= start_money  # XV.2: money from nowhere comes out of the bank
    state.players[name] = player
    hooks.call(state, REGISTRY).on_player_added(state, player)
    state.private.emails[name] = email
    if token_hash:
        state.private.token_hashes[name] = token_hash
    state.private.join_requests = [j for j in state.private.join_requests if j.email != email]
    return player


def remove_player(state: GameState, name: str) -> None:
    player = state.players.get(name)
    if player is None or not player.active:
        raise IllegalAction(f"there is no player named {name!r} in the game; players: "
                            f"{', '.join(sorted(n for n, p in state.players.items() if p.active)) or 'none'}")
    state.admin_bank += player.money
    player.money = 0
    hooks.call(state, REGISTRY).on_player_removed(state, player)
    player.status = "removed"


def set_token(state: GameState, name: str, token_hash: str) -> None:
    if name not in state.players:
        raise IllegalAction(f"there is no player named {name!r}")
    state.private.token_hashes[name] = token_hash
