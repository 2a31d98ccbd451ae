"""Tables: one game being played, shared between phones, kept in the database (``companion.db``).

Every action on a table is appended to its log; the table's state is what the game's
rules module derives from the actions still in force. The state after the last action is
cached beside the table (its JSON text in pieces, ``state_pieces``: a change rewrites only the
pieces it changes), and a snapshot is kept every ``SNAPSHOT_EVERY`` actions, so an action
costs the same at move 5 and at move 500, and an undo replays a short stretch.

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

An action reads the table once and writes it once: its cost does not grow with the log. The
state a change leaves is kept decoded in this process (``HEADS_KEPT`` tables), for the next
change to start from, and the next state's JSON text reuses the text of the parts the two
share (``companion.jsontext``): a move late in a game costs what a move early in it costs.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo
from types import ModuleType
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from companion.rules import sentences, stored_sentences
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.store import jsontext
from companion.store.db import (
    Sql,
    action_keys,
    actions,
    links,
    play_players,
    remembered,
    run,
    run_many,
    snapshots,
    state_pieces,
    tables,
)
from companion.store.db import players as player_rows
from companion.store.db import plays as play_rows

SNAPSHOT_EVERY = 25
PIECE = 1800  # characters of a state's text a row of state_pieces holds: within a SQLite page, under the 2 kB past which PostgreSQL compresses a row
HEADS_KEPT = 64  # tables whose state this process keeps decoded after changing them (see _Heads)
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
    private: bool = False  # kept out of the history: never becomes a play

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
        super().__init__(
            N_("The table changed before your move arrived: here it is now. Nothing was recorded.")
        )
        self.table = table


class Repeated(Exception):
    """This key was already used on this table: the action was applied once, before; ``answer`` is
    what was answered then (None when the first request did not ask for one to be kept)."""

    def __init__(self, answer: dict | None):
        super().__init__(N_("This action was already recorded."))
        self.answer = answer


def new_token() -> str:
    """An unguessable identifier: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_shaped(token: str) -> bool:
    """Whether ``token`` could be a link's token at all; anything else is not looked up."""
    return 10 <= len(token) <= 64


def create_table(
    conn: Connection,
    rules: ModuleType,
    game: str,
    options: dict,
    title: str = "",
    private: bool = False,
    seed: int | None = None,
) -> tuple[Table, list[Link]]:
    """Create a table and its links (referee, viewer, one per private seat).

    The rules module validates ``options`` (a ``RuleError`` creates nothing). The names typed
    at the start are remembered as players (``rules.names``); a ``private`` table never
    becomes a play. ``seed``: chance's seed, random unless given (the bench deals two tables alike).
    """
    with _write(conn):
        return _create_table(conn, rules, game, options, title, private, seed)


def rematch(
    conn: Connection, rules: ModuleType, table_id: str, options: dict, title: str = ""
) -> tuple[Link, bool]:
    """The referee's link to the finished table's rematch, and whether it was made now: the first
    call creates it (as ``create_table``, private if the table was), every later one finds it.

    The table is locked first, so two phones tapping Rematch at once (or a request sent again)
    get one new table. A rematch that was swept since is made again.
    """
    with _write(conn):
        table, _pieces = _current(conn, table_id, None, None)
        made = conn.execute(sa.select(tables.c.rematch_id).where(tables.c.id == table_id)).scalar()
        if made is not None:
            row = run(conn, _REFEREE_LINK, {"table_id": made}).fetchone()
            if row is not None:
                return _link(row), False
        new, links_made = _create_table(conn, rules, table.game, options, title, table.private)
        conn.execute(tables.update().where(tables.c.id == table_id).values(rematch_id=new.id))
        return links_made[0], True


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
    table_id, now = new_token(), _now()
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
            options=_dump(options),
            seed=seed,
            created_at=now,
            updated_at=now,
            private=private,
        )
    )
    stored = _dump(state)
    _write_state(conn, table_id, stored, ())
    for name in sorted(rules.names(state), key=name_key):  # in one order everywhere: no deadlock
        _player_id(conn, name, offered=True)
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


def find_link(conn: Connection, token: str) -> Link | None:
    """The link with this token, or None."""
    if not token_shaped(token):
        return None
    row = run(conn, _LINK, {"token": token}).fetchone()
    return _link(row) if row else None


def link_and_game(conn: Connection, token: str) -> tuple[Link, str] | None:
    """The link with this token and its table's game, in one lookup (a change reads its table
    under the lock: nothing more is needed before it), or None."""
    if not token_shaped(token):
        return None
    row = run(conn, _LINK_AND_GAME, {"token": token}).fetchone()
    return (_link(row[:-1]), row[-1]) if row else None


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
            links.update()
            .where(links.c.token == link.token, links.c.claimed_by.is_(None))
            .values(claimed_by=digest)
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
        description = sentences.Message(
            N_("The referee released %(seat)s's link: the next phone to open it takes the seat."),
            seat=released.label,
        )
        _append(conn, table_id, "referee", {"type": "release", "seat": seat}, description, "release")
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id)
            .values(version=tables.c.version + 1, updated_at=_now())
        )
        return released


def mark_joined(conn: Connection, link: Link) -> None:
    """Note that a seat's link has been opened (once: later visits write nothing)."""
    if link.role == "seat" and not link.joined:
        with _write(conn):
            conn.execute(
                links.update()
                .where(links.c.token == link.token, links.c.joined_at.is_(None))
                .values(joined_at=_now())
            )


def get_table(conn: Connection, table_id: str) -> Table:
    """The table as it is now (KeyError if there is none)."""
    row = run(conn, _TABLE, {"id": table_id}).fetchone()
    if row is None:
        raise KeyError(table_id)
    return _table(conn, row, _HEADS.at(row[0], row[5]))[0]  # a state this process kept is not read again


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
        table, pieces = _current(conn, table_id, version, once)
        if table.finished:
            raise RuleError(
                "table_finished", N_("This table is finished: the referee can undo to reopen it.")
            )
        state = rules.apply(table.state, action, actor)
        description = rules.describe(table.state, action, actor, after=state)
        entry = _append_entry(conn, table_id, actor, action, description, "move")
        seq = entry["seq"]
        stored = _state_text(rules, state, _HEADS.state(table_id, table.version) is table.state)
        if seq % SNAPSHOT_EVERY == 0:
            conn.execute(snapshots.insert().values(table_id=table_id, seq=seq, state=stored))
        _keep_play(conn, rules, table, state, False, withdraw=False)  # a move never reopens a game
        before = table
        table, pieces = _set_head(conn, table, seq, state, stored, pieces, entry["at"])
        table = _keep(conn, table, once)
    return _HEADS.keep(table, pieces, before.state, entry)


def finish(
    conn: Connection, rules: ModuleType, table_id: str, version: int, once: Once | None = None
) -> Table:
    """The referee finishes the table: the log says so, and it takes no more actions until undone.

    For a game with no end of its own (the score pad: it becomes a play then); a game that
    ends by its rules is finished by its last move. Raises as ``act`` does.
    """
    with _write(conn):
        table, pieces = _current(conn, table_id, version, once)
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
        now = _now()
        conn.execute(tables.update().where(tables.c.id == table_id).values(finished_at=now))
        _keep_play(conn, rules, table, table.state, True, withdraw=False)
        table, pieces = _set_head(conn, replace(table, finished_at=now), seq, table.state, stored=pieces)
        table = _keep(conn, table, once)
    return _HEADS.keep(table, pieces)  # the same state: its pieces unchanged


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
    with _write(conn):
        table, pieces = _current(conn, table_id, version, once)
        if table.head_seq == 0:
            raise RuleError("nothing_to_undo", N_("There is nothing to undo: no move is recorded yet."))
        was_a_play = (
            rules.result(table.state, table.finished) is not None
        )  # else there is no play to withdraw
        conn.execute(
            actions.update()
            .where(actions.c.table_id == table_id, actions.c.seq == table.head_seq)
            .values(undone_at=_now())
        )
        if table.finished:
            conn.execute(tables.update().where(tables.c.id == table_id).values(finished_at=None))
            _keep_play(conn, rules, table, table.state, False, withdraw=was_a_play)
            in_force = conn.execute(
                sa.select(sa.func.max(actions.c.seq)).where(
                    actions.c.table_id == table_id, actions.c.undone_at.is_(None)
                )
            ).scalar()
            # Not kept decoded: this return is inside the transaction (a state is kept only once committed).
            return _keep(
                conn, _set_head(conn, replace(table, finished_at=None), in_force or 0, table.state)[0], once
            )
        conn.execute(
            snapshots.delete().where(snapshots.c.table_id == table_id, snapshots.c.seq >= table.head_seq)
        )
        state = _HEADS.before(table_id, table.version)
        if state is not None:  # the state the undone move was made on, kept: no replay
            head = run(conn, _LAST_MOVE, {"table_id": table_id}).fetchone()[0] or 0
            stored = _state_text(rules, state, True)
        else:
            state, head = _replay_head(conn, rules, table_id)
            stored = _dump(state)
        _keep_play(conn, rules, table, state, False, withdraw=was_a_play)
        table, pieces = _set_head(conn, table, head, state, stored, pieces)
        table = _keep(conn, table, once)
    return _HEADS.keep(table, pieces)


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
    kept = _HEADS.entry(table_id, version) if version is not None else None
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
        conn.execute(
            remembered.delete().where(remembered.c.phone == digest, remembered.c.token.not_in(newest))
        )


def remembered_tables(conn: Connection, phone: str) -> list[tuple[Link, Table]]:
    """The tables a browser created or joined (see ``remember``), the last changed first."""
    tokens = conn.execute(
        sa.select(remembered.c.token).where(remembered.c.phone == phone_digest(phone))
    ).scalars()
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
        sa.select(tables.c.id, tables.c.game).where(
            tables.c.updated_at < cutoff, tables.c.finished_at.is_(None)
        )
    ).all()
    stale = [row.id for row in candidates if not over(row.game, stored_state(conn, row.id))]
    for start in range(0, len(stale), 500):
        chunk = stale[start : start + 500]
        with _write(conn):
            tokens = sa.select(links.c.token).where(links.c.table_id.in_(chunk))
            conn.execute(remembered.delete().where(remembered.c.token.in_(tokens)))
            for kept in (action_keys, snapshots, state_pieces, actions, links):
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


# --- Players and plays -------------------------------------------------------------------
#
# A table that ends (by its rules, or finished by its referee) is kept as a play, written in
# the same transaction as the move that ends it; the undo that reopens it withdraws it. A
# player is a name: the same name, however it is capitalised or spaced, is the same player.

PLAYER_NAME_LENGTH = 60
MAX_DETAILS = 256 * 1024  # bytes of one imported play's details: a long score pad's rounds take a few
PLAYS_PAGE = 50  # plays per page of the history, unless asked for fewer
MAX_PAGE = 500


def name_key(name: str) -> str:
    """What two spellings of one name have in common: "Ola", " ola " and "OLA" are one player."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", name)).strip().casefold()


def player_names(conn: Connection, prefix: str = "", limit: int = 20) -> list[str]:
    """The names to offer when a table starts, those starting with ``prefix``: the most played first."""
    key = name_key(prefix)
    count = sa.func.count(play_players.c.play_id)
    query = (
        sa.select(player_rows.c.name)
        .select_from(player_rows.outerjoin(play_players, play_players.c.player_id == player_rows.c.id))
        .where(player_rows.c.offered)
        .group_by(player_rows.c.id, player_rows.c.name)
        .order_by(count.desc(), player_rows.c.key)
        .limit(max(1, min(int(limit), MAX_PAGE)))
    )
    if key:
        query = query.where(player_rows.c.key.startswith(key, autoescape=True))
    return list(conn.execute(query).scalars())


def players(conn: Connection) -> list[dict]:
    """Every player: ``{"id", "name", "plays"}``, by name."""
    count = sa.func.count(play_players.c.play_id).label("plays")
    rows = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name, count)
        .select_from(player_rows.outerjoin(play_players, play_players.c.player_id == player_rows.c.id))
        .group_by(player_rows.c.id, player_rows.c.name)
        .order_by(player_rows.c.key)
    )
    return [{"id": row.id, "name": row.name, "plays": row.plays} for row in rows]


def player(conn: Connection, player_id: int) -> dict | None:
    """One player: ``{"id", "name", "plays"}``, or None."""
    if not _is_id(player_id):
        return None
    row = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name).where(player_rows.c.id == player_id)
    ).first()
    if row is None:
        return None
    count = conn.execute(
        sa.select(sa.func.count()).select_from(play_players).where(play_players.c.player_id == player_id)
    ).scalar()
    return {"id": row.id, "name": row.name, "plays": count}


def find_player(conn: Connection, name_or_id: str | int) -> dict | None:
    """The player with this id (a number) or this name (any spelling of it), or None."""
    if isinstance(name_or_id, int) or (isinstance(name_or_id, str) and name_or_id.isdigit()):
        found = player(conn, int(name_or_id))
        if found is not None or isinstance(name_or_id, int):
            return found
    row_id = conn.execute(
        sa.select(player_rows.c.id).where(player_rows.c.key == name_key(str(name_or_id)))
    ).scalar()
    return None if row_id is None else player(conn, row_id)


def rename_player(conn: Connection, player_id: int, name: str) -> dict:
    """Give a player a new name, in every play at once; the player as renamed.

    Refused (``RuleError``) for an empty or too long name, and for a name another player
    already has: those are the same person, to be merged rather than renamed.
    """
    name = _player_name(name)
    with _write(conn):
        row = _player_row(conn, player_id)
        taken = conn.execute(
            sa.select(player_rows.c.name).where(
                player_rows.c.key == name_key(name), player_rows.c.id != player_id
            )
        ).scalar()
        if taken is not None:
            raise RuleError(
                "name_taken",
                N_(
                    "Another player is already called %(taken)s: if %(name)s and %(taken)s are the same person, merge them instead."
                ),
                "name",
                taken=taken,
                name=row.name,
            )
        conn.execute(
            player_rows.update()
            .where(player_rows.c.id == player_id)
            .values(name=name, key=name_key(name), offered=True)
        )
    return player(conn, player_id)


def merge_players(conn: Connection, keep_id: int, drop_id: int) -> dict:
    """Make two players one: every play of ``drop_id`` becomes ``keep_id``'s, and ``drop_id`` goes.

    Refused (``RuleError``) when both are the same player or either is unknown.
    """
    if keep_id == drop_id:
        raise RuleError("same_player", N_("Choose two different players to merge."), "drop")
    with _write(conn):
        _player_row(conn, keep_id)
        _player_row(conn, drop_id)
        conn.execute(
            play_players.update().where(play_players.c.player_id == drop_id).values(player_id=keep_id)
        )
        conn.execute(player_rows.delete().where(player_rows.c.id == drop_id))
    return player(conn, keep_id)


def forget_player(conn: Connection, player_id: int) -> dict:
    """Forget a player's name at once: in every play it becomes "Player N" (a number no other
    player's name has), and it is never offered again. The player as now named."""
    with _write(conn):
        _player_row(conn, player_id)
        taken = set(
            conn.execute(
                sa.select(player_rows.c.key).where(player_rows.c.key.startswith("player "))
            ).scalars()
        )
        number = 1
        while f"player {number}" in taken:
            number += 1
        name = f"Player {number}"
        conn.execute(
            player_rows.update()
            .where(player_rows.c.id == player_id)
            .values(name=name, key=name_key(name), offered=False)
        )
    return player(conn, player_id)


def list_plays(
    conn: Connection,
    game: str | None = None,
    player: str | int | None = None,
    limit: int = PLAYS_PAGE,
    before: str | None = None,
) -> list[dict]:
    """The plays, newest first, in the API's shape (see ``play``); ``game`` and ``player`` (a name
    or an id) filter, ``before`` (a play's id) starts after that play: the next page."""
    scope = _plays_query(conn, game, player)
    if scope is None:
        return []
    query, finished, play_id = scope
    if before is not None:
        anchor = conn.execute(
            sa.select(play_rows.c.finished, play_rows.c.id).where(play_rows.c.id == before)
        ).first()
        if anchor is None:
            return []
        query = query.where(sa.tuple_(finished, play_id) < sa.tuple_(anchor.finished, anchor.id))
    rows = conn.execute(
        query.order_by(finished.desc(), play_id.desc()).limit(max(1, min(int(limit), MAX_PAGE)))
    ).all()
    unique = list(
        {row.id: row for row in rows}.values()
    )  # a player seated twice in one play (merged) is one play
    return _plays_answer(conn, unique)


def count_plays(conn: Connection, game: str | None = None, player: str | int | None = None) -> int:
    """How many plays ``list_plays`` would go through with these filters."""
    scope = _plays_query(conn, game, player)
    if scope is None:
        return 0
    query, _finished, play_id = scope
    return conn.execute(query.with_only_columns(sa.func.count(sa.distinct(play_id)))).scalar()


def play(conn: Connection, play_id: str) -> dict | None:
    """One play: ``{"id", "game", "started", "finished", "players": [{"name", "score", "winner",
    "team", "player"}], "details"}`` (times ISO 8601 in UTC, ``…Z``), or None."""
    if not isinstance(play_id, str) or not token_shaped(play_id):
        return None
    row = run(conn, _PLAY, {"id": play_id}).fetchone()
    if row is None:
        return None
    # What _plays_answer gives for a page of plays, read for the one play a table's end shows.
    return _play_answer(
        *row, [_seat_answer(*seat) for seat in run(conn, _PLAY_SEATS, {"id": play_id}).fetchall()]
    )


def table_play(conn: Connection, table_id: str) -> dict | None:
    """The play a table became (as ``play`` gives it), or None while it is on, or if it is private."""
    return play(conn, _play_id(table_id))


def player_stats(conn: Connection, player_id: int) -> dict:
    """A player's record: plays, wins, win rate; per game and direction (``games``: a list, by game,
    high-is-good first) plays, wins, average and best score; and the players they played against most
    (``{"name", "id", "plays"}``, at most 5).

    A game's plays whose scores count down (``lowest_wins``, a "lowest total wins" score pad) are a
    row of their own: their best score is their lowest, and it is never compared with, nor averaged
    into, the scores of the plays where the highest wins.
    """
    wins_column = sa.func.sum(sa.case((play_players.c.winner, 1), else_=0))
    rows = conn.execute(
        sa.select(
            play_rows.c.game,
            play_rows.c.lowest_wins,
            sa.func.count().label("plays"),
            wins_column.label("wins"),
            sa.func.avg(play_players.c.score).label("average"),
            sa.func.max(play_players.c.score).label("highest"),
            sa.func.min(play_players.c.score).label("lowest"),
        )
        .select_from(play_players.join(play_rows, play_rows.c.id == play_players.c.play_id))
        .where(play_players.c.player_id == player_id)
        .group_by(play_rows.c.game, play_rows.c.lowest_wins)
        .order_by(play_rows.c.game, play_rows.c.lowest_wins)
    ).all()
    per_game = [
        {
            "game": row.game,
            "lowest_wins": bool(row.lowest_wins),
            "plays": row.plays,
            "wins": int(row.wins),
            "win_rate": int(row.wins) / row.plays,
            "average_score": None if row.average is None else float(row.average),
            "best_score": row.lowest if row.lowest_wins else row.highest,
        }
        for row in rows
    ]
    total, wins = sum(row.plays for row in rows), sum(int(row.wins) for row in rows)
    mine = sa.select(play_players.c.play_id).where(play_players.c.player_id == player_id)
    met = sa.func.count(sa.distinct(play_players.c.play_id)).label("plays")
    opponents = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name, met)
        .select_from(play_players.join(player_rows, player_rows.c.id == play_players.c.player_id))
        .where(play_players.c.play_id.in_(mine), play_players.c.player_id != player_id)
        .group_by(player_rows.c.id, player_rows.c.name)
        .order_by(met.desc(), player_rows.c.name)
        .limit(5)
    ).all()
    return {
        "plays": total,
        "wins": wins,
        "win_rate": wins / total if total else None,
        "games": per_game,
        "opponents": [{"id": row.id, "name": row.name, "plays": row.plays} for row in opponents],
    }


def player_days(conn: Connection, player_id: int, zone: tzinfo | None = None) -> list[tuple[str, int, int]]:
    """A player's record day by day, oldest first: (``2026-11-23``, plays, wins), the wins over time
    of their page. A day is the reader's: midnight in ``zone`` (their phone's time zone; UTC when
    none). One row per day played, however many plays a day had."""
    # Counted by the minute in SQL (every time zone is a whole number of minutes from UTC), then
    # each minute put on its day in the zone: a play at 23:30 in Warsaw is that day's, not the next.
    minute = sa.func.substr(play_players.c.finished, 1, 16).label("minute")
    wins = sa.func.sum(sa.case((play_players.c.winner, 1), else_=0))
    rows = conn.execute(
        sa.select(minute, sa.func.count().label("plays"), wins.label("wins"))
        .where(play_players.c.player_id == player_id)
        .group_by(minute)
        .order_by(minute)
    )
    days: dict[str, list[int]] = {}
    for row in rows:
        moment = datetime.fromisoformat(row.minute).replace(tzinfo=UTC)
        counted = days.setdefault(moment.astimezone(zone or UTC).date().isoformat(), [0, 0])
        counted[0] += row.plays
        counted[1] += int(row.wins)
    return [(day, plays, wins) for day, (plays, wins) in sorted(days.items())]


def game_stats(conn: Connection, game: str) -> dict:
    """A game's record: plays, the winners' table (``{"id", "name", "wins", "plays"}``, most wins
    first, at most 10) and the average length of a play in seconds (None with no play)."""
    played, seconds = conn.execute(
        sa.select(sa.func.count(), sa.func.avg(play_rows.c.seconds)).where(play_rows.c.game == game)
    ).one()
    wins = sa.func.sum(sa.case((play_players.c.winner, 1), else_=0)).label("wins")
    count = sa.func.count(play_players.c.play_id).label("plays")
    winners = conn.execute(
        sa.select(player_rows.c.id, player_rows.c.name, wins, count)
        .select_from(
            play_players.join(play_rows, play_rows.c.id == play_players.c.play_id).join(
                player_rows, player_rows.c.id == play_players.c.player_id
            )
        )
        .where(play_rows.c.game == game)
        .group_by(player_rows.c.id, player_rows.c.name)
        .having(wins > 0)
        .order_by(wins.desc(), count, player_rows.c.name)
        .limit(10)
    ).all()
    return {
        "plays": played,
        "winners": [
            {"id": row.id, "name": row.name, "wins": int(row.wins), "plays": row.plays} for row in winners
        ],
        "average_seconds": None if seconds is None else float(seconds),
    }


def import_plays(conn: Connection, imported: list[dict]) -> int:
    """Add plays exported by a Castellan server (each in ``play``'s shape); how many were new.

    A play already here (same id) is skipped, so importing a file twice adds nothing twice.
    A play's players are found by name, or created. ``RuleError`` for a play that is not in
    that shape (then nothing is added).
    """
    checked = list(
        {
            entry["id"]: entry for entry in (_imported(entry, index) for index, entry in enumerate(imported))
        }.values()
    )
    known: dict[str, int] = {}  # a player's id by name key, for this import
    added = 0
    with _write(conn):
        for start in range(0, len(checked), 500):
            chunk = checked[start : start + 500]
            present = set(
                conn.execute(
                    sa.select(play_rows.c.id).where(play_rows.c.id.in_([entry["id"] for entry in chunk]))
                ).scalars()
            )
            new = [entry for entry in chunk if entry["id"] not in present]
            if not new:
                continue
            conn.execute(
                play_rows.insert(),
                [
                    {
                        "id": entry["id"],
                        "table_id": None,
                        "game": entry["game"],
                        "started": entry["started"],
                        "finished": entry["finished"],
                        "seconds": _seconds(entry["started"], entry["finished"]),
                        "details": _dump(entry["details"]),
                        "lowest_wins": lowest_wins(entry["details"]),
                    }
                    for entry in new
                ],
            )
            for entry in new:
                for seat in entry["players"]:
                    key = name_key(seat["name"])
                    if key not in known:
                        known[key] = _player_id(conn, seat["name"])
            conn.execute(
                play_players.insert(),
                [
                    {
                        "play_id": entry["id"],
                        "position": position,
                        "player_id": known[name_key(seat["name"])],
                        "finished": entry["finished"],
                        "team": seat["team"],
                        "score": seat["score"],
                        "winner": seat["winner"],
                    }
                    for entry in new
                    for position, seat in enumerate(entry["players"])
                ],
            )
            added += len(new)
    return added


def record_past_plays(conn: Connection, rules_for: Callable[[str], ModuleType | None]) -> int:
    """In the caller's transaction (migration 0009): a play for every table that ended before
    plays were kept, ended when it was last changed, and the names typed at every table's start
    remembered; how many plays. ``rules_for(game)`` is the game's rules module (None: passed
    over), and so is a table whose state its rules cannot read."""
    recorded = 0
    in_row = "state" in {column["name"] for column in sa.inspect(conn).get_columns("tables")}  # before 0012
    for table_id in list(conn.execute(sa.select(tables.c.id).order_by(tables.c.created_at)).scalars()):
        if in_row:
            row = run(conn, _PAST_TABLE, {"id": table_id}).fetchone()
            table = _table(
                conn, row[:-1], _Head(row[5], json.loads(row[-1]), None, json.loads(row[3]), None, ())
            )[0]
        else:
            table = get_table(conn, table_id)
        rules = rules_for(table.game)
        try:
            names = rules.names(table.state) if rules else []
            ended = rules is not None and rules.result(table.state, table.finished) is not None
        except Exception:  # noqa: BLE001 -- a state from an older Castellan its rules no longer read
            continue
        for name in sorted(names, key=name_key):
            _player_id(conn, name, offered=True)
        if ended and not table.private:
            # Migration 0009 runs before plays.lowest_wins exists: 0010 reads it from the details.
            _keep_play(
                conn,
                rules,
                table,
                table.state,
                table.finished,
                False,
                table.finished_at or table.updated_at,
                directed=False,
            )
            recorded += 1
    return recorded


def _keep_play(
    conn: Connection,
    rules: ModuleType,
    table: Table,
    state: dict,
    finished: bool,
    withdraw: bool,
    ended_at: str | None = None,
    directed: bool = True,
) -> None:
    """Inside a change's transaction: the table's play as the new state says (written when the
    game is over, ending now or ``ended_at``; withdrawn when it is not, if ``withdraw``: the table
    was a play before; never for a private table), with which way its scores count (``lowest_wins``,
    unless not ``directed``)."""
    if table.private:
        return
    result = rules.result(state, finished)
    if result is None and not withdraw:  # a game going on, as it was: nothing to write (most moves)
        return
    play_id = _play_id(table.id)
    if result is None:
        if withdraw:
            run(conn, _DROP_PLAY_SEATS, {"id": play_id})
            run(conn, _DROP_PLAY, {"id": play_id})
        return
    play_details = rules.play_details(state)
    values = {"id": play_id, "details": _dump(play_details), "lowest_wins": lowest_wins(play_details)}
    found = run(conn, _PLAY_FINISHED, values).fetchone()
    if found is None:
        kept = ended_at or _now()
        values |= {
            "table_id": table.id,
            "game": table.game,
            "started": table.created_at,
            "finished": kept,
            "seconds": _seconds(table.created_at, kept),
        }
        run(conn, _ADD_PLAY[directed], values)
    else:
        kept = found[0]
        run(conn, _SET_PLAY_DETAILS[directed], values)
        run(conn, _DROP_PLAY_SEATS, values)
    _write_play_players(conn, play_id, kept, result["players"])


def lowest_wins(details: object) -> bool:
    """Whether a play's scores count down (the lowest is the best), as its game's details say:
    ``"lowest_wins": true`` (a score pad set to "lowest total wins"). Every other play counts up."""
    return isinstance(details, dict) and details.get("lowest_wins") is True


def _write_play_players(conn: Connection, play_id: str, finished: str, entries: list[dict]) -> None:
    # Players found (or made) in the order of their keys, as everywhere: two transactions adding
    # the same new names never wait for each other in a circle.
    ids = {
        name: _player_id(conn, name) for name in sorted({entry["name"] for entry in entries}, key=name_key)
    }
    run_many(
        conn,
        _ADD_PLAY_SEAT,
        [
            {
                "play_id": play_id,
                "position": position,
                "player_id": ids[entry["name"]],
                "finished": finished,
                "team": entry.get("team"),
                "score": entry.get("score"),
                "winner": bool(entry.get("winner")),
            }
            for position, entry in enumerate(entries)
        ],
    )


def _play_id(table_id: str) -> str:
    """A table's play's id: the same each time the table ends, and it does not reveal the table's."""
    return hashlib.sha256(f"play:{table_id}".encode()).hexdigest()[:24]


def _player_id(conn: Connection, name: str, offered: bool = False) -> int:
    """The id of the player with this name (any spelling), created if new. ``offered``: the name
    was typed, so the autocomplete offers it (a default name such as "North" is not)."""
    name = re.sub(r"\s+", " ", name).strip()[:PLAYER_NAME_LENGTH] or "?"
    key = name_key(name)
    row = run(conn, _PLAYER_BY_KEY, {"key": key}).fetchone()
    if row is None:
        # Two tables at once may bring the same new name: the second waits for the first and adds nothing.
        run(conn, _ADD_PLAYER, {"name": name, "key": key, "now": _now(), "offered": offered})
        row = run(conn, _PLAYER_BY_KEY, {"key": key}).fetchone()
    player_id, was_offered = row
    if offered and not was_offered:
        run(conn, _OFFER_PLAYER, {"id": player_id})
    return player_id


def _player_row(conn: Connection, player_id: int) -> sa.Row:
    row = (
        conn.execute(sa.select(player_rows).where(player_rows.c.id == player_id)).first()
        if _is_id(player_id)
        else None
    )
    if row is None:
        raise RuleError(
            "unknown_player", N_("There is no such player: they may have been merged into another."), "player"
        )
    return row


def _player_name(name: object) -> str:
    name = re.sub(r"\s+", " ", name).strip() if isinstance(name, str) else ""
    if not 0 < len(name) <= PLAYER_NAME_LENGTH or not name.isprintable():
        raise RuleError(
            "bad_name", N_("A player's name is 1 to %(most)s characters."), "name", most=PLAYER_NAME_LENGTH
        )
    return name


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31


def _plays_query(
    conn: Connection, game: str | None, player: str | int | None
) -> tuple[sa.Select, sa.Column, sa.Column] | None:
    """The plays with these filters, and the columns to order and page them by: those of the index
    the filter walks (None when the player is unknown: no play)."""
    if player is None:
        query = sa.select(play_rows)
        finished, play_id = play_rows.c.finished, play_rows.c.id
    else:
        found = find_player(conn, player)
        if found is None:
            return None
        query = (
            sa.select(play_rows)
            .select_from(play_players.join(play_rows, play_rows.c.id == play_players.c.play_id))
            .where(play_players.c.player_id == found["id"])
        )
        finished, play_id = play_players.c.finished, play_players.c.play_id
    if game is not None:
        query = query.where(play_rows.c.game == game)
    return query, finished, play_id


def _plays_answer(conn: Connection, rows: list[sa.Row]) -> list[dict]:
    """Plays in the API's shape, their players read in one query."""
    ids = [row.id for row in rows]
    seated: dict[str, list[dict]] = {play_id: [] for play_id in ids}
    if ids:
        for row in conn.execute(
            sa.select(play_players, player_rows.c.name)
            .select_from(play_players.join(player_rows, player_rows.c.id == play_players.c.player_id))
            .where(play_players.c.play_id.in_(ids))
            .order_by(play_players.c.play_id, play_players.c.position)
        ):
            seated[row.play_id].append(_seat_answer(row.name, row.score, row.winner, row.team, row.player_id))
    return [
        _play_answer(row.id, row.game, row.started, row.finished, row.details, seated[row.id]) for row in rows
    ]


def _seat_answer(name: str, score: int | None, winner: object, team: str | None, player_id: int) -> dict:
    """One seat of a play in the API's shape."""
    return {"name": name, "score": score, "winner": bool(winner), "team": team, "player": player_id}


def _play_answer(
    play_id: str, game: str, started: str, finished: str, details: str, seated: list[dict]
) -> dict:
    """One play in the API's shape, from its stored row's values and its seats."""
    return {
        "id": play_id,
        "game": game,
        "started": utc(started),
        "finished": utc(finished),
        "players": seated,
        "details": json.loads(details),
    }


def _imported(entry: object, index: int) -> dict:
    """One imported play, checked: its id, game, times (kept as stored here), players and details."""

    def refuse() -> RuleError:
        return RuleError(
            "bad_play",
            N_("Play number %(number)s of the file is not a Castellan play."),
            f"plays.{index}",
            number=index + 1,
        )

    if not isinstance(entry, dict):
        raise refuse()
    play_id, game, details = entry.get("id"), entry.get("game"), entry.get("details", {})
    entries = entry.get("players")
    if not (
        isinstance(play_id, str)
        and token_shaped(play_id)
        and play_id.isascii()
        and play_id.isprintable()
        and isinstance(game, str)
        and 0 < len(game) <= 40
        and isinstance(details, dict)
        and isinstance(entries, list)
        and 0 < len(entries) <= 16
    ):
        raise refuse()
    try:
        if (
            len(_dump(details).encode("utf-8")) > MAX_DETAILS
        ):  # a lone surrogate cannot be stored: refused here
            raise ValueError("details")
        started, finished = _stored_time(entry.get("started")), _stored_time(entry.get("finished"))
        names = [_player_name(seat.get("name")) for seat in entries]
    except (RuleError, ValueError, TypeError, AttributeError):
        raise refuse() from None
    seats = []
    for name, seat in zip(names, entries, strict=True):
        score, team = seat.get("score"), seat.get("team")
        if (
            score is not None
            and (isinstance(score, bool) or not isinstance(score, int) or abs(score) >= 2**53)
        ) or (team is not None and not (isinstance(team, str) and len(team) <= 40 and team.isprintable())):
            raise refuse()
        seats.append({"name": name, "score": score, "team": team, "winner": seat.get("winner") is True})
    return {
        "id": play_id,
        "game": game,
        "started": started,
        "finished": finished,
        "players": seats,
        "details": details,
    }


def _stored_time(text: object) -> str:
    """``2026-11-23T20:14:05Z`` as this store keeps times (UTC, milliseconds)."""
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(text)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def _seconds(started: str, finished: str) -> int:
    """How long a play lasted, in whole seconds."""
    return max(0, int((datetime.fromisoformat(finished) - datetime.fromisoformat(started)).total_seconds()))


def utc(stamp: str) -> str:
    """A stored time as the API gives it: ``2026-11-23T20:14:05.123+00:00`` → ``2026-11-23T20:14:05Z``."""
    return datetime.fromisoformat(stamp).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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


def _current(
    conn: Connection, table_id: str, version: int | None, once: Once | None
) -> tuple[Table, tuple[str, ...]]:
    """The table, locked, after the checks every change makes first: the key, then the version;
    and its state's pieces as stored (see ``_write_state``)."""
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
    table, pieces = _table(conn, row, _HEADS.at(row[0], row[5]))  # row[0], row[5]: its id, its version
    if version is not None and table.version != version:
        raise StaleTable(table)
    return table, pieces


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
    text, now = stored_sentences.dump(description), _now()
    seq = run(
        conn,
        _APPEND,
        {
            "table_id": table_id,
            "actor": actor,
            "payload": _dump(action),
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


def _keep(conn: Connection, table: Table, once: Once | None) -> Table:
    """The table after a change, with the change's key and answer kept in the same transaction.

    Keys older than ``KEYS_KEPT`` are swept on the way: no phone retries that late.
    """
    if once is not None:
        now = datetime.now(UTC)
        run(conn, _FORGET_KEYS, {"before": (now - KEYS_KEPT).isoformat()})
        answer = _dump(once.answer(table)) if once.answer else None
        run(
            conn,
            _KEEP_KEY,
            {
                "table_id": table.id,
                "key": once.key,
                "token": once.token,
                "answer": answer,
                "created_at": now.isoformat(timespec="milliseconds"),
            },
        )
    return table


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
    ``stored`` (see ``_write_state``). The table as it now is, without reading it back, and its
    state's pieces."""
    now = now or _now()
    head = {"id": table.id, "head_seq": seq, "version": table.version + 1, "updated_at": now}
    if text is None:
        run(conn, _SET_HEAD, head)
    else:
        stored = _write_state(conn, table.id, text, stored, head)
    return replace(table, state=state, head_seq=seq, version=table.version + 1, updated_at=now), stored


def _write_state(
    conn: Connection, table_id: str, text: str, stored: tuple[str, ...], head: dict | None = None
) -> tuple[str, ...]:
    """Write a state's JSON ``text`` as the table's, in pieces of ``PIECE`` characters, over the
    pieces ``stored`` now (as read, or as this process wrote them): only the pieces whose text
    differs are written, in one statement, and those past the new text's end deleted. A move
    that adds to the end of a long list (the rounds of a score pad, the shots of Forteresse:
    the keys after it are short) rewrites the last piece or two, whatever the state's length.
    With ``head`` (``_SET_HEAD``'s parameters) the table's row is updated too, on PostgreSQL in
    the same statement (one round trip). The new pieces."""
    pieces = tuple([text[start : start + PIECE] for start in range(0, len(text), PIECE)])
    changed = [
        number for number, piece in enumerate(pieces) if number >= len(stored) or stored[number] != piece
    ]
    cut = len(stored) > len(pieces)
    params = {"table_id": table_id, "count": len(pieces), **(head or {})}
    for row, number in enumerate(changed):
        params[f"p{row}"], params[f"t{row}"] = number, pieces[number]
    statements = [_put_pieces(len(changed))] if changed else []
    statements += [_DROP_PIECES] if cut else []
    if head is not None:
        together = statements and conn.dialect.name == "postgresql"
        statements = [_with_head(len(changed), cut)] if together else [*statements, _SET_HEAD]
    for statement in statements:
        run(conn, statement, params)
    return pieces


def _put_pieces(count: int) -> Sql:
    """The statement writing ``count`` pieces of a state (new ones inserted, others replaced)."""
    statement = _PUT_PIECES.get(count)
    if statement is None:
        rows = ", ".join(f"(:table_id, :p{row}, :t{row})" for row in range(count))
        statement = _PUT_PIECES[count] = Sql(
            f"INSERT INTO state_pieces (table_id, piece, text) VALUES {rows}"
            " ON CONFLICT (table_id, piece) DO UPDATE SET text = excluded.text"
        )
    return statement


def _with_head(count: int, cut: bool) -> Sql:
    """PostgreSQL: ``count`` pieces written (see ``_put_pieces``), those past the end deleted if
    ``cut``, and the table's row updated (``_SET_HEAD``), in one statement."""
    statement = _WITH_HEAD.get((count, cut))
    if statement is None:
        changes = ([_put_pieces(count).sqlite] if count else []) + ([_DROP_PIECES.sqlite] if cut else [])
        statement = _WITH_HEAD[count, cut] = Sql(
            "WITH "
            + ", ".join(f"change{n} AS ({change})" for n, change in enumerate(changes))
            + " "
            + _SET_HEAD.sqlite
        )
    return statement


def stored_state(conn: Connection, table_id: str) -> dict:
    """The table's state as the database holds it, read and decoded afresh (not the one kept here)."""
    return json.loads("".join(_stored_pieces(conn, table_id)))


def _stored_pieces(conn: Connection, table_id: str) -> tuple[str, ...]:
    return tuple([piece for (piece,) in run(conn, _PIECES, {"table_id": table_id})])


def replace_state(conn: Connection, table_id: str, state: dict) -> None:
    """Write ``state`` as the table's without a move and without a new version: what tests do to
    break a table on purpose (a version names one state, which this breaks); the state kept
    here for the table is forgotten."""
    with _write(conn):
        _write_state(conn, table_id, _dump(state), _stored_pieces(conn, table_id))
    forget_head(table_id)


# The store's most frequent statements, run on the driver itself (see ``companion.db.Sql``): a
# poll, a page and a move are made of these. Rows are tuples, in the order of these columns.
_LINK_COLUMNS = "token, table_id, role, seat, label, claimed_by, joined_at"
_TABLE_COLUMNS = (
    "id, game, title, options, seed, version, head_seq, created_at, updated_at, finished_at, private"
)
_LINK = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE token = :token")
_LINK_AND_GAME = Sql(
    "SELECT l.token, l.table_id, l.role, l.seat, l.label, l.claimed_by, l.joined_at, t.game"
    " FROM links l JOIN tables t ON t.id = l.table_id WHERE l.token = :token"
)
_TABLE_LINKS = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = :table_id ORDER BY position")
_REFEREE_LINK = Sql(f"SELECT {_LINK_COLUMNS} FROM links WHERE table_id = :table_id AND role = 'referee'")
_CLAIMED_SEAT = Sql(
    f"SELECT {_LINK_COLUMNS} FROM links"
    " WHERE table_id = :table_id AND role = 'seat' AND seat = :seat AND claimed_by IS NOT NULL"
)
_TABLE = Sql(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :id")
_TABLE_LOCKED = Sql(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = :id", lock=True)
_TABLE_VERSION = Sql("SELECT version FROM tables WHERE id = :id")
_PAST_TABLE = Sql(f"SELECT {_TABLE_COLUMNS}, state FROM tables WHERE id = :id")  # before migration 0012
_PIECES = Sql("SELECT text FROM state_pieces WHERE table_id = :table_id ORDER BY piece")
_TABLE_AND_PIECES = Sql(
    "SELECT " + ", ".join(f"t.{column}" for column in _TABLE_COLUMNS.split(", ")) + ", p.text"
    " FROM tables t JOIN state_pieces p ON p.table_id = t.id WHERE t.id = :id ORDER BY p.piece"
)
_PUT_PIECES: dict[int, Sql] = {}  # by the number of pieces written (see _put_pieces)
_WITH_HEAD: dict[
    tuple[int, bool], Sql
] = {}  # PostgreSQL: by the pieces written and whether some go (see _with_head)
_DROP_PIECES = Sql("DELETE FROM state_pieces WHERE table_id = :table_id AND piece >= :count")
_VERSION_BY_TOKEN = Sql(
    "SELECT t.version FROM links l JOIN tables t ON t.id = l.table_id WHERE l.token = :token"
)
_KEPT = Sql("SELECT token, answer FROM action_keys WHERE table_id = :table_id AND key = :key")
_LAST_MOVE = Sql(
    "SELECT MAX(seq) FROM actions WHERE table_id = :table_id AND kind = 'move' AND undone_at IS NULL"
)
_APPEND = Sql(  # the next seq is the INSERT's own: one statement, under the table's lock
    "INSERT INTO actions (table_id, seq, actor, payload, description, created_at, kind)"
    " SELECT :table_id, COALESCE(MAX(seq), 0) + 1, :actor, :payload, :description, :created_at, :kind"
    " FROM actions WHERE table_id = :table_id RETURNING seq"
)
_SET_HEAD = Sql(
    "UPDATE tables SET head_seq = :head_seq, version = :version, updated_at = :updated_at WHERE id = :id"
)
# A table's play, written when its game ends (``_keep_play``) and read back for the page's foot
# (``play``): the moment every phone at the table looks, so without SQLAlchemy Core's compiling
# (4 to 5 ms the first time in a worker). ``[directed]``: with ``lowest_wins``, which migration
# 0009 writes plays without (the column comes in 0010).
_PLAY_FINISHED = Sql("SELECT finished FROM plays WHERE id = :id")
_ADD_PLAY = {
    True: Sql(
        "INSERT INTO plays (id, table_id, game, started, finished, seconds, details, lowest_wins)"
        " VALUES (:id, :table_id, :game, :started, :finished, :seconds, :details, :lowest_wins)"
    ),
    False: Sql(
        "INSERT INTO plays (id, table_id, game, started, finished, seconds, details)"
        " VALUES (:id, :table_id, :game, :started, :finished, :seconds, :details)"
    ),
}
_SET_PLAY_DETAILS = {
    True: Sql("UPDATE plays SET details = :details, lowest_wins = :lowest_wins WHERE id = :id"),
    False: Sql("UPDATE plays SET details = :details WHERE id = :id"),
}
_DROP_PLAY_SEATS = Sql("DELETE FROM play_players WHERE play_id = :id")
_DROP_PLAY = Sql("DELETE FROM plays WHERE id = :id")
_ADD_PLAY_SEAT = Sql(
    "INSERT INTO play_players (play_id, position, player_id, finished, team, score, winner)"
    " VALUES (:play_id, :position, :player_id, :finished, :team, :score, :winner)"
)
_PLAYER_BY_KEY = Sql("SELECT id, offered FROM players WHERE key = :key")
_ADD_PLAYER = Sql(
    "INSERT INTO players (name, key, created_at, offered) VALUES (:name, :key, :now, :offered) ON CONFLICT (key) DO NOTHING"
)
_OFFER_PLAYER = Sql("UPDATE players SET offered = TRUE WHERE id = :id")
_PLAY = Sql("SELECT id, game, started, finished, details FROM plays WHERE id = :id")
_PLAY_SEATS = Sql(
    "SELECT p.name, s.score, s.winner, s.team, s.player_id FROM play_players s JOIN players p ON p.id = s.player_id"
    " WHERE s.play_id = :id ORDER BY s.position"
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


class _Head(NamedTuple):
    """A table as ``_Heads`` keeps it after a committed change."""

    version: int
    state: dict
    before: dict | None  # the state the move that made this version was made on
    options: dict
    entry: dict | None  # that move's log entry
    pieces: tuple[str, ...]  # the state's JSON text as written in state_pieces


class _Heads:
    """The decoded state of the tables this process changed last, by table and version, and
    after a move, the state it was made on (for its undo).

    A version names one state for good: it grows with every change, and a state is kept here
    only once its change is committed, so a state kept under the version the database holds
    is the state the database holds (whichever worker wrote it), and the state before it is
    the state the table's last move was made on. The states are shared, never changed: the
    rules modules' ``apply`` and ``view`` never change the state they are given
    (tests/rules/test_all_games.py). At most ``size`` tables are kept, the least recently
    changed forgotten first.
    """

    def __init__(self, size: int):
        self.size, self.kept, self.lock = size, {}, threading.Lock()

    def at(self, table_id: str, version: int) -> _Head | None:
        """What is kept of the table at ``version`` (its state and options, neither decoded again), or None."""
        head = self.kept.get(table_id)
        return head if head is not None and head.version == version else None

    def state(self, table_id: str, version: int) -> dict | None:
        head = self.at(table_id, version)
        return head.state if head else None

    def before(self, table_id: str, version: int) -> dict | None:
        """The state the move that made ``version`` was made on, if this process made it."""
        head = self.at(table_id, version)
        return head.before if head else None

    def entry(self, table_id: str, version: int) -> dict | None:
        """The log entry of the move that made ``version``, if this process made it (as ``history`` reads it)."""
        head = self.at(table_id, version)
        return head.entry if head else None

    def keep(
        self, table: Table, pieces: tuple[str, ...], before: dict | None = None, entry: dict | None = None
    ) -> Table:
        """Keep a table's state after a committed change, and its text's ``pieces`` as written
        (``before``: the state a move was made on, ``entry``: that move's log entry)."""
        with self.lock:
            self.kept.pop(table.id, None)
            self.kept[table.id] = _Head(table.version, table.state, before, table.options, entry, pieces)
            if len(self.kept) > self.size:
                del self.kept[next(iter(self.kept))]
        return table

    def forget(self, table_id: str) -> None:
        with self.lock:
            self.kept.pop(table_id, None)


_HEADS = _Heads(HEADS_KEPT)
_TEXTS = jsontext.Encoder(HEADS_KEPT)


def _state_text(rules: ModuleType, state: dict, kept: bool) -> str:
    """The state's JSON text. For a game whose moves share with the state before them what they
    leave unchanged (``SHARED_STATES``), from a state kept decoded here (``kept``: a move's, or
    an undo's that replays from a snapshot kept here), the text of the parts already written is
    reused; the text is the same. A state decoded afresh is written whole: its parts are all
    new to the encoder, and ``json.dumps`` writes them faster.
    """
    return _TEXTS.dumps(state) if kept and getattr(rules, "SHARED_STATES", False) else _dump(state)


def forget_head(table_id: str) -> None:
    """Forget the states kept for a table, after its state was written otherwise than by this module."""
    _HEADS.forget(table_id)


def _table(conn: Connection, row: tuple, decoded: _Head | None = None) -> tuple[Table, tuple[str, ...]]:
    """A table from a row of ``_TABLE_COLUMNS``, and its state's pieces as stored (``decoded``:
    its state, options and pieces, kept: nothing more is read). Else the row is read again with
    its pieces in one statement: two reads outside a transaction could see a change between them
    (a version with the next version's state)."""
    if decoded is None:  # the row again with its pieces, in one statement: the state of the version read
        rows = run(conn, _TABLE_AND_PIECES, {"id": row[0]}).fetchall()
        if not rows:
            raise KeyError(row[0])
        row, pieces = rows[0][:-1], tuple([found[-1] for found in rows])
        decoded = _Head(row[5], json.loads("".join(pieces)), None, json.loads(row[3]), None, pieces)
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


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
