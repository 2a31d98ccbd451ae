"""Forteresse's boards are joined from kept rows and cells (views/forteresse.py, forteresse_rows):
the HTML is what the template draws cell by cell, in the page's language, and a changed cell
changes only its own row."""

from __future__ import annotations

from flask import render_template_string

from companion.views import forteresse as views

_BOARD = '{% from "forteresse/_board.html" import board %}{{ board(rows, "The board", pick=pick) }}'


def _drawn(app, rows, pick=False, language="en") -> str:
    with app.test_request_context("/", headers={"Accept-Language": language}):
        return render_template_string(_BOARD, rows=rows, pick=pick)


def _rows(html: str) -> list[str]:
    """Each row's lines: its number, then its seven cells."""
    lines = html.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith('  <span class="axis">') and "</span><span" not in line]
    return ["\n".join(lines[i:i + 8]) for i in starts]


def test_a_board_is_its_rows_of_cells_in_the_pages_language(app):
    rows = views.board(walls=["C3"], besieged=["D4"], killed=["E5"], used=[{"from": "A4", "weapon": "rifle", "direction": "E"}])
    english, again, french = _drawn(app, rows), _drawn(app, rows), _drawn(app, rows, language="fr")
    assert english == again
    drawn = _rows(english)
    assert [row.split("\n")[0] for row in drawn] == [f'  <span class="axis">{n}</span>' for n in range(1, 8)]
    assert all(len(row.split("\n")) == 8 for row in drawn)
    assert '<span class="fc inner wall" data-cell="C3"><span class="sr-only">C3</span><span aria-hidden="true">✕</span><span class="sr-only">: wall</span></span>' in drawn[2]
    assert ': besieged, killed' in drawn[4] and ': rifle fired E' in drawn[3]
    assert ': wall</span>' not in french and ': mur' in french


def test_a_changed_cell_changes_only_its_row_and_picking_makes_free_cells_buttons(app):
    before = _rows(_drawn(app, views.board(known_empty=["C3"], free=["A2"]), pick=True))
    after = _rows(_drawn(app, views.board(known_empty=["C3", "D5"], free=["A2"]), pick=True))
    assert [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new] == [4]
    assert '<button type="submit" name="from" value="A2" class="fc firing free" data-cell="A2">A2</button>' in before[1]
    unpicked = _rows(_drawn(app, views.board(known_empty=["C3"], free=["A2"])))
    assert 'value="A2"' not in unpicked[1] and 'data-cell="A2"' in unpicked[1]


_SAID = ('{% from "forteresse/_board.html" import said_shot, shot_line %}'
         '{{ forteresse_said_shots(said_shot, shots, names) }}|'
         '{% for shot in shots %}<li>{{ shot_line(shot, names) }}</li>{% endfor %}')


def test_the_rounds_shots_are_each_shots_line_kept_by_language_and_name(app):
    shots = [{"shooter": "a", "from": "A4", "direction": "E", "weapon": "cannon", "outcome": "besieged_killed", "cell": "D4"},
             {"shooter": "b", "from": "G2", "direction": "SW", "weapon": "rifle", "outcome": "wall", "cell": None},
             {"shooter": "a", "from": "A5", "direction": "E", "weapon": "rifle", "outcome": "miss", "cell": None}]
    drawn = {}
    for language, names in (("en", {"a": "Ola", "b": "Kuba <b>"}), ("fr", {"a": "Ola", "b": "Kuba <b>"}),
                            ("en", {"a": "Ada", "b": "Kuba <b>"}), ("fr", {"a": "Ola", "b": "Kuba <b>"})):
        with app.test_request_context("/", headers={"Accept-Language": language}):
            joined, looped = render_template_string(_SAID, shots=shots, names=names).split("|")
        assert joined == looped  # what the template's own loop over the shot lines draws
        drawn.setdefault((language, names["a"]), joined)
        assert drawn[language, names["a"]] == joined
    assert "<li>Ola: cannon from A4 → E — <strong>Besieged killed at D4.</strong></li>" in drawn["en", "Ola"]
    assert "Kuba &lt;b&gt;: rifle from G2 ↙ SW — <strong>Wall.</strong>" in drawn["en", "Ola"]
    assert "Ada: rifle from A5" in drawn["en", "Ada"] and "Ola" not in drawn["en", "Ada"]
    assert "Kuba &lt;b&gt;" in drawn["fr", "Ola"] and drawn["fr", "Ola"] != drawn["en", "Ola"]
