"""Writes admin/games/technopoly/demo/maildir: the Technopoly demo's player emails for two weeks.

Run ``python scripts/demo_mail/technopoly.py``. The emails answer what the game did (the cards
each player was dealt, inventions open for responses, a trade offered), so the script plays the
demo as it goes: before each update it looks at the game as the last update left it, writes that
update's emails, and runs the update, exactly as ``nomopoly demo --game technopoly`` replays them."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = REPO / "admin" / "games" / "technopoly" / "demo"
sys.path.insert(0, str(REPO))

from admin.jobs.demo import write_demo_mail  # noqa: E402
from admin.library.interactions import InteractionsModule  # noqa: E402
from admin.games.technopoly.mechanics.objects import ACTIVATE, FUEL_CARDS, NAMES_A_FUEL, private, world  # noqa: E402
from admin.engine.model import GameState  # noqa: E402

ADDR = {"aleric": "Aleric <aleric@example.org>", "boris": "Boris B. <boris@example.net>",
        "colin": "colin@example.com"}
CUTOFFS = [f"2026-11-{d:02d}T23:59:59+00:00" for d in (4, 7, 11, 14)]
DAYS = {1: "2026-11-03", 2: "2026-11-06", 3: "2026-11-10", 4: "2026-11-13"}
FUEL = {"aleric": "Titanium", "boris": "Electricity", "colin": "Sandstone"}
MACHINE = {"aleric": "Death Ray", "boris": "Earthworm", "colin": "Phonebox"}


def hand(state: GameState, name: str) -> list[str]:
    return list(private(state).hands.get(name, []))


def plain_cards(cards: list[str]) -> list[str]:
    """Cards a demo player likes to answer with: no Fuel to nominate, nothing that stops the Object."""
    return [c for c in cards if c not in FUEL_CARDS and c not in NAMES_A_FUEL and c not in
            ("Flawed", "Mysterious", "Unstoppable", "Unpredictable")]


def emails(state: GameState, update: int) -> list[tuple[str, str, str]]:
    """(who, subject, body) for one update."""
    out: list[tuple[str, str, str]] = []
    st = world(state)
    if update == 1:
        for name in ("aleric", "boris", "colin"):
            out.append((name, "First turn", f"Hello!\n\nINVENT {FUEL[name]}\nCREATE 1 Robot\n\n-- \n{name}\n"))
        return out
    avail = {name: hand(state, name) for name in ADDR}  # each card is played once
    if update == 2:  # aleric and boris keep a card to invent a Machine with
        for name in ("aleric", "boris"):
            machine = [c for c in plain_cards(avail[name]) if c in ACTIVATE][:1]
            if machine:
                avail[name].remove(machine[0])
    for inter in InteractionsModule.of(state).open:  # answer an open invention now and then
        if inter.kind != "response":
            continue
        machine = any(c in ACTIVATE for c in inter.payload.get("cards", []))
        for name in inter.parties:
            fuel = [c for c in avail[name] if c in FUEL_CARDS and not FUEL_CARDS[c][2]]
            if machine and fuel:  # a Machine is answered with "requires Fuel" when one can
                avail[name].remove(fuel[0])
                out.append((name, "Fuel for that", f"RESPOND {inter.id} WITH {fuel[0]}\n"))
                continue
            cards = [c for c in plain_cards(avail[name]) if c not in ACTIVATE]  # a Fuel stays a Fuel
            if cards and (inter.id + len(name)) % 2 == 0:
                avail[name].remove(cards[0])
                out.append((name, "A response", f"RESPOND {inter.id} WITH {cards[0]}\n"))
    if update == 2:
        for name in ("aleric", "boris"):
            cards = plain_cards(hand(state, name))
            machine = [c for c in cards if c in ACTIVATE][:1] or ["Copier"]
            extra = [c for c in plain_cards(avail[name]) if c not in ACTIVATE][:1]
            body = f"INVENT {MACHINE[name]} WITH {', '.join(machine + extra)}\nCREATE 1 Robot\n"
            if machine == ["Copier"] and "Copier" not in cards:
                body = "CREATE 2 Robot\n"
            out.append((name, "Inventing", body))
        out.append(("colin", "A card please", "DRAW\nSTATUS\n"))
    if update == 3:
        for name in ("aleric", "boris", "colin"):
            robots = st.holdings.get(name, {}).get("Robot", 0)
            out.append((name, "Mining", f"MINE {max(1, robots - 1)} {FUEL[name]}\n"))
        out.append(("boris", "An offer", "TRADE WITH colin: GIVE MINING RIGHTS Electricity SHARED, "
                                         "PROMISE \"no attacks on your Sandstone\" FOR 1 Sandstone\n"))
    if update == 4:
        for inter in InteractionsModule.of(state).open:
            if inter.kind == "offer" and inter.parties == ["colin"]:
                out.append(("colin", "Deal", f"ACCEPT {inter.id}\n"))
        out.append(("colin", "Attack", "ATTACK boris's Electricity\nMINE 1 Sandstone\nSTATUS\n"))
        for name in ("aleric", "boris"):
            obj = st.objects.get(MACHINE[name])
            lines = []
            if obj is not None and obj.pending_fuel:
                need = sum(s.count for s in obj.pending_fuel)
                own = "Titanium" if name == "aleric" else "Electricity"
                lines.append(f"FUEL {obj.name} = {', '.join([own] * need)}")  # refused: their own discovery (V.2)
                other = "Electricity" if name == "aleric" else "Titanium"
                lines.append(f"FUEL {obj.name} = {', '.join([other] * need)}")
            if obj is not None and obj.status == "known" and not obj.has("Flawed"):
                lines.append(f"CREATE 1 {obj.name}")
            lines.append(f"MINE 1 {FUEL[name]}")
            out.append((name, "Building", "\n".join(lines) + "\n"))
    return out


def main() -> None:
    def mail_for(state: GameState, update: int) -> list[tuple[str, str, str, str]]:
        return [(f"{DAYS[update]}T{9 + i:02d}:00", ADDR[who], subject, body)
                for i, (who, subject, body) in enumerate(emails(state, update))]

    out = HERE / "maildir"
    n = write_demo_mail("technopoly", out, CUTOFFS, "Technopoly Admin <admin@example.org>", "technopoly-demo",
                        mail_for)
    print(f"wrote {n} emails to {out}")


if __name__ == "__main__":
    main()
