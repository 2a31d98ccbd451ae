"""Small line charts drawn as SVG on the server: a play's scores round by round, a player's wins over time.

Pure functions of plain data (no Flask, no chart library in the browser). A chart is inline
SVG that scales to its box (a ``viewBox``, ``width="100%"``): text and axes take the page's
``currentColor``, each line its class (``chart-series-N``, coloured by castellan.css for light
and dark mode), and each line also has its own dash pattern and marker shape, so colour is
never the only way to tell two players apart. It is ``role="img"`` with a ``<title>`` and a
``<desc>``; the page shows the same numbers as a table beside it. Every sentence (title,
description, axis names) comes from the caller, which translates it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from html import escape

WIDTH = 360  # the narrowest phone: one unit of the viewBox is one CSS pixel there
PLOT_HEIGHT = 170
LEFT, RIGHT, TOP = 44, 16, 12  # LEFT: at least; wider for numbers that need it
DIGIT_WIDTH = 0.62  # of the font size: a digit of a phone's sans-serif, a little over
AXIS_BELOW = 40  # tick labels and the axis name under the plot
LEGEND_ROW = 22
FONT_SIZE = 13
MAX_X_TICKS = 8
MAX_POINTS = 60  # of a player's wins over time: more days than this are counted by month
MAX_MARKERS = 40  # markers on one line: beyond, every few points carry one
DASHES = ("", "6 3", "2 3", "8 3 2 3", "10 4", "4 4", "1 5", "12 3 3 3")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "triangle-down", "plus", "bar")


@dataclass(frozen=True)
class Series:
    """One line: its name (a player, or "Wins") and its value at each point of the x axis."""

    name: str
    values: tuple[float, ...]


def line_chart(
    chart_id: str,
    title: str,
    description: str,
    x_name: str,
    xs: list[float],
    x_ticks: list[tuple[float, str]],
    series: list[Series],
    say_number: Callable[[int], str] = str,
) -> str:
    """An SVG line chart: one line per series over the points ``xs``, labelled at ``x_ticks``.

    ``chart_id`` makes the ids of its title and description unique on the page; ``say_number``
    writes the vertical axis's numbers as the reader's language does (``12 000`` in French).
    """
    values = [value for line in series for value in line.values] or [0]
    y_ticks = nice_ticks(min(0, min(values)), max(values))
    y_labels = [say_number(tick) for tick in y_ticks]
    # Room on the left for the widest number ("15,000", "−1 500"), which would otherwise be cut.
    left = max(LEFT, math.ceil(max(map(len, y_labels)) * FONT_SIZE * DIGIT_WIDTH) + 6 + 2)
    x_low, x_high = (min(xs), max(xs)) if xs else (0, 1)
    plot_width = WIDTH - left - RIGHT

    def x_at(x: float) -> float:
        return left + (plot_width * (x - x_low) / (x_high - x_low) if x_high > x_low else plot_width / 2)

    def y_at(y: float) -> float:
        low, high = y_ticks[0], y_ticks[-1]
        return TOP + PLOT_HEIGHT * (high - y) / (high - low)

    legend_rows = math.ceil(len(series) / 2)
    height = TOP + PLOT_HEIGHT + AXIS_BELOW + legend_rows * LEGEND_ROW + 4
    chart_id = escape(chart_id)  # written into attributes: an imported play's id is not this server's
    parts = [
        f'<svg class="chart" id="{chart_id}" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc"'
        f' viewBox="0 0 {WIDTH} {height}" width="100%" font-size="{FONT_SIZE}"'
        f' xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
        '<g class="chart-y" fill="currentColor" text-anchor="end">',
    ]
    for tick, label in zip(y_ticks, y_labels, strict=True):
        y = _num(y_at(tick))
        parts.append(
            f'<line class="chart-grid" x1="{left}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}"'
            f' stroke="currentColor" stroke-opacity="{0.5 if tick == 0 else 0.15}"/>'
            f'<text x="{left - 6}" y="{y}" dy="0.35em" data-value="{_num(tick)}">{escape(label)}</text>'
        )
    parts.append('</g><g class="chart-x" fill="currentColor" text-anchor="middle">')
    base = TOP + PLOT_HEIGHT
    for x, label in x_ticks:
        parts.append(
            f'<text x="{_num(x_at(x))}" y="{base + 18}" data-value="{_num(x)}">{escape(label)}</text>'
        )
    parts.append(
        f'<text class="chart-axis-name" x="{left + plot_width / 2:g}" y="{base + 34}">{escape(x_name)}</text></g>'
    )
    for number, line in enumerate(series):
        points = [(x_at(x), y_at(y)) for x, y in zip(xs, line.values, strict=True)]
        parts.append(_line(number, line.name, points))
    parts.append(_legend(series, base + AXIS_BELOW))
    parts.append("</svg>")
    return "".join(parts)


def rounds_chart(
    chart_id: str,
    title: str,
    description: str,
    x_name: str,
    players: list[str],
    rounds: list[list[int]],
    say_number: Callable[[int], str] = str,
) -> str:
    """Each player's running total after each round (``rounds[r][p]``: player p's points in round r),
    starting from 0 before the first round; ``say_number`` writes the axes' numbers (see ``line_chart``)."""
    totals = [[0] * len(players)]
    for points in rounds:
        totals.append([total + value for total, value in zip(totals[-1], points, strict=True)])
    xs = list(range(len(rounds) + 1))
    step = max(1, math.ceil(len(rounds) / MAX_X_TICKS))
    ticks = [(x, say_number(x)) for x in xs if x % step == 0]
    series = [Series(name, tuple(row[n] for row in totals)) for n, name in enumerate(players)]
    return line_chart(chart_id, title, description, x_name, xs, ticks, series, say_number)


def wins_chart(
    chart_id: str,
    title: str,
    description: str,
    x_name: str,
    names: tuple[str, str],
    counts: list[tuple[date, int, int]],
    label: Callable[[date], str] = date.isoformat,
    say_number: Callable[[int], str] = str,
) -> str:
    """A player's plays and wins counted up over time: ``counts`` holds (a day, the plays so far,
    the wins so far), oldest first (see ``counted_up``); ``names`` the two lines' ("Plays", "Wins");
    ``label`` writes a day under the axis and ``say_number`` a count beside it (as the reader's
    language does)."""
    xs = [day.toordinal() for day, _plays, _wins in counts]
    return line_chart(
        chart_id,
        title,
        description,
        x_name,
        xs,
        _date_ticks(xs, label),
        [
            Series(names[0], tuple(plays for _day, plays, _wins in counts)),
            Series(names[1], tuple(wins for _day, _plays, wins in counts)),
        ],
        say_number,
    )


def counted_up(
    days: list[tuple[date, int, int]], most: int = MAX_POINTS
) -> tuple[str, list[tuple[date, int, int]]]:
    """Plays and wins counted up from each day's (day, plays, wins), oldest first: one point per day,
    or per month (at its last day played) when there would be more than ``most``, so a player of
    thousands of plays still gets a small picture. ``("day" or "month", [(day, plays so far, wins so far)])``."""
    points, plays, wins = [], 0, 0
    for day, day_plays, day_wins in days:
        plays, wins = plays + day_plays, wins + day_wins
        points.append((day, plays, wins))
    if len(points) <= most:
        return "day", points
    by_month = {(day.year, day.month): (day, plays, wins) for day, plays, wins in points}
    return "month", list(by_month.values())


def nice_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round numbers from at or below ``low`` to at or above ``high``, at most ``most`` of them
    (steps of 1, 2 or 5 times a power of ten, never less than 1: scores are whole)."""
    high = max(high, low + 1)
    for power in range(0, 16):
        for factor in (1, 2, 5):
            step = factor * 10**power
            if math.ceil(high / step) - math.floor(low / step) + 1 <= most:
                return [step * n for n in range(math.floor(low / step), math.ceil(high / step) + 1)]
    return [low, high]


def _date_ticks(xs: list[int], label: Callable[[date], str] = date.isoformat) -> list[tuple[float, str]]:
    """The first and last day, written by ``label`` (the page's table gives every day)."""
    if not xs:
        return []
    first, last = xs[0], xs[-1]
    ticks = [(first, label(date.fromordinal(first)))]
    if last != first:
        ticks.append((last, label(date.fromordinal(last))))
    return ticks


def _line(number: int, name: str, points: list[tuple[float, float]]) -> str:
    """One series: its polyline (dashed by its number) and a marker of its own shape at every point
    (every few points on a long line, and always the last)."""
    dash = DASHES[number % len(DASHES)]
    marker = MARKERS[number % len(MARKERS)]
    coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    step = math.ceil(len(points) / MAX_MARKERS) or 1
    marked = points[::step] + ([points[-1]] if (len(points) - 1) % step else [])
    marks = "".join(_marker(marker, x, y) for x, y in marked)
    return (
        f'<g class="chart-series chart-series-{number % len(MARKERS)}" data-name="{escape(name)}">'
        f'<polyline points="{coords}" fill="none" stroke="currentColor" stroke-width="2.5"{dashed}/>'
        f'<g class="chart-markers" fill="currentColor">{marks}</g></g>'
    )


def _marker(shape: str, x: float, y: float, size: float = 4.5) -> str:
    """A small filled shape centred on (x, y)."""
    s = size
    polygons = {
        "square": [(-s, -s), (s, -s), (s, s), (-s, s)],
        "triangle": [(0, -s * 1.2), (s * 1.1, s * 0.8), (-s * 1.1, s * 0.8)],
        "triangle-down": [(0, s * 1.2), (s * 1.1, -s * 0.8), (-s * 1.1, -s * 0.8)],
        "diamond": [(0, -s * 1.3), (s * 1.1, 0), (0, s * 1.3), (-s * 1.1, 0)],
        "bar": [(-s / 3, -s), (s / 3, -s), (s / 3, s), (-s / 3, s)],
    }
    if shape == "circle":
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{s:g}"/>'
    if shape == "cross":
        return (
            f'<path d="M{_num(x - s)},{_num(y - s)}L{_num(x + s)},{_num(y + s)}M{_num(x - s)},{_num(y + s)}'
            f'L{_num(x + s)},{_num(y - s)}" stroke="currentColor" stroke-width="2.5"/>'
        )
    if shape == "plus":
        return (
            f'<path d="M{_num(x - s)},{_num(y)}H{_num(x + s)}M{_num(x)},{_num(y - s)}V{_num(y + s)}"'
            f' stroke="currentColor" stroke-width="2.5"/>'
        )
    points = " ".join(f"{_num(x + dx)},{_num(y + dy)}" for dx, dy in polygons[shape])
    return f'<polygon points="{points}"/>'


def _legend(series: list[Series], top: float) -> str:
    """The lines' names in two columns, each beside a sample of its dash and marker."""
    parts = ['<g class="chart-legend" fill="currentColor">']
    column = (WIDTH - LEFT) / 2
    for number, line in enumerate(series):
        x = LEFT + column * (number % 2)
        y = top + LEGEND_ROW * (number // 2) + LEGEND_ROW / 2
        sample = _line(number, line.name, [(x, y), (x + 26, y)])
        parts.append(
            f'{sample}<text x="{_num(x + 34)}" y="{_num(y)}" dy="0.35em">{escape(_short(line.name))}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def _short(name: str, most: int = 20) -> str:
    """A name that fits half the chart's width (the table beside the chart has it whole)."""
    return name if len(name) <= most else name[: most - 1] + "…"


def _num(value: float) -> str:
    """A coordinate or value written short: 12, 12.5, 12.33."""
    return f"{round(value, 2):g}"
