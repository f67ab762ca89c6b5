"""The benchmark players' use of Nomopoly II's later sections (XVI-XXXV), under ``nomopoly2-full``.

Each player's email gets, after their core commands, what a real player in their situation would
send (from the state before the update, their own private part included: their hand, their bank
balance, their bingo cards):

- answers to the questions put to them: ACCEPT or DECLINE a consent or a trade offer, BID in an
  auction, BID GOVERNOR in the sealed bidding of an election week, VOTE GOVERNOR for a candidate
  at the election, HIT or STAND in an open Blackjack hand, HOLD in a Poker hand;
- on their squares: CREATE a block (residential, industrial, commercial or government) from free
  squares they own (with other owners' squares, who are asked to ACCEPT), BUILD a building their
  block allows on the square of it with the fewest buildings, FUEL PRICE at their Gas Station;
- where they stand: on the Bank (30) DEPOSIT, WITHDRAW MONEY, TAKE CREDIT CARD, MORTGAGE or
  UNMORTGAGE; at an ATM, ATM DEPOSIT; on a Casino, PLAY BLACKJACK, POKER or ROULETTE or BUY an
  item; on the House of Cards (42), EXCHANGE cards of their hand that make an item, or BUY
  SHOVEL; on the Zoo after landing there, SPAWN a creature; at a Missile Silo of theirs, BUY
  MISSILE and, now and then, FIRE it;
- anywhere: BUY TRANSPORT, DRIVE TO (by car), LOTTERY TICKET with a card of 2-10, PAY CREDIT,
  USE the House of Cards and Casino items they hold, BINGO with a card whose marks make a pattern,
  a TRADE offer to another player, and, the Governor, GOVERN BUILD on a government square.

Everything is drawn from the ``rng`` the caller passes, in a fixed order, so the same state gives
the same lines. The situation is indexed once an update (:func:`situation`), not once a player.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from admin.library.cards import hand
from admin.games.nomopoly2.mechanics import shared
from admin.games.nomopoly2.mechanics.blocks.mechanic import centre, possible_groups
from admin.games.nomopoly2.mechanics.buildings.works import why_not
from admin.games.nomopoly2.mechanics.transport.mechanic import die_faces
from admin.engine.model import GameState

#: the buildings a player builds, most wanted first (each block kind takes some of them)
WANTED = ("house", "atm", "casino", "gas-station", "hospital", "springboard", "mall", "store", "factory",
          "missile-silo", "anti-missile-battery", "legislative-building", "corporate-headquarters")
METHODS = ("clogs", "pogo-stick", "krazy-carpet", "helicopter", "car", "springy-shoes")
CREATURES = ("GORILLA", "ELEPHANT", "BISON", "SKUNK", "JELLY DOG")
#: House of Cards items (XXIV.2) a player trades cards for, and how they use one they hold
USES = {"jetpack": lambda sq, n: "USE JETPACK", "medicine": lambda sq, n: "USE MEDICINE",
        "time bomb": lambda sq, n: "PLACE TIME BOMB", "glue": lambda sq, n: "PLACE GLUE",
        "shovel": lambda sq, n: "USE SHOVEL", "warp bubble": lambda sq, n: f"USE WARP BUBBLE TO {n}",
        "pokeball": lambda sq, n: f"USE POKEBALL TO {n}", "card remover": lambda sq, n: f"USE CARD REMOVER ON {sq}"}


@dataclass
class Situation:
    """What the players' choices read of the state, indexed once an update."""

    squares: int
    bank_square: int
    hoc_square: int
    #: square -> its block (kind, id, squares); square -> buildings; square -> owner
    block: dict[int, shared.Block] = field(default_factory=dict)
    buildings: dict[int, list[str]] = field(default_factory=dict)
    owner: dict[int, str] = field(default_factory=dict)
    #: player -> the free groups of each kind that hold a square of theirs
    groups: dict[str, list[tuple[str, list[int]]]] = field(default_factory=dict)
    #: player -> open questions waiting for their answer (kind, id, module, payload)
    questions: dict[str, list[tuple[str, int, str, dict]]] = field(default_factory=dict)
    casinos: set[int] = field(default_factory=set)
    atms: set[int] = field(default_factory=set)
    gas: set[int] = field(default_factory=set)
    mortgaged: set[int] = field(default_factory=set)
    governor: str | None = None


def situation(state: GameState, owned: dict[str, list[int]]) -> Situation:
    p = {m: state.params(m) for m in ("bank", "house-of-cards")}
    sit = Situation(len(state.squares), int(p["bank"].get("square", 30)), int(p["house-of-cards"].get("square", 42)),
                    governor=shared.governor(state))
    for name, numbers in owned.items():
        for n in numbers:
            sit.owner[n] = name
    for b in shared.blocks(state):
        for n in b.squares:
            sit.block[n] = b
    bs = state.mods.get("buildings")
    if bs is not None:
        sit.buildings = {n: list(names) for n, names in bs.on.items()}
    for n, names in sit.buildings.items():
        sit.casinos.update([n] if "casino" in names else [])
        sit.atms.update([n] if "atm" in names else [])
        sit.gas.update([n] if "gas-station" in names else [])
    bank = state.mods.get("bank")
    sit.mortgaged = set(getattr(bank, "mortgages", {}) or {})
    for kind in ("residential", "industrial", "commercial", "government"):
        for group in possible_groups(state, kind):
            for who in sorted({sit.owner[n] for n in group if n in sit.owner}):
                sit.groups.setdefault(who, []).append((kind, group))
    inter = state.mods.get("interactions")
    sealed = getattr(state.private.mods.get("interactions"), "answers", {}) or {}
    for q in getattr(inter, "open", []):
        for who in q.waiting_for(sealed.get(q.id)):
            sit.questions.setdefault(who, []).append((q.kind, q.id, q.module, q.payload))
    return sit


def commands(rng: random.Random, state: GameState, sit: Situation, name: str, owned: list[int],
             names: list[str]) -> list[str]:
    """The later sections' lines of ``name``'s email."""
    player = state.players[name]
    money, square = player.money, player.square
    lines = _answers(rng, sit, name, money)
    lines += _estate(rng, state, sit, name, owned, money)
    lines += _where(rng, state, sit, name, square, owned, money)
    lines += _anywhere(rng, state, sit, name, square, owned, money, names)
    return lines


def _answers(rng: random.Random, sit: Situation, name: str, money: int) -> list[str]:
    lines: list[str] = []
    for kind, number, module, payload in sit.questions.get(name, []):
        if kind == "election":
            if rng.random() < 0.8 and payload.get("candidates"):
                lines.append(f"VOTE GOVERNOR {rng.choice(payload['candidates'])}")
        elif kind == "auction" and module == "governor":
            if rng.random() < 0.04 and money > 3000:
                lines.append(f"BID GOVERNOR {rng.randint(1, 20) * 50}")
        elif kind == "auction":
            if rng.random() < 0.5:
                lines.append(f"BID {number} {rng.randint(1, 40) * 10}")
        elif kind == "game" and module == "casinos":
            if payload.get("game") == "poker":
                lines.append(rng.choice(("HOLD ALL", "HOLD 1 2", "HOLD NONE", "HOLD 1 3 5")))
            else:
                lines.append(rng.choice(("HIT", "STAND", "STAND")))
        elif kind == "offer" and module == "zoo":  # the Bison landed on them: ride it, or not
            if rng.random() < 0.5:
                lines.append(f"RIDE BISON TO {rng.randint(1, sit.squares)}")
        elif kind in ("consent", "offer"):
            if rng.random() < 0.85:
                lines.append(f"{'ACCEPT' if rng.random() < 0.75 else 'DECLINE'} {number}")
    return lines


def _estate(rng: random.Random, state: GameState, sit: Situation, name: str, owned: list[int],
            money: int) -> list[str]:
    """Blocks and buildings on the player's squares."""
    lines: list[str] = []
    groups = sit.groups.get(name, [])
    if groups and money > 2500 and rng.random() < 0.25:
        bigger = [g for g in groups if g[0] != "government"]  # a government block now and then
        kind, group = rng.choice(bigger if bigger and rng.random() < 0.85 else groups)
        lines.append(f"CREATE {kind.upper()} BLOCK {' '.join(map(str, group))}")
    # a block's squares get their buildings in step (XXII.1): build on its square with the fewest
    mine = sorted({min(sit.block[n].squares, key=lambda k: (len(sit.buildings.get(k, ())), k)) for n in owned
                   if n in sit.block and sit.block[n].kind != "government"})
    mine = [n for n in mine if sit.owner.get(n) == name]
    if mine and money > 1500 and rng.random() < 0.6:
        n = rng.choice(mine)
        block = sit.block[n]
        for building in rng.sample(WANTED, len(WANTED)):
            if building == "missile-silo" and centre(block) != n:
                continue
            if why_not(state, n, building) is None:
                lines.append(f"BUILD {building.replace('-', ' ').upper()} ON {n}")
                break
    stations = [n for n in owned if n in sit.gas and sit.block.get(n) and sit.block[n].kind != "government"]
    if stations and rng.random() < 0.2:
        lines.append(f"FUEL PRICE {rng.choice(stations)} {rng.randint(30, 90)}")
    return lines


def _where(rng: random.Random, state: GameState, sit: Situation, name: str, square: int, owned: list[int],
           money: int) -> list[str]:
    """What the square the player stands on lets them do."""
    lines: list[str] = []
    balance = state.private.mods["bank"].balances.get(name, 0) if "bank" in state.private.mods else 0
    credit = state.mods.get("credit-cards")
    if square == sit.bank_square:
        roll = rng.random()
        if credit is not None and name not in credit.holders and roll < 0.3:
            lines.append("TAKE CREDIT CARD")
        elif balance and roll < 0.45:
            lines.append(f"WITHDRAW MONEY {max(1, balance // 2)}")
        elif owned and roll < 0.55:
            n = rng.choice(owned)
            lines.append(f"{'UNMORTGAGE' if n in sit.mortgaged else 'MORTGAGE'} {n}")
        elif money > 1000:
            lines.append(f"DEPOSIT {rng.randint(1, 10) * money // 40}")
    elif square in sit.atms and rng.random() < 0.5:
        lines.append(f"ATM DEPOSIT {rng.randint(1, 10) * 50}" if money > 2000 or not balance
                     else f"ATM WITHDRAW {max(1, balance // 3)}")
    if square in sit.casinos:
        lines.append(rng.choice(("PLAY BLACKJACK 100", f"PLAY BLACKJACK {rng.randint(1, 50) * 10}",
                                 "PLAY POKER 20", "PLAY ROULETTE 20 ON RED", f"PLAY ROULETTE 10 ON {rng.randint(0, 36)}",
                                 "BUY FLOWER", "BUY SALAD", "BUY WEIGHTED DIE", "BUY GREASE")))
    if square == sit.hoc_square:
        lines += _exchange(rng, hand(state, name), money)
    if name in getattr(state.mods.get("zoo"), "spawn_rights", {}):  # landed on the Zoo
        out = {c.kind for c in state.mods["zoo"].creatures}
        kinds = [k for k in CREATURES if k.lower().replace(" ", "-") not in out] or list(CREATURES)
        lines.append(f"SPAWN {rng.choice(kinds)}")
    missiles = state.mods.get("missiles")
    for silo in owned:
        held = getattr(missiles, "held", {}).get(silo) if missiles is not None else None
        if "missile-silo" in sit.buildings.get(silo, ()) and money > 3000 and rng.random() < 0.3:
            lines.append(f"BUY MISSILE CRUISE AT {silo}")
        if held and rng.random() < 0.15:
            target = (silo + rng.choice((-3, -2, 2, 3)) - 1) % sit.squares + 1
            lines.append(f"FIRE {held[0].upper()} FROM {silo} AT {target}")
    return lines


def _exchange(rng: random.Random, cards: list[str], money: int) -> list[str]:
    """On the House of Cards: trade a combination the hand holds (a pair, two of a suit, a spade)."""
    ranks = Counter(c[:-1] for c in cards)
    pair = next((r for r, k in sorted(ranks.items()) if k >= 2), None)
    if pair is not None and rng.random() < 0.7:
        two = [c for c in cards if c[:-1] == pair][:2]
        return [f"EXCHANGE {' '.join(two)} FOR {rng.choice(('MEDICINE', 'BINGO CARD'))}"]
    spades = [c for c in cards if c.endswith("S")]
    if spades and rng.random() < 0.6:
        return [f"EXCHANGE {spades[0]} FOR JETPACK"]
    suits = Counter(c[-1] for c in cards)
    suit = next((s for s, k in sorted(suits.items()) if k >= 2), None)
    if suit is not None and rng.random() < 0.5:
        return [f"EXCHANGE {' '.join([c for c in cards if c[-1] == suit][:2])} FOR CARD REMOVER"]
    return ["BUY SHOVEL"] if money > 500 else []


def _anywhere(rng: random.Random, state: GameState, sit: Situation, name: str, square: int, owned: list[int],
              money: int, names: list[str]) -> list[str]:
    lines: list[str] = []
    method = shared.transport_of(state, name)
    if method == "foot" and money > 3000 and rng.random() < 0.06:
        lines.append(f"BUY TRANSPORT {rng.choice(METHODS).replace('-', ' ').upper()}")
    elif method == "car" and rng.random() < 0.3:
        fuel = state.mods["transport"].fuel.get(name, 0)
        if square in sit.gas and fuel < 300:
            lines.append("BUY FUEL FULL")
        elif fuel >= 20:
            lines.append(f"DRIVE TO {(square + rng.randint(1, 2) - 1) % sit.squares + 1}")
    cards = hand(state, name)
    tickets = [c for c in cards if c[:-1].isdigit() and 2 <= int(c[:-1]) <= 10]
    if tickets and rng.random() < 0.2:
        faces = [c for c in cards if c[:-1] in ("J", "Q", "K", "A")]
        bonus = f" BONUS {faces[0]}" if faces and rng.random() < 0.5 else ""
        lines.append(f"LOTTERY TICKET {rng.choice(tickets)}{bonus}")
    account = getattr(state.private.mods.get("credit-cards"), "accounts", {}).get(name)
    if account is not None and account.balance > 0 and money > 500 and rng.random() < 0.5:
        lines.append(f"PAY CREDIT {min(account.balance, max(50, account.due))}")
    hoc = state.mods.get("house-of-cards")
    held = hoc.items.items(name) if hoc is not None else {}
    for item, use in sorted(USES.items()):
        if held.get(item) and (owned or item != "card remover") and rng.random() < 0.5:
            lines.append(use(owned[0] if owned else square, rng.randint(1, sit.squares)))
            break
    casino = state.mods.get("casinos")
    items = casino.items.items(name) if casino is not None else {}
    if items.get("salad") and rng.random() < 0.6:
        lines.append("EAT SALAD")
    if items.get("flower") and rng.random() < 0.5:
        lines.append(f"GIVE FLOWER TO {rng.choice(names)}")
    if items.get("weighted-die") and rng.random() < 0.5:
        faces = die_faces(state, name)
        if faces:
            lines.append(f"USE WEIGHTED DIE {rng.choice(faces)}")
    if items.get("grease") and square in owned:
        lines.append("PLACE GREASE")
    lines += _bingo(rng, state, name)
    if owned and rng.random() < 0.03:
        other = rng.choice(names)
        theirs = [n for n, who in sit.owner.items() if who == other]
        if other != name and theirs:
            lines.append(f"TRADE WITH {other}: GIVE ${rng.randint(1, 20) * 50} FOR square {min(theirs)}")
    if sit.governor == name and rng.random() < 0.5:
        gov = sorted(n for n, b in sit.block.items() if b.kind == "government")
        if gov:
            lines.append(f"GOVERN BUILD {rng.choice(('HOSPITAL', 'HOUSE', 'GAS STATION', 'ATM'))} ON {rng.choice(gov)}")
    return lines


def _bingo(rng: random.Random, state: GameState, name: str) -> list[str]:
    from admin.games.nomopoly2.mechanics.bingo import makes

    private = state.private.mods.get("bingo")
    for card in getattr(private, "cards", {}).get(name, []):
        for pattern in ("full", "perimeter", "diagonal", "corners", "line", "centre"):
            if makes(card, pattern) and rng.random() < 0.9:
                return [f"BINGO {card.number} {pattern.upper()}"]
    return []
