"""The store keeps the state a change leaves decoded, and writes the next state's JSON reusing
the text of what the two share: what it writes and reads is still exactly the rules' state."""

from __future__ import annotations

import json
import random

import pytest

from companion import store
from companion.rules import forteresse, tactics
from companion.store import base, db, heads, jsontext, tables
from tests.rules.test_all_games import OPTIONS, TABLE_MODULES


@pytest.mark.parametrize("name", sorted(TABLE_MODULES))
def test_the_shared_text_is_the_text_json_writes(name):
    rules, encoder = TABLE_MODULES[name], jsontext.Encoder(4)
    for number, options in enumerate(OPTIONS[name]):
        rng = random.Random(f"{name}-{number}")
        state = rules.new_table(options, rng.randrange(2**62))
        while (chosen := rules.random_legal_action(state, rng)) is not None:
            state = rules.apply(state, chosen[1], chosen[0])
            assert encoder.dumps(state) == base.dump(state)
        assert encoder.dumps(json.loads(base.dump(state))) == base.dump(state)  # a state decoded afresh


@pytest.mark.both_backends
@pytest.mark.parametrize(
    "rules,options",
    [
        (forteresse, {"mode": "phones", "first": "a"}),
        (tactics, {"players": 2, "factions": {"p1": "wardens", "p2": "roost"}}),
    ],
)
def test_moves_and_undos_through_the_store_keep_the_rules_state(database, rules, options):
    store.migrate(database)
    conn = db.connect(database)
    table, _links = store.create_table(conn, rules, rules.__name__.rsplit(".", 1)[1], options)
    rng, state, done = random.Random(1), table.state, []
    while (chosen := rules.random_legal_action(table.state, rng)) is not None:
        table = store.act(conn, rules, table.id, *chosen, table.version)
        done.append(chosen)
        if rng.random() < 0.1:
            table = store.undo(conn, rules, table.id, table.version)
            done.pop()
    for actor, action in done:
        state = rules.apply(state, action, actor)
    store.forget_head(table.id)  # read back from the database itself
    assert store.get_table(conn, table.id).state == state == table.state
    conn.close()


@pytest.mark.both_backends
def test_a_move_by_another_worker_is_read_from_the_database(database, monkeypatch):
    store.migrate(database)
    conn = db.connect(database)
    options = {"mode": "phones", "first": "a"}
    table, _links = store.create_table(conn, forteresse, "forteresse", options)
    rng = random.Random(2)
    moves = []
    for _ in range(6):
        moves.append(forteresse.random_legal_action(table.state, rng))
        if len(moves) == 4:  # this move is made by another process, which keeps its own states
            with monkeypatch.context() as other:
                other.setattr(heads, "HEADS", heads.Heads(heads.HEADS_KEPT))
                table = store.act(conn, forteresse, table.id, *moves[-1], table.version)
        else:
            table = store.act(conn, forteresse, table.id, *moves[-1], table.version)
    state = forteresse.new_table(options, table.seed)
    for actor, action in moves:
        state = forteresse.apply(state, action, actor)
    assert table.state == state == json.loads(base.dump(store.get_table(conn, table.id).state))
    conn.close()


def test_a_list_changed_in_the_middle_or_cut_short_is_written_as_it_is():
    """A list that begins with the same item as one written before reuses that one's text only
    if every item of it is still there, the same object, in the same place."""
    encoder, rounds = jsontext.Encoder(64), [{"points": [n, 1]} for n in range(100)]
    states = [
        {"rounds": rounds},
        {"rounds": rounds + [{"points": [7]}]},  # one more
        {"rounds": rounds[:50] + [{"points": [True]}] + rounds[51:]},  # one replaced in the middle
        {"rounds": rounds[:30]},  # cut short
        {"rounds": [*rounds[:99], {"points": [99, 1.0]}]},  # the last replaced by an equal one
        {"rounds": rounds + [{"points": [7]}]},
    ]
    for state in states:
        assert encoder.dumps(state) == base.dump(state)


def test_the_text_kept_is_bounded():
    """However many tables change, the encoder holds what its last few writes met, not more."""
    encoder = jsontext.Encoder(8)
    for number in range(2000):
        state = {"log": [[number, step] for step in range(40)], "table": {"n": [number]}}
        assert encoder.dumps(state) == base.dump(state)
    assert len(encoder.known) + len(encoder.runs) + len(encoder.starts) < 16 * 45
    assert encoder.chars < 16 * 2 * len(base.dump(state))


def test_keys_are_written_as_json_writes_them_and_the_keys_kept_are_bounded(monkeypatch):
    """A key's text is kept (``_NAMES``): the same text as JSON's, even for keys that need escaping,
    and however many different keys the states hold, no more than ``NAMES_MAX`` are kept."""
    monkeypatch.setattr(jsontext, "NAMES_MAX", 50)
    monkeypatch.setattr(jsontext, "_NAMES", {})
    encoder = jsontext.Encoder(8)
    for number in range(300):
        state = {f'k"{number}\\\u00e9\n': [{"x": number}], "\u2028": [{"y": [number]}], "a": [{}]}
        assert encoder.dumps(state) == base.dump(state)
        assert encoder.dumps(dict(state)) == base.dump(state)
    assert 0 < len(jsontext._NAMES) <= 50


@pytest.mark.both_backends
@pytest.mark.parametrize("name", ["scorepad", "forteresse", "castle"])
def test_an_undo_without_replay_leaves_what_a_replay_leaves(database, monkeypatch, name):
    """An undo of this process's last move takes the state that move was made on; another
    process (nothing kept) replays from a snapshot: both leave the same state and head."""
    rules = TABLE_MODULES[name]
    store.migrate(database)
    conn = db.connect(database)
    tables = [store.create_table(conn, rules, name, OPTIONS[name][0], seed=5)[0] for _ in range(2)]
    rng = random.Random(name)

    def both(change):
        """The change on the first table kept here, and on the second by a process that keeps nothing."""
        tables[0] = change(tables[0])
        with monkeypatch.context() as other:
            other.setattr(heads, "HEADS", heads.Heads(heads.HEADS_KEPT))
            tables[1] = change(tables[1])
        kept, replayed = (store.get_table(conn, table.id) for table in tables)
        assert (
            (kept.state, kept.head_seq)
            == (replayed.state, replayed.head_seq)
            == (tables[1].state, tables[1].head_seq)
        )
        assert tables[0].state == tables[1].state

    for _ in range(120):
        chosen = rules.random_legal_action(tables[0].state, rng)
        if chosen is None:
            break
        both(lambda table, chosen=chosen: store.act(conn, rules, table.id, *chosen, table.version))
        for _ in range(rng.choice([0, 0, 1, 2])):  # an undo, two in a row
            if tables[0].head_seq:
                both(lambda table: store.undo(conn, rules, table.id, table.version))
    conn.close()


@pytest.mark.both_backends
@pytest.mark.parametrize("name", ["scorepad", "forteresse", "tactics"])
def test_two_workers_taking_a_tables_changes_in_turn_catch_up_from_the_log(database, monkeypatch, name):
    """Each worker keeps its own states; taking the next change it finds its state a version or two
    old and applies the moves the other made (read from the log, not the state's pieces), through
    undos and moves taken back: after every change, the state is the one stored."""
    rules = TABLE_MODULES[name]
    store.migrate(database)
    conn = db.connect(database)
    table = store.create_table(conn, rules, name, OPTIONS[name][0], seed=3)[0]
    workers, rng, reads = [heads.Heads(heads.HEADS_KEPT) for _ in range(2)], random.Random(name), []
    real_run = tables.run
    monkeypatch.setattr(
        tables,
        "run",
        lambda c, statement, params=None: (
            reads.append(statement is tables._TABLE_AND_PIECES) or real_run(c, statement, params)
        ),
    )
    undos = 0
    for number in range(90):
        monkeypatch.setattr(heads, "HEADS", workers[number % 2])
        chosen = rules.random_legal_action(table.state, rng)
        if chosen is None:
            break
        if table.head_seq and rng.random() < 0.2:
            table, undos = store.undo(conn, rules, table.id, table.version), undos + 1
        else:
            table = store.act(conn, rules, table.id, *chosen, table.version)
        assert store.stored_state(conn, table.id) == table.state
    # Each worker's first change reads the state, and so does each one's next change after an undo
    # took back the move its state ends with; every other change caught up from the log.
    assert sum(reads) <= 2 + 2 * undos < number
