-- The tables a browser created or joined, for its home page. Kept here rather than in the
-- session cookie, which anyone holding it can read: the cookie keeps only the browser's
-- identity, and this table a digest of it.
CREATE TABLE remembered (
    phone    TEXT NOT NULL,              -- sha256 of the browser's session identity
    token    TEXT NOT NULL,              -- the link it opened
    seen_at  TEXT NOT NULL,
    PRIMARY KEY (phone, token)
);
