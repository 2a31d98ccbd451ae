-- A table is one game being played; its state is derived from its action log.
CREATE TABLE tables (
    id          TEXT PRIMARY KEY,          -- unguessable, 128 bits
    game        TEXT NOT NULL,             -- the game's slug
    options     TEXT NOT NULL,             -- JSON: choices made at creation
    seed        INTEGER NOT NULL,          -- chance is explicit: the rules draw from it
    version     INTEGER NOT NULL DEFAULT 0,-- bumps on every action and undo
    head_seq    INTEGER NOT NULL DEFAULT 0,-- seq of the last action still in force
    state       TEXT NOT NULL,             -- JSON: the state after head_seq (a cache of the log)
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- Every link to a table: the referee's, the viewer's and one per private seat.
CREATE TABLE links (
    token     TEXT PRIMARY KEY,            -- unguessable, 128 bits
    table_id  TEXT NOT NULL REFERENCES tables(id),
    role      TEXT NOT NULL CHECK (role IN ('referee', 'viewer', 'seat')),
    seat      TEXT,
    label     TEXT NOT NULL
);
CREATE INDEX links_by_table ON links(table_id);

-- The action log: appended to, never rewritten except to mark an action undone.
CREATE TABLE actions (
    table_id     TEXT NOT NULL REFERENCES tables(id),
    seq          INTEGER NOT NULL,
    actor        TEXT NOT NULL,
    payload      TEXT NOT NULL,            -- JSON: the action as the rules module took it
    description  TEXT NOT NULL,            -- the action in plain words, for the history
    created_at   TEXT NOT NULL,
    undone_at    TEXT,
    PRIMARY KEY (table_id, seq)
);

-- States after some actions, so undo replays a bounded stretch of the log.
CREATE TABLE snapshots (
    table_id  TEXT NOT NULL REFERENCES tables(id),
    seq       INTEGER NOT NULL,
    state     TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
