"""The server compiles the templates and freezes the app's startup heap before its workers fork
(companion.server)."""

from __future__ import annotations

import gc

from companion import create_app, server


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
