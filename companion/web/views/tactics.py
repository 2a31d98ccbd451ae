"""Square Tactics: its pages (the board tracker's forms, the score sheet, the help) and its JSON API.

Thin views: read the request, call ``companion.rules.tactics``, render. A table is played
through the generic table routes (``views/tables.py``); this module turns its forms into
options and actions, and gives the table's template the board as one seat sees it
(``tactics_board``). Which seat a phone looks from is that phone's own choice, kept in its
session, so the live fragment keeps it on every poll. The score sheet is a GET form: it
changes nothing on the server and works without JavaScript.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache, lru_cache
from typing import NamedTuple

from flask import Blueprint, redirect, render_template, request, session, url_for
from flask_babel import gettext
from markupsafe import Markup, escape

from companion import store
from companion.http.bounded import Bounded
from companion.i18n import current_language, say_name
from companion.rules import tactics, tactics_balance
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message, seat_name, versus
from companion.service import schemas
from companion.service.games import Game
from companion.web.rendering import render
from companion.web.templating import keyed_as_they_are

bp = Blueprint("tactics", __name__, url_prefix="/tactics")

# How far each seat's cards are turned clockwise, seen from S (north up).
TURN_DEGREES = {"S": 0, "W": 90, "N": 180, "E": 270}
FACING = {"S": "north", "W": "east", "N": "south", "E": "west"}  # the board's far side, from each seat
CLOCKWISE = {"north": "east", "east": "south", "south": "west", "west": "north"}
SCORE_GAMES = tactics.GAMES_IN_MATCH
SCORE_FIELDS = ("captured", "corners", "sides", "centres")
CELL_KINDS = {"corners": 1, "sides": 2, "centres": 3}  # a cell's value names its kind
# The shipped factions' descriptions (companion/rules/factions/*.json) marked for translation: a page
# or a sheet says a faction's description with `say`, which finds the English text in the catalog.
FACTION_DESCRIPTIONS = (
    N_("Border barons who hold the flanks: strong to either side, thin ahead and behind."),
    N_("Wild beasts of the high spire: two fearsome edges on every card, two plain ones."),
    N_("Steady soldiers with no weak side and no great strength either."),
    N_("Sentries who see the enemy coming: high top edges, weak bottom edges."),
)
REMEMBERED_SEATS = 10
MAX_FACTION_TEXT = 20_000


def table_options(options: dict) -> dict:
    """The creation options (typed, ``OPTIONS_SCHEMA``): ``players`` (2 or 4, text or a number),
    ``faction_<p>``, optional ``own_<p>`` (JSON text), ``name_<p>``."""
    players = {"2": 2, "4": 4}.get(str(options.get("players", "2")).strip())
    if players is None:
        raise RuleError("bad_players", N_("Square Tactics is played by 2 or 4 players."), "players")
    ids = tactics.PLAYER_IDS[:players]
    return {
        "players": players,
        "factions": {player: _faction_choice(options, player) for player in ids},
        "names": {player: str(options.get(f"name_{player}", "")).strip() for player in ids},
    }


def table_title(options: dict) -> str | Message:
    """A table's title in lists: "Ola v Kuba" (unnamed players by their number)."""
    names = options.get("names", {})
    ids = tactics.PLAYER_IDS[: options.get("players", 2)]
    return versus(*(names.get(player) or f"Player {number}" for number, player in enumerate(ids, start=1)))


def table_action(form: dict, viewer: str) -> dict:
    """A posted form as an action: a play (tapped ``cell`` + ``card`` id, or ``typed`` with
    ``top right bottom left``), a hand (``player`` and the ticked ``cards``), or ``type=next_game``."""
    kind = form.get("type", "play")
    if kind == "next_game":
        return {"type": "next_game"}
    if kind == "hand":  # the table's form names each seat's boxes cards_<seat>; cards is read too
        player = form.get("player")
        ticked = f"cards_{player}" if isinstance(player, str) else "cards"
        return {"type": "hand", "player": player, "cards": form.get(ticked, form.get("cards", []))}
    if kind != "play":
        raise RuleError("unknown_action", N_("Choose one of the buttons on the table's screen."), "type")
    cell = form.get("cell")
    if not isinstance(cell, str) or not cell.strip():
        raise RuleError("no_cell", N_("Tap the cell the card was laid on first."), "cell")
    action: dict = {"type": "play", "cell": cell.strip()}
    if isinstance(form.get("player"), str) and form["player"]:
        action["player"] = form["player"]
    if form.get("typed"):
        action["edges"] = [_edge_number(form.get(edge), edge) for edge in tactics.EDGES]
    elif isinstance(form.get("card"), str) and form["card"]:
        action["card"] = form["card"]
    else:
        raise RuleError("no_card", N_("Pick the card that was played, or type its four numbers."), "card")
    return action


OPTIONS_SCHEMA = schemas.options(
    "The start form: 2 or 4 players, each one's faction (a shipped one's id, or own_<p>: a faction as JSON text), names.",
    {
        "players": {"enum": [2, 4, "2", "4"]},
        **{
            f"{field}_{player}": schemas.TEXT
            if field != "own"
            else {"type": "string", "maxLength": MAX_FACTION_TEXT}
            for player in tactics.PLAYER_IDS
            for field in ("faction", "own", "name")
        },
    },
)
ACTION_SCHEMA = schemas.actions(
    schemas.action(
        "play",
        "A card laid on a cell: one of the player's cards by id, or its four edges typed.",
        {
            "cell": schemas.TEXT,
        },
        {
            "player": schemas.TEXT,
            "card": schemas.TEXT,
            "edges": {"type": "array", "items": {"type": "integer"}, "minItems": 4},
        },
    ),
    schemas.action(
        "hand",
        "The cards a player really holds, as far as known (ids like p1-03, or names); "
        "[] forgets the hand entered. The referee enters any hand, a player's link only its own.",
        {
            "player": schemas.TEXT,
            "cards": {"type": "array", "items": schemas.TEXT},
        },
    ),
    schemas.action("next_game", "Start the next game of the match."),
)


GAME = Game(
    slug="tactics",
    name=N_("Square Tactics"),
    tagline=N_("Lay cards on a small grid; each edge's number fights the card next to it."),
    players=N_("2 players (3x3) or 4 (4x4)"),
    order=5,
    summary=(
        N_("Each player has a deck of a faction: every card carries four numbers, one per edge."),
        N_(
            "Place a card on an empty cell, then compare its edges with neighbouring opponents' cards in turn: "
            "top, right, bottom, left. Higher captures, equal goes on, lower stops."
        ),
        N_(
            "At the end, captures and the cells you hold score points: centres most, corners least. "
            "A match is three games."
        ),
    ),
    rules=tactics,
    table_options=table_options,
    table_title=table_title,
    table_action=table_action,
    list_fields=("cards", *(f"cards_{player}" for player in tactics.PLAYER_IDS)),
    options_schema=OPTIONS_SCHEMA,
    action_schema=ACTION_SCHEMA,
    commands={
        "tactics-balance": (
            "play many games between every pair of factions and report win rates",
            tactics_balance.main,
        )
    },
    help_anchor=lambda view: "end-of-a-game" if view["over"] else "your-turn",
)


# --- Pages ----------------------------------------------------------------------------


@bp.get("/")
def index():
    """The game in short, its tools, and the form that starts a tracked match."""
    return render_template(
        "tactics/page.html", game=GAME, factions=tactics.load_factions(), seats=tactics.seating(4)
    )


@bp.get("/score")
def score_sheet():
    """The score sheet of a match played without a table: per game and player, captures and
    the corners, sides and centres held; the games' scores and the match totals."""
    players = 4 if request.args.get("players") == "4" else 2
    ids = tactics.PLAYER_IDS[:players]
    names = {player: request.args.get(f"name_{player}", "").strip()[: tactics.NAME_LENGTH] for player in ids}
    counts = {
        (game, player, key): request.args.get(f"g{game}_{player}_{key}", "").strip()
        for game in range(1, SCORE_GAMES + 1)
        for player in ids
        for key in SCORE_FIELDS
    }
    view = {
        "players": players,
        "ids": ids,
        "names": names,
        "counts": counts,
        "games": [],
        "totals": None,
        "errors": [],
        "size": tactics.BOARD_SIZE[players],
        "fields": SCORE_FIELDS,
        "limits": _cell_kinds(tactics.BOARD_SIZE[players]),
    }
    if any(counts.values()):
        _score_games(view)
    return render("tactics/score.html", "tactics/_score.html", game=GAME, view=view)


@bp.get("/help")
def help_page():
    """How to play, in Castellan's words, with each seat's orientation drawn."""
    examples = {seat: _example_card(seat) for seat in ("S", "N", "W", "E")}
    return render_template(
        "tactics/help.html",
        game=GAME,
        examples=examples,
        orientation=tactics.ORIENTATION,
        factions=tactics.load_factions(),
    )


@bp.post("/seen/<token>")
def seen_from(token: str):
    """Remember, for this phone only, which seat it shows a table's board from; then show the table."""
    seat = request.form.get("seat")
    if seat in TURN_DEGREES and store.token_shaped(token):
        key = _seen_key(token)
        chosen = {kept: value for kept, value in session.get("tactics_seen", {}).items() if kept != key}
        session["tactics_seen"] = dict(list(chosen.items())[-(REMEMBERED_SEATS - 1) :] + [(key, seat)])
    return redirect(url_for("tables.show", token=token), code=303)


@lru_cache(maxsize=1024)
def _seen_key(token: str) -> str:
    """What the session cookie keeps of a table's link: a digest, never the link itself (a referee's can play);
    worked out once per link (every move's fragment asks)."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


# --- What the table's template calls ---------------------------------------------------


@bp.app_template_global("tactics_seen")
def tactics_seen(token: str, view: dict) -> str:
    """The seat this phone shows the board from (S unless it chose another of this table's seats)."""
    seat = session.get("tactics_seen", {}).get(_seen_key(token), "S")
    return seat if seat in {player["seat"] for player in view["players"]} else "S"


@keyed_as_they_are
class Card(NamedTuple):
    """A card as the table's template draws it: its own key for ``once`` (companion/templating.py),
    made in one step where a card given as a dict is taken apart on every call."""

    id: str
    name: str
    edges: tuple  # top, right, bottom, left (whole numbers; the help page's example: letters)
    typed: bool  # laid as four typed numbers: named by them


@keyed_as_they_are
class Cell(NamedTuple):
    """A board cell as one seat sees it: the card on it (None when empty) with its owner's number
    (1 to 4), the seat that laid it, and how far it is turned clockwise on this screen; whether the
    last card was laid on it (marked), its card was just captured (freed), or it was the cell
    chosen in a refused play (picked)."""

    cell: str
    value: int
    card: Card | None
    number: int | None
    seat: str | None
    turn: int | None
    marked: bool = False
    freed: bool = False
    picked: bool = False


@keyed_as_they_are
class BoardRow(NamedTuple):
    """A row of the board's cells as the screen shows them, as one key."""

    cells: tuple  # Cells, left to right


@keyed_as_they_are
class Cards(NamedTuple):
    """A list of cards as one key (a hand, a player's unplayed cards)."""

    cards: tuple


@keyed_as_they_are
class Seats(NamedTuple):
    """The table's seats and their players' names, in turn order: the "Seen from" buttons."""

    pairs: tuple  # (seat, name) pairs


@keyed_as_they_are
class PlayerRow(NamedTuple):
    """A player's row in the players' table."""

    number: int
    name: str
    seat: str
    faction: str
    hand: int
    deck: int
    captured: int
    current: bool  # their turn


@keyed_as_they_are
class Sheet(NamedTuple):
    """The match's score sheet: the players' names, each game's (total, captured, position) per
    player, and the match totals."""

    names: tuple
    games: tuple  # (game, ((total, captured, position), ...)) pairs
    totals: tuple


@bp.app_template_global("tactics_table")
def tactics_table(view: dict, seen: str, picked: object = None) -> dict:
    """What the table's template draws, worked out once per rendering: each player's name as the
    page says it, number (1 to 4), entered hand and unplayed cards (``Cards``), the card last laid,
    the "Seen from" buttons' seats, the players' table's rows and the score sheet;
    the board's rows (``BoardRow``) as the seat ``seen`` sees it (``picked``: the cell chosen in a
    refused play), and who sits on each side of the screen."""
    players = view["players"]
    named = {player["id"]: _said_name(player["name"]) for player in players}
    ids = [player["id"] for player in players]
    return {
        "named": named,
        "by_id": dict(zip(ids, players, strict=True)),
        "seats": Seats(tuple((player["seat"], named[player["id"]]) for player in players)),
        "rows": [
            PlayerRow(
                number,
                named[player["id"]],
                player["seat"],
                player["faction"]["name"],
                player["hand_size"],
                player["deck"],
                player["captured"],
                player["id"] == view["turn"],
            )
            for number, player in enumerate(players, start=1)
        ],
        "sheet": Sheet(
            tuple(named[player] for player in ids),
            tuple(
                (
                    result["game"],
                    tuple(
                        (points["total"], points["captured"], points["position"])
                        for points in map(result["scores"].__getitem__, ids)
                    ),
                )
                for result in view["results"]
            ),
            tuple(view["totals"][player] for player in ids),
        )
        if view["results"]
        else None,
        "number": {player["id"]: number for number, player in enumerate(players, start=1)},
        "hand": {player["id"]: _cards(player["hand"]) for player in players},
        "unplayed": {player["id"]: _cards(player["unplayed"]) for player in players},
        "last_card": _card(view["last"]["card"]) if view["last"] else None,
        "board": tactics_board(view, seen, picked),
        "sides": tactics_sides(view, seen, named),
    }


@keyed_as_they_are
class HandEntry(NamedTuple):
    """One seat's hand as the referee (or that seat's own phone) enters it: the boxes of its unplayed
    cards, those ``ticked`` (its entered hand, or the boxes sent with a refused entry)."""

    player: str
    name: str
    own: bool  # the phone's own seat
    entered: int
    total: int  # cards held
    number: int
    cards: Cards
    ticked: tuple


@bp.app_template_global("tactics_hands")
def tactics_hands(view: dict, drawn: dict, refused: bool, refill: dict) -> list[tuple[bool, HandEntry]]:
    """The seats whose hand this phone may enter and that hold cards, each with whether it is shown
    open: the phone's own, the first of a fresh game's, the player to move while none of their cards
    is entered, and the one a refused form was about (apart from the entry: the turn moving on
    changes it, and the entry stays drawn)."""
    players = view["players"]
    fresh = not view["last"] and not any(player["hand"] for player in players)
    entries = []
    for player in players:
        seat = player["id"]
        if not (player["sees_hand"] and player["hand_size"]):
            continue
        hand = drawn["hand"][seat]
        ticked = tuple(card.id for card in hand.cards)
        if refused and refill.get("type") == "hand" and refill.get("player") == seat:
            sent = refill.get(f"cards_{seat}", refill.get("cards", []))
            ticked = (sent,) if isinstance(sent, str) else tuple(sent)
        opened = (
            seat == view["viewer"]
            or (fresh and not entries)
            or (player["not_entered"] == player["hand_size"] and seat == view["turn"])
            or (refused and refill.get("player") == seat)
        )
        entries.append(
            (
                bool(opened),
                HandEntry(
                    seat,
                    drawn["named"][seat],
                    seat == view["viewer"],
                    len(hand.cards),
                    player["hand_size"],
                    drawn["number"][seat],
                    drawn["unplayed"][seat],
                    ticked,
                ),
            )
        )
    return entries


@bp.app_template_global("tactics_others")
def tactics_others(hand: Cards, unplayed: Cards) -> Cards:
    """A player's unplayed cards not entered as their hand (the one drawn is among them)."""
    entered = {card.id for card in hand.cards}
    return Cards(tuple(card for card in unplayed.cards if card.id not in entered))


def tactics_board(view: dict, seen: str, picked: object = None) -> tuple[BoardRow, ...]:
    """The board's rows of cells as the seat ``seen`` sees it: its own side at the bottom, and
    every card turned as its owner laid it (``turn`` in degrees clockwise on the screen)."""
    by_cell = {cell["cell"]: cell for row in view["rows"] for cell in row}
    seats = {player["id"]: player["seat"] for player in view["players"]}
    last = view["last"]
    marked, freed = (last["cell"], last["captured"]) if last else (None, ())
    cells = []
    for name in _screen_cells(view["size"], seen):
        cell = by_cell[name]
        card = cell["card"]
        if card is None:
            made = _empty_cell(name, cell["value"])
        else:
            seat = seats[card["owner"]]
            made = Cell(
                name,
                cell["value"],
                _card(card),
                tactics.PLAYER_IDS.index(card["owner"]) + 1,
                seat,
                (TURN_DEGREES[seat] - TURN_DEGREES[seen]) % 360,
            )
        if name in (marked, picked) or name in freed:
            made = made._replace(marked=name == marked, freed=name in freed, picked=name == picked)
        cells.append(made)
    size = view["size"]
    return tuple(BoardRow(tuple(cells[start : start + size])) for start in range(0, len(cells), size))


@cache
def _empty_cell(name: str, value: int) -> Cell:
    return Cell(name, value, None, None, None, None)


@cache
def _screen_cells(size: int, seen: str) -> tuple[str, ...]:
    """The board's cells row by row as the screen shows them when seen from ``seen``."""
    right, down = _screen_axes(seen)
    return tuple(_board_cell(size, row, column, right, down) for row in range(size) for column in range(size))


def tactics_sides(view: dict, seen: str, named: dict[str, str]) -> dict[str, str]:
    """Who sits on each side of the screen (top, right, bottom, left) when seen from ``seen``
    (``named``: each player's name as the page says it)."""
    by_direction = {FACING[player["seat"]]: player for player in view["players"]}
    sides = {}
    for screen, facing in _screen_sides(seen):
        player = by_direction.get(facing)
        sides[screen] = f"{named[player['id']]} ({player['seat']})" if player else ""
    return sides


@cache
def _screen_sides(seen: str) -> tuple[tuple[str, str], ...]:
    """The sides of the screen (bottom, left, top, right) and the board's side each shows, seen from ``seen``."""
    sides, facing = [], FACING[seen]
    for screen in ("bottom", "left", "top", "right"):
        sides.append((screen, facing))
        facing = CLOCKWISE[facing]
    return tuple(sides)


# --- Lists joined from Python ------------------------------------------------------
# The fragment's lists (the board's rows and cells, a hand's cards, the hands to enter, the players'
# rows) are joined here from pieces kept by (language, what a piece draws), each drawn by its macro the
# first time: a Jinja loop calling a kept macro cost more than the pieces (a few microseconds a call,
# a hundred calls a move), a look-up here a fraction of one. A piece's key holds only the named
# tuples above, text, whole numbers and booleans (never a view's dict), and a word naming the macro
# (the macro itself is passed in, not part of the key). At most PIECES_KEPT, the least recently used
# forgotten first.
PIECES_KEPT = 8192
_PIECES = Bounded(PIECES_KEPT)


def _piece(key: tuple, draw, *args) -> str:
    """The HTML ``draw(*args)`` gives (a macro), kept by ``key`` (which names what it draws)."""
    text = _PIECES.get(key)
    if text is None:
        text = _PIECES.put(key, str(draw(*args)))
    return text


@bp.app_template_global("tactics_cells")
def tactics_cells(tcell, rows: tuple[BoardRow, ...], pick: bool) -> Markup:
    """The board's rows of cells (``BoardRow``), each cell drawn by ``tcell``: a move changes one or
    two rows, each row kept whole."""
    language = current_language()
    html = []
    for row in rows:
        key = ("row", language, row, pick)
        text = _PIECES.get(key)
        if text is None:
            text = _piece(
                key,
                "".join,
                [_piece(("cell", language, cell, pick), tcell, cell, pick) for cell in row.cells],
            )
        html.append(text)
    return Markup("".join(html))


@bp.app_template_global("tactics_card_buttons")
def tactics_card_buttons(card_button, cards: Cards, number: int) -> Markup:
    """A hand's cards (``Cards``) as the buttons that play them, each drawn by ``card_button``."""
    language = current_language()
    return Markup(
        "".join(
            [_piece(("button", language, card, number), card_button, card, number) for card in cards.cards]
        )
    )


@bp.app_template_global("tactics_held_cards")
def tactics_held_cards(card_face, cards: Cards, number: int) -> Markup:
    """A hand's cards as its own phone shows them held, each face drawn by ``card_face``."""
    language = current_language()
    return Markup(
        "".join(
            [
                f'<span class="card-button">{_piece(("face", language, card, number), card_face, card, number)}</span>'
                for card in cards.cards
            ]
        )
    )


def _tick_cards(tick_card, language: str, cards: Cards, number: int, field: str, ticked: tuple) -> str:
    """A seat's unplayed cards as boxes named ``field`` (``ticked``: the ids ticked), each drawn by ``tick_card``."""
    return "".join(
        [
            _piece(
                ("tick", language, card, number, field, card.id in ticked),
                tick_card,
                card,
                number,
                field,
                card.id in ticked,
            )
            for card in cards.cards
        ]
    )


@bp.app_template_global("tactics_entries")
def tactics_entries(entries: list[tuple[bool, HandEntry]], summary, hint, tick_card, save) -> Markup:
    """The hands to enter (``tactics_hands``), each in its details (open or not): its summary, hint, boxes
    and Save button, drawn by the macros given, and each entry put together once per language and entry."""
    language = current_language()
    html = []
    for opened, entry in entries:
        key = ("entry", language, entry)
        drawn = _PIECES.get(key)
        if drawn is None:
            ticks = _tick_cards(
                tick_card, language, entry.cards, entry.number, f"cards_{entry.player}", entry.ticked
            )
            drawn = _piece(
                key,
                str,
                f"{summary(entry.own, entry.name, entry.entered, entry.total)}\n"
                f'  <div class="stack">\n    {hint(entry.name, entry.total)}\n'
                f'    <div class="hand-cards tick-cards">{ticks}</div>\n'
                f"    {save(entry.player, entry.name)}\n  </div>",
            )
        html.append(
            f'      <details class="enter-hand" id="hand-{escape(entry.player)}"{" open" if opened else ""}>\n'
            f"  {drawn}\n</details>\n"
        )
    return Markup("".join(html))


@bp.app_template_global("tactics_player_rows")
def tactics_player_rows(player_row, rows: list[PlayerRow]) -> Markup:
    """The players' table's rows (``PlayerRow``), each drawn by ``player_row``: a move changes two at most."""
    language = current_language()
    return Markup("".join([_piece(("player", language, row), player_row, row) for row in rows]))


# --- JSON API -------------------------------------------------------------------------


# --- Private helpers ------------------------------------------------------------------


def _faction_choice(form: dict, player: str) -> object:
    """A shipped faction's id, or the player's own faction typed as JSON (checked by the rules)."""
    own = form.get(f"own_{player}")
    if isinstance(own, str) and own.strip():
        if len(own) > MAX_FACTION_TEXT:
            raise RuleError(
                "bad_faction", N_("That faction is too long to be a deck of 12 to 18 cards."), player
            )
        try:
            chosen = json.loads(own)
        except (ValueError, RecursionError):
            chosen = None
        if not isinstance(chosen, dict):
            raise RuleError(
                "bad_faction",
                N_("Your own faction must be written as a JSON object, like the example."),
                f"factions.{player}",
            )
        return chosen
    return form.get(f"faction_{player}")


def _edge_number(text: object, edge: str) -> int:
    """One typed edge number, 1 to 9, or a RuleError in the player's words."""
    text = str(text or "").strip()
    if len(text) == 1 and text.isdecimal() and int(text) > 0:  # not isdigit: int() cannot read "²"
        return int(text)
    if not text:
        raise RuleError("bad_edges", EDGE_NOTHING[edge], edge)
    raise RuleError("bad_edges", EDGE_NOT[edge], edge, text=text[:8])


EDGE_NOTHING = {
    "top": N_("The top number must be 1 to 9, not nothing."),
    "right": N_("The right number must be 1 to 9, not nothing."),
    "bottom": N_("The bottom number must be 1 to 9, not nothing."),
    "left": N_("The left number must be 1 to 9, not nothing."),
}
EDGE_NOT = {
    "top": N_("The top number must be 1 to 9, not “%(text)s”."),
    "right": N_("The right number must be 1 to 9, not “%(text)s”."),
    "bottom": N_("The bottom number must be 1 to 9, not “%(text)s”."),
    "left": N_("The left number must be 1 to 9, not “%(text)s”."),
}


def _screen_axes(seen: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Board steps (column, row) for one cell to the right and one cell down on the screen."""
    up = FACING[seen]
    right = tactics.STEP[CLOCKWISE[up]]
    down = tactics.STEP[tactics.OPPOSITE[up]]
    return right, down


def _board_cell(size: int, screen_row: int, screen_column: int, right, down) -> str:
    """The board cell at a screen position, the screen turned by ``right`` and ``down``."""
    column = screen_column * right[0] + screen_row * down[0]
    row = screen_column * right[1] + screen_row * down[1]
    column += size - 1 if min(right[0], down[0]) < 0 else 0
    row += size - 1 if min(right[1], down[1]) < 0 else 0
    return f"{chr(ord('A') + column)}{row + 1}"


def _cards(cards: list[dict]) -> Cards:
    """A list of the state's cards (a hand, the cards unplayed) as ``Cards``."""
    return Cards(tuple(map(_card, cards)))


def _said_name(name: str) -> str:
    """``say_name(name)``, kept per language and name ("Player 2" in French is "Joueur 2"): a table's
    names are said on every move."""
    return _said_name_in(current_language(), name)


@lru_cache(maxsize=8192)
def _said_name_in(_language: str, name: str) -> str:
    return say_name(name)  # in this request's catalog, whose language is ``_language``


def _card(card: dict) -> Card:
    """A card of the state (in a hand, or laid: its id under ``card``) as a ``Card``."""
    return Card(
        card["id"] if "id" in card else card["card"],
        card["name"],
        tuple(card["edges"]),
        bool(card.get("typed")),
    )


def _example_card(seat: str) -> tuple[BoardRow]:
    """The help page's picture of a seat: one card laid from ``seat``, seen from S (north up),
    its edges marked T, R, B, L (top, right, bottom, left: the help page says which is which)."""
    # Translators: four letters, one a word, for a card's top, right, bottom and left.
    letters = gettext("T R B L").split()
    card = Card("", "", tuple(letters) if len(letters) == 4 else ("T", "R", "B", "L"), False)
    return (BoardRow((Cell("", 3, card, 1, None, TURN_DEGREES[seat]),)),)


def _cell_kinds(size: int) -> dict[str, int]:
    """How many corners, sides and centres a board has."""
    kinds = dict.fromkeys(CELL_KINDS, 0)
    for cell in tactics.cells(size):
        kinds[_kind(tactics.cell_value(cell, size))] += 1
    return kinds


def _kind(value: int) -> str:
    return next(kind for kind, worth in CELL_KINDS.items() if worth == value)


def _score_games(view: dict) -> None:
    """Score each filled game of the sheet with the rules' scorer; add the match totals."""
    totals = dict.fromkeys(view["ids"], 0)
    for game in range(1, SCORE_GAMES + 1):
        entered = {key: view["counts"][key] for key in view["counts"] if key[0] == game}
        if not any(entered.values()):
            continue
        try:
            result = _score_game(view, game)
        except RuleError as refused:
            view["errors"].append(
                Message(N_("Game %(game)s: %(reason)s"), game=game, reason=refused.sentence)
            )
            continue
        view["games"].append({"game": game, **result})
        for player in view["ids"]:
            totals[player] += result["scores"][player]["total"]
    if view["games"]:
        view["totals"] = {"scores": totals, "winner": tactics.winner(totals)}


def _score_game(view: dict, game: int) -> dict:
    """One game's counts as a board the rules can score (each player on as many cells of each
    kind as they hold), then ``tactics.score``."""
    size, ids = view["size"], view["ids"]
    free = {
        kind: [cell for cell in tactics.cells(size) if _kind(tactics.cell_value(cell, size)) == kind]
        for kind in CELL_KINDS
    }
    board, captured = {}, {}
    for player in ids:
        name = view["names"][player] or f"Player {ids.index(player) + 1}"
        numbers = {
            key: _count(
                view["counts"][(game, player, key)], f"{name}'s {key}", _NOT_A_COUNT[key], seat_name(name)
            )
            for key in SCORE_FIELDS
        }
        captured[player] = numbers["captured"]
        for kind in CELL_KINDS:
            if numbers[kind] > len(free[kind]):
                raise RuleError(
                    "too_many_cells", _TOO_MANY_CELLS[kind], kind, size=size, count=view["limits"][kind]
                )
            for _ in range(numbers[kind]):
                board[free[kind].pop()] = {"owner": player, "edges": [1, 1, 1, 1]}
    most = (len(ids) - 1) * tactics.MAX_CARDS
    if max(captured.values()) > most:
        raise RuleError(
            "bad_captured",
            NP_(
                "Nobody can capture more than %(count)s card in one game.",
                "Nobody can capture more than %(count)s cards in one game.",
            ),
            "captured",
            count=most,
        )
    return tactics.score(size, board, captured)


# A score sheet's count that is not a whole number, and more cells of a kind than the board has.
_NOT_A_COUNT = {
    "captured": N_("%(name)s's captured must be a whole number, and “%(text)s” is not one."),
    "corners": N_("%(name)s's corners must be a whole number, and “%(text)s” is not one."),
    "sides": N_("%(name)s's sides must be a whole number, and “%(text)s” is not one."),
    "centres": N_("%(name)s's centres must be a whole number, and “%(text)s” is not one."),
}
_TOO_MANY_CELLS = {
    "corners": NP_(
        "The %(size)sx%(size)s board has only %(count)s corner, and more are counted.",
        "The %(size)sx%(size)s board has only %(count)s corners, and more are counted.",
    ),
    "sides": NP_(
        "The %(size)sx%(size)s board has only %(count)s side, and more are counted.",
        "The %(size)sx%(size)s board has only %(count)s sides, and more are counted.",
    ),
    "centres": NP_(
        "The %(size)sx%(size)s board has only %(count)s centre, and more are counted.",
        "The %(size)sx%(size)s board has only %(count)s centres, and more are counted.",
    ),
}


def _count(text: str, field: str, sentence: str, name) -> int:
    """A whole number of cards or cells typed on the score sheet (empty counts as 0)."""
    text = text or "0"
    if text.isdecimal() and len(text) <= 3:  # not isdigit: "²" is a digit int() cannot read
        return int(text)
    raise RuleError("bad_number", sentence, field, name=name, text=text[:12])
