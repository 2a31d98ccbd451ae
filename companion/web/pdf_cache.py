"""Printed sheets, each built once: a bounded in-memory cache, and one build at a time.

Sheets are deterministic (ReportLab's ``invariant``): the same sheet, paper, options and
base address give the same bytes, so a PDF is built once per process and served from
memory after. Builds take turns (one at a time per process): sixteen PDF requests at once
used to take every worker thread and push the phones' polls from 4 ms to 2.7 s. At most
``QUEUE`` requests wait for their turn, each at most ``WAIT_SECONDS``; the others are told
at once to try again (a 503), so that the polls always find a free thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

BUDGET_BYTES = 64 * 1024 * 1024  # every sheet on every paper with every option is far less
WAIT_SECONDS = 10
QUEUE = 2  # requests waiting for their turn to build; more are told to try again at once


class Busy(Exception):
    """Another sheet is being built and this one could not start in time."""


class SheetCache:
    """PDF bytes by key, the least recently used dropped beyond ``budget`` bytes."""

    def __init__(self, budget: int = BUDGET_BYTES, wait: float = WAIT_SECONDS, queue: int = QUEUE):
        self.budget, self.wait, self.queue = budget, wait, queue
        self._waiting = 0
        self._pdfs: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self._building = threading.Semaphore(1)
        self.builds = 0

    def get(self, key: Hashable, build: Callable[[], bytes]) -> tuple[bytes, bool]:
        """The PDF for ``key`` and whether it was built now; ``build()`` makes it on a miss.

        Raises ``Busy`` when ``queue`` requests already wait, or the turn did not come within ``wait`` seconds.
        """
        cached = self._cached(key)
        if cached is not None:
            return cached, False
        with self._lock:
            if self._waiting >= self.queue:
                raise Busy  # the others would only hold worker threads the polls need
            self._waiting += 1
        try:
            turn = self._building.acquire(timeout=self.wait)
        finally:
            with self._lock:
                self._waiting -= 1
        if not turn:
            raise Busy
        try:
            cached = self._cached(key)  # built by the request we waited for
            if cached is not None:
                return cached, False
            pdf = build()
            self.builds += 1
        finally:
            self._building.release()
        with self._lock:
            self._pdfs[key] = pdf
            while sum(map(len, self._pdfs.values())) > self.budget and len(self._pdfs) > 1:
                self._pdfs.popitem(last=False)
        return pdf, True

    def _cached(self, key: Hashable) -> bytes | None:
        with self._lock:
            pdf = self._pdfs.get(key)
            if pdf is not None:
                self._pdfs.move_to_end(key)
            return pdf
