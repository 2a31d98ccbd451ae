-- Every move exactly once: an action sent with an Idempotency-Key is recorded with it, in the
-- same transaction, so a repeat finds the key and gets the first answer instead of a second move.
CREATE TABLE action_keys (
    table_id    TEXT NOT NULL REFERENCES tables(id),
    key         TEXT NOT NULL,             -- chosen by the phone: a hidden form field or the API's header
    token       TEXT NOT NULL,             -- the link that used it: another link gets no one else's answer
    answer      TEXT,                      -- JSON: the API's first answer (NULL for a page's form)
    created_at  TEXT NOT NULL,
    PRIMARY KEY (table_id, key)
);
CREATE INDEX action_keys_by_age ON action_keys(created_at);

-- A table the referee finished (the score pad has no end of its own); NULL while it is open.
ALTER TABLE tables ADD COLUMN finished_at TEXT;

-- What a log entry is: a move of the game, or the referee finishing the table.
ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';
