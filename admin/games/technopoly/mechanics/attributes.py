"""Technopoly's Attribute cards (admin/games/technopoly): every card of the deck and its kind, the
ones with an Activate trigger or a Fuel, and how a player writes one (VII.1, VIII-X). A leaf of the
package, as :mod:`objects` is: it imports none of the others."""

from __future__ import annotations

import re

from admin.engine.decks import DeckSpec
from admin.engine.errors import CommandError

#: card -> (kind, rule id): every Attribute card of the deck, one copy each (VII.1)
POSITIVE = ["Automatic", "Ecological", "Invulnerable", "Plentiful", "Protective", "Rapid-Fire",
            "Researched", "Retaliatory", "Self-Replicating", "Synthetic", "Analyser", "Attacker",
            "Convertor", "Copier", "Destroyer", "Liberator", "Manipulator", "Miner", "Monitor",
            "Researcher", "Scavenger", "Synthesiser", "Transmitter"]
NEUTRAL = ["Fixed", "Mysterious"]
NEGATIVE = ["Fuel: 1A", "Fuel: 2A", "Fuel: 3A", "Fuel: 1C", "Fuel: 2C", "Fuel: 3C", "Fuel: 1A*",
            "Fuel: 1C*", "Fuel: 1P", "Elaborate", "Evaporating", "Flawed", "Fragile", "Hazardous",
            "High-Maintenance", "Illegal", "Inert", "Limited", "Noisy", "One-Shot", "Pollutant",
            "Polluting", "Slow", "Unique", "Unpredictable", "Unstable", "Unstoppable", "Worthless"]
CARDS: dict[str, tuple[str, str]] = {
    **{c: ("positive", f"VIII.{i}") for i, c in enumerate(POSITIVE, 1)},
    **{c: ("neutral", f"IX.{i}") for i, c in enumerate(NEUTRAL, 1)},
    **{c: ("negative", f"X.{i}") for i, c in enumerate(NEGATIVE, 1)},
}
#: the attributes with an "Activate:" trigger: an Object with one is a Machine (II.3)
ACTIVATE = {"Analyser", "Attacker", "Convertor", "Copier", "Destroyer", "Liberator", "Manipulator",
            "Miner", "Monitor", "Researcher", "Scavenger", "Synthesiser", "Transmitter"}
#: cards played "OF" a Fuel: the Fuel is named with the card
NAMES_A_FUEL = {"Synthetic", "Synthesiser", "Fuel: 1A*", "Fuel: 1C*"}
#: "requires Fuel" cards: (when: A activation, C creation, P every turn, count, chosen by the player)
FUEL_CARDS: dict[str, tuple[str, int, bool]] = {
    "Fuel: 1A": ("A", 1, False), "Fuel: 2A": ("A", 2, False), "Fuel: 3A": ("A", 3, False),
    "Fuel: 1C": ("C", 1, False), "Fuel: 2C": ("C", 2, False), "Fuel: 3C": ("C", 3, False),
    "Fuel: 1A*": ("A", 1, True), "Fuel: 1C*": ("C", 1, True), "Fuel: 1P": ("P", 1, False),
}
ROBOT_ATTRIBUTES = ["Automatic", "Manipulator", "Worthless"]  # II.4
_KEY = {re.sub(r"[^a-z0-9*]", "", c.lower()): c for c in CARDS}
_KEY.update({"analyzer": "Analyser", "convertor": "Convertor", "converter": "Convertor",
             "synthesizer": "Synthesiser", "rapidfire": "Rapid-Fire"})


def card_name(text: str) -> str:
    """A card as written (``fuel 1a``, ``FUEL: 1A*``, ``rapid fire``) -> its name; an error lists them."""
    key = re.sub(r"[^a-z0-9*]", "", text.lower())
    if key not in _KEY:
        raise CommandError(f"{text.strip()!r} is not an Attribute card; the cards: {', '.join(CARDS)}")
    return _KEY[key]


def parse_card(text: str) -> tuple[str, str | None]:
    """``Synthetic OF Thistle`` -> ("Synthetic", "Thistle"); a card that names a Fuel needs one."""
    m = re.fullmatch(r"(.+?)\s+of\s+(.+)", text.strip(), re.IGNORECASE)
    card = card_name(m.group(1) if m else text)
    fuel = m.group(2).strip() if m else None
    if card in NAMES_A_FUEL and not fuel:
        raise CommandError(f"{card} names the Fuel it is played with: write {card} OF <fuel>")
    if fuel and card == "Polluting":  # X.22: the Waste's name, if its inventor gives one
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 '\-]{0,39}", fuel):
            raise CommandError(f"{fuel!r} is not a name for Waste: 1 to 40 letters, digits, spaces, ' or -")
        return card, fuel
    if fuel and card not in NAMES_A_FUEL:
        raise CommandError(f"{card} names no Fuel; only {', '.join(sorted(NAMES_A_FUEL))} are played OF a Fuel "
                           "(and Polluting OF the name of its Waste)")
    return card, fuel


def card_text(card: str, fuel: str | None) -> str:
    return f"{card} of {fuel}" if fuel else card


def deck_spec() -> DeckSpec:
    """The Attribute deck: a pile of one copy of each card, shuffled face down (VII.1, XII.1)."""
    return DeckSpec("attributes", tuple(CARDS), policy="pile", hidden=True)
