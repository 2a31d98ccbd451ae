"""A move through the page against two floors: bare Flask's post (``make bench``'s), and bare Flask
writing the move to SQLite as durably as Castellan does (WAL, ``synchronous = NORMAL``, the head
row read, a log row inserted, the head updated, a commit). All three under Castellan's gunicorn
(1 worker x 8 threads), one phone, interleaved rounds: how much of the gap the write explains.

    python -m bench.bench_floor [--rounds N] [GAME ...]

Not part of ``make bench``: docs/deploy.md ("A bare Flask move that writes") gives its figures.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import threading
from pathlib import Path

from bench.bench_server import Phone, Server, _game_move_times, _game_tables, _moves_per_second

MOVES = 30


def writing_app(database: str):
    """Bare Flask whose post writes the move: a connection per thread, one transaction a move."""
    from flask import Flask, request

    app = Flask("bare_writing", template_folder=None)
    local = threading.local()
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE IF NOT EXISTS head (id INTEGER PRIMARY KEY, version INTEGER, state TEXT)")
        conn.execute("CREATE TABLE IF NOT EXISTS log (seq INTEGER PRIMARY KEY, action TEXT, at TEXT)")
        conn.execute("INSERT OR IGNORE INTO head VALUES (1, 0, '{}')")

    def connection() -> sqlite3.Connection:
        if getattr(local, "conn", None) is None:
            local.conn = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
            local.conn.execute("PRAGMA synchronous = NORMAL")
        return local.conn

    @app.post("/act")
    def act():
        points = request.form.getlist("points")
        conn = connection()
        conn.execute("BEGIN IMMEDIATE")
        version = conn.execute("SELECT version FROM head WHERE id = 1").fetchone()[0] + 1
        conn.execute(
            "INSERT INTO log (action, at) VALUES (?, datetime('now'))",
            (json.dumps({"type": "round", "points": points}),),
        )
        conn.execute(
            "UPDATE head SET version = ?, state = ? WHERE id = 1",
            (version, json.dumps({"rounds": version, "last": points})),
        )
        conn.execute("COMMIT")
        return f"<p>{version}</p>"

    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument(
        "games", nargs="*", help="only these games (scorepad, forteresse, fort, tactics, zamek, castle)"
    )
    args = parser.parse_args(argv)
    from companion import store

    folder = Path(tempfile.mkdtemp())
    database = str(folder / "castellan.sqlite3")
    store.migrate(database)
    with (
        Server("bare", folder, 1) as bare,
        Server("castellan", folder, 1, database) as castellan,
        Server("writing", folder, 1, str(folder / "writing.sqlite3")) as writing,
    ):
        rates: dict[str, list[tuple[float, float, float]]] = {}
        for _ in range(args.rounds):
            for name, game in _game_tables(database).items():
                if args.games and name not in args.games:
                    continue
                floor = _moves_per_second(Phone(bare.port), "/act", {"points": ""}, MOVES)
                written = _moves_per_second(Phone(writing.port), "/act", {"points": ""}, MOVES)
                times = _game_move_times(Phone(castellan.port), database, game, MOVES)
                rates.setdefault(name, []).append((floor, written, len(times) / sum(times)))
    print("A move through the page against bare Flask and bare Flask writing it (moves/s, median of rounds)")
    for name, runs in rates.items():
        floor, written, moved = (statistics.median(run[i] for run in runs) for i in range(3))
        print(
            f"  {name:10} bare {floor:6,.0f}  bare writing {written:6,.0f} ({written / floor:.2f} of bare)  "
            f"Castellan {moved:5,.0f}  ratio {moved / floor:.2f}, to the writing floor {moved / written:.2f}"
        )


if __name__ == "__main__":
    main()
