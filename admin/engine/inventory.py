"""Items and inventories (Nomopoly II V: "items are objects players can possess"), and teams.

An :class:`Inventory` counts each holder's items by kind: a donut, a paint gun, a lottery ticket.
A mechanic that has items keeps an inventory in its own state. :class:`Teams` is who belongs to
which team (the Teams variant): a player is in one team at most."""

from __future__ import annotations

from dataclasses import dataclass, field

from admin.engine.errors import IllegalAction


@dataclass
class Inventory:
    #: holder -> item -> how many
    held: dict[str, dict[str, int]] = field(default_factory=dict)

    def count(self, holder: str, item: str) -> int:
        return self.held.get(holder, {}).get(item, 0)

    def items(self, holder: str) -> dict[str, int]:
        return dict(sorted(self.held.get(holder, {}).items()))

    def give(self, holder: str, item: str, n: int = 1) -> None:
        if n < 1:
            raise ValueError(f"give at least one {item}, not {n}")
        mine = self.held.setdefault(holder, {})
        mine[item] = mine.get(item, 0) + n

    def take(self, holder: str, item: str, n: int = 1) -> None:
        have = self.count(holder, item)
        if have < n:
            listed = ", ".join(f"{k} x{v}" for k, v in self.items(holder).items()) or "nothing"
            raise IllegalAction(f"{holder} has {have} {item}(s), not {n}; {holder} holds {listed}")
        mine = self.held[holder]
        mine[item] = have - n
        if not mine[item]:
            del mine[item]
        if not mine:
            del self.held[holder]

    def transfer(self, giver: str, receiver: str, item: str, n: int = 1) -> None:
        self.take(giver, item, n)
        self.give(receiver, item, n)

    def clear(self, holder: str) -> None:
        self.held.pop(holder, None)


@dataclass
class Teams:
    #: team -> its members, in the order they joined
    members: dict[str, list[str]] = field(default_factory=dict)

    def team_of(self, player: str) -> str | None:
        return next((t for t, ms in self.members.items() if player in ms), None)

    def join(self, team: str, player: str) -> None:
        current = self.team_of(player)
        if current == team:
            raise IllegalAction(f"{player} is in team {team} already")
        if current is not None:
            raise IllegalAction(f"{player} is in team {current}; leave it first (a player is in one team at most)")
        self.members.setdefault(team, []).append(player)

    def leave(self, player: str) -> str:
        team = self.team_of(player)
        if team is None:
            raise IllegalAction(f"{player} is in no team")
        self.members[team].remove(player)
        if not self.members[team]:
            del self.members[team]
        return team

    def mates(self, player: str) -> list[str]:
        team = self.team_of(player)
        return [m for m in self.members.get(team, []) if m != player] if team else []
