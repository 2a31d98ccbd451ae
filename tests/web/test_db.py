"""The database: migrations on SQLite and PostgreSQL, a SQLite file from before Alembic upgraded
in place with its tables intact, and pooled connections that start every request clean."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sqlalchemy as sa

from companion import store
from companion.app import create_app
from companion.rules import scorepad
from companion.store import base, db
from tests.conftest import fresh_database

# Made by Castellan's last hand-rolled migrations (PRAGMA user_version = 4): one score pad of
# 31 entries (the last undone, then one more sent with the Idempotency-Key "k1").
OLD_DATABASE = Path(__file__).parent / "fixtures" / "schema4.sqlite3"
OLD_TABLE = "WtehSINLIpfJpKiP2ECctA"
OLD_REFEREE = "M7JVqCGu17GVlijw8LJl8Q"


@pytest.mark.both_backends
def test_a_fresh_database_gets_every_migration(database):
    assert store.migrate(database) == db.head()
    with db.connect(database) as conn:
        columns = {column["name"] for column in sa.inspect(conn).get_columns("tables")}
        assert {"id", "game", "version", "title", "finished_at"} <= columns
        assert {"table_id", "piece", "text"} == {
            column["name"] for column in sa.inspect(conn).get_columns("state_pieces")
        }
        if conn.dialect.name == "sqlite":
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert store.migrate(database) == db.head()  # a second start changes nothing


def test_a_sqlite_database_from_before_alembic_is_upgraded_in_place_and_keeps_its_tables(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copy(OLD_DATABASE, path)
    app = create_app({"DATABASE": str(path), "SECRET_KEY": "t", "TESTING": True})
    with app.app_context():
        from companion.http.context import get_db

        conn = get_db()
        assert db.schema_version(conn) == db.head()
        assert store.player_names(conn) == ["Kuba", "Ola"]  # migration 0009 remembered the names typed
        assert store.list_plays(conn) == []  # the pad was never finished: no play
        link = store.find_link(conn, OLD_REFEREE)
        assert [lk.role for lk in store.table_links(conn, link.table_id)] == ["referee", "viewer"]
        table = store.get_table(conn, OLD_TABLE)
        assert (table.title, table.head_seq, table.version) == ("Ola, Kuba", 31, 32)
        assert table.state["rounds"][-1] == [5, 5] and len(table.state["rounds"]) == 30
        with pytest.raises(store.Repeated) as repeat:  # the key recorded before the upgrade still answers
            store.act(
                conn,
                scorepad,
                table.id,
                "referee",
                {"type": "round", "points": [5, 5]},
                None,
                store.Once("k1", OLD_REFEREE),
            )
        assert repeat.value.answer == {"v": 32}
        for _ in range(3):  # past the snapshot at 25, through the undone entry
            table = store.undo(conn, scorepad, table.id, table.version)
        assert table.state["rounds"][-1] == [26, 2]
        table = store.act(
            conn, scorepad, table.id, "referee", {"type": "round", "points": [3, 3]}, table.version
        )
        assert table.state["rounds"][-2:] == [[26, 2], [3, 3]]


@pytest.mark.both_backends
def test_a_database_from_a_newer_castellan_is_refused_clearly(database):
    store.migrate(database)
    with db.connect(database) as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
        conn.commit()
    with pytest.raises(RuntimeError, match="newer Castellan"):
        store.migrate(database)


@pytest.mark.both_backends
def test_a_failing_migration_leaves_the_database_at_the_last_good_version(database, tmp_path, monkeypatch):
    scripts = tmp_path / "migrations"
    shutil.copytree(db.SCRIPT_LOCATION, scripts)
    (scripts / "versions" / "9999_broken.py").write_text(
        "from alembic import op\n"
        f"revision = '9999'\ndown_revision = '{db.head()}'\n\n"
        "def upgrade():\n"
        "    op.execute('CREATE TABLE x (a INTEGER)')\n"
        "    op.execute('CREATE TABLE x (a INTEGER)')\n"
    )
    monkeypatch.setattr(db, "SCRIPT_LOCATION", str(scripts))
    with pytest.raises(sa.exc.DatabaseError, match="already exists"):
        store.migrate(database)
    monkeypatch.undo()
    with db.connect(database) as conn:
        assert db.schema_version(conn) == db.head()
        assert not sa.inspect(conn).has_table("x")


@pytest.mark.both_backends
def test_a_pooled_connection_is_reused_and_never_keeps_a_transaction(database):
    """Opening a connection per request cost more than an unchanged poll; a reused one starts clean."""
    store.migrate(database)
    first = db.connect(database)
    raw = first.connection.dbapi_connection
    first.execute(sa.text("UPDATE tables SET title = 'x'"))
    first.execute(sa.text("CREATE TABLE t (x INTEGER)"))
    first.close()
    with db.connect(database) as again:
        assert again.connection.dbapi_connection is raw
        assert not again.in_transaction()
        assert not sa.inspect(again).has_table("t")


@pytest.mark.both_backends
def test_the_plays_kept_before_directions_were_stored_get_theirs_from_their_details(database):
    store.migrate(database)
    with db.connect(database) as conn, conn.begin():  # back to version 0009 (the test server's are migrated)
        conn.execute(sa.text("DROP TABLE play_photos"))  # 0018
        conn.execute(sa.text("ALTER TABLE play_players DROP COLUMN thinking_seconds"))  # 0017
        conn.execute(sa.text("ALTER TABLE tables DROP COLUMN links_version"))  # 0016
        conn.execute(sa.text("ALTER TABLE action_keys DROP COLUMN version"))  # 0015
        conn.execute(sa.text("DROP TABLE table_clocks"))  # 0014
        conn.execute(sa.text("ALTER TABLE plays DROP COLUMN first_player"))  # 0013
        conn.execute(sa.text("ALTER TABLE plays DROP COLUMN lowest_wins"))
        conn.execute(sa.text("ALTER TABLE tables DROP COLUMN rematch_id"))
        conn.execute(sa.text("DROP TABLE state_pieces"))  # 0012: the state was tables.state
        conn.execute(sa.text("ALTER TABLE tables ADD COLUMN state TEXT NOT NULL DEFAULT '{}'"))
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0009'"))
    rows = {
        "low-pad-0001": '{"lowest_wins":true,"rounds":[[3,9]]}',
        "high-pad-0001": '{"lowest_wins":false,"rounds":[]}',
        "castle-play-01": '{"sides":[]}',
    }
    with db.connect(database) as conn, conn.begin():
        for play_id, details in rows.items():
            conn.execute(
                sa.text(
                    "INSERT INTO plays (id, game, started, finished, seconds, details)"
                    " VALUES (:id, 'scorepad', '2026-11-20T19:00:00.000+00:00', '2026-11-20T19:30:00.000+00:00', 1800, :details)"
                ),
                {"id": play_id, "details": details},
            )
        player = conn.execute(
            sa.text(
                "INSERT INTO players (name, key, created_at) VALUES ('Ola', 'ola', '2026-11-20T19:00:00.000+00:00')"
                " RETURNING id"
            )
        ).scalar()
        conn.execute(
            sa.text(
                "INSERT INTO play_players (play_id, position, player_id, finished, score, winner)"
                " VALUES ('low-pad-0001', 0, :player, '2026-11-20T19:30:00.000+00:00', 3, true)"
            ),
            {"player": player},
        )
    assert store.migrate(database) == db.head()
    with db.connect(database) as conn:
        kept = dict(conn.execute(sa.select(db.plays.c.id, db.plays.c.lowest_wins)).all())
    assert {play_id: bool(low) for play_id, low in kept.items()} == {
        "low-pad-0001": True,
        "high-pad-0001": False,
        "castle-play-01": False,
    }
    with db.connect(database) as conn:  # who began those plays is not known, and stays so
        assert conn.execute(sa.select(db.plays.c.first_player).distinct()).scalars().all() == [None]
        # nobody timed them either: no seat of theirs has a thinking time
        assert conn.execute(sa.select(db.play_players.c.thinking_seconds)).scalars().all() == [None]


def _open_files(path: str) -> int:
    """How many of this process's open files are the SQLite database ``path`` or its WAL and index."""
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if _target(fd).startswith(path))


def _target(fd: Path) -> str:
    try:
        return str(fd.readlink())
    except OSError:  # closed while listed
        return ""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to count open files")
def test_dispose_lets_go_of_every_file_a_database_held(tmp_path):
    path = str((tmp_path / "let-go.sqlite3").resolve())
    app = create_app({"DATABASE": path, "SECRET_KEY": "t", "TESTING": True})
    client = app.test_client()
    assert client.get("/").status_code == 200
    with db.connect(path), db.connect(path):  # two pooled connections, given back to the pool
        pass
    assert _open_files(path) > 0  # this thread's connection and the pool's hold the file open
    db.dispose(path)
    assert _open_files(path) == 0
    assert client.get("/").status_code == 200  # the next request opens a new engine
    db.dispose(path)
    assert _open_files(path) == 0


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """A database with nothing in it yet, on each backend: not even the test server's migrations."""
    yield from fresh_database(request, tmp_path, request.param, empty=True)


def test_every_migration_from_the_first_builds_the_schema_the_store_expects(empty_database):
    """Each migration is frozen (tests/test_layers.py): run one by one from the first, they still
    build every table, column and index the store's schema (``db.metadata``) names, and no other."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    for revision in range(1, int(db.head()) + 1):
        assert store.migrate(empty_database, f"{revision:04d}") == f"{revision:04d}"
    with db.connect(empty_database) as conn:
        assert compare_metadata(MigrationContext.configure(conn), db.metadata) == []


def test_the_tables_that_ended_before_0009_become_plays_once_migrated(empty_database):
    """A database at 0008 (tables, no plays): migrating it runs the store's backfill, in the same
    transaction, which makes the finished pad a play and remembers every name typed."""
    store.migrate(empty_database, "0008")
    ended = scorepad.apply(scorepad.new_table({"players": ["Ola", "Kuba"]}, 1), _ROUND, "referee")
    with db.connect(empty_database) as conn, conn.begin():
        for number, finished_at in enumerate(("2026-11-20T19:30:00.000+00:00", None)):
            conn.execute(
                sa.text(
                    "INSERT INTO tables (id, game, title, options, seed, version, head_seq, state,"
                    " created_at, updated_at, finished_at) VALUES (:id, 'scorepad', '', :options, 1, 2, 2,"
                    " :state, '2026-11-20T19:00:00.000+00:00', '2026-11-20T19:30:00.000+00:00', :finished)"
                ),
                {
                    "id": f"table-before-0009-{number}",
                    "options": '{"players":["Ola","Kuba"]}',
                    "state": base.dump(ended),
                    "finished": finished_at,
                },
            )
    assert store.migrate(empty_database) == db.head()
    with db.connect(empty_database) as conn:
        [play] = store.list_plays(conn)
        assert (play.finished, [(p.name, p.score, p.winner) for p in play.players]) == (
            "2026-11-20T19:30:00Z",
            [("Ola", 5, True), ("Kuba", 3, False)],
        )
        assert store.player_names(conn) == ["Kuba", "Ola"]
        assert store.get_table(conn, "table-before-0009-1").state == ended  # its state moved to pieces


_ROUND = {"type": "round", "points": [5, 3]}
