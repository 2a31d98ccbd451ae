-- When a seat's private link was first opened: the referee's invitations fold away once every seat has joined.
ALTER TABLE links ADD COLUMN joined_at TEXT;
