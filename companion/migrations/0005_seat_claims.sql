-- A player's seat link is claimed by the first phone that opens it: another phone is told the
-- seat is taken. Holds a digest of that phone's identity (never the identity itself); NULL
-- while no phone has opened it, or after the referee released it.
ALTER TABLE links ADD COLUMN claimed_by TEXT;
