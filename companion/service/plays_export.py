"""The plays as files: Castellan's own export (to move a club's history to another server) and
a file the BG Stats app imports. No Flask: the API, the pages and the ``castellan`` command
all turn the store's plays (``store.Play``) into documents here.

Castellan's document is ``{"format": "castellan-plays", "version": 1, "plays": [...]}``, the
plays oldest first, each with its id, game, start and end (ISO 8601, UTC), players in the
result's order (name, team, score, winner, and ``thinking_seconds`` where the table's turn timer
or chess clock timed them), who began (``first_player``, a place in that list; left out when not
known), the game's own details and its photos (``photos``: each its media type, its bytes in
base64 and its text alternative; left out when it has none): everything the history
holds, so exporting, importing on a fresh server and exporting again gives the same document.

The BG Stats document follows the backup file that BG Stats itself exports and imports (see
docs/history.md, "Export to BG Stats", for the sources and what each field carries).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime, tzinfo

from sqlalchemy.engine import Connection

from companion import store
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_
from companion.service import photos as play_photos
from companion.store import photos as kept_photos

FORMAT = "castellan-plays"
VERSION = 1
MAX_PLAYS = store.ImportBounds().plays_per_file  # in one file, by default (CASTELLAN_IMPORT_PLAYS_PER_FILE)
MAX_FILE_BYTES = 16 * 1024 * 1024  # an upload of Castellan's export: 10,000 plays take about 5 MB
PAGE = store.MAX_PAGE  # plays per call of store.list_plays (its most)

# BG Stats tells one object from another by its uuid: the same Castellan play, game, player or
# location always gets the same one (from any server), so importing a newer file again adds
# only what is new. The namespace is Castellan's own; only its constancy matters.
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://castellan.invalid/bgstats")
DEFAULT_LOCATION = "Castellan"


def every_play(
    conn: Connection, game: str | None = None, player: str | int | None = None
) -> list[store.Play]:
    """Every play with these filters (as ``store.list_plays`` has them), oldest first."""
    found: list[store.Play] = []
    before = None
    while True:
        page = store.list_plays(conn, game=game, player=player, limit=PAGE, before=before)
        found += page
        if len(page) < PAGE:
            break
        before = page[-1].id
    return sorted(found, key=_chronological)


# --- Castellan's own file -----------------------------------------------------------------


def castellan_document(plays: Iterable[store.Play], conn: Connection | None = None) -> dict:
    """Castellan's export of these plays: versioned, oldest first, nothing but what the history holds;
    with their photos, read from ``conn`` (None: without photos)."""
    plays = sorted(plays, key=_chronological)
    photos = kept_photos.photos_of_plays(conn, [play.id for play in plays]) if conn is not None else {}
    entries = [_castellan_play(play) for play in plays]
    for entry in entries:
        if entry["id"] in photos:
            entry["photos"] = [play_photos.exported(*photo) for photo in photos[entry["id"]]]
    return {"format": FORMAT, "version": VERSION, "plays": entries}


def _castellan_play(play: store.Play) -> dict:
    """One play of Castellan's file; ``first_player`` only where it is known, so that a file of plays
    kept before Castellan noted who began is exported again as it was imported; ``seconds`` (how long
    it was played) only where it is not its start to its end."""
    entry = {
        "id": play.id,
        "game": play.game,
        "started": play.started,
        "finished": play.finished,
        "players": [_castellan_seat(seat) for seat in play.players],
        "details": play.details,
    }
    if play.first_player is not None:
        entry["first_player"] = play.first_player
    if play.seconds is not None and play.seconds != _whole_seconds(play.started, play.finished):
        entry["seconds"] = play.seconds  # time in play, where pauses (or milliseconds) made it differ
    return entry


def _castellan_seat(seat: store.PlaySeat) -> dict:
    """One player of a play in Castellan's file; ``thinking_seconds`` only where a clock timed them,
    so that a file of plays nobody timed is exported again as it was imported."""
    entry = {"name": seat.name, "team": seat.team, "score": seat.score, "winner": seat.winner}
    if seat.thinking_seconds is not None:
        entry["thinking_seconds"] = seat.thinking_seconds
    return entry


def _whole_seconds(started: str, finished: str) -> int:
    """A play's start to its end in whole seconds, as an import works it out from the file's times."""
    return max(0, int((_moment(finished) - _moment(started)).total_seconds()))


def plays_to_import(document: object, games: Iterable[str], most: int | None = MAX_PLAYS) -> list[dict]:
    """The plays of a file made by ``castellan_document``, for ``store.import_plays`` (which checks
    each play's own fields). ``RuleError`` saying what is wrong with the file, in a player's
    terms, when it is not such a file, holds more than ``most`` plays (None: any number) or holds a
    game this server does not have."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RuleError(
            "not_castellan_plays",
            N_(
                "This file is not a Castellan export of plays: export one on the other server's Export and import plays page."
            ),
            "format",
        )
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RuleError(
            "bad_version", N_("This file does not say which version of the export it is."), "version"
        )
    if version > VERSION:
        raise RuleError(
            "newer_version",
            N_(
                "This file was made by a newer Castellan (export version %(version)s): update this server to import it."
            ),
            "version",
            version=str(version),
        )
    plays = document.get("plays")
    if not isinstance(plays, list):
        raise RuleError("no_plays", N_("This file has no list of plays."), "plays")
    if most is not None and len(plays) > most:
        raise RuleError(
            "too_many_plays",
            NP_(
                "This file has %(count)s play; import at most %(most)s at a time.",
                "This file has %(count)s plays; import at most %(most)s at a time.",
            ),
            "plays",
            count=len(plays),
            most=most,
        )
    known = set(games)
    for index, play in enumerate(plays):
        game = play.get("game") if isinstance(play, dict) else None
        if isinstance(game, str) and game not in known:
            raise RuleError(
                "unknown_game",
                N_(
                    "Play number %(number)s of the file is a game of %(game)s, which this server does not have."
                ),
                f"plays.{index}.game",
                number=index + 1,
                game=game[:40],
            )
    return [_with_photos(play, index + 1) for index, play in enumerate(plays)]


def _with_photos(play: object, number: int) -> object:
    """A play of the file with its photos checked by their content again, as an upload's are
    (``photos.imported``): the store keeps them as they are then."""
    if not isinstance(play, dict) or "photos" not in play:
        return play
    return {**play, "photos": play_photos.imported(play["photos"], number)}


# --- BG Stats -----------------------------------------------------------------------------


def bgstats_document(
    plays: Iterable[store.Play],
    game_names: dict[str, str],
    location: str = DEFAULT_LOCATION,
    zone: tzinfo | None = None,
    me: str | None = None,
) -> dict:
    """These plays as a BG Stats backup file: its games, players, one location and the plays.

    ``game_names`` maps each game's slug to its name, in the order the games should be listed;
    ``location`` names the one location (where the plays happened: this server); ``zone`` is
    the time zone of BG Stats' dates, which carry none (None: this computer's, with its summer time); ``me`` (a player's name, any spelling)
    is marked as the owner of the app ("me") when that player is in the file.
    """
    plays = sorted(plays, key=_chronological)
    order = {slug: position for position, slug in enumerate(game_names)}
    keys = sorted({_game_key(play) for play in plays}, key=lambda key: (order.get(key[0], len(order)), key))
    game_ids = {key: number for number, key in enumerate(keys, 1)}
    player_ids: dict[str, int] = {}
    player_rows: list[dict] = []
    for play in plays:
        for seat in play.players:
            key = store.name_key(seat.name)
            if key not in player_ids:
                player_ids[key] = len(player_ids) + 1
                player_rows.append(
                    {
                        "id": player_ids[key],
                        "uuid": _uuid("player", key),
                        "name": seat.name,
                        "isAnonymous": False,
                    }
                )
    location_row = {"id": 1, "uuid": _uuid("location", store.name_key(location)), "name": location}
    document = {
        "games": [_bgstats_game(key, game_ids[key], game_names.get(key[0], key[0]), plays) for key in keys],
        "players": player_rows,
        "locations": [location_row],
        "plays": [_bgstats_play(play, game_ids, player_ids, zone) for play in plays],
        "challenges": [],
        "userInfo": {},
    }
    if me is not None and store.name_key(me) in player_ids:
        document["userInfo"]["meRefId"] = player_ids[store.name_key(me)]
    return document


def _game_key(play: store.Play) -> tuple[str, bool]:
    """The BG Stats game a play belongs to: its game, and whether its scores count down. BG Stats
    knows one direction per game, so a "lowest total wins" score pad is a game of its own there."""
    return play.game, play.lowest_wins


def _bgstats_game(key: tuple[str, bool], number: int, name: str, plays: list[store.Play]) -> dict:
    slug, lowest = key
    seats = [seat for play in plays if _game_key(play) == key for seat in play.players]
    return {
        "id": number,
        "uuid": _uuid("game", f"{slug}:lowest" if lowest else slug),
        "name": f"{name} (lowest total wins)" if lowest else name,
        "bggId": 0,  # Castellan's games are its own: none has a BoardGameGeek entry
        "bggName": "",
        "bggYear": 0,
        "highestWins": not lowest,  # the most points (or elements, or wins) win, but where the lowest total does
        "noPoints": all(seat.score is None for seat in seats),
        "cooperative": False,
        "usesTeams": any(seat.team for seat in seats),
    }


def _bgstats_play(
    play: store.Play, game_ids: dict[tuple[str, bool], int], player_ids: dict[str, int], zone: tzinfo | None
) -> dict:
    started, finished = _moment(play.started), _moment(play.finished)
    teams = any(seat.team for seat in play.players)
    scores = []
    for position, seat in enumerate(play.players):
        entry = {
            "playerRefId": player_ids[store.name_key(seat.name)],
            "winner": seat.winner,
            "newPlayer": False,
            "startPlayer": position == play.first_player,  # false for all when not known (older plays)
            "seatOrder": 0,
            "rank": 0,
        }
        if seat.score is not None:
            entry["score"] = str(seat.score)
        if seat.team:
            entry["team"] = seat.team
        scores.append(entry)
    return {
        "uuid": _uuid("play", play.id),
        "gameRefId": game_ids[_game_key(play)],
        "locationRefId": 1,
        "playDate": _bgstats_date(started, zone),
        "entryDate": _bgstats_date(finished, zone),
        "modificationDate": _bgstats_date(finished, zone),
        "durationMin": max(0, round((finished - started).total_seconds() / 60)),
        "ignored": False,
        "manualWinner": True,  # the winners are the rules' (a tie-break, a shared win), not the highest score's
        "rating": 0,
        "rounds": 0,
        "scoringSetting": 0,
        "usesTeams": teams,
        "bggId": 0,
        "playImages": "[]",
        "expansionPlays": [],
        "board": "",
        "playerScores": scores,
    }


def _bgstats_date(moment: datetime, zone: tzinfo | None) -> str:
    """A moment as BG Stats writes its dates, on the clocks of ``zone``: the year always four digits
    (``strftime`` writes the year 1 as "1")."""
    return store.in_zone(moment, zone).replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")).upper()


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _chronological(play: store.Play) -> tuple[str, str]:
    return (play.finished, play.id)


def import_document(
    conn: Connection,
    document: object,
    games: dict,
    bounds: store.ImportBounds | None = None,
    address: str | None = None,
) -> tuple[int, int]:
    """Import a Castellan export into the database: (plays added, plays in the file), within
    ``bounds`` for ``address`` (None: the server's owner, on the command line, is not bounded).

    ``RuleError`` in a player's terms when the file is not one, or is more than the bounds take
    (``store.OverQuota`` past this hour's); then nothing is added.
    """
    plays = plays_to_import(document, games, bounds.plays_per_file if bounds else None)
    return store.import_plays(conn, plays, bounds, address), len(plays)
