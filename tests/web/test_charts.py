"""The SVG charts, read back as numbers: each line's points turned back into values through the
axes' own tick labels, as a reader of the picture would."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date, timedelta

from companion.web import charts

SVG = "{http://www.w3.org/2000/svg}"


def _scale(texts):
    """The linear map from coordinate to value that a group of tick labels draws: (coord, value) pairs."""
    (c0, v0), (c1, v1) = texts[0], texts[-1]
    return lambda coord: v0 + (coord - c0) * (v1 - v0) / (c1 - c0)


def read_back(svg: str) -> dict:
    """Each line's name and its points as (x value, y value), read through the tick labels."""
    root = ET.fromstring(svg)
    groups = {g.get("class"): g for g in root.iter(f"{SVG}g")}
    y_ticks = [(float(t.get("y")), float(t.text)) for t in groups["chart-y"].iter(f"{SVG}text")]
    x_ticks = [
        (float(t.get("x")), float(t.get("data-value")))
        for t in groups["chart-x"].iter(f"{SVG}text")
        if t.get("data-value") is not None
    ]
    y_of, x_of = _scale(y_ticks), _scale(x_ticks)
    lines = {}
    plot = [g for g in root if g.tag == f"{SVG}g" and "chart-series" in (g.get("class") or "")]
    for line in plot:
        points = line.find(f"{SVG}polyline").get("points").split()
        lines[line.get("data-name")] = [
            (round(x_of(float(x))), round(y_of(float(y)), 1))
            for x, y in (point.split(",") for point in points)
        ]
    return {"lines": lines, "root": root}


def test_a_plays_rounds_read_back_as_running_totals_from_zero():
    svg = charts.rounds_chart(
        "play-1",
        "Scores by round",
        "Ola leads.",
        "Round",
        ["Ola", "Kuba", "Ewa"],
        [[5, 3, 1], [2, 8, -4], [10, 0, 2]],
    )
    read = read_back(svg)
    assert read["lines"] == {
        "Ola": [(0, 0), (1, 5), (2, 7), (3, 17)],
        "Kuba": [(0, 0), (1, 3), (2, 11), (3, 11)],
        "Ewa": [(0, 0), (1, 1), (2, -3), (3, -1)],
    }


def test_a_chart_says_what_it_shows_and_sizes_to_the_phone():
    svg = charts.rounds_chart(
        "play-1", "Scores by round", "Ola won with 17.", "Round", ["Ola", "Kuba"], [[5, 3]]
    )
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "play-1-title play-1-desc"
    assert root.find(f"{SVG}title").text == "Scores by round"
    assert root.find(f"{SVG}desc").text == "Ola won with 17."
    assert root.get("width") == "100%" and root.get("viewBox").startswith("0 0 360 ")


def test_each_line_has_its_own_dash_and_marker_and_its_name_in_the_legend():
    names = [f"P{n}" for n in range(8)]
    svg = charts.rounds_chart("c", "t", "d", "Round", names, [[n for n in range(8)]])
    root = ET.fromstring(svg)
    plot = [g for g in root if g.tag == f"{SVG}g" and "chart-series" in (g.get("class") or "")]
    styles = {
        (
            g.find(f"{SVG}polyline").get("stroke-dasharray"),
            g.find(f"{SVG}g")[0].tag,
            len(g.find(f"{SVG}g")[0].get("points", "").split()),
        )
        for g in plot
    }
    assert len(styles) == 8  # no two players drawn alike, whatever the colours look like
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == names


def test_names_are_escaped_and_long_ones_shortened_in_the_legend_only():
    svg = charts.rounds_chart("c", "<b>", "d", "Round", ["Ola & <Kuba>", "A" * 24], [[1, 2]])
    root = ET.fromstring(svg)  # parses: nothing unescaped
    assert root.find(f"{SVG}title").text == "<b>"
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == ["Ola & <Kuba>", "A" * 19 + "…"]
    assert read_back(svg)["lines"]["A" * 24] == [(0, 0), (1, 2)]


def test_many_rounds_keep_at_most_eight_labels_on_the_x_axis():
    svg = charts.rounds_chart("c", "t", "d", "Round", ["Ola"], [[1]] * 30)
    root = ET.fromstring(svg)
    x_axis = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-x")
    labels = [t.text for t in x_axis.iter(f"{SVG}text") if t.get("data-value") is not None]
    assert labels == ["0", "4", "8", "12", "16", "20", "24", "28"]
    assert read_back(svg)["lines"]["Ola"][-1] == (30, 30)


def test_wins_over_time_count_up_plays_and_wins_by_date():
    days = [
        (date(2026, 1, 1), True),
        (date(2026, 1, 11), False),
        (date(2026, 1, 21), True),
        (date(2026, 1, 31), True),
    ]
    unit, counts = charts.counted_up([(day, 1, int(won)) for day, won in days])
    assert unit == "day"
    svg = charts.wins_chart("w", "Wins over time", "3 wins in 4 plays.", "Date", ("Plays", "Wins"), counts)
    lines = read_back(svg)["lines"]
    first = date(2026, 1, 1).toordinal()
    assert lines["Plays"] == [(first, 1), (first + 10, 2), (first + 20, 3), (first + 30, 4)]
    assert lines["Wins"] == [(first, 1), (first + 10, 1), (first + 20, 2), (first + 30, 3)]
    x_axis = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "chart-x")
    assert [t.text for t in x_axis.iter(f"{SVG}text")][:2] == ["2026-01-01", "2026-01-31"]


def test_one_play_on_one_day_is_drawn_in_the_middle():
    svg = charts.wins_chart("w", "t", "d", "Date", ("Plays", "Wins"), [(date(2026, 3, 1), 1, 0)])
    root = ET.fromstring(svg)
    plot = [g for g in root if g.tag == f"{SVG}g" and "chart-series" in (g.get("class") or "")]
    assert (
        plot[0]
        .find(f"{SVG}polyline")
        .get("points")
        .startswith(f"{charts.LEFT + (360 - charts.LEFT - charts.RIGHT) / 2:g},")
    )


def test_ticks_are_round_numbers_that_cover_the_values():
    assert charts.nice_ticks(0, 47) == [0, 10, 20, 30, 40, 50]
    assert charts.nice_ticks(-7, 13) == [-10, -5, 0, 5, 10, 15]
    assert charts.nice_ticks(0, 0) == [0, 1]
    assert charts.nice_ticks(0, 3) == [0, 1, 2, 3]
    assert charts.nice_ticks(0, 123456) == [0, 50000, 100000, 150000]


def test_days_count_up_and_a_long_record_is_counted_by_month():
    assert charts.counted_up([(date(2026, 5, 2), 2, 1), (date(2026, 5, 3), 1, 1)]) == (
        "day",
        [(date(2026, 5, 2), 2, 1), (date(2026, 5, 3), 3, 2)],
    )
    days = [(date(2026, 1, 1) + timedelta(days=n), 1, int(n % 3 == 0)) for n in range(90)]  # January to March
    unit, counts = charts.counted_up(days, most=60)
    assert unit == "month"
    assert counts == [(date(2026, 1, 31), 31, 11), (date(2026, 2, 28), 59, 20), (date(2026, 3, 31), 90, 30)]


def test_a_long_line_carries_a_marker_every_few_points_and_on_its_last():
    svg = charts.rounds_chart("c", "t", "d", "Round", ["Ola"], [[1]] * 100)
    root = ET.fromstring(svg)
    plot = next(g for g in root if g.tag == f"{SVG}g" and "chart-series" in (g.get("class") or ""))
    marks = [(float(c.get("cx")), float(c.get("cy"))) for c in plot.iter(f"{SVG}circle")]
    assert len(marks) <= charts.MAX_MARKERS + 1
    assert marks[-1] == tuple(
        float(v) for v in plot.find(f"{SVG}polyline").get("points").split()[-1].split(",")
    )


def test_the_vertical_axis_makes_room_for_its_widest_number_as_the_reader_writes_it():
    """Totals in the thousands, written with the reader's grouping ("15,000"): the chart moves its
    plot right so that no number is cut at the left edge; small numbers keep the usual margin."""

    def grouped(value: int) -> str:
        return f"{value:,}"

    def labels(svg: str) -> dict[str, tuple[float, str]]:
        return {
            value: (float(x), label)
            for x, value, label in re.findall(
                r'<text x="([\d.]+)" y="[^"]+" dy="0.35em" data-value="(-?\d+)">([^<]+)</text>', svg
            )
        }

    big = labels(
        charts.rounds_chart(
            "big", "t", "d", "Round", ["Ola", "Kuba"], [[6000, 3000], [6000, 4000], [900, 5000]], grouped
        )
    )
    assert big["15000"][1] == "15,000" and big["5000"][1] == "5,000"
    for x, label in big.values():  # each number's right end at x: its start within the chart
        assert x - len(label) * charts.FONT_SIZE * charts.DIGIT_WIDTH >= 0, (x, label)
    small = labels(
        charts.rounds_chart("small", "t", "d", "Round", ["Ola", "Kuba"], [[5, 3], [2, 8]], grouped)
    )
    assert {x for x, _label in small.values()} == {charts.LEFT - 6}
