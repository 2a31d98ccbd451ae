"""Two checkouts of Castellan side by side: the same game's moves through the page on each, in turn.

`make bench` gives each figure as a ratio to bare Flask, and between two runs a ratio moves by
0.03 or more on a shared machine: too much to see a change of a few per cent. This serves this
checkout and another one (a folder holding an older commit, e.g. made by `git worktree add`) at
the same time, one gunicorn worker each, and times one phone making a game's next 30 moves
(htmx posts, as in `make bench`) on one and then on the other, in alternating order, for a
number of rounds; each round's median per side, and the median of those.

    git worktree add /tmp/before main~3
    python -m bench.bench_compare /tmp/before --game tactics --rounds 8

The other checkout runs on this checkout's Python and packages, and must have the same database
schema (this checkout writes the tables both play on). wrk (`make bench` installs it) first opens
every thread of each worker, as a busy hall would have.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
from contextlib import ExitStack
from pathlib import Path

from bench.bench_server import ROOT, Phone, Server, _bare_moves_per_second, _game_move_times, _game_tables

MOVES = 30


def _moves(server: Server, database: str, name: str) -> tuple[float, float]:
    """One phone making a fresh table's next moves (``MOVES``) through the page: their median and
    their mean, in µs (``make bench`` counts moves a second: the mean, first moves on a table new to
    the worker included)."""
    times = _game_move_times(Phone(server.port), database, _game_tables(database)[name], MOVES)
    return statistics.median(times) * 1e6, statistics.mean(times) * 1e6


def main(other: Path, name: str, rounds: int) -> None:
    scratch = Path(tempfile.mkdtemp())
    with ExitStack() as servers:
        sides = []
        for number, checkout in enumerate((ROOT, other)):
            database = str(scratch / f"{number}.sqlite3")  # each server makes its own (same schema)
            sides.append(
                (
                    checkout,
                    database,
                    servers.enter_context(Server("castellan", scratch, 1, database, checkout)),
                )
            )
        bare = servers.enter_context(Server("bare", scratch, 1))
        for _checkout, _database, server in sides:
            subprocess.run(
                ["wrk", "-t2", "-c8", "-d1s", f"http://127.0.0.1:{server.port}/"],
                capture_output=True,
                check=True,
            )
        moves: dict[Path, list[tuple[float, float]]] = {checkout: [] for checkout, _, _ in sides}
        bare_moves = []
        for round_ in range(rounds):
            for checkout, database, server in sides if round_ % 2 == 0 else sides[::-1]:
                moves[checkout].append(_moves(server, database, name))
            bare_moves.append(1e6 / _bare_moves_per_second(bare.port))
        bare_move = statistics.median(bare_moves)
        print(
            f"{name}: a move through the page, over {rounds} rounds the median of each round's median and of its mean "
            f"(µs), and their ratios to bare Flask's move ({bare_move:.0f} µs)"
        )
        for checkout, rounds_ in moves.items():
            median, mean = (statistics.median(round_[which] for round_ in rounds_) for which in (0, 1))
            print(
                f"  {str(checkout):40} median {median:6.0f} ({bare_move / median:.2f})  mean {mean:6.0f} ({bare_move / mean:.2f})"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout's folder")
    parser.add_argument(
        "--game", default="tactics", help="scorepad, forteresse, fort, tactics, zamek or castle"
    )
    parser.add_argument("--rounds", type=int, default=6)
    arguments = parser.parse_args()
    main(arguments.other.resolve(), arguments.game, arguments.rounds)
