"""Inventing an Object (IV.2, IV.3, V.2-V.4): the inventor's Robot announces a new Object with the
cards they give it; until the next update the opponents may answer with cards of their own
(``RESPOND <n> WITH <card>``: a response window of the interactions facility); then the Object
is known with every attribute, and its inventor holds its Technology (a Machine) or Mining
Rights (a Fuel, which they have discovered). A "requires Fuel" card asks the inventor to
nominate Fuel (``FUEL <object> = <fuel>, ...``): a Fuel discovered by someone else, unless the
card was the inventor's own (V.2, V.3)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from admin.engine.errors import CommandError, IllegalAction
from admin.library.interactions import ask
from admin.games.technopoly.mechanics.objects import (
    FUEL_CARDS, WORLD, FuelSlot, ObjectType, TechnoState, card_text, find_object, fuels,
    machine_kind, parse_card, play_cards, private, take_cards, world,
)
from admin.games.technopoly.mechanics.tasks import Turn, use_robots

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.interactions import Interaction


def check_fuel_named(st: TechnoState, card: str, fuel: str | None) -> str | None:
    """The Fuel a Synthetic, Synthesiser or Fuel: 1A*/1C* card names must be a known Fuel."""
    if fuel is None or card == "Polluting":  # Polluting names its Waste, not a Fuel
        return None
    obj = find_object(st, fuel)
    if obj.kind != "fuel":
        raise IllegalAction(f"{card} names a Fuel; {obj.name} is a Machine")
    return obj.name


def respondable(cards: list[tuple[str, str | None]]) -> int:
    """How many response cards each opponent may play: one for each card the inventor played,
    except a card played right after Researched (VIII.7); at least one."""
    n = len(cards) - sum(1 for i, (c, _) in enumerate(cards[:-1]) if c == "Researched")
    return max(n, 1 if not cards else 0)


def invent(ctx: UpdateContext, turn: Turn, name: str, cards: tuple[tuple[str, str | None], ...]) -> str:
    st, priv = world(ctx.state), private(ctx.state)
    player = turn.player
    if any(o.name.lower() == name.lower() for o in st.objects.values()):
        raise IllegalAction(f"an object called {name!r} exists already; invent something new")
    for card, fuel in cards:
        check_fuel_named(st, card, fuel)
    take_cards(priv, st, player, [c for c, _ in cards], check=True)
    use_robots(turn, 1, "inventing")
    play_cards(priv, st, player, [c for c, _ in cards])
    obj = ObjectType(name, "fuel", inventor=player, round=st.round + 1, status="announced")
    st.objects[name] = obj
    for card, fuel in cards:
        add_attribute(st, obj, card, fuel, player)
    others = [p for p in st.seats if p != player and ctx.state.players[p].active]
    played = ", ".join(card_text(c, f) for c, f in cards) or "no cards"
    k = respondable(list(cards))
    if not others or k == 0:
        finish(ctx, obj)
        return f"{player} invented {name} with {played}."
    inter = ask(ctx, kind="response", module=WORLD, parties=others, silence="none", proposer=player,
                payload={"object": name, "cards": [card_text(c, f) for c, f in cards], "responses": k})
    return (f"{player} announced an invention, {name}, with {played}: {', '.join(others)} may answer "
            f"RESPOND {inter.id} WITH <card> (up to {k} each) before the next update.")


def add_attribute(st: TechnoState, obj: ObjectType, card: str, fuel: str | None, by: str) -> None:
    obj.attributes.append(card)
    if card == "Synthetic":
        obj.synthetic_of = fuel
    elif card == "Synthesiser":
        obj.synthesises = fuel
    elif card == "Polluting" and fuel and by == obj.inventor:  # the inventor may name the Waste (X.22)
        obj.waste = fuel
    elif card in FUEL_CARDS:
        when, count, chosen = FUEL_CARDS[card]
        if chosen:  # "whoever plays this card may choose the Fuel" (X.7, X.8)
            {"A": obj.fuel_activate, "C": obj.fuel_create}[when].append(fuel or "")
        else:
            obj.pending_fuel.append(FuelSlot(when, count, own=by == obj.inventor, by=by))
    obj.kind = machine_kind(obj.attributes)


def parse_response(rest: str, line: object) -> tuple[int, tuple[tuple[str, str | None], ...]]:
    m = re.fullmatch(r"#?(\d{1,9})\s+with\s+(.+)", rest.strip(), re.IGNORECASE)
    if not m:
        raise CommandError("write RESPOND <number> WITH <card>, like RESPOND 4 WITH Fuel: 1A")
    cards = tuple(parse_card(c) for c in re.split(r"\s*,\s*", m.group(2)) if c.strip())
    return int(m.group(1)), cards


def check_response(ctx: UpdateContext, inter: Interaction, player: str, cards: Sequence[Sequence[Any]]) -> list[str]:
    st, priv = world(ctx.state), private(ctx.state)
    if inter.kind != "response" or inter.module != WORLD:
        raise IllegalAction(f"#{inter.id} is not an invention taking responses")
    k = int(inter.payload["responses"])
    if len(cards) > k:
        raise IllegalAction(f"an opponent may play up to {k} card(s) on {inter.payload['object']} (VIII.7)")
    for card, fuel in cards:
        check_fuel_named(st, card, fuel)
    take_cards(priv, st, player, [c for c, _ in cards], check=True)
    return [card_text(c, f) for c, f in cards]


def resolve(ctx: UpdateContext, inter: Interaction, answers: dict[str, Any]) -> str:
    """The window closes: each opponent's cards (in seat order) go on the Object, if still held."""
    st, priv = world(ctx.state), private(ctx.state)
    obj = st.objects.get(str(inter.payload["object"]))
    if obj is None:
        return "the invention is gone"
    played: list[str] = []
    for party in [p for p in st.seats if p in answers]:
        value = answers[party]
        if not isinstance(value, list):
            continue
        cards = [parse_card(str(c)) for c in value]
        try:
            play_cards(priv, st, party, [c for c, _ in cards])
        except IllegalAction as exc:
            ctx.emit("techno", f"{party}'s response to {obj.name} was void: {party} no longer holds the card.",
                     player=party, rule="IV.3", private=f"Your response to {obj.name} was void: {exc}.")
            continue
        for card, fuel in cards:
            add_attribute(st, obj, card, fuel, party)
            played.append(f"{party}: {card_text(card, fuel)}")
    finish(ctx, obj)
    return f"{obj.name} is invented" + (f" with responses ({'; '.join(played)})" if played else " (no responses)")


def finish(ctx: UpdateContext, obj: ObjectType) -> None:
    obj.status = "known"
    obj.rights = [obj.inventor] if obj.inventor else []
    what = "Technology" if obj.kind == "machine" else "Mining Rights (a Fuel discovered)"
    ctx.emit("techno", f"{obj.name} is invented by {obj.inventor}: a {obj.kind.title()} with "
                       f"{', '.join(obj.attributes) or 'no attributes'}; {obj.inventor} holds its {what}.",
             player=obj.inventor, rule="IV.2", data={"object": obj.name, "attributes": list(obj.attributes)})
    if obj.pending_fuel:
        n = sum(s.count for s in obj.pending_fuel)
        ctx.emit("techno", f"{obj.name} requires {n} Fuel: {obj.inventor} nominates it with FUEL {obj.name} = "
                           "<fuel>, ... (V.2).", player=obj.inventor, rule="V.2")


def eligible(st: TechnoState, obj: ObjectType, slot: FuelSlot) -> list[str]:
    """The Fuels the inventor may nominate for ``slot`` (V.2, V.3): discovered, not Inert, not
    this object; for an opponent's card, not discovered by the inventor."""
    return [f.name for f in fuels(st) if f.name != obj.name and not f.has("Inert") and f.kind == "fuel"
            and (slot.own or f.inventor != obj.inventor)]


def nominate(ctx: UpdateContext, player: str, name: str, chosen: list[str]) -> str:
    """``FUEL <object> = <fuel>, ...``: every pending "requires Fuel" card's Fuel at once, in the
    order the cards were played; copies of one Fuel or a mix (V.4)."""
    st = world(ctx.state)
    obj = find_object(st, name)
    if obj.inventor != player:
        raise IllegalAction(f"only {obj.name}'s inventor, {obj.inventor}, nominates its Fuel")
    if not obj.pending_fuel:
        raise IllegalAction(f"{obj.name} has no Fuel left to nominate")
    need = sum(s.count for s in obj.pending_fuel)
    if len(chosen) != need:
        raise IllegalAction(f"{obj.name} needs {need} Fuel nominated ("
                            + ", ".join(f"{s.count} for {s.by}'s {s.when} card" for s in obj.pending_fuel)
                            + f"); you named {len(chosen)}")
    names = [find_object(st, c).name for c in chosen]
    i = 0
    for slot in obj.pending_fuel:
        ok = eligible(st, obj, slot)
        if not ok:
            raise IllegalAction(f"no Fuel discovered by another player exists yet for {slot.by}'s card: "
                                f"{obj.name} waits until one is (V.2)")
        for fuel in names[i:i + slot.count]:
            if fuel not in ok:
                why = (" (discovered by you: an opponent's \"requires Fuel\" card takes a Fuel discovered by "
                       "someone else, V.2)" if st.objects[fuel].inventor == player and not slot.own else "")
                raise IllegalAction(f"{fuel} may not fuel {obj.name}{why}; valid: {', '.join(ok)}")
        i += slot.count
    i = 0
    for slot in obj.pending_fuel:
        target = {"A": obj.fuel_activate, "C": obj.fuel_create, "P": obj.fuel_turn}[slot.when]
        target.extend(names[i:i + slot.count])
        i += slot.count
    obj.pending_fuel = []
    return f"{player} nominated the Fuel of {obj.name}: {', '.join(names)} (V.2)."


def replace_mysterious(ctx: UpdateContext, turn: Turn, name: str, card: tuple[str, str | None]) -> str:
    """IX.2: skip the turn to swap an object's Mysterious attribute for a card from the hand."""
    st, priv = world(ctx.state), private(ctx.state)
    obj = find_object(st, name)
    if not obj.has("Mysterious"):
        raise IllegalAction(f"{obj.name} is not Mysterious")
    check_fuel_named(st, *card)
    play_cards(priv, st, turn.player, [card[0]])
    obj.attributes.remove("Mysterious")
    add_attribute(st, obj, card[0], card[1], turn.player)
    return f"{turn.player} skipped the turn and replaced {obj.name}'s Mysterious attribute with {card_text(*card)} (IX.2)."

