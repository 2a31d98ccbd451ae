"""bench/bench_phases.py, the split of a move's time by phase: it times what it says, and leaves the app as it was."""

from __future__ import annotations

import flask
import pytest

from bench import bench_phases
from companion.web.views import tables


def test_a_moves_phases_add_up_to_its_time_and_the_game_table_is_part_of_the_drawing():
    originals = {
        name: getattr(tables, name) for name in ("_changed", "_render_table", "_open_to_change", "say")
    }
    preprocess = flask.Flask.preprocess_request

    figures = bench_phases.measure(["scorepad", "tactics"], rounds=1, moves=10)

    assert set(figures) == {"scorepad", "tactics"}
    for phases in figures.values():
        timed = [label for label, _where, _name in bench_phases.PHASES]
        assert all(phases[label] > 0 for label in timed), phases
        assert sum(phases[label] for label in timed) + phases["the rest"] == pytest.approx(phases["total"])
        assert 0 < phases[bench_phases.GAME_TABLE] < phases["drawing"]
    # Square Tactics' table (a board, hands and forms) costs more to draw than the score pad's.
    assert figures["tactics"][bench_phases.GAME_TABLE] > figures["scorepad"][bench_phases.GAME_TABLE]
    # Nothing stays wrapped or replaced once measured.
    assert {name: getattr(tables, name) for name in originals} == originals
    assert flask.Flask.preprocess_request is preprocess
