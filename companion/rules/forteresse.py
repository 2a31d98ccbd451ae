"""Forteresse: each player hides 10 walls and 5 besieged in a 5x5 fortress on a 7x7 grid,
then both fire cannons and rifles at the other's fortress from the 24 cells around it,
scoring 7 per besieged killed and 3 or 1 for every cannon or rifle the opponent spends.

Rules as implemented: ../shared/rules/forteresse.md; the players' help page is
docs/forteresse.md (with the referee's decisions where the rules page is silent).
"""

from __future__ import annotations

import functools
import random
from operator import itemgetter

from companion.rules.errors import RuleError
from companion.rules.sentences import N_, Either, Message, then

COLUMNS = "ABCDEFG"
ROWS = (1, 2, 3, 4, 5, 6, 7)
# Every cell in the contract's order: column, then row (A1 A2 ... A7 B1 ...).
CELLS = tuple(f"{column}{row}" for column in COLUMNS for row in ROWS)
FORTRESS = frozenset(f"{column}{row}" for column in "BCDEF" for row in (2, 3, 4, 5, 6))
FIRING_CELLS = tuple(cell for cell in CELLS if cell not in FORTRESS)
# (column step, row step): N goes toward row 1, E toward column G.
DIRECTIONS = {
    "N": (0, -1),
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "S": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
# The directions are written with the compass's English letters in every language (the rules, the
# API and the shots' sentences use them), and a Polish W reads "wschód" (east): the printed sheet
# and the help page give this key, each letter with its arrow and its word.
COMPASS_KEY = N_(
    "The directions, as on a compass with row 1 to the north: N ↑ north, NE ↗ north-east, E → east, "
    "SE ↘ south-east, S ↓ south, SW ↙ south-west, W ← west, NW ↖ north-west."
)
# The help page's fortress and the API document's example (docs/forteresse.md draws the same one).
EXAMPLE_FORTRESS = {
    "walls": ["B2", "B6", "C3", "C5", "D4", "D6", "E3", "E5", "E6", "F2"],
    "besieged": ["B4", "C6", "D2", "F4", "F6"],
}
WEAPONS = ("cannon", "rifle")
OUTCOMES = ("wall_destroyed", "besieged_killed", "wall", "miss")
WALLS = 10
BESIEGED = 5
ROUNDS = 2
POINTS_PER_KILL = 7
POINTS_PER_CANNON = 3
POINTS_PER_RIFLE = 1
SEATS = ("a", "b")
# A set-up action holds a hidden fortress: exports show only the plain-words history.
SECRET_ACTIONS = True
# A drawing does not depend on the other player's: two players may send theirs at the same moment.
ORDER_FREE_ACTIONS = ("setup",)
# ``apply`` shares with its input what a move leaves unchanged: the store writes only the new parts
# (companion.jsontext).
SHARED_STATES = True
MODES = ("phones", "paper")
FIRST_CHOICES = ("a", "b", "random")
# An unnamed seat's name: the state keeps it in English, a page says it in the reader's language.
DEFAULT_NAMES = {"a": N_("Player A"), "b": N_("Player B")}
ANNOUNCEMENTS = {
    "wall_destroyed": N_("Wall destroyed at %(cell)s."),
    "besieged_killed": N_("Besieged killed at %(cell)s."),
    "wall": N_("Wall."),
    "miss": N_("Miss."),
}
NAME_LENGTH = 40

_CELL_AT = {(index, row): f"{column}{row}" for index, column in enumerate(COLUMNS) for row in ROWS}
_POSITION = {cell: position for position, cell in _CELL_AT.items()}
# Decision of the rules page: a direction is legal only if its first step enters the fortress.
LEGAL_DIRECTIONS = {
    cell: tuple(
        name
        for name, (column_step, row_step) in DIRECTIONS.items()
        if _CELL_AT.get((_POSITION[cell][0] + column_step, _POSITION[cell][1] + row_step)) in FORTRESS
    )
    for cell in FIRING_CELLS
}
TRAJECTORIES = tuple((cell, direction) for cell in FIRING_CELLS for direction in LEGAL_DIRECTIONS[cell])
# Each refusal of a fortress's marks, whole, for walls and for besieged.
_MARKS_WORDS = {
    "walls": {
        "not_a_list": N_('The walls must be a list of cells, like ["B2", "C4"].'),
        "outside_fortress": N_(
            "A wall at %(cell)s would be outside the fortress: walls and besieged go in B2-F6."
        ),
        "exactly": N_("A fortress holds exactly %(limit)s walls at set-up; this one has %(number)s."),
        "at_most": N_("A fortress holds at most %(limit)s walls; this one has %(number)s."),
    },
    "besieged": {
        "not_a_list": N_('The besieged must be a list of cells, like ["B2", "C4"].'),
        "outside_fortress": N_(
            "A besieged at %(cell)s would be outside the fortress: walls and besieged go in B2-F6."
        ),
        "exactly": N_("A fortress holds exactly %(limit)s besieged at set-up; this one has %(number)s."),
        "at_most": N_("A fortress holds at most %(limit)s besieged; this one has %(number)s."),
    },
}
_LIMIT = {"walls": WALLS, "besieged": BESIEGED}
_COUNT_CODE = {"walls": "wrong_wall_count", "besieged": "wrong_besieged_count"}
_HITS = ("wall_destroyed", "besieged_killed")


# --- The game's own rules -------------------------------------------------------------


def parse_cell(text: object, field: str | None = None) -> str:
    """Read one cell name (``C4``; lower case and spaces are forgiven) or raise ``RuleError``."""
    if not isinstance(text, str) or not text.strip():
        raise RuleError("unknown_cell", N_("A cell name is needed, like C4."), field)
    cell = text.strip().upper()
    if cell not in _POSITION:
        raise RuleError(
            "unknown_cell",
            N_("“%(text)s” is not a cell of the grid: write a column A-G and a row 1-7, like C4."),
            field,
            text=text.strip()[:12],
        )
    return cell


def sort_cells(cells) -> list[str]:
    """The cells in the contract's order: column, then row (``A1 A2 … B1``)."""
    return sorted(cells, key=_POSITION.__getitem__)


def read_fortress(walls: object, besieged: object, complete: bool = True, prefix: str = "") -> dict:
    """Check a fortress and return it canonical: ``{"walls": [...], "besieged": [...]}``, sorted.

    ``complete`` asks for a set-up (exactly 10 walls and 5 besieged); otherwise it is a
    fortress in the middle of a round, which may hold fewer. ``prefix`` starts each field path.
    """
    taken: set[str] = set()
    fortress = {
        "walls": _read_marks(walls, "walls", prefix, taken),
        "besieged": _read_marks(besieged, "besieged", prefix, taken),
    }
    for kind, cells in fortress.items():
        _check_count(kind, len(cells), complete, prefix)
    return fortress


def validate_setup(walls: object, besieged: object) -> dict:
    """A set-up: exactly 10 walls and 5 besieged on distinct cells of B2-F6, returned sorted."""
    return read_fortress(walls, besieged, complete=True)


def legal_directions(firing_cell: str) -> tuple[str, ...]:
    """The directions a shot from ``firing_cell`` may take (1, 2 or 3 of them)."""
    return LEGAL_DIRECTIONS[firing_cell]


def path(firing_cell: str, direction: str) -> tuple[str, ...]:
    """The fortress cells a shot crosses, in order, from a firing cell in a legal direction."""
    known = _PATHS.get((firing_cell, direction))
    return known if known is not None else _walk(firing_cell, direction)


def _walk(firing_cell: str, direction: str) -> tuple[str, ...]:
    """``path`` worked out step by step (``_PATHS`` keeps it for every cell and direction)."""
    column_step, row_step = DIRECTIONS[direction]
    column, row = _POSITION[firing_cell]
    cells = []
    while True:
        column, row = column + column_step, row + row_step
        cell = _CELL_AT.get((column, row))
        if cell not in FORTRESS:
            return tuple(cells)
        cells.append(cell)


_PATHS = {(cell, direction): _walk(cell, direction) for cell in _POSITION for direction in DIRECTIONS}


def check_shot(firing_cell: object, direction: object, weapon: object, used=(), prefix: str = "") -> dict:
    """Check a called shot and return it canonical: ``{"from", "direction", "weapon"}``.

    ``used`` holds the firing cells this shooter already used this round.
    """
    cell = parse_cell(firing_cell, f"{prefix}from")
    if cell in FORTRESS:
        raise RuleError(
            "not_a_firing_cell",
            N_(
                "%(cell)s is inside the fortress: shots are fired from the 24 cells around it "
                "(columns A and G, rows 1 and 7)."
            ),
            f"{prefix}from",
            cell=cell,
        )
    if cell in used:
        raise RuleError(
            "firing_cell_used",
            N_("%(cell)s has already been fired from this round: each firing cell serves once."),
            f"{prefix}from",
            cell=cell,
        )
    return {
        "from": cell,
        "direction": _read_direction(cell, direction, prefix),
        "weapon": _read_weapon(weapon, prefix),
    }


def resolve_shot(fortress: dict, shot: dict) -> dict:
    """Fire ``shot`` at a (canonical) fortress: only the first occupied cell on the path counts.

    Returns ``{"outcome", "cell", "fortress", "announcement"}`` with the fortress after the
    shot; the fortress given is not changed.
    """
    walls, besieged = set(fortress["walls"]), set(fortress["besieged"])
    outcome, cell = _first_hit(walls, besieged, shot)
    if outcome == "besieged_killed":
        besieged.discard(cell)
    elif outcome == "wall_destroyed":
        walls.discard(cell)
    return {
        "outcome": outcome,
        "cell": cell,
        "fortress": {"walls": sort_cells(walls), "besieged": sort_cells(besieged)},
        "announcement": announce(outcome, cell),
    }


def _first_hit(walls, besieged, shot: dict) -> tuple[str, str | None]:
    """The outcome of ``shot`` on a fortress's standing ``walls`` and ``besieged`` (sets), and the cell
    it names (None for "wall" and "miss"): only the first occupied cell on the path counts."""
    for cell in path(shot["from"], shot["direction"]):
        if cell in besieged:
            return "besieged_killed", cell
        if cell in walls:
            return ("wall_destroyed", cell) if shot["weapon"] == "cannon" else ("wall", None)
    return "miss", None


@functools.lru_cache(maxsize=256)  # 4 answers, 2 of them at one of 25 cells: all of them fit
def announce(outcome: str, cell: str | None) -> str:
    """What the defender says aloud: "Wall destroyed at B2.", "Besieged killed at C4.", "Wall.", "Miss."."""
    return str(announcement(outcome, cell))


def announcement(outcome: str, cell: str | None) -> Message:
    """The defender's answer as a sentence to say in the reader's language (the state keeps it in English)."""
    return Message(ANNOUNCEMENTS[outcome], cell=cell) if outcome in _HITS else Message(ANNOUNCEMENTS[outcome])


def score_round(tallies: dict) -> dict:
    """Points of one round from each seat's ``{"killed", "cannons", "rifles"}``.

    7 per opposing besieged killed, 3 per cannon and 1 per rifle the opponent fired.
    """
    return {
        seat: POINTS_PER_KILL * tallies[seat]["killed"]
        + POINTS_PER_CANNON * tallies[_other(seat)]["cannons"]
        + POINTS_PER_RIFLE * tallies[_other(seat)]["rifles"]
        for seat in SEATS
    }


def score_game(rounds: list[dict]) -> dict:
    """``{"rounds": [{"a": 87, "b": 41}], "totals": {...}, "winner": "a" | "b" | None}``."""
    points = [score_round(tallies) for tallies in rounds]
    totals = {seat: sum(round_points[seat] for round_points in points) for seat in SEATS}
    return {"rounds": points, "totals": totals, "winner": _leader(totals)}


# --- The JSON API (shared/api.md) ------------------------------------------------------


def api_setup(body: object) -> dict:
    """``POST /forteresse/setup``: ``{"walls": [10], "besieged": [5]}`` -> ``{"valid": true}``."""
    body = _object(body, None, N_("The request must be a JSON object."))
    read_fortress(_required(body, "walls", ""), _required(body, "besieged", ""), complete=True)
    return {"valid": True}


def api_shot(body: object) -> dict:
    """``POST /forteresse/shot``: resolve one shot on a fortress in any state of a round."""
    body = _object(body, None, N_("The request must be a JSON object."))
    fortress = _object(_required(body, "fortress", ""), "fortress", N_("The fortress must be a JSON object."))
    fortress = read_fortress(
        _required(fortress, "walls", "fortress."),
        _required(fortress, "besieged", "fortress."),
        complete=False,
        prefix="fortress.",
    )
    used = _read_used(body.get("used", []))
    shot = _object(_required(body, "shot", ""), "shot", N_("The shot must be a JSON object."))
    shot = check_shot(shot.get("from"), shot.get("direction"), shot.get("weapon"), used, "shot.")
    return resolve_shot(fortress, shot)


def api_score(body: object) -> dict:
    """``POST /forteresse/score``: points per round, totals and winner from 1 or 2 rounds' tallies."""
    body = _object(body, None, N_("The request must be a JSON object."))
    rounds = _required(body, "rounds", "")
    if not isinstance(rounds, list):
        raise RuleError("not_a_list", N_("“rounds” must be a list of 1 or 2 rounds."), "rounds")
    if len(rounds) not in (1, ROUNDS):
        raise RuleError(
            "wrong_round_count",
            N_("A game has 1 or 2 rounds to score; this request has %(number)s."),
            "rounds",
            number=len(rounds),
        )
    return score_game([_read_round(item, f"rounds[{index}]") for index, item in enumerate(rounds)])


# --- The table protocol (docs/rules-modules.md) ----------------------------------------


def seats(options: dict) -> list[tuple[str, str]]:
    """The private links of a new table: one per player in phones mode, none on paper."""
    settings = _read_options(options)
    if settings["mode"] == "paper":
        return []
    return [(seat, settings["names"][seat]) for seat in SEATS]


def new_table(options: dict, seed: int) -> dict:
    """The first state of a table; options ``{"mode", "first", "names"}`` (all optional)."""
    settings = _read_options(options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RuleError("bad_seed", N_("The table's seed must be a whole number."), "seed")
    first = settings["first"]
    if first == "random":
        first = random.Random(seed).choice(SEATS)
    state = {
        "game": "forteresse",
        "mode": settings["mode"],
        "names": settings["names"],
        "seed": seed,
        "phase": "setup",
        "turn": None,
        "rounds": [],
    }
    _start_round(state, first)
    return state


def rematch_options(options: dict, state: dict) -> dict:
    """The options of a new match: the same players, fortresses kept the same way, and the first
    shot of round 1 to the player who did not fire it in this match (the rounds alternate)."""
    return {**options, "first": _other(state["rounds"][0]["first"])}


def first_player(state: dict) -> int | None:
    """The place, in ``result``'s list, of the player who fired the match's first shot (round 1's)."""
    return SEATS.index(state["rounds"][0]["first"])


def to_move(state: dict) -> tuple[str, str] | None:
    """The player to move, ``(seat key, name)`` as the table clock keeps them; None when nobody is
    (the referee's turn, the game over)."""
    turn = state.get("turn")
    return None if turn is None else (turn, state["names"][turn])


def round_scores(details: dict) -> tuple[str, list[list[int]]]:
    """A finished match's points in each of its two rounds (``details`` is its play's
    ``play_details``), for the history's chart: ``("round", [[points per player] per round])``."""
    return "round", [[seat["points"] for seat in round_] for round_ in details.get("rounds", [])]


def apply(state: dict, action: dict, actor: str) -> dict:
    """The state after ``actor`` (``"referee"``, ``"a"`` or ``"b"``) does ``action``; the input is kept."""
    if not isinstance(action, dict):
        raise RuleError("not_an_object", N_('An action is a JSON object, like {"type": "shot", ...}.'))
    if actor not in ("referee", *SEATS):
        raise RuleError("unknown_actor", N_("Only the referee or a player's seat (a or b) can act."))
    if state["phase"] == "finished":
        raise RuleError("game_over", N_("The game is over: both rounds have been played."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _APPLY:
        raise RuleError("unknown_action", N_("An action is a “setup” or a “shot”."), "type")
    current = state["rounds"][-1]
    # Only the current round changes (its set-ups and shots, and a round may start): the rounds
    # and shots before are shared with the input, so a shot costs the same late in the game.
    opened = dict(current, setups=dict(current["setups"]), shots=list(current["shots"]))
    after = dict(state, rounds=[*state["rounds"][:-1], opened])
    _APPLY[kind](after, action, actor)
    return after


def describe(state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
    """The action in plain words for the table's history, given the state it was applied to.
    ``after`` is the state ``apply`` made of these, when the caller has it (the store does)."""
    if after is None:
        after = apply(state, action, actor)
    number = len(state["rounds"])
    if action["type"] == "setup":
        return Message(
            N_("%(name)s drew a fortress for round %(round)s."), name=said_name(state, actor), round=number
        )
    shot = after["rounds"][number - 1]["shots"][-1]
    fired = {
        "cannon": N_("%(name)s fired a cannon from %(cell)s toward %(direction)s: %(answer)s"),
        "rifle": N_("%(name)s fired a rifle from %(cell)s toward %(direction)s: %(answer)s"),
    }[shot["weapon"]]
    text = Message(
        fired,
        name=said_name(state, shot["shooter"]),
        cell=shot["from"],
        direction=shot["direction"],
        answer=announcement(shot["outcome"], shot["cell"]),
    )
    if after["phase"] == "finished":
        return then(text, Message(N_("The game is over.")))
    if len(after["rounds"]) > number:
        return then(text, Message(N_("Round %(round)s is over."), round=number))
    return text


def said_name(state: dict, seat: str) -> str | Message:
    """A seat's name as a sentence's parameter: as typed, or "Player A" in the reader's language."""
    name = state["names"][seat]
    return Message(DEFAULT_NAMES[seat]) if name == DEFAULT_NAMES[seat] else name


def view(state: dict, viewer: str) -> dict:
    """What ``viewer`` may see: public facts, plus a seat's own fortress in phones mode.

    A fortress never leaves through another viewer's view while the game is on; once it
    is finished every fortress of both rounds is revealed under ``"reveal"``.
    """
    current = state["rounds"][-1]
    finished = state["phase"] == "finished"
    own = state["mode"] == "phones" and viewer in SEATS and current["setups"][viewer] is not None
    fired = _by_shooter(current["shots"])  # one pass over the round's shots, for all that follows
    used = {seat: {shot["from"] for shot in fired[seat]} for seat in SEATS}
    counts = {seat: _tally(fired[seat]) for seat in SEATS}
    return {
        "game": "forteresse",
        "viewer": viewer,
        "mode": state["mode"],
        "names": dict(state["names"]),
        "phase": state["phase"],
        "round": current["number"],
        "rounds_in_game": ROUNDS,
        "first": current["first"],
        "turn": state["turn"],
        "set_up": {seat: state["mode"] == "paper" or current["setups"][seat] is not None for seat in SEATS},
        "stopped": {
            seat: counts[seat]["killed"] == BESIEGED or used[seat].issuperset(FIRING_CELLS)  # as _stopped
            for seat in SEATS
        },
        "counts": counts,
        "free_firing_cells": {
            seat: [cell for cell in FIRING_CELLS if cell not in used[seat]] for seat in SEATS
        },
        "shots": _shot_copies(current["shots"]),
        "attacks": {seat: _record(fired[seat]) for seat in SEATS},
        "history": [
            {"number": done["number"], "first": done["first"], "shots": _shot_copies(done["shots"])}
            for done in state["rounds"][:-1]
        ],
        "sheet": _sheet(state, counts),
        "fortress": _fortress_view(current, viewer) if own else None,
        "reveal": _reveal(state) if finished and state["mode"] == "phones" else None,
    }


def result(state: dict, finished: bool) -> dict | None:
    """Each player's points over both rounds once the game is over, else None (``finished``: the
    referee closed the table early, which scores nothing)."""
    if state["phase"] != "finished":
        return None
    sheet = _sheet(state)
    return {
        "players": [
            {
                "name": state["names"].get(seat) or DEFAULT_NAMES[seat],
                "score": sheet["totals"][seat],
                "winner": sheet["winner"] == seat,
                "team": None,
            }
            for seat in SEATS
        ]
    }


def names(state: dict) -> list[str]:
    """The names typed at the table's start ("Player A" for an unnamed seat is not a name)."""
    return [
        state["names"][seat]
        for seat in SEATS
        if state["names"].get(seat, DEFAULT_NAMES[seat]) != DEFAULT_NAMES[seat]
    ]


def play_details(state: dict) -> dict:
    """What the history keeps of a finished game: each round's kills, cannons, rifles and points,
    for each player by their place in the result's list."""
    if state["phase"] != "finished":
        return {}
    return {"rounds": [[round_[seat] for seat in SEATS] for round_ in _sheet(state)["rounds"]]}


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A legal ``(actor, action)`` drawn with ``rng``, or ``None`` once the game is over."""
    if state["phase"] == "finished":
        return None
    current = state["rounds"][-1]
    if state["phase"] == "setup":
        seat = rng.choice([seat for seat in SEATS if current["setups"][seat] is None])
        return seat, {"type": "setup", **random_fortress(rng)}
    shooter = state["turn"]
    if state["mode"] == "phones":
        firing_cell = rng.choice(_free_firing_cells(current, shooter))
        action = {
            "type": "shot",
            "from": firing_cell,
            "direction": rng.choice(LEGAL_DIRECTIONS[firing_cell]),
            "weapon": rng.choice(WEAPONS),
        }
        return rng.choice([shooter, "referee"]), action
    return "referee", _random_paper_shot(state, rng)


def random_fortress(rng: random.Random) -> dict:
    """A set-up drawn with ``rng``: 10 walls and 5 besieged on distinct fortress cells, sorted."""
    cells = rng.sample(sort_cells(FORTRESS), WALLS + BESIEGED)
    return {"walls": sort_cells(cells[:WALLS]), "besieged": sort_cells(cells[WALLS:])}


def attack_record(shots: list[dict], shooter: str) -> dict:
    """What ``shooter``'s shots of a round revealed, like grid 2 on paper.

    ``used``: the firing cells with weapon and direction, in order; ``destroyed_walls``
    and ``killed_besieged``: the cells announced; ``known_walls``: standing walls deduced
    from "wall" answers (the only cell of the path not known empty); ``known_empty``:
    cells a shot went through, so they never held anything.
    """
    return _record([shot for shot in shots if shot["shooter"] == shooter])


def _record(own: list[dict]) -> dict:
    """``attack_record`` of one shooter's shots (``own``), in the order fired: worked out once for
    the same shots (each move changes one seat's record, and every phone reads both), and given
    as a copy of its own, as a view's parts are."""
    record = _worked_record(tuple(map(_RECORDED, own)))
    return {
        "used": [dict(used) for used in record["used"]],
        "destroyed_walls": [*record["destroyed_walls"]],
        "killed_besieged": [*record["killed_besieged"]],
        "known_walls": [*record["known_walls"]],
        "known_empty": [*record["known_empty"]],
    }


# Records worked out, by their shots' values (a record is a few hundred bytes).
_RECORDS_MAX = 4096
_RECORDED_FIELDS = ("from", "direction", "weapon", "outcome", "cell")
_RECORDED = itemgetter(*_RECORDED_FIELDS)


@functools.lru_cache(maxsize=_RECORDS_MAX)
def _worked_record(shots: tuple[tuple, ...]) -> dict:
    """The record of one shooter's shots, given as their ``_RECORDED`` values (never changed: its
    reader copies it)."""
    own = [dict(zip(_RECORDED_FIELDS, shot, strict=True)) for shot in shots]
    hit_at = {shot["cell"]: time for time, shot in enumerate(own) if shot["cell"]}
    empty = _seen_empty(own, hit_at)
    walls = set()
    for time, shot in enumerate(own):
        if shot["outcome"] == "wall":
            unknown = [
                cell
                for cell in path(shot["from"], shot["direction"])
                if cell not in empty and hit_at.get(cell, time + 1) > time
            ]
            if len(unknown) == 1 and unknown[0] not in hit_at:
                walls.add(unknown[0])
    return {
        "used": [
            {"from": shot["from"], "weapon": shot["weapon"], "direction": shot["direction"]} for shot in own
        ],
        "destroyed_walls": sort_cells([s["cell"] for s in own if s["outcome"] == "wall_destroyed"]),
        "killed_besieged": sort_cells([s["cell"] for s in own if s["outcome"] == "besieged_killed"]),
        "known_walls": sort_cells(walls),
        "known_empty": sort_cells(empty),
    }


# --- Private helpers --------------------------------------------------------------------


def _shot_copies(shots: list[dict]) -> list[dict]:
    """A round's shots for a view: each a new dict, as ``copy.deepcopy`` would give, since a shot
    holds only text (and None) and so shares nothing that could change, at a tenth of its cost."""
    return list(map(dict, shots))


def _other(seat: str) -> str:
    return SEATS[1 - SEATS.index(seat)]


def _leader(totals: dict) -> str | None:
    if totals["a"] == totals["b"]:
        return None
    return max(SEATS, key=totals.__getitem__)


def _read_marks(marks: object, kind: str, prefix: str, taken: set) -> list[str]:
    field = f"{prefix}{kind}"
    if not isinstance(marks, list):
        raise RuleError("not_a_list", _MARKS_WORDS[kind]["not_a_list"], field)
    if len(marks) > len(FORTRESS):
        _check_count(kind, len(marks), False, prefix)
    cells = []
    for index, text in enumerate(marks):
        cell = parse_cell(text, f"{field}[{index}]")
        if cell not in FORTRESS:
            raise RuleError(
                "outside_fortress",
                _MARKS_WORDS[kind]["outside_fortress"],
                f"{field}[{index}]",
                cell=cell,
            )
        if cell in taken:
            raise RuleError(
                "cell_taken",
                N_("%(cell)s is marked twice: each wall and each besieged needs a cell of its own."),
                f"{field}[{index}]",
                cell=cell,
            )
        taken.add(cell)
        cells.append(cell)
    return sort_cells(cells)


def _check_count(kind: str, count: int, complete: bool, prefix: str) -> None:
    limit = _LIMIT[kind]
    if count == limit or (count < limit and not complete):
        return
    raise RuleError(
        _COUNT_CODE[kind],
        _MARKS_WORDS[kind]["exactly" if complete else "at_most"],
        f"{prefix}{kind}",
        limit=limit,
        number=count,
    )


def _read_direction(firing_cell: str, direction: object, prefix: str) -> str:
    field = f"{prefix}direction"
    name = direction.strip().upper() if isinstance(direction, str) else None
    if name not in DIRECTIONS:
        raise RuleError("unknown_direction", N_("A direction is one of N, NE, E, SE, S, SW, W or NW."), field)
    legal = LEGAL_DIRECTIONS[firing_cell]
    if name not in legal:
        raise RuleError(
            "direction_misses_fortress",
            N_(
                "A shot from %(cell)s toward %(direction)s does not enter the fortress: from %(cell)s fire %(choices)s."
            ),
            field,
            cell=firing_cell,
            direction=name,
            choices=Either(legal),
        )
    return name


def _read_weapon(weapon: object, prefix: str) -> str:
    name = weapon.strip().lower() if isinstance(weapon, str) else None
    if name not in WEAPONS:
        raise RuleError("unknown_weapon", N_("The weapon is a cannon or a rifle."), f"{prefix}weapon")
    return name


def _object(value: object, field: str | None, refusal: str) -> dict:
    if not isinstance(value, dict):
        raise RuleError("not_an_object", refusal, field)
    return value


def _required(body: dict, key: str, prefix: str) -> object:
    if key not in body:
        raise RuleError("missing_field", N_("“%(key)s” is missing."), f"{prefix}{key}", key=f"{prefix}{key}")
    return body[key]


def _read_used(used: object) -> set[str]:
    if not isinstance(used, list):
        raise RuleError("not_a_list", N_('“used” must be a list of firing cells, like ["A1", "G4"].'), "used")
    cells = set()
    for index, text in enumerate(used):
        cell = parse_cell(text, f"used[{index}]")
        if cell in FORTRESS:
            raise RuleError(
                "not_a_firing_cell",
                N_("%(cell)s is inside the fortress, so it is not a firing cell."),
                f"used[{index}]",
                cell=cell,
            )
        cells.add(cell)
    return cells


def _read_round(item: object, field: str) -> dict:
    item = _object(item, field, N_("Each round must be a JSON object."))
    return {seat: _read_tally(_required(item, seat, f"{field}."), f"{field}.{seat}") for seat in SEATS}


def _read_tally(tally: object, field: str) -> dict:
    tally = _object(tally, field, N_("Each player's round must be a JSON object."))
    counts = {
        key: _read_count(_required(tally, key, f"{field}."), f"{field}.{key}")
        for key in ("killed", "cannons", "rifles")
    }
    shots = counts["cannons"] + counts["rifles"]
    if counts["killed"] > BESIEGED:
        raise RuleError(
            "too_many_kills",
            N_("A fortress holds 5 besieged, so “killed” is 0 to 5, not %(killed)s."),
            f"{field}.killed",
            killed=counts["killed"],
        )
    if shots > len(FIRING_CELLS):
        raise RuleError(
            "too_many_shots",
            N_("A player fires at most 24 shots a round; here cannons and rifles make %(shots)s."),
            field,
            shots=shots,
        )
    if counts["killed"] > shots:
        raise RuleError(
            "more_kills_than_shots",
            N_(
                "Each shot kills at most one besieged: %(killed)s killed needs "
                "at least as many shots, not %(shots)s."
            ),
            f"{field}.killed",
            killed=counts["killed"],
            shots=shots,
        )
    return counts


def _read_count(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError("not_an_integer", N_("“%(key)s” must be a whole number."), field, key=field)
    if value < 0:
        raise RuleError("negative_number", N_("“%(key)s” cannot be negative."), field, key=field)
    return value


def _read_options(options: object) -> dict:
    options = _object(options, None, N_("The table's options must be a JSON object."))
    unknown = sorted(str(key) for key in options if key not in ("mode", "first", "names"))
    if unknown:
        raise RuleError(
            "unknown_option",
            N_("Forteresse has no option “%(option)s”."),
            unknown[0][:20],
            option=unknown[0][:20],
        )
    mode, first = options.get("mode", "phones"), options.get("first", "random")
    if not isinstance(mode, str) or mode not in MODES:
        raise RuleError(
            "bad_mode", N_("The mode is “phones” (Castellan keeps the fortresses) or “paper”."), "mode"
        )
    if not isinstance(first, str) or first not in FIRST_CHOICES:
        raise RuleError("bad_first", N_("The first shooter is “a”, “b” or “random”."), "first")
    return {"mode": mode, "first": first, "names": _read_names(options.get("names", {}))}


def _read_names(names: object) -> dict:
    names = _object(names, "names", N_("The players' names must be a JSON object."))
    result = dict(DEFAULT_NAMES)
    for key, name in names.items():
        if key not in SEATS:
            raise RuleError("unknown_seat", N_("Names are given for seats “a” and “b”."), "names")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
            raise RuleError(
                "bad_name",
                N_("A player's name is 1 to %(most)s characters."),
                f"names.{key}",
                most=NAME_LENGTH,
            )
        result[key] = name.strip()
    return result


def _start_round(state: dict, first: str) -> None:
    state["rounds"].append(
        {
            "number": len(state["rounds"]) + 1,
            "first": first,
            "setups": {seat: None for seat in SEATS},
            "shots": [],
        }
    )
    paper = state["mode"] == "paper"
    state["phase"], state["turn"] = ("shooting", first) if paper else ("setup", None)


def _apply_setup(state: dict, action: dict, actor: str) -> None:
    if state["mode"] == "paper":
        raise RuleError(
            "paper_fortress", N_("In paper mode the fortresses stay on paper: only shots are recorded.")
        )
    if actor not in SEATS:
        raise RuleError(
            "own_fortress_only",
            N_("Each player draws their own fortress from their own seat; the referee never sees it."),
        )
    if state["phase"] != "setup":
        raise RuleError(
            "shooting_started", N_("The shooting has started: a fortress is not redrawn during a round.")
        )
    current = state["rounds"][-1]
    current["setups"][actor] = validate_setup(action.get("walls"), action.get("besieged"))
    if all(current["setups"][seat] is not None for seat in SEATS):
        state["phase"], state["turn"] = "shooting", current["first"]


def _apply_shot(state: dict, action: dict, actor: str) -> None:
    if state["phase"] != "shooting":
        raise RuleError(
            "fortresses_not_ready", N_("Both fortresses must be drawn before the round's first shot.")
        )
    current = state["rounds"][-1]
    facts = _facts(current["shots"])  # one pass over the round's shots, for the shot and the turn after it
    shooter = _shooter(state, action, actor, facts)
    used, kills, hits = facts[shooter]
    shot = check_shot(action.get("from"), action.get("direction"), action.get("weapon"), used)
    if state["mode"] == "phones":
        # as resolve_shot on the fortress standing (_standing), without the fortress after the shot
        setup = current["setups"][_other(shooter)]
        outcome, cell = _first_hit(
            set(setup["walls"]).difference(hits), set(setup["besieged"]).difference(hits), shot
        )
    else:
        outcome, cell = _read_answer(current, shooter, shot, action)
    current["shots"].append(
        {
            "shooter": shooter,
            **shot,
            "outcome": outcome,
            "cell": cell,
            "announcement": announce(outcome, cell),
        }
    )
    facts[shooter] = (
        used | {shot["from"]},
        kills + (outcome == "besieged_killed"),
        hits | ({cell} if cell else set()),
    )
    _advance(state, shooter, facts)


_APPLY = {"setup": _apply_setup, "shot": _apply_shot}


def _shooter(state: dict, action: dict, actor: str, facts: dict | None = None) -> str:
    """A seat shoots for itself; the referee shoots for ``action["shooter"]``, or whoever's turn it is
    (``facts``: ``_facts`` of the round's shots, when the caller has them)."""
    shooter = actor if actor in SEATS else action.get("shooter", state["turn"])
    if not isinstance(shooter, str) or shooter not in SEATS:
        raise RuleError("unknown_seat", N_("The shooter is seat “a” or “b”."), "shooter")
    current = state["rounds"][-1]
    if _stopped(current, shooter, facts):
        reason = (
            N_("%(name)s has killed all 5 besieged and has stopped shooting this round.")
            if _kills(current, shooter) == BESIEGED
            else N_("%(name)s has used all 24 firing cells and has stopped shooting this round.")
        )
        raise RuleError("shooter_stopped", reason, name=said_name(state, shooter))
    if shooter != state["turn"]:
        raise RuleError(
            "not_your_turn", N_("It is %(name)s's turn to shoot."), name=said_name(state, state["turn"])
        )
    return shooter


def _advance(state: dict, shooter: str, facts: dict) -> None:
    """The turn after ``shooter``'s shot (``facts``: ``_facts`` of the round's shots, that one included)."""
    for seat in (_other(shooter), shooter):
        used, kills, _hits = facts[seat]
        if not (kills == BESIEGED or used.issuperset(FIRING_CELLS)):  # as _stopped
            state["turn"] = seat
            return
    if len(state["rounds"]) < ROUNDS:
        _start_round(state, _other(state["rounds"][0]["first"]))
    else:
        state["phase"], state["turn"] = "finished", None


def _read_answer(current: dict, shooter: str, shot: dict, action: dict) -> tuple[str, str | None]:
    outcome = action.get("outcome")
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise RuleError(
            "unknown_outcome", N_("The answer is wall_destroyed, besieged_killed, wall or miss."), "outcome"
        )
    if outcome in _HITS:
        cell = parse_cell(action.get("cell"), "cell")
    elif action.get("cell") is not None:
        raise RuleError("inconsistent_answer", N_("“Wall” and “miss” name no cell."), "cell")
    else:
        cell = None
    _check_answer(attack_record(current["shots"], shooter), shot, outcome, cell)
    return outcome, cell


def _check_answer(record: dict, shot: dict, outcome: str, cell: str | None) -> None:
    """Refuse an answer the rules or the shooter's earlier answers make impossible."""
    trajectory = path(shot["from"], shot["direction"])
    cleared = set(record["destroyed_walls"]) | set(record["killed_besieged"])
    problem = _weapon_problem(shot["weapon"], outcome)
    if cell is not None and cell not in trajectory:
        raise RuleError(
            "cell_off_path",
            N_(
                "%(cell)s is not on the path of a shot from %(start)s toward "
                "%(direction)s, which crosses %(path)s."
            ),
            "cell",
            cell=cell,
            start=shot["from"],
            direction=shot["direction"],
            path=" ".join(trajectory),
        )
    if problem is None and cell is not None:
        problem = _hit_problem(record, trajectory, cleared, outcome, cell)
    if problem is None and outcome == "miss":
        problem = _blocker(record, trajectory, len(trajectory), None)
    if problem is None and outcome == "wall":
        problem = _wall_problem(record, trajectory, cleared)
    if problem:
        raise RuleError("inconsistent_answer", problem, "outcome")


def _weapon_problem(weapon: str, outcome: str) -> Message | None:
    if weapon == "rifle" and outcome == "wall_destroyed":
        return Message(N_("A rifle cannot destroy a wall: when a rifle hits a wall, “Wall.” is the answer."))
    if weapon == "cannon" and outcome == "wall":
        return Message(N_("A cannon destroys the first wall it meets, so the answer names the wall's cell."))
    return None


def _hit_problem(record: dict, trajectory: tuple, cleared: set, outcome: str, cell: str) -> Message | None:
    if cell in cleared:
        return Message(N_("%(cell)s was already cleared this round: shots now pass through it."), cell=cell)
    if cell in record["known_empty"]:
        return Message(N_("%(cell)s is known to be empty: an earlier shot passed through it."), cell=cell)
    if outcome == "besieged_killed" and cell in record["known_walls"]:
        return Message(N_("%(cell)s is known to hold a wall, not a besieged."), cell=cell)
    if outcome == "besieged_killed" and len(record["killed_besieged"]) >= BESIEGED:
        return Message(N_("All 5 besieged of this fortress are already dead."))
    walls_known = len(record["destroyed_walls"]) + len(set(record["known_walls"]) - {cell})
    if outcome == "wall_destroyed" and walls_known >= WALLS:
        return Message(N_("All 10 walls of this fortress are already accounted for."))
    return _blocker(record, trajectory, trajectory.index(cell), cell)


def _blocker(record: dict, trajectory: tuple, stop: int, target: str | None) -> Message | None:
    """The known wall before ``stop`` on the path: the shot cannot reach ``target`` (None: it is not a miss)."""
    for cell in trajectory[:stop]:
        if cell in record["known_walls"]:
            if target is None:
                return Message(
                    N_("The known wall at %(wall)s stands on this path, so it is not a miss."), wall=cell
                )
            return Message(
                N_("The known wall at %(wall)s stands on this path, so the shot cannot reach %(cell)s."),
                wall=cell,
                cell=target,
            )
    return None


def _wall_problem(record: dict, trajectory: tuple, cleared: set) -> Message | None:
    if len(record["destroyed_walls"]) >= WALLS:
        return Message(
            N_("All 10 walls of this fortress are already destroyed, so no wall can stop the shot.")
        )
    if all(cell in cleared or cell in record["known_empty"] for cell in trajectory):
        return Message(N_("Every cell on this path is known to be empty, so no wall can stop the shot."))
    accounted = len(record["destroyed_walls"]) + len(record["known_walls"]) >= WALLS
    if accounted and not set(trajectory) & set(record["known_walls"]):
        return Message(
            N_("All 10 walls of this fortress are accounted for and none of them is on this path.")
        )
    return None


def _seen_empty(own: list[dict], hit_at: dict) -> set[str]:
    """Cells a shot went through before its end; never hit, so they never held anything."""
    empty = set()
    for shot in own:
        empty.update(_SEEN[shot["from"], shot["direction"], shot["outcome"], shot["cell"]])
    return empty.difference(hit_at)


def _seen(firing_cell: str, direction: str, outcome: str, cell: str | None) -> tuple[str, ...]:
    """The cells a shot went through before its end (``_SEEN`` keeps them for every shot)."""
    trajectory = path(firing_cell, direction)
    if outcome == "miss":
        return trajectory
    if cell:
        return trajectory[: trajectory.index(cell)]
    return ()


class _SeenCells(dict):
    """``_seen`` of each shot, worked out the first time it is asked (at most every trajectory
    with each of its answers: a few thousand)."""

    def __missing__(self, key):
        seen = self[key] = _seen(*key)
        return seen


_SEEN = _SeenCells()


def _random_paper_shot(state: dict, rng: random.Random) -> dict:
    """A paper shot whose answer is true of an imagined fortress, else any answer the checks accept."""
    current, shooter = state["rounds"][-1], state["turn"]
    imagined = _standing(current, _other(shooter), _imagined_setups(state))
    free = _free_firing_cells(current, shooter)
    rng.shuffle(free)
    record = attack_record(current["shots"], shooter)
    for firing_cell in free:
        for direction in rng.sample(LEGAL_DIRECTIONS[firing_cell], len(LEGAL_DIRECTIONS[firing_cell])):
            shot = {"from": firing_cell, "direction": direction, "weapon": rng.choice(WEAPONS)}
            truth = resolve_shot(imagined, shot)
            answers = [(truth["outcome"], truth["cell"])] + _answers(shot)
            for outcome, cell in answers:
                if _answer_allowed(record, shot, outcome, cell):
                    return {"type": "shot", **shot, "outcome": outcome, "cell": cell}
    # Unreachable: a miss, "wall", or the first known wall on the path always fits the checks.
    raise AssertionError("no paper answer fits")


def _answers(shot: dict) -> list[tuple[str, str | None]]:
    hit = "wall_destroyed" if shot["weapon"] == "cannon" else "wall"
    cells = path(shot["from"], shot["direction"])
    return [("miss", None), (hit, None)] + [(outcome, cell) for cell in cells for outcome in _HITS]


def _answer_allowed(record: dict, shot: dict, outcome: str, cell: str | None) -> bool:
    if (outcome in _HITS) != (cell is not None):
        return False
    try:
        _check_answer(record, shot, outcome, cell)
    except RuleError:
        return False
    return True


def _imagined_setups(state: dict) -> dict:
    """Fortresses drawn from the seed for random paper games (Castellan never sees the paper ones)."""
    number = len(state["rounds"])
    return {seat: random_fortress(random.Random(f"{state['seed']}:{number}:{seat}")) for seat in SEATS}


def _standing(current: dict, seat: str, setups: dict | None = None, cleared: set | None = None) -> dict:
    """``seat``'s fortress now: its set-up less what the opponent's shots cleared (``cleared``,
    when the caller has it)."""
    setup = (setups or current["setups"])[seat]
    if cleared is None:
        opponent = _other(seat)
        cleared = {shot["cell"] for shot in current["shots"] if shot["shooter"] == opponent and shot["cell"]}
    return {kind: [cell for cell in setup[kind] if cell not in cleared] for kind in ("walls", "besieged")}


def _fortress_view(current: dict, seat: str) -> dict:
    setup, standing = current["setups"][seat], _standing(current, seat)
    return {
        **standing,
        "destroyed_walls": [cell for cell in setup["walls"] if cell not in standing["walls"]],
        "killed_besieged": [cell for cell in setup["besieged"] if cell not in standing["besieged"]],
    }


def _reveal(state: dict) -> list[dict]:
    return [
        {"number": done["number"], "fortresses": {seat: _fortress_view(done, seat) for seat in SEATS}}
        for done in state["rounds"]
    ]


def _kills(current: dict, seat: str) -> int:
    return sum(
        1 for shot in current["shots"] if shot["shooter"] == seat and shot["outcome"] == "besieged_killed"
    )


def _free_firing_cells(current: dict, seat: str) -> list[str]:
    used = {shot["from"] for shot in current["shots"] if shot["shooter"] == seat}
    return [cell for cell in FIRING_CELLS if cell not in used]


def _stopped(current: dict, seat: str, facts: dict | None = None) -> bool:
    used, kills, _hits = (facts or _facts(current["shots"]))[seat]
    return kills == BESIEGED or used.issuperset(FIRING_CELLS)  # every firing cell is used


def _facts(shots: list[dict]) -> dict:
    """For each seat, what its shots of a round did, in one pass: the firing cells it used, the
    besieged it killed, the cells it cleared (walls destroyed, besieged killed)."""
    used, kills, hits = (
        {seat: set() for seat in SEATS},
        dict.fromkeys(SEATS, 0),
        {seat: set() for seat in SEATS},
    )
    for shot in shots:
        seat = shot["shooter"]
        used[seat].add(shot["from"])
        kills[seat] += shot["outcome"] == "besieged_killed"
        if shot["cell"]:
            hits[seat].add(shot["cell"])
    return {seat: (used[seat], kills[seat], hits[seat]) for seat in SEATS}


def _counts(current: dict, seat: str) -> dict:
    """What ``seat``'s shots of a round did, counted in one pass over them."""
    return _tally([shot for shot in current["shots"] if shot["shooter"] == seat])


def _round_tallies(played: dict, current: bool) -> dict:
    """``_counts`` of each seat in ``played``; for a round over (never changed again), worked out once
    for the same shots (``_past_tallies``): every view of the next rounds counts it again."""
    if current:
        return {seat: _counts(played, seat) for seat in SEATS}
    return _past_tallies(tuple(map(_TALLIED, played["shots"])))


_TALLIED = itemgetter("shooter", "outcome", "weapon")  # what ``_tally`` counts of a shot, and whose it is


@functools.lru_cache(maxsize=_RECORDS_MAX)
def _past_tallies(shots: tuple[tuple[str, str, str], ...]) -> dict:
    """``_counts`` of each seat in a round over, by its shots' values (``_TALLIED``)."""
    return {
        seat: _tally(
            [{"outcome": outcome, "weapon": weapon} for shooter, outcome, weapon in shots if shooter == seat]
        )
        for seat in SEATS
    }


def _by_shooter(shots: list[dict]) -> dict[str, list[dict]]:
    """A round's shots of each seat, in the order fired."""
    fired: dict[str, list[dict]] = {seat: [] for seat in SEATS}
    for shot in shots:
        fired[shot["shooter"]].append(shot)
    return fired


def _tally(own: list[dict]) -> dict:
    """What one seat's shots of a round (``own``) did, counted in one pass over them."""
    killed = walls = cannons = rifles = 0
    for shot in own:
        outcome, weapon = shot["outcome"], shot["weapon"]
        if outcome == "besieged_killed":
            killed += 1
        elif outcome == "wall_destroyed":
            walls += 1
        if weapon == "cannon":
            cannons += 1
        elif weapon == "rifle":
            rifles += 1
    return {
        "killed": killed,
        "walls_destroyed": walls,
        "cannons": cannons,
        "rifles": rifles,
        "shots": len(own),
    }


def _sheet(state: dict, counts: dict | None = None) -> dict:
    """The score sheet so far: each round's kills, cannons, rifles and points, totals, winner at the end.
    ``counts``: the current round's ``_counts`` of each seat, when the caller has them already.
    Points as ``score_game`` gives them, worked out here without its intermediate dicts."""
    last = state["rounds"][-1]
    rounds = []
    totals = dict.fromkeys(SEATS, 0)
    for played in state["rounds"]:
        tallies = counts if counts is not None and played is last else _round_tallies(played, played is last)
        round_ = {}
        for seat, other in (("a", "b"), ("b", "a")):
            tally, against = tallies[seat], tallies[other]
            points = (
                POINTS_PER_KILL * tally["killed"]
                + POINTS_PER_CANNON * against["cannons"]
                + POINTS_PER_RIFLE * against["rifles"]
            )
            round_[seat] = {
                "killed": tally["killed"],
                "cannons": tally["cannons"],
                "rifles": tally["rifles"],
                "points": points,
            }
            totals[seat] += points
        rounds.append(round_)
    finished = state["phase"] == "finished"
    return {
        "rounds": rounds,
        "totals": totals,
        "winner": _leader(totals) if finished else None,
        "finished": finished,
    }
