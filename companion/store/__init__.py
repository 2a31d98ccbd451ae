"""The store: everything Castellan keeps in its database (SQLite or PostgreSQL, ``db``), and nothing
of Flask. It may use the rules (a table's state is what its rules make of its log); the SQL of the
app lives here and nowhere else. Each module holds one job:

- ``db``: the engine, the schema, the connections, and the migrations (``migrations/``, each frozen
  as it was written: none imports the app);
- ``tables``: a table, its log (``actions``), its snapshots, and the changes made to it (create, act,
  undo, finish, rematch, release a seat) under its lock and its version, each committed before it
  returns;
- ``pieces``: a table's state as stored, its JSON text in pieces that a change rewrites only where
  it differs;
- ``heads``: the states this process keeps decoded after a change, and how it catches one up with
  the log when another process changed the table since;
- ``idempotency``: the keys a change carries (``Once``), recorded with it so that a repeat is
  answered, never applied twice;
- ``links``: the ways into a table (referee, viewer, seats) and the seats' claims;
- ``browsers``: the tables a browser opened, for its home page;
- ``roster``: the players, one per name however it is spelled;
- ``plays``: a table that ended, its players' scores, the history and its figures;
- ``imports``: how much one file, and one address in an hour, may import;
- ``backfill``: the data step run once after migrating a database from before plays were kept;
- ``limits``: the rate limits' counters; ``jsontext``: JSON text that costs what changed.

This face hands on the names the other layers use: ``store.act(...)``, ``store.Link``, ``store.Play``.
"""

from companion.store.backfill import migrate
from companion.store.base import in_zone, new_token, token_shaped, utc
from companion.store.browsers import forget_untouched, remember, remembered_tables, tables_for_tokens
from companion.store.heads import HEADS_KEPT, answer_text, forget_head
from companion.store.idempotency import KEY_LIFETIME, Once, Repeated
from companion.store.imports import ImportBounds, OverQuota
from companion.store.links import (
    ROLES,
    Link,
    claim_seat,
    find_link,
    link_and_game,
    mark_joined,
    phone_digest,
    table_links,
)
from companion.store.pieces import PIECE, replace_state, stored_state
from companion.store.plays import (
    MAX_DETAILS,
    PLAYS_PAGE,
    Play,
    PlaySeat,
    count_plays,
    delete_play,
    game_stats,
    import_plays,
    list_plays,
    lowest_wins,
    play,
    player_days,
    player_stats,
    table_of_play,
    table_play,
)
from companion.store.roster import (
    MAX_PAGE,
    PLAYER_NAME_LENGTH,
    find_player,
    forget_player,
    merge_players,
    name_key,
    player,
    player_names,
    players,
    rename_player,
)
from companion.store.tables import (
    FINISH,
    SNAPSHOT_EVERY,
    TITLE_LENGTH,
    StaleTable,
    Table,
    act,
    add_time,
    create_table,
    finish,
    get_table,
    history,
    last_action,
    order_free,
    release_seat,
    rematch,
    rematch_link,
    replay,
    set_paused,
    sweep,
    table_clock,
    table_version,
    undo,
    version_by_token,
)

__all__ = [
    "add_time",
    "migrate",
    "FINISH",
    "HEADS_KEPT",
    "answer_text",
    "KEY_LIFETIME",
    "MAX_DETAILS",
    "MAX_PAGE",
    "PIECE",
    "PLAYER_NAME_LENGTH",
    "PLAYS_PAGE",
    "ROLES",
    "SNAPSHOT_EVERY",
    "TITLE_LENGTH",
    "Link",
    "Once",
    "Play",
    "PlaySeat",
    "Repeated",
    "StaleTable",
    "Table",
    "act",
    "claim_seat",
    "ImportBounds",
    "OverQuota",
    "count_plays",
    "delete_play",
    "create_table",
    "find_link",
    "find_player",
    "finish",
    "forget_head",
    "forget_player",
    "game_stats",
    "get_table",
    "history",
    "import_plays",
    "in_zone",
    "last_action",
    "link_and_game",
    "list_plays",
    "lowest_wins",
    "mark_joined",
    "merge_players",
    "name_key",
    "new_token",
    "order_free",
    "phone_digest",
    "play",
    "player",
    "player_days",
    "player_names",
    "player_stats",
    "players",
    "rematch",
    "rematch_link",
    "release_seat",
    "set_paused",
    "table_clock",
    "forget_untouched",
    "remember",
    "remembered_tables",
    "rename_player",
    "replace_state",
    "replay",
    "stored_state",
    "sweep",
    "table_links",
    "table_of_play",
    "table_play",
    "table_version",
    "tables_for_tokens",
    "token_shaped",
    "undo",
    "utc",
    "version_by_token",
]
