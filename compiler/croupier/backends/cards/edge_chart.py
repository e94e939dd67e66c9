"""The house-edge chart of a rule card: each bet's house edge against the number of decks, as inline SVG.

Readable on a phone and in print: the deck count is a numeric axis (1, 2, 4, 6 and 8 decks at
their distances), both axes have titles, each series has its own colour (dark enough to read on
white) and marker shape, and a legend names it. Bets whose edges differ by an order of magnitude
get panels of their own (a 1 % bet would be a flat line on a 30 % scale), and bets with the same
figures at every deck count are one series named after all of them. The drawing is `WIDTH` user
units wide with 12-unit text and is shown at that size or larger, so its text is never smaller
than 12 CSS pixels. Coordinates are drawing positions (floats); the figures are the exact
analysis' own, parsed back from the table's text.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

WIDTH = 330
LEFT, RIGHT, TOP = 52, 14, 12
PLOT_H = 130
FONT = 12
COLORS = ("#0b6e4f", "#b3261e", "#1f4e99", "#8a5a00", "#6a1b9a", "#00616e", "#5d4037", "#ad1457")
MARKERS = ("circle", "square", "triangle", "diamond", "cross")
SPLIT = 3  # a series whose mean edge is this many times the previous one's starts a new panel


def _value(text: str) -> Fraction:
    return Fraction(str(text).replace("%", "").strip())


def _ticks(low: Fraction, high: Fraction) -> list[Fraction]:
    """Round tick values covering [low, high], about four of them."""
    span = max(high - low, Fraction(1, 100))
    step = Fraction(1, 1000)
    while span / step > 5:
        for m in (2, Fraction(5, 2), 2):
            step *= m
            if span / step <= 5:
                break
    start = (low / step).__floor__() * step
    ticks = [start]
    while ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _fmt(x: Fraction) -> str:
    text = f"{float(x):.3f}".rstrip("0").rstrip(".")
    return text or "0"


def _marker(kind: str, x: float, y: float, color: str) -> str:
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{color}"/>'
    if kind == "square":
        return f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="{color}"/>'
    if kind == "triangle":
        return f'<path d="M{x:.1f},{y - 4.5:.1f} L{x + 4.5:.1f},{y + 3.5:.1f} L{x - 4.5:.1f},{y + 3.5:.1f} z" fill="{color}"/>'
    if kind == "diamond":
        return f'<path d="M{x:.1f},{y - 5:.1f} L{x + 5:.1f},{y:.1f} L{x:.1f},{y + 5:.1f} L{x - 5:.1f},{y:.1f} z" fill="{color}"/>'
    return (f'<path d="M{x - 4:.1f},{y - 4:.1f} L{x + 4:.1f},{y + 4:.1f} M{x - 4:.1f},{y + 4:.1f} L{x + 4:.1f},{y - 4:.1f}" '
            f'stroke="{color}" stroke-width="2.2"/>')


def panels(series: list[tuple[str, list[Fraction]]], join=", ".join) -> list[list[tuple[str, list[Fraction]]]]:
    """Series merged where their figures are equal (named by `join` of their names), then grouped by magnitude."""
    merged: list[tuple[list[str], list[Fraction]]] = []
    for name, values in series:
        same = next((m for m in merged if m[1] == values), None)
        if same is not None:
            same[0].append(name)
        else:
            merged.append(([name], values))
    ordered = sorted(merged, key=lambda m: sum(m[1]) / len(m[1]))
    out: list[list[tuple[str, list[Fraction]]]] = []
    last = None
    for names, values in ordered:
        mean = sum(values) / len(values)
        if last is None or (last > 0 and mean / last > SPLIT):
            out.append([])
        out[-1].append((join(names), values))
        last = mean
    return out


def edge_chart(series: list[tuple[str, list[Fraction]]], decks: tuple[int, ...], title: str, x_title: str,
               y_title: str, join=", ".join) -> str:
    """The chart: one SVG panel per magnitude group, each with axes, axis titles and a legend (the panels sit side
    by side where there is room and one above the other on a phone)."""
    svgs: list[str] = []
    plot_w = WIDTH - LEFT - RIGHT
    lo_d, hi_d = min(decks), max(decks)
    colour = 0

    def x_at(d: int) -> float:
        return LEFT + plot_w * (d - lo_d) / max(1, hi_d - lo_d)

    for group in panels(series, join):
        parts: list[str] = []
        y0 = 0.0
        low = min(min(v) for _n, v in group)
        high = max(max(v) for _n, v in group)
        ticks = _ticks(low, high)
        t0, t1 = ticks[0], ticks[-1]
        top = y0 + TOP

        def y_at(v: Fraction, top: float = top, t0: Fraction = t0, t1: Fraction = t1) -> float:
            return top + PLOT_H * float((t1 - v) / (t1 - t0))

        bottom = top + PLOT_H
        parts.append('<g class="panel">')
        for t in ticks:
            y = y_at(t)
            parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#d9d3c3"/>')
            parts.append(f'<text x="{LEFT - 5}" y="{y + 4:.1f}" text-anchor="end">{_fmt(t)}</text>')
        parts.append(f'<line x1="{LEFT}" y1="{top}" x2="{LEFT}" y2="{bottom}" stroke="#444"/>')
        parts.append(f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + plot_w}" y2="{bottom}" stroke="#444"/>')
        for d in decks:
            x = x_at(d)
            parts.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" stroke="#444"/>')
            parts.append(f'<text x="{x:.1f}" y="{bottom + 17}" text-anchor="middle">{d}</text>')
        parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{bottom + 33}" text-anchor="middle" class="axis-title">'
                     f"{escape(x_title)}</text>")
        mid = top + PLOT_H / 2
        parts.append(f'<text x="13" y="{mid:.1f}" text-anchor="middle" class="axis-title" '
                     f'transform="rotate(-90 13 {mid:.1f})">{escape(y_title)}</text>')
        legend_y = bottom + 52
        for name, values in group:
            color, marker = COLORS[colour % len(COLORS)], MARKERS[colour % len(MARKERS)]
            colour += 1
            points = " ".join(f"{x_at(d):.1f},{y_at(v):.1f}" for d, v in zip(decks, values))
            parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{points}"/>')
            parts.extend(_marker(marker, x_at(d), y_at(v), color) for d, v in zip(decks, values))
            parts.append(f'<line x1="{LEFT}" y1="{legend_y - 4}" x2="{LEFT + 22}" y2="{legend_y - 4}" '
                         f'stroke="{color}" stroke-width="2"/>')
            parts.append(_marker(marker, LEFT + 11, legend_y - 4, color))
            parts.append(f'<text x="{LEFT + 30}" y="{legend_y}" class="legend">{escape(name)}</text>')
            legend_y += 18
        parts.append("</g>")
        height = round(legend_y + 2)
        svgs.append(f'<svg xmlns="http://www.w3.org/2000/svg" class="edge-chart" viewBox="0 0 {WIDTH} {height}" '
                    f'width="{WIDTH}" height="{height}" font-size="{FONT}" role="img" aria-label="{escape(title)}">'
                    f"<title>{escape(title)}</title>" + "".join(parts) + "</svg>")
    return "\n".join(svgs)


def chart_from_rows(rows: list[dict], bet_key: str, decks: tuple[int, ...], title: str, x_title: str,
                    y_title: str, join=", ".join) -> str:
    """The chart of a deck-count table (rows: {bet column: name, deck column: "1.0117 %", …}, columns in the
    order of `decks`); `join` names a series that stands for several bets."""
    if not rows:
        return ""
    series = [(str(r[bet_key]), [_value(v) for k, v in r.items() if k != bet_key]) for r in rows]
    return edge_chart(series, decks, title, x_title, y_title, join)
