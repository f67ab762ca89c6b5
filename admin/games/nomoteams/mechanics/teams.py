"""II.3-II.6: the four Teams and the Freemasons, Best Friends.

A new player joins one of the geographical Teams with the fewest players, drawn with the dice of
the first update after they join (the Admin adds players between updates, and the engine draws
only from an update's dice). A player may declare herself a Freemason at any time, leaving her
Team. Two players who each name the other in the same week become Best Friends; either may end
it, and neither may take a new Best Friend for two weeks after."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Sequence, TypeVar

from admin.engine.declare import command, handled
from admin.engine.inventory import Teams
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, Panel, Table
from admin.engine.errors import CommandError, IllegalAction
from admin.games.nomoteams.mechanics.shared import FREEMASON, TEAMS, live_player, squares_of

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import GameState, Player


@dataclass
class FriendRequest:
    player: str
    friend: str
    week: int


@dataclass
class TeamsState:
    teams: Teams = field(default_factory=Teams)
    freemasons: list[str] = field(default_factory=list)
    #: players whose Team is drawn in the next update (II.3), in the order they joined
    pending: list[str] = field(default_factory=list)
    #: each Best Friend's friend (both ways)
    best_friends: dict[str, str] = field(default_factory=dict)
    #: BEST FRIEND declarations not yet answered
    requests: list[FriendRequest] = field(default_factory=list)
    #: the week each player's last friendship ended (II.4's two weeks)
    ended: dict[str, int] = field(default_factory=dict)
    #: the Teams the Admin was told are empty (II.5), so it is said once
    reported_empty: list[str] = field(default_factory=list)


_C = TypeVar("_C")


def _no_args(usage: str, make: Callable[[], _C]) -> Callable[[str, object], _C]:
    def parse(rest: str, line: object) -> _C:
        if rest.strip():
            raise CommandError(f"{usage} takes nothing after it; found {rest.strip()!r}.")
        return make()
    return parse


def _parse_friend(rest: str, line: object) -> BestFriend:
    words = rest.split()
    if len(words) != 1:
        raise CommandError(f"BEST FRIEND needs one player's name, like BEST FRIEND bob; found {rest.strip()!r}.")
    return BestFriend(words[0])


@command("DECLARE FREEMASON", keyword="DECLARE FREEMASON",
         parse=_no_args("DECLARE FREEMASON", lambda: DeclareFreemason()), listing=110,
         summary="leave your Team and become a Freemason", example="DECLARE FREEMASON", rules=("II.6",))
class DeclareFreemason:
    """``DECLARE FREEMASON`` (II.6)."""


@command("BEST FRIEND <player>", keyword="BEST FRIEND", parse=_parse_friend, listing=111,
         summary="become Best Friends with a player who names you the same week", example="BEST FRIEND bob",
         rules=("II.4",))
class BestFriend:
    """``BEST FRIEND <player>`` (II.4)."""

    friend: str
    cmd: ClassVar[str] = "best-friend"  # named here too: _answered reads BestFriend.cmd (typed)


@command("END FRIENDSHIP", keyword="END FRIENDSHIP", parse=_no_args("END FRIENDSHIP", lambda: EndFriendship()),
         listing=112, summary="stop being Best Friends", example="END FRIENDSHIP", rules=("II.4",))
class EndFriendship:
    """``END FRIENDSHIP`` (II.4)."""


class TeamsModule(Mechanic[TeamsState, None]):
    name = "teams"
    rules = ("II.3", "II.4", "II.5", "II.6")
    stated = {"II.4": {"friendship_gap_weeks": ("until {} weeks after her last",)}}
    defaults = {"friendship_gap_weeks": 2}
    minimums = {"friendship_gap_weeks": 0}
    summary = "The North, South, East and West Teams, the Freemasons, and Best Friends."
    State = TeamsState

    def commands(self) -> Sequence[CommandSpec]:
        return handled((DeclareFreemason, declare_freemason), (BestFriend, best_friend),
                       (EndFriendship, end_friendship))

    def on_player_added(self, state: GameState, player: Player) -> None:
        ts = self.of(state)
        if ts.teams.team_of(player.name) is None and player.name not in ts.freemasons \
                and player.name not in ts.pending:
            ts.pending.append(player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ts = self.of(state)
        if ts.teams.team_of(player.name):
            ts.teams.leave(player.name)
        ts.freemasons = [n for n in ts.freemasons if n != player.name]
        ts.pending = [n for n in ts.pending if n != player.name]
        friend = ts.best_friends.pop(player.name, None)
        if friend:
            ts.best_friends.pop(friend, None)
        ts.requests = [r for r in ts.requests if player.name not in (r.player, r.friend)]

    def on_update_start(self, ctx: UpdateContext) -> None:
        draw_teams(ctx)

    def on_update_end(self, ctx: UpdateContext) -> None:
        ts = self.of(ctx.state)
        ts.requests = [r for r in ts.requests if r.week >= ctx.state.week]  # "the same week"
        # with fewer players than Teams some must be empty: II.5 is read as applying once there
        # are enough players to fill them (a standing ruling), and the Admin rewrites the rules
        if not ctx.slot.week_end or len(ctx.state.active_players()) < len(TEAMS) or ts.pending:
            return
        empty = [t for t in TEAMS if not ts.teams.members.get(t)]
        for team in empty:
            if team not in ts.reported_empty:
                ts.reported_empty.append(team)
                ctx.emit("admin", f"The {team} Team has no players: II.5 removes every reference to "
                                  "Teams from the ruleset. Amend the rules (nomopoly ruling amend / "
                                  "ruling propose) or rule otherwise (docs/games/nomoteams.md).",
                         rule="II.5", data={"team": team})
        ts.reported_empty = [t for t in ts.reported_empty if t in empty]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "team":
            return False
        ts = self.of(state)
        if ts.teams.team_of(player.name):
            ts.teams.leave(player.name)
        ts.pending = [n for n in ts.pending if n != player.name]
        ts.freemasons = [n for n in ts.freemasons if n != player.name]
        if str(value) == FREEMASON:
            ts.freemasons.append(player.name)
        elif str(value) in TEAMS:
            ts.teams.join(str(value), player.name)
        else:
            raise IllegalAction(f"team {value!r} is not one of {', '.join(TEAMS)}, {FREEMASON}")
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        ts = self.of(state)
        return [Fact("team", team_label(state, player.name), label="Team", column="Team", order=25, kind="text"),
                Fact("best_friend", ts.best_friends.get(player.name), label="Best Friend", order=26,
                     kind="player")]

    def status_parts(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        return [(25, f"; team: {team_label(state, player.name)}")]

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        friend = self.of(state).best_friends.get(player.name)
        return [(25, f"  Team: {team_label(state, player.name)}"
                     + (f"; Best Friend: {friend}" if friend else ""))]

    def panels(self, state: GameState) -> list[Panel]:
        return [Panel("teams", "Teams", "Each player is in one of the four Teams or is a Freemason (II.3). "
                                        "A Team's standing is its members' money and squares together.",
                      (Table("Team standings", ("Team", "Players", "Members", "Money", "Squares"),
                             tuple(team_standings(state))),), order=15)]


def team_label(state: GameState, name: str) -> str:
    ts = TeamsModule.of(state)
    team = ts.teams.team_of(name)
    if team:
        return team
    if name in ts.freemasons:
        return FREEMASON
    return "to be drawn at the next update" if name in ts.pending else "none"


def team_standings(state: GameState) -> list[tuple[str, int, str, int, int]]:
    """Each Team's (and the Freemasons') members, money and squares together, richest first."""
    ts = TeamsModule.of(state)
    groups = {t: list(ts.teams.members.get(t, [])) for t in TEAMS}
    groups[FREEMASON + "s"] = list(ts.freemasons)
    rows = []
    for team, members in groups.items():
        members = [m for m in members if m in state.players and state.players[m].active]
        money = sum(state.players[m].money for m in members)
        squares = sum(len(squares_of(state, m)) for m in members)
        rows.append((team, len(members), ", ".join(members) or "-", money, squares))
    return sorted(rows, key=lambda r: (-r[3], r[0]))


def draw_teams(ctx: UpdateContext) -> None:
    """II.3: each player waiting for a Team joins one of those with the fewest players, drawn
    with equal chances (no roll when one Team is smallest)."""
    ts = TeamsModule.of(ctx.state)
    for name in list(ts.pending):
        ts.pending.remove(name)
        player = ctx.state.players.get(name)
        if player is None or not player.active or name in ts.freemasons or ts.teams.team_of(name):
            continue
        sizes = {t: len(ts.teams.members.get(t, [])) for t in TEAMS}
        smallest = [t for t in TEAMS if sizes[t] == min(sizes.values())]
        team = smallest[0] if len(smallest) == 1 else smallest[ctx.dice.roll(f"team/{name}", len(smallest)) - 1]
        ts.teams.join(team, name)
        ctx.emit("team", f"{name} joined the {team} Team (teams:II.3).", player=name, rule="teams:II.3",
                 data={"team": team, "from": smallest})


def declare_freemason(ctx: UpdateContext, player: Player, cmd: DeclareFreemason) -> str:
    ts = TeamsModule.of(ctx.state)
    if player.name in ts.freemasons:
        raise IllegalAction("you are a Freemason already (II.6)")
    make_freemason(ctx.state, player.name)
    return f"{player.name} declared themselves a Freemason (II.6)."


def make_freemason(state: GameState, name: str) -> str | None:
    """``name`` leaves their Team (if any) and becomes a Freemason; the Team left, if any."""
    ts = TeamsModule.of(state)
    left = ts.teams.leave(name) if ts.teams.team_of(name) else None
    ts.pending = [n for n in ts.pending if n != name]
    if name not in ts.freemasons:
        ts.freemasons.append(name)
    return left


def best_friend(ctx: UpdateContext, player: Player, cmd: BestFriend) -> str:
    ts = TeamsModule.of(ctx.state)
    other = live_player(ctx, cmd.friend)
    week, gap = ctx.state.week, int(ctx.params(TeamsModule.name)["friendship_gap_weeks"])
    if other.name == player.name:
        raise IllegalAction("a player cannot be her own Best Friend (II.4)")
    for who in (player.name, other.name):
        if ts.best_friends.get(who):
            raise IllegalAction(f"{who} already has a Best Friend, {ts.best_friends[who]}; one at a "
                                "time (II.4): END FRIENDSHIP first")
        if who in ts.ended and week < ts.ended[who] + gap:
            raise IllegalAction(f"{who}'s last friendship ended in week {ts.ended[who]}; no new Best "
                                f"Friend before week {ts.ended[who] + gap} (II.4)")
    if any(r.player == other.name and r.friend == player.name and r.week == week for r in ts.requests):
        ts.requests = [r for r in ts.requests if r.player not in (player.name, other.name)]
        ts.best_friends[player.name], ts.best_friends[other.name] = other.name, player.name
        _answered(ctx, other.name, player.name)
        return f"{player.name} and {other.name} are now Best Friends (II.4)."
    ts.requests = [r for r in ts.requests if r.player != player.name] + [FriendRequest(player.name, other.name, week)]
    return (f"{player.name} asked {other.name} to be Best Friends; it holds if {other.name} sends "
            f"BEST FRIEND {player.name} this week (II.4).")


def _answered(ctx: UpdateContext, asker: str, friend: str) -> None:
    """The request ``asker`` made in this same update said it waits for ``friend``'s answer; the
    answer came, so its verdict (in ``asker``'s receipt and results) says what became of it."""
    for event in reversed(ctx.events):
        if (event.kind == "action" and event.player == asker and event.ok
                and event.data.get("cmd") == BestFriend.cmd and event.text and " asked " in event.text):
            event.text = (f"{asker} asked {friend} to be Best Friends, and {friend} answered BEST FRIEND {asker} "
                          "in the same update: they are now Best Friends (II.4).")
            return


def end_friendship(ctx: UpdateContext, player: Player, cmd: EndFriendship) -> str:
    ts = TeamsModule.of(ctx.state)
    friend = ts.best_friends.pop(player.name, None)
    if friend is None:
        raise IllegalAction("you have no Best Friend to part from (II.4)")
    ts.best_friends.pop(friend, None)
    ts.ended[player.name] = ts.ended[friend] = ctx.state.week
    return f"{player.name} and {friend} are no longer Best Friends (II.4)."
