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

from flask import Flask
from gunicorn.app.base import BaseApplication

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
            "worker_class": "gthread",
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
        },
    ).run()
