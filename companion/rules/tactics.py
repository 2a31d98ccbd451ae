"""Square Tactics: two players on a 3x3 grid (or four on a 4x4) lay cards with a number on
each edge; a played card processes its edges top, right, bottom, left and captures the
lower facing cards of opponents until one is higher. See shared/rules/tactics.md.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache, lru_cache
from importlib import resources

from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message

EDGES = ("top", "right", "bottom", "left")
EDGE_NUMBER_SENTENCES = (
    N_("The top number must be a whole number from 1 to 9."),
    N_("The right number must be a whole number from 1 to 9."),
    N_("The bottom number must be a whole number from 1 to 9."),
    N_("The left number must be a whole number from 1 to 9."),
)
STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
# Where each edge of a card points on the board, for the seat of its owner.
ORIENTATION = {
    "S": ("north", "east", "south", "west"),
    "N": ("south", "west", "north", "east"),
    "W": ("east", "south", "west", "north"),
    "E": ("west", "north", "east", "south"),
}
SEATING = {2: ("S", "N"), 4: ("S", "W", "N", "E")}  # turn order, clockwise
BOARD_SIZE = {2: 3, 4: 4}
PLAYER_IDS = ("p1", "p2", "p3", "p4")
HAND_SIZE = 3
GAMES_IN_MATCH = 3
MIN_CARDS, MAX_CARDS = 12, 18
MIN_EDGE, MAX_EDGE = 1, 9
NAME_LENGTH = 40
MAX_CAPTURED = 1000
# ``apply`` shares with its input what a move leaves unchanged: the store writes only the new parts
# (companion.jsontext).
SHARED_STATES = True
EMBLEMS = ("tower", "shield", "crown", "key", "banner", "sword", "dragon", "gate", "bridge", "horn")
SECRET_ACTIONS = True  # a "hand" action names the cards a player holds
ORDER_FREE_ACTIONS = ("hand",)  # a hand is checked against the table as it is, whatever was seen

_CELL = re.compile(r"^([A-Za-z])([1-9])$")
_FACTION_ID = re.compile(r"^[a-z][a-z0-9-]{0,31}$")


# --- the board ---------------------------------------------------------------------------


def cells(size: int) -> list[str]:
    """Every cell of a board, sorted column then row (``A1 A2 ... B1``)."""
    return [_name(column, row) for column in range(size) for row in range(size)]


def cell_key(cell: str) -> tuple[str, int]:
    """Sort key of a cell name: column, then row."""
    return cell[0], int(cell[1:])


def parse_cell(text: object, size: int, field: str = "cell") -> str:
    """The canonical name of a cell of a ``size`` board; refuses junk and cells off the board."""
    match = _CELL.match(text) if isinstance(text, str) else None
    if match is None:
        raise RuleError("bad_cell", N_("A cell is a column letter and a row number, like B2."), field)
    column, row = ord(match[1].upper()) - ord("A"), int(match[2]) - 1
    if column >= size or row >= size:
        last = _name(size - 1, size - 1)
        raise RuleError(
            "off_board",
            N_("%(cell)s is off the board: cells run from A1 to %(last)s."),
            field,
            cell=text.upper(),
            last=last,
        )
    return _name(column, row)


def neighbour(cell: str, direction: str, size: int) -> str | None:
    """The cell next to ``cell`` toward ``direction`` (north, east, south, west), or None."""
    return _neighbours(size)[cell][direction]


def edge_toward(seat: str, direction: str) -> int:
    """Index (0 top .. 3 left) of the edge that a card laid from ``seat`` points to ``direction``."""
    return ORIENTATION[seat].index(direction)


def cell_value(cell: str, size: int) -> int:
    """Points for holding a cell at the end: corner 1, side 2, centre (any inner cell) 3."""
    column, row = ord(cell[0]) - ord("A"), int(cell[1:]) - 1
    borders = sum(index in (0, size - 1) for index in (column, row))
    return 3 - borders


# --- playing a card ----------------------------------------------------------------------


def process(board: dict, seats: dict, size: int, cell: str, card: dict) -> list[dict]:
    """The comparisons a card played on ``cell`` makes: only edges that met an opponent's card.

    Edges go top, right, bottom, left as the owner sees them; a lower edge stops the turn.
    The board is not changed.
    """
    player = card["owner"]
    steps = []
    for index, direction in enumerate(ORIENTATION[seats[player]]):
        target = neighbour(cell, direction, size)
        facing = board.get(target) if target else None
        if facing is None or facing["owner"] == player:
            continue
        mine = card["edges"][index]
        theirs = facing["edges"][edge_toward(seats[facing["owner"]], OPPOSITE[direction])]
        result = "capture" if mine > theirs else "equal" if mine == theirs else "stop"
        steps.append({"edge": EDGES[index], "cell": target, "mine": mine, "theirs": theirs, "result": result})
        if result == "stop":
            break
    return steps


def play(board: dict, seats: dict, size: int, cell: str, card: dict) -> dict:
    """Lay ``card`` (``{"owner", "edges", ...}``) on an empty ``cell`` and process it.

    Returns ``{"steps", "captured", "board"}``: captured cells sorted, and a new board
    where they are empty and the card lies on ``cell``. The input board is not changed.
    """
    if cell in board:
        raise RuleError(
            "occupied", N_("%(cell)s already holds a card: play on an empty cell."), "cell", cell=cell
        )
    steps = process(board, seats, size, cell, card)
    captured = sorted((step["cell"] for step in steps if step["result"] == "capture"), key=cell_key)
    after = {name: held for name, held in board.items() if name not in captured}
    after[cell] = card
    return {"steps": steps, "captured": captured, "board": _sorted_board(after)}


def score(size: int, board: dict, captured: dict[str, int]) -> dict:
    """Each player's points: 1 per captured card plus the value of every cell they hold.

    Returns ``{"scores": {player: {"total", "captured", "position"}}, "winner"}``; the
    winner is None on equal best totals.
    """
    players = sorted(set(captured) | {held["owner"] for held in board.values()})
    position = dict.fromkeys(players, 0)
    for cell, held in board.items():
        position[held["owner"]] += cell_value(cell, size)
    scores = {}
    for player in players:
        taken = captured.get(player, 0)
        scores[player] = {"total": taken + position[player], "captured": taken, "position": position[player]}
    return {"scores": scores, "winner": winner({p: s["total"] for p, s in scores.items()})}


def winner(totals: dict[str, int]) -> str | None:
    """The one player with the most points, or None when the best total is shared."""
    if not totals:
        return None
    best = max(totals.values())
    leaders = [player for player, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else None


def next_starter(players: list[str], starter: str, previous_winner: str | None) -> str:
    """Who starts the next game of a match: the last winner; after a draw, the player after
    the last starter in turn order."""
    if previous_winner is not None:
        return previous_winner
    return players[(players.index(starter) + 1) % len(players)]


def first_starter(players: list[str], seed: int) -> str:
    """The first game's starter, drawn at random from a Random seeded by the table's seed."""
    return random.Random(f"{seed}/starter").choice(players)


def seating(players: int) -> dict[str, str]:
    """Player ids and their seats for 2 (S, N) or 4 (S, W, N, E) players; refuses three."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEATING:
        raise RuleError("bad_players", N_("Square Tactics is played by 2 or 4 players."), "players")
    return dict(zip(PLAYER_IDS, SEATING[players], strict=False))


# --- factions ----------------------------------------------------------------------------


def load_factions() -> dict[str, dict]:
    """The shipped factions, by id, each validated (a fresh copy on every call)."""
    return json.loads(_factions_json())


def faction(faction_id: str) -> dict:
    """One shipped faction by id."""
    factions = load_factions()
    if not isinstance(faction_id, str) or faction_id not in factions:
        known = ", ".join(factions)
        raise RuleError(
            "unknown_faction",
            N_("There is no faction %(faction)s; choose one of %(known)s."),
            faction=repr(faction_id),
            known=known,
        )
    return factions[faction_id]


def validate_faction(data: object, field: str = "faction") -> dict:
    """A user-defined faction checked and made canonical.

    ``{"id"?, "name", "description"?, "emblem"?, "cards": [{"name", "edges": [t, r, b, l]}]}``
    with 12 to 18 cards, four numbers 1-9 each, and card names unique in the faction.
    """
    data = _mapping(data, field)
    faction_id = data.get("id", "custom")
    if not isinstance(faction_id, str) or not _FACTION_ID.match(faction_id):
        raise RuleError(
            "bad_faction", N_("A faction id is a short lower-case word, like 'ramparts'."), f"{field}.id"
        )
    emblem = data.get("emblem", "banner")
    if emblem not in EMBLEMS:
        raise RuleError(
            "bad_faction",
            N_("The emblem must be one of %(emblems)s."),
            f"{field}.emblem",
            emblems=", ".join(EMBLEMS),
        )
    return {
        "id": faction_id,
        "name": _text(
            data.get("name"), f"{field}.name", N_("Give a faction a name of 1 to %(count)s characters.")
        ),
        "description": _text(
            data.get("description", ""),
            f"{field}.description",
            N_("Give a faction a description of at most %(count)s characters."),
            allow_empty=True,
            limit=300,
        ),
        "emblem": emblem,
        "cards": _faction_cards(data.get("cards"), f"{field}.cards"),
    }


def validate_edges(value: object, field: str = "edges") -> list[int]:
    """Four whole numbers 1-9 (top, right, bottom, left); booleans are not numbers."""
    if not isinstance(value, list) or len(value) != 4:
        raise RuleError("bad_edges", N_("A card has four numbers: top, right, bottom, left."), field)
    for index, number in enumerate(value):
        if isinstance(number, bool) or not isinstance(number, int) or not MIN_EDGE <= number <= MAX_EDGE:
            raise RuleError("bad_edges", EDGE_NUMBER_SENTENCES[index], f"{field}[{index}]")
    return list(value)


# --- the JSON API ------------------------------------------------------------------------


def api_play(body: object) -> dict:
    """``POST /api/v1/tactics/play``: the steps, the captured cells and the board after a play.

    Optional fields beyond the contract: ``"turn"`` (whose turn it is; another player's
    play is refused) and ``"play.hand"`` (the cards the player holds, as lists of four
    numbers; a card not among them is refused).
    """
    body = _mapping(body, "")
    size = _size(body.get("size"), "size")
    seats = _seats(body.get("seats"), size, "seats")
    board = _board(body.get("board"), size, seats, "board")
    move = _mapping(body.get("play"), "play")
    player = _player(move.get("player"), seats, "play.player")
    if "turn" in body and _player(body["turn"], seats, "turn") != player:
        raise RuleError(
            "out_of_turn",
            N_("It is %(turn)s's turn, not %(player)s's."),
            "play.player",
            turn=body["turn"],
            player=player,
        )
    cell = parse_cell(move.get("cell"), size, "play.cell")
    edges = validate_edges(move.get("edges"), "play.edges")
    if "hand" in move:
        _check_hand(move["hand"], edges, player)
    try:
        result = play(board, seats, size, cell, {"owner": player, "edges": edges})
    except RuleError as error:
        raise error.at("play.cell") from None
    return result


def api_score(body: object) -> dict:
    """``POST /api/v1/tactics/score``: each player's total, captured and position points, and the winner."""
    body = _mapping(body, "")
    size = _size(body.get("size"), "size")
    captured = _captured(body.get("captured", {}), "captured")
    board = _board(body.get("board"), size, None, "board")
    players = set(captured) | {held["owner"] for held in board.values()}
    if len(players) > _players_for(size):
        raise RuleError(
            "bad_players",
            NP_(
                "A %(size)sx%(size)s board has at most %(count)s player.",
                "A %(size)sx%(size)s board has at most %(count)s players.",
            ),
            "board",
            size=size,
            count=_players_for(size),
        )
    return score(size, board, captured)


# --- the table protocol ------------------------------------------------------------------


def seats(options: dict) -> list[tuple[str, str]]:
    """One private link per player: it shows that player's hand, enters it, and plays their turns."""
    players = options.get("players") if isinstance(options, dict) else None
    names = (
        options.get("names") if isinstance(options, dict) and isinstance(options.get("names"), dict) else {}
    )
    return [
        (player, names.get(player) or f"Player {number}")
        for number, player in enumerate(PLAYER_IDS[: players if players in SEATING else 0], start=1)
    ]


def new_table(options: dict, seed: int) -> dict:
    """The first game of a match: every card unplayed, no hand entered yet, a random starter.

    Options: ``{"players": 2 | 4, "factions": {"p1": "<faction id>" | {faction}, ...},
    "names": {"p1": "Ola", ...} (optional), "seed": int (optional, overrides)}``.
    """
    options = _mapping(options, "")
    seed = options.get("seed", seed)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RuleError("bad_options", N_("The seed must be a whole number."), "seed")
    places = seating(options.get("players"))
    players = list(places)
    state = {
        "size": BOARD_SIZE[len(players)],
        "players": players,
        "seats": places,
        "names": _names(options.get("names", {}), players),
        "factions": {},
        "cards": {},
        "seed": seed,
        "game": 1,
        "results": [],
        "totals": dict.fromkeys(players, 0),
        "match_over": False,
        "match_winner": None,
    }
    chosen = _mapping(options.get("factions"), "factions")
    for player in players:
        _seat_faction(state, player, chosen.get(player), f"factions.{player}")
    return _deal(state, first_starter(players, seed))


def rematch_options(options: dict, state: dict) -> dict:
    """The options of a new match: the same seats, names and factions; its first game's starter is
    drawn at random again, as the rules page says (a fixed seed in the options is dropped)."""
    return {key: value for key, value in options.items() if key != "seed"}


def first_player(state: dict) -> int | None:
    """The place, in ``result``'s list, of the player who started the match's first game (drawn)."""
    starter = state["results"][0]["starter"] if state["results"] else state["starter"]
    return state["players"].index(starter)


def to_move(state: dict) -> tuple[str, str] | None:
    """The player to move, ``(seat key, name)`` as the table clock keeps them; None when nobody is
    (the referee's turn, the game over)."""
    return None if state["over"] else (state["turn"], state["names"][state["turn"]])


def round_scores(details: dict) -> tuple[str, list[list[int]]]:
    """A finished match's points in each of its three games (``details`` is its play's
    ``play_details``), for the history's chart: ``("game", [[points per player] per game])``."""
    return "game", [list(game["scores"]) for game in details.get("games", [])]


def apply(state: dict, action: dict, actor: str) -> dict:
    """A new state after ``{"type": "play", "cell", "card" | "edges", "player"?}``,
    ``{"type": "hand", "player", "cards": [card id or name, ...]}`` (the cards that player
    really holds) or ``{"type": "next_game"}``. The referee does all; a player's own link
    plays that player's turns and enters that player's hand. The input state is never changed."""
    action = _mapping(action, "")
    kind = action.get("type")
    if kind == "play":
        if state["over"]:
            raise RuleError("game_over", N_("This game is over: start the next game of the match."))
        _check_actor(state, actor, state["turn"], "play")
        return _apply_play(_copy(state), action)
    if kind == "hand":
        player = action.get("player")
        if not isinstance(player, str) or player not in state["players"]:
            raise RuleError(
                "unknown_player",
                N_("The player must be one of %(players)s."),
                "player",
                players=", ".join(state["players"]),
            )
        _check_actor(state, actor, player, "hand")
        return _apply_hand(_copy(state), player, action.get("cards"))
    if kind == "next_game":
        _check_actor(state, actor, None, "next_game")
        return _apply_next_game(_copy(state))
    raise RuleError("unknown_action", N_("An action is a 'play', a 'hand' or a 'next_game'."), "type")


def describe(state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
    """The action in words for the table's history, e.g. ``Ola plays Archer [5 3 7 2] on B3, captures B2.``
    ``after`` is the state ``apply`` made of these, when the caller has it (the store does)."""
    if after is None:
        after = apply(state, action, actor)
    if action.get("type") == "next_game":
        return Message(
            N_("Game %(game)s begins; %(starter)s starts."),
            game=after["game"],
            starter=after["names"][after["starter"]],
        )
    if action.get("type") == "hand":
        player = action["player"]
        return Message(
            N_("%(player)s's hand was entered (cards known: %(known)s of %(total)s)."),
            player=after["names"][player],
            known=len(after["hands"][player]),
            total=_hand_size(after, player),
        )
    last = after["last"]
    card = last["card"]
    name = (
        Message(N_("a card")) if card.get("typed") else card["name"]
    )  # a typed card is named by its numbers alone
    params = {
        "player": after["names"][last["player"]],
        "card": name,
        "numbers": _numbers(card["edges"]),
        "cell": last["cell"],
        "captured": ", ".join(last["captured"]),
    }
    stopped = last["steps"] and last["steps"][-1]["result"] == "stop"
    if stopped:
        params["stop"] = last["steps"][-1]["cell"]
    if last["captured"] and stopped:
        return Message(
            N_(
                "%(player)s plays %(card)s %(numbers)s on %(cell)s, captures %(captured)s, stopped by %(stop)s."
            ),
            **params,
        )
    if last["captured"]:
        return Message(
            N_("%(player)s plays %(card)s %(numbers)s on %(cell)s, captures %(captured)s."), **params
        )
    del params["captured"]
    if stopped:
        return Message(
            N_("%(player)s plays %(card)s %(numbers)s on %(cell)s, stopped by %(stop)s."), **params
        )
    return Message(N_("%(player)s plays %(card)s %(numbers)s on %(cell)s."), **params)


def view(state: dict, viewer: str) -> dict:
    """The table as ``viewer`` may see it: the board by rows, each player's hand size, deck,
    captures and unplayed cards, whose turn, the last play, the game's and the match's score.
    The cards entered as a player's hand are shown to the referee and to that player only."""
    return {
        "size": state["size"],
        "game": state["game"],
        "games_in_match": GAMES_IN_MATCH,
        "rows": _rows(state),
        "empty_cells": [cell for cell in _cells(state["size"]) if cell not in state["board"]],
        "players": [
            _player_view(state, player, viewer in ("referee", player)) for player in state["players"]
        ],
        "turn": None if state["over"] else state["turn"],
        "starter": state["starter"],
        "last": state["last"],
        "over": state["over"],
        "result": state["result"],
        "results": state["results"],
        "totals": state["totals"],
        "match_over": state["match_over"],
        "match_winner": state["match_winner"],
        "can_act": viewer == "referee" or viewer in state["players"],
        "can_play": not state["over"] and viewer in ("referee", state["turn"]),
        "viewer": viewer,
    }


def result(state: dict, finished: bool) -> dict | None:
    """Each player's points over the match once it is over, else None (``finished``: the referee
    closed the table early, which scores nothing)."""
    if not state["match_over"]:
        return None
    return {
        "players": [
            {
                "name": state["names"][player],
                "score": state["totals"][player],
                "winner": state["match_winner"] == player,
                "team": None,
            }
            for player in state["players"]
        ]
    }


def names(state: dict) -> list[str]:
    """The names typed at the table's start ("Player 2" for an unnamed player is not a name)."""
    return [
        state["names"][player]
        for number, player in enumerate(state["players"], start=1)
        if state["names"][player] != f"Player {number}"
    ]


def play_details(state: dict) -> dict:
    """What the history keeps of a finished match: each of its games, who started it and each
    player's points (players by their place in the result's list)."""
    if not state["match_over"]:
        return {}
    players = state["players"]
    return {
        "games": [
            {
                "starter": players.index(game["starter"]) if game.get("starter") in players else None,
                "scores": [game["scores"][player]["total"] for player in players],
            }
            for game in state["results"]
        ]
    }


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A random legal action: sometimes a player's hand entered (by the referee or that player),
    else a card the player to move may play (from the entered hand, or any unplayed card while
    the hand holds cards not entered; sometimes typed numbers) on a random empty cell; then
    the next game."""
    if state["over"]:
        return None if state["match_over"] else ("referee", {"type": "next_game"})
    if rng.random() < 0.15:
        player = rng.choice(state["players"])
        cards = rng.sample(state["unplayed"][player], rng.randint(0, _hand_size(state, player)))
        return rng.choice(("referee", player)), {"type": "hand", "player": player, "cards": cards}
    player = state["turn"]
    empty = [cell for cell in cells(state["size"]) if cell not in state["board"]]
    action = {"type": "play", "cell": rng.choice(empty)}
    playable = state["unplayed"][player] if state["hidden"][player] else state["hands"][player]
    if rng.random() < 0.1 and state["hidden"][player]:
        action["edges"] = [rng.randint(MIN_EDGE, MAX_EDGE) for _ in EDGES]
    else:
        action["card"] = rng.choice(playable)
    if rng.random() < 0.5:
        action["player"] = player
    return rng.choice(("referee", player)), action


# --- private helpers ---------------------------------------------------------------------


def _name(column: int, row: int) -> str:
    return f"{chr(ord('A') + column)}{row + 1}"


@cache
def _neighbours(size: int) -> dict[str, dict[str, str | None]]:
    table = {}
    for column in range(size):
        for row in range(size):
            around = {}
            for direction, (dx, dy) in STEP.items():
                x, y = column + dx, row + dy
                around[direction] = _name(x, y) if 0 <= x < size and 0 <= y < size else None
            table[_name(column, row)] = around
    return table


def _sorted_board(board: dict) -> dict:
    return {cell: board[cell] for cell in sorted(board, key=cell_key)}


def _players_for(size: int) -> int:
    return {BOARD_SIZE[count]: count for count in BOARD_SIZE}[size]


def _numbers(edges: list[int]) -> str:
    return "[" + " ".join(str(number) for number in edges) + "]"


@lru_cache(maxsize=1)
def _factions_json() -> str:
    folder = resources.files("companion.rules") / "factions"
    factions = {}
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".json"):
            data = validate_faction(json.loads(entry.read_text(encoding="utf-8")), entry.name)
            factions[data["id"]] = data
    return json.dumps(factions)


def _faction_cards(value: object, field: str) -> list[dict]:
    if not isinstance(value, list) or not MIN_CARDS <= len(value) <= MAX_CARDS:
        raise RuleError(
            "bad_faction",
            N_("A faction has %(least)s to %(most)s cards."),
            field,
            least=MIN_CARDS,
            most=MAX_CARDS,
        )
    cards = []
    for index, entry in enumerate(value):
        entry = _mapping(entry, f"{field}[{index}]")
        name = _text(
            entry.get("name"),
            f"{field}[{index}].name",
            N_("Give a card a name of 1 to %(count)s characters."),
        )
        cards.append({"name": name, "edges": validate_edges(entry.get("edges"), f"{field}[{index}].edges")})
    names = [card["name"].casefold() for card in cards]
    if len(set(names)) != len(names):
        raise RuleError(
            "bad_faction", N_("Two cards of the faction have the same name; tell them apart."), field
        )
    return cards


def _mapping(value: object, field: str) -> dict:
    if not isinstance(value, dict):
        if not field:
            raise RuleError("bad_request", N_("The body must be a JSON object."))
        raise RuleError("bad_request", N_("'%(name)s' must be a JSON object."), field, name=field)
    return value


def _text(
    value: object, field: str, sentence: str, allow_empty: bool = False, limit: int = NAME_LENGTH, **params
) -> str:
    if not isinstance(value, str) or (not value.strip() and not allow_empty) or len(value) > limit:
        raise RuleError("bad_name", sentence, field, count=limit, **params)
    return value.strip()


def _size(value: object, field: str) -> int:
    # 3.0 == 3 in Python, but a float size would break every board function: refuse it.
    if isinstance(value, bool) or not isinstance(value, int) or value not in (3, 4):
        raise RuleError("bad_size", N_("The board is 3 (two players) or 4 (four players) cells wide."), field)
    return value


def _seats(value: object, size: int, field: str) -> dict[str, str]:
    value = _mapping(value, field)
    expected = SEATING[_players_for(size)]
    for player, seat in value.items():
        if not isinstance(seat, str) or seat not in expected:
            if not isinstance(seat, str):
                raise RuleError(
                    "bad_seat",
                    N_("That seat is not a seat of a %(size)sx%(size)s board: use %(seats)s."),
                    f"{field}.{player}",
                    size=size,
                    seats=" ".join(expected),
                )
            raise RuleError(
                "bad_seat",
                N_("“%(seat)s” is not a seat of a %(size)sx%(size)s board: use %(seats)s."),
                f"{field}.{player}",
                seat=seat[:12],
                size=size,
                seats=" ".join(expected),
            )
        _text(player, f"{field}", N_("Give each player a name of 1 to %(count)s characters."))
    if len(value) == 3:
        raise RuleError("bad_players", N_("Square Tactics is played by 2 or 4 players, not 3."), field)
    if sorted(value.values()) != sorted(expected):
        raise RuleError(
            "bad_players",
            N_("A %(size)sx%(size)s board seats one player on each of %(seats)s."),
            field,
            size=size,
            seats=" ".join(expected),
        )
    return dict(value)


def _player(value: object, seats: dict, field: str) -> str:
    if not isinstance(value, str) or value not in seats:
        raise RuleError(
            "unknown_player", N_("The player must be one of %(players)s."), field, players=", ".join(seats)
        )
    return value


def _board(value: object, size: int, seats: dict | None, field: str) -> dict:
    value = _mapping(value, field)
    board = {}
    for name, held in value.items():
        cell = parse_cell(name, size, f"{field}.{name}")
        if cell in board:
            raise RuleError(
                "occupied", N_("%(cell)s is given twice on the board."), f"{field}.{name}", cell=cell
            )
        held = _mapping(held, f"{field}.{name}")
        owner = held.get("owner")
        if seats is not None:
            owner = _player(owner, seats, f"{field}.{name}.owner")
        else:
            owner = _text(
                owner, f"{field}.{name}.owner", N_("Give the owner a name of 1 to %(count)s characters.")
            )
        board[cell] = {"owner": owner, "edges": validate_edges(held.get("edges"), f"{field}.{name}.edges")}
    return _sorted_board(board)


def _captured(value: object, field: str) -> dict[str, int]:
    value = _mapping(value, field)
    for player, count in value.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_CAPTURED:
            raise RuleError(
                "bad_captured",
                N_("Captured cards are counted with a whole number, 0 or more."),
                f"{field}.{player}",
            )
        _text(player, field, N_("Give each player a name of 1 to %(count)s characters."))
    return dict(value)


def _check_hand(value: object, edges: list[int], player: str) -> None:
    if not isinstance(value, list):
        raise RuleError("bad_request", N_("play.hand must be a list of cards of four numbers."), "play.hand")
    hand = [validate_edges(card, f"play.hand[{index}]") for index, card in enumerate(value)]
    if edges not in hand:
        raise RuleError(
            "not_in_hand",
            N_("%(player)s holds no card %(numbers)s."),
            "play.edges",
            player=player,
            numbers=_numbers(edges),
        )


def _names(value: object, players: list[str]) -> dict[str, str]:
    value = _mapping(value, "names")
    names = {}
    for number, player in enumerate(players, start=1):
        given = value.get(player)
        names[player] = (
            _text(
                given,
                f"names.{player}",
                N_("Give %(player)s a name of 1 to %(count)s characters."),
                player=player,
            )
            if given not in (None, "")
            else f"Player {number}"
        )
    return names


def _seat_faction(state: dict, player: str, choice: object, field: str) -> None:
    if isinstance(choice, str):
        try:
            chosen = faction(choice)
        except RuleError as error:
            raise error.at(field) from None
    elif isinstance(choice, dict):
        chosen = validate_faction(choice, field)
    else:
        raise RuleError("bad_faction", N_("Choose a faction for %(player)s."), field, player=player)
    state["factions"][player] = {key: chosen[key] for key in ("id", "name", "description", "emblem")}
    for number, card in enumerate(chosen["cards"], start=1):
        card_id = f"{player}-{number:02d}"
        state["cards"][card_id] = {
            "id": card_id,
            "owner": player,
            "name": card["name"],
            "edges": card["edges"],
        }


def _deal(state: dict, starter: str) -> dict:
    """A new game: every card unplayed, each hand of 3 held but not entered (each player shuffles
    and draws from their own deck at the real table)."""
    state["cards"] = {card_id: card for card_id, card in state["cards"].items() if not card.get("typed")}
    state.update(starter=starter, turn=starter, board={}, last=None, over=False, result=None)
    state.update(unplayed={}, hands={}, hidden={}, captured={}, set_aside={})
    for player in state["players"]:
        state["unplayed"][player] = [
            card_id for card_id, card in state["cards"].items() if card["owner"] == player
        ]
        state["hands"][player], state["hidden"][player] = [], min(HAND_SIZE, len(state["unplayed"][player]))
        state["captured"][player], state["set_aside"][player] = [], []
    return state


def _check_actor(state: dict, actor: str, player: str | None, kind: str) -> None:
    """The referee may do anything; a player's own link only their own plays and hand."""
    if actor == "referee" or (player is not None and actor == player):
        return
    if kind == "next_game":
        raise RuleError("not_referee", N_("Only the referee starts the next game."))
    if kind == "hand":
        raise RuleError("not_your_hand", N_("A player's link enters only that player's own hand."))
    raise RuleError(
        "out_of_turn", N_("It is %(player)s's turn: wait for yours."), player=state["names"][player]
    )


def _hand_size(state: dict, player: str) -> int:
    return len(state["hands"][player]) + state["hidden"][player]


def _apply_hand(state: dict, player: str, cards: object) -> dict:
    """The cards ``player`` really holds, as far as known: unplayed cards of theirs, at most a hand's worth."""
    if state["over"]:
        raise RuleError("game_over", N_("This game is over: enter the hands when the next game begins."))
    if not isinstance(cards, list):
        raise RuleError("bad_request", N_("List the cards in the hand."), "cards")
    size, name = _hand_size(state, player), state["names"][player]
    if len(cards) > size:
        raise RuleError(
            "too_many_cards",
            NP_(
                "%(name)s holds %(held)s cards, and %(count)s was chosen.",
                "%(name)s holds %(held)s cards, and %(count)s were chosen.",
            ),
            "cards",
            name=name,
            held=size,
            count=len(cards),
        )
    chosen = [_find_card(state, player, wanted) for wanted in cards]
    if len(set(chosen)) != len(chosen):
        raise RuleError("same_card", N_("The same card was chosen twice: choose each card once."), "cards")
    _set(state, "hands", player, chosen)
    _set(state, "hidden", player, size - len(chosen))
    return state


def _copy(state: dict) -> dict:
    """A state ``apply`` may change at its top level only: it shares every dict and list with the
    state it was given, and what an action changes is replaced, not changed in place (``_set``), so
    the parts it leaves alone (the cards, the other players' lists, the games before) stay shared
    and the store writes only the new parts (``SHARED_STATES``)."""
    return dict(state)


def _set(state: dict, key: str, player: str, value: object) -> None:
    """``state[key][player] = value`` on a state ``apply`` is making: the dict of every player's is
    replaced by a new one, and the other players' values stay shared with the state before."""
    state[key] = {**state[key], player: value}


def _apply_play(state: dict, action: dict) -> dict:
    if state["over"]:
        raise RuleError("game_over", N_("This game is over: start the next game of the match."))
    player = state["turn"]
    if "player" in action and action["player"] != player:
        raise RuleError(
            "out_of_turn", N_("It is %(player)s's turn."), "player", player=state["names"][player]
        )
    cell = parse_cell(action.get("cell"), state["size"], "cell")
    if cell in state["board"]:
        raise RuleError(
            "occupied", N_("%(cell)s already holds a card: play on an empty cell."), "cell", cell=cell
        )
    card = _take_card(state, player, action)
    held = {
        "owner": player,
        "edges": card["edges"],
        "card": card["id"],
        "name": card["name"],
        **({"typed": True} if card.get("typed") else {}),
    }
    result = play(state["board"], state["seats"], state["size"], cell, held)
    if result["captured"]:
        _set(
            state,
            "captured",
            player,
            state["captured"][player] + [state["board"][taken]["card"] for taken in result["captured"]],
        )
    state["board"] = result["board"]
    state["last"] = {
        "player": player,
        "cell": cell,
        "card": card,
        "steps": result["steps"],
        "captured": result["captured"],
        "passed": [],
    }
    return _end_turn(state, player)


def _take_card(state: dict, player: str, action: dict) -> dict:
    """The card played: from the hand as entered, or, while the hand holds cards not entered,
    any unplayed card of the player's; then the player draws, if their deck has a card left."""
    if ("card" in action) == ("edges" in action):
        raise RuleError("bad_request", N_("Give either the card played or its four numbers."), "card")
    if "card" in action:
        card_id = _find_card(state, player, action["card"])
    else:
        card_id = _typed_card(state, player, validate_edges(action["edges"], "edges"))
    hand, hidden = state["hands"][player], state["hidden"][player]
    if card_id in hand:
        hand = [held for held in hand if held != card_id]
        _set(state, "hands", player, hand)
    elif hidden:
        hidden -= 1  # it was a card of the hand not entered
    else:
        raise _not_in_hand(state, player, card_id)
    unplayed = [left for left in state["unplayed"][player] if left != card_id]
    _set(state, "unplayed", player, unplayed)
    if len(unplayed) > len(hand) + hidden:
        hidden += 1  # the card drawn is not known until it is entered
    if hidden != state["hidden"][player]:
        _set(state, "hidden", player, hidden)
    return state["cards"][card_id]


def _not_in_hand(state: dict, player: str, card_id: str) -> RuleError:
    cards = state["cards"]
    held = ", ".join(cards[held]["name"] for held in state["hands"][player])
    return RuleError(
        "not_in_hand",
        N_("%(card)s is not in %(player)s's hand, which holds %(held)s."),
        "card",
        card=cards[card_id]["name"],
        player=state["names"][player],
        held=held,
    )


def _find_card(state: dict, player: str, wanted: object) -> str:
    if isinstance(wanted, str):
        for card_id in state["unplayed"][player]:
            if wanted == card_id or wanted.strip().casefold() == state["cards"][card_id]["name"].casefold():
                return card_id
    name = state["names"][player]
    if not isinstance(wanted, str):
        raise RuleError(
            "not_in_hand",
            N_("That card is not one of %(player)s's cards still to play."),
            "card",
            player=name,
        )
    raise RuleError(
        "not_in_hand",
        N_("“%(card)s” is not one of %(player)s's cards still to play."),
        "card",
        card=wanted.strip()[:40],
        player=name,
    )


def _typed_card(state: dict, player: str, edges: list[int]) -> str:
    """Numbers typed in: a matching card of the entered hand, or of the unplayed ones while the
    hand holds cards not entered; else a new card that stands in for one unknown card (the last
    unplayed card not entered in the hand is set aside)."""
    hand, unknown = (
        state["hands"][player],
        [card for card in state["unplayed"][player] if card not in state["hands"][player]],
    )
    for card_id in hand + (unknown if state["hidden"][player] else []):
        if state["cards"][card_id]["edges"] == edges:
            return card_id
    if not state["hidden"][player]:
        held = ", ".join(state["cards"][card]["name"] for card in hand)
        raise RuleError(
            "not_in_hand",
            N_("No card %(numbers)s is in %(player)s's hand, which holds %(held)s."),
            "edges",
            numbers=_numbers(edges),
            player=state["names"][player],
            held=held,
        )
    set_aside = unknown[-1]
    _set(state, "set_aside", player, [*state["set_aside"][player], set_aside])
    typed = sum(1 for card in state["cards"].values() if card["owner"] == player and card.get("typed"))
    card_id = f"{player}-t{typed + 1}"
    state["cards"] = {
        **state["cards"],
        card_id: {
            "id": card_id,
            "owner": player,
            "name": f"Card {_numbers(edges)}",
            "edges": edges,
            "typed": True,
        },
    }
    # The typed card takes the place of the card set aside.
    _set(
        state,
        "unplayed",
        player,
        [card_id if held == set_aside else held for held in state["unplayed"][player]],
    )
    return card_id


def _end_turn(state: dict, player: str) -> dict:
    """The next player holding a card moves (the others pass); a full board or empty hands end the game."""
    players = state["players"]
    if len(state["board"]) < state["size"] ** 2:
        start = players.index(player)
        for offset in range(1, len(players) + 1):
            candidate = players[(start + offset) % len(players)]
            if state["unplayed"][candidate]:
                state["turn"] = candidate
                return state
            state["last"]["passed"].append(candidate)
    state["last"]["passed"] = []
    return _end_game(state)


def _end_game(state: dict) -> dict:
    captured = {player: len(state["captured"][player]) for player in state["players"]}
    result = score(state["size"], state["board"], captured)
    result["scores"] = {player: result["scores"][player] for player in state["players"]}
    state["totals"] = {
        player: total + result["scores"][player]["total"] for player, total in state["totals"].items()
    }
    state["over"], state["result"] = True, result
    state["results"] = [*state["results"], {"game": state["game"], "starter": state["starter"], **result}]
    if state["game"] == GAMES_IN_MATCH:
        state["match_over"], state["match_winner"] = True, winner(state["totals"])
    return state


def _apply_next_game(state: dict) -> dict:
    if not state["over"]:
        raise RuleError("game_not_over", N_("Finish this game before starting the next one."))
    if state["match_over"]:
        raise RuleError(
            "match_over",
            NP_("The match is over after %(count)s game.", "The match is over after %(count)s games."),
            count=GAMES_IN_MATCH,
        )
    starter = next_starter(state["players"], state["starter"], state["result"]["winner"])
    state["game"] += 1
    return _deal(state, starter)


def _rows(state: dict) -> list[list[dict]]:
    board = state["board"]
    return [
        [{"cell": cell, "value": value, "card": board.get(cell)} for cell, value in row]
        for row in _layout(state["size"])
    ]


@cache
def _layout(size: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """The board's cells by rows (``A1 B1 ... A2``), each with its value: a view draws it on every move."""
    return tuple(
        tuple((_name(column, row), cell_value(_name(column, row), size)) for column in range(size))
        for row in range(size)
    )


@cache
def _cells(size: int) -> tuple[str, ...]:
    """``cells(size)``, made once."""
    return tuple(cells(size))


def _player_view(state: dict, player: str, sees_hand: bool) -> dict:
    """One player for the view: ``hand`` (the cards entered) only when ``sees_hand``; how many
    cards they hold, how many of those are not entered, and the unplayed cards are public
    (what is not on the board nor captured)."""
    cards, size = state["cards"], _hand_size(state, player)
    return {
        "id": player,
        "name": state["names"][player],
        "seat": state["seats"][player],
        "faction": state["factions"][player],
        "sees_hand": sees_hand,
        "hand": [cards[card_id] for card_id in state["hands"][player]] if sees_hand else [],
        "hand_size": size,
        "not_entered": state["hidden"][player],
        "deck": len(state["unplayed"][player]) - size,
        "unplayed": [cards[card_id] for card_id in state["unplayed"][player]],
        "captured": len(state["captured"][player]),
        "total": state["totals"][player],
    }
