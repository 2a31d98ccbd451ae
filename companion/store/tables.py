"""Tables: one game being played, shared between phones. Every action on a table is appended to its
log (``actions``); the table's state is what its rules module derives from the actions in force. The
state after the last one is kept beside the table in pieces (``pieces``), and a snapshot every
``SNAPSHOT_EVERY`` actions, so an undo replays a short stretch.

Concurrency: an action carries the version of the state it was chosen on. Writing locks the table
first (SQLite's write lock, ``BEGIN IMMEDIATE``; on PostgreSQL the table's row, ``SELECT ... FOR
UPDATE``, so phones at other tables never wait); an action made on an older version is refused
with ``StaleTable`` and nothing is written, so two phones acting at once, through one worker or
several, can neither lose nor duplicate a move. Every change returns only after its transaction is
committed (a commit survives the server being killed), so an answered move is a recorded move, and
a key it carries makes it happen once (``idempotency``).

A change reads the table once and writes only what it changes: its cost does not grow with the log
(``heads``: the state is kept decoded, and caught up with the log when another process moved).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from types import ModuleType

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.rules import clock, sentences, stored_sentences
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.store import base, heads
from companion.store.base import new_token, token_shaped
from companion.store.db import (
    Sql,
    action_keys,
    actions,
    links,
    remembered,
    run,
    snapshots,
    state_pieces,
    table_clocks,
    tables,
)
from companion.store.idempotency import Once, check_key, record_key
from companion.store.links import CLAIMED_SEAT, REFEREE_LINK, Link, link_from_row, table_links
from companion.store.pieces import SET_HEAD, cut, stored_state, write_state
from companion.store.plays import record_play
from companion.store.roster import find_or_add_player, name_key

SNAPSHOT_EVERY = 25


TITLE_LENGTH = 120  # a title is made from the players' names; a list shows no more


CATCH_UP_MOST = (
    25  # log entries a process applies to catch up with a table; further behind, it reads the state
)
FINISH = {"type": "finish"}  # the log entry of a referee finishing the table


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
    private: bool = False  # kept out of the history: never becomes a play

    @property
    def finished(self) -> bool:
        """True once the referee finished the table (a game may also end by its own rules)."""
        return self.finished_at is not None


class StaleTable(Exception):
    """The table changed since the acting phone last saw it; ``table`` is how it is now."""

    def __init__(self, table: Table):
        super().__init__(
            N_("The table changed before your move arrived: here it is now. Nothing was recorded.")
        )
        self.table = table


def create_table(
    conn: Connection,
    rules: ModuleType,
    game: str,
    options: dict,
    title: str = "",
    private: bool = False,
    seed: int | None = None,
    per_seat: tuple[str, int, int] | None = None,
) -> tuple[Table, list[Link]]:
    """Create a table and its links (referee, viewer, one per private seat).

    The rules module validates ``options`` (a ``RuleError`` creates nothing). The names typed
    at the start are remembered as players (``rules.names``); a ``private`` table never
    becomes a play. ``seed``: chance's seed, random unless given (the bench deals two tables alike).
    ``per_seat``: the clock chosen at the start, ``(kind, minutes, increment)`` (``rules.clock``).
    """
    with base.write(conn):
        made = _create_table(conn, rules, game, options, title, private, seed)
        if per_seat is not None:
            _start_clock(conn, rules, made[0], per_seat)
        return made


def _start_clock(conn: Connection, rules: ModuleType, table: Table, per_seat: tuple[str, int, int]) -> None:
    """In the caller's transaction: the new ``table``'s per-seat clock, its first player thinking."""
    begun = clock.started(*per_seat, table.created_at)
    _write_clock(conn, table.id, None, clock.moved(begun, rules.to_move(table.state), table.created_at))


def rematch(
    conn: Connection, rules: ModuleType, table_id: str, options: dict, title: str = ""
) -> tuple[Link, bool]:
    """The referee's link to the finished table's rematch, and whether it was made now: the first
    call creates it (as ``create_table``, private if the table was), every later one finds it.

    The table is locked first, so two phones tapping Rematch at once (or a request sent again)
    get one new table. A rematch that was swept since is made again.
    """
    with base.write(conn):
        table, _pieces = _current(conn, None, table_id, None, None)
        made = conn.execute(sa.select(tables.c.rematch_id).where(tables.c.id == table_id)).scalar()
        if made is not None:
            row = run(conn, REFEREE_LINK, {"table_id": made}).fetchone()
            if row is not None:
                return link_from_row(row), False
        new, links_made = _create_table(conn, rules, table.game, options, title, table.private)
        _carry_claims(conn, table_id, links_made)
        kept = table_clock(conn, table_id)
        if kept and kept.get("kind"):  # the rematch keeps the clock chosen at the start, fresh
            _start_clock(conn, rules, new, (kept["kind"], kept["bank"] // 60, kept["increment"]))
        # A new version: every phone's next poll draws the finished table again, offering the rematch.
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(rematch_id=new.id, version=tables.c.version + 1)
        )
        return links_made[0], True


def _carry_claims(conn: Connection, table_id: str, made: list[Link]) -> None:
    """Each seat claimed at the finished table is claimed by the same phone (or program) at its
    rematch: the same player's seat (by its label, the seats may have rotated), private to it still."""
    claims = {
        link.label: link.claimed_by
        for link in table_links(conn, table_id)
        if link.role == "seat" and link.claimed_by is not None
    }
    for link in made:
        if link.role == "seat" and link.label in claims:
            conn.execute(
                links.update().where(links.c.token == link.token).values(claimed_by=claims[link.label])
            )


def rematch_link(conn: Connection, table_id: str, link: Link) -> Link | None:
    """The link of the finished table's rematch that ``link``'s holder is offered: the same role's,
    for a seat the same player's (by its label); None while no rematch was made, or it was swept."""
    made = conn.execute(sa.select(tables.c.rematch_id).where(tables.c.id == table_id)).scalar()
    if made is None:
        return None
    found = [
        new
        for new in table_links(conn, made)
        if new.role == link.role and (link.role != "seat" or new.label == link.label)
    ]
    return found[0] if found else None


def _create_table(
    conn: Connection,
    rules: ModuleType,
    game: str,
    options: dict,
    title: str,
    private: bool,
    seed: int | None = None,
) -> tuple[Table, list[Link]]:
    """In the caller's transaction: ``create_table``'s work."""
    seed = secrets.randbits(62) if seed is None else seed
    state = rules.new_table(options, seed)
    table_id, now = new_token(), base.now()
    made = [
        Link(new_token(), table_id, "referee", None, "Referee"),
        Link(new_token(), table_id, "viewer", None, "Viewer"),
    ]
    made += [Link(new_token(), table_id, "seat", seat, label) for seat, label in rules.seats(options)]
    table = Table(table_id, game, title[:TITLE_LENGTH], options, seed, 0, 0, state, now, now, private=private)
    conn.execute(
        tables.insert().values(
            id=table_id,
            game=game,
            title=table.title,
            options=base.dump(options),
            seed=seed,
            created_at=now,
            updated_at=now,
            private=private,
        )
    )
    stored = base.dump(state)
    write_state(conn, table_id, stored, ())
    for name in sorted(rules.names(state), key=name_key):  # in one order everywhere: no deadlock
        find_or_add_player(conn, name, offered=True)
    conn.execute(snapshots.insert().values(table_id=table_id, seq=0, state=stored))
    conn.execute(
        links.insert(),
        [
            {
                "token": lk.token,
                "table_id": table_id,
                "role": lk.role,
                "seat": lk.seat,
                "label": lk.label,
                "position": n,
            }
            for n, lk in enumerate(made)
        ],
    )
    return table, made


def release_seat(conn: Connection, table_id: str, seat: str) -> Link:
    """The referee frees a claimed seat (its phone is lost): the next phone to open the link claims it.

    The release is written in the table's log (not a move: undo skips it) and changes the
    table's version, so every phone shows it. ``KeyError`` if no such seat is claimed.
    """
    with base.write(conn):
        conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id).with_for_update())
        row = run(conn, CLAIMED_SEAT, {"table_id": table_id, "seat": seat}).fetchone()
        if row is None:
            raise KeyError(seat)
        released = link_from_row(row)
        conn.execute(links.update().where(links.c.token == released.token).values(claimed_by=None))
        description = sentences.Message(
            N_("The referee released %(seat)s's link: the next phone to open it takes the seat."),
            seat=released.label,
        )
        _append(conn, table_id, "referee", {"type": "release", "seat": seat}, description, "release")
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(
                version=tables.c.version + 1,
                links_version=tables.c.links_version + 1,
                updated_at=base.now(),
            )
        )
        return released


def table_clock(conn: Connection, table_id: str) -> dict | None:
    """The table's clock (``rules.clock``: its pauses), or None for a table never paused."""
    row = run(conn, _CLOCK, {"table_id": table_id}).fetchone()  # on every move: a statement compiled once
    return None if row is None else json.loads(row[0])


def set_paused(conn: Connection, table_id: str, paused: bool) -> bool:
    """The referee pauses (``paused``) or resumes the table's clock: written in the log (not a move:
    undo skips it) and a new version, so every phone shows it. False when it was so already."""
    with base.write(conn):
        conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id).with_for_update())
        before = table_clock(conn, table_id)
        if clock.is_paused(before) == paused:
            return False
        now = base.now()
        _write_clock(conn, table_id, before, (clock.pause if paused else clock.resume)(before, now))
        said = N_("The referee paused the table.") if paused else N_("The referee resumed the table.")
        _append(
            conn,
            table_id,
            "referee",
            {"type": "pause" if paused else "resume"},
            sentences.Message(said),
            "clock",
        )
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(version=tables.c.version + 1, updated_at=now)
        )
        return True


def add_time(conn: Connection, table_id: str, seat: str, minutes: int) -> bool:
    """The referee gives ``seat`` ``minutes`` more on the table's chess clock: written in the log
    (not a move) and a new version, so every phone shows it. False for a table without a chess
    clock or a seat it does not know."""
    with base.write(conn):
        conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id).with_for_update())
        before = table_clock(conn, table_id)
        if not before or before.get("kind") != "chess" or seat not in before["names"]:
            return False
        _write_clock(conn, table_id, before, clock.add_time(before, seat, minutes * 60))
        said = sentences.Message(
            N_("%(name)s: the referee added %(minutes)s min to the clock."),
            name=before["names"][seat],
            minutes=minutes,
        )
        _append(
            conn, table_id, "referee", {"type": "add_time", "seat": seat, "minutes": minutes}, said, "clock"
        )
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(version=tables.c.version + 1, updated_at=base.now())
        )
        return True


def _write_clock(conn: Connection, table_id: str, before: dict | None, after: dict) -> None:
    """Keep the table's clock ``after`` (``before``: as it was read, None for no row yet)."""
    if before is None:
        conn.execute(table_clocks.insert().values(table_id=table_id, clock=base.dump(after)))
    elif after is not before:
        conn.execute(
            table_clocks.update().where(table_clocks.c.table_id == table_id).values(clock=base.dump(after))
        )


def _clock_moved(
    conn: Connection, rules: ModuleType, table_id: str, state: dict | None, now: str, increment: bool = True
) -> None:
    """In a change's transaction: a table's per-seat clock (if it has one) charges the seat that was
    to move and starts the one the rules say is to move now (nobody when ``state`` is None)."""
    before = table_clock(conn, table_id)
    if before and before.get("kind"):
        to_move = None if state is None else rules.to_move(state)
        _write_clock(conn, table_id, before, clock.moved(before, to_move, now, increment))


def get_table(conn: Connection, table_id: str) -> Table:
    """The table as it is now (KeyError if there is none)."""
    row = run(conn, _TABLE, {"id": table_id}).fetchone()
    if row is None:
        raise KeyError(table_id)
    return _table(conn, row, heads.HEADS.at(row[0], row[5]))[0]  # a state this process kept is not read again


def version_by_token(conn: Connection, token: str) -> tuple[int, int] | None:
    """What a poll through this link depends on, in one lookup: the table's version and, for the
    referee's link (whose page shows the invitations), its links' version, else 0. None for an
    unknown token."""
    if not token_shaped(token):
        return None
    row = run(conn, _VERSION_BY_TOKEN, {"token": token}).fetchone()
    return (row[0], row[1]) if row else None


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
    with base.write(conn):
        table, pieces = _current(conn, rules, table_id, version, once)
        if table.finished:
            raise RuleError(
                "table_finished", N_("This table is finished: the referee can undo to reopen it.")
            )
        state = rules.apply(table.state, action, actor)
        description = rules.describe(table.state, action, actor, after=state)
        entry = _append_entry(conn, table_id, actor, action, description, "move")
        seq = entry["seq"]
        stored = heads.state_text(rules, state, heads.HEADS.state(table_id, table.version) is table.state)
        if seq % SNAPSHOT_EVERY == 0:
            conn.execute(snapshots.insert().values(table_id=table_id, seq=seq, state=stored))
        _clock_moved(conn, rules, table_id, state, entry["at"])
        record_play(conn, rules, table, state, False, withdraw=False)  # a move never reopens a game
        before = table
        table, pieces = _set_head(conn, table, seq, state, stored, pieces, entry["at"])
        table = record_key(conn, table, once)
    return heads.HEADS.keep(table, pieces, before.state, entry)


def finish(
    conn: Connection, rules: ModuleType, table_id: str, version: int, once: Once | None = None
) -> Table:
    """The referee finishes the table: the log says so, and it takes no more actions until undone.

    For a game with no end of its own (the score pad: it becomes a play then); a game that
    ends by its rules is finished by its last move. Raises as ``act`` does.
    """
    with base.write(conn):
        table, pieces = _current(conn, rules, table_id, version, once)
        if table.finished:
            raise RuleError("table_finished", N_("This table is already finished."))
        seq = _append(
            conn,
            table_id,
            "referee",
            FINISH,
            sentences.Message(N_("The referee finished the table.")),
            "finish",
        )
        now = base.now()
        conn.execute(tables.update().where(tables.c.id == table_id).values(finished_at=now))
        _clock_moved(conn, rules, table_id, None, now)
        record_play(conn, rules, table, table.state, True, withdraw=False)
        table, pieces = _set_head(conn, replace(table, finished_at=now), seq, table.state, stored=pieces)
        table = record_key(conn, table, once)
    return heads.HEADS.keep(table, pieces)  # the same state: its pieces unchanged


def order_free(rules: ModuleType, action: dict) -> bool:
    """True for an action the rules module declares order-free (``ORDER_FREE_ACTIONS``).

    Team members voting at the same moment should not have to vote again because a
    teammate's ballot landed first: a ballot does not depend on the others.
    """
    return isinstance(action, dict) and action.get("type") in getattr(rules, "ORDER_FREE_ACTIONS", ())


def undo(conn: Connection, rules: ModuleType, table_id: str, version: int, once: Once | None = None) -> Table:
    """Undo the last entry still in force: it stays in the log, marked undone.

    Undoing the referee's finish reopens the table. Undoing a move rebuilds the state
    from the newest snapshot before it, replaying only the moves in force after it; undoing
    the table's last change, a move this process made, takes the state that move was made
    on, kept decoded here.
    """
    with base.write(conn):
        table, pieces = _current(conn, rules, table_id, version, once)
        if table.head_seq == 0:
            raise RuleError("nothing_to_undo", N_("There is nothing to undo: no move is recorded yet."))
        was_a_play = (
            rules.result(table.state, table.finished) is not None
        )  # else there is no play to withdraw
        conn.execute(
            actions.update()
            .where(actions.c.table_id == table_id, actions.c.seq == table.head_seq)
            .values(undone_at=base.now())
        )
        if table.finished:
            conn.execute(tables.update().where(tables.c.id == table_id).values(finished_at=None))
            _clock_moved(conn, rules, table_id, table.state, base.now(), increment=False)
            record_play(conn, rules, table, table.state, False, withdraw=was_a_play)
            in_force = conn.execute(
                sa.select(sa.func.max(actions.c.seq)).where(
                    actions.c.table_id == table_id, actions.c.undone_at.is_(None)
                )
            ).scalar()
            # Not kept decoded: this return is inside the transaction (a state is kept only once committed).
            return record_key(
                conn, _set_head(conn, replace(table, finished_at=None), in_force or 0, table.state)[0], once
            )
        conn.execute(
            snapshots.delete().where(snapshots.c.table_id == table_id, snapshots.c.seq >= table.head_seq)
        )
        state = heads.HEADS.before(table_id, table.version)
        if state is not None:  # the state the undone move was made on, kept: no replay
            head = run(conn, _LAST_MOVE, {"table_id": table_id}).fetchone()[0] or 0
            stored = heads.state_text(rules, state, True)
        else:
            state, head = _replay_head(conn, rules, table_id)
            stored = base.dump(state)
        _clock_moved(conn, rules, table_id, state, base.now(), increment=False)
        record_play(conn, rules, table, state, False, withdraw=was_a_play)
        table, pieces = _set_head(conn, table, head, state, stored, pieces)
        table = record_key(conn, table, once)
    return heads.HEADS.keep(table, pieces)


def _replay_head(conn: Connection, rules: ModuleType, table_id: str) -> tuple[dict, int]:
    """The state after the moves in force, from the newest snapshot, and the last one's seq."""
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
    return state, head


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
    return state, [
        {"seq": row.seq, "actor": row.actor, "description": stored_sentences.load(row.description)}
        for row in moves
    ]


def last_action(conn: Connection, table_id: str, version: int | None = None) -> dict | None:
    """The last action still in force, as a history entry (what undo would take back).

    With the table's ``version``: when the move that made it was made by this process, its entry
    is known without reading the log again (the page answering a move shows it beside Undo).
    """
    kept = heads.HEADS.entry(table_id, version) if version is not None else None
    if kept is not None:
        return dict(kept)
    entries = history(conn, table_id, only_in_force=True, limit=1)
    return entries[0] if entries else None


def history(
    conn: Connection, table_id: str, only_in_force: bool = False, limit: int | None = None
) -> list[dict]:
    """The log, newest first: seq, actor, action, description, when, and whether undone.

    ``only_in_force``: the entries undo can take back (a seat's release is not one).
    """
    params = {"table_id": table_id} if limit is None else {"table_id": table_id, "limit": int(limit)}
    return [
        {
            "seq": seq,
            "actor": actor,
            "action": json.loads(payload),
            "description": stored_sentences.load(description),
            "at": created_at,
            "undone": undone_at is not None,
            "kind": kind,
        }
        for seq, actor, payload, description, created_at, undone_at, kind in run(
            conn, _HISTORY[only_in_force, limit is not None], params
        )
    ]


def sweep(conn: Connection, untouched_for: timedelta, over: Callable[[str, dict], bool]) -> int:
    """Delete the tables nobody touched for ``untouched_for`` that never finished; how many went.

    A table finished by its referee, or whose game ``over(game, state)`` says is over by its
    rules, is kept as a play. Everything of a swept table goes with it: log, snapshots,
    links, keys, and the browsers' memory of its links.
    """
    cutoff = (datetime.now(UTC) - untouched_for).isoformat(timespec="milliseconds")
    candidates = conn.execute(
        sa.select(tables.c.id, tables.c.game).where(
            tables.c.updated_at < cutoff, tables.c.finished_at.is_(None)
        )
    ).all()
    stale = [row.id for row in candidates if not over(row.game, stored_state(conn, row.id))]
    for start in range(0, len(stale), 500):
        chunk = stale[start : start + 500]
        with base.write(conn):
            tokens = sa.select(links.c.token).where(links.c.table_id.in_(chunk))
            conn.execute(remembered.delete().where(remembered.c.token.in_(tokens)))
            for kept in (action_keys, snapshots, state_pieces, actions, links, table_clocks):
                conn.execute(kept.delete().where(kept.c.table_id.in_(chunk)))
            conn.execute(tables.delete().where(tables.c.id.in_(chunk)))
    return len(stale)


def _current(
    conn: Connection, rules: ModuleType | None, table_id: str, version: int | None, once: Once | None
) -> tuple[Table, tuple[str, ...]]:
    """The table, locked, after the checks every change makes first: the key, then the version;
    and its state's pieces as stored (see ``write_state``). A state this process keeps of an older
    version is caught up with the log (``_caught_up``, given the game's ``rules``), not read again."""
    row = run(conn, _TABLE_LOCKED, {"id": table_id}).fetchone()
    if row is None:
        raise KeyError(table_id)
    if once is not None:
        check_key(conn, table_id, once)
    kept = heads.HEADS.kept.get(table_id)
    if kept is not None and kept.version != row[5]:  # row[5]: its version
        kept = _caught_up(conn, rules, row, kept) if rules is not None else None
    table, pieces = _table(conn, row, kept)
    if version is not None and table.version != version:
        raise StaleTable(table)
    return table, pieces


def _caught_up(conn: Connection, rules: ModuleType, row: tuple, kept: heads.Head) -> heads.Head | None:
    """Under the table's lock: the state this process ``kept`` of an older version, brought up to the
    table's ``row`` by applying the moves another process made since (most often one, when two
    workers take a table's moves in turn), and kept; or None, when it cannot be (a move it holds was
    undone since, or it is more than ``CATCH_UP_MOST`` entries behind): then the state is read.

    A table's state is what its rules make of its moves in force, in order (an undo's state is the
    state before the move, a finish or a seat's release changes none). Undo takes back the last
    entry in force, so while the entry ``kept`` ends with is in force, so is every one before it."""
    entries = run(
        conn, _ENTRIES_SINCE, {"table_id": row[0], "since": kept.head_seq, "most": CATCH_UP_MOST + 1}
    ).fetchall()
    if kept.head_seq:  # the kept state's last entry, still in force, and one that made a state
        if not entries or entries[0][0] != kept.head_seq or entries[0][4] is not None:
            return None
        if entries[0][3] not in (
            "move",
            "finish",
        ):  # a release, a pause: undo goes past it to the move before
            return None
        entries = entries[1:]
    if len(entries) > CATCH_UP_MOST:
        return None
    state = kept.state
    for _seq, actor, payload, kind, undone_at in entries:
        if kind == "move" and undone_at is None:
            state = rules.apply(state, json.loads(payload), actor)
    pieces = cut(heads.state_text(rules, state, True))  # as the process that moved wrote them
    caught = heads.Head(row[5], state, None, kept.options, None, pieces, row[6])
    with heads.HEADS.lock:  # a committed version's state: any change may start from it
        heads.HEADS.kept[row[0]] = caught
    return caught


def _append(
    conn: Connection, table_id: str, actor: str, action: dict, description: str | sentences.Message, kind: str
) -> int:
    """Append one entry to the log; its seq. A description that is a ``Message`` is kept with its
    parameters, so each reader sees it in their own language (``stored_sentences.load`` gives it back)."""
    return _append_entry(conn, table_id, actor, action, description, kind)["seq"]


def _append_entry(
    conn: Connection, table_id: str, actor: str, action: dict, description: str | sentences.Message, kind: str
) -> dict:
    """``_append``'s work, in one statement (the next seq is found by the INSERT itself); the entry
    as ``history`` reads it back."""
    text, now = stored_sentences.dump(description), base.now()
    seq = run(
        conn,
        _APPEND,
        {
            "table_id": table_id,
            "actor": actor,
            "payload": base.dump(action),
            "description": text,
            "created_at": now,
            "kind": kind,
        },
    ).fetchall()[0][0]
    return {
        "seq": seq,
        "actor": actor,
        "action": action,
        "description": stored_sentences.load(text),
        "at": now,
        "undone": False,
        "kind": kind,
    }


def _set_head(
    conn: Connection,
    table: Table,
    seq: int,
    state: dict,
    text: str | None = None,
    stored: tuple[str, ...] = (),
    now: str | None = None,
) -> tuple[Table, tuple[str, ...]]:
    """Make ``state`` the table's, after ``seq``, as a new version (changed ``now``: a move's entry's
    time), with (given its JSON ``text``: a state that changed) its text written over the pieces
    ``stored`` (see ``write_state``). The table as it now is, without reading it back, and its
    state's pieces."""
    now = now or base.now()
    head = {"id": table.id, "head_seq": seq, "version": table.version + 1, "updated_at": now}
    if text is None:
        run(conn, SET_HEAD, head)
    else:
        stored = write_state(conn, table.id, text, stored, head)
    return replace(table, state=state, head_seq=seq, version=table.version + 1, updated_at=now), stored


def _table(conn: Connection, row: tuple, decoded: heads.Head | None = None) -> tuple[Table, tuple[str, ...]]:
    """A table from a row of ``_TABLE_COLUMNS``, and its state's pieces as stored (``decoded``:
    its state, options and pieces, kept: nothing more is read). Else the row is read again with
    its pieces in one statement: two reads outside a transaction could see a change between them
    (a version with the next version's state)."""
    if decoded is None:  # the row again with its pieces, in one statement: the state of the version read
        rows = run(conn, _TABLE_AND_PIECES, {"id": row[0]}).fetchall()
        if not rows:
            raise KeyError(row[0])
        row, pieces = rows[0][:-1], tuple([found[-1] for found in rows])
        decoded = heads.Head(
            row[5], json.loads("".join(pieces)), None, json.loads(row[3]), None, pieces, row[6]
        )
    table_id, game, title, options, seed, version, head_seq, created_at, updated_at, finished_at, private = (
        row
    )
    table = Table(
        id=table_id,
        game=game,
        title=title,
        options=decoded.options,
        seed=seed,
        version=version,
        head_seq=head_seq,
        state=decoded.state,
        created_at=created_at,
        updated_at=updated_at,
        finished_at=finished_at,
        private=bool(private),
    )
    return table, decoded.pieces


_TABLE_COLUMNS = (
    "id, game, title, options, seed, version, head_seq, created_at, updated_at, finished_at, private"
)


_TABLE = Sql(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :id")


_TABLE_LOCKED = Sql(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :id", lock=True)


_TABLE_VERSION = Sql("SELECT version FROM tables WHERE id = :id")


_TABLE_AND_PIECES = Sql(
    "SELECT " + ", ".join(f"t.{column}" for column in _TABLE_COLUMNS.split(", ")) + ", p.text"
    " FROM tables t JOIN state_pieces p ON p.table_id = t.id WHERE t.id = :id ORDER BY p.piece"
)


_VERSION_BY_TOKEN = Sql(
    "SELECT t.version, CASE WHEN l.role = 'referee' THEN t.links_version ELSE 0 END"
    " FROM links l JOIN tables t ON t.id = l.table_id WHERE l.token = :token"
)


_ENTRIES_SINCE = Sql(  # what a process catching up applies (see _caught_up)
    "SELECT seq, actor, payload, kind, undone_at FROM actions"
    " WHERE table_id = :table_id AND seq >= :since ORDER BY seq LIMIT :most"
)
_LAST_MOVE = Sql(
    "SELECT MAX(seq) FROM actions WHERE table_id = :table_id AND kind = 'move' AND undone_at IS NULL"
)


_APPEND = Sql(  # the next seq is the INSERT's own: one statement, under the table's lock
    "INSERT INTO actions (table_id, seq, actor, payload, description, created_at, kind)"
    " SELECT :table_id, COALESCE(MAX(seq), 0) + 1, :actor, :payload, :description, :created_at, :kind"
    " FROM actions WHERE table_id = :table_id RETURNING seq"
)


# history(only_in_force, limited): the whole log, or the entries undo can take back; all or the newest few.
_CLOCK = Sql("SELECT clock FROM table_clocks WHERE table_id = :table_id")


_HISTORY = {
    (in_force, limited): Sql(
        "SELECT seq, actor, payload, description, created_at, undone_at, kind FROM actions WHERE table_id = :table_id"
        + (" AND undone_at IS NULL AND kind NOT IN ('release', 'clock')" if in_force else "")
        + " ORDER BY seq DESC"
        + (" LIMIT :limit" if limited else "")
    )
    for in_force in (False, True)
    for limited in (False, True)
}
