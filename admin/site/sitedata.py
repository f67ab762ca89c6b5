"""What every page of a build shares (:class:`Site`): the public state, the history of updates
and proposals, links to players, proposals and rules, each player's row, and the charts. A leaf
of the site package: the build, the pages and the writer all use it, and it uses none of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from admin.nomic.proposals import ProposalsModule
from admin.engine.shows import Panel, StandingRow
from admin.engine.capabilities import StandsInStandings
from admin.store.gamedir import GameDir
from admin.games.registry import REGISTRY
from admin.engine.model import GameState, Player, Square
from admin.nomic.ruleset import Ruleset, rule_anchor
from admin.site.export import Facts
from admin.site.history import Archives, History
from admin.site.charts import Series, draw_chart
from admin.site.svg import ink_on

#: the site's navigation: (key, title, page); a module's pages join before Updates
NAV = (("home", "Home", "index.html"), ("howto", "How to play", "howto.html"), ("board", "Board", "board.html"),
       ("players", "Players", "players.html"), ("proposals", "Proposals", "proposals.html"),
       ("rules", "Rules", "rules.html"), ("updates", "Updates", "updates.html"),
       ("verify", "Verify", "verify.html"))


@dataclass
class Site:
    """Everything the pages share; built once per build."""

    game: GameDir
    state: GameState
    title: str
    url: str
    history: History
    archives: Archives
    ruleset: Ruleset | None
    colours: dict[str, str] = field(default_factory=dict)
    slugs: dict[str, str] = field(default_factory=dict)
    #: when mail for the next update must arrive by, as (ISO 8601, for people), or None
    deadline: tuple[str, str] | None = None
    #: the coming updates' deadlines: (update, week, slot, ISO time, time for people)
    upcoming: list[tuple[int, int, str, str, str]] = field(default_factory=list)
    #: the pages the enabled modules add (the Zoo, the Lottery ...), in order
    panels: list[Panel] = field(default_factory=list)
    #: each player's net worth and facts and each square's, worked out once a build
    facts: Facts = field(init=False)

    def __post_init__(self) -> None:
        self.facts = Facts(self.state)

    @property
    def nav(self) -> tuple[tuple[str, str, str], ...]:
        """The navigation: the site's pages (Proposals only where the game has them), with the
        modules' pages before Updates."""
        pages = [n for n in NAV if (n[0] != "proposals" or self.state.enabled(ProposalsModule.name))
                 and (n[0] != "board" or self.state.layout != "none")]
        at = next(i for i, n in enumerate(pages) if n[0] == "updates")
        return tuple(pages[:at] + [(p.slug, p.title, f"{p.slug}.html") for p in self.panels] + pages[at:])

    def banner(self) -> dict[str, Any]:
        """What the banner on every page says: won, over, or paused."""
        st = self.state
        return {"winner": st.winner, "ended": st.ended, "end_reason": st.end_reason,
                "paused": st.paused}

    def repealed(self) -> set[str]:
        """Ids of rules whose last revision is a repeal."""
        history = getattr(self.state, "rule_history", None) or {}
        return {rid for rid, revs in history.items()
                if revs and getattr(revs[-1], "action", "") == "repealed"}

    def rule_href(self, rule_id: Any) -> str:
        if not isinstance(rule_id, str):
            return ""
        memo: dict[str, str] = self.__dict__.setdefault("_rule_hrefs", {})
        if rule_id not in memo:
            memo[rule_id] = self._rule_href(rule_id)
        return memo[rule_id]

    def _rule_href(self, rule_id: str) -> str:
        if not self.ruleset:
            return ""
        try:
            anchor = rule_anchor(rule_id)
        except Exception:  # not a rule id at all: no link
            return ""
        try:
            self.ruleset.rule(rule_id)
        except Exception:  # no such rule now: link only if it was repealed (its entry stays)
            if rule_id not in self.repealed():
                return ""
        return "rules.html#" + anchor

    def proposal_href(self, number: Any) -> str:
        """Where a proposal is shown: its week's archive page once archived, else the live page."""
        if isinstance(number, bool) or not isinstance(number, int):
            return ""
        week = self.archives.week_of.get(number)
        page = f"proposals/week-{week:04d}.html" if week is not None else "proposals.html"
        return f"{page}#proposal-{number}"

    def player_href(self, name: Any) -> str:
        slug = self.slugs.get(name) if isinstance(name, str) else None
        return f"players/{slug}.html" if slug else ""

    def standings(self) -> list[dict[str, Any]]:
        """Every player's row, by net worth: made once a build (the home page, the players page
        and each player's page all show it; every module is asked for each player's facts)."""
        cached = self.__dict__.get("_standings")
        if cached is None:
            rows = [self.player_row(p) for p in self.state.players.values()]
            cached = self.__dict__["_standings"] = sorted(
                rows, key=lambda r: (not r["active"], -r["net_worth"], r["name"]))
        return cached

    def others(self) -> list[dict[str, Any]]:
        """The parties that stand below the players in the standings, marked as what they are
        (the Teams variant's pseudoplayers): every enabled module's, by net worth; ``cells``:
        their facts by key, for the players' columns of the same key."""
        pseudo = REGISTRY.provider(self.state, StandsInStandings)
        rows: list[StandingRow] = pseudo.standing_rows(self.state) if pseudo is not None else []
        squares = self.squares_by_number()
        out = []
        for r in sorted(rows, key=lambda r: (-r.net_worth, r.name)):
            cells = {}
            for f in r.facts:
                value = [squares[n] for n in f.value if n in squares] if f.kind == "squares" else f.value
                cells[f.key] = {"key": f.key, "value": value, "label": f.label, "column": f.column,
                                "kind": f.kind, "shown": f.shown, "order": f.order}
            out.append({"name": r.name, "badge": r.badge, "net_worth": r.net_worth, "money": r.money,
                        "square": r.square, "href": r.href, "cells": cells})
        return out

    def square_fact_values(self, square: Square) -> dict[str, Any]:
        """A square's public facts by key (``card``, ``owner`` ...), for templates."""
        return {f.key: f.value for f in self.facts.square(square)}

    def worth(self, p: Player) -> int:
        """A player's net worth, worked out once a build (the standings and state.json show it)."""
        return self.facts.worth(p)

    def squares_by_number(self) -> dict[int, Square]:
        cached = self.__dict__.get("_squares")
        if cached is None:
            cached = self.__dict__["_squares"] = {s.number: s for s in self.state.squares}
        return cached

    def player_row(self, p: Player) -> dict[str, Any]:
        """A player as the standings and their page show them: the core's facts, and each
        module's (``facts``: before the square, ``after``: after it; see ``Fact.order``)."""
        colour = self.colours.get(p.name, "#777777")
        facts = [{"key": f.key, "value": f.value, "label": f.label, "column": f.column, "kind": f.kind,
                  "shown": f.shown, "order": f.order} for f in self.facts.player(p)]
        squares = self.squares_by_number()
        for f in facts:
            if f["kind"] == "squares":  # square numbers -> the squares, for links and chips
                f["value"] = [squares[n] for n in f["value"] if n in squares]
        return {"name": p.name, "player": p, "money": p.money, "square": p.square,
                "facts": [f for f in facts if f["order"] < 20], "after": [f for f in facts if f["order"] >= 20],
                "net_worth": self.worth(p), "active": p.active,
                "bankrupt": p.money < 0, "colour": colour,
                "ink": ink_on(colour), "href": self.player_href(p.name), "slug": self.slugs[p.name]}

    def chart(self, names: list[str], *, worth: bool, money_too: bool, title: str) -> dict[str, Markup] | None:
        """The chart twice: wide for screens, narrow for phones (CSS shows one; no JavaScript)."""
        return draw_chart(self.chart_data(names, worth=worth, money_too=money_too, title=title))

    def chart_data(self, names: list[str], *, worth: bool, money_too: bool,
                   title: str) -> tuple[list[Series], list[int], str] | None:
        """What a chart shows (its series, the update numbers, its title): a page's key covers
        this, not the SVG drawn from it."""
        points = [s for s in self.history.updates if s.money or s.net_worth]
        if not points:
            return None
        xs = [r.number for r in points]
        series = []
        for name in names:
            colour = self.colours.get(name, "#777777")
            if money_too:
                series.append(Series(f"{name}: money", colour, [r.money.get(name) for r in points]))
            if worth:
                label = f"{name}: net worth" if money_too else name
                series.append(Series(label, colour, [r.net_worth.get(name) for r in points],
                                     dashed=money_too))
        return series, xs, title
