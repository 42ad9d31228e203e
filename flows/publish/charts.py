"""Pictures of a report drawn by the program as inline SVG (no script, no network, no font but
the page's): a bar per position's contribution to the day's return, and a small price line per
material mover. Each is drawn from the same figures the table states, and carries them as text
(`<title>` and labels), so the picture says nothing the numbers do not.

The SVG is built here as text; every piece of text from data is escaped with `markupsafe`.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

from contract.number_format import format_number, format_percent

BAR_HEIGHT = 18
BAR_GAP = 6
LABEL_WIDTH = 64
VALUE_WIDTH = 78
CHART_WIDTH = 640
POSITIVE, NEGATIVE, AXIS, INK = "#0f6b3a", "#a3261b", "#8b95a1", "#1d232b"


def contribution_chart(
    bars: Sequence[tuple[str, float]], language: str, title: str
) -> Markup | None:
    """Horizontal bars, one per (ticker, contribution in percentage points), around a zero
    line; None without bars."""
    if not bars:
        return None
    extent = max(abs(v) for _, v in bars) or 1.0
    plot = CHART_WIDTH - LABEL_WIDTH - 2 * VALUE_WIDTH
    zero = LABEL_WIDTH + VALUE_WIDTH + plot / 2
    scale = plot / 2 / extent
    height = len(bars) * (BAR_HEIGHT + BAR_GAP) + BAR_GAP
    parts = [
        f'<svg class="chart contributions" role="img" viewBox="0 0 {CHART_WIDTH} {height}" '
        f'width="100%" style="max-width:{CHART_WIDTH}px" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for i, (ticker, value) in enumerate(bars):
        y = BAR_GAP + i * (BAR_HEIGHT + BAR_GAP)
        width = abs(value) * scale
        x = zero if value >= 0 else zero - width
        colour = POSITIVE if value >= 0 else NEGATIVE
        shown = format_percent(value, language, signed=True)
        text_x = zero + width + 4 if value >= 0 else zero - width - 4
        anchor = "start" if value >= 0 else "end"
        mid = y + BAR_HEIGHT / 2 + 4
        parts += [
            f'<g class="bar" data-ticker="{escape(ticker)}" data-value="{value}">',
            f"<title>{escape(ticker)}: {escape(shown)}</title>",
            f'<text x="0" y="{mid:.1f}" font-size="12" font-weight="600" fill="{INK}">'
            f"{escape(ticker)}</text>",
            f'<rect x="{x:.1f}" y="{y}" width="{max(width, 0.5):.1f}" height="{BAR_HEIGHT}" '
            f'fill="{colour}" rx="2"/>',
            f'<text x="{text_x:.1f}" y="{mid:.1f}" font-size="11" fill="{colour}" '
            f'text-anchor="{anchor}">{escape(shown)}</text>',
            "</g>",
        ]
    parts.append(
        f'<line x1="{zero:.1f}" y1="0" x2="{zero:.1f}" y2="{height}" stroke="{AXIS}" '
        'stroke-width="1"/>'
    )
    parts.append("</svg>")
    return Markup("".join(parts))


SPARK_WIDTH, SPARK_HEIGHT, SPARK_PAD = 180, 44, 4


def price_line(points: Sequence[tuple[str, float]], language: str, title: str) -> Markup | None:
    """A small line of (date, close) points, first and last close written beside it; None
    with fewer than two points."""
    if len(points) < 2:
        return None
    closes = [c for _, c in points]
    low, high = min(closes), max(closes)
    span = (high - low) or 1.0
    step = (SPARK_WIDTH - 2 * SPARK_PAD) / (len(points) - 1)

    def y(close: float) -> float:
        return SPARK_PAD + (high - close) / span * (SPARK_HEIGHT - 2 * SPARK_PAD)

    path = " ".join(f"{SPARK_PAD + i * step:.1f},{y(c):.1f}" for i, c in enumerate(closes))
    colour = POSITIVE if closes[-1] >= closes[0] else NEGATIVE
    first, last = format_number(closes[0], language), format_number(closes[-1], language)
    width = SPARK_WIDTH + 150
    end_x, end_y = SPARK_PAD + (len(points) - 1) * step, y(closes[-1])
    return Markup(
        f'<svg class="chart price-line" role="img" viewBox="0 0 {width} {SPARK_HEIGHT}" '
        f'width="{width}" height="{SPARK_HEIGHT}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>"
        f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.6" '
        'stroke-linejoin="round"/>'
        f'<circle cx="{end_x:.1f}" cy="{end_y:.1f}" r="2.5" fill="{colour}"/>'
        f'<text x="{SPARK_WIDTH + 8}" y="16" font-size="11" fill="{AXIS}">'
        f"{escape(points[0][0])}: {escape(first)}</text>"
        f'<text x="{SPARK_WIDTH + 8}" y="34" font-size="11" fill="{INK}">'
        f"{escape(points[-1][0])}: {escape(last)}</text>"
        "</svg>"
    )
