"""Inline SVG for the site: the board (VI.5's snaking grid) and line charts of money over time.

Everything here is built from strings, so every piece of game text goes through
:func:`markupsafe.escape`; the functions return :class:`markupsafe.Markup` for the templates.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable

from markupsafe import Markup, escape

from admin.engine import hooks
from admin.engine.layouts import layout
from admin.engine.shows import SquareLook
from admin.games.registry import REGISTRY
from admin.engine.model import GameState, Square

#: Okabe–Ito: eight colours told apart with every common colour-vision deficiency.
PALETTE: tuple[str, ...] = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9",
                            "#F0E442", "#1A1A1A")
CELL_W, CELL_H, GAP, PAD = 100, 84, 4, 6
#: the widest a character of the 13 px legend text is drawn, on average, in px
LEGEND_CHAR = 7.6
#: corner badges a square shows (beyond them, one "+k" badge)
MAX_FLAGS = 2


# -- colours ---------------------------------------------------------------------------------
def player_colours(state: GameState) -> dict[str, str]:
    """A colour per player, stable as the game goes on: by the week they joined, then by name.

    A newcomer joins at the end of the order, so nobody's colour changes when someone joins."""
    order = sorted(state.players.values(), key=lambda p: (p.joined_week, p.name))
    return {p.name: PALETTE[i % len(PALETTE)] for i, p in enumerate(order)}


def _rgb(colour: str) -> tuple[float, float, float]:
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return red, green, blue


def _luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (WCAG contrast ratio)."""
    lum = _luminance(colour)
    return "#111111" if (lum + 0.05) / 0.0567 >= 1.05 / (lum + 0.05) else "#ffffff"


def tint(colour: str, amount: float = 0.22) -> str:
    """``colour`` mixed with white: ``amount`` of the colour."""
    r, g, b = (round(255 - (255 - c * 255) * amount) for c in _rgb(colour))
    return f"#{r:02x}{g:02x}{b:02x}"


# -- text helpers ----------------------------------------------------------------------------
def initials(name: str) -> str:
    """Up to two letters or digits for a token: ``"Mary Ann"`` -> ``"MA"``, ``"bob"`` -> ``"BO"``."""
    words = ["".join(ch for ch in w if ch.isalnum()) for w in name.split()]
    words = [w for w in words if w]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    if words:
        return words[0][:2].upper()
    return "?"


def truncate(text: str, limit: int) -> str:
    text = " ".join(text.split())
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def name_lines(name: str, width: int = 13, lines: int = 2) -> list[str]:
    """A square's name in at most ``lines`` lines of ``width`` characters, words kept whole
    where they fit, the last line cut with an ellipsis when the name is longer."""
    words = truncate(name, 10 * width).split(" ")
    out: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if len(candidate) <= width:
            current = candidate
            continue
        if current:
            out.append(current)
        current = word
        while len(current) > width and len(out) < lines:
            out.append(current[:width])
            current = current[width:]
    if current:
        out.append(current)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = truncate(out[-1] + " …", width) if len(out[-1]) < width else out[-1][: width - 1] + "…"
    return out


# -- the board -------------------------------------------------------------------------------
def square_look(state: GameState, sq: Square) -> SquareLook:
    """Every enabled module's overlay on a square, merged: the owner, notes and flags in order."""
    owner, marker, band = None, None, None
    notes: list[tuple[int, str]] = []
    flags: list[tuple[int, str, str]] = []
    for look in hooks.call(state, REGISTRY).square_look(state, sq):
        owner = owner or look.owner
        notes += look.notes
        flags += look.flags
        marker = marker or look.marker
        band = band or look.band
    return SquareLook(owner=owner, notes=tuple(sorted(notes, key=lambda n: n[0])),
                      flags=tuple(sorted(flags, key=lambda f: f[0])), marker=marker, band=band)


def _square_title(sq: Square, look: SquareLook, here: list[str]) -> str:
    if sq.destroyed:
        parts = [f"Square {sq.number}: destroyed"]
    else:
        parts = [f"Square {sq.number}" + (f" “{sq.name}”" if sq.name else "")]
        parts += [text for _, text in look.notes]
    if here:
        parts.append("here: " + ", ".join(here))
    return "; ".join(parts)


def _cell_svg(sq: Square, look: SquareLook, x: float, y: float, here: list[str],
              colours: dict[str, str]) -> str:
    e = escape
    out = [f'<g class="sq"><title>{e(_square_title(sq, look, here))}</title>']
    owner_colour = colours.get(look.owner or "", "#777777") if look.owner else None
    if sq.destroyed:
        fill, stroke = "url(#hatch)", "#9a9a9a"
    elif owner_colour:
        fill, stroke = tint(owner_colour), owner_colour
    else:
        fill, stroke = "#fbfaf6", "#c9c6bb"
    out.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" rx="7" fill="{fill}" '
               f'stroke="{stroke}" stroke-width="{2 if owner_colour else 1}"/>')
    if owner_colour:
        out.append(f'<path d="M{x + 7} {y}h{CELL_W - 14}a7 7 0 0 1 7 7v3h-{CELL_W}v-3a7 7 0 0 1 7-7z" '
                   f'fill="{owner_colour}"/>')
    if look.band and not sq.destroyed:
        out.append(f'<rect x="{x + 4}" y="{y + CELL_H - 7}" width="{CELL_W - 8}" height="5" rx="2" '
                   f'fill="{look.band}"/>')
    out.append(f'<text x="{x + 7}" y="{y + 27}" class="num">{sq.number}</text>')
    if sq.destroyed:
        out.append(f'<text x="{x + CELL_W / 2}" y="{y + 50}" class="gone" text-anchor="middle">'
                   'destroyed</text>')
    elif sq.name:
        lines = name_lines(sq.name)
        top = 48 if len(lines) == 1 else 42
        # wide letters could still run past the cell: clip the name to it
        out.append(f'<clipPath id="clip-{sq.number}"><rect x="{x + 3}" y="{y}" width="{CELL_W - 6}" '
                   f'height="{CELL_H}"/></clipPath><g clip-path="url(#clip-{sq.number})">')
        for i, line in enumerate(lines):
            out.append(f'<text x="{x + CELL_W / 2}" y="{y + top + 14 * i}" class="name" '
                       f'text-anchor="middle">{e(line)}</text>')
        out.append("</g>")
    flags = [short for _, short, _ in sorted(look.flags)]
    if len(flags) > MAX_FLAGS:  # the rest are in the square's title and the board's table
        flags = [*flags[:MAX_FLAGS - 1], f"+{len(flags) - MAX_FLAGS + 1}"]
    for i, label in enumerate(flags):
        fx = x + CELL_W - 34 - i * 30
        out.append(f'<rect x="{fx}" y="{y + 14}" width="28" height="14" rx="3" fill="#5b4a00"/>'
                   f'<text x="{fx + 14}" y="{y + 25}" class="flag" text-anchor="middle"{_squeeze(label)}>{label}</text>')
    if look.marker and not sq.destroyed:
        label, red = look.marker
        cx, cy = x + CELL_W - 30, y + CELL_H - 32
        out.append(f'<rect x="{cx}" y="{cy}" width="24" height="27" rx="3" fill="#ffffff" '
                   f'stroke="#555555"/><text x="{cx + 12}" y="{cy + 18}" text-anchor="middle" '
                   f'class="card{" red" if red else ""}">{e(label)}</text>')
    shown = here[:3]
    for i, name in enumerate(shown):
        colour = colours.get(name, "#777777")
        tx, ty = x + 15 + i * 21, y + CELL_H - 15
        out.append(f'<circle cx="{tx}" cy="{ty}" r="10" fill="{colour}" stroke="#ffffff" '
                   f'stroke-width="1.5"/><text x="{tx}" y="{ty + 3.5}" text-anchor="middle" '
                   f'class="tok" fill="{ink_on(colour)}">{e(initials(name))}</text>')
    if len(here) > len(shown):
        out.append(f'<text x="{x + 15 + len(shown) * 21 - 6}" y="{y + CELL_H - 11}" class="more">'
                   f'+{len(here) - len(shown)}</text>')
    out.append("</g>")
    return "".join(out)


def _squeeze(label: str) -> str:
    """A badge's text attribute that narrows a long label (BANK) to its 28 px badge."""
    return ' textLength="25" lengthAdjust="spacingAndGlyphs"' if len(label) > 3 else ""


def _flags_in_use(looks: Iterable[SquareLook]) -> list[tuple[str, str]]:
    """Each distinct corner badge on the board with its meaning, in the modules' order."""
    seen: dict[str, tuple[int, str]] = {}
    for look in looks:
        for order, short, long in look.flags:
            seen.setdefault(short, (order, long))
    return [(short, long) for short, (order, long) in sorted(seen.items(), key=lambda kv: (kv[1][0], kv[0]))]


def board_svg(state: GameState, colours: dict[str, str] | None = None, columns: int | None = None) -> Markup:
    """The whole board with tokens, owners, cards and a legend, as one accessible ``<svg>``, laid
    out as the game's layout says (no board: empty)."""
    colours = colours if colours is not None else player_colours(state)
    count = max((s.number for s in state.squares), default=0)
    if columns is None:
        columns = int(REGISTRY.params(state, "board").get("columns", 10))
    lay = layout(state.layout, columns)
    if lay.name == "none" or not count:
        return Markup("")
    rows, columns = lay.size(count)
    width = PAD * 2 + columns * CELL_W + (columns - 1) * GAP
    grid_h = rows * CELL_H + (rows - 1) * GAP
    players = sorted(state.players.values(), key=lambda p: (p.joined_week, p.name))
    where: dict[int, list[str]] = {}
    for p in sorted(state.players.values(), key=lambda p: p.name):
        if p.active:
            where.setdefault(p.square, []).append(p.name)
    legend_items = [(p.name, colours.get(p.name, "#777777")) for p in players]
    looks = {s.number: square_look(state, s) for s in state.squares}
    flags = _flags_in_use(looks.values())
    # as many legend entries a row as their longest label allows, so that no label is cut short
    longest = max([len(n) for n, _ in legend_items] + [len(long) + 1 for _, long in flags] + [11])
    per_row = next((n for n in (4, 3, 2) if (width - 2 * PAD) / n >= 34 + longest * LEGEND_CHAR), 1)
    fit = int((width - 2 * PAD - 34) / LEGEND_CHAR)
    legend_rows = math.ceil((len(legend_items) + 3 + len(flags)) / per_row)
    height = PAD * 2 + grid_h + 24 + legend_rows * 30
    owned = sum(1 for s in state.squares if looks[s.number].owner and not s.destroyed)
    shape = (f"{count} squares in a {columns}-column grid snaking up from square 1 at the bottom left"
             if lay.name == "snake" else lay.describe(count))
    desc = f"{shape}; {owned} owned; {len(where)} squares with players on them."
    # never drawn smaller than its own size, so that the smallest text (11 px) stays readable: a
    # narrower screen scrolls the board inside its own box instead of shrinking it
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board-svg" viewBox="0 0 {width} {height}" '
           f'style="--board-min:{width}px" '
           f'role="img" aria-labelledby="board-title board-desc" '
           f'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
           '<title id="board-title">The Nomopoly board</title>',
           f'<desc id="board-desc">{escape(desc)}</desc>',
           '<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect width="8" height="8" fill="#ececec"/>'
           '<line x1="0" y1="0" x2="0" y2="8" stroke="#a8a8a8" stroke-width="3"/></pattern></defs>',
           # inline SVG styles apply to the whole page: every rule is scoped to the board
           '<style>.board-svg .num{font-size:17px;font-weight:700;fill:#222}'
           '.board-svg .name{font-size:12.5px;fill:#222}'
           '.board-svg .gone{font-size:12px;fill:#555;font-style:italic}'
           '.board-svg .tok{font-size:11px;font-weight:700}'
           '.board-svg .card{font-size:12px;font-weight:700;fill:#111}.board-svg .card.red{fill:#b00020}'
           '.board-svg .flag{font-size:11px;font-weight:700;fill:#fff}'
           '.board-svg .more{font-size:11px;fill:#333}.board-svg .lg{font-size:13px;fill:#222}</style>']
    for sq in state.squares:
        row, col = lay.cell(sq.number, count)
        x = PAD + col * (CELL_W + GAP)
        y = PAD + (rows - 1 - row) * (CELL_H + GAP)
        out.append(_cell_svg(sq, looks[sq.number], x, y, where.get(sq.number, []), colours))
    ly = PAD + grid_h + 20
    items: list[str] = []
    for name, colour in legend_items:
        items.append(f'<circle cx="10" cy="0" r="9" fill="{colour}"/><text x="10" y="3.5" '
                     f'text-anchor="middle" class="tok" fill="{ink_on(colour)}">'
                     f'{escape(initials(name))}</text><text x="25" y="4.5" class="lg">'
                     f'{escape(truncate(name, fit))}</text>')
    items.append('<rect x="1" y="-9" width="18" height="18" rx="3" fill="url(#hatch)" '
                 'stroke="#9a9a9a"/><text x="25" y="4.5" class="lg">destroyed</text>')
    items.append('<rect x="3" y="-10" width="15" height="20" rx="2" fill="#fff" stroke="#555"/>'
                 '<text x="10.5" y="4" text-anchor="middle" class="card red">♥</text>'
                 '<text x="25" y="4.5" class="lg">card placed</text>')
    items.append('<rect x="1" y="-9" width="18" height="18" rx="3" fill="#fbfaf6" stroke="#c9c6bb"/>'
                 '<text x="25" y="4.5" class="lg">unowned</text>')
    for short, long in flags:  # each badge on the board, with its meaning
        items.append(f'<rect x="-4" y="-7" width="28" height="14" rx="3" fill="#5b4a00"/>'
                     f'<text x="10" y="4" class="flag" text-anchor="middle"{_squeeze(short)}>{escape(short)}</text>'
                     f'<text x="30" y="4.5" class="lg">{escape(truncate(long, fit - 1))}</text>')
    slot = (width - 2 * PAD) / per_row
    for i, item in enumerate(items):
        r, c = divmod(i, per_row)
        out.append(f'<g transform="translate({PAD + c * slot:.1f} {ly + r * 30})">{item}</g>')
    out.append("</svg>")
    return Markup("".join(out))


# -- charts ----------------------------------------------------------------------------------
