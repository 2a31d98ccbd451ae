"""Where a move through the page spends its time, phase by phase, in process.

`make bench` says how a move compares with bare Flask's; this says where its time goes, so
that a pass at making it faster starts from figures rather than guesses. It makes `make
bench`'s tables (each game halfway through a random game), then plays each game's next moves
as the referee's phone posts them (htmx, gzip), through the app's own WSGI entry, and times
each phase of every move in CPU time of the thread: the mean over the moves, the slowest tenth
left out (a collection of the garbage, the first move on a cold cache), in the round whose
moves took least (a busy moment of a shared machine only ever adds). Means, so that the phases
add up to the whole.

    python -m bench.bench_phases --game tactics --rounds 5

The phases, in the order a move goes through them: Flask's request context made and pushed
(the session opened, the URL matched), the before-request hooks (the CSRF token, the posted
form), the link and its game found, the move itself (``store.act``: the rules, the log, the
state's text, the commit), the answer's words, the answer drawn (of which the game's own
``_table.html``), the after-request hooks (gzip, headers, the session saved), the context
popped; what is left of Flask's dispatch and the view is "the rest".
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

# (what it is called here, where it lives, its name): each timed whenever it runs within a move.
PHASES = (
    ("request context", "flask.Flask", "request_context"),
    ("push (session, URL)", "flask.ctx.RequestContext", "push"),
    ("before hooks (CSRF, form)", "flask.Flask", "preprocess_request"),
    ("link and game", "companion.web.views.tables", "_open_to_change"),
    ("the move (form, store.act)", "companion.web.views.tables", "_changed"),
    ("the answer's words", "companion.web.views.tables", "say"),
    ("drawing", "companion.web.views.tables", "_render_table"),
    ("after hooks (gzip, headers)", "flask.Flask", "finalize_request"),
    ("pop", "flask.ctx.RequestContext", "pop"),
)
GAME_TABLE = "of it, the game's _table.html"
MOVES = 30


def _owner(where: str):
    """The module, or the class in a module, named ``where``."""
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError:
        module, _, name = where.rpartition(".")
        return getattr(importlib.import_module(module), name)


def _timed(spent: dict, label: str, function):
    def timed(*args, **kwargs):
        start = time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.thread_time() - start

    return timed


def _without_game_table(name: str):
    """A render function for a game's ``_table.html`` that draws only its empty root element."""

    def render(_context):
        yield f'<div id="{name}-table"></div>'

    return render


def measure(
    names: list[str] | None = None, rounds: int = 3, moves: int = MOVES
) -> dict[str, dict[str, float]]:
    """Each game's phases (``PHASES``, "the rest", "total", and ``GAME_TABLE`` within the drawing):
    CPU µs a move.

    The game's own ``_table.html`` is timed apart: each round plays the same tables a second
    time with that template drawing nothing, and its time is what the drawing then saves (a
    timer around each piece it writes would cost more than some of them).
    """
    from companion import server
    from companion.app import create_app

    database = str(Path(tempfile.mkdtemp()) / "phases.sqlite3")
    app = create_app({"DATABASE": database, "SECRET_KEY": "bench", "SWEEP_DAYS": 0})
    server.compile_templates(app)
    spent: dict[str, float] = {}
    undo = []
    for label, where, name in PHASES:
        owner = _owner(where)
        undo.append((owner, name, getattr(owner, name)))
        setattr(owner, name, _timed(spent, label, getattr(owner, name)))
    found: dict[str, dict[str, list[float]]] = {}
    try:
        for _round in range(rounds):
            for without in (False, True):
                _play_round(app, names, moves, spent, without, found)
    finally:
        for owner, name, function in undo:
            setattr(owner, name, function)
    least = {}
    for name, passes in found.items():
        phases = min(passes[False], key=lambda phases: phases["total"])
        without = min(passes[True], key=lambda phases: phases["total"])
        least[name] = {**phases, GAME_TABLE: phases["drawing"] - without["drawing"]}
    return least


def _play_round(app, names, moves: int, spent: dict, without: bool, found: dict) -> None:
    """Every game's (or ``names``') next moves on fresh tables; each phase's mean (``_typical``) added
    to ``found``, by game and by ``without`` (the game's template drawing nothing)."""
    from bench.bench_server import _game_tables

    for name, game in _game_tables(app.config["DATABASE"]).items():
        if names and name not in names:
            continue
        template = app.jinja_env.get_template(f"{name}/_table.html")
        render = template.root_render_func
        if without:
            template.root_render_func = _without_game_table(name)
        try:
            per_move = _play(app, game, moves, spent)
        finally:
            template.root_render_func = render
        found.setdefault(name, {False: [], True: []})[without].append(_typical(per_move))


def _typical(per_move: list[dict]) -> dict[str, float]:
    """The moves' mean phases in µs, the slowest tenth of the moves left out."""
    kept = sorted(per_move, key=lambda move: move["total"])[: len(per_move) - len(per_move) // 10]
    labels = {label for move in kept for label in move}
    return {label: statistics.fmean(move.get(label, 0.0) for move in kept) * 1e6 for label in labels}


def _play(app, game: dict, moves: int, spent: dict) -> list[dict]:
    """The game's next ``moves`` moves through the page, as the referee's phone posts them: each
    one's phases, in seconds (a move the page has no form for is made in the database between)."""
    from werkzeug.test import EnvironBuilder

    from bench.bench_server import _csrf
    from companion import store
    from companion.store import db

    client = app.test_client()
    csrf = _csrf(client.get(f"/t/{game['token']}").data)
    cookie = client.get_cookie("session").value
    conn = db.connect(app.config["DATABASE"])
    table, timed = store.get_table(conn, game["table"].id), []
    try:
        for actor, action, form in game["next"]:
            if len(timed) == moves:
                break
            if form is not None:
                environ = EnvironBuilder(
                    path=f"/t/{game['token']}/act",
                    method="POST",
                    data=urlencode({**form, "csrf_token": csrf, "version": table.version}, doseq=True),
                    content_type="application/x-www-form-urlencoded",
                    headers={"HX-Request": "true", "Accept-Encoding": "gzip", "Cookie": f"session={cookie}"},
                ).get_environ()
                status: list[str] = []
                spent.clear()
                start = time.thread_time()
                b"".join(
                    app.wsgi_app(
                        environ, lambda answer, _headers, _error=None, said=status: said.append(answer)
                    )
                )
                total = time.thread_time() - start
                if status[0].startswith("200"):
                    accounted = sum(spent.get(label, 0.0) for label, _where, _name in PHASES)
                    timed.append({**spent, "the rest": total - accounted, "total": total})
                    table = store.get_table(conn, table.id)
                    continue
            table = store.act(conn, game["rules"], table.id, actor, action, table.version)
    finally:
        conn.close()
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--game", action="append", help="a game (again for more); every game by default")
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    from companion import server

    server.freeze_startup_heap()  # the collector as a served worker has it (companion.server.run)
    server.tune_collector()
    figures = measure(arguments.game, arguments.rounds)
    labels = [label for label, _where, _name in PHASES] + ["the rest", "total"]
    labels.insert(labels.index("drawing") + 1, GAME_TABLE)
    names = list(figures)
    print(
        f"A move through the page, in process: CPU µs, the mean of the fastest nine moves in ten, the best of {arguments.rounds} rounds"
    )
    print(f"  {'phase':32}" + "".join(f"{name:>11}" for name in names))
    for label in labels:
        shown = ("  " + label) if label == GAME_TABLE else label
        print(f"  {shown:32}" + "".join(f"{figures[name].get(label, 0.0):11.0f}" for name in names))


if __name__ == "__main__":
    main()
