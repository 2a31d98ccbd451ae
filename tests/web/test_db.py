"""Schema migrations: a database from an older Castellan still opens, with its tables intact."""

from __future__ import annotations

import json

import pytest

from companion import create_app, db, store
from companion.rules import scorepad


def test_a_fresh_database_gets_every_migration(tmp_path):
    conn = db.connect(tmp_path / "new.sqlite3")
    assert db.migrate(conn) == db.migrations()[-1][0]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
    assert {"id", "game", "state", "version", "title"} <= columns


def test_an_older_database_is_upgraded_and_keeps_its_tables(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = db.connect(path)
    assert db.migrate(conn, upto=1) == 1
    # A table written by the version-1 schema (no title column yet).
    conn.execute(
        "INSERT INTO tables (id, game, options, seed, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            "old-table",
            "scorepad",
            json.dumps({"players": ["Ola"]}),
            7,
            json.dumps(scorepad.new_table({"players": ["Ola"]}, 7)),
            "2026-01-01",
            "2026-01-01",
        ),
    )
    conn.execute("INSERT INTO snapshots (table_id, seq, state) SELECT id, 0, state FROM tables")
    conn.close()

    app = create_app({"DATABASE": str(path), "SECRET_KEY": "t", "TESTING": True})
    with app.app_context():
        from companion import get_db

        assert db.schema_version(get_db()) == db.migrations()[-1][0]
        table = store.get_table(get_db(), "old-table")
        assert table.title == ""
        table = store.act(
            get_db(), scorepad, table.id, "referee", {"type": "round", "points": [3]}, table.version
        )
        assert table.state["rounds"] == [[3]]


def test_a_database_from_a_newer_castellan_is_refused_clearly(tmp_path):
    conn = db.connect(tmp_path / "future.sqlite3")
    conn.execute("PRAGMA user_version = 999")
    with pytest.raises(RuntimeError, match="newer Castellan"):
        db.migrate(conn)


def test_a_failing_migration_leaves_the_database_at_the_last_good_version(tmp_path, monkeypatch):
    conn = db.connect(tmp_path / "broken.sqlite3")
    good = db.migrations()
    monkeypatch.setattr(
        db, "migrations", lambda: [*good, (good[-1][0] + 1, "CREATE TABLE x (a); CREATE TABLE x (a);")]
    )
    with pytest.raises(Exception, match="already exists"):
        db.migrate(conn)
    assert db.schema_version(conn) == good[-1][0]
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'x'").fetchone()[0] == 0


def test_a_serving_thread_keeps_its_connection_and_never_a_transaction(tmp_path):
    """Opening a connection per request cost more than an unchanged poll; a kept one starts clean."""
    path = tmp_path / "kept.sqlite3"
    first = db.kept_connection(path)
    first.execute("CREATE TABLE t (x)")
    first.execute("BEGIN")
    first.execute("INSERT INTO t VALUES (1)")
    db.release(first)
    again = db.kept_connection(path)
    assert again is first
    assert not again.in_transaction
    assert again.execute("SELECT count(*) FROM t").fetchone()[0] == 0
