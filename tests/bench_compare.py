"""Two checkouts of Castellan side by side: the same game's moves through the page on each, in turn.

`make bench` gives each figure as a ratio to bare Flask, and between two runs a ratio moves by
0.03 or more on a shared machine: too much to see a change of a few per cent. This serves this
checkout and another one (a folder holding an older commit, e.g. made by `git worktree add`) at
the same time, one gunicorn worker each, and times one phone making a game's next 30 moves
(htmx posts, as in `make bench`) on one and then on the other, in alternating order, for a
number of rounds; each round's median per side, and the median of those.

    git worktree add /tmp/before main~3
    python -m tests.bench_compare /tmp/before --game tactics --rounds 8

The other checkout runs on this checkout's Python and packages, and must have the same database
schema (this checkout writes the tables both play on). wrk (`make bench` installs it) first opens
every thread of each worker, as a busy hall would have.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from tests.bench_server import Phone, _csrf, _game_tables, _moves_per_second

HERE = Path(__file__).resolve().parent.parent
MOVES = 30


def _serve(folder: Path, kind: str, database: str) -> tuple[subprocess.Popen, int]:
    """``folder``'s Castellan (or bare Flask) on a free loopback port, one worker; once it answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.bench_server", "--serve", kind, str(port), database, "1"], cwd=folder
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, port
        except OSError:
            if time.monotonic() > deadline:
                process.terminate()
                raise RuntimeError(f"{folder} did not start serving") from None
            time.sleep(0.2)


def _moves(port: int, database: str, name: str) -> tuple[float, float]:
    """One phone making a fresh table's next moves (``MOVES``) through the page: their median and
    their mean, in µs (``make bench`` counts moves a second: the mean, first moves on a table new to
    the worker included)."""
    from companion import db, store

    game = _game_tables(database)[name]
    phone = Phone(port)
    _, page = phone.request("GET", f"/t/{game['token']}", headers={"Accept-Encoding": "identity"})
    csrf, conn = _csrf(page), db.connect(database)
    table, times = store.get_table(conn, game["table"].id), []
    for actor, action, form in game["next"]:
        if len(times) == MOVES:
            break
        if form is not None:
            start = time.perf_counter()
            body = urlencode({**form, "csrf_token": csrf, "version": table.version}, doseq=True)
            response, _ = phone.request("POST", f"/t/{game['token']}/act", body, {"HX-Request": "true"})
            if response.status == 200:
                times.append(time.perf_counter() - start)
                table = store.get_table(conn, table.id)
                continue
        table = store.act(conn, game["rules"], table.id, actor, action, table.version)
    conn.close()
    return statistics.median(times) * 1e6, statistics.mean(times) * 1e6


def main(other: Path, name: str, rounds: int) -> None:
    scratch = Path(tempfile.mkdtemp())
    sides, started = [], []
    try:
        for number, folder in enumerate((HERE, other)):
            database = str(scratch / f"{number}.sqlite3")  # each server makes its own (same schema)
            process, port = _serve(folder, "castellan", database)
            started.append(process)
            sides.append((folder, database, port))
        bare, bare_port = _serve(HERE, "bare", str(scratch / "bare.sqlite3"))
        started.append(bare)
        for _folder, _database, port in sides:
            subprocess.run(["wrk", "-t2", "-c8", "-d1s", f"http://127.0.0.1:{port}/"], capture_output=True, check=True)
        moves: dict[Path, list[tuple[float, float]]] = {folder: [] for folder, _, _ in sides}
        bare_moves = []
        for round_ in range(rounds):
            for folder, database, port in sides if round_ % 2 == 0 else sides[::-1]:
                moves[folder].append(_moves(port, database, name))
            bare_moves.append(1e6 / _moves_per_second(Phone(bare_port), "/act", {"points": ""}))
        bare_move = statistics.median(bare_moves)
        print(f"{name}: a move through the page, over {rounds} rounds the median of each round's median and of its mean "
              f"(µs), and their ratios to bare Flask's move ({bare_move:.0f} µs)")
        for folder, rounds_ in moves.items():
            median, mean = (statistics.median(round_[which] for round_ in rounds_) for which in (0, 1))
            print(f"  {str(folder):40} median {median:6.0f} ({bare_move / median:.2f})  mean {mean:6.0f} ({bare_move / mean:.2f})")
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.wait(timeout=20)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout's folder")
    parser.add_argument("--game", default="tactics", help="scorepad, forteresse, fort, tactics, zamek or castle")
    parser.add_argument("--rounds", type=int, default=6)
    arguments = parser.parse_args()
    main(arguments.other.resolve(), arguments.game, arguments.rounds)
