"""Castellan against a bare Flask app, both under Castellan's own server, in the same run.

Part of `make bench`. Absolute times on a shared machine are noise, so every figure is a
ratio against a bare Flask app served by the same gunicorn settings on the same machine,
measured in interleaved rounds (bare, Castellan, bare, Castellan, ...): each side's best round
(a busy spell of the machine only ever slows a run), with the ratio of the medians beside it.

- throughput (wrk, 8 connections): the table page and an unchanged poll (a browser's gzip
  request with its ETag, answered 304);
- one phone's moves in a row over one kept-alive connection (htmx posts), against a bare
  Flask view that reads a form and answers a fragment;
- the same two for every game: its referee's table page halfway through a random game, and
  the referee's phone making the game's next moves through the page (``game_cases``);
- a hall of phones: N connections each polling every POLL seconds for a while; the p50 and
  p99 of the answers' latency, and how many polls failed.

Run alone: `python -m bench.bench_server [--phones 1000]`.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROUNDS = 5
WRK_SECONDS = 4
ROOT = Path(__file__).resolve().parent.parent  # this checkout: the code the servers run


def bare_app():
    """The framework's floor: Flask answering a small page, a 304 and a form post."""
    from flask import Flask, request

    app = Flask("bare", template_folder=None)  # no templates: nothing to compile before serving

    @app.get("/")
    def page():
        return "<!doctype html><title>bare</title><p>ok</p>"

    @app.get("/live")
    def live():
        if request.headers.get("If-None-Match") == '"v1"':
            return "", 304, {"ETag": '"v1"'}
        return "<p>live</p>", 200, {"ETag": '"v1"'}

    @app.post("/act")
    def act():
        return f"<p>{request.form.get('points', '')}</p>"

    @app.post("/api")
    def api():
        body = request.get_json()
        return {"version": body["version"] + 1, "view": {"points": body["action"]["points"]}}

    return app


def _serve(kind: str, port: int, database: str, workers: int) -> None:
    """Entry point of a server subprocess."""
    from companion import server
    from companion.app import create_app

    if kind == "writing":  # bare Flask writing each move to SQLite (bench/bench_floor.py)
        from bench.bench_floor import writing_app

        app = writing_app(database)
    else:
        app = bare_app() if kind == "bare" else create_app({"DATABASE": database, "SECRET_KEY": "bench"})
    server.run(app, host="127.0.0.1", port=port, workers=workers, threads=8, quiet=True)


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A server subprocess on a free loopback port, stopped on exit."""

    def __init__(
        self, kind: str, folder: Path, workers: int, database: str | None = None, checkout: Path = ROOT
    ):
        """``kind`` ("bare", "castellan" or "writing") as ``checkout`` (a folder holding Castellan's code) serves it."""
        self.port = free_port()
        command = [sys.executable, "-m", "bench.bench_server", "--serve", kind, str(self.port)]
        self.start([*command, database or str(folder / "bench.sqlite3"), str(workers)], checkout, kind)

    def start(
        self, command: list[str], checkout: Path, kind: str, env: dict | None = None, output=None
    ) -> None:
        """Run ``command`` in ``checkout`` (its ``output`` to a file, or ours) and wait until it
        listens on ``self.port``."""
        self.process = subprocess.Popen(command, cwd=checkout, env=env, stdout=output, stderr=output)
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the {kind} server did not start") from None
                time.sleep(0.2)

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=20)


class Phone:
    """One phone: a kept-alive connection and a session cookie."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""

    def request(self, method: str, path: str, body: str | None = None, headers: dict | None = None):
        headers = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response, data


def _game_tables(database: str) -> dict[str, dict]:
    """A table of every game, halfway through a random game (the score pad: 30 rounds), made in
    Castellan's database; what follows of that game is the moves the referee's phone then makes."""
    import importlib

    from bench.bench import BENCH_OPTIONS, random_moves
    from companion import store
    from companion.app import create_app
    from companion.store import db

    store.migrate(database)
    conn = db.connect(database)
    app, games = create_app({"DATABASE": database, "SECRET_KEY": "bench", "SWEEP_DAYS": 0}), {}
    for name, options in {"scorepad": {"players": ["Ola", "Kuba", "Ada"]}, **BENCH_OPTIONS}.items():
        rules = importlib.import_module(f"companion.rules.{name}")
        table, links = store.create_table(conn, rules, name, options)
        moves = random_moves(name, rules, table.state, random.Random(name))
        half = 30 if name == "scorepad" else len(moves) // 2
        for actor, action in moves[:half]:
            table = store.act(conn, rules, table.id, actor, action, table.version)
        with app.test_request_context():
            game = app.extensions["castellan.games"].games[name]
            following = [(actor, action, _page_form(game, actor, action)) for actor, action in moves[half:]]
        games[name] = {"rules": rules, "table": table, "token": links[0].token, "next": following}
    conn.close()
    return games


def _game_moves_per_second(phone: Phone, database: str, game: dict, count: int = 30) -> float:
    """The referee's phone making a game's next moves through the page, a second (``_game_move_times``)."""
    times = _game_move_times(phone, database, game, count)
    return len(times) / sum(times)


def _game_move_times(phone: Phone, database: str, game: dict, count: int = 30) -> list[float]:
    """The referee's phone making a game's next ``count`` moves through the page (htmx posts): each
    one's time, in seconds; a move its page has no form field for as it stands (a dealt hand, a
    seat's own secret choice) is made in the database between two timed moves."""
    from companion import store
    from companion.store import db

    _, page = phone.request("GET", f"/t/{game['token']}", headers={"Accept-Encoding": "identity"})
    csrf = _csrf(page)
    conn = db.connect(database)
    table, times = store.get_table(conn, game["table"].id), []
    for actor, action, form in game["next"]:
        if len(times) == count:
            break
        if form is not None:
            start = time.perf_counter()
            response, data = phone.request(
                "POST",
                f"/t/{game['token']}/act",
                urlencode({**form, "csrf_token": csrf, "version": table.version}, doseq=True),
                {"HX-Request": "true"},
            )
            if response.status == 200:
                times.append(time.perf_counter() - start)
                table = store.get_table(conn, table.id)
                continue
        table = store.act(conn, game["rules"], table.id, actor, action, table.version)
    conn.close()
    return times


def _page_form(game, actor: str, action: dict) -> dict | None:
    """The form a table page posts for ``action``: its fields as they are, if the game's form reader
    makes the same action of them (most moves: a round, a shot, a card on a pile or a cell), else None."""
    form = {
        key: [str(item) for item in value] if isinstance(value, list) else str(value)
        for key, value in action.items()
    }
    try:
        same = game.table_action(form, actor) == action
    except Exception:  # noqa: BLE001 - a move the page makes otherwise
        return None
    return form if same else None


def _castellan_table(port: int) -> dict:
    """Create a score pad table through the pages, as a phone does; what the bench needs of it."""
    phone = Phone(port)
    _, home = phone.request("GET", "/", headers={"Accept-Encoding": "identity"})
    csrf = _csrf(home)
    response, _ = phone.request(
        "POST", "/tables/new/scorepad", urlencode({"csrf_token": csrf, "players": "Ola\nKuba"})
    )
    token = response.getheader("Location").rsplit("/t/", 1)[1]
    response, page = phone.request("GET", f"/t/{token}", headers={"Accept-Encoding": "identity"})
    live, _ = phone.request("GET", f"/t/{token}/live")
    return {"phone": phone, "token": token, "csrf": _csrf(page), "page": page, "etag": live.getheader("ETag")}


def _csrf(page: bytes) -> str:
    match = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', page) or re.search(
        rb'X-CSRF-?Token"?: "([^"]+)"', page
    )
    return match.group(1).decode()


def _wrk(url: str, headers: dict) -> float:
    """Requests per second wrk sustains on ``url`` with 8 connections."""
    command = ["wrk", "-t2", "-c8", f"-d{WRK_SECONDS}s", url]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def _moves_per_second(phone: Phone, path: str, form: dict, count: int = 40) -> float:
    """One phone's moves in a row; the version a page move carries is read from each answer."""
    start = time.perf_counter()
    for points in range(count):
        fields = {**form, "points": [points % 7, points % 5]}
        response, data = phone.request("POST", path, urlencode(fields, doseq=True), {"HX-Request": "true"})
        if response.status >= 400:
            raise RuntimeError(f"move refused with {response.status}: {data[:200]!r}")
        match = re.search(rb'name="version" value="(\d+)"', data)
        if match and "version" in form:
            form["version"] = match.group(1).decode()
    return count / (time.perf_counter() - start)


def _bare_moves_per_second(port: int) -> float:
    """Bare Flask's answer to the same phone's moves in a row: a form read, a fragment written."""
    return _moves_per_second(Phone(port), "/act", {"points": ""})


def _api_moves_per_second(phone: Phone, path: str, version: int, count: int = 40) -> float:
    """One program's moves in a row through the JSON API; the version comes back in each answer."""
    start = time.perf_counter()
    for points in range(count):
        body = json.dumps(
            {"action": {"type": "round", "points": [points % 7, points % 5]}, "version": version}
        )
        response, data = phone.request("POST", path, body, {"Content-Type": "application/json"})
        if response.status >= 400:
            raise RuntimeError(f"move refused with {response.status}: {data[:200]!r}")
        version = json.loads(data)["version"]
    return count / (time.perf_counter() - start)


def _seen_delays(port: int, watchers: int, moves: int, every: float) -> list[float]:
    """How long after a move's answer the other phones show it, polling as castellan.js does.

    Each watcher polls the live fragment with its ETag and cookie, and waits ``every`` seconds
    after each answer; a mover makes a move through the API at random moments. The delay of
    one move on one phone runs from the move's answer to the poll that brought its version.
    """
    table = _castellan_table(port)
    path = f"/t/{table['token']}/live"
    seen: list[dict[int, float]] = [{} for _ in range(watchers)]
    done = threading.Event()

    def watch(index: int) -> None:
        phone, etag = Phone(port), ""
        phone.cookie = table["phone"].cookie
        time.sleep(every * index / watchers)
        while not done.is_set():
            response, data = phone.request("GET", path, headers={"If-None-Match": etag} if etag else {})
            if response.status == 200:
                etag = response.getheader("ETag")
                version = int(re.search(rb'data-version="(\d+)"', data).group(1))
                seen[index].setdefault(version, time.perf_counter())
            time.sleep(every)

    threads = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(watchers)]
    for thread in threads:
        thread.start()
    mover, version, made = Phone(port), int(_version(table["page"])), {}
    mover.cookie = table["phone"].cookie
    for points in range(moves):
        time.sleep(random.uniform(0.3, 1.5))
        body = json.dumps({"action": {"type": "round", "points": [points % 7, 1]}, "version": version})
        response, data = mover.request(
            "POST", f"/api/v1/tables/{table['token']}/actions", body, {"Content-Type": "application/json"}
        )
        version = json.loads(data)["version"]
        made[version] = time.perf_counter()
    time.sleep(every * 2 + 1)
    done.set()
    for thread in threads:
        thread.join(timeout=15)
    return sorted(
        min((at for shown, at in phone.items() if shown >= version), default=float("inf")) - moved
        for phone in seen
        for version, moved in made.items()
    )


async def _hall(
    port: int, path: str, etag: str, phones: int, every: float, seconds: float, cookie: str = ""
) -> dict:
    """``phones`` kept-alive connections, each polling ``path`` every ``every`` seconds."""
    latencies: list[float] = []
    failures = 0
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: gzip\r\n"
        f"If-None-Match: {etag}\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n"
    ).encode()

    async def phone(index: int) -> None:
        nonlocal failures
        await asyncio.sleep(every * index / phones)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            failures += 1
            return
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            start = time.perf_counter()
            try:
                writer.write(request)
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                length = re.search(rb"(?i)content-length:\s*(\d+)", head)
                if length and int(length.group(1)):
                    await reader.readexactly(int(length.group(1)))
                if re.search(rb"(?i)connection:\s*close", head):
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except (TimeoutError, OSError, asyncio.IncompleteReadError):
                failures += 1
                return
            latencies.append(time.perf_counter() - start)
            await asyncio.sleep(max(0.0, every - (time.perf_counter() - start)))
        writer.close()

    await asyncio.gather(*(phone(i) for i in range(phones)))
    latencies.sort()
    quantile = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
    return {"polls": len(latencies), "failed": failures, "p50": quantile(0.5), "p99": quantile(0.99)}


def main(
    phones: int = 1000, workers: int | None = None, database: str | None = None, ratios_only: bool = False
) -> None:
    """Print Castellan's ratios against bare Flask, and (unless ``ratios_only``) how a hall of polling
    phones fares (Castellan on ``database``, a SQLite file in a temporary folder unless given)."""
    from companion import server
    from companion.app import POLL_SECONDS

    if not shutil.which("wrk"):
        print("\nServer ratios skipped: wrk is not installed (make bench installs it).")
        return
    workers = workers or server.default_workers()
    folder = Path(tempfile.mkdtemp())
    figures: dict[str, list[tuple[float, float]]] = {}
    castle_db = database or str(folder / "bench.sqlite3")
    with Server("bare", folder, workers) as bare, Server("castellan", folder, workers, castle_db) as castle:
        table = _castellan_table(castle.port)  # watched: its page and polls stay unchanged
        token, etag = table["token"], table["etag"]
        # The phone's own session: its page and its ETag are those of its CSRF token.
        cookie = {"Cookie": table["phone"].cookie}
        cases = {
            "table page /t/<token>": (
                (f"http://127.0.0.1:{bare.port}/", {}),
                (f"http://127.0.0.1:{castle.port}/t/{token}", cookie),
            ),
            "unchanged poll, gzip + ETag (304)": (
                (f"http://127.0.0.1:{bare.port}/live", {"If-None-Match": '"v1"', "Accept-Encoding": "gzip"}),
                (
                    f"http://127.0.0.1:{castle.port}/t/{token}/live",
                    {"If-None-Match": etag, "Accept-Encoding": "gzip", **cookie},
                ),
            ),
        }
        for _ in range(ROUNDS):
            for name, ((bare_url, bare_headers), (url, headers)) in cases.items():
                figures.setdefault(name, []).append((_wrk(bare_url, bare_headers), _wrk(url, headers)))
            moved = _castellan_table(castle.port)  # a fresh table each round: an evening's length
            form = {"csrf_token": moved["csrf"], "version": _version(moved["page"])}
            bare_rate = _bare_moves_per_second(bare.port)
            rate = _moves_per_second(moved["phone"], f"/t/{moved['token']}/act", form)
            figures.setdefault("a move, htmx post, one phone", []).append((bare_rate, rate))
            moved = _castellan_table(castle.port)
            bare_rate = _api_moves_per_second(Phone(bare.port), "/api", 1)
            path = f"/api/v1/tables/{moved['token']}/actions"
            rate = _api_moves_per_second(moved["phone"], path, int(_version(moved["page"])))
            figures.setdefault("a move, JSON API, one program", []).append((bare_rate, rate))
            bare_page = figures["table page /t/<token>"][-1][0]
            for name, game in _game_tables(castle_db).items():  # fresh tables each round, halfway through
                phone = Phone(castle.port)
                phone.request("GET", f"/t/{game['token']}")  # its session, as a phone at the table has one
                page = _wrk(f"http://127.0.0.1:{castle.port}/t/{game['token']}", {"Cookie": phone.cookie})
                figures.setdefault(f"{name}: table page", []).append((bare_page, page))
                # A game's moves take a tenth of a second: bare Flask's are timed right beside them,
                # before and after, so a moment when the shared machine is busy touches both.
                before = _bare_moves_per_second(bare.port)
                moves = _game_moves_per_second(phone, castle_db, game)
                after = _bare_moves_per_second(bare.port)
                figures.setdefault(f"{name}: a move, htmx post", []).append(((before + after) / 2, moves))
        # This shared machine has spells of a few seconds when everything runs at a third of its
        # speed (bare Flask's page: 10,000 req/s in most 4-second runs, 2,500 in one of six). Such a
        # spell only ever slows a run down, so the best of the rounds on each side is each one's
        # own speed (as timeit's documentation advises); the median is shown beside it.
        print(
            f"\nCastellan against bare Flask, both under gunicorn ({workers} workers x 8 threads), {ROUNDS} rounds"
        )
        print(f"  {'what':36} {'bare req/s':>11} {'Castellan':>11} {'ratio':>7} {'median':>7}")
        for name, pairs in figures.items():
            bare_best, best = max(b for b, _ in pairs), max(c for _, c in pairs)
            median = statistics.median(c for _, c in pairs) / statistics.median(b for b, _ in pairs)
            print(f"  {name:36} {bare_best:11,.0f} {best:11,.0f} {best / bare_best:7.2f} {median:7.2f}")
        if ratios_only:
            return
        live_every = float(os.environ.get("BENCH_POLL_SECONDS", POLL_SECONDS))
        delays = _seen_delays(castle.port, watchers=20, moves=30, every=live_every)
        print(
            f"\nA move seen on 20 other phones polling every {live_every} s (30 moves): "
            f"p50 {statistics.median(delays):.2f} s, p95 {delays[int(0.95 * (len(delays) - 1))]:.2f} s"
        )
        print(
            f"\nA hall of {phones} phones, each polling every {live_every} s for 15 s (kept-alive connections)"
        )
        for name, port, path, tag, session in (
            ("bare Flask", bare.port, "/live", '"v1"', ""),
            ("Castellan", castle.port, f"/t/{token}/live", etag, table["phone"].cookie),
        ):
            result = asyncio.run(_hall(port, path, tag, phones, live_every, 15, session))
            print(
                f"  {name:12} polls {result['polls']:7,}  failed {result['failed']:4}  "
                f"p50 {result['p50']:6.1f} ms  p99 {result['p99']:6.1f} ms"
            )


def _version(page: bytes) -> str:
    return re.search(rb'name="version" value="(\d+)"', page).group(1).decode()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", nargs=4, metavar=("KIND", "PORT", "DATABASE", "WORKERS"))
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--database", help="Castellan's CASTELLAN_DATABASE (e.g. a postgresql:// URL)")
    parser.add_argument(
        "--ratios", action="store_true", help="only the ratios to bare Flask (no polling phones)"
    )
    args = parser.parse_args()
    if args.serve:
        kind, port, database, workers = args.serve
        _serve(kind, int(port), database, int(workers))
    else:
        main(args.phones, args.workers, args.database, args.ratios)
