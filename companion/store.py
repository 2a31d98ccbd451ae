"""Tables: one game being played, shared between phones, kept in the database (``companion.db``).

Every action on a table is appended to its log; the table's state is what the game's
rules module derives from the actions still in force. The state after the last action is
cached on the table row, and a snapshot is kept every ``SNAPSHOT_EVERY`` actions, so an
action costs the same at move 5 and at move 500, and an undo replays a short stretch.

Concurrency: an action carries the version of the state it was chosen on. Writing locks the
table first (SQLite's write lock, ``BEGIN IMMEDIATE``; on PostgreSQL the table's row,
``SELECT ... FOR UPDATE``, so phones at other tables never wait); an action made on an older
version is refused with ``StaleTable`` and nothing is written, so two phones acting at once,
through one worker or several, can neither lose nor duplicate a move.

Exactly once: an action may come with a key the phone chose (``Once``). The key is stored in
the same transaction as the action, so a phone that sends again after a lost answer finds
it and gets ``Repeated`` with the first answer, never a second move. Every function returns
only after its transaction is committed (a commit survives the server being killed), so an
answered move is a kept move. The module knows nothing of Flask.

An action reads and decodes the table once and writes it once: its cost does not grow with
the log, only with the state's size.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from types import ModuleType

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.db import Sql, action_keys, actions, links, remembered, run, snapshots, tables
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


def token_shaped(token: str) -> bool:
    """Whether ``token`` could be a link's token at all; anything else is not looked up."""
    return 10 <= len(token) <= 64


def create_table(
    conn: Connection, rules: ModuleType, game: str, options: dict, title: str = ""
) -> tuple[Table, list[Link]]:
    """Create a table and its links (referee, viewer, one per private seat).

    The rules module validates ``options`` (a ``RuleError`` creates nothing).
    """
    seed = secrets.randbits(62)
    state = rules.new_table(options, seed)
    table_id, now = new_token(), _now()
    made = [
        Link(new_token(), table_id, "referee", None, "Referee"),
        Link(new_token(), table_id, "viewer", None, "Viewer"),
    ]
    made += [Link(new_token(), table_id, "seat", seat, label) for seat, label in rules.seats(options)]
    table = Table(table_id, game, title[:TITLE_LENGTH], options, seed, 0, 0, state, now, now)
    with _write(conn):
        conn.execute(
            tables.insert().values(
                id=table_id, game=game, title=table.title, options=_dump(options), seed=seed,
                state=_dump(state), created_at=now, updated_at=now,
            )
        )
        conn.execute(snapshots.insert().values(table_id=table_id, seq=0, state=_dump(state)))
        conn.execute(
            links.insert(),
            [
                {"token": lk.token, "table_id": table_id, "role": lk.role, "seat": lk.seat, "label": lk.label, "position": n}
                for n, lk in enumerate(made)
            ],
        )
    return table, made


def find_link(conn: Connection, token: str) -> Link | None:
    """The link with this token, or None."""
    if not token_shaped(token):
        return None
    row = run(conn, _LINK, {"token": token}).fetchone()
    return _link(row) if row else None


def table_links(conn: Connection, table_id: str) -> list[Link]:
    """Every link of a table: referee, viewer, then the seats in creation order."""
    return [_link(row) for row in run(conn, _TABLE_LINKS, {"table_id": table_id})]


def claim_seat(conn: Connection, link: Link, phone: str) -> bool:
    """Claim a seat's link for ``phone`` (a browser's secret identity) if no phone has; True if it is this one's.

    Only a digest of ``phone`` is stored. The claim is one conditional UPDATE, so two
    phones opening the link at once cannot both get it.
    """
    digest = phone_digest(phone)
    if link.claimed_by is not None:  # the usual case, read without taking the write lock
        return link.claimed_by == digest
    with _write(conn):
        conn.execute(
            links.update().where(links.c.token == link.token, links.c.claimed_by.is_(None)).values(claimed_by=digest)
        )
        claimed = conn.execute(sa.select(links.c.claimed_by).where(links.c.token == link.token)).scalar()
    return claimed == digest


def release_seat(conn: Connection, table_id: str, seat: str) -> Link:
    """The referee frees a claimed seat (its phone is lost): the next phone to open the link claims it.

    The release is written in the table's log (not a move: undo skips it) and changes the
    table's version, so every phone shows it. ``KeyError`` if no such seat is claimed.
    """
    with _write(conn):
        conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id).with_for_update())
        row = run(conn, _CLAIMED_SEAT, {"table_id": table_id, "seat": seat}).fetchone()
        if row is None:
            raise KeyError(seat)
        released = _link(row)
        conn.execute(links.update().where(links.c.token == released.token).values(claimed_by=None))
        description = f"The referee released {released.label}'s link: the next phone to open it takes the seat."
        _append(conn, table_id, "referee", {"type": "release", "seat": seat}, description, "release")
        conn.execute(
            tables.update().where(tables.c.id == table_id).values(version=tables.c.version + 1, updated_at=_now())
        )
        return released


def mark_joined(conn: Connection, link: Link) -> None:
    """Note that a seat's link has been opened (once: later visits write nothing)."""
    if link.role == "seat" and not link.joined:
        with _write(conn):
            conn.execute(
                links.update().where(links.c.token == link.token, links.c.joined_at.is_(None)).values(joined_at=_now())
            )


def get_table(conn: Connection, table_id: str) -> Table:
    """The table as it is now (KeyError if there is none)."""
    row = run(conn, _TABLE, {"id": table_id}).fetchone()
    if row is None:
        raise KeyError(table_id)
    return _table(row)


def version_by_token(conn: Connection, token: str) -> int | None:
    """The version of the table a link opens, in one lookup, or None for an unknown token."""
    if not token_shaped(token):
        return None
    row = run(conn, _VERSION_BY_TOKEN, {"token": token}).fetchone()
    return row[0] if row else None


def table_version(conn: Connection, table_id: str) -> int:
    """Just the version: what a polling phone asks for every second or two."""
    row = run(conn, _TABLE_VERSION, {"id": table_id}).fetchone()
    if row is None:
        raise KeyError(table_id)
    return row[0]


def act(
    conn: Connection,
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
    the state as it is, under the lock.
    """
    with _write(conn):
        table = _current(conn, table_id, version, once)
        if table.finished:
            raise RuleError("table_finished", "This table is finished: the referee can undo to reopen it.")
        state = rules.apply(table.state, action, actor)
        description = rules.describe(table.state, action, actor)
        seq = _append(conn, table_id, actor, action, description, "move")
        stored = _dump(state)
        if seq % SNAPSHOT_EVERY == 0:
            conn.execute(snapshots.insert().values(table_id=table_id, seq=seq, state=stored))
        return _keep(conn, _set_head(conn, table, seq, state, stored), once)


def finish(conn: Connection, table_id: str, version: int, once: Once | None = None) -> Table:
    """The referee finishes the table: the log says so, and it takes no more actions until undone.

    For a game with no end of its own (the score pad); a game that ends by its rules is
    finished by its last move. Raises as ``act`` does.
    """
    with _write(conn):
        table = _current(conn, table_id, version, once)
        if table.finished:
            raise RuleError("table_finished", "This table is already finished.")
        seq = _append(conn, table_id, "referee", FINISH, "The referee finished the table.", "finish")
        now = _now()
        conn.execute(tables.update().where(tables.c.id == table_id).values(finished_at=now))
        table = _set_head(conn, replace(table, finished_at=now), seq, table.state)
        return _keep(conn, table, once)


def order_free(rules: ModuleType, action: dict) -> bool:
    """True for an action the rules module declares order-free (``ORDER_FREE_ACTIONS``).

    Team members voting at the same moment should not have to vote again because a
    teammate's ballot landed first: a ballot does not depend on the others.
    """
    return isinstance(action, dict) and action.get("type") in getattr(rules, "ORDER_FREE_ACTIONS", ())


def undo(conn: Connection, rules: ModuleType, table_id: str, version: int, once: Once | None = None) -> Table:
    """Undo the last entry still in force: it stays in the log, marked undone.

    Undoing the referee's finish reopens the table. Undoing a move rebuilds the state
    from the newest snapshot before it, replaying only the moves in force after it.
    """
    with _write(conn):
        table = _current(conn, table_id, version, once)
        if table.head_seq == 0:
            raise RuleError("nothing_to_undo", "There is nothing to undo: no move is recorded yet.")
        conn.execute(
            actions.update()
            .where(actions.c.table_id == table_id, actions.c.seq == table.head_seq)
            .values(undone_at=_now())
        )
        if table.finished:
            conn.execute(tables.update().where(tables.c.id == table_id).values(finished_at=None))
            in_force = conn.execute(
                sa.select(sa.func.max(actions.c.seq)).where(actions.c.table_id == table_id, actions.c.undone_at.is_(None))
            ).scalar()
            return _keep(conn, _set_head(conn, replace(table, finished_at=None), in_force or 0, table.state), once)
        conn.execute(snapshots.delete().where(snapshots.c.table_id == table_id, snapshots.c.seq >= table.head_seq))
        base = conn.execute(
            sa.select(snapshots.c.seq, snapshots.c.state)
            .where(snapshots.c.table_id == table_id)
            .order_by(snapshots.c.seq.desc())
            .limit(1)
        ).one()
        state, head = json.loads(base.state), base.seq
        replayed = conn.execute(
            sa.select(actions.c.seq, actions.c.actor, actions.c.payload)
            .where(
                actions.c.table_id == table_id,
                actions.c.seq > base.seq,
                actions.c.undone_at.is_(None),
                actions.c.kind == "move",
            )
            .order_by(actions.c.seq)
        ).all()
        for row in replayed:
            state, head = rules.apply(state, json.loads(row.payload), row.actor), row.seq
        return _keep(conn, _set_head(conn, table, head, state), once)


def replay(conn: Connection, rules: ModuleType, table_id: str, step: int) -> tuple[dict, list[dict]]:
    """The state after the first ``step`` moves still in force (0: the start, before any move),
    and every move in force in order, as ``{"seq", "actor", "description"}``.

    Starts from the newest snapshot at or before that move and replays the rest.
    """
    moves = conn.execute(
        sa.select(actions.c.seq, actions.c.actor, actions.c.payload, actions.c.description)
        .where(actions.c.table_id == table_id, actions.c.undone_at.is_(None), actions.c.kind == "move")
        .order_by(actions.c.seq)
    ).all()
    step = max(0, min(step, len(moves)))
    base = conn.execute(
        sa.select(snapshots.c.seq, snapshots.c.state)
        .where(snapshots.c.table_id == table_id, snapshots.c.seq <= (moves[step - 1].seq if step else 0))
        .order_by(snapshots.c.seq.desc())
        .limit(1)
    ).one()
    state = json.loads(base.state)
    for row in moves[:step]:
        if row.seq > base.seq:
            state = rules.apply(state, json.loads(row.payload), row.actor)
    return state, [{"seq": row.seq, "actor": row.actor, "description": row.description} for row in moves]


def last_action(conn: Connection, table_id: str) -> dict | None:
    """The last action still in force, as a history entry (what undo would take back)."""
    entries = history(conn, table_id, only_in_force=True, limit=1)
    return entries[0] if entries else None


def history(conn: Connection, table_id: str, only_in_force: bool = False, limit: int | None = None) -> list[dict]:
    """The log, newest first: seq, actor, action, description, when, and whether undone.

    ``only_in_force``: the entries undo can take back (a seat's release is not one).
    """
    params = {"table_id": table_id} if limit is None else {"table_id": table_id, "limit": int(limit)}
    return [
        {
            "seq": seq,
            "actor": actor,
            "action": json.loads(payload),
            "description": description,
            "at": created_at,
            "undone": undone_at is not None,
            "kind": kind,
        }
        for seq, actor, payload, description, created_at, undone_at, kind in run(
            conn, _HISTORY[only_in_force, limit is not None], params
        )
    ]


def remember(conn: Connection, phone: str, token: str, keep: int) -> None:
    """Add a link to the tables a browser (``phone``, its secret identity) opened; it keeps its ``keep`` newest."""
    digest = phone_digest(phone)
    with _write(conn):
        conn.execute(
            sa.text(
                "INSERT INTO remembered (phone, token, seen_at) VALUES (:phone, :token, :now)"
                " ON CONFLICT (phone, token) DO UPDATE SET seen_at = excluded.seen_at"
            ),
            {"phone": digest, "token": token, "now": _now()},
        )
        newest = (
            sa.select(remembered.c.token)
            .where(remembered.c.phone == digest)
            .order_by(remembered.c.seen_at.desc())
            .limit(keep)
        )
        conn.execute(remembered.delete().where(remembered.c.phone == digest, remembered.c.token.not_in(newest)))


def remembered_tables(conn: Connection, phone: str) -> list[tuple[Link, Table]]:
    """The tables a browser created or joined (see ``remember``), the last changed first."""
    tokens = conn.execute(sa.select(remembered.c.token).where(remembered.c.phone == phone_digest(phone))).scalars()
    return tables_for_tokens(conn, list(tokens))


def phone_digest(phone: str) -> str:
    """What the database keeps of a browser's secret identity."""
    return hashlib.sha256(phone.encode()).hexdigest()


def sweep(conn: Connection, untouched_for: timedelta, over: Callable[[str, dict], bool]) -> int:
    """Delete the tables nobody touched for ``untouched_for`` that never finished; how many went.

    A table finished by its referee, or whose game ``over(game, state)`` says is over by its
    rules, is kept as a play. Everything of a swept table goes with it: log, snapshots,
    links, keys, and the browsers' memory of its links.
    """
    cutoff = (datetime.now(UTC) - untouched_for).isoformat(timespec="milliseconds")
    candidates = conn.execute(
        sa.select(tables.c.id, tables.c.game, tables.c.state)
        .where(tables.c.updated_at < cutoff, tables.c.finished_at.is_(None))
    ).all()
    stale = [row.id for row in candidates if not over(row.game, json.loads(row.state))]
    for start in range(0, len(stale), 500):
        chunk = stale[start : start + 500]
        with _write(conn):
            tokens = sa.select(links.c.token).where(links.c.table_id.in_(chunk))
            conn.execute(remembered.delete().where(remembered.c.token.in_(tokens)))
            for kept in (action_keys, snapshots, actions, links):
                conn.execute(kept.delete().where(kept.c.table_id.in_(chunk)))
            conn.execute(tables.delete().where(tables.c.id.in_(chunk)))
    return len(stale)


def tables_for_tokens(conn: Connection, tokens: list[str]) -> list[tuple[Link, Table]]:
    """The tables reached by these links (the ones a browser created or joined), newest first."""
    found = []
    for token in tokens:
        link = find_link(conn, token)
        if link is not None:
            found.append((link, get_table(conn, link.table_id)))
    return sorted(found, key=lambda pair: pair[1].updated_at, reverse=True)


@contextmanager
def _write(conn: Connection) -> Iterator[Connection]:
    """One write transaction, committed on leaving (rolled back on an exception).

    A read this request began holds no lock and is ended first. On SQLite the transaction
    takes the write lock from its start (``BEGIN IMMEDIATE``, see ``companion.db``); on
    PostgreSQL ``_current`` locks the table's row.
    """
    if conn.in_transaction():
        conn.rollback()
    conn.info["immediate"] = True
    try:
        with conn.begin():
            yield conn
    finally:
        conn.info.pop("immediate", None)


def _current(conn: Connection, table_id: str, version: int | None, once: Once | None) -> Table:
    """The table, locked, after the checks every change makes first: the key, then the version."""
    row = run(conn, _TABLE_LOCKED, {"id": table_id}).fetchone()
    if row is None:
        raise KeyError(table_id)
    if once is not None:
        kept = run(conn, _KEPT, {"table_id": table_id, "key": once.key}).fetchone()
        if kept is not None:
            token, answer = kept
            if token != once.token:
                raise RuleError(
                    "idempotency_key_reused",
                    "This Idempotency-Key was already used through another link: choose a new key for every action.",
                )
            raise Repeated(json.loads(answer) if answer is not None else None)
    table = _table(row)
    if version is not None and table.version != version:
        raise StaleTable(table)
    return table


def _append(conn: Connection, table_id: str, actor: str, action: dict, description: str, kind: str) -> int:
    """Append one entry to the log; its seq."""
    seq = (run(conn, _LAST_SEQ, {"table_id": table_id}).fetchone()[0] or 0) + 1
    run(conn, _APPEND, {
        "table_id": table_id, "seq": seq, "actor": actor, "payload": _dump(action), "description": description,
        "created_at": _now(), "kind": kind,
    })
    return seq


def _keep(conn: Connection, table: Table, once: Once | None) -> Table:
    """The table after a change, with the change's key and answer kept in the same transaction.

    Keys older than ``KEYS_KEPT`` are swept on the way: no phone retries that late.
    """
    if once is not None:
        now = datetime.now(UTC)
        run(conn, _FORGET_KEYS, {"before": (now - KEYS_KEPT).isoformat()})
        answer = _dump(once.answer(table)) if once.answer else None
        run(conn, _KEEP_KEY, {
            "table_id": table.id, "key": once.key, "token": once.token, "answer": answer,
            "created_at": now.isoformat(timespec="milliseconds"),
        })
    return table


def _set_head(conn: Connection, table: Table, seq: int, state: dict, stored: str | None = None) -> Table:
    """Write the state after ``seq`` as the table's; the table as it now is, without reading it back."""
    now = _now()
    run(conn, _SET_HEAD, {
        "id": table.id, "state": stored if stored is not None else _dump(state), "head_seq": seq,
        "version": table.version + 1, "updated_at": now,
    })
    return replace(table, state=state, head_seq=seq, version=table.version + 1, updated_at=now)


# The store's most frequent statements, run on the driver itself (see ``companion.db.Sql``): a
# poll, a page and a move are made of these. Rows are tuples, in the order of these columns.
_LINK_COLUMNS = "token, table_id, role, seat, label, claimed_by, joined_at"
_TABLE_COLUMNS = "id, game, title, options, seed, version, head_seq, state, created_at, updated_at, finished_at"
_LINK = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE token = :token")
_TABLE_LINKS = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = :table_id ORDER BY position")
_CLAIMED_SEAT = Sql(
    f"SELECT {_LINK_COLUMNS} FROM links"
    " WHERE table_id = :table_id AND role = 'seat' AND seat = :seat AND claimed_by IS NOT NULL"
)
_TABLE = Sql(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :id")
_TABLE_LOCKED = Sql(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :id", lock=True)
_TABLE_VERSION = Sql("SELECT version FROM tables WHERE id = :id")
_VERSION_BY_TOKEN = Sql("SELECT t.version FROM links l JOIN tables t ON t.id = l.table_id WHERE l.token = :token")
_KEPT = Sql("SELECT token, answer FROM action_keys WHERE table_id = :table_id AND key = :key")
_LAST_SEQ = Sql("SELECT MAX(seq) FROM actions WHERE table_id = :table_id")
_APPEND = Sql(
    "INSERT INTO actions (table_id, seq, actor, payload, description, created_at, kind)"
    " VALUES (:table_id, :seq, :actor, :payload, :description, :created_at, :kind)"
)
_SET_HEAD = Sql(
    "UPDATE tables SET state = :state, head_seq = :head_seq, version = :version, updated_at = :updated_at"
    " WHERE id = :id"
)
_FORGET_KEYS = Sql("DELETE FROM action_keys WHERE created_at < :before")
_KEEP_KEY = Sql(
    "INSERT INTO action_keys (table_id, key, token, answer, created_at)"
    " VALUES (:table_id, :key, :token, :answer, :created_at)"
)
# history(only_in_force, limited): the whole log, or the entries undo can take back; all or the newest few.
_HISTORY = {
    (in_force, limited): Sql(
        "SELECT seq, actor, payload, description, created_at, undone_at, kind FROM actions WHERE table_id = :table_id"
        + (" AND undone_at IS NULL AND kind <> 'release'" if in_force else "")
        + " ORDER BY seq DESC"
        + (" LIMIT :limit" if limited else "")
    )
    for in_force in (False, True)
    for limited in (False, True)
}


def _link(row: tuple) -> Link:
    """A link from a row of ``_LINK_COLUMNS``."""
    token, table_id, role, seat, label, claimed_by, joined_at = row
    return Link(token, table_id, role, seat, label, claimed_by, joined_at is not None)


def _table(row: tuple) -> Table:
    """A table from a row of ``_TABLE_COLUMNS``."""
    table_id, game, title, options, seed, version, head_seq, state, created_at, updated_at, finished_at = row
    return Table(
        id=table_id,
        game=game,
        title=title,
        options=json.loads(options),
        seed=seed,
        version=version,
        head_seq=head_seq,
        state=json.loads(state),
        created_at=created_at,
        updated_at=updated_at,
        finished_at=finished_at,
    )


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
