"""The database: SQLite when ``CASTELLAN_DATABASE`` is a path, PostgreSQL when it is a
``postgresql://`` URL, both through SQLAlchemy Core, with Alembic migrations.

The migrations are the Alembic scripts in ``companion/store/migrations/versions`` (``0001`` ...).
A database written by an older Castellan opens and is brought up to date, one written by a
newer Castellan is refused. A SQLite database from before Alembic (it counted its migrations in
``PRAGMA user_version``) is recognised and upgraded in place.

Each process keeps one engine per database, with a pool of open connections: a request
borrows one and gives it back, so a poll pays no connection (opening one cost more than
answering an unchanged poll). A forked worker starts its own pool.
"""

from __future__ import annotations

import fcntl
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from importlib import resources
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

# Each serving thread may hold one connection; gunicorn's default is 8 threads per worker.
POOL_SIZE = 8
POOL_OVERFLOW = 24
# Any number, the same in every process: the lock that keeps two starting servers from migrating at once.
_MIGRATION_LOCK = 0x43415354

metadata = sa.MetaData()

# A table is one game being played; its state is derived from its action log.
tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),  # unguessable, 128 bits
    sa.Column("game", sa.Text, nullable=False),  # the game's slug
    sa.Column("title", sa.Text, nullable=False, server_default=""),  # the players' names
    sa.Column("options", sa.Text, nullable=False),  # JSON: choices made at creation
    sa.Column("seed", sa.BigInteger, nullable=False),  # chance is explicit: the rules draw from it
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),  # bumps on every change
    sa.Column("head_seq", sa.Integer, nullable=False, server_default="0"),  # last entry in force
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("finished_at", sa.Text),  # set when the referee finished the table
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),  # never becomes a play
    sa.Column("rematch_id", sa.Text),  # the table its Rematch started: tapped again, the same one opens
    # bumps when a seat's link is first opened, claimed or freed: the referee's invitations follow it
    sa.Column("links_version", sa.Integer, nullable=False, server_default="0"),
)

# Every link to a table: the referee's, the viewer's and one per private seat.
links = sa.Table(
    "links",
    metadata,
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("role", sa.Text, nullable=False),
    sa.Column("seat", sa.Text),
    sa.Column("label", sa.Text, nullable=False),
    sa.Column("joined_at", sa.Text),  # when a seat's private link was first opened
    sa.Column("claimed_by", sa.Text),  # a digest of the phone that claimed this seat; NULL while free
    sa.Column("position", sa.Integer, nullable=False, server_default="0"),  # creation order
    sa.Index("links_by_table", "table_id"),
)

# The action log: appended to, never rewritten except to mark an entry undone.
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("actor", sa.Text, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),  # JSON: the action as the rules module took it
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("undone_at", sa.Text),
    sa.Column("kind", sa.Text, nullable=False, server_default="move"),  # "move" or "finish"
)

# The state after a table's head_seq (a cache of the log): its JSON text cut into pieces of
# ``store.PIECE`` characters, in order. A change rewrites only the pieces whose text changed: a
# move that adds to a long log (a score pad's rounds) writes its last piece or two, at any length.
state_pieces = sa.Table(
    "state_pieces",
    metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("piece", sa.Integer, primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
)

# States after some entries, so undo replays a bounded stretch of the log.
snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("state", sa.Text, nullable=False),
)

# The Idempotency-Keys of the changes made: a repeat finds its key and gets the first answer.
action_keys = sa.Table(
    "action_keys",
    metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("token", sa.Text, nullable=False),
    sa.Column("answer", sa.Text),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("version", sa.Integer),  # the table's version after the change: what a repeat made
    sa.Index("action_keys_by_age", "created_at"),  # swept by age
)

# Everyone whose name was typed at a table's start or who played: the same name is the same player.
players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("key", sa.Text, nullable=False, unique=True),  # the name normalised (see store.name_key)
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column(
        "offered", sa.Boolean, nullable=False, server_default=sa.true()
    ),  # a name typed at a start: autocomplete offers it
)

# A finished table (or an imported one): the history's rows.
plays = sa.Table(
    "plays",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("table_id", sa.Text, unique=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("started", sa.Text, nullable=False),
    sa.Column("finished", sa.Text, nullable=False),
    sa.Column("seconds", sa.Integer, nullable=False),
    sa.Column("details", sa.Text, nullable=False, server_default="{}"),
    sa.Column(
        "lowest_wins", sa.Boolean, nullable=False, server_default=sa.false()
    ),  # its scores count down (store.lowest_wins)
    sa.Column("first_player", sa.Integer),  # who began: a place in its players (none: not known)
    sa.Index("plays_by_finished", "finished", "id"),
    sa.Index("plays_by_game", "game", "finished", "id"),
)

# Who played a play, in the result's order, with their team, score and whether they won.
play_players = sa.Table(
    "play_players",
    metadata,
    sa.Column("play_id", sa.Text, sa.ForeignKey("plays.id"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
    sa.Column("finished", sa.Text, nullable=False),  # the play's, for the index below
    sa.Column("team", sa.Text),
    sa.Column("score", sa.BigInteger),
    sa.Column("winner", sa.Boolean, nullable=False),
    # the seconds the table's turn timer or chess clock counted for them (none: the table had no such clock)
    sa.Column("thinking_seconds", sa.Integer),
    sa.Index("play_players_by_player", "player_id", "finished", "play_id"),
)

# A play's photos (store/photos.py): the bytes the service made safe, at most four a play.
play_photos = sa.Table(
    "play_photos",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("play_id", sa.Text, sa.ForeignKey("plays.id"), nullable=False),
    sa.Column("media_type", sa.Text, nullable=False),  # image/jpeg, image/png or image/webp
    sa.Column("width", sa.Integer, nullable=False),
    sa.Column("height", sa.Integer, nullable=False),
    sa.Column("size", sa.Integer, nullable=False),  # bytes of content
    sa.Column("digest", sa.Text, nullable=False),  # of content: part of the photo's address
    sa.Column("alt", sa.Text),  # the uploader's text alternative (none: the page says its own)
    sa.Column("added", sa.Text, nullable=False),
    sa.Column("content", sa.LargeBinary, nullable=False),
    sa.Index("play_photos_by_play", "play_id", "id"),
)

# A table's clock (companion/rules/clock.py): its pauses, as JSON. A table never paused has no row.
table_clocks = sa.Table(
    "table_clocks",
    metadata,
    sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("clock", sa.Text, nullable=False),
)

# Where the Alembic scripts are: inside the package, so an installed wheel migrates too.
SCRIPT_LOCATION = str(resources.files("companion.store").joinpath("migrations"))

# The tables a browser created or joined, for its home page (a digest of its identity, never the identity).
remembered = sa.Table(
    "remembered",
    metadata,
    sa.Column("phone", sa.Text, primary_key=True),
    sa.Column("token", sa.Text, primary_key=True),
    sa.Column("seen_at", sa.Text, nullable=False),
)

# Rate limits shared by every worker: one fixed-window counter per key (see companion/ratelimit.py).
rate_limits = sa.Table(
    "rate_limits",
    metadata,
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("hits", sa.Integer, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

_engines: dict[tuple[int, str], Engine] = {}
_engines_lock = threading.Lock()


def url(database: str | Path) -> str:
    """The SQLAlchemy URL of ``CASTELLAN_DATABASE``: a ``postgresql://`` URL or a SQLite file's path."""
    text = str(database)
    for scheme in ("postgresql://", "postgres://"):
        if text.startswith(scheme):
            return "postgresql+psycopg://" + text[len(scheme) :]
    if text.startswith(("postgresql+", "sqlite:")):
        return text
    return "sqlite:///" + str(Path(text).resolve())


def is_postgresql(database: str | Path) -> bool:
    """True when the database is a PostgreSQL server rather than a SQLite file."""
    return url(database).startswith("postgresql")


def _key(database: str | Path) -> tuple[int, str]:
    """Whose ``database`` this is: this process's (a forked worker makes its own engine and connections)."""
    return os.getpid(), str(database)


def engine(database: str | Path) -> Engine:
    """This process's engine (and pool) for ``database``, made on first use."""
    key = _key(database)
    found = _engines.get(key)
    if found is None:
        with _engines_lock:
            found = _engines.get(key) or _make_engine(database)
            _engines[key] = found
    return found


def connect(database: str | Path) -> Connection:
    """A connection from this process's pool; ``close()`` gives it back, rolling back what it began."""
    return engine(database).connect()


class Sql:
    """A statement of the store's hot paths, run on the driver's own connection (``run``).

    SQLAlchemy Core builds, compiles (or finds in its cache) and wraps every statement: about
    100 µs a lookup on this 2-core machine, where SQLite itself takes 2 to 5 µs. The text is
    written once with ``:name`` parameters and given to each driver in its own style; ``lock``
    adds PostgreSQL's ``FOR UPDATE`` (SQLite's ``BEGIN IMMEDIATE`` already holds the write lock).
    """

    __slots__ = ("sqlite", "postgresql")

    def __init__(self, text: str, lock: bool = False):
        self.sqlite = text
        named = re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", text.replace("%", "%%"))
        self.postgresql = named + (" FOR UPDATE" if lock else "")


def run(conn: Connection, statement: Sql, params: dict | None = None):
    """Run ``statement`` on the driver's connection beneath ``conn``; the driver's cursor (rows are tuples).

    It runs in the transaction ``conn`` began, if any; outside one, a read is its own
    transaction (SQLite's and, see ``_autocommit``, PostgreSQL's autocommit): no BEGIN and
    ROLLBACK around a poll.
    """
    raw = conn.connection.driver_connection
    if isinstance(raw, sqlite3.Connection):
        return raw.execute(statement.sqlite, params or ())
    return raw.execute(statement.postgresql, params)


def run_many(conn: Connection, statement: Sql, rows: list[dict]) -> None:
    """Run ``statement`` once for each of ``rows`` (its parameters), as ``run`` runs it once."""
    raw = conn.connection.driver_connection
    if isinstance(raw, sqlite3.Connection):
        raw.executemany(statement.sqlite, rows)
        return
    with raw.cursor() as cursor:
        cursor.executemany(statement.postgresql, rows)


_held = threading.local()
HELD_PER_THREAD = 4  # databases a thread keeps a connection to (a server has one; tests make many)


def thread_connection(database: str | Path) -> Connection:
    """This thread's own connection to ``database``, kept open from one request to the next.

    Borrowing a connection from the pool and giving it back (with its reset) cost more than
    an unchanged poll's lookup; a gunicorn thread serves one request at a time, so it keeps
    one. Whoever uses it ends what it began (``companion.get_db``'s teardown rolls back a
    transaction left open); outside a transaction it holds no lock (SQLite in WAL, PostgreSQL
    in autocommit: see ``run``).
    """
    held = _held.__dict__.setdefault("connections", {})
    key = _key(database)
    conn = held.get(key)
    if conn is None or conn.invalidated:
        if len(held) >= HELD_PER_THREAD:
            for old in list(held):
                _discard(held.pop(old))
        conn = held[key] = connect(database)
    return conn


def drop_thread_connection(database: str | Path) -> None:
    """Close this thread's connection to ``database`` (after an error: the next use opens a new one)."""
    conn = _held.__dict__.get("connections", {}).pop(_key(database), None)
    if conn is not None:
        _discard(conn)


def dispose(database: str | Path) -> None:
    """Let go of ``database`` in this process: this thread's kept connection and the engine's pool.

    A server keeps its one database for its whole life; tests make a database each, and
    without this every one of them would keep its open files until the process ends.
    """
    drop_thread_connection(database)
    with _engines_lock:
        found = _engines.pop(_key(database), None)
    if found is not None:
        found.dispose()


def _discard(conn: Connection) -> None:
    with suppress(sa.exc.SQLAlchemyError):
        conn.invalidate()


DataStep = Callable[[str | None, str], Callable[[Connection], object] | None]


def migrate(database: str | Path, upto: str = "head", data_step: DataStep | None = None) -> str:
    """Bring the database's schema up to the newest migration (or ``upto``); return its revision.

    Servers starting at once migrate one after the other: on PostgreSQL under an advisory
    lock, on SQLite under a lock on a file beside the database. ``data_step(before, after)`` may
    give a step that fills the new schema with the store's live code (``store.migrate`` passes the
    backfill's): it then runs in the same transaction as the migrations.
    """
    with _migration_lock(database), connect(database) as conn:
        _adopt_user_version(conn)
        known = {script.revision for script in _scripts().walk_revisions()}
        current = schema_version(conn)
        if current is not None and current not in known:
            raise RuntimeError(
                f"This database was written by a newer Castellan (schema {current}, this one knows up to {head()})."
            )
        then = data_step and data_step(current, _scripts().get_revision(upto).revision)
        if then is None:
            command.upgrade(_config(connection=conn), upto)  # each migration in its own transaction
        else:  # the migrations and the data step in one: a kill between them cannot skip the step
            with conn.begin():
                command.upgrade(_config(connection=conn), upto)
                then(conn)
        if conn.in_transaction():
            conn.commit()
        return schema_version(conn)


@contextmanager
def _migration_lock(database: str | Path) -> Iterator[None]:
    if is_postgresql(database):
        with connect(database) as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT")
            conn.exec_driver_sql(f"SELECT pg_advisory_lock({_MIGRATION_LOCK})")
            try:
                yield
            finally:
                conn.exec_driver_sql(f"SELECT pg_advisory_unlock({_MIGRATION_LOCK})")
        return
    with open(f"{Path(database).resolve()}.migrating", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def size_bytes(conn: Connection, database: str | Path) -> int:
    """How many bytes the database takes: the SQLite file and its write-ahead log, or PostgreSQL's database."""
    if is_postgresql(database):
        return conn.execute(sa.text("SELECT pg_database_size(current_database())")).scalar_one()
    path = Path(url(database).removeprefix("sqlite:///"))
    return sum(candidate.stat().st_size for candidate in (path, Path(f"{path}-wal")) if candidate.exists())


def compact(conn: Connection) -> None:
    """Give the space of deleted rows back to the disk (SQLite's ``VACUUM``; PostgreSQL's autovacuum does it)."""
    if conn.dialect.name == "sqlite":
        conn.rollback()
        raw = conn.connection.driver_connection  # VACUUM runs outside any transaction SQLAlchemy would begin
        raw.execute("VACUUM")
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def schema_version(conn: Connection) -> str | None:
    """The revision of the last migration applied to this database (None for an empty one)."""
    revision = MigrationContext.configure(conn).get_current_revision()
    if conn.in_transaction():
        conn.commit()
    return revision


def head() -> str:
    """The newest migration this Castellan knows."""
    return _scripts().get_current_head()


def _make_engine(database: str | Path) -> Engine:
    address = url(database)
    if address.startswith("postgresql"):
        made = sa.create_engine(address, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW, pool_use_lifo=True)
        event.listen(made, "checkout", _autocommit)
        event.listen(made, "begin", _postgresql_begin)
        return made
    made = sa.create_engine(
        address,
        connect_args={"timeout": 10, "check_same_thread": False},
        poolclass=sa.pool.QueuePool,
        pool_size=POOL_SIZE,
        max_overflow=POOL_OVERFLOW,
        pool_use_lifo=True,  # the most recently used connection: a few stay warm
    )
    event.listen(made, "connect", _sqlite_pragmas)
    event.listen(made, "begin", _sqlite_begin)
    return made


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    """WAL, so readers never wait for a writer; and transactions begun by ``_sqlite_begin`` only."""
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def _autocommit(dbapi_conn, _record, _proxy) -> None:
    """PostgreSQL: a read outside a transaction is its own (no BEGIN and ROLLBACK around a poll);
    a transaction is begun by ``_postgresql_begin`` only. Set at every checkout: a connection
    used with another isolation level (the migration lock's) comes back without it."""
    if not dbapi_conn.autocommit:
        dbapi_conn.autocommit = True


def _postgresql_begin(conn: Connection) -> None:
    """With the driver in autocommit, SQLAlchemy's transaction says BEGIN itself (psycopg's
    ``commit`` and ``rollback`` end it: they look at the server's transaction status)."""
    if conn.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
        conn.connection.driver_connection.execute(
            "BEGIN"
        )  # on the driver: SQLAlchemy's execute costs more than BEGIN


def _sqlite_begin(conn: Connection) -> None:
    """A write takes SQLite's write lock from its start (``BEGIN IMMEDIATE``), a read takes none."""
    # On the driver itself: through SQLAlchemy's execute, a BEGIN cost a tenth of a move.
    conn.connection.driver_connection.execute("BEGIN IMMEDIATE" if conn.info.get("immediate") else "BEGIN")


def _adopt_user_version(conn: Connection) -> None:
    """A SQLite database from before Alembic: record its ``user_version`` as the matching revision."""
    if conn.dialect.name != "sqlite" or sa.inspect(conn).has_table("alembic_version"):
        conn.rollback()
        return
    version = conn.exec_driver_sql("PRAGMA user_version").scalar()
    conn.rollback()
    if version:
        command.stamp(_config(connection=conn), f"{version:04d}")
        if conn.in_transaction():
            conn.commit()


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())
