"""Benchmarks to rerun (`make bench`): what a phone downloads, and what an action costs.

Not a test: it prints numbers. Timings are medians of repeated runs on this machine;
compare runs on the same machine, not across machines.
"""

from __future__ import annotations

import gzip
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion import create_app, db, store
from companion.rules import scorepad
from tests import bench_pdf, bench_plays, bench_server, bench_tactics
from tests.conftest import Browser


def main() -> None:
    """Print page weights, action costs by table length, and PDF build times."""
    folder = Path(tempfile.mkdtemp())
    app = create_app({"DATABASE": str(folder / "bench.sqlite3"), "SECRET_KEY": "bench"})
    _page_weights(app)
    _action_costs(str(folder / "actions.sqlite3"))
    _action_costs_on_postgresql()
    bench_pdf.main()
    bench_server.main()
    bench_tactics.main()
    bench_plays.main()


def _page_weights(app) -> None:
    phone = Browser(app.test_client())
    token = phone.create_table("scorepad", {"players": "Ola\nKuba\nAda"})
    live = phone.get(f"/t/{token}/live")
    pages = {
        "home /": phone.get("/").data,
        "table page": phone.get(f"/t/{token}").data,
        "live fragment": live.data,
        "live poll, unchanged (304)": phone.get(
            f"/t/{token}/live", headers={"If-None-Match": live.headers["ETag"]}
        ).data,
        "castellan.css": phone.get("/static/castellan.css").data,
        "castellan.js": phone.get("/static/castellan.js").data,
        "htmx": phone.get("/static/vendor/htmx-2.0.11.min.js").data,
    }
    print("\nWhat a phone downloads (bytes; gzip as a proxy would serve it)")
    for name, body in pages.items():
        print(f"  {name:32} {len(body):8,}  {len(gzip.compress(body)):8,} gz")
    for game in ("", "castle/", "fort/", "forteresse/", "zamek/", "tactics/"):
        body = phone.get(f"/{game}").data
        print(f"  /{game:31} {len(body):8,}  {len(gzip.compress(body)):8,} gz")


def _action_costs_on_postgresql() -> None:
    """The same on a throwaway PostgreSQL server (tests/pg.py), when the postgresql package is installed."""
    from tests.pg import Server, binaries

    try:
        binaries()
    except RuntimeError as missing:
        print(f"\nPostgreSQL skipped: {missing}")
        return
    server = Server()
    try:
        _action_costs(server.new_database())
    finally:
        server.stop()


def _action_costs(database: str) -> None:
    """What one move costs at the end of each game's longest realistic table, against its first.

    The table is the longest of ``GAMES_PLAYED`` random games (the score pad: ``PAD_ROUNDS``
    rounds). At the first move and at the last one that leaves the game going (the move that
    ends a game also records its play, once: not a cost that grows with the log), the move is
    made and undone 15 times: the medians of both, and the ratio last/first of the move (the
    goal: at most 1.2). Times are
    this process's CPU time: on a shared machine, wall-clock medians were mostly the other
    processes (a PostgreSQL server's own work is not counted).
    """
    db.migrate(database)
    conn = db.connect(database)
    print(f"\nCost of one move at the first and at the last move of each game's longest table ({db.url(database).split(':')[0]}; CPU ms, median of 15)")
    for name, rules, table, moves in _longest_tables(conn):
        figures, state, going = [], table.state, 0
        for number, (actor, action) in enumerate(moves):
            state = rules.apply(state, action, actor)
            going = number if rules.result(state, False) is None else going
        for position in (0, going):
            for actor, action in moves[:position]:
                table = store.act(conn, rules, table.id, actor, action, table.version)
            actor, action = moves[position]
            acts, undos = [], []
            for _ in range(15):
                start = time.process_time()
                table = store.act(conn, rules, table.id, actor, action, table.version)
                acts.append(time.process_time() - start)
                start = time.process_time()
                table = store.undo(conn, rules, table.id, table.version)
                undos.append(time.process_time() - start)
            figures.append((statistics.median(acts) * 1000, statistics.median(undos) * 1000))
        (first, first_undo), (last, last_undo) = figures
        print(
            f"  {name:10} {len(moves):5} moves: move 1 {first:6.2f}  move {going + 1:<5} {last:6.2f}"
            f"  ratio {last / first:4.2f}   undo {first_undo:6.2f} -> {last_undo:6.2f}"
        )
    conn.close()
    db.engine(database).dispose()


GAMES_PLAYED = 6
PAD_ROUNDS = 1000
BENCH_OPTIONS = {
    "forteresse": {"mode": "phones", "first": "a"},
    "fort": {"players": 4},
    "tactics": {"players": 4, "factions": {"p1": "wardens", "p2": "shieldwall", "p3": "roost", "p4": "marches"}},
    "zamek": {"variant": "extended", "players": ["Ola", "Kuba", "Ada", "Jan"]},
    "castle": {"players": 4, "dealer": "E"},
}


def _longest_tables(conn):
    """(game, rules, table, moves): the longest of a few random games of each game (from new
    tables: chance comes from the table's seed), and a long score pad."""
    import importlib

    rng = random.Random("bench")
    pad, _links = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Kuba", "Ada"]})
    yield "scorepad", scorepad, pad, [
        ("referee", {"type": "round", "points": [rng.randrange(30) for _ in range(3)]}) for _ in range(PAD_ROUNDS)
    ]
    for name, options in BENCH_OPTIONS.items():
        rules = importlib.import_module(f"companion.rules.{name}")
        longest: tuple = (None, [])
        for number in range(GAMES_PLAYED):
            game_rng = random.Random(f"{name}-{number}")
            table, _links = store.create_table(conn, rules, name, options)
            state, moves = table.state, []
            while (chosen := rules.random_legal_action(state, game_rng)) is not None and len(moves) < 5000:
                moves.append(chosen)
                state = rules.apply(state, chosen[1], chosen[0])
            longest = max(longest, (table, moves), key=lambda pair: len(pair[1]))
        yield name, rules, *longest


if __name__ == "__main__":
    main()
