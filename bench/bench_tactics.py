"""`make bench`'s Square Tactics section: how fast the balance simulator plays, on one core and on all.

Games per second of CPU time on one core (what the issue's goal counts; the median of RUNS runs,
each starting with empty caches as a fresh process does), next to the same games played plainly
on the rules module (``tactics.process`` for every candidate play, as the simulator did before)
in the same run, so that the ratio holds on a busy machine too.
"""

from __future__ import annotations

import os
import random
import time

from companion.rules import tactics, tactics_balance
from tests.rules.test_tactics_balance import reference_game

GAMES = 1000  # per pairing and seating, as `castellan tactics-balance` plays by default
REFERENCE_GAMES = 50
RUNS = 3  # one-core runs; the median is printed (the machines are shared)


def main() -> None:
    """Print the simulator's games per second: fast engine on one core, all cores, and the plain engine."""
    factions = tactics.load_factions()
    print("\nSquare Tactics balance simulator (castellan tactics-balance, 4 factions, 6 pairings)")
    runs = []
    for _ in range(RUNS):
        tactics_balance._side.cache_clear()  # each run fills its caches, as a fresh `castellan tactics-balance` does
        runs.append(_timed(lambda: tactics_balance.balance(factions, GAMES, 1, jobs=1)))
    one, wall, cpu = sorted(runs, key=lambda run: run[2])[RUNS // 2]
    games = _games(one)
    assert all(run[0] == one for run in runs)
    print(
        f"  one core:   {games:6,} games in {cpu:5.2f} s of CPU ({wall:5.2f} s wall): {games / cpu:8,.0f} games/s "
        f"(median of {RUNS} runs, each filling its caches)"
    )
    jobs = os.cpu_count() or 1
    every, wall, _ = _timed(lambda: tactics_balance.balance(factions, GAMES, 1, jobs=jobs))
    same = "identical" if every == one else "DIFFERENT"
    print(
        f"  {jobs} processes: {games:6,} games in {wall:5.2f} s wall: {games / wall:8,.0f} games/s, tallies {same}"
    )
    plain = _plain_games(factions)
    print(
        f"  plain engine on tactics.process: {plain:8,.0f} games/s of CPU; the fast one is "
        f"{games / cpu / plain:4.1f}x faster"
    )


def _timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _games(table: dict) -> int:
    return sum(record["games"] for record in table.values()) // 2


def _plain_games(factions: dict) -> float:
    """Games per second of CPU of the same greedy game written plainly on the rules module."""
    decks = [tuple(tuple(card["edges"]) for card in faction["cards"]) for faction in factions.values()]
    rng = random.Random(1)
    played, cpu = 0, time.process_time()
    for first in decks:
        for second in decks:
            if first is not second:
                for _ in range(REFERENCE_GAMES):
                    reference_game((first, second), rng)
                    played += 1
    return played / (time.process_time() - cpu)


if __name__ == "__main__":
    main()
