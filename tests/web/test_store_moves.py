"""What a move costs the store: the same statements at move 5 and at move 60, the same amount of
the state written at move 10 and at move 600, its log entry known without reading the log again,
and a repeat or a stale move still refused, on both backends."""

from __future__ import annotations

import sys

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from companion import store
from companion.rules import scorepad
from companion.store import base, db, jsontext, tables


@pytest.fixture
def conn(database):
    """A connection to a migrated database of the backend the test runs on, closed after it."""
    store.migrate(database)
    connection = db.connect(database)
    yield connection
    connection.close()


def _pad(conn):
    table, links = store.create_table(conn, scorepad, "scorepad", {"players": ["Ola", "Kuba", "Ada"]})
    return table, links[0]


def _round(points: int) -> dict:
    return {"type": "round", "points": [points, points + 1, points + 2]}


def _run_through(monkeypatch, run) -> None:
    """Send every statement the store runs on the driver (``db.run``) through ``run``, in each of
    its modules (each imported ``run`` by name)."""
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", None) or ""
        if (
            name.startswith("companion.store.")
            and module is not db
            and getattr(module, "run", None) is db.run
        ):
            monkeypatch.setattr(module, "run", run)


def _statements(conn, monkeypatch) -> list[str]:
    """Every statement the store sends from now on, through its own ``run`` or through SQLAlchemy."""
    sent: list[str] = []
    _run_through(
        monkeypatch,
        lambda c, statement, params=None: sent.append(statement.sqlite) or db.run(c, statement, params),
    )
    event.listen(conn, "before_cursor_execute", lambda *args: sent.append(args[2]))
    return sent


@pytest.mark.both_backends
def test_a_move_sends_the_same_statements_early_and_late(conn, monkeypatch):
    table, referee = _pad(conn)
    sent = _statements(conn, monkeypatch)
    counts = {}
    for number in range(61):
        before = len(sent)
        # Keyed, as every page's move is: the key's lookup, its sweep and its insert are counted too.
        table = store.act(
            conn,
            scorepad,
            table.id,
            "referee",
            _round(number),
            table.version,
            store.Once(f"k{number}", referee.token),
        )
        if number % store.SNAPSHOT_EVERY not in (0, 24):  # a snapshot's own insert, every 25 moves
            counts[number] = len(sent) - before
    assert counts[5] == counts[60] == max(counts.values()) == min(counts.values())


def _pieces(conn, table_id: str) -> list[str]:
    return list(
        conn.execute(
            sa.select(db.state_pieces.c.text)
            .where(db.state_pieces.c.table_id == table_id)
            .order_by(db.state_pieces.c.piece)
        ).scalars()
    )


@pytest.mark.both_backends
def test_a_late_move_writes_no_more_of_the_state_than_an_early_one(conn, monkeypatch):
    """A score pad's state grows with its rounds; a move rewrites only the pieces of its text it
    changes (the last one or two), and the pieces read back are the state, after moves and undos."""
    table, _referee = _pad(conn)
    written: dict[int, int] = {}  # move number -> characters of the state written

    def run(c, statement, params=None):
        if (
            "INSERT INTO state_pieces" in statement.sqlite
        ):  # on PostgreSQL, with the table's row: one statement
            written[len(table.state["rounds"]) + 1] = sum(
                len(params[f"t{row}"]) for row in range(len(params)) if f"t{row}" in params
            )
        return db.run(c, statement, params)

    _run_through(monkeypatch, run)
    for number in range(600):
        table = store.act(conn, scorepad, table.id, "referee", _round(number), table.version)
    text = base.dump(table.state)
    assert len(text) > 4 * store.PIECE  # the late moves' state is many pieces long
    assert len(written) == 600 and max(written[move] for move in range(300, 601)) <= 2 * store.PIECE
    assert "".join(_pieces(conn, table.id)) == text and store.stored_state(conn, table.id) == table.state
    for _ in range(300):  # back below several pieces' ends: the pieces past the text's end go
        table = store.undo(conn, scorepad, table.id, table.version)
    assert "".join(_pieces(conn, table.id)) == base.dump(table.state) and len(table.state["rounds"]) == 300
    assert len(_pieces(conn, table.id)) == -(-len(base.dump(table.state)) // store.PIECE)
    store.forget_head(table.id)  # read back from the database itself
    assert store.get_table(conn, table.id).state == table.state


@pytest.mark.both_backends
def test_a_state_kept_in_one_piece_as_the_migration_left_it_is_read_and_cut_anew(conn):
    table, _referee = _pad(conn)
    for number in range(200):
        table = store.act(conn, scorepad, table.id, "referee", _round(number), table.version)
    whole = base.dump(table.state)
    with conn.begin():  # what migration 0012 writes: the whole text as piece 0
        conn.execute(db.state_pieces.delete().where(db.state_pieces.c.table_id == table.id))
        conn.execute(db.state_pieces.insert().values(table_id=table.id, piece=0, text=whole))
    store.forget_head(table.id)
    table = store.act(conn, scorepad, table.id, "referee", _round(7), table.version)
    pieces = _pieces(conn, table.id)
    assert "".join(pieces) == base.dump(table.state) and len(table.state["rounds"]) == 201
    assert max(map(len, pieces)) == store.PIECE and len(pieces) > 1
    table = store.undo(conn, scorepad, table.id, table.version)
    assert store.stored_state(conn, table.id)["rounds"] == [_round(number)["points"] for number in range(200)]


@pytest.mark.both_backends
def test_a_table_read_while_a_move_lands_has_the_state_of_the_version_it_says(conn, database, monkeypatch):
    """Another process's move commits between the read of the table's row and of its state's pieces."""
    table, _referee = _pad(conn)
    table = store.act(conn, scorepad, table.id, "referee", _round(1), table.version)
    store.forget_head(table.id)  # as in a process that did not make the move
    other = db.connect(database)

    class Row:
        def __init__(self, row):
            self.row = row

        def fetchone(self):
            return self.row

    def run(c, statement, params=None):
        found = db.run(c, statement, params)
        if statement is tables._TABLE and c is conn:
            row = found.fetchone()
            store.act(other, scorepad, table.id, "referee", _round(2), table.version)  # lands now
            store.forget_head(table.id)
            return Row(row)
        return found

    _run_through(monkeypatch, run)
    read = store.get_table(conn, table.id)
    other.close()
    assert (read.version, read.state["rounds"]) == (table.version + 1, [[1, 2, 3], [2, 3, 4]])


def test_a_list_begins_with_another_only_when_it_holds_the_very_same_items():
    """The encoder's test that a list begins with another's very items (``jsontext.same_items``)."""
    rounds = [[n, n] for n in range(300)]
    assert jsontext.same_items(rounds, [*rounds, [1, 1]], 300)
    assert jsontext.same_items(rounds[:10], rounds, 10)
    assert not jsontext.same_items(rounds, [list(points) for points in rounds], 300)  # equal, not the same
    assert not jsontext.same_items(rounds, [*rounds[:299], [299, 299]], 300)
    assert not jsontext.same_items(rounds, [*rounds[:150], [150, 150], *rounds[151:]], 300)


@pytest.mark.both_backends
def test_the_move_s_entry_is_the_log_s(conn):
    table, _referee = _pad(conn)
    for number in range(3):
        table = store.act(conn, scorepad, table.id, "referee", _round(number), table.version)
        kept = store.last_action(conn, table.id, table.version)
        read = store.last_action(conn, table.id)
        assert kept == read and kept["seq"] == number + 1 and kept["action"] == _round(number)
        assert (
            str(kept["description"])
            == f"Round {number + 1}: Ola {number}, Kuba {number + 1}, Ada {number + 2}."
        )
    table = store.undo(conn, scorepad, table.id, table.version)  # an undo keeps no entry: the log says
    assert store.last_action(conn, table.id, table.version)["seq"] == 2
    assert store.last_action(conn, table.id, table.version - 1) == store.last_action(conn, table.id)


@pytest.mark.both_backends
def test_a_repeat_and_a_stale_move_are_still_refused(conn):
    table, referee = _pad(conn)
    moved = store.act(
        conn, scorepad, table.id, "referee", _round(1), table.version, store.Once("once", referee.token)
    )
    with pytest.raises(store.Repeated):
        store.act(
            conn, scorepad, table.id, "referee", _round(1), moved.version, store.Once("once", referee.token)
        )
    with pytest.raises(store.StaleTable) as stale:
        store.act(conn, scorepad, table.id, "referee", _round(2), table.version)
    assert stale.value.table.version == moved.version
    assert [entry["seq"] for entry in store.history(conn, table.id)] == [1]
    assert store.get_table(conn, table.id).state["rounds"] == [[1, 2, 3]]


@pytest.mark.both_backends
def test_a_repeat_says_the_version_its_move_made_even_after_another_move(conn):
    """A phone's move whose answer was lost, another phone's move, then the repeat: the repeat
    says the version the first move made, not the table's version now."""
    table, referee = _pad(conn)
    first = store.act(
        conn, scorepad, table.id, "referee", _round(1), table.version, store.Once("a", referee.token)
    )
    store.act(conn, scorepad, table.id, "referee", _round(2), first.version)
    with pytest.raises(store.Repeated) as repeat:
        store.act(
            conn, scorepad, table.id, "referee", _round(1), table.version, store.Once("a", referee.token)
        )
    assert repeat.value.version == first.version == table.version + 1
    assert repeat.value.answer is None  # a page form's key keeps no answer: the API's contract


def test_a_csrf_token_checked_once_holds_only_with_its_own_session(app):
    from tests.conftest import Browser

    phone, thief = Browser(app.test_client()), Browser(app.test_client())
    token = phone.create_table("scorepad", {"players": "Ola\nKuba"})
    with db.connect(app.config["DATABASE"]) as conn:
        version = store.get_table(conn, store.find_link(conn, token).table_id).version
    moved = phone.post(f"/t/{token}/act", {"points": ["3", "4"], "version": str(version)}, htmx=True)
    assert moved.status_code == 200 and b"Round 1: Ola 3, Kuba 4." in moved.data
    thief.get("/")  # a session of its own, with the phone's token (checked a moment ago) in its form
    stolen = thief.client.post(
        f"/t/{token}/act", data={"csrf_token": phone.csrf, "points": ["9", "9"], "version": str(version + 1)}
    )
    assert stolen.status_code == 400
    forged = phone.client.post(
        f"/t/{token}/act",
        data={"csrf_token": phone.csrf + "x", "points": ["9", "9"], "version": str(version + 1)},
    )
    assert forged.status_code == 400
    again = phone.post(f"/t/{token}/act", {"points": ["5", "6"], "version": str(version + 1)}, htmx=True)
    assert again.status_code == 200 and b"Round 2: Ola 5, Kuba 6." in again.data


def test_small_numbers_are_written_as_babel_writes_them():
    from babel.numbers import format_decimal

    from companion import i18n
    from companion.i18n import language

    for lang in i18n.LANGUAGES:
        assert all(
            language._decimal(number, lang) == format_decimal(number, locale=lang)
            for number in range(-5, 1200)
        )
