"""Castle's piles and players' table are drawn and joined in Python (views/castle.py, castle_piles and
castle_seats): the HTML is byte for byte what the template's macros drew, kept here as the reference,
for every kind of pile in English, French and Polish."""

from __future__ import annotations

import itertools

import pytest
from flask import render_template_string

from companion.web.views.castle import Cell, Grid, Row, Seat

# The pile and players' table macros as castle/_grid.html and castle/_table.html had them.
_OLD_PILE = """{% from "_cards.html" import card %}{% from "castle/_grid.html" import pile_value, pile_height %}
{% macro _pile(cell, pick, checked, tap) %}
  {% set marked = (' legal' if cell.legal == true else '') ~ (' illegal' if cell.legal == false else '') %}
  {% set classes = 'pile' ~ ('' if tap else marked) ~ (' highlight' if cell.highlight else '') ~ (' last' if cell.last else '') %}
  {% if pick %}<label class="{{ classes }}"><input type="radio" name="{{ pick }}" value="{{ cell.pile }}"{{ ' checked' if checked }}>
  {% elif tap %}<button type="submit" name="{{ tap }}" value="{{ cell.pile }}" class="{{ classes }}">
  {% else %}<div class="{{ classes }}">{% endif %}
    <span class="pile-name">{{ cell.pile }}</span>
    {% if tap or cell.legal is not none %}<span class="pile-mark{{ marked }}"{% if tap %} id="mark-{{ cell.pile }}"{% endif %}>{% if cell.legal is not none %}<span aria-hidden="true">{{ '✓' if cell.legal else '✗' }}</span><span class="sr-only">{{ _('may go here') if cell.legal else _('may not go here') }}</span>{% endif %}</span>{% endif %}
    {{ card(cell.card) }}
    {% if cell.value is not none %}{{ pile_value(cell.value) }}{% endif %}
    {% if cell.height %}{{ pile_height(cell.height) }}{% endif %}
    {% if cell.last %}<span class="pile-last">{{ _('last move') }}</span>{% endif %}
  {% if pick %}</label>{% elif tap %}</button>{% else %}</div>{% endif %}
{% endmacro %}
{% macro _castle_grid(rows, pick=None, target=None, label=None, tap=None) %}
<div class="castle" role="{{ 'radiogroup' if pick else 'group' }}" aria-label="{{ label or _('The castle') }}">
  {% for row in rows %}{% for cell in row %}{{ _pile(cell, pick, cell.pile == target if pick else None, tap) }}{% endfor %}{% endfor %}
</div>
{% endmacro %}{{ _castle_grid(rows, pick, target, label, tap) }}"""
_NEW_PILE = """{% from "castle/_grid.html" import castle_grid %}{{ castle_grid(rows, pick=pick, target=target, label=label, tap=tap) }}"""

_OLD_SEATS = """{% macro _seat_row(seat, current, dealer) %}<tr{{ ' class=current' if current }}><th scope="row">{{ seat.name | seat_name }}{% if dealer %} <span class="tag">{{ _('dealer') }}</span>{% endif %}</th><td>{{ seat.cards }}</td><td>{{ seat.turns_left }}</td></tr>{% endmacro %}
{% macro _seats(seats, turn, dealer) %}
  <div class="scroll" tabindex="0" role="region" aria-label="{{ _('Players') }}">
  <table class="seats">
    <thead><tr><th scope="col">{{ _('Player') }}</th><th scope="col">{{ _('Cards in hand') }}</th><th scope="col">{{ _('Turns left') }}</th></tr></thead>
    <tbody>
    {% for seat in seats %}
      {{ _seat_row(seat, seat.seat == turn, seat.seat == dealer) }}
    {% endfor %}
    </tbody>
  </table>
  </div>{% endmacro %}{{ _seats(seats, turn, dealer) }}"""
_NEW_SEATS = """{% from "castle/_macros.html" import seat_row, seats_head %}{{ castle_seats(seats_head, seat_row, seats, turn, dealer) }}"""


def _drawn(app, template: str, language: str, **values) -> str:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return render_template_string(template, **values)


def _cells():
    """Piles of every kind: empty or topped, each mark, last or not, highlighted or not."""
    for n, (legal, last, highlight, top) in enumerate(
        itertools.product(
            (None, True, False),
            (False, True),
            (False, True),
            ((None, None, None), ("QH", 3, 1), ("10S", -2, 4)),
        )
    ):
        yield Cell(f"{'ABCD'[n % 4]}{n % 3 + 1}", *top, legal, last, highlight)


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
@pytest.mark.parametrize(
    "mode", [{}, {"tap": "pile", "label": "Tap the pile"}, {"pick": "pile", "target": "B2"}]
)
def test_piles_are_drawn_as_the_pile_macro_drew_them(app, language, mode):
    cells = list(_cells())
    rows = Grid(Row(cells[i : i + 4]) for i in range(0, len(cells), 4))
    values = {"pick": None, "target": None, "label": None, "tap": None, **mode, "rows": rows}
    new = _drawn(app, _NEW_PILE, language, **values)
    assert new == _drawn(app, _OLD_PILE, language, **values)
    assert new == _drawn(app, _NEW_PILE, language, **values)  # kept: the same again
    assert new.count('class="pile-name"') == len(cells)
    if mode.get("tap"):
        assert 'id="mark-A1"' in new
    # The calculator's and the help page's piles are dicts.
    dicts = [[cell._asdict() for cell in row] for row in rows]
    assert _drawn(app, _NEW_PILE, language, **{**values, "rows": dicts}) == new


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_the_players_table_is_drawn_as_its_macro_drew_it(app, language):
    seats = (
        Seat("N", "North", 8, 3),
        Seat("E", "Ola & <Kuba>", 0, 0),
        Seat("S", "South", 10, 5),
        Seat("W", "", 9, 4),
    )
    for turn, dealer in (("E", "N"), ("N", "N"), (None, "W")):
        values = {"seats": seats, "turn": turn, "dealer": dealer}
        new = _drawn(app, _NEW_SEATS, language, **values)
        assert new == _drawn(app, _OLD_SEATS, language, **values)
        assert "Ola &amp; &lt;Kuba&gt;" in new and new.count("<tr") == 5
