"""The HTTP server Castellan runs under: gunicorn with threaded workers.

Why gunicorn and not waitress: a hall of phones keeps hundreds of connections open, each
polling every second or so. waitress waits on ``select()`` (about 1,000 descriptors at
most) and, with its default ``connection_limit`` of 100, stopped accepting phones at about
100. gunicorn's ``gthread`` workers park idle keep-alive connections in the kernel's poller
(epoll), so an idle phone costs no thread, and several worker processes use every core.
The processes share nothing but the database, which is what the store is built for.
"""

from __future__ import annotations

import gc
import os
import threading
from collections import deque
from concurrent.futures import Future
from queue import SimpleQueue

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import ThreadWorker

# A phone polls about every second; keeping its connection open for longer than that saves a
# reconnection (and, behind an HTTPS proxy, a TLS handshake) on every poll.
KEEPALIVE_SECONDS = 30
CONNECTIONS_PER_WORKER = 2000
# Settings that an older gunicorn (the project allows 23 and later) does not have, and goes without.
NEWER_SETTINGS = frozenset({"control_socket_disable"})


def default_workers() -> int:
    """One worker process per core: the work is CPU-bound Python."""
    return max(1, os.cpu_count() or 1)


class _Gunicorn(BaseApplication):
    """gunicorn run from Python with settings given here, not from its command line."""

    def __init__(self, app: Flask, settings: dict):
        self._app = app
        self._settings = settings
        super().__init__()

    def load_config(self) -> None:
        for name, value in self._settings.items():
            if name in self.cfg.settings or name not in NEWER_SETTINGS:
                self.cfg.set(name, value)

    def load(self) -> Flask:
        return self._app


# Tasks waiting for a thread beyond which the newest is served first (``LastIdleFirst``): twice a
# worker's 8 threads, about two requests' time of waiting for each.
NEWEST_FIRST_AFTER = 16


class LastIdleFirst:
    """A pool of up to ``threads`` threads that gives each task to the thread that finished its own
    last, the way gunicorn's ``gthread`` workers use Python's ``ThreadPoolExecutor`` (``submit``
    and ``shutdown``).

    Python's pool lets its idle threads race for each task, so one phone's requests, one after
    another, were served by each of a worker's threads in turn (29 thread changes in 29 moves,
    measured). Each thread has its own database connection (``db.thread_connection``), and SQLite
    drops a connection's page cache whenever another connection has written since: every move
    read its pages again, on a thread whose memory had gone cold meanwhile. Here a phone's moves
    stay on one thread while the others sleep; a busier hall still gets every thread.

    While every thread is busy, tasks wait in the order they came; but when more than
    ``NEWEST_FIRST_AFTER`` wait, the newest is taken first ("adaptive LIFO"). A burst of requests
    from one address (200 PDFs asked for at once, each refused or put in line in a millisecond)
    otherwise made every poll that came after it wait for the whole burst: a poll's 99th
    percentile went to 70 times its idle value. Taken newest first, the phones' polls go between
    the burst's requests, and the burst, queued first, is answered as the queue shortens.

    The threads are daemons: a worker leaves only after gunicorn's graceful wait for the requests
    in flight, and an idle thread must not keep a stopping worker alive.
    """

    def __init__(self, threads: int):
        self._most = threads
        self._lock = threading.Lock()
        self._idle: list[SimpleQueue] = []  # each idle thread's inbox, the most recently idle last
        self._queued: deque = deque()  # tasks waiting while every thread is busy
        self._threads: list[threading.Thread] = []
        self._stopping = False

    def submit(self, fn, /, *args, **kwargs) -> Future:
        """Run ``fn(*args, **kwargs)`` on a thread; its future."""
        future: Future = Future()
        task = (future, fn, args, kwargs)
        with self._lock:
            if self._stopping:
                raise RuntimeError("cannot schedule new tasks after shutdown")
            if self._idle:
                self._idle.pop().put(task)
            elif len(self._threads) < self._most:
                thread = threading.Thread(
                    target=self._serve, args=(task,), name=f"castellan-{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            else:
                self._queued.append(task)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more tasks; the idle threads end, the busy ones after the tasks queued (the
        tasks queued are cancelled instead with ``cancel_futures``); ``wait`` for them all."""
        with self._lock:
            self._stopping = True
            idle, self._idle = self._idle, []
            cancelled = ()
            if cancel_futures:
                cancelled, self._queued = self._queued, deque()
        for future, *_task in cancelled:
            future.cancel()
        for inbox in idle:
            inbox.put(None)
        if wait:
            for thread in self._threads:
                thread.join()

    def _serve(self, task) -> None:
        inbox: SimpleQueue = SimpleQueue()
        while task is not None:
            _run(*task)
            with self._lock:
                if self._queued:
                    long = len(self._queued) > NEWEST_FIRST_AFTER
                    task = self._queued.pop() if long else self._queued.popleft()
                    continue
                if self._stopping:
                    return
                self._idle.append(inbox)
            task = inbox.get()


def _run(future: Future, fn, args: tuple, kwargs: dict) -> None:
    """One task, its outcome on its future (unless it was cancelled while it waited)."""
    if not future.set_running_or_notify_cancel():
        return
    try:
        result = fn(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - the future carries it, as Python's pool does
        future.set_exception(error)
    else:
        future.set_result(result)


class WarmThreadWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker, its requests given to threads by ``LastIdleFirst``."""

    def get_thread_pool(self) -> LastIdleFirst:
        return LastIdleFirst(self.cfg.threads)


def compile_templates(app: Flask) -> None:
    """Compile every page template once, before the workers fork.

    Jinja compiles a template at its first use, in each worker: 20 to 70 ms that the first phone
    to open a game's table, or to finish one, waited for (the bench saw it as one slow move in
    thirty). Compiled here, the templates are shared by every worker and frozen with the heap.
    """
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)


def freeze_startup_heap() -> None:
    """Take what the app built at start (modules, templates, catalogs, locale data: about 130,000
    objects) out of the garbage collector's reach, before the workers fork.

    A full collection walks every tracked object while the worker's threads wait: measured on a
    warmed-up app (every game's page served), 30 ms with the startup heap tracked, under 1 ms
    with it frozen, a pause that every phone polling that worker would otherwise feel now and
    then. It also leaves those objects' memory pages shared with the parent (the collector no
    longer writes to them). What the workers build later (caches, tables) is collected as before.
    """
    gc.collect()
    gc.freeze()


# Objects a worker may allocate (net) before the collector looks at the youngest ones: Python's
# 700 is about half of what one move answer builds, so a collection ran in the middle of one
# move in two and walked its views and states, all alive then and freed a moment later.
# Measured under gunicorn (one worker, 30 Forteresse moves, then 30 Square Tactics moves): the
# collector's time per move 141 and 123 us at 700, 77 and 55 us at 3,000; at 10,000 the mean
# was no better and single pauses reached 2 ms.
YOUNG_OBJECTS = 3000


def tune_collector() -> None:
    """Collect the youngest objects less often (``YOUNG_OBJECTS``); the older generations as Python does."""
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS, middle, old)


def _prestart_builder(_worker) -> None:
    """gunicorn's hook after a worker has started: its helper for printed sheets (``pdf_cache.Builder``)."""
    from companion.web.pdf_cache import BUILDER

    BUILDER.prestart()


def _stop_builder(_arbiter, _worker) -> None:
    """gunicorn's hook as a worker leaves (in the worker): its helper leaves with it."""
    from companion.web.pdf_cache import BUILDER

    BUILDER.stop()


def run(app: Flask, host: str, port: int, workers: int, threads: int, quiet: bool = False) -> None:
    """Serve ``app`` on ``host:port`` until interrupted (Ctrl+C or SIGTERM stop it cleanly).

    The app is built once before the workers fork (its database is migrated once); each
    worker opens its own database connections per request.
    """
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    compile_templates(app)
    freeze_startup_heap()
    tune_collector()
    _Gunicorn(
        app,
        {
            "bind": [bind],
            "workers": workers,
            "worker_class": WarmThreadWorker,
            "threads": threads,
            "worker_connections": CONNECTIONS_PER_WORKER,
            "keepalive": KEEPALIVE_SECONDS,
            "backlog": 2048,
            "graceful_timeout": 5,
            "proc_name": "castellan",
            "loglevel": "warning" if quiet else "info",
            "accesslog": None,
            # gunicorn would believe X-Forwarded-Proto from 127.0.0.1 by itself; only
            # CASTELLAN_TRUSTED_PROXIES (ProxyFix, opt-in) may say a request came by HTTPS.
            "forwarded_allow_ips": "",
            # gunicorn 25.1 and later open a control socket (~/.gunicorn/gunicorn.ctl) through which
            # the same user can change the workers or stop the server: Castellan needs none, and two
            # servers on one machine (the bench's, a test's) would share that one path.
            "control_socket_disable": True,
            # Each worker's printing helper starts with the worker, not with the first sheet asked for.
            "post_worker_init": _prestart_builder,
            "worker_exit": _stop_builder,
        },
    ).run()
