"""A move's cost late in each game's longest table against its cost at the start, end to end.

Part of `make bench`. The real server (`castellan serve`, its default workers) on a free loopback
port; each game's longest table (``bench.bench``'s: a 1,000-round score pad, a Fort game of some
490 actions...) is built in its database up to ``MOVES`` before its last move, and a fresh table
of the same game beside it. Then, in turn, one move at the start of the fresh table and one at
the end of the long one, each through the JSON API on a new connection (so that consecutive
moves go to any of the workers, as several phones' do); the medians, and their ratio (the goal:
at most 1.3). A worker that did not make the table's last move finds what it keeps of the table
a version old: the ratio shows what catching up costs it.

Run alone: `python -m bench.bench_growth`.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_server import ROOT, Server, free_port

MOVES = 61  # timed at each end of a table


class Served(Server):
    """``castellan serve`` as shipped (its default workers) on a free loopback port, stopped on exit."""

    def __init__(self, database: str):
        self.port = free_port()
        command = [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"]
        env = {**os.environ, "CASTELLAN_DATABASE": database, "CASTELLAN_SECRET_KEY": "bench"}
        serve = [*command, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        self.start(serve, ROOT, "castellan", env, subprocess.DEVNULL)


class Moves:
    """Moves to make through the API, table after table, each by the link of the seat that makes it."""

    def __init__(self):
        self.queued: list[tuple[dict, int, str, dict]] = []  # (tokens, version, actor, action)
        self.versions: dict[str, int] = {}  # by table

    def add(self, table, links, moves: list[tuple[str, dict]]) -> None:
        """Queue ``moves`` on ``table``, whose ``links`` make them."""
        tokens = {("referee" if link.role == "referee" else link.seat): link.token for link in links}
        self.versions[table.id] = table.version
        self.queued += [(table.id, tokens[actor], action) for actor, action in moves]

    def next(self, port: int) -> float:
        """Make the next move on a new connection; its time in seconds, to its answer's last byte."""
        table_id, token, action = self.queued.pop(0)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        body = json.dumps({"action": action, "version": self.versions[table_id]})
        start = time.perf_counter()
        conn.request("POST", f"/api/v1/tables/{token}/actions", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        spent = time.perf_counter() - start
        conn.close()
        if response.status != 200:
            raise RuntimeError(f"move refused with {response.status}: {data[:300]!r}")
        self.versions[table_id] = json.loads(data)["version"]
        return spent


def _tables(database: str) -> list[tuple[str, Moves, Moves]]:
    """Each game's (name, early moves, late moves): its first moves, and its longest table's last
    ones before the move that ends it (the score pad: rounds 1,001 on). A game shorter than twice
    ``MOVES`` plays its start and its end on as many tables as it takes."""
    from bench.bench import PAD_ROUNDS, _longest_tables
    from companion import store
    from companion.store import db

    store.migrate(database)
    conn = db.connect(database)
    found = []
    for name, rules, first, moves in _longest_tables(conn):
        if name == "scorepad":
            rng = random.Random("late rounds")
            moves += [
                ("referee", {"type": "round", "points": [rng.randrange(30) for _ in range(3)]})
                for _ in range(MOVES)
            ]
            each, late_from = MOVES, PAD_ROUNDS
        else:
            each = min(MOVES, (len(moves) - 1) // 2)
            late_from = len(moves) - 1 - each
        early, late = Moves(), Moves()
        for _ in range(-(-MOVES // each)):
            table, links = store.create_table(conn, rules, name, first.options, seed=first.seed)
            early.add(table, links, moves[:each])
            table, links = store.create_table(conn, rules, name, first.options, seed=first.seed)
            for actor, action in moves[:late_from]:
                table = store.act(conn, rules, table.id, actor, action, table.version)
            late.add(table, links, moves[late_from : late_from + each])
        found.append((name, early, late))
    conn.close()
    db.dispose(database)
    return found


def main() -> None:
    """Print each game's median move at the start and at the end of its longest table, through the server."""
    from companion import server

    folder = Path(tempfile.mkdtemp())
    database = str(folder / "growth.sqlite3")
    tables = _tables(database)
    with Served(database) as served:
        print(
            f"\nA move at the start and at the end of each game's longest table, through castellan serve"
            f" ({server.default_workers()} workers; JSON API, a new connection each; ms, median of {MOVES}, in turn)"
        )
        for name, early, late in tables:
            times: tuple[list[float], list[float]] = ([], [])
            for _ in range(MOVES):
                times[0].append(early.next(served.port))
                times[1].append(late.next(served.port))
            first, last = (statistics.median(spent) * 1000 for spent in times)
            print(f"  {name:10} start {first:6.2f}  end {last:6.2f}  ratio {last / first:4.2f}")


if __name__ == "__main__":
    main()
