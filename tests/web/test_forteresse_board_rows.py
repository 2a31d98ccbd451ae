"""Forteresse's boards are joined from kept rows and cells (views/forteresse.py, forteresse_board):
the HTML is what the template draws cell by cell, in the page's language, and a changed cell
changes only its own row."""

from __future__ import annotations

from flask import render_template_string
from markupsafe import Markup

from companion.web.views import forteresse as views

_BOARD = '{% from "forteresse/_board.html" import board %}{{ board(rows, "The board", pick=pick) }}'


def _drawn(app, rows, pick=False, language="en") -> str:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return render_template_string(_BOARD, rows=rows, pick=pick)


def _rows(html: str) -> list[str]:
    """Each row's lines: its number, then its seven cells."""
    lines = html.split("\n")
    starts = [
        i
        for i, line in enumerate(lines)
        if line.startswith('  <span class="axis">') and "</span><span" not in line
    ]
    return ["\n".join(lines[i : i + 8]) for i in starts]


def test_a_board_is_its_rows_of_cells_in_the_pages_language(app):
    rows = views.board(
        walls=["C3"],
        besieged=["D4"],
        killed=["E5"],
        used=[{"from": "A4", "weapon": "rifle", "direction": "E"}],
    )
    english, again, french = _drawn(app, rows), _drawn(app, rows), _drawn(app, rows, language="fr")
    assert english == again
    drawn = _rows(english)
    assert [row.split("\n")[0] for row in drawn] == [f'  <span class="axis">{n}</span>' for n in range(1, 8)]
    assert all(len(row.split("\n")) == 8 for row in drawn)
    assert (
        '<span class="fc inner wall" data-cell="C3"><span class="sr-only">C3</span><span aria-hidden="true">✕</span><span class="sr-only">: wall</span></span>'
        in drawn[2]
    )
    assert ": besieged, killed" in drawn[4] and ": rifle fired E" in drawn[3]
    assert ": wall</span>" not in french and ": mur" in french


def test_a_changed_cell_changes_only_its_row_and_picking_makes_free_cells_buttons(app):
    before = _rows(_drawn(app, views.board(known_empty=["C3"], free=["A2"]), pick=True))
    after = _rows(_drawn(app, views.board(known_empty=["C3", "D5"], free=["A2"]), pick=True))
    assert [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new] == [4]
    assert (
        '<button type="submit" name="from" value="A2" class="fc firing free" data-cell="A2">A2</button>'
        in before[1]
    )
    unpicked = _rows(_drawn(app, views.board(known_empty=["C3"], free=["A2"])))
    assert 'value="A2"' not in unpicked[1] and 'data-cell="A2"' in unpicked[1]


# A shot in words as the template said it before it was said from Python (views/forteresse.py,
# forteresse_shot_words): the reference the round's list, the last shot and the resolver's lines match.
_SAID = (
    """{% macro _said_shot(name, cell, weapon, direction, outcome, at) -%}
{% set arrow = forteresse_arrow(direction) %}{% set answer = forteresse_answer(outcome, at) %}
{%- if name is not none and weapon == 'cannon' %}{% trans %}{{ name }}: cannon from {{ cell }} {{ arrow }} {{ direction }} — <strong>{{ answer }}</strong>{% endtrans %}
{%- elif name is not none %}{% trans %}{{ name }}: rifle from {{ cell }} {{ arrow }} {{ direction }} — <strong>{{ answer }}</strong>{% endtrans %}
{%- elif weapon == 'cannon' %}{% trans %}cannon from {{ cell }} {{ arrow }} {{ direction }} — <strong>{{ answer }}</strong>{% endtrans %}
{%- else %}{% trans %}rifle from {{ cell }} {{ arrow }} {{ direction }} — <strong>{{ answer }}</strong>{% endtrans %}
{%- endif %}
{%- endmacro %}
"""
    '{% from "forteresse/_board.html" import shot_line %}'
    "{{ forteresse_said_shots(shots, names) }}|"
    "{% for shot in shots %}<li>{{ _said_shot(names[shot.shooter], shot.from, shot.weapon, shot.direction, "
    "shot.outcome, shot.cell) }}</li>{% endfor %}|"
    "{% for shot in shots %}<li>{{ forteresse_said_shot(shot, names) }}</li>{% endfor %}|"
    "{% for shot in shots %}{{ shot_line(shot) }}{{ _said_shot(none, shot.from, shot.weapon, shot.direction, "
    "shot.outcome, shot.cell) }}{% endfor %}"
)


def test_the_rounds_shots_are_each_shots_line_kept_by_language_and_name(app):
    shots = [
        {
            "shooter": "a",
            "from": "A4",
            "direction": "E",
            "weapon": "cannon",
            "outcome": "besieged_killed",
            "cell": "D4",
        },
        {
            "shooter": "b",
            "from": "D7",
            "direction": "N",
            "weapon": "cannon",
            "outcome": "wall_destroyed",
            "cell": "D5",
        },
        {"shooter": "b", "from": "G2", "direction": "SW", "weapon": "rifle", "outcome": "wall", "cell": None},
        {"shooter": "a", "from": "A5", "direction": "E", "weapon": "rifle", "outcome": "miss", "cell": None},
    ]
    drawn = {}
    for language, names in (
        ("en", {"a": "Ola", "b": "Kuba <b>"}),
        ("fr", {"a": "Ola", "b": "Kuba <b>"}),
        ("en", {"a": "Ada", "b": "Kuba <b>"}),
        ("fr", {"a": "Ola", "b": "Kuba <b>"}),
    ):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            joined, looped, last, unnamed = render_template_string(_SAID, shots=shots, names=names).split("|")
        assert joined == looped == last  # what the template's trans blocks said, shot by shot
        lines = unnamed.split("</strong>")[:-1]
        assert len(lines) == 8 and all(lines[i] == lines[i + 1] for i in range(0, 8, 2))
        drawn.setdefault((language, names["a"]), joined)
        assert drawn[language, names["a"]] == joined
    assert "<li>Ola: cannon from A4 → E — <strong>Besieged killed at D4.</strong></li>" in drawn["en", "Ola"]
    assert "Kuba &lt;b&gt;: rifle from G2 ↙ SW — <strong>Wall.</strong>" in drawn["en", "Ola"]
    assert "Ada: rifle from A5" in drawn["en", "Ada"] and "Ola" not in drawn["en", "Ada"]
    assert "Kuba &lt;b&gt;" in drawn["fr", "Ola"] and drawn["fr", "Ola"] != drawn["en", "Ola"]


# The board as the template drew it before it was drawn from Python (views/forteresse.py,
# forteresse_board): every cell and row by Jinja macros and loops, the reference it must match.
_JINJA_BOARD = """{% macro _mark_text(cell) -%}
{%- if cell.mark == 'wall' %}<span aria-hidden="true">✕</span><span class="sr-only">{{ _(": wall") }}</span>
{%- elif cell.mark == 'besieged' %}<span aria-hidden="true">◯</span><span class="sr-only">{{ _(": besieged") }}</span>
{%- elif cell.mark == 'destroyed' %}<span aria-hidden="true">✕</span><span class="sr-only">{{ _(": wall, destroyed") }}</span>
{%- elif cell.mark == 'killed' %}<span aria-hidden="true">⊗</span><span class="sr-only">{{ _(": besieged, killed") }}</span>
{%- elif cell.mark == 'known-wall' %}<span aria-hidden="true">✕</span><span class="sr-only">{{ _(": wall (a “Wall.” answer)") }}</span>
{%- elif cell.mark == 'empty-known' %}<span aria-hidden="true">·</span><span class="sr-only">{{ _(": empty") }}</span>
{%- endif %}
{%- if cell.shot %}<span class="shot-mark" aria-hidden="true">{{ _("C") if cell.shot.weapon == 'cannon' else _("R") }}{{ forteresse_arrow(cell.shot.direction) }}</span><span class="sr-only">{% if cell.shot.weapon == 'cannon' %}{{ _(": cannon fired %(direction)s", direction=cell.shot.direction) }}{% else %}{{ _(": rifle fired %(direction)s", direction=cell.shot.direction) }}{% endif %}</span>{% endif %}
{%- endmacro %}
{% macro _board_cell(cell, pick) -%}
{%- set classes = 'fc ' ~ ('firing' if cell.firing else 'inner') ~ (' ' ~ cell.mark if cell.mark else '') ~ (' used' if cell.shot else '') ~ (' aim' if cell.aim else '') ~ (' trail' if cell.trail else '') -%}
{%- if pick and cell.free -%}
<button type="submit" name="from" value="{{ cell.cell }}" class="{{ classes }} free" data-cell="{{ cell.cell }}">{{ cell.cell }}</button>
{%- else -%}
<span class="{{ classes }}" data-cell="{{ cell.cell }}"><span class="sr-only">{{ cell.cell }}</span>{{ _mark_text(cell) }}</span>
{%- endif -%}
{%- endmacro %}
{% macro _board(rows, label, pick=False, id=None) %}
<div class="fort-board{{ ' picking' if pick }}"{% if id %} id="{{ id }}"{% endif %} role="group" aria-label="{{ label }}">
  <span class="axis"></span><span class="axis">A</span><span class="axis">B</span><span class="axis">C</span><span class="axis">D</span><span class="axis">E</span><span class="axis">F</span><span class="axis">G</span>
{% for row in rows %}
  <span class="axis">{{ loop.index }}</span>
{% for cell in row %}
  {{ _board_cell(cell, pick) }}
{% endfor %}
{% endfor %}
</div>
{% endmacro %}
{{ _board(rows, label, pick=pick, id=id) }}"""
_FROM_PYTHON = '{% from "forteresse/_board.html" import board %}{{ board(rows, label, pick=pick, id=id) }}'


def test_a_board_drawn_from_python_is_what_the_jinja_macros_drew(app):
    shots = [
        {"from": cell, "weapon": weapon, "direction": direction}
        for cell, weapon, direction in (
            ("A4", "rifle", "E"),
            ("G2", "cannon", "SW"),
            ("D1", "cannon", "S"),
            ("A1", "rifle", "SE"),
            ("C7", "cannon", "N"),
        )
    ]
    boards = [
        (
            views.board(walls=["C3", "E5"], besieged=["D4"], destroyed=["B2"], killed=["E4"], used=shots),
            False,
            None,
        ),
        (
            views.board(
                known_walls=["C3"],
                known_empty=["D5", "D6"],
                destroyed=["F2"],
                killed=["B4"],
                used=shots,
                free=[c for c in views.forteresse.FIRING_CELLS if c not in {"A4", "G2", "D1", "A1", "C7"}],
            ),
            True,
            "aim-board",
        ),
        (
            views.board(
                known_empty=["C3"], used=shots[:2], free=["A2", "A3"], aim="A3", trail=("B3", "C3", "D3")
            ),
            True,
            None,
        ),
        (views.board(), False, "x<y"),
    ]
    for language in ("en", "fr", "pl"):
        for rows, pick, id_ in boards:
            for label in ("The <board>", Markup("Ola's <em>attacks</em>")):
                with app.test_request_context("/", headers={"Accept-Language": language}):
                    context = {"rows": rows, "pick": pick, "id": id_, "label": label}
                    expected = render_template_string(_JINJA_BOARD, **context)
                    assert render_template_string(_FROM_PYTHON, **context) == expected
                    assert render_template_string(_FROM_PYTHON, **context) == expected  # kept


# The score sheet's table as the template drew it before it was drawn from Python
# (views/forteresse.py, forteresse_score_table): the reference it must match.
_JINJA_SCORE = """{% from "forteresse/_board.html" import score_head, score_rule %}{% macro score_table(sheet, names) %}
<div class="scroll" tabindex="0" role="region" aria-label="{{ _('Score sheet') }}">
<table class="fort-score">
  {{ score_head() }}
  {% for round in sheet.rounds %}
  <tbody>
    <tr class="round-head"><th scope="rowgroup" colspan="5">{{ _("Round %(round)s", round=loop.index) }}</th></tr>
    {% for seat in ['a', 'b'] %}
    <tr><th scope="row">{{ names[seat] }}</th><td>{{ round[seat].killed }}</td><td>{{ round[seat].cannons }}</td><td>{{ round[seat].rifles }}</td><td class="total">{{ round[seat].points }}</td></tr>
    {% endfor %}
  </tbody>
  {% endfor %}
  <tfoot>
    <tr class="round-head"><th scope="rowgroup" colspan="5">{{ _("Final total") if sheet.finished else _("Total so far") }}</th></tr>
    {% for seat in ['a', 'b'] %}
    <tr><th scope="row">{{ names[seat] }}{% if sheet.winner == seat %} <span class="tag">{{ _("winner") }}</span>{% endif %}</th><td colspan="4" class="total" data-seat="{{ seat }}">{{ sheet.totals[seat] }}</td></tr>
    {% endfor %}
  </tfoot>
</table>
</div>
{{ score_rule() }}
{% endmacro %}{{ score_table(sheet, names) }}"""
_SCORE_FROM_PYTHON = '{% from "forteresse/_board.html" import score_table %}{{ score_table(sheet, names) }}'


def test_the_score_sheet_drawn_from_python_is_what_the_jinja_macro_drew(app):
    one = {"a": {"killed": 2, "cannons": 3, "rifles": 4}, "b": {"killed": 5, "cannons": 11, "rifles": 0}}
    two = {"a": {"killed": 0, "cannons": 0, "rifles": 0}, "b": {"killed": 1, "cannons": 1, "rifles": 1}}
    sheets = [
        views.forteresse._sheet(state)
        for state in (
            {"phase": "shooting", "rounds": [{"shots": []}]},
            {"phase": "shooting", "rounds": [{"shots": []}, {"shots": []}]},
            {"phase": "finished", "rounds": [{"shots": []}, {"shots": []}]},
        )
    ]
    sheets += [
        {
            "rounds": [
                {seat: {**one[seat], "points": 17 + len(seat)} for seat in "ab"},
                {seat: {**two[seat], "points": 3} for seat in "ab"},
            ],
            "totals": {"a": 120, "b": 96},
            "winner": winner,
            "finished": winner is not None,
        }
        for winner in (None, "a", "b")
    ]
    for language in ("en", "fr", "pl"):
        for sheet in sheets:
            for names in ({"a": "Ola", "b": "Kuba <b>"}, {"a": "Player A", "b": Markup("<em>B</em>")}):
                with app.test_request_context("/", headers={"Accept-Language": language}):
                    expected = render_template_string(_JINJA_SCORE, sheet=sheet, names=names)
                    assert render_template_string(_SCORE_FROM_PYTHON, sheet=sheet, names=names) == expected
