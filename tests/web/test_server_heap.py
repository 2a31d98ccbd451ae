"""The server compiles the templates, freezes the app's startup heap and tunes the collector before its workers fork
(companion.server)."""

from __future__ import annotations

import gc

import pytest
from gunicorn.workers.gthread import ThreadWorker

from companion import server
from companion.app import create_app


@pytest.fixture(autouse=True)
def collector_as_it_was():
    """Serving tunes the collector for the whole process: the other tests get it back as it was."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)


def test_serving_takes_the_startup_heap_out_of_the_collectors_walk(tmp_path, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "heap.sqlite3"), "SECRET_KEY": "test", "SWEEP_DAYS": 0})
    monkeypatch.setattr(server._Gunicorn, "run", lambda self: None)  # built and configured, never bound
    assert any(item is app.jinja_env for item in gc.get_objects())
    try:
        server.run(app, host="127.0.0.1", port=0, workers=1, threads=1, quiet=True)
        # A collection walks what gc.get_objects() lists: the app and its templates are no longer in it.
        assert gc.get_freeze_count() > 10_000
        assert not any(item is app.jinja_env for item in gc.get_objects())
        assert not any(item is app.url_map for item in gc.get_objects())
    finally:
        gc.unfreeze()
    assert any(item is app.jinja_env for item in gc.get_objects())


def test_serving_collects_the_youngest_objects_less_often_than_python_does(tmp_path, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "young.sqlite3"), "SECRET_KEY": "test", "SWEEP_DAYS": 0})
    monkeypatch.setattr(server._Gunicorn, "run", lambda self: None)
    before = gc.get_threshold()
    try:
        server.run(app, host="127.0.0.1", port=0, workers=1, threads=1, quiet=True)
        assert gc.get_threshold() == (server.YOUNG_OBJECTS, before[1], before[2])
        assert before[0] < server.YOUNG_OBJECTS  # Python starts at 700
    finally:
        gc.unfreeze()


def test_serving_compiles_every_template_before_the_workers_fork(tmp_path, monkeypatch):
    app = create_app({"DATABASE": str(tmp_path / "warm.sqlite3"), "SECRET_KEY": "test", "SWEEP_DAYS": 0})
    monkeypatch.setattr(server._Gunicorn, "run", lambda self: None)
    names = app.jinja_env.list_templates(extensions=("html",))
    assert "tables/_over.html" in names and "fort/_table.html" in names
    try:
        server.run(app, host="127.0.0.1", port=0, workers=1, threads=1, quiet=True)
    finally:
        gc.unfreeze()
    compiled = []
    monkeypatch.setattr(app.jinja_env, "compile", lambda *args, **kwargs: compiled.append(args))
    for name in names:  # a worker's first use of each: taken from the cache, none compiled again
        app.jinja_env.get_template(name)
    assert compiled == []


def test_a_move_answer_leaves_no_rendering_for_the_collector(tmp_path):
    """Every game's move answer is freed as soon as it is sent: no template context (and with it the
    view, the table and the request it was drawn from) is left in a reference cycle, which only a
    collection could free. Under load, those cycles made a collection every few moves."""
    from urllib.parse import urlencode

    from jinja2.runtime import Context, Macro

    from bench.bench_server import _csrf, _game_tables
    from companion import store
    from companion.store import db

    database = str(tmp_path / "cycles.sqlite3")
    games = _game_tables(database)
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "SWEEP_DAYS": 0})
    client = app.test_client()
    conn = db.connect(database)
    try:
        for name, game in games.items():
            csrf = _csrf(client.get(f"/t/{game['token']}").data)
            table = store.get_table(conn, game["table"].id)
            gc.collect()
            gc.disable()
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                answers = []
                for actor, action, form in game["next"]:
                    if len(answers) == 3:
                        break
                    if form is None:  # a move the page makes otherwise (a dealt hand): as the bench makes it
                        table = store.act(conn, game["rules"], table.id, actor, action, table.version)
                        continue
                    body = urlencode({**form, "csrf_token": csrf, "version": table.version}, doseq=True)
                    response = client.post(
                        f"/t/{game['token']}/act",
                        data=body,
                        headers={"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"},
                    )
                    answers.append(response.status_code)
                    table = store.get_table(conn, table.id)
                gc.collect()
                left = [type(item).__name__ for item in gc.garbage if isinstance(item, Context | Macro)]
            finally:
                gc.garbage.clear()
                gc.set_debug(0)
                gc.enable()
            assert answers and set(answers) == {200}, (name, answers)
            assert left == [], (name, left)
    finally:
        conn.close()
        db.dispose(database)


def test_serving_opens_no_control_socket(tmp_path, monkeypatch):
    """gunicorn 25.1 and later would open a control socket in the home folder by default."""
    app = create_app({"DATABASE": str(tmp_path / "control.sqlite3"), "SECRET_KEY": "test", "SWEEP_DAYS": 0})
    configured = []
    monkeypatch.setattr(server._Gunicorn, "run", lambda self: configured.append(self.cfg))
    try:
        server.run(app, host="127.0.0.1", port=0, workers=1, threads=1, quiet=True)
    finally:
        gc.unfreeze()
    [cfg] = configured
    if "control_socket_disable" in cfg.settings:  # an older gunicorn has no control socket at all
        assert cfg.control_socket_disable is True
    assert (
        cfg.workers == 1 and cfg.worker_class is server.WarmThreadWorker
    )  # gthread, its threads LastIdleFirst
    assert issubclass(cfg.worker_class, ThreadWorker)
