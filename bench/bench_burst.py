"""`make bench`'s burst of printed sheets: how the phones' polls fare while one address asks for 200 PDFs at once.

Castellan is served as ``castellan serve`` serves it (gunicorn, the machine's workers x 8 threads),
with the limit of sheets a minute raised out of the way, so that what is measured is the line of
``companion.web.pdf_cache``: the burst's first requests built, the others refused at once. A hall
of ``PHONES`` phones polls an unchanged table every ``EVERY`` seconds over kept-alive connections,
first alone (idle) and then while the burst runs; the figure is the polls' 99th percentile during
the burst (from its first request sent to its last answer) as a ratio to the idle one, in the
same round (the goal: under 5). Each round asks for other sheets (another back offset), so that
none is served from the cache. The floor follows: the same hall and a burst of as many small pages
against bare Flask under the same server, for what any burst costs the polls on this machine (on a
quiet 2-core machine, 12 to 25: the goal is below what the framework itself does there).

Run alone: `python -m bench.bench_burst [--rounds 3] [--checkout /tmp/before]` (``--checkout``
serves another checkout's code, such as ``git worktree add /tmp/before main``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.bench_server import ROOT, Phone, Server, free_port

BURST = 200  # PDF requests sent at once, from one address
PHONES = 50
EVERY = 0.25  # seconds between a phone's polls: 200 polls a second in all
IDLE_SECONDS = 5
ROUNDS = 3
GOAL = 5


class BurstServer(Server):
    """Castellan as the bench serves it, its limit of sheets a minute out of the burst's way."""

    def __init__(self, folder: Path, workers: int, checkout: Path = ROOT):
        self.port = free_port()
        command = [sys.executable, "-m", "bench.bench_server", "--serve", "castellan", str(self.port)]
        env = {**os.environ, "CASTELLAN_PDFS_PER_MINUTE": "1000000"}
        self.start([*command, str(folder / "burst.sqlite3"), str(workers)], checkout, "castellan", env)


async def _ask(port: int, path: str) -> int:
    """One GET on a connection of its own: the answer's status (0: no answer)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        await reader.read()
        writer.close()
    except (OSError, asyncio.IncompleteReadError):
        return 0
    return int(head.split(b" ", 2)[1])


async def _phones(port: int, request: bytes, stop: asyncio.Event) -> list[tuple[float, float]]:
    """``PHONES`` phones polling with ``request`` until ``stop``: each poll's start and latency (a
    poll that got no answer counts as infinitely slow, and its phone stops)."""
    polls: list[tuple[float, float]] = []

    async def phone(index: int) -> None:
        await asyncio.sleep(EVERY * index / PHONES)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while not stop.is_set():
            start = time.perf_counter()
            try:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                length = re.search(rb"(?i)content-length:\s*(\d+)", head)
                if length:
                    await reader.readexactly(int(length.group(1)))
            except (OSError, asyncio.IncompleteReadError):
                polls.append((start, float("inf")))
                return
            polls.append((start, time.perf_counter() - start))
            await asyncio.sleep(max(0.0, EVERY - (time.perf_counter() - start)))
        writer.close()

    await asyncio.gather(*(phone(index) for index in range(PHONES)))
    return polls


def _p99(latencies: list[float]) -> float:
    """The 99th percentile, in ms."""
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


async def _round(port: int, request: bytes, urls: list[str]) -> dict:
    """Idle polls, then polls during a burst of ``urls``: both p99s and the burst's answers."""
    stop = asyncio.Event()
    hall = asyncio.create_task(_phones(port, request, stop))
    await asyncio.sleep(IDLE_SECONDS)
    idle_until = time.perf_counter()
    answered: list[float] = []

    async def ask(url: str) -> int:
        status = await _ask(port, url)
        answered.append(time.perf_counter())
        return status

    began = time.perf_counter()
    statuses = await asyncio.gather(*(ask(url) for url in urls))
    ended = max(answered)
    await asyncio.sleep(0.5)
    stop.set()
    polls = await hall
    return {
        "idle": _p99([latency for start, latency in polls if start < idle_until]),
        "burst": _p99([latency for start, latency in polls if began <= start <= ended]),
        "polls": sum(1 for start, _latency in polls if began <= start <= ended),
        "answers": Counter(statuses),
        "seconds": ended - began,
    }


def _urls(round_number: int) -> list[str]:
    """``BURST`` different sheets, none asked for in an earlier round (the back offset differs)."""
    import printables

    sheets = [sheet.slug for sheet in printables.all_sheets()]
    every = [
        f"/print/{slug}.pdf?paper={paper}&lang={lang}&ink={ink}&offset={round_number},0"
        for ink in ("full", "saver")
        for lang in ("en", "fr", "pl")
        for paper in ("a4", "letter")
        for slug in sheets
    ]
    return every[:BURST]


def main(rounds: int = ROUNDS, workers: int | None = None, checkout: Path = ROOT) -> list[float]:
    """Print each round's idle and burst p99 and their ratio; the ratios."""
    from companion import server

    workers = workers or server.default_workers()
    ratios = []
    with BurstServer(Path(tempfile.mkdtemp()), workers, checkout) as castle:
        phone = Phone(castle.port)
        _response, made = phone.request(
            "POST",
            "/api/v1/tables",
            json.dumps({"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}}),
            {"Content-Type": "application/json"},
        )
        token = json.loads(made)["links"]["referee"]["token"]
        live, _ = phone.request("GET", f"/t/{token}/live")
        request = (
            f"GET /t/{token}/live HTTP/1.1\r\nHost: 127.0.0.1:{castle.port}\r\nAccept-Encoding: gzip\r\n"
            f"If-None-Match: {live.getheader('ETag')}\r\nCookie: {phone.cookie}\r\n\r\n"
        ).encode()
        print(
            f"\nA burst of {BURST} PDF requests from one address while {PHONES} phones poll every {EVERY} s"
            f" ({workers} workers x 8 threads, {rounds} rounds)"
        )
        print(f"  {'round':>5} {'idle p99':>9} {'burst p99':>10} {'ratio':>6} {'polls':>6}  answers, seconds")
        for number in range(rounds):
            result = asyncio.run(_round(castle.port, request, _urls(number)))
            ratio = result["burst"] / result["idle"]
            ratios.append(ratio)
            answers = ", ".join(f"{count} x {status}" for status, count in sorted(result["answers"].items()))
            print(
                f"  {number + 1:>5} {result['idle']:7.1f} ms {result['burst']:7.1f} ms {ratio:6.1f} "
                f"{result['polls']:6}  {answers}; {result['seconds']:.1f} s"
            )
    print(f"  poll p99 during the burst / idle: median {statistics.median(ratios):.1f} (goal: under {GOAL})")
    floor = _floor(rounds, workers)
    print(
        f"  the floor, bare Flask under the same server, {BURST} small pages at once: median "
        f"{statistics.median(floor):.1f}; Castellan's PDF burst over it: "
        f"{statistics.median(ratios) / statistics.median(floor):.1f} x"
    )
    return ratios


def _floor(rounds: int, workers: int) -> list[float]:
    """The same hall and burst against bare Flask under the same server (its page "/", its 304 for
    the polls): what any burst of ``BURST`` requests costs the polls on this machine."""
    ratios = []
    with Server("bare", Path(tempfile.mkdtemp()), workers) as bare:
        request = f'GET /live HTTP/1.1\r\nHost: 127.0.0.1:{bare.port}\r\nIf-None-Match: "v1"\r\n\r\n'.encode()
        for number in range(rounds):
            result = asyncio.run(_round(bare.port, request, [f"/?burst={number}-{i}" for i in range(BURST)]))
            ratios.append(result["burst"] / result["idle"])
            print(
                f"  {'bare':>5} {result['idle']:7.1f} ms {result['burst']:7.1f} ms {ratios[-1]:6.1f} "
                f"{result['polls']:6}  {result['seconds']:.1f} s"
            )
    return ratios


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="serve this checkout's code")
    args = parser.parse_args()
    main(args.rounds, args.workers, args.checkout)
