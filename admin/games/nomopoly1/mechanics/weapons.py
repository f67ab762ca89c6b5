"""The first Nomopoly's XXXII: the Weapons of Mass Destruction Shop on square 62 (time bombs placed
in secret, flame throwers, nuclear missiles that may destroy a square), and the General Store's
anti-missile guns (XVII.3), whose units of protection may shoot a missile down. The Blob suffers
these weapons as a player does (XXXII.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence, cast

from admin.engine import hooks
from admin.engine.board import Direction, destroy_square, live_numbers, lowest, neighbours, step
from admin.engine.context import BANK
from admin.engine.declare import command, handled
from admin.engine.inventory import Inventory
from admin.engine.module import CommandSpec, Mechanic
from admin.engine.shows import Fact, SquareLook
from admin.engine.syntax import parse_square
from admin.engine.errors import CommandError, IllegalAction
from admin.library.health import change_health
from admin.games.nomopoly1 import api
from admin.games.nomopoly1.mechanics.blob import hurt
from admin.games.nomopoly1.mechanics.latex import break_suit
from admin.games.nomopoly1.mechanics.store import take_item
from admin.engine.model import GameState, Player

if TYPE_CHECKING:
    from admin.engine.context import UpdateContext
    from admin.engine.model import Square

#: weapon -> price
WEAPONS = {"time bomb": 300, "flame thrower": 1100, "nuclear missile": 3000}
DIRECTIONS = ("north", "south", "east", "west")


_SHOP = "at the Weapons of Mass Destruction Shop (62): a"


@command("BUY TIME BOMB", keyword="BUY TIME", fixed={"weapon": "time bomb"}, listing=220, rules=("XXXII.2",),
         summary=f"{_SHOP} time bomb (${WEAPONS['time bomb']})", example="BUY TIME BOMB")
@command("BUY FLAME THROWER", keyword="BUY FLAME", fixed={"weapon": "flame thrower"}, listing=220,
         rules=("XXXII.2",), summary=f"{_SHOP} flame thrower (${WEAPONS['flame thrower']})",
         example="BUY FLAME THROWER")
@command("BUY NUCLEAR MISSILE", keyword="BUY NUCLEAR", fixed={"weapon": "nuclear missile"}, listing=220,
         rules=("XXXII.2",), summary=f"{_SHOP} nuclear missile (${WEAPONS['nuclear missile']})",
         example="BUY NUCLEAR MISSILE")
class BuyWeapon:
    """``BUY TIME BOMB``, ``BUY FLAME THROWER``, ``BUY NUCLEAR MISSILE`` at the shop (XXXII.2)."""

    weapon: str


def _parse_fire(rest: str, _line: object) -> UseWeapon:
    words = rest.lower().split()
    if words[:2] == ["flame", "thrower"] and len(words) == 3 and words[2] in DIRECTIONS:
        return UseWeapon("flame thrower", direction=words[2])
    if words[:1] == ["missile"] and len(words) >= 3 and words[1] == "at":
        return UseWeapon("nuclear missile", square=parse_square(" ".join(words[2:])))
    raise CommandError("write FIRE FLAME THROWER NORTH|SOUTH|EAST|WEST or FIRE MISSILE AT <square>")


def _parse_place(rest: str, _line: object) -> UseWeapon:
    words = rest.lower().split()
    if words[:2] != ["anti-missile", "gun"] or len(words) < 4 or words[2] != "on":
        raise CommandError("write PLACE ANTI-MISSILE GUN ON <square>")
    return UseWeapon("anti-missile gun", square=parse_square(" ".join(words[3:])))


@command("PLANT TIME BOMB", fixed={"weapon": "time bomb"},
         hint="write PLANT TIME BOMB (it goes on your square, in secret)", listing=221, private=True, rules=("XXXII.2",),
         summary="put a time bomb on your square, in secret: two weeks on it hurts everyone within 3 squares (15)",
         example="PLANT TIME BOMB")
@command("FIRE FLAME THROWER <direction> | FIRE MISSILE AT <square>", parse=_parse_fire, listing=222,
         rules=("XXXII.2",), summary="a flame thrower burns the first player that way (15); a missile may destroy "
                                     "a square", example="FIRE MISSILE AT 14")
@command("PLACE ANTI-MISSILE GUN ON <square>", parse=_parse_place, listing=223, rules=("XVII.3",),
         summary="protect a square and its four neighbours against missiles (one unit each)",
         example="PLACE ANTI-MISSILE GUN ON 14")
class UseWeapon:
    """``PLANT TIME BOMB``, ``FIRE FLAME THROWER NORTH``, ``FIRE MISSILE AT <n>``,
    ``PLACE ANTI-MISSILE GUN ON <n>``."""

    weapon: str
    square: int | None = None
    direction: str | None = None


@dataclass
class Bomb:
    square: int
    owner: str
    #: the week at whose end it goes off
    week: int


@dataclass
class WeaponsState:
    weapons: Inventory = field(default_factory=Inventory)
    #: squares with an anti-missile gun on them
    guns: list[int] = field(default_factory=list)
    #: the update in which a player landed on or passed the shop: they may buy until their next move
    offers: dict[str, int] = field(default_factory=dict)


@dataclass
class WeaponsPrivate:
    #: time bombs, placed in secret (XXXII.2): never on the site
    bombs: list[Bomb] = field(default_factory=list)


class WeaponsModule(Mechanic[WeaponsState, WeaponsPrivate]):
    name = "weapons"
    rules = ("XXXII.1", "XXXII.2", "XXXII.3", "XXXII.4")
    stated = {"XXXII.1": {"shop": ("The shop is on square {}.",)},
              "XXXII.2": {"bomb_weeks": ("{} turns later it explodes",),
                          "bomb_reach": ("everyone within {} squares (forwards",),
                          "bomb_damage": ("or backwards) loses {} health",),
                          "flame_damage": ("the first player in that direction loses {} health",)}}
    defaults = {"shop": 62, "prices": dict(WEAPONS), "bomb_weeks": 2, "bomb_reach": 3, "bomb_damage": 15,
                "flame_damage": 15, "missile_damage": 20}
    #: squares a bomb reaches either way, each looked at when it goes off (issue 30)
    maximums = {"bomb_reach": 1000}
    summary = "Time bombs, flame throwers and nuclear missiles from the shop on square 62; anti-missile guns."
    State = WeaponsState
    Private = WeaponsPrivate
    requires = ("store",)

    def commands(self) -> Sequence[CommandSpec]:
        return handled((BuyWeapon, buy_weapon), (UseWeapon, use_weapon))

    def on_land(self, ctx: UpdateContext, player: Player, square: Square) -> None:
        if square.number == int(ctx.params(self.name)["shop"]):
            self.of(ctx.state).offers[player.name] = ctx.state.update

    def on_pass_over(self, ctx: UpdateContext, player: Player, number: int) -> None:
        if number == int(ctx.params(self.name)["shop"]):
            self.of(ctx.state).offers[player.name] = ctx.state.update

    def on_turn_start(self, ctx: UpdateContext, player: Player, turn: int) -> None:
        offers = self.of(ctx.state).offers
        if offers.get(player.name, ctx.state.update) < ctx.state.update:
            del offers[player.name]

    def on_turns(self, ctx: UpdateContext) -> None:
        """At the end of a week: the time bombs whose two weeks are up go off (XXXII.2)."""
        if not ctx.slot.week_end:
            return
        priv = self.private_of(ctx.state)
        due = [b for b in priv.bombs if b.week <= ctx.state.week]
        priv.bombs = [b for b in priv.bombs if b.week > ctx.state.week]
        p = ctx.params(self.name)
        for bomb in due:
            near = _within(ctx.state, bomb.square, int(p["bomb_reach"]))
            ctx.emit("bomb", f"A time bomb went off on square {bomb.square}.", rule="XXXII.2",
                     data={"square": bomb.square})
            for victim in sorted(ctx.state.active_players(), key=lambda pl: pl.name):
                if victim.square in near:
                    _harm(ctx, victim, int(p["bomb_damage"]), f"a time bomb on square {bomb.square}")
            if (blob := api.BLOB.get(ctx.state)) is not None and blob.square in near:
                hurt(ctx, int(p["bomb_damage"]), f"a time bomb on square {bomb.square}")

    def worth(self, state: GameState, player: Player) -> int:  # III.5: an item is worth its price
        prices = {**self.defaults, **state.params(self.name)}["prices"]
        return sum(int(prices.get(w, 0)) * n for w, n in self.of(state).weapons.items(player.name).items())

    def on_player_reset(self, ctx: UpdateContext, player: Player) -> None:
        self.of(ctx.state).weapons.clear(player.name)

    def on_player_removed(self, state: GameState, player: Player) -> None:
        ws = self.of(state)
        ws.weapons.clear(player.name)
        ws.offers.pop(player.name, None)

    def on_square_added(self, state: GameState, square: Square) -> None:
        ws = self.of(state)
        ws.guns = [n for n in ws.guns if n != square.number]

    def set_player(self, state: GameState, player: Player, key: str, value: Any) -> bool:
        if key != "weapons":
            return False
        inv = self.of(state).weapons
        inv.clear(player.name)
        for w, n in dict(value).items():
            if int(n):
                inv.give(player.name, str(w), int(n))
        return True

    def set_square(self, state: GameState, square: Square, key: str, value: Any) -> bool:
        if key != "anti_missile_gun":
            return False
        ws = self.of(state)
        ws.guns = sorted((set(ws.guns) | {square.number}) if value else (set(ws.guns) - {square.number}))
        return True

    def player_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("weapons", self.of(state).weapons.items(player.name))]

    def square_facts(self, state: GameState, square: Square) -> list[Fact]:
        return [Fact("missile_protection", protection(state, square.number))]

    def square_look(self, state: GameState, square: Square) -> SquareLook | None:
        notes, flags = [], []
        if square.number == int(state.params(self.name).get("shop", self.defaults["shop"])):
            notes.append((57, "the Weapons of Mass Destruction Shop"))
            flags.append((57, "WM", "weapons shop"))
        if square.number in self.of(state).guns:
            notes.append((86, "an anti-missile gun"))
            flags.append((86, "AM", "anti-missile gun"))
        return SquareLook(notes=tuple(notes), flags=tuple(flags)) if flags else None

    def results_lines(self, state: GameState, player: Player) -> list[tuple[int, str]]:
        mine = [b for b in self.private_of(state).bombs if b.owner == player.name]
        lines = [(70, f"  Your time bomb on square {b.square} goes off at the end of week {b.week}")
                 for b in mine]
        held = self.of(state).weapons.items(player.name)
        if held:
            lines.append((69, "  Weapons: " + ", ".join(f"{w} x{n}" for w, n in held.items())))
        return lines

    def private_facts(self, state: GameState, player: Player) -> list[Fact]:
        return [Fact("time_bombs", [b.square for b in self.private_of(state).bombs if b.owner == player.name])]


def protection(state: GameState, number: int) -> int:
    """Units of missile protection on a square: one for each anti-missile gun on it or next to it."""
    guns = WeaponsModule.of(state).guns
    return sum(1 for g in guns if g == number or number in set(neighbours(state, g)))


def _within(state: GameState, centre: int, reach: int) -> set[int]:
    """Squares within ``reach`` of ``centre`` counting along the board, forwards or backwards."""
    numbers = live_numbers(state)
    if centre not in numbers:
        return set()
    i = numbers.index(centre)
    return {numbers[(i + k) % len(numbers)] for k in range(-reach, reach + 1)}


def _harm(ctx: UpdateContext, victim: Player, damage: int, why: str) -> None:
    break_suit(ctx, victim, f"{why} hit it")
    change_health(ctx, victim, -damage, rule="XXXII.2", reason=why)


def buy_weapon(ctx: UpdateContext, player: Player, cmd: BuyWeapon) -> str:
    ws = WeaponsModule.of(ctx.state)
    p = ctx.params(WeaponsModule.name)
    if player.name not in ws.offers:
        raise IllegalAction(f"you have not landed on or passed the Weapons of Mass Destruction Shop "
                            f"(square {p['shop']}) since your last move (XXXII.1)")
    price = int(p["prices"][cmd.weapon])
    ctx.transfer(player.name, BANK, price, rule="XXXII.2", reason=f"a {cmd.weapon}", voluntary=True, kind="purchase")
    ws.weapons.give(player.name, cmd.weapon)
    return f"{player.name} bought a {cmd.weapon} for {ctx.state.money(price)}."


def _take_weapon(ctx: UpdateContext, player: Player, weapon: str) -> None:
    ws = WeaponsModule.of(ctx.state)
    if not ws.weapons.count(player.name, weapon):
        raise IllegalAction(f"you have no {weapon}; buy one at the Weapons of Mass Destruction Shop (BUY {weapon.upper()})")
    ws.weapons.take(player.name, weapon)


def use_weapon(ctx: UpdateContext, player: Player, cmd: UseWeapon) -> str:
    p = ctx.params(WeaponsModule.name)
    ws = WeaponsModule.of(ctx.state)
    if cmd.weapon == "anti-missile gun":
        square = ctx.state.square(cmd.square or 0)
        if square is None or square.destroyed:
            raise IllegalAction(f"there is no square {cmd.square} on the board")
        if cmd.square in ws.guns:
            raise IllegalAction(f"square {cmd.square} has an anti-missile gun already (XVII.3)")
        take_item(ctx, player, "anti-missile gun", "buy one at a General Store (BUY ANTI-MISSILE GUN)")
        ws.guns = sorted(ws.guns + [cmd.square])  # type: ignore[list-item]
        return f"{player.name} placed an anti-missile gun on square {cmd.square}."
    _take_weapon(ctx, player, cmd.weapon)
    if cmd.weapon == "time bomb":
        bomb = Bomb(square=player.square, owner=player.name, week=ctx.state.week + int(p["bomb_weeks"]) - 1)
        WeaponsModule.private_of(ctx.state).bombs.append(bomb)
        return f"{player.name} planted a time bomb on square {player.square}; it goes off at the end of week {bomb.week}."
    if cmd.weapon == "flame thrower":
        return _flame(ctx, player, cmd.direction or "north", int(p["flame_damage"]))
    return _missile(ctx, player, cmd.square or 0, int(p["missile_damage"]))


def _flame(ctx: UpdateContext, player: Player, direction: str, damage: int) -> str:
    columns = int(ctx.params("board").get("columns", 10))
    here = player.square
    the_blob = api.BLOB.get(ctx.state)
    blob = the_blob.square if the_blob is not None else None
    for _ in range(len(ctx.state.squares)):
        nxt = step(ctx.state, here, cast(Direction, direction), columns)
        if nxt is None:
            break
        here = nxt
        found = sorted(pl.name for pl in ctx.state.active_players() if pl.square == here and pl.name != player.name)
        if found:
            victim = ctx.state.players[found[0] if len(found) == 1 else
                                       found[ctx.dice.roll(f"flame/{player.name}", len(found)) - 1]]
            _harm(ctx, victim, damage, f"{player.name}'s flame thrower")
            return f"{player.name} fired a flame thrower {direction} and burnt {victim.name} on square {here}."
        if here == blob:
            hurt(ctx, damage, f"{player.name}'s flame thrower")
            return f"{player.name} fired a flame thrower {direction} and burnt the Blob on square {here}."
    return f"{player.name} fired a flame thrower {direction}; it found nobody."


def _missile(ctx: UpdateContext, player: Player, target: int, damage: int) -> str:
    square = ctx.state.square(target)
    if square is None or square.destroyed:
        raise IllegalAction(f"there is no square {target} on the board to aim at")
    label = f"missile/{player.name}/{target}"
    outcome = ctx.dice.roll(f"{label}/aim", 4)  # 1: a miss; 2-3: the target; 4: a neighbour
    if outcome == 1:
        return f"{player.name} fired a nuclear missile at square {target}; it missed."
    hit = target
    if outcome == 4:
        around = sorted(neighbours(ctx.state, target))
        if around:
            hit = around[ctx.dice.roll(f"{label}/stray", len(around)) - 1]
    for unit in range(protection(ctx.state, hit)):
        if ctx.dice.roll(f"{label}/shield/{unit}", 2) == 1:
            return (f"{player.name} fired a nuclear missile at square {target}; it flew at square {hit}, "
                    "and an anti-missile gun shot it down.")
    if len(live_numbers(ctx.state)) <= 1:
        return f"{player.name} fired a nuclear missile at square {hit}, the last square: it stands (V.1)."
    victims = sorted((pl for pl in ctx.state.active_players() if pl.square == hit), key=lambda pl: pl.name)
    blob = api.BLOB.get(ctx.state)
    blob_hit = blob is not None and blob.square == hit
    destroy_square(ctx.state, hit, hooks.call(ctx))
    start = lowest(ctx.state)  # XXXII.4: "square 1" is the lowest square left
    for victim in victims:
        victim.square = start
        _harm(ctx, victim, damage, f"the missile that destroyed square {hit}")
    if blob is not None and blob_hit:
        blob.square = start
        hurt(ctx, damage, f"the missile that destroyed square {hit}")
    ctx.emit("missile", f"Square {hit} was destroyed by {player.name}'s nuclear missile.", rule="XXXII.2",
             data={"square": hit})
    return f"{player.name} fired a nuclear missile at square {target}: square {hit} is destroyed."
