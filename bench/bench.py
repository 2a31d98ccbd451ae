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

from bench import bench_burst, bench_growth, bench_pdf, bench_plays, bench_server, bench_tactics
from companion import store
from companion.app import create_app
from companion.rules import scorepad
from companion.store import db
from tests.conftest import Browser
from tests.pg import on_a_throwaway_server


def main() -> None:
    """Print page weights, action costs by table length, and PDF build times."""
    folder = Path(tempfile.mkdtemp())
    app = create_app({"DATABASE": str(folder / "bench.sqlite3"), "SECRET_KEY": "bench"})
    _page_weights(app)
    _action_costs(str(folder / "actions.sqlite3"))
    on_a_throwaway_server(_action_costs)  # the same on PostgreSQL, when it is installed
    bench_growth.main()  # the same ends of the tables, through the real server and its workers
    bench_pdf.main()
    bench_server.main()
    bench_burst.main()
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


def _action_costs(database: str) -> None:
    """What one move costs at the end of each game's longest realistic table, against its first.

    The table is the longest of ``GAMES_PLAYED`` random games (the score pad: ``PAD_ROUNDS``
    rounds). The late move is the last one that leaves the game going (the move that ends a
    game also records its play, once: not a cost that grows with the log); the early one is the
    first move of the same kind (Forteresse's first shot, not the drawing of a fortress before
    it: what is measured is what the log's length adds). Two tables are dealt from the same seed
    and played up to those two moves; then, ``REPEATS`` times in turn, each one's move is made
    and undone: the medians of each, and the ratio late/early of the move (the goal: at most 1.2). Measured in turn, a change in the machine's load
    weighs on both alike. Times are this process's CPU time: on a shared machine, wall-clock
    medians were mostly the other processes (a PostgreSQL server's own work is not counted).
    """
    store.migrate(database)
    conn = db.connect(database)
    print(
        f"\nCost of one move early and late in each game's longest table (the first and the last of a kind)"
        f" ({db.url(database).split(':')[0]}; CPU ms, median of {REPEATS}, in turn)"
    )
    for name, rules, first, moves in _longest_tables(conn):
        state, going, kinds = first.state, 0, []
        for number, (actor, action) in enumerate(moves):
            before, state = state, rules.apply(state, action, actor)
            kinds.append(_kind(action, before, state))
            going = number if rules.result(state, False) is None else going
        # The first move of the same kind: of the same type, changing the same parts of the state
        # (Castle's last card of a hand scores it, its third card of a trick does not); of the same
        # type only when no earlier move changes the same parts.
        early = next(
            (number for number, kind in enumerate(kinds[:going]) if kind == kinds[going]),
            next(
                number
                for number, (_actor, action) in enumerate(moves)
                if action.get("type") == moves[going][1].get("type")
            ),
        )
        late, _links = store.create_table(conn, rules, name, first.options, seed=first.seed)
        for number, (actor, action) in enumerate(moves[:going]):
            late = store.act(conn, rules, late.id, actor, action, late.version)
            if number < early:
                first = store.act(conn, rules, first.id, actor, action, first.version)
        tables, acts, undos = [first, late], ([], []), ([], [])
        for _ in range(REPEATS):
            for which, (actor, action) in enumerate((moves[early], moves[going])):
                start = time.process_time()
                table = store.act(conn, rules, tables[which].id, actor, action, tables[which].version)
                acts[which].append(time.process_time() - start)
                start = time.process_time()
                tables[which] = store.undo(conn, rules, table.id, table.version)
                undos[which].append(time.process_time() - start)
        (first_act, last_act), (first_undo, last_undo) = (
            [statistics.median(times) * 1000 for times in kind] for kind in (acts, undos)
        )
        print(
            f"  {name:10} {len(moves):5} moves: move {early + 1:<3} {first_act:6.2f}  move {going + 1:<5} {last_act:6.2f}"
            f"  ratio {last_act / first_act:4.2f}   undo {first_undo:6.2f} -> {last_undo:6.2f}"
        )
    conn.close()
    db.engine(database).dispose()


def _kind(action: dict, before: dict, after: dict) -> tuple:
    """A move's kind: its type and the parts of the state (top-level keys) it changes."""
    return action.get("type"), frozenset(
        key for key in {*before, *after} if before.get(key) != after.get(key)
    )


REPEATS = 101  # 41 moved the score pad's ratio by a tenth between runs on a loaded machine
GAMES_PLAYED = 6
PAD_ROUNDS = 1000
BENCH_OPTIONS = {
    "forteresse": {"mode": "phones", "first": "a"},
    "fort": {"players": 4},
    "tactics": {
        "players": 4,
        "factions": {"p1": "wardens", "p2": "shieldwall", "p3": "roost", "p4": "marches"},
    },
    "zamek": {"variant": "extended", "players": ["Ola", "Kuba", "Ada", "Jan"]},
    "castle": {"players": 4, "dealer": "E"},
}


def random_moves(
    name: str, rules, state: dict, rng: random.Random, limit: int = 400
) -> list[tuple[str, dict]]:
    """(actor, action) of a random game of ``name`` from ``state``, at most ``limit`` moves (the
    score pad: rounds of three players' random points)."""
    moves = []
    while len(moves) < limit:
        chosen = (
            ("referee", {"type": "round", "points": [rng.randrange(30) for _ in range(3)]})
            if name == "scorepad"
            else rules.random_legal_action(state, rng)
        )
        if chosen is None:
            break
        moves.append(chosen)
        state = rules.apply(state, chosen[1], chosen[0])
    return moves


def _longest_tables(conn):
    """(game, rules, table, moves): the longest of a few random games of each game (from new
    tables: chance comes from the table's seed), and a long score pad."""
    import importlib

    rng = random.Random("bench")
    pad, _links = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Kuba", "Ada"]})
    yield (
        "scorepad",
        scorepad,
        pad,
        [
            ("referee", {"type": "round", "points": [rng.randrange(30) for _ in range(3)]})
            for _ in range(PAD_ROUNDS)
        ],
    )
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
