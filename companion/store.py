"""Tables: one game being played, shared between phones, kept in SQLite.

Every action on a table is appended to its log; the table's state is what the game's
rules module derives from the actions still in force. The state after the last action is
cached on the table row, and a snapshot is kept every ``SNAPSHOT_EVERY`` actions, so an
action costs the same at move 5 and at move 500, and an undo replays a short stretch.

Concurrency: an action carries the version of the state it was chosen on. Writing takes
SQLite's write lock (``BEGIN IMMEDIATE``); an action made on an older version is refused
with ``StaleTable`` and nothing is written, so two phones acting at once can neither lose
nor duplicate a move.

Exactly once: an action may come with a key the phone chose (``Once``). The key is stored in
the same transaction as the action, so a phone that sends again after a lost answer finds
it and gets ``Repeated`` with the first answer, never a second move. Every function returns
only after its transaction is committed (in WAL mode, a commit survives the server being
killed), so an answered move is a kept move. The module knows nothing of Flask.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import ModuleType

from companion.rules.errors import RuleError

SNAPSHOT_EVERY = 25
ROLES = ("referee", "viewer", "seat")
TITLE_LENGTH = 120  # a title is made from the players' names; a list shows no more
KEYS_KEPT = timedelta(days=2)  # a phone retries within seconds; a day is the promise, two the margin
FINISH = {"type": "finish"}  # the log entry of a referee finishing the table


@dataclass(frozen=True)
class Link:
    """One way into a table: who holds it decides what they may see and do."""

    token: str
    table_id: str
    role: str  # "referee" (can act), "viewer" (read-only) or "seat" (a player's private link)
    seat: str | None
    label: str
    claimed_by: str | None = None  # a digest of the phone that claimed this seat (see ``claim_seat``)
    joined: bool = False  # the link has been opened (recorded for seats: see mark_joined)

    @property
    def viewer(self) -> str:
        """The name the rules module's ``view`` and ``apply`` know this link by."""
        return self.seat if self.role == "seat" else self.role


@dataclass(frozen=True)
class Table:
    """A table as stored: its game, its options and its current state."""

    id: str
    game: str
    title: str
    options: dict
    seed: int
    version: int
    head_seq: int
    state: dict
    created_at: str
    updated_at: str
    finished_at: str | None = None  # set when the referee finished the table

    @property
    def finished(self) -> bool:
        """True once the referee finished the table (a game may also end by its own rules)."""
        return self.finished_at is not None


@dataclass(frozen=True)
class Once:
    """An action's key, for applying it exactly once: ``answer(table)`` is what a repeat gets back."""

    key: str
    token: str  # the link that acts: a key used through one link answers no other
    answer: Callable[[Table], dict] | None = None


class StaleTable(Exception):
    """The table changed since the acting phone last saw it; ``table`` is how it is now."""

    def __init__(self, table: Table):
        super().__init__("The table changed before your move arrived: here it is now. Nothing was recorded.")
        self.table = table


class Repeated(Exception):
    """This key was already used on this table: the action was applied once, before; ``answer`` is
    what was answered then (None when the first request did not ask for one to be kept)."""

    def __init__(self, answer: dict | None):
        super().__init__("This action was already recorded.")
        self.answer = answer


def new_token() -> str:
    """An unguessable identifier: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def create_table(
    conn: sqlite3.Connection, rules: ModuleType, game: str, options: dict, title: str = ""
) -> tuple[Table, list[Link]]:
    """Create a table and its links (referee, viewer, one per private seat).

    The rules module validates ``options`` (a ``RuleError`` creates nothing).
    """
    seed = secrets.randbits(62)
    state = rules.new_table(options, seed)
    table_id, now = new_token(), _now()
    links = [
        Link(new_token(), table_id, "referee", None, "Referee"),
        Link(new_token(), table_id, "viewer", None, "Viewer"),
    ]
    links += [Link(new_token(), table_id, "seat", seat, label) for seat, label in rules.seats(options)]
    with _write(conn):
        conn.execute(
            "INSERT INTO tables (id, game, title, options, seed, state, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, game, title[:TITLE_LENGTH], _dump(options), seed, _dump(state), now, now),
        )
        conn.execute(
            "INSERT INTO snapshots (table_id, seq, state) VALUES (?, 0, ?)", (table_id, _dump(state))
        )
        conn.executemany(
            "INSERT INTO links (token, table_id, role, seat, label) VALUES (?, ?, ?, ?, ?)",
            [(lk.token, lk.table_id, lk.role, lk.seat, lk.label) for lk in links],
        )
    return get_table(conn, table_id), links


def find_link(conn: sqlite3.Connection, token: str) -> Link | None:
    """The link with this token, or None."""
    row = conn.execute("SELECT * FROM links WHERE token = ?", (token,)).fetchone()
    return _link(row) if row else None


def table_links(conn: sqlite3.Connection, table_id: str) -> list[Link]:
    """Every link of a table: referee, viewer, then the seats in creation order."""
    rows = conn.execute("SELECT * FROM links WHERE table_id = ? ORDER BY rowid", (table_id,)).fetchall()
    return [_link(row) for row in rows]


def claim_seat(conn: sqlite3.Connection, link: Link, phone: str) -> bool:
    """Claim a seat's link for ``phone`` (a browser's secret identity) if no phone has; True if it is this one's.

    Only a digest of ``phone`` is stored. The claim is one conditional UPDATE, so two
    phones opening the link at once cannot both get it.
    """
    digest = phone_digest(phone)
    if link.claimed_by is not None:  # the usual case, read without taking the write lock
        return link.claimed_by == digest
    conn.execute("UPDATE links SET claimed_by = ? WHERE token = ? AND claimed_by IS NULL", (digest, link.token))
    row = conn.execute("SELECT claimed_by FROM links WHERE token = ?", (link.token,)).fetchone()
    return row is not None and row["claimed_by"] == digest


def release_seat(conn: sqlite3.Connection, table_id: str, seat: str) -> Link:
    """The referee frees a claimed seat (its phone is lost): the next phone to open the link claims it.

    The release is written in the table's log (not a move: undo skips it) and changes the
    table's version, so every phone shows it. ``KeyError`` if no such seat is claimed.
    """
    with _write(conn):
        row = conn.execute(
            "SELECT * FROM links WHERE table_id = ? AND role = 'seat' AND seat = ? AND claimed_by IS NOT NULL",
            (table_id, seat),
        ).fetchone()
        if row is None:
            raise KeyError(seat)
        conn.execute("UPDATE links SET claimed_by = NULL WHERE token = ?", (row["token"],))
        description = f"The referee released {row['label']}'s link: the next phone to open it takes the seat."
        _append(conn, table_id, "referee", {"type": "release", "seat": seat}, description, "release")
        conn.execute(
            "UPDATE tables SET version = version + 1, updated_at = ? WHERE id = ?", (_now(), table_id)
        )
        return _link(row)


def mark_joined(conn: sqlite3.Connection, link: Link) -> None:
    """Note that a seat's link has been opened (once: later visits write nothing)."""
    if link.role == "seat" and not link.joined:
        with _write(conn):
            conn.execute("UPDATE links SET joined_at = ? WHERE token = ? AND joined_at IS NULL", (_now(), link.token))


def _link(row: sqlite3.Row) -> Link:
    return Link(
        row["token"], row["table_id"], row["role"], row["seat"], row["label"],
        row["claimed_by"], row["joined_at"] is not None,
    )


def get_table(conn: sqlite3.Connection, table_id: str) -> Table:
    """The table as it is now (KeyError if there is none)."""
    row = conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise KeyError(table_id)
    return _table(row)


def table_version(conn: sqlite3.Connection, table_id: str) -> int:
    """Just the version: what a polling phone asks for every second or two."""
    row = conn.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        raise KeyError(table_id)
    return row[0]


def act(
    conn: sqlite3.Connection,
    rules: ModuleType,
    table_id: str,
    actor: str,
    action: dict,
    version: int | None,
    once: Once | None = None,
) -> Table:
    """Apply one action made on ``version`` and append it to the log.

    Raises ``StaleTable`` if the table moved on, ``RuleError`` if the rules refuse the
    action or the referee finished the table, ``Repeated`` if ``once``'s key was used; in
    each case nothing is written. ``version=None`` skips the staleness check, for actions
    whose order does not matter (see ``order_free``): the rules still judge them against
    the state as it is, under the write lock.
    """
    with _write(conn):
        table = _current(conn, table_id, version, once)
        if table.finished:
            raise RuleError("table_finished", "This table is finished: the referee can undo to reopen it.")
        state = rules.apply(table.state, action, actor)
        description = rules.describe(table.state, action, actor)
        seq = _append(conn, table_id, actor, action, description, "move")
        if seq % SNAPSHOT_EVERY == 0:
            conn.execute(
                "INSERT INTO snapshots (table_id, seq, state) VALUES (?, ?, ?)", (table_id, seq, _dump(state))
            )
        _set_head(conn, table, seq, state)
        return _keep(conn, table_id, once)


def finish(conn: sqlite3.Connection, table_id: str, version: int, once: Once | None = None) -> Table:
    """The referee finishes the table: the log says so, and it takes no more actions until undone.

    For a game with no end of its own (the score pad); a game that ends by its rules is
    finished by its last move. Raises as ``act`` does.
    """
    with _write(conn):
        table = _current(conn, table_id, version, once)
        if table.finished:
            raise RuleError("table_finished", "This table is already finished.")
        seq = _append(conn, table_id, "referee", FINISH, "The referee finished the table.", "finish")
        conn.execute("UPDATE tables SET finished_at = ? WHERE id = ?", (_now(), table_id))
        _set_head(conn, table, seq, table.state)
        return _keep(conn, table_id, once)


def order_free(rules: ModuleType, action: dict) -> bool:
    """True for an action the rules module declares order-free (``ORDER_FREE_ACTIONS``).

    Team members voting at the same moment should not have to vote again because a
    teammate's ballot landed first: a ballot does not depend on the others.
    """
    return isinstance(action, dict) and action.get("type") in getattr(rules, "ORDER_FREE_ACTIONS", ())


def undo(conn: sqlite3.Connection, rules: ModuleType, table_id: str, version: int, once: Once | None = None) -> Table:
    """Undo the last entry still in force: it stays in the log, marked undone.

    Undoing the referee's finish reopens the table. Undoing a move rebuilds the state
    from the newest snapshot before it, replaying only the moves in force after it.
    """
    with _write(conn):
        table = _current(conn, table_id, version, once)
        if table.head_seq == 0:
            raise RuleError("nothing_to_undo", "There is nothing to undo: no move is recorded yet.")
        conn.execute(
            "UPDATE actions SET undone_at = ? WHERE table_id = ? AND seq = ?",
            (_now(), table_id, table.head_seq),
        )
        if table.finished:
            conn.execute("UPDATE tables SET finished_at = NULL WHERE id = ?", (table_id,))
            _set_head(conn, table, _in_force_seq(conn, table_id), table.state)
            return _keep(conn, table_id, once)
        conn.execute("DELETE FROM snapshots WHERE table_id = ? AND seq >= ?", (table_id, table.head_seq))
        base = conn.execute(
            "SELECT seq, state FROM snapshots WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table_id,)
        ).fetchone()
        state, head = json.loads(base["state"]), base["seq"]
        for row in conn.execute(
            "SELECT seq, actor, payload FROM actions"
            " WHERE table_id = ? AND seq > ? AND undone_at IS NULL AND kind = 'move' ORDER BY seq",
            (table_id, base["seq"]),
        ).fetchall():
            state, head = rules.apply(state, json.loads(row["payload"]), row["actor"]), row["seq"]
        _set_head(conn, table, head, state)
        return _keep(conn, table_id, once)


def replay(conn: sqlite3.Connection, rules: ModuleType, table_id: str, step: int) -> tuple[dict, list[dict]]:
    """The state after the first ``step`` moves still in force (0: the start, before any move),
    and every move in force in order, as ``{"seq", "actor", "description"}``.

    Starts from the newest snapshot at or before that move and replays the rest.
    """
    moves = conn.execute(
        "SELECT seq, actor, payload, description FROM actions"
        " WHERE table_id = ? AND undone_at IS NULL AND kind = 'move' ORDER BY seq",
        (table_id,),
    ).fetchall()
    step = max(0, min(step, len(moves)))
    base = conn.execute(
        "SELECT seq, state FROM snapshots WHERE table_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
        (table_id, moves[step - 1]["seq"] if step else 0),
    ).fetchone()
    state = json.loads(base["state"])
    for row in moves[:step]:
        if row["seq"] > base["seq"]:
            state = rules.apply(state, json.loads(row["payload"]), row["actor"])
    return state, [{"seq": row["seq"], "actor": row["actor"], "description": row["description"]} for row in moves]


def last_action(conn: sqlite3.Connection, table_id: str) -> dict | None:
    """The last action still in force, as a history entry (what undo would take back)."""
    entries = history(conn, table_id, only_in_force=True, limit=1)
    return entries[0] if entries else None


def history(
    conn: sqlite3.Connection, table_id: str, only_in_force: bool = False, limit: int | None = None
) -> list[dict]:
    """The log, newest first: seq, actor, action, description, when, and whether undone.

    ``only_in_force``: the entries undo can take back (a seat's release is not one).
    """
    sql = "SELECT * FROM actions WHERE table_id = ?"
    if only_in_force:
        sql += " AND undone_at IS NULL AND kind != 'release'"
    sql += " ORDER BY seq DESC"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [
        {
            "seq": row["seq"],
            "actor": row["actor"],
            "action": json.loads(row["payload"]),
            "description": row["description"],
            "at": row["created_at"],
            "undone": row["undone_at"] is not None,
            "kind": row["kind"],
        }
        for row in conn.execute(sql, (table_id,)).fetchall()
    ]


def remember(conn: sqlite3.Connection, phone: str, token: str, keep: int) -> None:
    """Add a link to the tables a browser (``phone``, its secret identity) opened; it keeps its ``keep`` newest."""
    digest = phone_digest(phone)
    with _write(conn):
        conn.execute(
            "INSERT INTO remembered (phone, token, seen_at) VALUES (?, ?, ?)"
            " ON CONFLICT (phone, token) DO UPDATE SET seen_at = excluded.seen_at",
            (digest, token, _now()),
        )
        conn.execute(
            "DELETE FROM remembered WHERE phone = ? AND token NOT IN"
            " (SELECT token FROM remembered WHERE phone = ? ORDER BY seen_at DESC LIMIT ?)",
            (digest, digest, keep),
        )


def remembered_tables(conn: sqlite3.Connection, phone: str) -> list[tuple[Link, Table]]:
    """The tables a browser created or joined (see ``remember``), the last changed first."""
    rows = conn.execute("SELECT token FROM remembered WHERE phone = ?", (phone_digest(phone),)).fetchall()
    return tables_for_tokens(conn, [row["token"] for row in rows])


def phone_digest(phone: str) -> str:
    """What the database keeps of a browser's secret identity."""
    return hashlib.sha256(phone.encode()).hexdigest()


def tables_for_tokens(conn: sqlite3.Connection, tokens: list[str]) -> list[tuple[Link, Table]]:
    """The tables reached by these links (the ones a browser created or joined), newest first."""
    found = []
    for token in tokens:
        link = find_link(conn, token)
        if link is not None:
            found.append((link, get_table(conn, link.table_id)))
    return sorted(found, key=lambda pair: pair[1].updated_at, reverse=True)


class _write:
    """A write transaction holding SQLite's write lock from the start (``BEGIN IMMEDIATE``)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def _current(conn: sqlite3.Connection, table_id: str, version: int | None, once: Once | None) -> Table:
    """The table under the write lock, after the checks every change makes first: the key, then the version."""
    if once is not None:
        row = conn.execute(
            "SELECT token, answer FROM action_keys WHERE table_id = ? AND key = ?", (table_id, once.key)
        ).fetchone()
        if row is not None:
            if row["token"] != once.token:
                raise RuleError(
                    "idempotency_key_reused",
                    "This Idempotency-Key was already used through another link: choose a new key for every action.",
                )
            raise Repeated(json.loads(row["answer"]) if row["answer"] is not None else None)
    table = get_table(conn, table_id)
    if version is not None and table.version != version:
        raise StaleTable(table)
    return table


def _append(conn: sqlite3.Connection, table_id: str, actor: str, action: dict, description: str, kind: str) -> int:
    """Append one entry to the log; its seq."""
    seq = _last_seq(conn, table_id) + 1
    conn.execute(
        "INSERT INTO actions (table_id, seq, actor, payload, description, created_at, kind)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, seq, actor, _dump(action), description, _now(), kind),
    )
    return seq


def _keep(conn: sqlite3.Connection, table_id: str, once: Once | None) -> Table:
    """The table after a change, with the change's key and answer kept in the same transaction.

    Keys older than ``KEYS_KEPT`` are swept on the way: no phone retries that late.
    """
    table = get_table(conn, table_id)
    if once is not None:
        now = datetime.now(UTC)
        conn.execute("DELETE FROM action_keys WHERE created_at < ?", ((now - KEYS_KEPT).isoformat(),))
        answer = _dump(once.answer(table)) if once.answer else None
        conn.execute(
            "INSERT INTO action_keys (table_id, key, token, answer, created_at) VALUES (?, ?, ?, ?, ?)",
            (table_id, once.key, once.token, answer, now.isoformat(timespec="milliseconds")),
        )
    return table


def _in_force_seq(conn: sqlite3.Connection, table_id: str) -> int:
    row = conn.execute(
        "SELECT MAX(seq) FROM actions WHERE table_id = ? AND undone_at IS NULL", (table_id,)
    ).fetchone()
    return row[0] or 0


def _set_head(conn: sqlite3.Connection, table: Table, seq: int, state: dict) -> None:
    conn.execute(
        "UPDATE tables SET state = ?, head_seq = ?, version = version + 1, updated_at = ? WHERE id = ?",
        (_dump(state), seq, _now(), table.id),
    )


def _last_seq(conn: sqlite3.Connection, table_id: str) -> int:
    row = conn.execute("SELECT MAX(seq) FROM actions WHERE table_id = ?", (table_id,)).fetchone()
    return row[0] or 0


def _table(row: sqlite3.Row) -> Table:
    return Table(
        id=row["id"],
        game=row["game"],
        title=row["title"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        version=row["version"],
        head_seq=row["head_seq"],
        state=json.loads(row["state"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
    )


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
