"""The players' charts: money and net worth over the updates, as inline SVG line charts (thinned
to at most :data:`MAX_POINTS` points, so a game of hundreds of updates draws as fast as a short one)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup, escape

from admin.site.svg import truncate

@dataclass
class Series:
    label: str
    colour: str
    #: one value per x position; None where there is no value (the player had not joined)
    values: list[int | None]
    dashed: bool = False


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / max(ticks, 1)
    if raw <= 0:
        return 1
    mag: float = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _money(v: float, thousands: bool = False) -> str:
    sign = "−" if v < 0 else ""
    v = abs(v)
    if thousands:
        return f"{sign}${v / 1000:g}k"
    return f"{sign}${v:,.0f}"


def line_chart(series: list[Series], xs: list[int], title: str, *, x_label: str = "update",
               width: int = 720, height: int = 300) -> Markup:
    """A line chart (money against update number) as accessible inline SVG."""
    left, right, bottom = 64, 16, 40
    legend: list[tuple[float, float, Series, str]] = []  # x, y, series, label
    lx, ly = float(left), 16.0
    for s in series:
        label = truncate(s.label, 22)
        item_w = 44 + 7.5 * len(label)
        if lx + item_w > width - right and lx > left:
            lx, ly = float(left), ly + 22
        legend.append((lx, ly, s, label))
        lx += item_w
    top = int(ly) + 24
    height += top - 40
    values = [v for s in series for v in s.values if v is not None]
    lo: float
    hi: float
    lo, hi = (min(values), max(values)) if values else (0, 1)
    if hi - lo < 100:  # a flat line: give it some room around its value
        lo, hi = lo - 500, hi + 500
    step = _nice_step(hi - lo, 4)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(xs), 1)

    def px(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def py(v: float) -> float:
        return top + plot_h - (v - lo) / ((hi - lo) or 1) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
           f'role="img" aria-label="{escape(title)}" '
           f'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif">',
           f'<title>{escape(title)}</title>',
           '<style>.chart .ax{font-size:12px;fill:#444}.chart .lg{font-size:13px;fill:#222}</style>']
    thousands = max(abs(lo), abs(hi)) >= 10000 and step >= 100
    v: float = lo
    while v <= hi + step / 2:
        y = py(v)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="{"#888" if v == 0 else "#e3e1da"}" stroke-width="1"/>'
                   f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" class="ax">'
                   f'{_money(v, thousands)}</text>')
        v += step
    every = max(1, math.ceil(n / 12))
    for i, x in enumerate(xs):
        if i % every == 0 or i == n - 1:
            out.append(f'<text x="{px(i):.1f}" y="{height - bottom + 18}" text-anchor="middle" '
                       f'class="ax">{x}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle" class="ax">'
               f'{escape(x_label)}</text>')
    x_text = [f"{px(i):.1f}" for i in range(n)]  # the same for every series
    y_text: dict[float, str] = {}  # money often stays put from one update to the next
    for s in series:
        dash = ' stroke-dasharray="7 5"' if s.dashed else ""
        for val in s.values:
            if val is not None and val not in y_text:
                y_text[val] = f"{py(val):.1f}"
        # the points as "x,y", a None (no value) breaking the line into runs
        points = [None if val is None else f"{x},{y_text[val]}" for x, val in zip(x_text, s.values)]
        runs: list[list[str]] = [[]]
        if None not in s.values:  # the usual case: one line
            runs = [points]  # type: ignore[list-item]  # no value is None, so no point is
        else:
            for pt in points:
                if pt is None:
                    runs.append([])
                else:
                    runs[-1].append(pt)
        for run in runs:
            if len(run) > 1:
                pts = " ".join(run)
                out.append(f'<polyline points="{pts}" fill="none" stroke="{s.colour}" '
                           f'stroke-width="2.5" stroke-linejoin="round"{dash}/>')
        for i, val in enumerate(s.values):
            if val is not None and (n <= 40 or i == n - 1):
                out.append(f'<circle cx="{px(i):.1f}" cy="{py(val):.1f}" r="3.5" fill="{s.colour}">'
                           f'<title>{escape(s.label)}, {escape(x_label)} {xs[i]}: '
                           f'{escape(_money(val))}</title></circle>')
    for lx, ly, s, label in legend:
        dash = ' stroke-dasharray="7 5"' if s.dashed else ""
        out.append(f'<line x1="{lx:.1f}" x2="{lx + 24:.1f}" y1="{ly}" y2="{ly}" stroke="{s.colour}" '
                   f'stroke-width="3"{dash}/><text x="{lx + 30:.1f}" y="{ly + 4}" class="lg">'
                   f'{escape(label)}</text>')
    out.append("</svg>")
    return Markup("".join(out))


#: a chart draws at most this many points per line: more than its width in pixels shows nothing more
MAX_POINTS = 160


def thin(series: list[Series], xs: list[int], most: int = MAX_POINTS) -> tuple[list[Series], list[int]]:
    """Every k-th point, the first and the last always kept, when there are more than ``most``."""
    if len(xs) <= most:
        return series, xs
    keep = sorted({round(i * (len(xs) - 1) / (most - 1)) for i in range(most)})
    return ([Series(s.label, s.colour, [s.values[i] for i in keep], s.dashed) for s in series],
            [xs[i] for i in keep])


def draw_chart(data: tuple[list[Series], list[int], str] | None) -> dict[str, Markup] | None:
    """A chart's data drawn twice: wide for screens, narrow for phones (CSS shows one)."""
    if data is None:
        return None
    series, xs, title = data
    wide, wide_xs = thin(series, xs)
    narrow, narrow_xs = thin(series, xs, MAX_POINTS // 2)
    return {"wide": line_chart(wide, wide_xs, title),
            "narrow": line_chart(narrow, narrow_xs, title, width=380, height=280)}
