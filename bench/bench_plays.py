"""Benchmark (`make bench`): the history's queries with 10,000 plays on the server.

Not a test: it prints numbers. 10,000 plays of 2 to 4 of 40 players, over six games and two
years, are imported; then each query the history pages and ``GET /api/v1/plays`` make is run
15 times: the median CPU time of this process and the median wall-clock time (the wall clock
includes a PostgreSQL server's own work; on a shared machine it includes other processes too).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from companion import store
from companion.store import db

PLAYS = 10_000
PLAYERS = 40
GAMES = ("castle", "fort", "forteresse", "scorepad", "tactics", "zamek")
RUNS = 15


def main() -> None:
    """On a SQLite file, then on a throwaway PostgreSQL server when it is installed."""
    _bench(str(Path(tempfile.mkdtemp()) / "plays.sqlite3"))
    from tests.pg import on_a_throwaway_server

    on_a_throwaway_server(_bench)


def _bench(database: str) -> None:
    store.migrate(database)
    conn = db.connect(database)
    start = time.perf_counter()
    store.import_plays(conn, _plays())
    took = time.perf_counter() - start
    busiest = max(store.players(conn), key=lambda player: player["plays"])
    deep = store.list_plays(conn, limit=500)[-1].id
    queries = {
        "newest 50": lambda: store.list_plays(conn),
        "newest 50 of one game": lambda: store.list_plays(conn, game="castle"),
        "newest 50 of one player": lambda: store.list_plays(conn, player=busiest["name"]),
        "one player at one game": lambda: store.list_plays(conn, game="zamek", player=busiest["name"]),
        "the page after 500": lambda: store.list_plays(conn, before=deep),
        "count, one player": lambda: store.count_plays(conn, player=busiest["name"]),
        "count, one game": lambda: store.count_plays(conn, game="castle"),
        "a player's statistics": lambda: store.player_stats(conn, busiest["id"]),
        "a game's statistics": lambda: store.game_stats(conn, "castle"),
        "names starting with P": lambda: store.player_names(conn, "p"),
        "every player": lambda: store.players(conn),
        "a player's days (wins chart)": lambda: store.player_days(conn, busiest["id"]),
    }
    kind = db.url(database).split(":")[0]
    print(
        f"\nThe history with {PLAYS:,} plays ({kind}; imported in {took:.1f} s; "
        f"the busiest player has {busiest['plays']:,}): median of {RUNS}, ms"
    )
    print(f"  {'query':28} {'CPU':>7} {'wall':>7}")
    for name, query in queries.items():
        cpu, wall = [], []
        for _ in range(RUNS):
            started_cpu, started_wall = time.process_time(), time.perf_counter()
            query()
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started_wall)
        print(f"  {name:28} {statistics.median(cpu) * 1000:7.2f} {statistics.median(wall) * 1000:7.2f}")
    conn.close()
    _pages(database, busiest["id"], deep)
    db.engine(database).dispose()


def _pages(database: str, busiest: int, deep: str) -> None:
    """The history's pages themselves, rendered by the app (a test client: no network), in ms."""
    from companion.app import create_app

    client = create_app({"DATABASE": database, "SECRET_KEY": "bench", "SWEEP_DAYS": 0}).test_client()
    pages = {
        "/history": "/history",
        "/history, one player": f"/history?player={busiest}",
        "/history, a page deep": f"/history?before={deep}",
        "a play's page (chart)": "/history/bench-play-000042",
        "a player's page (chart)": f"/players/{busiest}",
        "a game's page": "/history/game/castle",
        "/players": "/players",
        "a start form (names)": "/castle/",
    }
    print(f"  {'page':28} {'wall':>7} {'bytes':>7}")
    for name, path in pages.items():
        wall, size = [], 0
        for _ in range(RUNS):
            started = time.perf_counter()
            response = client.get(path)
            wall.append(time.perf_counter() - started)
            assert response.status_code == 200, (path, response.status_code)
            size = len(response.data)
        print(f"  {name:28} {statistics.median(wall) * 1000:7.2f} {size:7,}")


def _plays() -> list[dict]:
    """``PLAYS`` plays in the export's shape, spread over two years; some players play far more."""
    rng = random.Random("plays")
    names = [f"Player {chr(65 + n % 26)}{n}" for n in range(PLAYERS)]
    weights = [1 / (rank + 1) for rank in range(PLAYERS)]
    start = datetime(2025, 1, 1, 18, tzinfo=UTC)
    plays = []
    for number in range(PLAYS):
        began = start + timedelta(minutes=number * 105 + rng.randrange(60))
        seated = set()
        while len(seated) < rng.randint(2, 4):
            seated.add(rng.choices(names, weights)[0])
        scores = {name: rng.randrange(40) for name in seated}
        best = max(scores.values())
        plays.append(
            {
                "id": f"bench-play-{number:06d}",
                "game": rng.choice(GAMES),
                "started": began.isoformat(),
                "finished": (began + timedelta(minutes=rng.randint(10, 90))).isoformat(),
                "details": {"rounds": [[rng.randrange(20) for _ in seated] for _ in range(3)]},
                "players": [
                    {"name": name, "score": score, "winner": score == best, "team": None}
                    for name, score in scores.items()
                ],
            }
        )
    return plays


if __name__ == "__main__":
    main()
