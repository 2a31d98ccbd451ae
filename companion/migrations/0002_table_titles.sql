-- A table's title (the players' names), shown in the home page's list of tables.
ALTER TABLE tables ADD COLUMN title TEXT NOT NULL DEFAULT '';
