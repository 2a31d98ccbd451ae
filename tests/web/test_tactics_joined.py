"""Square Tactics' lists are joined in views/tactics.py from pieces kept by language (the board's
rows and cells, a hand's buttons, the hands to enter with their boxes, the players' rows): the HTML
is byte for byte what the template's loops over the same macros drew (the hands to enter: its
hand_entry macro, as it was), in every language, picking or not, and a changed cell changes only
its own row."""

from __future__ import annotations

import pytest
from flask import current_app, render_template_string

from companion.web.views import tactics as views
from companion.web.views.tactics import BoardRow, Card, Cards, Cell, HandEntry, PlayerRow

_IMPORT = (
    '{% from "tactics/_macros.html" import board, tcell, card_buttons, card_button, tick_card, held_cards, card_face, '
    "entry_summary, entry_hint, entry_save, player_row %}"
)
# The loops the template drew these lists with before they were joined from Python.
_LOOP_CELLS = (
    _IMPORT
    + "{% for row in rows %}{% for cell in row.cells %}{{ tcell(cell, pick) }}{% endfor %}{% endfor %}"
)
_LOOP_CARDS = _IMPORT + (
    '<div class="hand-cards">{% for card in cards.cards %}{{ card_button(card, 2) }}{% endfor %}</div>|'
    '<div class="hand-cards">{% for card in cards.cards %}<span class="card-button">{{ card_face(card, 2) }}</span>{% endfor %}</div>'
)
_JOINED_CARDS = _IMPORT + "{{ card_buttons(cards, 2) }}|{{ held_cards(cards, 2) }}"
_LOOP_ENTRIES = (
    _IMPORT
    + """
{% macro hand_entry(entry) -%}
{{ entry_summary(entry.own, entry.name, entry.entered, entry.total) }}
  <div class="stack">
    {{ entry_hint(entry.name, entry.total) }}
    <div class="hand-cards tick-cards">
    {%- for card in entry.cards.cards %}{{ tick_card(card, entry.number, 'cards_' ~ entry.player, card.id in entry.ticked) }}{% endfor -%}
    </div>
    {{ entry_save(entry.player, entry.name) }}
  </div>
{%- endmacro %}
      {% for opened, entry in entries %}
      <details class="enter-hand" id="hand-{{ entry.player }}"{{ ' open' if opened else '' }}>
  {{ hand_entry(entry) }}
</details>
      {% endfor %}
|
    {% for row in rows %}{{ player_row(row) }}{% endfor %}
"""
)
_JOINED_ENTRIES = (
    _IMPORT
    + """
{{ tactics_entries(entries, entry_summary, entry_hint, tick_card, entry_save) }}|
{{ tactics_player_rows(player_row, rows) }}"""
)

_CARDS = (
    Card("p2-01", "Pikeman", (4, 5, 5, 4), False),
    Card("p2-02", "Shield <Bearer>", (6, 6, 5, 4), False),
    Card("p2-x", "", (9, 1, 1, 6), True),
)


def _drawn(app, template: str, language: str, **context) -> str:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return render_template_string(template, **context)


def _rows(picked=None, marked="B2", freed=("C1",)) -> tuple[BoardRow, ...]:
    cells = []
    for number, name in enumerate(("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3")):
        card = _CARDS[number % 3] if number % 2 else None
        cell = Cell(
            name,
            1 + number % 3,
            card,
            1 + number % 2 if card else None,
            "NS"[number % 2] if card else None,
            (90 * number) % 360 if card else None,
        )
        cells.append(cell._replace(marked=name == marked, freed=name in freed, picked=name == picked))
    return tuple(BoardRow(tuple(cells[start : start + 3])) for start in (0, 3, 6))


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
@pytest.mark.parametrize("pick", [False, True])
def test_a_boards_cells_are_what_the_loop_draws(app, language, pick):
    rows = _rows(picked="C3")
    sides = {"top": "Ola (N)", "left": "", "right": "", "bottom": "Kuba (S)"}
    looped = _drawn(app, _LOOP_CELLS, language, rows=rows, pick=pick)
    board = '{% from "tactics/_macros.html" import board %}{{ board(rows, 3, sides, pick=pick) }}'
    joined = _drawn(app, board, language, rows=rows, sides=sides, pick=pick)
    assert f"\n{looped}\n" in joined and joined.count('class="tcell') == 9
    assert ("checked" in looped) is pick
    views._PIECES.clear()
    assert _drawn(app, board, language, rows=rows, sides=sides, pick=pick) == joined


def test_a_changed_cell_changes_only_its_row(app):
    with app.test_request_context("/"):
        tcell = current_app.jinja_env.get_template("tactics/_macros.html").module.tcell
        old = [views.tactics_cells(tcell, (row,), False) for row in _rows()]
        new = [views.tactics_cells(tcell, (row,), False) for row in _rows(marked="C3")]
    assert [number for number, (a, b) in enumerate(zip(old, new, strict=True)) if a != b] == [1, 2]
    assert 'value-2 marked empty"><span class="cell-name">B2' in old[1] and "value-3 marked empty" in new[2]


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_a_hands_buttons_are_what_the_loops_draw(app, language):
    cards = Cards(_CARDS)
    looped = _drawn(app, _LOOP_CARDS, language, cards=cards)
    assert _drawn(app, _JOINED_CARDS, language, cards=cards) == looped
    assert looped.count('<button type="submit" name="card"') == 3 and "Shield &lt;Bearer&gt;" in looped


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
def test_the_hands_to_enter_and_the_players_rows_are_what_the_loops_draw(app, language):
    cards = Cards(_CARDS)
    entries = [
        (True, HandEntry("p1", "Ola", True, 1, 3, 1, cards, ("p2-01",))),
        (False, HandEntry("p2", "Kuba <K>", False, 0, 3, 2, Cards(_CARDS[1:]), ())),
    ]
    rows = [
        PlayerRow(1, "Ola", "S", "Marcher Lords", 3, 9, 0, True),
        PlayerRow(2, "Kuba <K>", "N", "Roost", 2, 8, 1, False),
    ]
    looped = _drawn(app, _LOOP_ENTRIES, language, entries=entries, rows=rows)
    assert _drawn(app, _JOINED_ENTRIES, language, entries=entries, rows=rows) == looped
    assert looped.count("<details") == 2 and 'id="hand-p1" open>' in looped and "Kuba &lt;K&gt;" in looped
    assert looped.count(" checked") == 1 and 'name="cards_p2" value="p2-x"' in looped
    assert looped.count("<tr") == 2
