"""The rate limits hold when the requests come all at once: each is counted before its work, in one
statement of the database, and a refusal gives its count back."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from companion.app import create_app
from companion.http.context import get_db
from companion.store import db
from companion.store.limits import DatabaseStorage, storage_uri

SCOREPAD = {"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}}
EMPTY_EXPORT = {"format": "castellan-plays", "version": 1, "plays": []}


def _at_once(app, count: int, path: str, body: dict) -> list[int]:
    """The statuses of ``count`` POSTs of ``body`` to ``path``, each from its own thread, all let go together."""
    start = threading.Barrier(count)
    statuses: list[int] = []

    def post():
        client = app.test_client()
        start.wait()
        statuses.append(client.post(path, json=body).status_code)

    threads = [threading.Thread(target=post) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.mark.both_backends
def test_sixty_creations_at_once_make_exactly_the_limit(database):
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "TABLES_PER_MINUTE": 20})
    statuses = _at_once(app, 60, "/api/v1/tables", SCOREPAD)
    assert sorted(statuses) == [201] * 20 + [429] * 40
    with app.app_context():
        assert get_db().execute(sa.text("SELECT COUNT(*) FROM tables")).scalar() == 20


@pytest.mark.both_backends
def test_twelve_imports_at_once_accept_exactly_the_limit(database):
    app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "IMPORTS_PER_MINUTE": 5})
    statuses = _at_once(app, 12, "/api/v1/plays/import", EMPTY_EXPORT)
    assert sorted(statuses) == [200] * 5 + [429] * 7


def test_a_refused_creation_gives_its_count_back(tmp_path):
    app = create_app(
        {"DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "t", "TESTING": True, "TABLES_PER_MINUTE": 2}
    )
    client = app.test_client()
    for _ in range(5):  # an unknown game: refused, so it costs nothing
        assert client.post("/api/v1/tables", json={"game": "chess"}).status_code == 422
    assert [client.post("/api/v1/tables", json=SCOREPAD).status_code for _ in range(3)] == [201, 201, 429]


def test_a_count_given_back_after_its_window_ended_leaves_the_new_window_alone(tmp_path):
    database = str(tmp_path / "c.sqlite3")
    create_app({"DATABASE": database, "SECRET_KEY": "t", "TESTING": True})
    storage = DatabaseStorage(storage_uri(database))
    storage.incr("k", expiry=-1)  # a window that has already ended
    storage.incr("k", expiry=60, amount=-1)
    assert storage.get("k") == 0
    with db.connect(database) as conn:
        assert conn.execute(sa.text("SELECT hits FROM rate_limits")).scalar() == 0
