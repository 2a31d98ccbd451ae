"""Printed sheets: each built once, in a helper process of low priority, one at a time, the requests
for them waiting their turn in a short line.

Sheets are deterministic (ReportLab's ``invariant``): the same sheet, paper, options and base
address give the same bytes, so a PDF is built once per worker and served from memory after,
without waiting for anything.

A build is a second or so of pure Python. Built on a serving thread, it held the worker's
interpreter lock while it ran, and every poll that worker answered meanwhile waited for the lock
too (a poll's 99th percentile went to 70 times its idle value during a burst of PDF requests).
So each worker hands its builds to one helper process (``Builder``) that runs at a lower
priority (``NICENESS``): the serving threads only wait for its answer, which holds no lock, and
the system gives the helper the processor only when the phones' requests leave it free.

A request for a sheet not built yet takes a place in the worker's line (``SheetCache``): the
first place builds, the others wait for it, in the order they came, at most ``WAIT_SECONDS``.
The line is short (``QUEUE`` places besides the build), so that the requests waiting in it
never hold more than half of a worker's 8 threads and a poll always finds one free; one address
holds at most ``PER_ADDRESS`` places, so one phone's burst cannot keep another phone's sheet
out. A request that finds no place is refused at once: ``Crowded`` (429) when its address
holds its share, ``Busy`` (503) when the line is full or its turn did not come in time.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

BUDGET_BYTES = 64 * 1024 * 1024  # every sheet on every paper with every option is far less
WAIT_SECONDS = 20  # a kit takes a few seconds to build: three of them ahead is the worst wait
QUEUE = 3  # requests waiting while one builds: with it, 4 of a worker's 8 threads at most
PER_ADDRESS = 2  # places one address may hold in a worker's line
NICENESS = 10  # the helper's priority below the server's: it builds when the phones leave time
PARENT_CHECK_SECONDS = 1  # how often a helper looks whether its worker is still there


class Busy(Exception):
    """The line is full, or this request's turn to build did not come in time (a 503)."""


class Crowded(Busy):
    """This address already holds its share of the line (a 429)."""


class SheetCache:
    """PDF bytes by key, the least recently used dropped beyond ``budget`` bytes, and the line of
    requests waiting to build one (see the module)."""

    def __init__(
        self,
        budget: int = BUDGET_BYTES,
        wait: float = WAIT_SECONDS,
        queue: int = QUEUE,
        per_address: int = PER_ADDRESS,
    ):
        self.budget, self.wait, self.queue, self.per_address = budget, wait, queue, per_address
        self._pdfs: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self._turns = threading.Condition()
        self._line: deque[object] = deque()  # a ticket per request in the line, the one building first
        self._held: Counter[str] = Counter()  # places in the line by address
        self.builds = 0

    @property
    def in_line(self) -> int:
        """The requests in the line now, the one building among them."""
        return len(self._line)

    def get(self, key: Hashable, build: Callable[[], bytes], address: str = "") -> tuple[bytes, bool]:
        """The PDF for ``key`` and whether it was built now; ``build()`` makes it on a miss, when
        this request's turn comes.

        Raises ``Crowded`` when ``address`` already holds ``per_address`` places, ``Busy`` when
        ``queue`` requests already wait or the turn did not come within ``wait`` seconds.
        """
        cached = self._cached(key)
        if cached is not None:
            return cached, False
        ticket = self._enter(address)
        try:
            self._wait_turn(ticket)
            cached = self._cached(key)  # built by a request ahead in the line
            if cached is not None:
                return cached, False
            pdf = build()
            self.builds += 1
        finally:
            self._leave(ticket, address)
        with self._lock:
            self._pdfs[key] = pdf
            while sum(map(len, self._pdfs.values())) > self.budget and len(self._pdfs) > 1:
                self._pdfs.popitem(last=False)
        return pdf, True

    def _enter(self, address: str) -> object:
        """A place at the end of the line for this request, or the refusal."""
        with self._turns:
            if self._held[address] >= self.per_address:
                raise Crowded
            if len(self._line) > self.queue:  # one building and ``queue`` waiting
                raise Busy
            ticket = object()
            self._line.append(ticket)
            self._held[address] += 1
            return ticket

    def _wait_turn(self, ticket: object) -> None:
        """Until ``ticket`` heads the line (the build before it is done); ``Busy`` after ``wait`` seconds."""
        with self._turns:
            if not self._turns.wait_for(lambda: self._line[0] is ticket, timeout=self.wait):
                raise Busy

    def _leave(self, ticket: object, address: str) -> None:
        """Give the place back (built, found built, or tired of waiting): the next may start."""
        with self._turns:
            self._line.remove(ticket)
            self._held[address] -= 1
            if not self._held[address]:
                del self._held[address]
            self._turns.notify_all()

    def _cached(self, key: Hashable) -> bytes | None:
        with self._lock:
            pdf = self._pdfs.get(key)
            if pdf is not None:
                self._pdfs.move_to_end(key)
            return pdf


class Builder:
    """One helper process of low priority per worker, started at the worker's first build (never
    in the server before it forks its workers) and kept for the next: it runs ``draw(*args)``,
    a function of a module it imports itself, and gives back what it returns.

    ``castellan serve`` starts each worker's helper as the worker starts (``prestart``): a fresh
    interpreter importing the app and ReportLab is a second or more of work, and started by the
    first request for a sheet it came on top of that burst, the moment the phones' polls need the
    processor most (a poll's 99th percentile was 120 times its idle value during a burst, on a quiet
    machine). Started early, and at low priority from its first instruction, it costs the phones nothing.
    """

    def __init__(self):
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._niceness = os.nice(0) + NICENESS  # the helper's, below the server's own

    def prestart(self) -> threading.Thread:
        """Start the helper now, from a thread of low priority (on Linux a thread's priority is its
        own, and the helper it starts inherits it: the helper's imports already yield to the
        phones); the thread, which ends once the helper is ready."""

        def start() -> None:
            try:
                os.nice(NICENESS)
                self.run(_nothing)
            except (Busy, OSError):
                pass  # the first build starts it then

        thread = threading.Thread(target=start, name="castellan-builder-start", daemon=True)
        thread.start()
        return thread

    def run(self, draw: Callable[..., bytes], *args) -> bytes:
        """``draw(*args)`` in the helper; ``Busy`` if the helper died meanwhile (the next build starts a new one)."""
        pool = self._ready()
        try:
            return pool.submit(draw, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            raise Busy from None

    def stop(self) -> None:
        """End the helper at once, if there is one (its worker is leaving), even one still starting:
        it holds the server's output open, and a helper left behind would keep ``castellan serve``
        from ending cleanly. Called in a worker, whose only child processes are its helper's."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.shutdown(wait=False, cancel_futures=True)
        helpers = multiprocessing.active_children()
        for helper in helpers:
            helper.terminate()
        for helper in helpers:
            helper.join(2)

    def _ready(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # A fresh interpreter, not a fork of this worker: its threads may hold locks a fork would copy held.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    1, mp_context=context, initializer=lower_priority, initargs=(self._niceness, os.getpid())
                )
            return self._pool


def _nothing() -> bytes:
    """What ``prestart`` asks of the helper: nothing but being there."""
    return b""


def lower_priority(niceness: int = NICENESS, worker: int | None = None) -> None:
    """The helper's start: below the server in priority, and deaf to Ctrl+C on the server's terminal
    (the server stops it; interrupted, it would only print a traceback)."""
    os.nice(max(0, niceness - os.nice(0)))  # started by ``prestart``, it may be there already
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The worker's own pid, not the parent seen now: a worker killed while its helper was still
    # starting has left it to another parent already.
    parent = worker or os.getppid()
    threading.Thread(target=_leave_with, args=(parent,), name="castellan-builder-parent", daemon=True).start()


def _leave_with(parent: int) -> None:
    """End the helper once its worker is gone, however it went (``kill -9`` runs no hook): its line
    to the worker never closes by itself, and an orphan would be left for good."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


BUILDER = Builder()  # this worker's, shared by its apps
