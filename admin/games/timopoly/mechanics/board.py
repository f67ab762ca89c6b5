"""Timopoly's board and turns (THE PLAY, "HUGE-O", TAX, SOCIAL MEDIA JAIL, "FREE TIME"): forty
named spaces around a loop; turns pass to the left, every player one turn per update in seat
order; doubles throw again and three doubles in a row go to jail; Fn 20 each time round; taxes;
jail and the three ways out.

By email a turn cannot wait for a decision, so what a jailed player does is said in advance:
``PAY JAIL FINE`` or ``USE JAIL CARD`` (for their next jailed turn), or a standing order
``ORDER PAY JAIL FINE`` / ``ORDER USE JAIL CARD`` (every time). Silent, they throw for doubles."""

from __future__ import annotations

from typing import Any

from admin.engine.board import add_square
from admin.engine.capabilities import ChecksSettings
from admin.engine.context import BANK, UpdateContext
from admin.engine.declare import command, handled
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact
from admin.engine.movement import move
from admin.engine.errors import CommandError, IllegalAction, RuleError
from admin.games.timopoly.mechanics.holdings import TimoBoardState, return_jail_card, send_to_jail, settle
from admin.games.timopoly.mechanics.spaces import check_spaces, first_of, space, spaces
from admin.engine.model import GameState, Player, Square


def _parse_jail(rest: str, line: object, how: str, word: str) -> JailChoice:
    if rest.upper() != word:
        raise CommandError(f"write it as {'PAY JAIL FINE' if how == 'fine' else 'USE JAIL CARD'}.")
    return JailChoice(how)


@command("PAY JAIL FINE", keyword="PAY JAIL", parse=lambda r, _line: _parse_jail(r, _line, "fine", "FINE"),
         cmd="timo-jail", listing=20, summary="leave Social Media Jail by paying the fine before you throw",
         example="PAY JAIL FINE", rules=("XI.7",))
@command("USE JAIL CARD", keyword="USE JAIL", parse=lambda r, _line: _parse_jail(r, _line, "card", "CARD"),
         listing=21, summary="leave Social Media Jail with your Get Out Free card", example="USE JAIL CARD",
         rules=("XI.5",))
class JailChoice:
    """``PAY JAIL FINE`` / ``USE JAIL CARD``: how to leave jail on one's next jailed turn."""

    how: str  # "fine" or "card"


class TimoBoardModule(Mechanic[TimoBoardState, None], ChecksSettings):
    name = "timo-board"
    rules = ("II.2", "V.1", "V.2", "V.3", "V.4", "V.5", "V.6", "V.7", "VI.1", "VI.2", "VI.3", "X.1",
             "XI.1", "XI.2", "XI.3", "XI.4", "XI.5", "XI.7", "XI.8", "XII.1")
    stated = {"V.7": {"doubles_to_jail": ("throws doubles {} times in a row goes",)},
              "VI.1": {"huge_o": ("collects Fn {} from the Fandom",)},
              "VI.3": {"huge_o": ("collects Fn {} twice",)},
              "XI.1": {"doubles_to_jail": ("throw doubles {} times in a row",)},
              "XI.4": {"jail_turns": ("on one of their next {} turns",)},
              "XI.7": {"jail_fine": ("paying a fine of Fn {}",)},
              "XI.8": {"jail_fine": ("pays the Fn {} fine",)}}
    # (the game's package sets the forty spaces; alone, the module has the smallest board there is)
    defaults = {"spaces": [{"name": "HUGE-O", "kind": "go"}, {"kind": "free"},
                           {"name": "Social Media Jail", "kind": "jail"}, {"kind": "free"}],
                "huge_o": 20, "jail_fine": 5, "jail_turns": 3, "doubles_to_jail": 3, "max_throws": 50}
    maximums = {"max_throws": 50}  # its default: the doubles rule ends a turn long before (issue 30)
    validators = {"spaces": check_spaces}
    summary = "Forty spaces round a loop; turns pass to the left; Fn 20 each time round; tax; jail."
    State = TimoBoardState

    def commands(self) -> tuple[CommandSpec, ...]:
        return handled((JailChoice, choose_leave))

    def setup(self, state: GameState) -> None:
        while len(state.squares) < len(spaces(state)):
            add_square(state)
        for square, spec in zip(state.squares, spaces(state)):
            square.name = spec.name
        super().setup(state)

    def check_setting(self, state: GameState, key: str, value: Any) -> None:
        if key == "spaces" and state.squares and len(value) != len(state.squares):
            raise RuleError(f"the board keeps its {len(state.squares)} spaces (deeds, Noms and tokens stand on "
                            f"them): a ruling may change what the spaces are, not how many ({len(value)})")

    def on_update_start(self, ctx: UpdateContext) -> None:
        for square, spec in zip(ctx.state.squares, spaces(ctx.state)):  # a space renamed by a proposal
            square.name = spec.name

    def on_player_added(self, state: GameState, player: Player) -> None:
        self.of(state).seats.seat(player.name)
        player.square = 1  # every token starts on HUGE-O (V.1)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        st = self.of(state)
        st.jail.pop(player.name, None)
        st.jail_cards.pop(player.name, None)

    def on_turns(self, ctx: UpdateContext) -> None:
        st = self.of(ctx.state)
        active = {p.name for p in ctx.state.active_players()}
        if not active:
            return
        if not st.started:
            _opening_throw(ctx, st, active)
        order = st.seats.take(active, turns=len(active))
        ctx.emit("order", "Turn order (passing to the left): " + ", ".join(order) + ".", rule="V.3",
                 data={"order": order})
        for name in order:
            player = ctx.state.players[name]
            if player.active and not ctx.state.ended:
                take_turn(ctx, player)

    def on_pass_end(self, ctx: UpdateContext, player: Player) -> None:
        bonus = int(ctx.params(self.name)["huge_o"])
        ctx.transfer(BANK, player.name, bonus, rule="VI.1", reason="passing HUGE-O", kind="bonus")
        ctx.emit("pass-bonus", f"{player.name} passed HUGE-O and collected {ctx.state.money(bonus)}.",
                 player=player.name, rule="VI.1", data={"amount": bonus})

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        spec = space(ctx.state, square.number)
        if spec.kind == "tax":
            settle(ctx, player, BANK, spec.tax, rule="X.1", reason=f"{spec.name} (tax)", kind="tax")
        elif spec.kind == "gotojail":
            send_to_jail(ctx, player, f"landing on {spec.name}")

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        st = self.of(state)
        facts = [Fact("in_jail", player.name in st.jail, label="In Social Media Jail", order=25, kind="text")]
        facts.append(Fact("jail_cards", len(st.jail_cards.get(player.name, [])), label="Get Out of Jail cards",
                          order=26))
        return facts

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        st = self.of(state)
        lines = []
        if player.name in st.jail:
            lines.append((31, f"  In Social Media Jail: {st.jail[player.name]} jailed turn(s) so far; "
                              "send PAY JAIL FINE or USE JAIL CARD, or throw for doubles"))
        return lines

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        st = self.of(state)
        if key == "in_jail":
            if value:
                st.jail[player.name] = 0 if value is True else int(value)
                player.square = first_of(state, "jail")
            else:
                st.jail.pop(player.name, None)
        elif key == "jail_cards":
            st.jail_cards[player.name] = [str(v) for v in value]
        elif key == "jail_order":
            st.standing[player.name] = str(value)
        else:
            return False
        return True


def choose_leave(ctx: UpdateContext, player: Player, cmd: JailChoice) -> str:
    st = TimoBoardModule.of(ctx.state)
    if cmd.how == "card" and not st.jail_cards.get(player.name):
        raise IllegalAction("you hold no Get Out of Social Media Jail Free card")
    st.leave[player.name] = cmd.how
    what = "pay the fine" if cmd.how == "fine" else "use a Get Out of Social Media Jail Free card"
    when = "at the start of their next turn" if player.name in st.jail else "if in jail at their next turn"
    return f"{player.name} will {what} {when}."


def _opening_throw(ctx: UpdateContext, st: TimoBoardState, active: set[str]) -> None:
    """V.2: everyone throws; the highest total starts (ties throw again)."""
    contenders, round_ = sorted(active, key=st.seats.seats.index), 0
    while len(contenders) > 1 and round_ < 10:
        totals = {n: ctx.dice.roll(f"start/{round_}/{n}/d0", 6) + ctx.dice.roll(f"start/{round_}/{n}/d1", 6)
                  for n in contenders}
        best = max(totals.values())
        contenders = [n for n in contenders if totals[n] == best]
        round_ += 1
    first = contenders[0]
    st.seats.next = st.seats.seats.index(first)
    st.started = True
    ctx.emit("start", f"{first} threw highest and starts; the turn then passes to the left.", rule="V.2",
             data={"first": first})


def _throw(ctx: UpdateContext, player: Player, label: str) -> tuple[int, int]:
    a = ctx.dice.roll(f"turn/{player.name}/{label}/d0", 6)
    b = ctx.dice.roll(f"turn/{player.name}/{label}/d1", 6)
    TimoBoardModule.of(ctx.state).last_roll[player.name] = a + b
    ctx.emit("roll", f"{player.name} threw {a} and {b}" + (" (doubles)." if a == b else "."),
             player=player.name, rule="V.4", data={"faces": [a, b]})
    return a, b


def take_turn(ctx: UpdateContext, player: Player) -> None:
    st = TimoBoardModule.of(ctx.state)
    if player.name in st.jail and not _leave_jail(ctx, player):
        return
    params = ctx.params(TimoBoardModule.name)
    for throw in range(int(params["max_throws"])):
        a, b = _throw(ctx, player, str(throw))
        if a == b and throw + 1 >= int(params["doubles_to_jail"]):
            send_to_jail(ctx, player, f"doubles {throw + 1} times in a row")
            return
        move(ctx, player, a + b)
        if not player.active or player.name in st.jail or a != b or ctx.state.ended:
            return


def _leave_jail(ctx: UpdateContext, player: Player) -> bool:
    """A jailed player's turn: True if they are out and take an ordinary turn now."""
    st = TimoBoardModule.of(ctx.state)
    params = ctx.params(TimoBoardModule.name)
    fine = int(params["jail_fine"])
    how = st.leave.pop(player.name, None) or st.standing.get(player.name)
    if how == "card" and st.jail_cards.get(player.name):
        deck = st.jail_cards[player.name].pop(0)
        return_jail_card(ctx, deck)
        del st.jail[player.name]
        ctx.emit("jail-out", f"{player.name} used a Get Out of Social Media Jail Free card.",
                 player=player.name, rule="XI.5")
        return True
    if how == "fine" and player.money >= fine:
        ctx.transfer(player.name, BANK, fine, rule="XI.7", reason="the jail fine", kind="fine")
        del st.jail[player.name]
        ctx.emit("jail-out", f"{player.name} paid the {ctx.state.money(fine)} fine and left jail.",
                 player=player.name, rule="XI.7")
        return True
    a, b = _throw(ctx, player, "jail")
    st.jail[player.name] += 1
    if a == b:
        del st.jail[player.name]
        ctx.emit("jail-out", f"{player.name} threw doubles and left jail.", player=player.name, rule="XI.4")
        move(ctx, player, a + b)  # no further throw for these doubles (XI.4)
        return False
    if st.jail[player.name] < int(params["jail_turns"]):
        return False
    del st.jail[player.name]
    settle(ctx, player, BANK, fine, rule="XI.8", reason="the jail fine after three turns", kind="fine")
    if player.active:
        ctx.emit("jail-out", f"{player.name} paid the fine after three turns in jail and moves on.",
                 player=player.name, rule="XI.8")
        move(ctx, player, a + b)
    return False
